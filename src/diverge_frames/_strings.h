/* JSON string content into text, for the long-string fast paths of _frames_c.pyx.
 *
 * Plain C, no Python objects (the extension builds the str from what these write), so
 * that tests/c/test_strings.c checks every path against byte-by-byte references, once
 * as the extension is built and once with -DDF_SCALAR.
 *
 *   df_string_copy      the content of a JSON string, up to its closing quote, copied
 *                       with each escape replaced by the UTF-8 it stands for, with
 *                       serde_json's rules for what a str may not hold;
 *   df_stop_index       the next quote, backslash or control byte (the end of a string
 *                       with no escape);
 *   df_find_string_key  the next `"text":"`, `"blob":"` (or other name) in a range;
 *   df_count_empty      how many `""` a range holds.
 *
 * df_string_copy reads 64 bytes a step as bit masks of the bytes that matter (quotes,
 * backslashes, control bytes, bytes >= 0x80; simdjson's way: a run of backslashes
 * escapes the byte after it when its length is odd, found for all the runs of a block
 * by one addition). Paths: AVX2 when the CPU has it (GCC and Clang on x86-64, chosen at
 * run time: wheels target baseline x86-64), else SSE2, else (arm64, or -DDF_SCALAR)
 * 8-byte SWAR words. The loop is written once (_strings_loops.h) and compiled once per
 * path.
 */
#ifndef DF_STRINGS_H
#define DF_STRINGS_H

#include "_scan.h"

#if DF_SSE2 && (defined(__GNUC__) || defined(__clang__)) && !defined(DF_NO_AVX2)
#define DF_AVX2 1
#include <immintrin.h>
#else
#define DF_AVX2 0
#endif
#if DF_AVX2 && !defined(DF_NO_AVX512)
#define DF_AVX512 1
#else
#define DF_AVX512 0
#endif

#if defined(_MSC_VER) && !defined(__clang__)
DF_INLINE unsigned df_lowest_bit64(uint64_t m) {
    unsigned long at;
    _BitScanForward64(&at, m);
    return (unsigned)at;
}
DF_INLINE int df_add_overflow(uint64_t a, uint64_t b, uint64_t *sum) {
    *sum = a + b;
    return *sum < a;
}
#else
#define df_lowest_bit64(m) ((unsigned)__builtin_ctzll(m))
#define df_add_overflow(a, b, sum) __builtin_add_overflow((a), (b), (sum))
#endif

/* Flags of df_string_copy: what a string held. */
#define DF_STR_ESCAPED 1 /* an escape */
#define DF_STR_HIGH 4    /* a byte >= 0x80, raw or from a \u escape: UTF-8 to decode */

/* Which loops run: 2 AVX2, 1 SSE2, 0 SWAR. df_strings_init sets the best the CPU has
   (call it once, before the functions below); a test may lower it. */
static int df_string_path = DF_SSE2;

DF_INLINE void df_strings_init(void) {
#if DF_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) df_string_path = 2;
#endif
#if DF_AVX512
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2"))
        df_string_path = 3;
#endif
}

/* ------------------------------------------------------------------ escapes */

/* Of a 64-byte block's backslashes (bit i: byte i) and *prev (1 when the block's first
   byte is escaped by the block before): the bytes a backslash escapes; *prev is set
   for the next block (simdjson's find_escaped_branchless). */
DF_INLINE uint64_t df_escaped64(uint64_t backslash, uint64_t *prev) {
    const uint64_t even = 0x5555555555555555ULL;
    uint64_t follows, odd_starts, even_series;
    backslash &= ~*prev;
    follows = (backslash << 1) | *prev;
    odd_starts = backslash & ~even & ~follows;
    *prev = (uint64_t)df_add_overflow(odd_starts, backslash, &even_series);
    return (even ^ (even_series << 1)) & follows;
}

