/* serde_json 1.0.154's reading of a number, in C (see _serde_json.h): df_sj_number.
 *
 * One JSON number token as serde_json reads it into a Value (parse_integer,
 * parse_decimal, parse_exponent, f64_from_parts; no float_roundtrip): whether msgspec
 * reads the token to the same value ("plain"), else the f64 serde_json computes, or
 * "number out of range".
 */
#ifndef DF_SERDE_JSON_NUMBER_H
#define DF_SERDE_JSON_NUMBER_H

#include <float.h>

#include "_common.h"
#include "_pow10.h"

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != -1
/* serde_json's f64 arithmetic rounds every operation to f64 (SSE2, NEON); x87's
   extended precision would round twice. The build falls back to pure Python. */
#error "_serde_json.h needs f64 arithmetic without extended precision (FLT_EVAL_METHOD 0)"
#endif

/* ------------------------------------------------------------------ numbers */

/* Kinds of df_sj_number. */
#define DF_NUM_PLAIN 0   /* msgspec reads the token to the value serde_json reads */
#define DF_NUM_F64 1     /* serde_json reads the f64 *f; msgspec may read another value */
#define DF_NUM_RANGE 2   /* serde_json: "number out of range" */
#define DF_NUM_INVALID 3 /* not a JSON number */

#define DF_IS_DIGIT(c) ((unsigned)((c) - '0') < 10u)
/* A plain number's significand converts to an f64 exactly (every integer up to 2^53
   does) and its power of ten is within +-22 (10^22 is the last exact f64):
   _serde_json.MAX_SIGNIFICAND and MAX_POWER. */
#define DF_SJ_MAX_SIGNIFICAND (1ULL << 53)
#define DF_SJ_MAX_POWER 22
#define DF_U64_TENTH 1844674407370955161ULL /* u64::MAX / 10; u64::MAX % 10 == 5 */

/* Whether the integer s converts to an f64 without rounding. */
DF_INLINE int df_exact_f64(uint64_t s) {
    return s <= DF_SJ_MAX_SIGNIFICAND || (s >> df_ctz64(s)) <= DF_SJ_MAX_SIGNIFICAND;
}

/* serde_json's f64_from_parts (without float_roundtrip): significand * 10^exponent,
   one multiplication or division by its POW10 table (1e308 at a time past it). */
DF_INLINE int df_sj_f64(int positive, uint64_t significand, int32_t exponent, double *f) {
    double x = (double)significand;
    int64_t index;
    for (;;) {
        index = exponent < 0 ? -(int64_t)exponent : (int64_t)exponent;
        if (index < 309) {
            if (exponent >= 0) {
                x *= df_serde_pow10[index];
                if (x > DBL_MAX) return DF_NUM_RANGE;
            } else {
                x /= df_serde_pow10[index];
            }
            break;
        }
        if (x == 0.0) break;
        if (exponent >= 0) return DF_NUM_RANGE;
        x /= 1e308;
        exponent += 308;
    }
    *f = positive ? x : -x;
    return DF_NUM_F64;
}

/* df_sj_number(p, n, i, &kind, &f): the number token at p[i] (a '-' or a digit) read as
   serde_json reads it into a Value: returns the index after the token and sets kind
   (DF_NUM_*) and, for DF_NUM_F64, f. A token is plain when msgspec reads it to the same
   value: an integer within u64 (or a negative one within i64, not -0), or a number with
   a fraction or exponent whose digits serde_json keeps all of (at most 19 or 20), whose
   significand converts to an f64 exactly and whose power of ten is within +-22: serde's
   one multiplication or division is then of exact operands, so rounded once, as a
   correctly rounding reader rounds (Clinger's fast path); a zero significand likewise.
   Past the token's syntax (a '.' or 'e' without digits) kind is DF_NUM_INVALID. */
