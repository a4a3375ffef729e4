/* The AVX-512 path of the string loop (see _strings.h): 64 bytes a step, simple escapes
 * undone in the step (vpermi2b, vpcompressb) and short escapes written in the step
 * (vpermb, vpexpandb), compiled for its own target and run when the CPU has AVX-512 F,
 * BW, VL, VBMI and VBMI2 and BMI2. Its run starts with the AVX2 path's.
 */
#ifndef DF_STRINGS_AVX512_H
#define DF_STRINGS_AVX512_H

#include "_common.h"
#include "_strings_avx2.h"
#include "_strings_base.h"

#if DF_AVX512

#define DF_TARGET_AVX512                                                                   \
    __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt,avx2")))

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

/* df_stops(p) (DF_LOOP_STOPS): the quotes, backslashes and control bytes of the 64
   bytes at p, bit i for byte i. */
DF_TARGET_AVX512 static inline uint64_t df_stops_avx512(const unsigned char *p) {
    __m512i v = _mm512_loadu_si512((const void *)p);
    return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x22)) |
           _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x5C)) |
           _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1F));
}

/* df_escapes(d, s, stops, &o) (DF_LOOP_ESCAPES): the 64 bytes at s, whose bytes to
   escape are stops (nonzero), written at d + *o at once when every one of them has a
   short escape (a backslash and one byte: a quote, a backslash, \b \t \n \f \r): each
   byte to escape becomes its letter (vpermb) and each half of the block is spread out
   with a backslash before each letter (vpexpandb, the places from pdep and pext);
   *o moved past them, and 1. 0, nothing written, when one needs \u00XX. Stores 128 bytes
   from d + *o at most. A control byte's letter is DF_ESCAPE's ('u' for \u00XX). */
DF_TARGET_AVX512 static inline int df_escapes_avx512(unsigned char *d, const unsigned char *s,
                                                    uint64_t stops, df_ssize *o) {
    const __m512i letters = _mm512_loadu_si512((const void *)DF_ESCAPE); /* bytes 0-63 */
    /* a half's 32 bytes spread over 64 places: bit 2i whether byte i has a backslash
       before it, bit 2i + 1 (always) the byte itself */
    const uint64_t odd = 0xAAAAAAAAAAAAAAAAULL, even = 0x5555555555555555ULL;
    const __m512i backslash = _mm512_set1_epi8(0x5C);
    __m512i v = _mm512_loadu_si512((const void *)s);
    __mmask64 control = _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1F));
    uint32_t half;
    df_ssize w = *o;
    /* the quotes and backslashes stay as they are, the control bytes become letters */
    v = _mm512_mask_permutexvar_epi8(v, control, v, letters);
    if (_mm512_mask_cmpeq_epi8_mask(control, v, _mm512_set1_epi8('u'))) return 0;
    half = (uint32_t)stops;
    _mm512_storeu_si512((void *)(d + w),
                        _mm512_mask_expand_epi8(backslash,
                                                _pext_u64(odd, _pdep_u64(half, even) | odd), v));
    w += 32 + __builtin_popcount(half);
    half = (uint32_t)(stops >> 32);
    _mm512_storeu_si512(
        (void *)(d + w),
        _mm512_mask_expand_epi8(backslash, _pext_u64(odd, _pdep_u64(half, even) | odd),
                                _mm512_castsi256_si512(_mm512_extracti64x4_epi64(v, 1))));
    *o = w + 32 + __builtin_popcount(half);
    return 1;
}
#define DF_LOOP(name) name##_avx512
#define DF_LOOP_ATTR DF_TARGET_AVX512
#define DF_LOOP_MASKS df_masks_avx512
#define DF_LOOP_COPY df_copy_avx512
#define DF_LOOP_RUN df_run_avx512
#define DF_LOOP_RUN_AFTER(mk) 1
#define DF_LOOP_STOPS df_stops_avx512
#define DF_LOOP_PLAIN df_plain_run_avx2
#define DF_LOOP_ESCAPES df_escapes_avx512
#include "_strings_loops.h"
#endif /* DF_AVX512 */

#endif /* DF_STRINGS_AVX512_H */