/* What a backslash and this byte stand for, or 0 when they are no escape (\u apart). */
static const unsigned char DF_UNESCAPE[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/* The value of four hex digits at s, or -1. */
DF_INLINE int df_hex4(const unsigned char *s) {
    int value = 0, i;
    unsigned c;
    for (i = 0; i < 4; i++) {
        c = s[i];
        if (c - '0' < 10u) {
            c -= '0';
        } else if ((c | 0x20u) - 'a' < 6u) {
            c = (c | 0x20u) - 'a' + 10;
        } else {
            return -1;
        }
        value = value * 16 + (int)c;
    }
    return value;
}

/* The \u escape at s[*i] (a backslash, then 'u') written to d[*o] as UTF-8: advances
   both; 0, or -1 when serde_json rejects it in a str (serde_json 1.0.154 read.rs,
   parse_unicode_escape with validate: a \uDC00-\uDFFF escape alone, or a \uD800-\uDBFF
   one not followed by one of them, is an error; so is a digit that is not hex). */
DF_INLINE int df_unicode_escape(unsigned char *d, df_ssize *o, const unsigned char *s,
                                df_ssize m, df_ssize *i, unsigned *high) {
    df_ssize at = *i;
    unsigned char *w = d + *o;
    int cp, low;
    if (at + 6 > m || (cp = df_hex4(s + at + 2)) < 0) return -1;
    at += 6;
    if (cp >= 0xD800 && cp <= 0xDFFF) {
        if (cp >= 0xDC00 || at + 6 > m || s[at] != '\\' || s[at + 1] != 'u') return -1;
        low = df_hex4(s + at + 2);
        if (low < 0xDC00 || low > 0xDFFF) return -1;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        at += 6;
    }
    if (cp < 0x80) {
        w[0] = (unsigned char)cp;
        *o += 1;
    } else {
        *high = 0x80u;
        if (cp < 0x800) {
            w[0] = (unsigned char)(0xC0 | (cp >> 6));
            w[1] = (unsigned char)(0x80 | (cp & 0x3F));
            *o += 2;
        } else if (cp < 0x10000) {
            w[0] = (unsigned char)(0xE0 | (cp >> 12));
            w[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
            w[2] = (unsigned char)(0x80 | (cp & 0x3F));
            *o += 3;
        } else {
            w[0] = (unsigned char)(0xF0 | (cp >> 18));
            w[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
            w[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
            w[3] = (unsigned char)(0x80 | (cp & 0x3F));
            *o += 4;
        }
    }
    *i = at;
    return 0;
}

/* The escape at s[*i] (a backslash) written to d[*o]: advances both; 0, or -1 when it
   is not one serde_json accepts in a str (read.rs parse_escape). */
DF_INLINE int df_escape(unsigned char *d, df_ssize *o, const unsigned char *s, df_ssize m,
                        df_ssize *i, unsigned *high) {
    unsigned char simple;
    if (*i + 1 >= m) return -1;
    simple = DF_UNESCAPE[s[*i + 1]];
    if (simple) {
        d[*o] = simple;
        *o += 1;
        *i += 2;
        return 0;
    }
    if (s[*i + 1] != 'u') return -1;
    return df_unicode_escape(d, o, s, m, i, high);
}

/* ------------------------------------------------------------------ block masks */

/* The masks of a 64-byte block (bit i: byte i): its quotes, backslashes, control
   bytes (below 0x20) and bytes >= 0x80. */
typedef struct {
    uint64_t quote, slash, control, high;
} df_masks;

/* SWAR: the high bit of each byte of x, gathered into 8 bits (no two terms of the
   product meet, so nothing carries). */
#define DF_GATHER(x) ((unsigned)((((x) >> 7) * 0x0102040810204080ULL) >> 56))

DF_INLINE void df_masks_swar(const unsigned char *p, df_masks *m) {
    const uint64_t ones = 0x0101010101010101ULL, low7 = 0x7F7F7F7F7F7F7F7FULL,
                   top = 0x8080808080808080ULL;
    uint64_t w, t;
    int k;
    m->quote = m->slash = m->control = m->high = 0;
    for (k = 0; k < 64; k += 8) {
        memcpy(&w, p + k, 8);
        t = w ^ (ones * 0x22); /* high bit of each byte: the byte is not 0 */
        m->quote |= (uint64_t)DF_GATHER(~(((t & low7) + low7) | t) & top) << k;
        t = w ^ (ones * 0x5C);
        m->slash |= (uint64_t)DF_GATHER(~(((t & low7) + low7) | t) & top) << k;
        m->control |= (uint64_t)DF_GATHER(~(((w & low7) + ones * 0x60) | w) & top) << k;
        m->high |= (uint64_t)DF_GATHER(w & top) << k;
    }
}

/* Copy the 64 bytes at s to d. */
DF_INLINE void df_copy_swar(unsigned char *d, const unsigned char *s) { memcpy(d, s, 64); }

/* df_plain_run(d, s, blocks, &o, &high, &flags): copy the 64-byte blocks at s to d + *o,
   at most `blocks` of them, while they hold no quote, backslash or control byte;
   returns how many were copied, with *o moved past them and *high |= 1 when they hold a
   byte >= 0x80 (flags untouched: the run of the paths with no df_simple_run). */
DF_INLINE df_ssize df_plain_run_swar(unsigned char *d, const unsigned char *s,
                                     df_ssize blocks, df_ssize *o, uint64_t *high,
                                     int *flags) {
    const uint64_t ones = 0x0101010101010101ULL, top = 0x8080808080808080ULL;
    uint64_t w[8], any, hi = 0, stop, x;
    df_ssize b;
    int k;
    (void)flags;
    d += *o;
    for (b = 0; b < blocks; b++, s += 64, d += 64) {
        memcpy(w, s, 64);
        stop = 0;
        any = 0;
        for (k = 0; k < 8; k++) {
            x = w[k];
            any |= x;
            /* a zero byte in x ^ '"', in x ^ '\\', a byte below 0x20: exact as a whole */
            stop |= ((x ^ (ones * 0x22)) - ones) & ~(x ^ (ones * 0x22));
            stop |= ((x ^ (ones * 0x5C)) - ones) & ~(x ^ (ones * 0x5C));
            stop |= (x - ones * 0x20) & ~x;
        }
        if (stop & top) break;
        memcpy(d, w, 64);
        hi |= any;
    }
    if (hi & top) *high |= 1;
    *o += 64 * b;
    return b;
}

#if DF_SSE2
/* A byte below 0x20: min(v, 0x1F) == v (unsigned). */
#define DF_CONTROL_128(v) _mm_cmpeq_epi8(_mm_min_epu8((v), _mm_set1_epi8(0x1F)), (v))
#define DF_MASK_128(v) ((uint64_t)(unsigned)_mm_movemask_epi8(v))

DF_INLINE void df_masks_sse2(const unsigned char *p, df_masks *m) {
    const __m128i quote = _mm_set1_epi8(0x22), slash = _mm_set1_epi8(0x5C);
    __m128i v;
    int k;
    m->quote = m->slash = m->control = m->high = 0;
    for (k = 0; k < 64; k += 16) {
        v = _mm_loadu_si128((const __m128i *)(p + k));
        m->quote |= DF_MASK_128(_mm_cmpeq_epi8(v, quote)) << k;
        m->slash |= DF_MASK_128(_mm_cmpeq_epi8(v, slash)) << k;
        m->control |= DF_MASK_128(DF_CONTROL_128(v)) << k;
        m->high |= DF_MASK_128(v) << k;
    }
}

DF_INLINE void df_copy_sse2(unsigned char *d, const unsigned char *s) {
    _mm_storeu_si128((__m128i *)d, _mm_loadu_si128((const __m128i *)s));
    _mm_storeu_si128((__m128i *)(d + 16), _mm_loadu_si128((const __m128i *)(s + 16)));
    _mm_storeu_si128((__m128i *)(d + 32), _mm_loadu_si128((const __m128i *)(s + 32)));
    _mm_storeu_si128((__m128i *)(d + 48), _mm_loadu_si128((const __m128i *)(s + 48)));
}

/* A quote, a backslash or a control byte. */
DF_INLINE __m128i df_stops_128(__m128i v) {
    const __m128i quote = _mm_set1_epi8(0x22), slash = _mm_set1_epi8(0x5C);
    return _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, slash)),
                        DF_CONTROL_128(v));
}

DF_INLINE df_ssize df_plain_run_sse2(unsigned char *d, const unsigned char *s,
                                     df_ssize blocks, df_ssize *o, uint64_t *high,
                                     int *flags) {
    __m128i a, b, c, e, hi = _mm_setzero_si128(), stop;
    df_ssize k;
    (void)flags;
    d += *o;
    for (k = 0; k < blocks; k++, s += 64, d += 64) {
        a = _mm_loadu_si128((const __m128i *)s);
        b = _mm_loadu_si128((const __m128i *)(s + 16));
        c = _mm_loadu_si128((const __m128i *)(s + 32));
        e = _mm_loadu_si128((const __m128i *)(s + 48));
        stop = _mm_or_si128(_mm_or_si128(df_stops_128(a), df_stops_128(b)),
                            _mm_or_si128(df_stops_128(c), df_stops_128(e)));
        if (_mm_movemask_epi8(stop)) break;
        _mm_storeu_si128((__m128i *)d, a);
        _mm_storeu_si128((__m128i *)(d + 16), b);
        _mm_storeu_si128((__m128i *)(d + 32), c);
        _mm_storeu_si128((__m128i *)(d + 48), e);
        hi = _mm_or_si128(hi, _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, e)));
    }
    if (_mm_movemask_epi8(hi)) *high |= 1;
    *o += 64 * k;
    return k;
}

