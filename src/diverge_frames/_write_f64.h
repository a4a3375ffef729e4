/* Writing f64s as serde_json writes them, in C (see _serde_json.h).
 *
 * - df_write_f64: a short decimal spelling of any finite f64 that every correctly
 *   rounding reader (msgspec, Python's float) reads back to that f64.
 * - df_sj_exponents: the exponents msgspec writes as "1e16" and serde_json as "1e+16".
 * - df_sj_member_end, df_sj_point_zero: an int msgspec wrote where rmcp writes an f64,
 *   found by its member path and written as that float ("1" -> "1.0").
 */
#ifndef DF_WRITE_F64_H
#define DF_WRITE_F64_H

#include "_common.h"
#include "_pow10.h"
#include "_scan.h"
#include "_serde_json_number.h"
#include "_serde_json_tokens.h"

/* ------------------------------------------------------------------ bits */

/* The high 64 bits of a * b, and the low ones in *lo. */
DF_INLINE uint64_t df_mul_hi(uint64_t a, uint64_t b, uint64_t *lo) {
#if defined(__SIZEOF_INT128__)
    unsigned __int128 p = (unsigned __int128)a * b;
    *lo = (uint64_t)p;
    return (uint64_t)(p >> 64);
#else
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    *lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* floor(a / 2^s) for any sign of a. */
DF_INLINE int df_floor_shift(int a, int s) {
    return a >= 0 ? a >> s : -((-a + (1 << s) - 1) >> s);
}

/* ------------------------------------------------------------------ the f64 writer */

/* df_write_f64(x, out): write the finite f64 x to out (at most DF_F64_CHARS bytes: a sign, 19 digits, "e-" and 3) as
   "<digits>e<exponent>" ("-0.0" / "0.0" for zero) and return the length. The digits
   are x * 10^-k rounded to 18 significant digits from a 64-bit mantissa of 10^-k
   (df_pow10_m), trailing zeros dropped: within 0.63 units of the 18th digit of x, where
   x's rounding interval is at least 5.5 such units wide on either side, so the text is
   read back as x by any correctly rounding reader. */
#define DF_F64_CHARS 25
DF_INLINE int df_write_f64(double x, unsigned char *out) {
    uint64_t bits, m, hi, lo, d;
    int len = 0, q, s, t, k, j, b, shift, e, ndig;
    unsigned char digits[20];
    memcpy(&bits, &x, 8);
    if (bits >> 63) out[len++] = '-';
    bits &= ~(1ULL << 63);
    if (bits == 0) {
        memcpy(out + len, "0.0", 3);
        return len + 3;
    }
    e = (int)(bits >> 52);
    m = bits & ((1ULL << 52) - 1);
    if (e == 0) {
        q = -1074; /* subnormal */
    } else {
        m |= 1ULL << 52;
        q = e - 1075;
    }
    s = df_clz64(m);
    m <<= s; /* x = m * 2^q, 2^63 <= m < 2^64 */
    q -= s;
    t = df_floor_shift((q + 63) * 78913, 18); /* floor(log10(2^(q + 63))) */
    k = t - 17;                               /* x / 10^k is in [10^17, 2 * 10^18) */
    j = -k;
    b = df_floor_shift(j * 1741647, 19) - 63; /* 10^j ~= df_pow10_m * 2^b */
    hi = df_mul_hi(m, df_pow10_m[j - DF_POW10_MIN], &lo);
    shift = -(q + b) - 64; /* x * 10^j = (hi * 2^64 + lo) * 2^(q + b); shift in 1..7 */
    d = (hi >> shift) + ((hi >> (shift - 1)) & 1u);
    while (d % 10 == 0) {
        d /= 10;
        k++;
    }
    ndig = 0;
    while (d) {
        digits[ndig++] = (unsigned char)('0' + d % 10);
        d /= 10;
    }
    while (ndig) out[len++] = digits[--ndig];
    out[len++] = 'e';
    if (k < 0) {
        out[len++] = '-';
        k = -k;
    }
    if (k >= 100) out[len++] = (unsigned char)('0' + k / 100);
    if (k >= 10) out[len++] = (unsigned char)('0' + k / 10 % 10);
    out[len++] = (unsigned char)('0' + k % 10);
    return len;
}

/* ------------------------------------------------------------------ exponents */

/* df_sj_exponents(p, n, out): in JSON that msgspec wrote, the exponents of floats outside
   strings ("1e16": an 'e' between digits). out == NULL: returns how many; else copies p
   to out with a '+' after each such 'e' (serde_json's "1e+16") and returns the length.
   out may be p itself moved back by that many bytes or fewer (the JSON moved forward
   in its own buffer to make the room, then signed in place): what is written never
   reaches what is still to be read, the bytes before each 'e' included. */
DF_INLINE df_ssize df_sj_exponents(const unsigned char *p, df_ssize n, unsigned char *out) {
    df_ssize i = 0, count = 0, at = 0, copied = 0, k;
    int flags = 0;
    while (i < n) {
        if (p[i] == '"') {
            k = df_string_end(p, n, i + 1, &flags);
            if (k < 0) break;
            i = k + 1;
            continue;
        }
        if (p[i] == 'e' && i > 0 && i + 1 < n && DF_IS_DIGIT(p[i - 1]) && DF_IS_DIGIT(p[i + 1])) {
            count++;
            if (out) {
                memmove(out + at, p + copied, (size_t)(i + 1 - copied));
                at += i + 1 - copied;
                out[at++] = '+';
                copied = i + 1;
            }
        }
        i++;
    }
    if (!out) return count;
    memmove(out + at, p + copied, (size_t)(n - copied));
    return at + n - copied;
}

/* ------------------------------------------------------------------ ints as floats */

/* df_sj_member_end(p, n, names, lens, depth): in JSON that msgspec wrote (an object),
   the index just past the integer token that is the value of member names[depth - 1]
   of the object that is the value of member names[depth - 2] ... of member names[0] of
   the top-level object (each name lens[i] bytes, a key written without escapes); -1
   when there is no such member or its value is no integer. */
DF_INLINE df_ssize df_sj_member_end(const unsigned char *p, df_ssize n,
                                    const char *const *names, const df_ssize *lens,
                                    int depth) {
    df_ssize i = 0, end, deepest, at, start;
    int level, flags, surrogate, why;
    for (level = 0; level < depth; level++) {
        if (i >= n || p[i] != '{') return -1;
        i++;
        for (;;) {
            if (i >= n || p[i] != '"') return -1;
            flags = 0;
            end = df_string_end(p, n, i + 1, &flags);
            if (end < 0 || end + 1 >= n || p[end + 1] != ':') return -1;
            if (!(flags & DF_ESCAPED) && end - (i + 1) == lens[level] &&
                memcmp(p + i + 1, names[level], (size_t)lens[level]) == 0) {
                i = end + 2;
                break;
            }
            surrogate = 0;
            i = df_sj_ignore(p, n, end + 2, &deepest, &surrogate, &why, &at);
            if (i < 0 || i >= n || p[i] != ',') return -1;
            i++;
        }
    }
    start = i < n && p[i] == '-' ? i + 1 : i;
    i = start;
    while (i < n && DF_IS_DIGIT(p[i])) i++;
    if (i == start || (i < n && p[i] != ',' && p[i] != '}')) return -1;
    return i;
}

/* df_sj_point_zero(p, n, at, count, out): p[:n] copied to out (room for n + 2 * count
   bytes) with ".0" written at each of the count ascending indexes at[]; the length. */
DF_INLINE df_ssize df_sj_point_zero(const unsigned char *p, df_ssize n, const df_ssize *at,
                                    int count, unsigned char *out) {
    df_ssize copied = 0, w = 0;
    int k;
    for (k = 0; k < count; k++) {
        memcpy(out + w, p + copied, (size_t)(at[k] - copied));
        w += at[k] - copied;
        out[w++] = '.';
        out[w++] = '0';
        copied = at[k];
    }
    memcpy(out + w, p + copied, (size_t)(n - copied));
    return w + n - copied;
}

#endif /* DF_WRITE_F64_H */
