/* serde_json 1.0.154's reading, in C, for the compiled hot path (_frames_c.pyx).
 *
 * The twin of _serde_json.py's rules, without building values:
 *
 * - df_sj_number: one JSON number token as serde_json reads it into a Value
 *   (parse_integer, parse_decimal, parse_exponent, f64_from_parts; no float_roundtrip):
 *   whether msgspec reads the token to the same value ("plain"), else the f64 serde_json
 *   computes, or "number out of range".
 * - df_write_f64: a short decimal spelling of any finite f64 that every correctly
 *   rounding reader (msgspec, Python's float) reads back to that f64.
 * - df_sj_scan: a whole body as serde_json reads it (syntax, UTF-8, escapes, surrogates,
 *   depth 128, numbers; the values of members a directly read struct does not have
 *   skipped as ignore_value skips them; a raw control character in a string is left to
 *   msgspec, which rejects it as serde_json does), and where msgspec would read it otherwise:
 *   tokens to rewrite, a member repeated at a struct position (the positions come from
 *   the caller: _rmcp.STRUCT_POSITIONS). With an output buffer it writes the body again
 *   with those tokens spelled so that msgspec reads serde_json's values.
 * - df_sj_exponents: the exponents msgspec writes as "1e16" and serde_json as "1e+16".
 *
 * Nothing here allocates (except df_sj_ignore for a skipped value nested deeper than
 * 4096 levels), touches Python objects or recurses; every read is bounds-checked, so a
 * buffer that changes while it is read gives some answer, never a read out of bounds.
 * tests/c/test_serde_json.c builds it alone.
 */
#ifndef DF_SERDE_JSON_H
#define DF_SERDE_JSON_H

#include <float.h>
#include <stdlib.h>

#include "_pow10.h"
#include "_scan.h"

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != -1
/* serde_json's f64 arithmetic rounds every operation to f64 (SSE2, NEON); x87's
   extended precision would round twice. The build falls back to pure Python. */
#error "_serde_json.h needs f64 arithmetic without extended precision (FLT_EVAL_METHOD 0)"
#endif

/* ------------------------------------------------------------------ bits */

#if defined(_MSC_VER) && !defined(__clang__)
DF_INLINE int df_clz64(uint64_t x) {
    unsigned long at;
    _BitScanReverse64(&at, x);
    return 63 - (int)at;
}
DF_INLINE int df_ctz64(uint64_t x) {
    unsigned long at;
    _BitScanForward64(&at, x);
    return (int)at;
}
#else
#define df_clz64(x) __builtin_clzll(x)
#define df_ctz64(x) __builtin_ctzll(x)
#endif

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

/* ------------------------------------------------------------------ the body */

/* Why serde_json rejects a body (df_sj_result.reason); _serde_json.REASONS words them. */
#define DF_SJ_OK 0
#define DF_SJ_EXPECTED_VALUE 1
#define DF_SJ_TRAILING 2
#define DF_SJ_EXPECTED_COMMA 3     /* `,` or the end of an array or object */
#define DF_SJ_EXPECTED_COMMA_TOP 4 /* `,` or `}` in a directly read top-level struct */
#define DF_SJ_KEY 5
#define DF_SJ_COLON 6
#define DF_SJ_NUMBER 7
#define DF_SJ_STRING 8 /* a raw control character, a bad escape, or no end */
#define DF_SJ_UNICODE 9
#define DF_SJ_SURROGATE 10
#define DF_SJ_RANGE 11
#define DF_SJ_DEPTH 12

/* serde_json's recursion limit: 128 nested arrays/objects fail, 127 are read. */
#define DF_SJ_MAX_DEPTH 127
/* A skipped value nested deeper than this is written as null by the rewrite: msgspec,
   which skips it too, recurses on the C stack (Python's recursion limit). */
#define DF_SJ_SKIP_DEPTH 32
/* Keys longer than this match no member name. */
#define DF_SJ_NAME_MAX 64

/* The struct positions of a body (see _rmcp.STRUCT_POSITIONS): where a repeated member
   fails serde's derived struct. A position with members is a struct (its members, and
   the position of each member's value); one without is an array or map whose items
   (values) are at position `items`. -1: a value no rule looks into. */
typedef struct {
    const unsigned char *name;
    int len;
    int child;
    int flags; /* DF_SJ_MODEL: a member only the rmcp model reads (_rmcp_model) */
} df_sj_member;

#define DF_SJ_MODEL 1

/* A struct has at most this many members (a bit each in a 64-bit mask, and a hash table
   of DF_SJ_SLOTS slots kept at most 3/4 full). */
#define DF_SJ_MAX_MEMBERS 48
#define DF_SJ_SLOTS 64