#endif

#if DF_AVX2
#define DF_TARGET_AVX2 __attribute__((target("avx2")))
#define DF_CONTROL_256(v) _mm256_cmpeq_epi8(_mm256_min_epu8((v), _mm256_set1_epi8(0x1F)), (v))
#define DF_MASK_256(v) ((uint64_t)(unsigned)_mm256_movemask_epi8(v))

DF_TARGET_AVX2 static inline void df_masks_avx2(const unsigned char *p, df_masks *m) {
    const __m256i quote = _mm256_set1_epi8(0x22), slash = _mm256_set1_epi8(0x5C);
    __m256i a = _mm256_loadu_si256((const __m256i *)p),
            b = _mm256_loadu_si256((const __m256i *)(p + 32));
    m->quote = DF_MASK_256(_mm256_cmpeq_epi8(a, quote)) |
               DF_MASK_256(_mm256_cmpeq_epi8(b, quote)) << 32;
    m->slash = DF_MASK_256(_mm256_cmpeq_epi8(a, slash)) |
               DF_MASK_256(_mm256_cmpeq_epi8(b, slash)) << 32;
    m->control = DF_MASK_256(DF_CONTROL_256(a)) | DF_MASK_256(DF_CONTROL_256(b)) << 32;
    m->high = DF_MASK_256(a) | DF_MASK_256(b) << 32;
}

