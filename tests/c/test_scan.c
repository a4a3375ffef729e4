/* The scanners of src/diverge_frames/_scan.h against byte-by-byte references.
 *
 * Built and run by tests/test_scan_c.py twice: as the compiler builds the extension
 * (SSE2 on x86-64) and with -DDF_SCALAR (the memchr/SWAR path that arm64 runs).
 * Exit status 0 when every check holds; otherwise the first failure is printed.
 *
 *   cc -O2 -I src/diverge_frames tests/c/test_scan.c -o test_scan && ./test_scan
 */
#include <stdio.h>
#include <stdlib.h>

#include "_scan.h"

#define RANDOM_SEED 0x9E3779B97F4A7C15ULL
#include "random.h"

static int failures = 0;

static void fail(const char *what, const unsigned char *p, df_ssize n, df_ssize j,
                 long long got, long long want) {
    df_ssize i;
    if (failures++ < 5) {
        fprintf(stderr, "FAIL %s (n=%ld, j=%ld): got %lld, want %lld; bytes:", what, (long)n,
                (long)j, got, want);
        for (i = 0; i < n; i++) fprintf(stderr, " %02x", p[i]);
        fprintf(stderr, "\n");
    }
}

/* ---- references: one byte at a time */

static df_ssize ref_string_end(const unsigned char *p, df_ssize n, df_ssize j, int *escaped,
                               int *high) {
    *escaped = 0;
    *high = 0;
    for (; j < n; j++) {
        if (p[j] == 0x5C) {
            *escaped = 1;
            if (j + 1 < n && p[j + 1] >= 0x80) *high = 1;
            j++;
            continue;
        }
        if (p[j] == 0x22) return j;
        if (p[j] >= 0x80) *high = 1;
    }
    return -1;
}

static df_ssize ref_e_digit(const unsigned char *p, df_ssize n, df_ssize i) {
    for (; i + 1 < n; i++)
        if (p[i] == 'e' && p[i + 1] >= '0' && p[i + 1] <= '9') return i;
    return -1;
}

static int ref_has_key(const unsigned char *p, df_ssize n, const char *name) {
    df_ssize i;
    for (i = 0; i + 6 <= n; i++)
        if (p[i] == '"' && memcmp(p + i + 1, name, 4) == 0 && p[i + 5] == '"') return 1;
    return 0;
}

static int ref_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* `{"method":"` at the start, any JSON whitespace before and between its tokens. */
static df_ssize ref_method_start(const unsigned char *p, df_ssize n) {
    static const char *const tokens[] = {"{", "\"method\"", ":", "\""};
    df_ssize i = 0, k, len;
    for (k = 0; k < 4; k++) {
        while (i < n && ref_ws(p[i])) i++;
        len = (df_ssize)strlen(tokens[k]);
        if (n - i < len || memcmp(p + i, tokens[k], (size_t)len) != 0) return -1;
        i += len;
    }
    return i;
}

/* Decode one code point the way Rust's str::from_utf8 does; -1 when invalid. */
static df_ssize ref_utf8_step(const unsigned char *p, df_ssize n, df_ssize i) {
    unsigned c = p[i], cp;
    df_ssize len, k;
    if (c < 0x80) return 1;
    if (c >= 0xC0 && c < 0xE0) len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c < 0xF0) len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c < 0xF8) len = 4, cp = c & 0x07;
    else return -1;
    if (i + len > n) return -1;
    for (k = 1; k < len; k++) {
        if ((p[i + k] & 0xC0) != 0x80) return -1;
        cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
        return -1; /* overlong */
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
    return len;
}

static int ref_valid_utf8(const unsigned char *p, df_ssize n) {
    df_ssize i = 0, step;
    while (i < n) {
        step = ref_utf8_step(p, n, i);
        if (step < 0) return 0;
        i += step;
    }
    return 1;
}

/* ---- inputs: bytes drawn from an alphabet that makes the scanners' cases common */

static const unsigned char ALPHABET[] = {'"', '\\', 'e', '0', '9', 'a', 'b', 'l', 'o',
                                         ' ', 0x1F, 0x80, 0xC3, 0xA9, 0xE2, 0xF0, 0xED, 0xFF,
                                         '\t', '\n', '\r', '\f', '\v', 0xA0};

static void fill(unsigned char *p, df_ssize n, int mode) {
    df_ssize i;
    for (i = 0; i < n; i++) {
        unsigned r = next_random();
        if (mode == 0) p[i] = ALPHABET[r % sizeof ALPHABET];
        else if (mode == 1) p[i] = (r % 8 == 0) ? ALPHABET[r % sizeof ALPHABET] : 'x';
        else p[i] = (unsigned char)r;
    }
}

static void check_string_end(const unsigned char *p, df_ssize n, df_ssize j) {
    int flags = 0, escaped, high;
    df_ssize got = df_string_end(p, n, j, &flags);
    df_ssize want = ref_string_end(p, n, j, &escaped, &high);
    if (got != want) {
        fail("df_string_end", p, n, j, got, want);
        return;
    }
    if (got < 0) return; /* flags are unspecified for an unclosed string */
    if (((flags & DF_ESCAPED) != 0) != escaped)
        fail("df_string_end DF_ESCAPED", p, n, j, flags, escaped);
    /* With SSE2, DF_HIGH is set exactly when the string holds a byte >= 0x80; without
       it, never (the callers check the UTF-8 of the whole body instead). */
    if (DF_SSE2 ? (((flags & DF_HIGH) != 0) != high) : (flags & DF_HIGH) != 0)
        fail("df_string_end DF_HIGH", p, n, j, flags, high);
}

