/* The SSE2 path of the string loop (see _strings.h): 16 bytes a step, baseline x86-64.
 */
#ifndef DF_STRINGS_SSE2_H
#define DF_STRINGS_SSE2_H

#include "_common.h"
#include "_strings_base.h"

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

/* df_stops(p) (DF_LOOP_STOPS): the quotes, backslashes and control bytes of the 64
   bytes at p, bit i for byte i. */
DF_INLINE uint64_t df_stops_sse2(const unsigned char *p) {
    uint64_t m = 0;
    int k;
    for (k = 0; k < 64; k += 16)
        m |= DF_MASK_128(df_stops_128(_mm_loadu_si128((const __m128i *)(p + k)))) << k;
    return m;
}

#define DF_LOOP(name) name##_sse2
#define DF_LOOP_ATTR
#define DF_LOOP_MASKS df_masks_sse2
#define DF_LOOP_COPY df_copy_sse2
#define DF_LOOP_RUN df_plain_run_sse2
#define DF_LOOP_RUN_AFTER(mk) (!((mk).slash | (mk).control | (mk).quote))
#define DF_LOOP_STOPS df_stops_sse2
#define DF_LOOP_PLAIN df_plain_run_sse2
#include "_strings_loops.h"
#endif /* DF_SSE2 */

#endif /* DF_STRINGS_SSE2_H */