DF_TARGET_AVX2 static inline void df_copy_avx2(unsigned char *d, const unsigned char *s) {
    _mm256_storeu_si256((__m256i *)d, _mm256_loadu_si256((const __m256i *)s));
    _mm256_storeu_si256((__m256i *)(d + 32), _mm256_loadu_si256((const __m256i *)(s + 32)));
}

DF_TARGET_AVX2 static inline df_ssize df_plain_run_avx2(unsigned char *d,
                                                        const unsigned char *s,
                                                        df_ssize blocks, df_ssize *o,
                                                        uint64_t *high, int *flags) {
    const __m256i quote = _mm256_set1_epi8(0x22), slash = _mm256_set1_epi8(0x5C);
    __m256i a, b, sa, sb, hi = _mm256_setzero_si256();
    df_ssize k;
    (void)flags;
    d += *o;
    for (k = 0; k < blocks; k++, s += 64, d += 64) {
        a = _mm256_loadu_si256((const __m256i *)s);
        b = _mm256_loadu_si256((const __m256i *)(s + 32));
        sa = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(a, quote), _mm256_cmpeq_epi8(a, slash)),
            DF_CONTROL_256(a));
        sb = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(b, quote), _mm256_cmpeq_epi8(b, slash)),
            DF_CONTROL_256(b));
        sa = _mm256_or_si256(sa, sb);
        if (!_mm256_testz_si256(sa, sa)) break;
        _mm256_storeu_si256((__m256i *)d, a);
        _mm256_storeu_si256((__m256i *)(d + 32), b);
        hi = _mm256_or_si256(hi, _mm256_or_si256(a, b));
    }
    if (_mm256_movemask_epi8(hi)) *high |= 1;
    *o += 64 * k;
    return k;
}

#endif

#if DF_AVX512
#define DF_TARGET_AVX512                                                                   \
    __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,avx2")))