DF_INLINE df_ssize df_sj_number(const unsigned char *p, df_ssize n, df_ssize i, int *kind,
                                double *f) {
    int positive = 1, dropped = 0, positive_exp = 1, is_float = 0;
    uint64_t significand = 0, digit;
    int64_t exponent = 0, exp = 0, final_exp;
    if (p[i] == '-') {
        positive = 0;
        i++;
    }
    if (i >= n || !DF_IS_DIGIT(p[i])) {
        *kind = DF_NUM_INVALID;
        return i;
    }
    if (p[i] == '0') {
        i++;
        if (i < n && DF_IS_DIGIT(p[i])) {
            *kind = DF_NUM_INVALID; /* a leading zero */
            return i;
        }
    } else {
        while (i < n && DF_IS_DIGIT(p[i])) {
            digit = (uint64_t)(p[i] - '0');
            if (significand > DF_U64_TENTH || (significand == DF_U64_TENTH && digit > 5)) {
                /* parse_long_integer: the rest of the integer's digits only count */
                dropped = 1;
                while (i < n && DF_IS_DIGIT(p[i])) {
                    exponent++;
                    i++;
                }
                break;
            }
            significand = significand * 10 + digit;
            i++;
        }
    }
    if (i < n && p[i] == '.') {
        /* parse_decimal: digits past a u64 significand are ignored */
        is_float = 1;
        i++;
        if (i >= n || !DF_IS_DIGIT(p[i])) {
            *kind = DF_NUM_INVALID;
            return i;
        }
        while (i < n && DF_IS_DIGIT(p[i])) {
            digit = (uint64_t)(p[i] - '0');
            if (significand > DF_U64_TENTH || (significand == DF_U64_TENTH && digit > 5)) {
                dropped = 1;
                while (i < n && DF_IS_DIGIT(p[i])) i++;
                break;
            }
            significand = significand * 10 + digit;
            exponent--;
            i++;
        }
    }
    if (i < n && (p[i] | 0x20) == 'e') {
        /* parse_exponent: an i32 exponent; past it, 0 (or out of range) */
        is_float = 1;
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) {
            positive_exp = p[i] == '+';
            i++;
        }
        if (i >= n || !DF_IS_DIGIT(p[i])) {
            *kind = DF_NUM_INVALID;
            return i;
        }
        while (i < n && DF_IS_DIGIT(p[i])) {
            digit = (uint64_t)(p[i] - '0');
            if (exp > 214748364 || (exp == 214748364 && digit > 7)) {
                /* parse_exponent_overflow */
                while (i < n && DF_IS_DIGIT(p[i])) i++;
                if (significand != 0 && positive_exp) {
                    *kind = DF_NUM_RANGE;
                    return i;
                }
                *f = positive ? 0.0 : -0.0;
                *kind = DF_NUM_F64;
                return i;
            }
            exp = exp * 10 + (int64_t)digit;
            i++;
        }
    }
    if (!is_float && !dropped) {
        /* parse_number's integer: u64, i64, or -0 / below i64::MIN as an f64 */
        if (positive || (significand != 0 && significand <= (1ULL << 63))) {
            *kind = DF_NUM_PLAIN;
            return i;
        }
        *f = -(double)significand;
        *kind = DF_NUM_F64;
        return i;
    }
    /* the exponents add with i32 saturation (serde's saturating_add / saturating_sub) */
    final_exp = positive_exp ? exponent + exp : exponent - exp;
    if (final_exp > INT32_MAX) final_exp = INT32_MAX;
    if (final_exp < INT32_MIN) final_exp = INT32_MIN;
    if (!dropped && final_exp >= -DF_SJ_MAX_POWER && final_exp <= DF_SJ_MAX_POWER &&
        (significand == 0 || df_exact_f64(significand))) {
        *kind = DF_NUM_PLAIN;
        return i;
    }
    *kind = df_sj_f64(positive, significand, (int32_t)final_exp, f);
    return i;
}

/* ------------------------------------------------------------------ a glance for rejections */

/* The bytes _exact.rejection._maybe_hard looks for: digits and '.', 'e' and 'E', signs. */
#define DF_HARD_DIGIT(c) (DF_IS_DIGIT(c) || (c) == '.')
#define DF_HARD_E(c) (((c) | 0x20) == 'e')
#define DF_HARD_SIGN(c) ((c) == '+' || (c) == '-')

/* df_sj_maybe_hard's test of the byte at i (p[i + 1] and p[i + 2] read where they
   exist), given the run of digits and points before it in *run. */
