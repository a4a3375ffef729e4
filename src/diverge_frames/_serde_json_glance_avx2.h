/* The AVX2 path of the glance (see _serde_json_glance.h): its masks of a 64-byte block,
 * 32 bytes a load, compiled for its own target and run when the CPU has AVX2 (the
 * choice of _strings.h's df_strings_init, as for the string loops). A body under 64
 * bytes is read as the SSE2 path reads it.
 */
#ifndef DF_SERDE_JSON_GLANCE_AVX2_H
#define DF_SERDE_JSON_GLANCE_AVX2_H

#include "_common.h"
#include "_serde_json_glance_sse2.h"
#include "_strings_avx2.h"

#if DF_AVX2

/* The masks of the 32 bytes v (bit i: byte i), as df_sj_glance_chunk's: quotes,
   backslashes, the bytes the glance acts on ({ } [ ] : and - . / 0-9), and bytes >= 0x80. */
DF_TARGET_AVX2 static inline void df_sj_glance_half_avx2(__m256i v, uint64_t *quote,
                                                        uint64_t *slash, uint64_t *acts,
                                                        uint64_t *high) {
    const __m256i t = _mm256_or_si256(v, _mm256_set1_epi8(0x20)); /* '[' ']' as '{' '}' */
    const __m256i r = _mm256_sub_epi8(v, _mm256_set1_epi8('-'));  /* '-' to '9': 0 to 12 */
    const __m256i a = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(t, _mm256_set1_epi8('{')),
                        _mm256_cmpeq_epi8(t, _mm256_set1_epi8('}'))),
        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(':')),
                        _mm256_cmpeq_epi8(_mm256_min_epu8(r, _mm256_set1_epi8('9' - '-')), r)));
    *quote = DF_MASK_256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x22)));
    *slash = DF_MASK_256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x5C)));
    *acts = DF_MASK_256(a);
    *high = DF_MASK_256(v);
}

/* The masks of the 64 bytes p[0:64], as df_sj_glance_block's (*high exact). */
DF_TARGET_AVX2 static inline void df_sj_glance_block_avx2(const unsigned char *p,
                                                         uint64_t *quote, uint64_t *slash,
                                                         uint64_t *acts, uint64_t *high) {
    uint64_t q0, s0, a0, h0, q1, s1, a1, h1;
    df_sj_glance_half_avx2(_mm256_loadu_si256((const __m256i *)p), &q0, &s0, &a0, &h0);
    df_sj_glance_half_avx2(_mm256_loadu_si256((const __m256i *)(p + 32)), &q1, &s1, &a1, &h1);
    *quote = q0 | q1 << 32;
    *slash = s0 | s1 << 32;
    *acts = a0 | a1 << 32;
    *high = h0 | h1 << 32;
    /* The upper halves clean again at once: GCC 12 left out the vzeroupper before some
       calls after the block (df_sj_glance_number, df_valid_utf8), and the SSE code run
       next with them dirty (CPython's, msgspec's) paid for it, 150 ns a decode. */
    _mm256_zeroupper();
}

/* df_sj_glance_masks_sse2's masks of the block at base, 32 bytes a load. */
DF_TARGET_AVX2 static inline void df_sj_glance_masks_avx2(const unsigned char *p, df_ssize n,
                                                         df_ssize base, uint64_t *quote,
                                                         uint64_t *slash, uint64_t *acts,
                                                         uint64_t *high) {
    int shift;
    if (n - base >= 64) {
        df_sj_glance_block_avx2(p + base, quote, slash, acts, high);
    } else if (base) { /* the last 64 bytes, those before the block shifted out */
        df_sj_glance_block_avx2(p + n - 64, quote, slash, acts, high);
        shift = (int)(64 - (n - base));
        *quote >>= shift;
        *slash >>= shift;
        *acts >>= shift;
        *high >>= shift;
    } else {
        df_sj_glance_masks_sse2(p, n, base, quote, slash, acts, high);
    }
}

#endif /* DF_AVX2 */

#endif /* DF_SERDE_JSON_GLANCE_AVX2_H */