DF_TARGET_AVX512 static inline void df_masks_avx512(const unsigned char *p, df_masks *m) {
    __m512i v = _mm512_loadu_si512((const void *)p);
    m->quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x22));
    m->slash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x5C));
    m->control = _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1F));
    m->high = _mm512_movepi8_mask(v);
}

DF_TARGET_AVX512 static inline void df_copy_avx512(unsigned char *d, const unsigned char *s) {
    _mm512_storeu_si512((void *)d, _mm512_loadu_si512((const void *)s));
}

/* What a backslash and each byte below 0x80 stand for (DF_UNESCAPE's first half), as
   the two tables of vpermi2b. */
#define DF_T(c) ((char)DF_UNESCAPE_128(c))
#define DF_UNESCAPE_128(c)                                                                  \
    ((c) == '"' ? '"' : (c) == '\\' ? '\\' : (c) == '/' ? '/' : (c) == 'b' ? 8 : (c) == 'f' ? 12 \
     : (c) == 'n' ? 10 : (c) == 'r' ? 13 : (c) == 't' ? 9 : 0)

/* df_simple_run(d, s, blocks, &o, &high, &flags): like df_plain_run, but a block may
   hold escapes too when each is simple (a backslash and one byte of \"\\/bfnrt) and
   ends in it: the escaped bytes are looked up in one table (vpermi2b), the backslashes
   that start them squeezed out (vpcompressb), and *flags |= DF_STR_ESCAPED when there
   were some. */
DF_TARGET_AVX512 static inline df_ssize df_simple_run_avx512(unsigned char *d,
                                                           const unsigned char *s,
                                                           df_ssize blocks, df_ssize *o,
                                                           uint64_t *high, int *flags) {
    const __m512i t0 = _mm512_set_epi8(
        DF_T(63), DF_T(62), DF_T(61), DF_T(60), DF_T(59), DF_T(58), DF_T(57), DF_T(56),
        DF_T(55), DF_T(54), DF_T(53), DF_T(52), DF_T(51), DF_T(50), DF_T(49), DF_T(48),
        DF_T(47), DF_T(46), DF_T(45), DF_T(44), DF_T(43), DF_T(42), DF_T(41), DF_T(40),
        DF_T(39), DF_T(38), DF_T(37), DF_T(36), DF_T(35), DF_T(34), DF_T(33), DF_T(32),
        DF_T(31), DF_T(30), DF_T(29), DF_T(28), DF_T(27), DF_T(26), DF_T(25), DF_T(24),
        DF_T(23), DF_T(22), DF_T(21), DF_T(20), DF_T(19), DF_T(18), DF_T(17), DF_T(16),
        DF_T(15), DF_T(14), DF_T(13), DF_T(12), DF_T(11), DF_T(10), DF_T(9), DF_T(8),
        DF_T(7), DF_T(6), DF_T(5), DF_T(4), DF_T(3), DF_T(2), DF_T(1), DF_T(0));
    const __m512i t1 = _mm512_set_epi8(
        DF_T(127), DF_T(126), DF_T(125), DF_T(124), DF_T(123), DF_T(122), DF_T(121), DF_T(120),
        DF_T(119), DF_T(118), DF_T(117), DF_T(116), DF_T(115), DF_T(114), DF_T(113), DF_T(112),
        DF_T(111), DF_T(110), DF_T(109), DF_T(108), DF_T(107), DF_T(106), DF_T(105), DF_T(104),
        DF_T(103), DF_T(102), DF_T(101), DF_T(100), DF_T(99), DF_T(98), DF_T(97), DF_T(96),
        DF_T(95), DF_T(94), DF_T(93), DF_T(92), DF_T(91), DF_T(90), DF_T(89), DF_T(88),
        DF_T(87), DF_T(86), DF_T(85), DF_T(84), DF_T(83), DF_T(82), DF_T(81), DF_T(80),
        DF_T(79), DF_T(78), DF_T(77), DF_T(76), DF_T(75), DF_T(74), DF_T(73), DF_T(72),
        DF_T(71), DF_T(70), DF_T(69), DF_T(68), DF_T(67), DF_T(66), DF_T(65), DF_T(64));
    const __m512i quote = _mm512_set1_epi8(0x22), slash = _mm512_set1_epi8(0x5C),
                  c1f = _mm512_set1_epi8(0x1F);
    __m512i v, mapped;
    uint64_t backslash, prev, escaped, starts, h, hi = 0, any = 0;
    df_ssize k, w = *o;
    for (k = 0; k < blocks; k++, s += 64) {
        v = _mm512_loadu_si512((const void *)s);
        backslash = _mm512_cmpeq_epi8_mask(v, slash);
        prev = 0;
        escaped = backslash ? df_escaped64(backslash, &prev) : 0;
        /* a closing quote, a control byte, or an escape started by its last byte */
        if ((_mm512_cmpeq_epi8_mask(v, quote) & ~escaped) | _mm512_cmple_epu8_mask(v, c1f) |
            prev)
            break;
        h = _mm512_movepi8_mask(v);
        hi |= h;
        if (!backslash) {
            _mm512_storeu_si512((void *)(d + w), v);
            w += 64;
            continue;
        }
        starts = backslash & ~escaped;
        mapped = _mm512_permutex2var_epi8(t0, v, t1); /* by the low 7 bits of each byte */
        if (escaped & ~(_mm512_test_epi8_mask(mapped, mapped) & ~h)) break;
        _mm512_storeu_si512((void *)(d + w),
                            _mm512_maskz_compress_epi8(~starts,
                                                       _mm512_mask_mov_epi8(v, escaped, mapped)));
        w += 64 - (df_ssize)__builtin_popcountll(starts);
        any |= starts;
    }
    *o = w;
    if (hi) *high |= 1;
    if (any) *flags |= DF_STR_ESCAPED;
    return k;
}