typedef struct {
    int first; /* members[first .. first + count) */
    int count; /* at most DF_SJ_MAX_MEMBERS */
    int items;
    int model_below; /* a model member at this position or below (an array here, serde's
                        sequence form, may hold one) */
    short slots[DF_SJ_SLOTS]; /* members by df_sj_hash of their names (df_sj_index), -1 */
    uint64_t heads[DF_SJ_SLOTS]; /* the first 8 bytes of each slot's name (df_sj_head) */
    unsigned char lens[DF_SJ_SLOTS]; /* the length of each slot's name */
    unsigned char bits[DF_SJ_SLOTS]; /* its member's index in the position */
    unsigned char flags[DF_SJ_SLOTS]; /* its member's flags */
    short children[DF_SJ_SLOTS]; /* its member's child */
} df_sj_position;

typedef struct {
    const df_sj_position *positions;
    const df_sj_member *members;
    int root;   /* the position of the top-level value */
    int direct; /* the top-level struct is read directly (not buffered by an untagged
                   enum): the values of members it does not have are skipped */
    int keep;   /* the rewrite can spell the keys of objects nested this deep or less with
                   their index ("3:key"), so that a reader keeps repeated keys apart */
    int deepest; /* the deepest struct position's nesting (the top level: 1), for
                    df_sj_glance */
    const df_sj_member *models; /* the model members' names, for df_sj_glance */
    int n_models;
} df_sj_rules;

typedef struct {
    int reason;            /* DF_SJ_OK, or why serde_json rejects the body */
    df_ssize at;           /* where it found that */
    df_ssize edits;        /* tokens the rewrite must spell otherwise: numbers msgspec
                              would read otherwise, skipped values it would not skip */
    df_ssize skipped;      /* values skipped (members a direct struct does not have) */
    df_ssize growth;       /* bytes the rewrite adds (or takes, < 0) for the edits */
    df_ssize growth_skipped; /* ... when every skipped value is written null, instead of
                              the skipped edits only */
    df_ssize growth_keys;  /* ... more when keys are spelled with their index */
    int repeated;          /* a member repeated at a struct position, or an array where a
                              struct is read (serde's sequence form), or a model member */
    int model;             /* a member only the rmcp model reads (keep every pair) */
    uint64_t repeated_top; /* the top-level struct's members repeated (bit i: member i) */
    int top_keys;          /* members of the top-level object */
    int top;               /* the top-level value's first byte (-1: none) */
} df_sj_result;

/* What df_sj_scan writes besides the edits (its `write` bits). */
#define DF_SJ_WRITE_KEYS 1    /* each key of an object nested rules->keep levels or less
                                 with its index in the object: "a" -> "0:a" */
#define DF_SJ_WRITE_SKIPPED 2 /* every skipped value as null */

/* The length of the rewrite of a body scanned into r, with `write`. */
DF_INLINE df_ssize df_sj_rewritten(df_ssize n, const df_sj_result *r, int write) {
    n += write & DF_SJ_WRITE_SKIPPED ? r->growth_skipped : r->growth;
    if (write & DF_SJ_WRITE_KEYS) n += r->growth_keys;
    return n;
}

/* A checksum of p[:n] (four 64-bit lanes of multiply-xor): whether a buffer changed. */
DF_INLINE uint64_t df_sj_checksum(const unsigned char *p, df_ssize n) {
    uint64_t h[4] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL,
                     0x27D4EB2F165667C5ULL};
    uint64_t w;
    df_ssize i = 0;
    int k;
    for (; i + 32 <= n; i += 32)
        for (k = 0; k < 4; k++) {
            memcpy(&w, p + i + 8 * k, 8);
            h[k] = (h[k] ^ w) * 0x100000001B3ULL;
            h[k] ^= h[k] >> 29;
        }
    for (; i < n; i++) h[0] = (h[0] ^ p[i]) * 0x100000001B3ULL;
    return h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7) ^ (uint64_t)n;
}

DF_INLINE df_ssize df_sj_ws(const unsigned char *p, df_ssize n, df_ssize i) {
    if (i < n && p[i] > ' ') return i;
    while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t')) i++;
    return i;
}

/* Whether p[j:end] holds a byte below 0x20 (which a JSON string cannot hold raw); p[:n]
   is the whole body, so that a short string is looked at in one 16-byte step that
   overlaps its neighbours (their bits masked off). */
DF_INLINE int df_sj_has_control(const unsigned char *p, df_ssize j, df_ssize end, df_ssize n) {
#if DF_SSE2
    const __m128i limit = _mm_set1_epi8(0x1F);
    __m128i v;
    unsigned m, len = (unsigned)(end - j);
    if (len < 16 && n >= 16) {
        if (j + 16 <= n) {
            v = _mm_loadu_si128((const __m128i *)(p + j));
            m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit));
            return (m & ((1u << len) - 1u)) != 0;
        }
        /* the body's last 16 bytes, which hold p[j:end] (j > n - 16); not the 16 that
           end at `end`, which start before p when end < 16 */
        v = _mm_loadu_si128((const __m128i *)(p + n - 16));
        m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit));
        return ((m >> (j - (n - 16))) & ((1u << len) - 1u)) != 0;
    }
    for (; j + 16 <= end; j += 16) {
        v = _mm_loadu_si128((const __m128i *)(p + j));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit))) return 1;
    }
#else
    (void)n;
#endif
    for (; j < end; j++)
        if (p[j] < 0x20) return 1;
    return 0;
}

