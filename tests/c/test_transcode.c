/* df_utf8_shape, df_utf8_decode and df_ucs_encode of
 * src/diverge_frames/_strings.h against character-by-character references, on UTF-8
 * built of every length of character and broken in every way UTF-8 breaks (a lead with
 * too few or too many continuation bytes, a stray continuation byte, overlong forms,
 * surrogates, code points past U+10FFFF, the bytes 0xF8-0xFF), at every length around
 * the kernels' steps (8 and 16 characters or code points, 32- and 64-byte blocks).
 *
 * Built and run by tests/test_scan_c.py twice: as the compiler builds the extension
 * (the kernels of each path the CPU has, AVX-512 and AVX2) and with -DDF_SCALAR (no
 * kernel: df_transcodes() is 0 and the functions do nothing, which is checked). Exit
 * status 0 when every check holds; otherwise the first failures are printed.
 *
 *   cc -O2 -I src/diverge_frames tests/c/test_transcode.c -o t && ./t
 */
#include <stdio.h>
#include <stdlib.h>

#include "_strings.h"

#define MAX 600

#include "random.h"

static int failures = 0;
static long checks = 0;

/* The well-formed UTF-8 of the Unicode standard (table 3-7), one character at a time:
   the code points of s[0:n] into cp (when not NULL) and their count, or -1. */
