/* The number reading and writing of serde_json's C (src/diverge_frames/
 * _serde_json_number.h and _write_f64.h), for tests/test_serde_json_c.py, which compares
 * them with the Python reference (the ints written as floats: with msgspec's writing).
 *
 *   test_serde_json write COUNT SEED   df_write_f64 on COUNT random f64 (every exponent,
 *                                      subnormals and edge values too), each read back
 *                                      with strtod (correctly rounding): prints "ok" or
 *                                      the first f64 that does not come back
 *   test_serde_json numbers            one number token a line on stdin; a line out for
 *                                      each: "P" (plain), "R" (out of range), "I"
 *                                      (invalid), or "F <f64 bits in hex> <text>"
 *                                      (serde_json's f64 and df_write_f64's text)
 *   test_serde_json exponents          one line of JSON on stdin, the line out with
 *                                      df_sj_exponents's '+' (and its count first);
 *                                      exit status 2 when signing it in place differs
 *   test_serde_json members            lines of "<names, '.' between>	<JSON>" on stdin;
 *                                      a line out for each: df_sj_member_end's index
 *                                      and, unless -1, the JSON with df_sj_point_zero's
 *                                      ".0" there (a tab between)
 *
 *   cc -O2 -I src/diverge_frames tests/c/test_serde_json.c -o t && ./t write 1000000 1
 */
#include <stdio.h>
#include <stdlib.h>

#include "_serde_json_number.h"
#include "_write_f64.h"

static uint64_t rng_state;

static uint64_t next_random(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static int check_write(double x) {
    unsigned char text[DF_F64_CHARS + 1];
    int len = df_write_f64(x, text);
    double back;
    uint64_t a, b;
    if (len > DF_F64_CHARS) {
        fprintf(stderr, "too long: %d\n", len);
        return 0;
    }
    text[len] = 0;
    back = strtod((const char *)text, NULL);
    memcpy(&a, &x, 8);
    memcpy(&b, &back, 8);
    if (a != b) {
        fprintf(stderr, "FAIL %.17g (0x%016llx) written %s read %.17g\n", x, (unsigned long long)a,
                text, back);
        return 0;
    }
    return 1;
}

static int run_write(long count, unsigned long long seed) {
    long i;
    uint64_t bits;
    double x;
    int e;
    static const double edges[] = {5e-324, 1e-323, 2.2250738585072009e-308,
                                   2.2250738585072014e-308, 1.7976931348623157e308,
                                   1.0, 0.1, 0.3, 1e22, 1e23, 9007199254740993.0,
                                   4.9406564584124654e-324, 1e-300, 1e300};
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (i = 0; i < (long)(sizeof edges / sizeof edges[0]); i++)
        if (!check_write(edges[i]) || !check_write(-edges[i])) return 1;
    for (e = 0; e < 2047; e++) { /* each exponent: its first, last and a middle mantissa */
        bits = (uint64_t)e << 52;
        memcpy(&x, &bits, 8);
        if (bits && !check_write(x)) return 1;
        bits |= (1ULL << 52) - 1;
        memcpy(&x, &bits, 8);
        if (!check_write(x)) return 1;
        bits = ((uint64_t)e << 52) | (next_random() >> 12);
        memcpy(&x, &bits, 8);
        if (!check_write(x)) return 1;
    }
    for (i = 0; i < count; i++) {
        bits = next_random();
        if (((bits >> 52) & 0x7FF) == 0x7FF) continue; /* inf, nan */
        memcpy(&x, &bits, 8);
        if (!check_write(x)) return 1;
    }
    printf("ok\n");
    return 0;
}

static int run_numbers(void) {
    static char line[1 << 20];
    unsigned char text[DF_F64_CHARS + 1];
    df_ssize n, end;
    int kind, len;
    double f = 0.0;
    uint64_t bits;
    while (fgets(line, sizeof line, stdin)) {
        n = (df_ssize)strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
        if (n == 0) {
            puts("I");
            continue;
        }
        end = df_sj_number((const unsigned char *)line, n, 0, &kind, &f);
        if (kind == DF_NUM_INVALID || end != n) {
            puts("I");
        } else if (kind == DF_NUM_PLAIN) {
            puts("P");
        } else if (kind == DF_NUM_RANGE) {
            puts("R");
        } else {
            memcpy(&bits, &f, 8);
            len = df_write_f64(f, text);
            text[len] = 0;
            printf("F %016llx %s\n", (unsigned long long)bits, text);
        }
    }
    return 0;
}

static int run_exponents(void) {
    static unsigned char line[1 << 20], out[2 << 20], moved[2 << 20];
    df_ssize n, count, len;
    if (!fgets((char *)line, sizeof line, stdin)) return 1;
    n = (df_ssize)strlen((const char *)line);
    while (n && line[n - 1] == '\n') n--;
    count = df_sj_exponents(line, n, NULL);
    len = df_sj_exponents(line, n, out);
    printf("%ld\n", (long)count);
    fwrite(out, 1, (size_t)len, stdout);
    printf("\n");
    /* in place: the line moved forward by count bytes, then signed back to the start */
    memcpy(moved + count, line, (size_t)n);
    if (df_sj_exponents(moved + count, n, moved) != len || memcmp(moved, out, (size_t)len))
        return 2;
    return len == n + count ? 0 : 1;
}

static int run_members(void) {
    static unsigned char line[1 << 16], out[(1 << 16) + 2];
    const char *names[8];
    df_ssize lens[8], n, end, at[1], len;
    unsigned char *json, *c;
    int depth;
    while (fgets((char *)line, sizeof line, stdin)) {
        n = (df_ssize)strlen((const char *)line);
        while (n && line[n - 1] == '\n') line[--n] = 0;
        json = (unsigned char *)strchr((const char *)line, '\t');
        if (json == NULL) return 1;
        *json++ = 0;
        depth = 0;
        names[0] = (const char *)line;
        for (c = line;; c++) {
            if (*c == '.' || *c == 0) {
                if (depth == 8) return 1;
                lens[depth] = (df_ssize)((const char *)c - names[depth]);
                depth++;
                if (*c == 0) break;
                names[depth] = (const char *)c + 1;
            }
        }
        n = (df_ssize)strlen((const char *)json);
        end = df_sj_member_end(json, n, names, lens, depth);
        printf("%ld", (long)end);
        if (end >= 0) {
            at[0] = end;
            len = df_sj_point_zero(json, n, at, 1, out);
            printf("\t");
            fwrite(out, 1, (size_t)len, stdout);
        }
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "write") == 0)
        return run_write(atol(argv[2]), strtoull(argv[3], NULL, 10));
    if (argc >= 2 && strcmp(argv[1], "numbers") == 0) return run_numbers();
    if (argc >= 2 && strcmp(argv[1], "exponents") == 0) return run_exponents();
    if (argc >= 2 && strcmp(argv[1], "members") == 0) return run_members();
    fprintf(stderr, "usage: %s write COUNT SEED | numbers | exponents | members\n", argv[0]);
    return 2;
}