DF_INLINE int df_sj_hex4(const unsigned char *p, df_ssize n, df_ssize i) {
    int v = 0, k, c;
    if (i + 4 > n) return -1;
    for (k = 0; k < 4; k++) {
        c = p[i + k];
        if (DF_IS_DIGIT(c)) c -= '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') c = (c | 0x20) - 'a' + 10;
        else return -1;
        v = v * 16 + c;
    }
    return v;
}

/* The escapes of the string content p[j:end] (which holds a backslash): checked as
   serde_json's parse_str (parsed = 1: a surrogate escape must be a high one followed at
   once by a low one) or ignore_str (0) checks them. Returns DF_SJ_OK, DF_SJ_STRING, or
   (parsed only) DF_SJ_SURROGATE; *surrogate is set when some \u escape is a surrogate. */
DF_INLINE int df_sj_escapes(const unsigned char *p, df_ssize j, df_ssize end, int parsed,
                            int *surrogate) {
    const unsigned char *q;
    int u, low, lone = 0;
    while (j < end) {
        q = (const unsigned char *)memchr(p + j, '\\', (size_t)(end - j));
        if (q == NULL) break;
        j = q - p + 1;
        if (j >= end) return DF_SJ_STRING;
        switch (p[j]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            j++;
            continue;
        case 'u':
            u = df_sj_hex4(p, end, j + 1);
            if (u < 0) return DF_SJ_STRING;
            j += 5;
            if (u < 0xD800 || u > 0xDFFF) continue;
            *surrogate = 1;
            if (!parsed) continue;
            if (u >= 0xDC00 || j + 1 >= end || p[j] != '\\' || p[j + 1] != 'u') {
                lone = 1;
                continue;
            }
            low = df_sj_hex4(p, end, j + 2);
            if (low < 0) return DF_SJ_STRING;
            if (low < 0xDC00 || low > 0xDFFF) {
                lone = 1; /* the next escape is read on its own */
                continue;
            }
            j += 6;
            continue;
        default:
            return DF_SJ_STRING;
        }
    }
    return lone ? DF_SJ_SURROGATE : DF_SJ_OK;
}

/* The JSON string whose content starts at p[j]: returns the index of its closing quote,
   or -1 with *reason set. parsed: checked as parse_str (escapes, then UTF-8, then
   surrogates; a raw control character is left to msgspec, which rejects one in any
   string, as serde_json does), else as ignore_str (syntax only, control characters
   included: a skipped value the rewrite writes null must be one serde reads).
   *escaped: it holds a backslash; *surrogate: a surrogate escape. */
#if defined(_MSC_VER) && !defined(__clang__)
static __forceinline
#else
static inline __attribute__((always_inline))
#endif
df_ssize df_sj_string(const unsigned char *p, df_ssize n, df_ssize j, int parsed,
                      int *escaped, int *surrogate, int *reason) {
    int flags = 0, why = DF_SJ_OK;
    df_ssize end;
#if DF_SSE2
    if (j + 16 <= n) { /* a short string of ASCII without escapes: its first 16 bytes */
        __m128i v = _mm_loadu_si128((const __m128i *)(p + j));
        unsigned q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)));
        unsigned odd = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C))) |
                       (unsigned)_mm_movemask_epi8(v);
        if (!parsed) odd |= (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
        if (q && !(odd & ((q & (0u - q)) - 1u))) {
            *escaped = 0;
            return j + (df_ssize)df_lowest_bit(q);
        }
    }
#endif
    end = df_string_end(p, n, j, &flags);
    *escaped = flags & DF_ESCAPED;
    if (end < 0 || (!parsed && df_sj_has_control(p, j, end, n))) {
        *reason = DF_SJ_STRING;
        return -1;
    }
    if (*escaped) {
        why = df_sj_escapes(p, j, end, parsed, surrogate);
        if (why == DF_SJ_STRING) {
            *reason = why;
            return -1;
        }
    }
    if (parsed && (!DF_SSE2 || (flags & DF_HIGH)) && !df_valid_utf8(p + j, end - j)) {
        *reason = DF_SJ_UNICODE;
        return -1;
    }
    if (why != DF_SJ_OK) {
        *reason = why;
        return -1;
    }
    return end;
}

/* A key's content p[j:end] with its escapes undone into buf (at most DF_SJ_NAME_MAX
   bytes, surrogate pairs and lone surrogates as WTF-8): its length, or -1 when longer. */
