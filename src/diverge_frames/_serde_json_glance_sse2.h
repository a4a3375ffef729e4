/* The SSE2 path of the glance (see _serde_json_glance.h): its masks of a 64-byte block,
 * 16 bytes a load, baseline x86-64. Inlined in each decode's call of df_sj_glance.
 */
#ifndef DF_SERDE_JSON_GLANCE_SSE2_H
#define DF_SERDE_JSON_GLANCE_SSE2_H

#include "_common.h"

#if DF_SSE2

/* The masks of the 16 bytes v (bit i: byte i) df_sj_glance reads: quotes, backslashes,
   and the bytes it acts on: { } [ ] : and - . / 0-9 (a number's bytes). */
DF_ALWAYS_INLINE void df_sj_glance_chunk(__m128i v, unsigned *quote, unsigned *slash,
                                         unsigned *acts) {
    const __m128i t = _mm_or_si128(v, _mm_set1_epi8(0x20)); /* '[' and ']' as '{' and '}' */
    const __m128i r = _mm_sub_epi8(v, _mm_set1_epi8('-'));  /* '-' to '9': 0 to 12 */
    const __m128i a = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(t, _mm_set1_epi8('{')), _mm_cmpeq_epi8(t, _mm_set1_epi8('}'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')),
                     _mm_cmpeq_epi8(_mm_min_epu8(r, _mm_set1_epi8('9' - '-')), r)));
    *quote = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)));
    *slash = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C)));
    *acts = (unsigned)_mm_movemask_epi8(a);
}

/* The masks of the 64 bytes p[0:64] (bit i: byte i), and in *high the four loads or'ed
   together (a sign bit set: a byte >= 0x80 among them). */
DF_ALWAYS_INLINE void df_sj_glance_block(const unsigned char *p, uint64_t *quote,
                                         uint64_t *slash, __m128i *high, uint64_t *acts) {
    const __m128i v0 = _mm_loadu_si128((const __m128i *)p);
    const __m128i v1 = _mm_loadu_si128((const __m128i *)(p + 16));
    const __m128i v2 = _mm_loadu_si128((const __m128i *)(p + 32));
    const __m128i v3 = _mm_loadu_si128((const __m128i *)(p + 48));
    unsigned q0, s0, a0, q1, s1, a1, q2, s2, a2, q3, s3, a3;
    df_sj_glance_chunk(v0, &q0, &s0, &a0);
    df_sj_glance_chunk(v1, &q1, &s1, &a1);
    df_sj_glance_chunk(v2, &q2, &s2, &a2);
    df_sj_glance_chunk(v3, &q3, &s3, &a3);
    *quote = q0 | (uint64_t)q1 << 16 | (uint64_t)q2 << 32 | (uint64_t)q3 << 48;
    *slash = s0 | (uint64_t)s1 << 16 | (uint64_t)s2 << 32 | (uint64_t)s3 << 48;
    *acts = a0 | (uint64_t)a1 << 16 | (uint64_t)a2 << 32 | (uint64_t)a3 << 48;
    *high = _mm_or_si128(_mm_or_si128(v0, v1), _mm_or_si128(v2, v3));
}

/* The 16 bytes of p[0:len] from index k (k < len) in one load: p[k:k + 16], or, fewer
   than 16 left, the 16 that end at len, with *off of them (read already) to shift out of
   the masks made of it (then p[len - 16:0] must be readable too, when len < 16). */
DF_ALWAYS_INLINE __m128i df_sj_glance_load(const unsigned char *p, df_ssize len, int k,
                                           int *off) {
    if (k + 16 <= len) {
        *off = 0;
        return _mm_loadu_si128((const __m128i *)(p + k));
    }
    *off = (int)(k - (len - 16));
    return _mm_loadu_si128((const __m128i *)(p + len - 16));
}

/* The masks of the bytes p[0:len] (16 <= len; at most 64 of them read, bit i: byte i,
   none past len), and in *high the loads or'ed together, as df_sj_glance_block. Each 16
   bytes one load (df_sj_glance_load). */
DF_ALWAYS_INLINE void df_sj_glance_tail(const unsigned char *p, df_ssize len, uint64_t *quote,
                                         uint64_t *slash, __m128i *high, uint64_t *acts) {
    uint64_t mq = 0, ms = 0, ma = 0;
    unsigned q, s, a;
    int k, off;
    __m128i v, hv = _mm_setzero_si128();
    for (k = 0; k < 64 && k < len; k += 16) {
        v = df_sj_glance_load(p, len, k, &off);
        hv = _mm_or_si128(hv, v);
        df_sj_glance_chunk(v, &q, &s, &a);
        mq |= (uint64_t)(q >> off) << k;
        ms |= (uint64_t)(s >> off) << k;
        ma |= (uint64_t)(a >> off) << k;
    }
    *quote = mq;
    *slash = ms;
    *high = hv;
    *acts = ma;
}

/* The bytes >= 0x80 of p[0:len] (1 <= len; at most 64 of them read, bit i: byte i, none
   past len), read as df_sj_glance_tail reads them (len < 16 only after a block of 64,
   which the load before p reads). */
DF_NOINLINE uint64_t df_sj_glance_high(const unsigned char *p, df_ssize len) {
    uint64_t m = 0;
    int k, off;
    __m128i v;
    for (k = 0; k < 64 && k < len; k += 16) {
        v = df_sj_glance_load(p, len, k, &off);
        m |= (uint64_t)((unsigned)_mm_movemask_epi8(v) >> off) << k;
    }
    return m;
}

/* The masks of the block of the body p[0:n] at base (16 <= n, base < n; bit i: byte
   base + i, none past n) df_sj_glance reads: its quotes, backslashes, the bytes it acts
   on, and its bytes >= 0x80 (*high: looked for only when the loads hold one). A whole
   block is read at once; a body's last bytes as its last 64 (the bytes before base
   shifted out); a body under 64 bytes 16 at a time (df_sj_glance_tail). */
DF_ALWAYS_INLINE void df_sj_glance_masks_sse2(const unsigned char *p, df_ssize n, df_ssize base,
                                              uint64_t *quote, uint64_t *slash,
                                              uint64_t *acts, uint64_t *high) {
    __m128i any;
    if (n - base >= 64) {
        df_sj_glance_block(p + base, quote, slash, &any, acts);
    } else if (base) { /* the last 64 bytes, those before the block shifted out */
        df_sj_glance_block(p + n - 64, quote, slash, &any, acts);
        *quote >>= 64 - (n - base);
        *slash >>= 64 - (n - base);
        *acts >>= 64 - (n - base);
    } else {
        df_sj_glance_tail(p, n, quote, slash, &any, acts);
    }
    /* (any may hold the block before's bytes: df_sj_glance_high reads the block's alone) */
    *high = _mm_movemask_epi8(any) ? df_sj_glance_high(p + base, n - base) : 0;
}

#endif /* DF_SSE2 */

#endif /* DF_SERDE_JSON_GLANCE_SSE2_H */