/* The run of the AVX-512 path: df_plain_run's AVX2 loop while it can (faster on plain
   text), then df_simple_run. */
DF_TARGET_AVX512 static inline df_ssize df_run_avx512(unsigned char *d, const unsigned char *s,
                                                    df_ssize blocks, df_ssize *o,
                                                    uint64_t *high, int *flags) {
    df_ssize k = df_plain_run_avx2(d, s, blocks, o, high, flags);
    return k == blocks ? k : k + df_simple_run_avx512(d, s + 64 * k, blocks - k, o, high, flags);
}
#endif

/* ------------------------------------------------------------------ the loops, per path */

/* Where df_string_copy is in a string: to go on when the caller has made more room. */
typedef struct {
    df_ssize start; /* the content's first byte */
    df_ssize base;  /* the next 64-byte block to read */
    df_ssize i;     /* the next byte to read: in that block, or past it */
    df_ssize o;     /* the next byte to write */
    uint64_t prev;  /* 1 when the block's first byte is escaped by the one before */
    uint64_t high;  /* nonzero once a byte >= 0x80 is written */
    int flags;      /* DF_STR_ESCAPED once an escape is read (DF_STR_HIGH at the end) */
} df_copy;

DF_INLINE void df_copy_start(df_copy *at, df_ssize start) {
    at->start = at->base = at->i = start;
    at->o = 0;
    at->prev = at->high = 0;
    at->flags = 0;
}

#define DF_LOOP(name) name##_swar
#define DF_LOOP_ATTR
#define DF_LOOP_MASKS df_masks_swar
#define DF_LOOP_COPY df_copy_swar
#define DF_LOOP_RUN df_plain_run_swar
#define DF_LOOP_RUN_AFTER(mk) (!((mk).slash | (mk).control | (mk).quote))
#include "_strings_loops.h"

#if DF_SSE2
#define DF_LOOP(name) name##_sse2
#define DF_LOOP_ATTR
#define DF_LOOP_MASKS df_masks_sse2
#define DF_LOOP_COPY df_copy_sse2
#define DF_LOOP_RUN df_plain_run_sse2
#define DF_LOOP_RUN_AFTER(mk) (!((mk).slash | (mk).control | (mk).quote))
#include "_strings_loops.h"
#endif

#if DF_AVX512
#define DF_LOOP(name) name##_avx512
#define DF_LOOP_ATTR DF_TARGET_AVX512
#define DF_LOOP_MASKS df_masks_avx512
#define DF_LOOP_COPY df_copy_avx512
#define DF_LOOP_RUN df_run_avx512
#define DF_LOOP_RUN_AFTER(mk) 1
#include "_strings_loops.h"
#endif