DF_INLINE int df_sj_hard_at(const unsigned char *p, df_ssize n, df_ssize i, df_ssize *run) {
    const unsigned char c = p[i];
    if (!DF_HARD_DIGIT(c)) {
        *run = 0;
    } else if (++*run >= 16) {
        return 1;
    }
    if (c == '-' && i + 1 < n && p[i + 1] == '0' && (i + 2 >= n || !DF_HARD_DIGIT(p[i + 2])))
        return 1;
    return DF_HARD_E(c) && i + 1 < n &&
           (DF_HARD_DIGIT(p[i + 1]) ||
            (DF_HARD_SIGN(p[i + 1]) && i + 2 < n && DF_HARD_DIGIT(p[i + 2])));
}

#if DF_SSE2
/* Per byte of v: 0xFF for a digit or '.', else 0 (a digit is v - '0' below 10, compared
   as a signed byte once shifted by 0x80). */
DF_INLINE __m128i df_sj_hard_digits(__m128i v) {
    const __m128i shifted = _mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - '0')));
    return _mm_or_si128(_mm_cmplt_epi8(shifted, _mm_set1_epi8((char)(-128 + 10))),
                        _mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
}
#endif

/* Whether a number of p[0..n) may not be plain, at a glance, or text looks like one:
   _exact.rejection._maybe_hard in C (tests/test_respelled.py holds the two equal), of
   the body up to its '[' or '{' past the first `openings` (_stack.within_openings's
   prefix, which msgspec is asked of). 1 for a "-0" not followed by a digit or '.', an
   'e' or 'E' followed by a digit or '.' (or by a sign and one), or 16 digits and points
   in a row, strings included; else 0. With SSE2, 16 bytes a step: the byte, the next
   and the one after as three loads, the run of digits carried from step to step. */
DF_INLINE int df_sj_maybe_hard(const unsigned char *p, df_ssize n, df_ssize openings) {
    df_ssize i = 0, run = 0, seen = 0;
#if DF_SSE2
    for (; i + 18 <= n; i += 16) {
        const __m128i v0 = _mm_loadu_si128((const __m128i *)(p + i));
        const __m128i v1 = _mm_loadu_si128((const __m128i *)(p + i + 1));
        const __m128i v2 = _mm_loadu_si128((const __m128i *)(p + i + 2));
        unsigned open = (unsigned)_mm_movemask_epi8(_mm_or_si128(
            _mm_cmpeq_epi8(v0, _mm_set1_epi8('[')), _mm_cmpeq_epi8(v0, _mm_set1_epi8('{'))));
        const __m128i d0 = df_sj_hard_digits(v0), d1 = df_sj_hard_digits(v1);
        const __m128i d2 = df_sj_hard_digits(v2);
        const __m128i e0 = _mm_cmpeq_epi8(_mm_or_si128(v0, _mm_set1_epi8(0x20)),
                                          _mm_set1_epi8('e'));
        const __m128i s1 = _mm_or_si128(_mm_cmpeq_epi8(v1, _mm_set1_epi8('+')),
                                        _mm_cmpeq_epi8(v1, _mm_set1_epi8('-')));
        const __m128i exponent = _mm_and_si128(e0, _mm_or_si128(d1, _mm_and_si128(s1, d2)));
        const __m128i zero = _mm_andnot_si128(
            d2, _mm_and_si128(_mm_cmpeq_epi8(v0, _mm_set1_epi8('-')),
                              _mm_cmpeq_epi8(v1, _mm_set1_epi8('0'))));
        unsigned digits;
        df_ssize counted = seen;
        for (; open; open &= open - 1) {
            if (counted == openings) { /* the prefix ends in this step: its bytes one by one */
                n = i + (df_ssize)df_lowest_bit(open);
                goto bytes;
            }
            counted++;
        }
        seen = counted;
        if (_mm_movemask_epi8(_mm_or_si128(exponent, zero)))
            return 1;
        digits = (unsigned)_mm_movemask_epi8(d0);
        if (digits == 0) {
            run = 0;
            continue;
        }
        /* the run before, and the digits at the step's start; then those at its end */
        if (run + (df_ssize)df_lowest_bit(~digits) >= 16 || digits == 0xFFFFu)
            return 1;
        run = 15 - (63 - (df_ssize)df_clz64((uint64_t)((~digits) & 0xFFFFu)));
    }
bytes:
#endif
    for (; i < n; i++) {
        if (p[i] == '[' || p[i] == '{') {
            if (seen == openings)
                return 0;
            seen++;
        }
        if (df_sj_hard_at(p, n, i, &run))
            return 1;
    }
    return 0;
}

#endif /* DF_SERDE_JSON_NUMBER_H */