static void check_all(const unsigned char *p, df_ssize n) {
    df_ssize j, want;
    for (j = 0; j <= n; j++) {
        check_string_end(p, n, j);
        for (want = j; want < n && ref_ws(p[want]); want++) {
        }
        if (df_ws_end(p, n, j) != want) fail("df_ws_end", p, n, j, df_ws_end(p, n, j), want);
        if (df_e_digit(p, n, j) != ref_e_digit(p, n, j))
            fail("df_e_digit", p, n, j, df_e_digit(p, n, j), ref_e_digit(p, n, j));
    }
    if (df_valid_utf8(p, n) != ref_valid_utf8(p, n))
        fail("df_valid_utf8", p, n, 0, df_valid_utf8(p, n), ref_valid_utf8(p, n));
    if (df_method_start(p, n) != ref_method_start(p, n))
        fail("df_method_start", p, n, 0, df_method_start(p, n), ref_method_start(p, n));
    if (df_has_key(p, n, "blob") != ref_has_key(p, n, "blob"))
        fail("df_has_key blob", p, n, 0, df_has_key(p, n, "blob"), ref_has_key(p, n, "blob"));
    if (df_has_key(p, n, "text") != ref_has_key(p, n, "text"))
        fail("df_has_key text", p, n, 0, df_has_key(p, n, "text"), ref_has_key(p, n, "text"));
}

int main(void) {
    unsigned char buf[512];
    df_ssize n;
    int round, mode;
#if DF_SSE2
    unsigned mask, carry;
#endif
    /* every string of up to 5 bytes over a small alphabet: each quote/backslash layout */
    static const unsigned char small[] = {'"', '\\', 'e', '5', 0xC3, 0xA9};
    for (n = 0; n <= 5; n++) {
        unsigned long total = 1, index, i, x;
        for (i = 0; i < (unsigned long)n; i++) total *= sizeof small;
        for (index = 0; index < total; index++) {
            for (i = 0, x = index; i < (unsigned long)n; i++, x /= sizeof small)
                buf[i] = small[x % sizeof small];
            check_all(buf, n);
        }
    }
    /* random inputs of every length up to 300, the SIMD blocks and their tails */
    for (round = 0; round < 20000; round++) {
        n = (df_ssize)(next_random() % 300);
        mode = (int)(next_random() % 3);
        fill(buf, n, mode);
        if (n >= 6 && round % 2) { /* a `"blob"` or `"text"` key, or one byte of it wrong, somewhere */
            static const char *const keys[] = {"\"blob\"", "\"blo\"\"", "\"bloc\"", "xblob\"",
                                               "\"blob\\", "\"Blob\"", "\"text\"", "\"tex\"\""};
            memcpy(buf + next_random() % (unsigned)(n - 5), keys[next_random() % 8], 6);
        }
        check_all(buf, n);
    }
    /* `{"method":"` with whitespace (JSON's and others) before and between its tokens,
       or a byte of it wrong, then random bytes */
    for (round = 0; round < 20000; round++) {
        static const char *const parts[] = {"{", "\"method\"", ":", "\""};
        static const char *const gaps[] = {"", "", " ", "\n  ", "\t", "\r\n", "\f", "\v",
                                           "\xc2\xa0", "  \n\t "};
        df_ssize k;
        int part;
        n = 0;
        for (part = 0; part < 4; part++) {
            const char *gap = gaps[next_random() % 10];
            memcpy(buf + n, gap, strlen(gap));
            n += (df_ssize)strlen(gap);
            memcpy(buf + n, parts[part], strlen(parts[part]));
            n += (df_ssize)strlen(parts[part]);
        }
        if (next_random() % 4 == 0) buf[next_random() % (unsigned)n] = 'x';
        k = (df_ssize)(next_random() % 40);
        fill(buf + n, k, 1);
        n += k;
        if (next_random() % 3 == 0) n = (df_ssize)(next_random() % (unsigned)(n + 1));
        check_all(buf, n);
    }
#if DF_SSE2
    /* df_escaped for every 16-bit backslash mask and both carries, against a scan */
    for (carry = 0; carry < 2; carry++) {
        for (mask = 0; mask < 0x10000u; mask++) {
            unsigned c = carry, got, want = 0, next_carry = 0, i, escape = carry;
            got = (unsigned)df_escaped(mask, &c);
            for (i = 0; i < 16; i++) {
                if (escape) {
                    want |= 1u << i;
                    escape = 0;
                } else if (mask & (1u << i)) {
                    escape = 1;
                }
            }
            next_carry = escape;
            if (got != want || c != next_carry) {
                if (failures++ < 5)
                    fprintf(stderr, "FAIL df_escaped(mask=%04x, carry=%u): %04x/%u, want %04x/%u\n",
                            mask, carry, got, c, want, next_carry);
            }
        }
    }
#endif
    if (failures) {
        fprintf(stderr, "%d failures (DF_SSE2=%d)\n", failures, DF_SSE2);
        return 1;
    }
    printf("ok: every scanner matches its reference (DF_SSE2=%d)\n", DF_SSE2);
    return 0;
}