DF_INLINE int df_sj_unescape(const unsigned char *p, df_ssize j, df_ssize end,
                             unsigned char *buf) {
    int len = 0, u, low;
    unsigned c;
    while (j < end) {
        if (len + 4 > DF_SJ_NAME_MAX) return -1;
        c = p[j++];
        if (c != '\\') {
            buf[len++] = (unsigned char)c;
            continue;
        }
        c = p[j++];
        switch (c) {
        case 'b': buf[len++] = '\b'; continue;
        case 'f': buf[len++] = '\f'; continue;
        case 'n': buf[len++] = '\n'; continue;
        case 'r': buf[len++] = '\r'; continue;
        case 't': buf[len++] = '\t'; continue;
        case 'u': break;
        default: buf[len++] = (unsigned char)c; continue; /* " \ / */
        }
        u = df_sj_hex4(p, end, j);
        if (u < 0) return -1;
        j += 4;
        if (u >= 0xD800 && u < 0xDC00 && j + 6 <= end && p[j] == '\\' && p[j + 1] == 'u' &&
            (low = df_sj_hex4(p, end, j + 2)) >= 0xDC00 && low <= 0xDFFF) {
            u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
            j += 6;
        }
        if (u < 0x80) {
            buf[len++] = (unsigned char)u;
        } else if (u < 0x800) {
            buf[len++] = (unsigned char)(0xC0 | (u >> 6));
            buf[len++] = (unsigned char)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            buf[len++] = (unsigned char)(0xE0 | (u >> 12));
            buf[len++] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
            buf[len++] = (unsigned char)(0x80 | (u & 0x3F));
        } else {
            buf[len++] = (unsigned char)(0xF0 | (u >> 18));
            buf[len++] = (unsigned char)(0x80 | ((u >> 12) & 0x3F));
            buf[len++] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
            buf[len++] = (unsigned char)(0x80 | (u & 0x3F));
        }
    }
    return len;
}