static df_ssize ref_decode(uint32_t *cp, const unsigned char *s, df_ssize n) {
    df_ssize i = 0, o = 0;
    int len, j;
    uint32_t c, least;
    while (i < n) {
        c = s[i];
        if (c < 0x80) len = 1, least = 0;
        else if (c >= 0xC2 && c <= 0xDF) len = 2, c &= 0x1F, least = 0x80;
        else if (c >= 0xE0 && c <= 0xEF) len = 3, c &= 0x0F, least = 0x800;
        else if (c >= 0xF0 && c <= 0xF4) len = 4, c &= 0x07, least = 0x10000;
        else return -1;
        if (i + len > n) return -1;
        for (j = 1; j < len; j++) {
            if ((s[i + j] & 0xC0) != 0x80) return -1;
            c = (c << 6) | (s[i + j] & 0x3F);
        }
        if (c < least || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return -1;
        if (cp) cp[o] = c;
        o++;
        i += len;
    }
    return o;
}

static df_ssize ref_encode(unsigned char *d, const uint32_t *cp, df_ssize n) {
    df_ssize i, o = 0;
    uint32_t c;
    for (i = 0; i < n; i++) {
        c = cp[i];
        if (c < 0x80) {
            d[o++] = (unsigned char)c;
        } else if (c < 0x800) {
            d[o++] = (unsigned char)(0xC0 | (c >> 6));
            d[o++] = (unsigned char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            d[o++] = (unsigned char)(0xE0 | (c >> 12));
            d[o++] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            d[o++] = (unsigned char)(0x80 | (c & 0x3F));
        } else {
            d[o++] = (unsigned char)(0xF0 | (c >> 18));
            d[o++] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
            d[o++] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            d[o++] = (unsigned char)(0x80 | (c & 0x3F));
        }
    }
    return o;
}

/* A code point below the bound of kind (0x100, 0x10000, 0x110000), no surrogate,
   of each UTF-8 length about as often (ASCII more). */
static uint32_t random_cp(uint32_t bound) {
    uint32_t c;
    for (;;) {
        switch (next_random() % 5) {
        case 0: case 1: c = next_random() % 0x80; break;
        case 2: c = 0x80 + next_random() % 0x780; break;
        case 3: c = 0x800 + next_random() % 0xF800; break;
        default: c = 0x10000 + next_random() % 0x100000; break;
        }
        if (c < bound && (c < 0xD800 || c > 0xDFFF)) return c;
    }
}

static void fail(const char *what, df_ssize n, const unsigned char *s) {
    df_ssize i;
    if (++failures > 10) return;
    fprintf(stderr, "%s, %ld bytes:", what, (long)n);
    for (i = 0; i < n && i < 80; i++) fprintf(stderr, " %02x", s[i]);
    fprintf(stderr, "\n");
}

static uint32_t units(const void *d, int kind, df_ssize i) {
    return kind == 1 ? ((const unsigned char *)d)[i]
           : kind == 2 ? ((const uint16_t *)d)[i] : ((const uint32_t *)d)[i];
}

/* Decode s[0:n] (at an offset in a buffer, so that blocks straddle every alignment)
   and compare with the reference. */
static void check_decode(const unsigned char *s, df_ssize n) {
    static uint32_t want[MAX + 1];
    static unsigned char out[4 * MAX + 64];
    df_ssize chars, count = ref_decode(want, s, n), i;
    uint32_t maxchar, top = 0;
    int kind, got;
    checks++;
    maxchar = df_utf8_shape(s, n, &chars);
    if (count >= 0) {
        for (i = 0; i < count; i++)
            if (want[i] > top) top = want[i];
        if (chars != count) fail("shape: count", n, s);
        if (maxchar != (top < 0x80 ? 127u : top < 0x100 ? 255u : top < 0x10000 ? 0xFFFFu
                                                                              : 0x10FFFFu))
            fail("shape: maxchar", n, s);
    }
    kind = maxchar < 0x100 ? 1 : maxchar < 0x10000 ? 2 : 4;
    memset(out, 0xA5, sizeof out);
    got = df_utf8_decode(out, kind, chars, s, n);
    if ((got == 0) != (count >= 0)) {
        fail(got == 0 ? "decode: accepted invalid UTF-8" : "decode: rejected valid UTF-8", n, s);
        return;
    }
    /* nothing past the count of characters written, valid or not */
    for (i = chars * kind; i < (df_ssize)sizeof out; i++)
        if (out[i] != 0xA5) {
            fail("decode: wrote past the characters", n, s);
            break;
        }
    if (count >= 0)
        for (i = 0; i < count; i++)
            if (units(out, kind, i) != want[i]) {
                fail("decode: wrong code point", n, s);
                break;
            }
}

/* Random valid UTF-8 of n bytes or a little less, of characters below bound. */
static df_ssize random_utf8(unsigned char *s, df_ssize n, uint32_t bound) {
    uint32_t c;
    df_ssize o = 0, w;
    unsigned char one[4];
    for (;;) {
        c = random_cp(bound);
        w = ref_encode(one, &c, 1);
        if (o + w > n) break;
        memcpy(s + o, one, (size_t)w);
        o += w;
    }
    while (o < n) s[o++] = (unsigned char)(next_random() % 0x80);
    return o;
}

/* One way of breaking UTF-8, at byte i. */
static void corrupt(unsigned char *s, df_ssize n, df_ssize i) {
    static const unsigned char overlong[][4] = {
        {0xC0, 0x80}, {0xC1, 0xBF}, {0xE0, 0x80, 0x80}, {0xE0, 0x9F, 0xBF},
        {0xF0, 0x80, 0x80, 0x80}, {0xF0, 0x8F, 0xBF, 0xBF}, {0xED, 0xA0, 0x80},
        {0xED, 0xBF, 0xBF}, {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80},
        {0xF8, 0x88, 0x80, 0x80}, {0xFF, 0x80, 0x80, 0x80}, {0xFE, 0x41, 0x41, 0x41},
    };
    unsigned r = next_random() % 6, j;
    if (r == 0) s[i] = (unsigned char)(0x80 + next_random() % 0x40); /* a stray continuation */
    else if (r == 1) s[i] = (unsigned char)(0xC2 + next_random() % 0x3E); /* a lead, cut short */
    else if (r == 2) s[i] = (unsigned char)(0xF8 + next_random() % 8);
    else if (r == 3) s[i] = (unsigned char)(next_random() % 0x80); /* a lead's tail cut */
    else {
        j = next_random() % (sizeof overlong / sizeof overlong[0]);
        memcpy(s + i, overlong[j], (size_t)(n - i < 4 ? n - i : 4));
    }
}

static void check_encode(int kind, df_ssize n) {
    static uint32_t cp[MAX];
    static unsigned char u[4 * MAX], want[4 * MAX];
    uint32_t bound = kind == 1 ? 0x100 : kind == 2 ? 0x10000 : 0x110000;
    df_ssize i, size, room = df_ucs_room(kind, n), o;
    /* exactly the room it asks for, and 16 bytes after that nothing may touch */
    unsigned char *out = malloc((size_t)room + 16);
    checks++;
    for (i = 0; i < n; i++) {
        cp[i] = random_cp(bound);
        if (kind == 1) u[i] = (unsigned char)cp[i];
        else if (kind == 2) ((uint16_t *)u)[i] = (uint16_t)cp[i];
        else ((uint32_t *)u)[i] = cp[i];
    }
    size = ref_encode(want, cp, n);
    memset(out + room, 0xA5, 16);
    o = df_ucs_encode(out, u, kind, n);
    if (o != size || memcmp(out, want, (size_t)size)) fail("encode: bytes", 0, u);
    for (i = 0; i < 16; i++)
        if (out[room + i] != 0xA5) fail("encode: past its room", 0, u);
    if (kind > 1 && n > 0) { /* a surrogate anywhere, the last unit included */
        i = next_random() % 4 ? (df_ssize)(next_random() % (unsigned)n) : n - 1;
        if (kind == 2) ((uint16_t *)u)[i] = (uint16_t)(0xD800 + next_random() % 0x800);
        else ((uint32_t *)u)[i] = 0xD800 + next_random() % 0x800;
        if (df_ucs_encode(out, u, kind, n) != -1) fail("encode: a surrogate passed", 0, u);
    }
    free(out);
}

int main(void) {
    static unsigned char buf[MAX + 64];
    static const uint32_t bounds[] = {0x80, 0x100, 0x800, 0x10000, 0x110000};
    df_ssize n, off, m, i;
    int round, b, kind, best, path;
    df_strings_init();
    best = df_string_path;
    if (!df_transcodes()) {
        /* no kernel: nothing decodes, the extension calls CPython's codec */
        if (df_utf8_decode(buf, 1, 1, (const unsigned char *)"a", 1) != -1 ||
            df_ucs_encode(buf, "\xe9", 1, 1) != -1)
            failures++;
        printf("transcode: no kernel on this path, DF_SSE2=%d\n", DF_SSE2);
        if (!failures) printf("ok: every transcoding matches its reference\n");
        return failures != 0;
    }
    /* the kernels of each path from the best the CPU has down to AVX2 */
    for (path = best; path >= 2; path--) {
        df_string_path = path;
        printf("transcode: path %d\n", path);
        for (round = 0; round < 40; round++)
            for (n = 0; n <= 300; n++)
                for (b = 0; b < 5; b++) {
                    off = round % 64;
                    m = random_utf8(buf + off, n, bounds[b]);
                    check_decode(buf + off, m);
                    if (m > 0) {
                        for (i = 0; i < 1 + (df_ssize)(next_random() % 3); i++)
                            corrupt(buf + off, m, (df_ssize)(next_random() % (unsigned)m));
                        check_decode(buf + off, m);
                        m -= (df_ssize)(next_random() % 4); /* cut anywhere */
                        if (m >= 0) check_decode(buf + off, m);
                    }
                }
        for (round = 0; round < 20; round++)
            for (n = 0; n <= MAX; n += 1 + (n > 200) * 7)
                for (kind = 1; kind <= 4; kind *= 2) check_encode(kind, n);
    }
    df_string_path = best;
    printf("transcode: %ld checks, %d failures, DF_SSE2=%d\n", checks, failures, DF_SSE2);
    if (!failures) printf("ok: every transcoding matches its reference\n");
    return failures != 0;
}
