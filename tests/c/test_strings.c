/* The string functions of src/diverge_frames/_strings.h against byte-by-byte references,
 * on every path the build has (AVX2 when the CPU has it, SSE2, SWAR).
 *
 * Built and run by tests/test_scan_c.py twice: as the compiler builds the extension
 * and with -DDF_SCALAR. Exit status 0 when every check holds; otherwise the first
 * failures are printed.
 *
 *   cc -O2 -I src/diverge_frames tests/c/test_strings.c -o test_strings && ./test_strings
 */
#include <stdio.h>
#include <stdlib.h>

#include "_strings.h"

#define MAX 700

#include "random.h"

static int failures = 0;

static void fail(const char *what, const unsigned char *p, df_ssize n, df_ssize j,
                 long long got, long long want) {
    df_ssize i;
    if (failures++ < 5) {
        fprintf(stderr, "FAIL %s (path %d, n=%ld, j=%ld): got %lld, want %lld; bytes:", what,
                df_string_path, (long)n, (long)j, got, want);
        for (i = 0; i < n; i++) fprintf(stderr, " %02x", p[i]);
        fprintf(stderr, "\n");
    }
}

/* ---- references: one byte at a time */

/* The end of the string whose content starts at p[j], or -1; *control: whether the
   content holds a control byte (an escaped one counts). */
static df_ssize ref_string_end(const unsigned char *p, df_ssize n, df_ssize j, int *control) {
    *control = 0;
    for (; j < n; j++) {
        if (p[j] == 0x22) return j;
        if (p[j] < 0x20) *control = 1;
        if (p[j] == 0x5C) {
            if (++j == n) return -1;
            if (p[j] < 0x20) *control = 1;
        }
    }
    return -1;
}

