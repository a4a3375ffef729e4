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

#endif /* DF_SERDE_JSON_NUMBER_H */
