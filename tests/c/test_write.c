/* df_string_write of src/diverge_frames/_strings.h against a byte-by-byte reference, on
 * every path the build has (AVX-512, AVX2 when the CPU has them, SSE2, SWAR).
 *
 * Built and run by tests/test_scan_c.py twice: as the compiler builds the extension
 * and with -DDF_SCALAR. Exit status 0 when every check holds; otherwise the first
 * failures are printed.
 *
 *   cc -O2 -I src/diverge_frames tests/c/test_write.c -o test_write && ./test_write
 */
#include <stdio.h>
#include <stdlib.h>

#include "_strings.h"

#define MAX 1100
#define CANARY 0xA5

#define RANDOM_SEED 0x9E3779B97F4A7C15ULL
#include "random.h"

static int failures = 0;
static long checks = 0;

/* serde_json's format_escaped_str_contents, one byte at a time: the short escapes by
   name, \u00XX with lowercase hex for the other bytes below 0x20, the rest as it is. */
static df_ssize ref_write(unsigned char *d, const unsigned char *s, df_ssize n) {
    static const char hex[] = "0123456789abcdef";
    df_ssize i, o = 0;
    unsigned char c;
    for (i = 0; i < n; i++) {
        c = s[i];
        if (c == '"' || c == '\\') {
            d[o++] = '\\';
            d[o++] = c;
        } else if (c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
            d[o++] = '\\';
            d[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : c == '\b' ? 'b' : 'f';
        } else if (c < 0x20) {
            d[o++] = '\\';
            d[o++] = 'u';
            d[o++] = '0';
            d[o++] = '0';
            d[o++] = (unsigned char)hex[c >> 4];
            d[o++] = (unsigned char)hex[c & 15];
        } else {
            d[o++] = c;
        }
    }
    return o;
}

static void report(const char *what, const unsigned char *s, df_ssize n, df_ssize got,
                   df_ssize want) {
    df_ssize i;
    if (failures++ < 5) {
        fprintf(stderr, "FAIL df_string_write %s (path %d, n=%ld): length %ld, want %ld; bytes:",
                what, df_string_path, (long)n, (long)got, (long)want);
        for (i = 0; i < n; i++) fprintf(stderr, " %02x", s[i]);
        fprintf(stderr, "\n");
    }
}

/* Whether the CANARY bytes d[from:to] are untouched. */
static int untouched(const unsigned char *d, df_ssize from, df_ssize to) {
    for (; from < to; from++)
        if (d[from] != CANARY) return 0;
    return 1;
}

/* s[:n] written with DF_WRITE_ROOM(n) of room at once, then in pieces with room for
   a random few bytes at a time, grown as the contract says when nothing fits: each the
   reference's bytes, nothing written past the room given. */
static void check(const unsigned char *s, df_ssize n) {
    static unsigned char want[6 * MAX], got[6 * MAX + 1024];
    df_ssize w = ref_write(want, s, n), g, room = DF_WRITE_ROOM(n), at = 0, o = 0, cap, r;
    memset(got, CANARY, (size_t)room + 64);
    g = df_string_write(got, room, s, n, &at);
    checks++;
    if (g != w || at != n || memcmp(got, want, (size_t)w) != 0 || !untouched(got, room, room + 64))
        report("with all its room", s, n, g, w);
    at = 0;
    memset(got, CANARY, sizeof got);
    while (at < n) {
        cap = (df_ssize)(next_random() % 600);
        r = n - at;
        if (cap < 2 * r + 768 && cap < 6 * r && next_random() % 2) /* the room that goes on */
            cap = 2 * r + 768 < 6 * r ? 2 * r + 768 : 6 * r;
        g = df_string_write(got + o, cap, s, n, &at);
        if (g > cap || !untouched(got, o + cap, o + cap + 64) ||
            (g == 0 && (cap >= 2 * r + 768 || cap >= 6 * r))) {
            report("in pieces", s, n, g, cap);
            return;
        }
        memset(got + o + g, CANARY, (size_t)cap + 64); /* what was stored past the length */
        o += g;
    }
    checks++;
    if (o != w || memcmp(got, want, (size_t)w) != 0) report("in pieces", s, n, o, w);
}

/* Bytes that stand for every class: plain ASCII, each short escape, other controls,
   0x7F, and the bytes of 2-, 3- and 4-byte UTF-8. */
static const unsigned char SPECIAL[] = {'"',  '\\', '\n', '\r', '\t', '\b', '\f', 0x00, 0x01,
                                        0x1F, 0x0B, 0x7F, '/',  0xC3, 0xA9, 0xE2, 0x82, 0xAC,
                                        0xF0, 0x9F, 0x98, 0x80, 0xFF, 0x80, ' ', 'a'};

static void check_path(void) {
    static unsigned char buf[MAX];
    df_ssize n, at;
    int round, b;
    const int k = (int)sizeof SPECIAL;
    /* each length up to 300, plain, and with one special byte at every place */
    for (n = 0; n <= 300; n++) {
        memset(buf, 'x', (size_t)n);
        check(buf, n);
        for (at = 0; at < n; at++)
            for (b = 0; b < k; b++) {
                buf[at] = SPECIAL[b];
                check(buf, n);
                buf[at] = 'x';
            }
    }
    /* every byte value around the 16, 32 and 64-byte boundaries of a 200-byte string */
    for (b = 0; b < 256; b++)
        for (at = 10; at < 140; at++) {
            memset(buf, 'y', 200);
            buf[at] = (unsigned char)b;
            buf[at + 1] = (unsigned char)b;
            check(buf, 200);
        }
    /* random strings: sparse and dense escapes, runs of them, long clean runs */
    for (round = 0; round < 20000; round++) {
        int density = (int)(next_random() % 4);
        n = (df_ssize)(next_random() % MAX);
        for (at = 0; at < n; at++) {
            unsigned r = next_random();
            if (density == 0 || r % (density == 1 ? 200 : density == 2 ? 8 : 2))
                buf[at] = (unsigned char)(0x20 + r % 95); /* printable ASCII */
            else
                buf[at] = r & 1 ? SPECIAL[(r >> 1) % (unsigned)k] : (unsigned char)(r >> 8);
        }
        check(buf, n);
    }
}

int main(void) {
    int path, top, paths = 0;
    df_strings_init();
    top = df_string_path;
    for (path = top; path >= 0; path--) {
        df_string_path = path;
        check_path();
        paths++;
    }
    if (failures) {
        fprintf(stderr, "%d failures (DF_SSE2=%d)\n", failures, DF_SSE2);
        return 1;
    }
    printf("ok: every string write matches its reference on %d paths, %ld checks (best %d, "
           "DF_SSE2=%d)\n",
           paths, checks, top, DF_SSE2);
    return 0;
}