#if DF_AVX2
#define DF_LOOP(name) name##_avx2
#define DF_LOOP_ATTR DF_TARGET_AVX2
#define DF_LOOP_MASKS df_masks_avx2
#define DF_LOOP_COPY df_copy_avx2
#define DF_LOOP_RUN df_plain_run_avx2
#define DF_LOOP_RUN_AFTER(mk) (!((mk).slash | (mk).control | (mk).quote))
#include "_strings_loops.h"
#endif

/* df_string_copy(d, cap, p, n, &at): copy the content of the JSON string that starts
   at p[at.start] (df_copy_start) to d, which has room for cap bytes, each escape
   replaced by the UTF-8 of what it stands for; bytes >= 0x80 are copied as they are
   (their UTF-8 is the caller's to check). Returns the index in p of the closing quote,
   with at.o the length written and at.flags what the content held (DF_STR_ESCAPED,
   DF_STR_HIGH: what was written holds a byte >= 0x80); or -1 when the string is not
   closed in p[:n], or holds a control byte or an escape serde_json rejects in a str
   (df_escape); or -2 when d needs more room: call again with the same at and d grown
   (its first at.o bytes kept), which n - at.start bytes always are. */
DF_INLINE df_ssize df_string_copy(unsigned char *d, df_ssize cap, const unsigned char *p,
                                  df_ssize n, df_copy *at) {
#if DF_AVX512
    if (df_string_path == 3) return df_string_copy_avx512(d, cap, p, n, at);
#endif
#if DF_AVX2
    if (df_string_path == 2) return df_string_copy_avx2(d, cap, p, n, at);
#endif
#if DF_SSE2
    if (df_string_path == 1) return df_string_copy_sse2(d, cap, p, n, at);
#endif
    return df_string_copy_swar(d, cap, p, n, at);
}

/* df_stop_index(p, n, j): the index of the first quote, backslash or control byte in
   p[j:n], or n when there is none: where a string with no escape ends (or is not what
   it seemed). */
DF_INLINE df_ssize df_stop_index(const unsigned char *p, df_ssize n, df_ssize j) {
#if DF_AVX512
    if (df_string_path == 3) return df_stop_index_avx512(p, n, j);
#endif
#if DF_AVX2
    if (df_string_path == 2) return df_stop_index_avx2(p, n, j);
#endif
#if DF_SSE2
    if (df_string_path == 1) return df_stop_index_sse2(p, n, j);
#endif
    return df_stop_index_swar(p, n, j);
}

/* ------------------------------------------------------------------ keys */

/* df_find_string_key(p, start, end, names, count, &kind): the index in p[start:end] just
   after the next `"<name>":"` (where the content of that string value starts) for one of
   the `count` four-letter names in `names` ("textblob": text, blob), with *kind the
   name's index, or -1 when there is none. */
DF_INLINE df_ssize df_find_string_key(const unsigned char *p, df_ssize start, df_ssize end,
                                      const char *names, int count, int *kind) {
    const unsigned char *q;
    df_ssize k;
    int i;
    start += 6; /* the colon: 6 bytes after the key's quote, one before the value's */
    while (start + 2 <= end) {
        q = (const unsigned char *)memchr(p + start, ':', (size_t)(end - start - 1));
        if (q == NULL) return -1;
        k = q - p;
        if (p[k - 1] == '"' && p[k + 1] == '"' && p[k - 6] == '"') {
            for (i = 0; i < count; i++) {
                if (memcmp(p + k - 5, names + 4 * i, 4) == 0) {
                    *kind = i;
                    return k + 2;
                }
            }
        }
        start = k + 1;
    }
    return -1;
}

/* df_count_empty(p, n): how many i have p[i] == p[i + 1] == '"'. */
DF_INLINE df_ssize df_count_empty(const unsigned char *p, df_ssize n) {
    df_ssize i = 0, count = 0;
#if DF_SSE2
    const __m128i quote = _mm_set1_epi8(0x22);
    unsigned a, b;
    while (i + 17 <= n) {
        a = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), quote));
        b = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 1)), quote));
        for (a &= b; a; a &= a - 1) count++;
        i += 16;
    }
#endif
    for (; i + 1 < n; i++) count += (p[i] == 0x22) & (p[i + 1] == 0x22);
    return count;
}

#endif /* DF_STRINGS_H */
