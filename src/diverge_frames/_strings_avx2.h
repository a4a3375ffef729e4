/* The AVX2 path of the string loop (see _strings.h): 32 bytes a step, compiled for its
 * own target and run when the CPU has AVX2.
 */
#ifndef DF_STRINGS_AVX2_H
#define DF_STRINGS_AVX2_H

#include "_common.h"
#include "_strings_base.h"

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

/* df_stops(p) (DF_LOOP_STOPS): the quotes, backslashes and control bytes of the 64
   bytes at p, bit i for byte i. */
DF_TARGET_AVX2 static inline uint64_t df_stops_avx2(const unsigned char *p) {
    const __m256i quote = _mm256_set1_epi8(0x22), slash = _mm256_set1_epi8(0x5C);
    __m256i a = _mm256_loadu_si256((const __m256i *)p),
            b = _mm256_loadu_si256((const __m256i *)(p + 32));
    a = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(a, quote), _mm256_cmpeq_epi8(a, slash)),
        DF_CONTROL_256(a));
    b = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(b, quote), _mm256_cmpeq_epi8(b, slash)),
        DF_CONTROL_256(b));
    return DF_MASK_256(a) | DF_MASK_256(b) << 32;
}

#define DF_LOOP(name) name##_avx2
#define DF_LOOP_ATTR DF_TARGET_AVX2
#define DF_LOOP_MASKS df_masks_avx2
#define DF_LOOP_COPY df_copy_avx2
#define DF_LOOP_RUN df_plain_run_avx2
#define DF_LOOP_RUN_AFTER(mk) (!((mk).slash | (mk).control | (mk).quote))
#define DF_LOOP_STOPS df_stops_avx2
#define DF_LOOP_PLAIN df_plain_run_avx2
#include "_strings_loops.h"
#endif /* DF_AVX2 */

#endif /* DF_STRINGS_AVX2_H */