/* Whether a[:len] == b[:len] (names: a few bytes, no call to memcmp). */
DF_INLINE int df_sj_same(const unsigned char *a, const unsigned char *b, df_ssize len) {
    df_ssize i;
    for (i = 0; i < len; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* A name's first 8 bytes (zeros past its end) as one word; `avail` bytes can be read
   at name (8 or more: one unaligned load). */
DF_INLINE uint64_t df_sj_head(const unsigned char *name, df_ssize len, df_ssize avail) {
    unsigned char bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint64_t w;
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
    if (avail >= 8) {
        memcpy(&w, name, 8);
        return len >= 8 ? w : w & ((1ULL << (8 * len)) - 1u);
    }
#else
    (void)avail;
#endif
    memcpy(bytes, name, (size_t)(len < 8 ? len : 8));
    memcpy(&w, bytes, 8);
    return w;
}

/* The slot of a name in a position's table: its head and length. */
DF_INLINE unsigned df_sj_hash(uint64_t head, df_ssize len) {
    return ((unsigned)((head * 0x9E3779B97F4A7C15ULL) >> 58) ^ (unsigned)len) & (DF_SJ_SLOTS - 1);
}

/* Fill each position's slots from its members' names (open addressing); 0, or -1 when a
   position has more than DF_SJ_MAX_MEMBERS members or a name is longer than
   DF_SJ_NAME_MAX. Called once, before any scan. */
DF_INLINE int df_sj_index(df_sj_position *positions, int count, const df_sj_member *members) {
    int k, i;
    unsigned h;
    uint64_t head;
    for (k = 0; k < count; k++) {
        if (positions[k].count > DF_SJ_MAX_MEMBERS) return -1;
        for (i = 0; i < DF_SJ_SLOTS; i++) {
            positions[k].slots[i] = -1;
            positions[k].heads[i] = 0;
            positions[k].lens[i] = 0;
        }
        for (i = positions[k].first; i < positions[k].first + positions[k].count; i++) {
            if (members[i].len > DF_SJ_NAME_MAX) return -1;
            head = df_sj_head(members[i].name, members[i].len, 0);
            h = df_sj_hash(head, members[i].len);
            while (positions[k].slots[h] >= 0) h = (h + 1) & (DF_SJ_SLOTS - 1);
            positions[k].slots[h] = (short)i;
            positions[k].heads[h] = head;
            positions[k].lens[h] = (unsigned char)members[i].len;
            positions[k].bits[h] = (unsigned char)(i - positions[k].first);
            positions[k].flags[h] = (unsigned char)members[i].flags;
            positions[k].children[h] = (short)members[i].child;
        }
    }
    return 0;
}

/* The slot of position `at`'s table that holds the member named by the key p[j:end]
   (escapes undone when escaped), or -1. */
DF_INLINE int df_sj_member_of(const df_sj_rules *rules, int at, const unsigned char *p,
                              df_ssize n, df_ssize j, df_ssize end, int escaped) {
    const df_sj_position *pos = &rules->positions[at];
    unsigned char buf[DF_SJ_NAME_MAX];
    const unsigned char *key = p + j;
    df_ssize len = end - j, avail = n - j;
    uint64_t head;
    unsigned h;
    int i;
    if (escaped) {
        len = df_sj_unescape(p, j, end, buf);
        if (len < 0) return -1;
        key = buf;
        avail = 0;
    }
    if (len > DF_SJ_NAME_MAX) return -1;
    head = df_sj_head(key, len, avail);
    for (h = df_sj_hash(head, len); (i = pos->slots[h]) >= 0; h = (h + 1) & (DF_SJ_SLOTS - 1)) {
        if (pos->heads[h] != head || pos->lens[h] != len) continue;
        if (len <= 8 || df_sj_same(rules->members[i].name + 8, key + 8, len - 8)) return (int)h;
    }
    return -1;
}

/* A literal (true, false, null) at p[i]: the index after it, or -1. */
DF_INLINE df_ssize df_sj_literal(const unsigned char *p, df_ssize n, df_ssize i) {
    if (n - i >= 4) {
        if (p[i] == 't' && p[i + 1] == 'r' && p[i + 2] == 'u' && p[i + 3] == 'e') return i + 4;
        if (p[i] == 'n' && p[i + 1] == 'u' && p[i + 2] == 'l' && p[i + 3] == 'l') return i + 4;
        if (n - i >= 5 && p[i] == 'f' && p[i + 1] == 'a' && p[i + 2] == 'l' && p[i + 3] == 's' &&
            p[i + 4] == 'e')
            return i + 5;
    }
    return -1;
}

/* The syntax of a number token at p[i] as ignore_integer checks it: the index after it,
   or -1. */
DF_INLINE df_ssize df_sj_skip_number(const unsigned char *p, df_ssize n, df_ssize i) {
    if (p[i] == '-') i++;
    if (i >= n || !DF_IS_DIGIT(p[i])) return -1;
    if (p[i] == '0') {
        i++;
        if (i < n && DF_IS_DIGIT(p[i])) return -1;
    } else {
        while (i < n && DF_IS_DIGIT(p[i])) i++;
    }
    if (i < n && p[i] == '.') {
        i++;
        if (i >= n || !DF_IS_DIGIT(p[i])) return -1;
        while (i < n && DF_IS_DIGIT(p[i])) i++;
    }
    if (i < n && (p[i] | 0x20) == 'e') {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) i++;
        if (i >= n || !DF_IS_DIGIT(p[i])) return -1;
        while (i < n && DF_IS_DIGIT(p[i])) i++;
    }
    return i;
}

/* df_sj_ignore(p, n, i, &deepest, &surrogate, &reason, &at): the value at p[i] skipped as
   serde_json's ignore_value skips it (syntax only: no UTF-8, surrogate or depth check);
   returns the index after it, or -1 with *reason and *at set. *deepest: its nesting;
   *surrogate: it holds a surrogate escape. The kinds of its open brackets are kept one
   bit each, on the heap past 4096 levels. */
DF_INLINE df_ssize df_sj_ignore(const unsigned char *p, df_ssize n, df_ssize i,
                                df_ssize *deepest, int *surrogate, int *reason,
                                df_ssize *at) {
    uint64_t local[64];
    uint64_t *bits = local, *grown;
    df_ssize depth = 0, words = 64, k;
    int escaped, why = DF_SJ_OK, object;
    unsigned char c;
#define DF_SJ_FAIL(code, where) \
    do {                        \
        why = (code);           \
        *at = (where);          \
        goto fail;              \
    } while (0)
    *deepest = 0;
    for (;;) {
        i = df_sj_ws(p, n, i);
        if (i >= n) DF_SJ_FAIL(DF_SJ_EXPECTED_VALUE, i);
        c = p[i];
        if (c == '{' || c == '[') {
            if (depth == words * 64) {
                grown = (uint64_t *)malloc((size_t)words * 2 * sizeof(uint64_t));
                if (grown == NULL) DF_SJ_FAIL(DF_SJ_DEPTH, i); /* out of memory: rejected */
                memcpy(grown, bits, (size_t)words * sizeof(uint64_t));
                if (bits != local) free(bits);
                bits = grown;
                words *= 2;
            }
            if (c == '{') bits[depth >> 6] |= 1ULL << (depth & 63);
            else bits[depth >> 6] &= ~(1ULL << (depth & 63));
            depth++;
            if (depth > *deepest) *deepest = depth;
            i = df_sj_ws(p, n, i + 1);
            if (i < n && p[i] == (c == '{' ? '}' : ']')) {
                depth--;
                i++;
                goto after;
            }
            if (c == '[') continue;
            goto key;
        }
        if (c == '"') {
            k = df_sj_string(p, n, i + 1, 0, &escaped, surrogate, &why);
            if (k < 0) DF_SJ_FAIL(why, i);
            i = k + 1;
        } else if (c == '-' || DF_IS_DIGIT(c)) {
            k = df_sj_skip_number(p, n, i);
            if (k < 0) DF_SJ_FAIL(DF_SJ_NUMBER, i);
            i = k;
        } else {
            k = df_sj_literal(p, n, i);
            if (k < 0) DF_SJ_FAIL(DF_SJ_EXPECTED_VALUE, i);
            i = k;
        }
    after:
        for (;;) {
            if (depth == 0) goto done;
            i = df_sj_ws(p, n, i);
            object = (int)((bits[(depth - 1) >> 6] >> ((depth - 1) & 63)) & 1);
            if (i < n && p[i] == ',') {
                i = df_sj_ws(p, n, i + 1);
                if (object) goto key;
                break;
            }
            if (i < n && p[i] == (object ? '}' : ']')) {
                depth--;
                i++;
                continue;
            }
            DF_SJ_FAIL(DF_SJ_EXPECTED_COMMA, i);
        }
        continue;
    key:
        if (i >= n || p[i] != '"') DF_SJ_FAIL(DF_SJ_KEY, i);
        k = df_sj_string(p, n, i + 1, 0, &escaped, surrogate, &why);
        if (k < 0) DF_SJ_FAIL(why, i);
        i = df_sj_ws(p, n, k + 1);
        if (i >= n || p[i] != ':') DF_SJ_FAIL(DF_SJ_COLON, i);
        i++;
    }
done:
    if (bits != local) free(bits);
    return i;
fail:
    if (bits != local) free(bits);
    *reason = why;
    return -1;
#undef DF_SJ_FAIL
}

/* One open array or object of df_sj_scan. */
typedef struct {
    int object;
    int position; /* its struct position, or -1 */
    int items;    /* the position of its items (values), or -1 */
    uint64_t seen;
    df_ssize index; /* members so far */
} df_sj_level;

/* The writer of df_sj_scan: copies the body, one replaced token at a time. */
typedef struct {
    unsigned char *out;
    df_ssize cap, at, copied;
} df_sj_out;

/* Copy p[copied:i] and reserve `more` bytes; 0 when the buffer is too small. */
DF_INLINE int df_sj_put(df_sj_out *w, const unsigned char *p, df_ssize i, df_ssize more) {
    df_ssize run = i - w->copied;
    if (run < 0 || w->at + run + more > w->cap) return 0;
    memcpy(w->out + w->at, p + w->copied, (size_t)run);
    w->at += run;
    w->copied = i;
    return 1;
}

DF_INLINE int df_sj_digits(uint64_t v) {
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* df_sj_scan(p, n, rules, &r, out, cap, write): read the body p[:n] as serde_json does
   (see the top of this file); r says what was found. With out == NULL, returns 0. With
   an output buffer of cap bytes (df_sj_rewritten of a scan of the same bytes), writes
   the body again and returns its length: each number msgspec would read otherwise than
   serde_json spelled as df_write_f64 spells serde_json's f64; each skipped value that
   msgspec would not skip as serde_json does (one nested past DF_SJ_SKIP_DEPTH, or with a
   surrogate escape) written null; and what `write` asks (DF_SJ_WRITE_*). Returns -1
   when the body does not read as serde_json reads it, or the output does not fit (the
   bytes changed since the first scan). */
DF_INLINE df_ssize df_sj_scan(const unsigned char *p, df_ssize n, const df_sj_rules *rules,
                              df_sj_result *r, unsigned char *out, df_ssize cap, int write) {
    df_sj_level stack[DF_SJ_MAX_DEPTH + 1];
    df_sj_level *level = NULL;
    df_sj_out w;
    df_ssize i, k, key, deepest, index;
    int depth = 0, pending = rules->root, escaped, surrogate, kind, m, why, len, bit, pos;
    unsigned char c, spelled[DF_F64_CHARS];
    double f = 0.0;
#define DF_SJ_REJECT(code, where) \
    do {                          \
        r->reason = (code);       \
        r->at = (where);          \
        return out ? -1 : 0;      \
    } while (0)
    memset(r, 0, sizeof *r);
    r->top = -1;
    w.out = out;
    w.cap = cap;
    w.at = 0;
    w.copied = 0;
    i = df_sj_ws(p, n, 0);
    if (i < n) r->top = p[i];
value:
    if (i >= n) DF_SJ_REJECT(DF_SJ_EXPECTED_VALUE, i);
    c = p[i];
    if (c == '{' || c == '[') {
        if (depth == DF_SJ_MAX_DEPTH) DF_SJ_REJECT(DF_SJ_DEPTH, i);
        level = &stack[++depth];
        level->object = c == '{';
        level->seen = 0;
        level->index = 0;
        level->position = -1;
        level->items = -1;
        if (pending >= 0) {
            if (rules->positions[pending].count == 0) {
                level->items = rules->positions[pending].items;
            } else if (c == '{') {
                level->position = pending;
            } else {
                r->repeated = 1; /* serde's sequence form of a struct */
                if (rules->positions[pending].model_below) r->model = 1;
            }
        }
        i = df_sj_ws(p, n, i + 1);
        if (i < n && p[i] == (c == '{' ? '}' : ']')) {
            depth--;
            i++;
            goto after;
        }
        if (c == '{') goto key;
        pending = level->items;
        goto value;
    }
    if (c == '"') {
        surrogate = 0;
        k = df_sj_string(p, n, i + 1, 1, &escaped, &surrogate, &why);
        if (k < 0) DF_SJ_REJECT(why, i);
        i = k + 1;
    } else if (c == '-' || DF_IS_DIGIT(c)) {
        k = df_sj_number(p, n, i, &kind, &f);
        if (kind == DF_NUM_INVALID) DF_SJ_REJECT(DF_SJ_NUMBER, i);
        if (kind == DF_NUM_RANGE) DF_SJ_REJECT(DF_SJ_RANGE, i);
        if (kind == DF_NUM_F64) {
            r->edits++;
            len = df_write_f64(f, spelled);
            r->growth += len - (k - i);
            r->growth_skipped += len - (k - i);
            if (out) {
                if (!df_sj_put(&w, p, i, len)) return -1;
                memcpy(out + w.at, spelled, (size_t)len);
                w.at += len;
                w.copied = k;
            }
        }
        i = k;
    } else {
        k = df_sj_literal(p, n, i);
        if (k < 0) DF_SJ_REJECT(DF_SJ_EXPECTED_VALUE, i);
        i = k;
    }
after:
    if (depth == 0) {
        i = df_sj_ws(p, n, i);
        if (i != n) DF_SJ_REJECT(DF_SJ_TRAILING, i);
        if (out) {
            if (!df_sj_put(&w, p, n, 0)) return -1;
            return w.at;
        }
        return 0;
    }
    i = df_sj_ws(p, n, i);
    level = &stack[depth];
    if (i < n && p[i] == ',') {
        i = df_sj_ws(p, n, i + 1);
        if (level->object) goto key;
        pending = level->items;
        goto value;
    }
    if (i < n && p[i] == (level->object ? '}' : ']')) {
        depth--;
        i++;
        goto after;
    }
    DF_SJ_REJECT(depth == 1 && rules->direct && level->object ? DF_SJ_EXPECTED_COMMA_TOP
                                                              : DF_SJ_EXPECTED_COMMA,
                 i);
key:
    level = &stack[depth];
    if (i >= n || p[i] != '"') DF_SJ_REJECT(DF_SJ_KEY, i);
    key = i + 1;
    surrogate = 0;
    k = df_sj_string(p, n, key, 1, &escaped, &surrogate, &why);
    if (k < 0) DF_SJ_REJECT(why, i);
    index = level->index++;
    if (depth <= rules->keep) {
        len = index < 10 ? 2 : index < 100 ? 3 : df_sj_digits((uint64_t)index) + 1;
        r->growth_keys += len;
        if (out && (write & DF_SJ_WRITE_KEYS)) {
            if (!df_sj_put(&w, p, key, len)) return -1;
            w.at += len;
            w.out[w.at - 1] = ':';
            for (bit = 2; bit <= len; bit++) {
                w.out[w.at - bit] = (unsigned char)('0' + index % 10);
                index /= 10;
            }
        }
    }
    i = df_sj_ws(p, n, k + 1);
    if (i >= n || p[i] != ':') DF_SJ_REJECT(DF_SJ_COLON, i);
    i = df_sj_ws(p, n, i + 1);
    if (depth == 1) r->top_keys++;
    pending = level->items;
    pos = level->position;
    if (pos < 0) goto value;
    m = df_sj_member_of(rules, pos, p, n, key, k, escaped);
    if (m >= 0) {
        if (rules->positions[pos].flags[m] & DF_SJ_MODEL) r->repeated = r->model = 1;
        bit = rules->positions[pos].bits[m];
        if (level->seen >> bit & 1u) {
            r->repeated = 1;
            if (depth == 1) r->repeated_top |= 1ULL << bit;
        }
        level->seen |= 1ULL << bit;
        pending = rules->positions[pos].children[m];
        goto value;
    }
    pending = -1;
    if (depth != 1 || !rules->direct) goto value;
    /* a member the directly read top-level struct does not have: ignore_value */
    surrogate = 0;
    k = df_sj_ignore(p, n, i, &deepest, &surrogate, &why, &key);
    if (k < 0) DF_SJ_REJECT(why, key);
    r->skipped++;
    r->growth_skipped += 4 - (k - i);
    bit = deepest > DF_SJ_SKIP_DEPTH || surrogate; /* msgspec would not skip it */
    if (bit) {
        r->edits++;
        r->growth += 4 - (k - i);
    }
    if (out && (bit || (write & DF_SJ_WRITE_SKIPPED))) {
        if (!df_sj_put(&w, p, i, 4)) return -1;
        memcpy(out + w.at, "null", 4);
        w.at += 4;
        w.copied = k;
    }
    i = k;
    goto after;
#undef DF_SJ_REJECT
}

/* ------------------------------------------------------------------ the glance */

/* df_sj_glance looks at the keys of objects nested this deep or less (and of at most
   this many keys); a struct position deeper than it sends every body to df_sj_scan. */
#define DF_SJ_GLANCE_DEPTH 4
#define DF_SJ_GLANCE_KEYS 16

#if defined(_MSC_VER) && !defined(__clang__)
#define DF_SJ_NOINLINE static __declspec(noinline)
#else
#define DF_SJ_NOINLINE static __attribute__((noinline))
#endif

/* df_sj_glance's number at p[i], past the quick look: its end, or -1 unless plain. */
DF_SJ_NOINLINE df_ssize df_sj_glance_number(const unsigned char *p, df_ssize n, df_ssize i) {
    int kind;
    double f;
    i = df_sj_number(p, n, i, &kind, &f);
    return kind == DF_NUM_PLAIN ? i : -1;
}

/* df_sj_glance(p, n, rules, &top_keys): a cheaper look at the body p[:n] than df_sj_scan
   (no positions, no syntax): 0 when msgspec reads it as serde_json does or rejects it,
   else 1 (df_sj_scan decides). 0 needs valid UTF-8, every number plain (df_sj_number),
   nesting at most DF_SJ_SKIP_DEPTH, and in each object nested rules->deepest levels or
   less at most DF_SJ_GLANCE_KEYS keys, none escaped, none repeated, none a model
   member's name. A body it says 0 for is one df_sj_scan finds nothing in (no reason,
   repeated member or edit), or one msgspec rejects: a syntax error, a raw control
   character, a bad escape or a lone surrogate in any string, read or skipped (the scan
   after msgspec's failure words it, or, for a surrogate in a value serde_json skips,
   sends it to the exact reading), or an array where serde's derived struct reads its
   sequence form (a repeated in df_sj_scan's terms), which msgspec's struct, literal or
   union there rejects. With 0, *top_keys is how many
   keys the top-level object has. Reads only p[:n]. Inlined at each call (each decode's,
   through _exact.pxi's _source): out of line, GCC's copy of it cost the small frames more
   time than its instructions (bench_guard). */
DF_ALWAYS_INLINE int df_sj_glance(const unsigned char *p, df_ssize n, const df_sj_rules *rules,
                                  int *top_keys) {
    uint64_t heads[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    df_ssize starts[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    int lens[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    int keys[DF_SJ_GLANCE_DEPTH + 1];
    df_ssize i = 0, j, key = 0, key_end = 0, len;
    int depth = 0, deepest = rules->deepest, escaped = 0, m, d, count, flags;
    const df_sj_member *models = rules->models;
    const int n_models = rules->n_models;
    uint64_t head;
    unsigned char c;
    *top_keys = 0;
    if (deepest > DF_SJ_GLANCE_DEPTH) return 1;
    if (!DF_SSE2 && !df_valid_utf8(p, n)) return 1; /* DF_HIGH is SSE2's */
    keys[1] = 0;
    while (i < n) {
        c = p[i];
        if (c == '"') {
            key = ++i;
            flags = 0;
            key_end = df_string_end(p, n, i, &flags);
            if (key_end < 0) return 1;
            if ((flags & DF_HIGH) && !df_valid_utf8(p + i, key_end - i)) return 1;
            escaped = flags & DF_ESCAPED;
            i = key_end + 1;
            continue;
        }
        if (c == ':') {
            i++;
            if (depth == 1) ++*top_keys;
            if (depth < 1 || depth > deepest) continue;
            count = keys[depth];
            if (escaped || count == DF_SJ_GLANCE_KEYS) return 1;
            len = key_end - key;
            head = df_sj_head(p + key, len, n - key);
            for (m = 0; m < n_models; m++)
                if (models[m].len == len && df_sj_same(models[m].name, p + key, len)) return 1;
            for (d = 0; d < count; d++)
                if (heads[depth][d] == head && lens[depth][d] == len &&
                    (len <= 8 || df_sj_same(p + starts[depth][d] + 8, p + key + 8, len - 8)))
                    return 1;
            heads[depth][count] = head;
            starts[depth][count] = key;
            lens[depth][count] = (int)len;
            keys[depth] = count + 1;
            continue;
        }
        if (c == '{' || c == '[') {
            if (++depth > DF_SJ_SKIP_DEPTH) return 1;
            if (depth <= deepest) keys[depth] = 0;
            i++;
            continue;
        }
        if (c == '}' || c == ']') {
            if (--depth < 0) return 0; /* msgspec rejects it */
            i++;
            continue;
        }
        if (c == '-' || DF_IS_DIGIT(c)) {
            /* quick: an integer of at most 15 digits, not -0 (no leading zero) */
            j = i + (c == '-');
            while (j < n && DF_IS_DIGIT(p[j])) j++;
            len = j - i - (c == '-');
            if (len >= 1 && len <= 15 && (p[j - len] != '0' || (len == 1 && c != '-')) &&
                (j >= n || (p[j] != '.' && (p[j] | 0x20) != 'e'))) {
                i = j;
                continue;
            }
            i = df_sj_glance_number(p, n, i);
            if (i < 0) return 1;
            continue;
        }
        i++; /* whitespace, a comma, a literal's letters (or a syntax error) */
    }
    return 0;
}

/* ------------------------------------------------------------------ writing */

/* df_sj_exponents(p, n, out): in JSON that msgspec wrote, the exponents of floats outside
   strings ("1e16": an 'e' between digits). out == NULL: returns how many; else copies p
   to out with a '+' after each such 'e' (serde_json's "1e+16") and returns the length. */
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
                memcpy(out + at, p + copied, (size_t)(i + 1 - copied));
                at += i + 1 - copied;
                out[at++] = '+';
                copied = i + 1;
            }
        }
        i++;
    }
    if (!out) return count;
    memcpy(out + at, p + copied, (size_t)(n - copied));
    return at + n - copied;
}

#endif /* DF_SERDE_JSON_H */