static int ref_hex(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static long ref_hex4(const unsigned char *s) {
    long value = 0;
    int i, h;
    for (i = 0; i < 4; i++) {
        h = ref_hex(s[i]);
        if (h < 0) return -1;
        value = value * 16 + h;
    }
    return value;
}

static df_ssize put_utf8(unsigned char *d, df_ssize o, long cp) {
    if (cp < 0x80) {
        d[o++] = (unsigned char)cp;
    } else if (cp < 0x800) {
        d[o++] = (unsigned char)(0xC0 | (cp >> 6));
        d[o++] = (unsigned char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        d[o++] = (unsigned char)(0xE0 | (cp >> 12));
        d[o++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        d[o++] = (unsigned char)(0x80 | (cp & 0x3F));
    } else {
        d[o++] = (unsigned char)(0xF0 | (cp >> 18));
        d[o++] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        d[o++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        d[o++] = (unsigned char)(0x80 | (cp & 0x3F));
    }
    return o;
}

/* JSON's escapes as serde_json reads them into a str (lone surrogates rejected). */
static df_ssize ref_unescape(unsigned char *d, const unsigned char *s, df_ssize m) {
    df_ssize i = 0, o = 0;
    long cp, low;
    while (i < m) {
        if (s[i] < 0x20) return -1;
        if (s[i] != '\\') {
            d[o++] = s[i++];
            continue;
        }
        if (i + 1 >= m) return -1;
        switch (s[i + 1]) {
        case '"': d[o++] = '"'; i += 2; continue;
        case '\\': d[o++] = '\\'; i += 2; continue;
        case '/': d[o++] = '/'; i += 2; continue;
        case 'b': d[o++] = 8; i += 2; continue;
        case 'f': d[o++] = 12; i += 2; continue;
        case 'n': d[o++] = 10; i += 2; continue;
        case 'r': d[o++] = 13; i += 2; continue;
        case 't': d[o++] = 9; i += 2; continue;
        case 'u': break;
        default: return -1;
        }
        if (i + 6 > m || (cp = ref_hex4(s + i + 2)) < 0) return -1;
        i += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return -1;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (i + 6 > m || s[i] != '\\' || s[i + 1] != 'u') return -1;
            low = ref_hex4(s + i + 2);
            if (low < 0xDC00 || low > 0xDFFF) return -1;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
        }
        o = put_utf8(d, o, cp);
    }
    return o;
}

static int ref_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The first `"<name>"`, then any JSON whitespace, a colon, any whitespace and a quote,
   all in p[start:end], by where it starts. */
static df_ssize ref_find_string_key(const unsigned char *p, df_ssize start, df_ssize end,
                                    const char *names, int count, int *kind) {
    df_ssize i, j;
    int k;
    for (i = start; i + 6 <= end; i++) {
        for (k = 0; k < count; k++) {
            if (p[i] != '"' || memcmp(p + i + 1, names + 4 * k, 4) != 0 || p[i + 5] != '"')
                continue;
            for (j = i + 6; j < end && ref_ws(p[j]); j++) {
            }
            if (j >= end || p[j] != ':') continue;
            for (j++; j < end && ref_ws(p[j]); j++) {
            }
            if (j >= end || p[j] != '"') continue;
            *kind = k;
            return j + 1;
        }
    }
    return -1;
}

static df_ssize ref_count_empty(const unsigned char *p, df_ssize n) {
    df_ssize i, count = 0;
    for (i = 0; i + 1 < n; i++) count += p[i] == '"' && p[i + 1] == '"';
    return count;
}

/* ---- inputs */

/* Pieces of JSON string content: plain text, escapes valid and not, raw UTF-8 and
   bytes a string may not hold; and the pieces of keys. */
static const char *const PIECES[] = {
    "a", "b", "x", " ", "0", "f", "\xc3\xa9", "\xe2\x80\xa8", "\xf0\x9f\x98\x80", "\xff",
    "\x1f", "\x7f", "\"", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
    "\\u0041", "\\u00e9", "\\u00E9", "\\u2028", "\\u0000", "\\uD83D\\uDE00", "\\ud83d\\ude00",
    "\\uD800", "\\uDC00", "\\uD800\\u0041", "\\uD800\\uE000", "\\udbff\\uFFFF", "\\uD800\\n", "\\uDBFF\\uDFFF", "\\uD800\\uD800",
    "\\u12", "\\u12G4", "\\x", "\\", "\\\x01", "\\\xc3\xa9", "\\\xee", "\\\xe2\x80\xa8", ":", "\"text\":\"",
    "\"blob\":\"", "text", "\"\"", "blob\":\"", "\"tex\":\"", "\"data\":\"", "\"dat\":\"",
    /* whitespace around the colon, JSON's four bytes and others */
    "\"text\" : \"", "\"blob\"\n:\t\"", "\"data\":\r\n  \"", "\"text\"\t:", ": \"", " ", "\n  ",
    "\"text\" \f: \"", "\"blob\":\v\"", "\"data\" :\"", "\t", "\r",
};
#define N_PIECES (sizeof PIECES / sizeof PIECES[0])

/* Random content of about `target` bytes: long plain stretches (the 64-byte runs),
   then a piece; returns the length. */
static df_ssize build(unsigned char *p, df_ssize target, int density) {
    df_ssize n = 0, k;
    const char *piece;
    while (n < target) {
        if ((int)(next_random() % 100) < density) {
            piece = PIECES[next_random() % N_PIECES];
            k = (df_ssize)strlen(piece);
            if (n + k > MAX - 1) break;
            memcpy(p + n, piece, (size_t)k);
            n += k;
        } else {
            p[n++] = (unsigned char)('a' + next_random() % 26);
        }
    }
    return n;
}

/* df_string_copy from p[j], with room for cap bytes at first (more when it asks). The
   input and the room are read and written in heap blocks of exactly their size, so that
   a build with -fsanitize=address sees any access past either. */
static void check_copy_from(const unsigned char *input, df_ssize n, df_ssize j,
                            df_ssize cap) {
    unsigned char out[MAX + 64], ref[MAX];
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1), *room;
    df_copy at;
    df_ssize got, end, want_len, k;
    int control, calls = 0, want_flags = 0;
    memcpy(p, input, (size_t)n);
    end = ref_string_end(p, n, j, &control);
    want_len = end >= 0 && !control ? ref_unescape(ref, p + j, end - j) : -1;
    memset(out, 0xAA, sizeof out);
    df_copy_start(&at, j);
    for (;;) {
        room = malloc(cap > 0 ? (size_t)cap : 1);
        memcpy(room, out, (size_t)at.o);
        got = df_string_copy(room, cap, p, n, &at);
        memcpy(out, room, (size_t)cap);
        free(room);
        calls++;
        for (k = cap; k < (df_ssize)sizeof out; k++) {
            if (out[k] != 0xAA) {
                fail("df_string_copy wrote past its room", p, n, j, k, cap);
                return;
            }
        }
        if (got != -2) break;
        if (cap >= n - j || calls > 3) {
            fail("df_string_copy asked for more than n - start", p, n, j, cap, n - j);
            free(p);
            return;
        }
        cap = n - j;
    }
    if (want_len < 0) {
        if (got != -1) fail("df_string_copy accepted", p, n, j, got, -1);
        free(p);
        return;
    }
    if (got != end || at.o != want_len) {
        fail("df_string_copy", p, n, j, got * 10000 + at.o, end * 10000 + want_len);
        free(p);
        return;
    }
    if (memcmp(out, ref, (size_t)want_len) != 0) fail("df_string_copy bytes", p, n, j, 0, 0);
    if (memchr(p + j, 0x5C, (size_t)(end - j))) want_flags |= DF_STR_ESCAPED;
    for (k = 0; k < want_len; k++)
        if (ref[k] >= 0x80) want_flags |= DF_STR_HIGH;
    if (at.flags != want_flags) fail("df_string_copy flags", p, n, j, at.flags, want_flags);
    free(p);
}

static void check_copy(const unsigned char *input, df_ssize n) {
    df_ssize j, k, want;
    unsigned char *p = malloc(n > 0 ? (size_t)n : 1); /* exactly n bytes (see above) */
    memcpy(p, input, (size_t)n);
    for (j = 0; j <= n; j++) {
        for (want = j; want < n && p[want] != 0x22 && p[want] != 0x5C && p[want] >= 0x20; want++) {
        }
        k = df_stop_index(p, n, j);
        if (k != want) fail("df_stop_index", p, n, j, k, want);
    }
    free(p);
    for (j = 0; j <= n; j += 1 + (df_ssize)(next_random() % 3)) {
        check_copy_from(input, n, j, n - j);
        check_copy_from(input, n, j, (df_ssize)(next_random() % (unsigned)(n - j + 1)));
    }
}

static void check_keys(const unsigned char *p, df_ssize n) {
    df_ssize start, end, got, want;
    int kind = 0, want_kind = 0;
    for (start = 0; start <= n; start += 1 + (df_ssize)(next_random() % 5)) {
        end = start + (df_ssize)(next_random() % (unsigned)(n - start + 1));
        got = df_find_string_key(p, start, end, "textblob", 2, &kind);
        want = ref_find_string_key(p, start, end, "textblob", 2, &want_kind);
        if (got != want || (got >= 0 && kind != want_kind))
            fail("df_find_string_key", p + start, end - start, start, got, want);
        got = df_find_string_key(p, start, end, "data", 1, &kind);
        want = ref_find_string_key(p, start, end, "data", 1, &want_kind);
        if (got != want || (got >= 0 && kind != want_kind))
            fail("df_find_string_key data", p + start, end - start, start, got, want);
    }
    if (df_count_empty(p, n) != ref_count_empty(p, n))
        fail("df_count_empty", p, n, 0, df_count_empty(p, n), ref_count_empty(p, n));
}

/* The block masks and copies of every path, against one byte at a time. */
static void check_masks(const unsigned char *p) {
    df_masks got, want;
    unsigned char copy[64];
    int i;
    want.quote = want.slash = want.control = want.high = 0;
    for (i = 0; i < 64; i++) {
        want.quote |= (uint64_t)(p[i] == 0x22) << i;
        want.slash |= (uint64_t)(p[i] == 0x5C) << i;
        want.control |= (uint64_t)(p[i] < 0x20) << i;
        want.high |= (uint64_t)(p[i] >= 0x80) << i;
    }
#define CHECK_MASKS(path, masks, copy_fn)                                                  \
    masks(p, &got);                                                                       \
    if (got.quote != want.quote || got.slash != want.slash ||                             \
        got.control != want.control || got.high != want.high)                             \
        fail("df_masks_" path, p, 64, 0, (long long)got.slash, (long long)want.slash);    \
    memset(copy, 0, 64);                                                                   \
    copy_fn(copy, p);                                                                      \
    if (memcmp(copy, p, 64) != 0) fail("df_copy_" path, p, 64, 0, 0, 0);
    CHECK_MASKS("swar", df_masks_swar, df_copy_swar)
#if DF_SSE2
    CHECK_MASKS("sse2", df_masks_sse2, df_copy_sse2)
#endif
#if DF_AVX2
    if (df_string_path == 2) {
        CHECK_MASKS("avx2", df_masks_avx2, df_copy_avx2)
    }
#endif
#if DF_AVX512
    if (df_string_path == 3) {
        CHECK_MASKS("avx512", df_masks_avx512, df_copy_avx512)
    }
#endif
}

static void check_escaped64(uint64_t backslash, uint64_t prev) {
    uint64_t want = 0, carry = prev, got, next = prev;
    int i;
    for (i = 0; i < 64; i++) {
        if (carry) {
            want |= 1ULL << i;
            carry = 0;
        } else if (backslash >> i & 1) {
            carry = 1;
        }
    }
    got = df_escaped64(backslash, &next);
    if (got != want || next != carry) {
        if (failures++ < 5)
            fprintf(stderr, "FAIL df_escaped64(%016llx, %llu): %016llx/%llu, want %016llx/%llu\n",
                    (unsigned long long)backslash, (unsigned long long)prev,
                    (unsigned long long)got, (unsigned long long)next,
                    (unsigned long long)want, (unsigned long long)carry);
    }
}

static void check_path(void) {
    unsigned char buf[MAX];
    df_ssize n;
    int round;
    /* every string of up to 4 pieces over a few of them: each escape next to another */
    static const int few[] = {0, 6, 12, 13, 14, 18, 21, 26, 28, 29, 33, 36, 37};
    int a, b, c, d;
    const int k = (int)(sizeof few / sizeof few[0]);
    for (a = 0; a < k; a++)
        for (b = 0; b < k; b++)
            for (c = 0; c < k; c++)
                for (d = 0; d < 4; d++) {
                    n = 0;
                    memcpy(buf + n, PIECES[few[a]], strlen(PIECES[few[a]]));
                    n += (df_ssize)strlen(PIECES[few[a]]);
                    memcpy(buf + n, PIECES[few[b]], strlen(PIECES[few[b]]));
                    n += (df_ssize)strlen(PIECES[few[b]]);
                    memcpy(buf + n, PIECES[few[c]], strlen(PIECES[few[c]]));
                    n += (df_ssize)strlen(PIECES[few[c]]);
                    memset(buf + n, 'x', (size_t)(d * 7));
                    n += d * 7;
                    buf[n++] = '"';
                    check_copy(buf, n);
                }
    /* random contents of every length up to ~600: runs, blocks and their tails */
    for (round = 0; round < 3000; round++) {
        int density = (int)(next_random() % 4) == 0 ? 30 : 2;
        n = build(buf, (df_ssize)(next_random() % 600), density);
        if (next_random() % 4) buf[n++] = '"';
        check_copy(buf, n);
        check_keys(buf, n);
        if (n >= 64) check_masks(buf + n - 64);
    }
    for (round = 0; round < 20000; round++) {
        for (n = 0; n < 64; n++) buf[n] = (unsigned char)next_random();
        check_masks(buf);
    }
}

int main(void) {
    int path, top = df_string_path, paths = 0;
    uint64_t mask;
    int round, shift;
    df_strings_init();
    top = df_string_path;
    /* the escape arithmetic: every 16-bit pattern at each end, random ones between */
    for (mask = 0; mask < 0x10000u; mask++)
        for (shift = 0; shift <= 48; shift += 48) {
            check_escaped64(mask << shift, 0);
            check_escaped64(mask << shift, 1);
        }
    for (round = 0; round < 200000; round++) {
        mask = (uint64_t)next_random() << 32 | next_random();
        mask &= (uint64_t)next_random() << 32 | next_random(); /* runs of all lengths */
        check_escaped64(mask, 0);
        check_escaped64(~mask, 1);
        check_escaped64(mask | ~((uint64_t)next_random() << 32 | next_random()), round & 1);
    }
    for (path = top; path >= 0; path--) {
        df_string_path = path;
        check_path();
        paths++;
    }
    if (failures) {
        fprintf(stderr, "%d failures (DF_SSE2=%d)\n", failures, DF_SSE2);
        return 1;
    }
    printf("ok: every string function matches its reference on %d paths (best %d, DF_SSE2=%d)\n",
           paths, top, DF_SSE2);
    return 0;
}
