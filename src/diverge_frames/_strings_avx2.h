/* The AVX2 path of the string loop (see _strings.h): 32 bytes a step, simple escapes
 * undone in the step (compares, and vpshufb squeezing out eight bytes at a time) and
 * short escapes written in the step (vpshufb), compiled for its own target and run when
 * the CPU has AVX2 and POPCNT.
 */
#ifndef DF_STRINGS_AVX2_H
#define DF_STRINGS_AVX2_H

#include "_common.h"
#include "_strings_base.h"

#if DF_AVX2

#define DF_TARGET_AVX2 __attribute__((target("avx2,popcnt")))
#define DF_CONTROL_256(v) _mm256_cmpeq_epi8(_mm256_min_epu8((v), _mm256_set1_epi8(0x1F)), (v))
#define DF_MASK_256(v) ((uint64_t)(unsigned)_mm256_movemask_epi8(v))

/* Tables filled once by df_strings_init_avx2:
   df_bit_at                of each byte 0-255, the positions of its set bits, lowest
                            first, one a byte (the bytes past its count 0): as vpshufb
                            indexes, the bytes of eight a mask keeps, put together;
   df_escape_spread         of a mask of eight bytes to escape (bit i: byte i), the
                            vpshufb indexes that write the eight bytes (0-7) with a
                            backslash (8) before each one to escape;
   df_escape_spread_length  how many bytes that makes. */
static uint64_t df_bit_at[256];
static unsigned char df_escape_spread[256][16];
static unsigned char df_escape_spread_length[256];

DF_INLINE void df_strings_init_avx2(void) {
    unsigned m, j, k;
    uint64_t at;
    for (m = 0; m < 256; m++) {
        at = 0;
        k = 0;
        for (j = 0; j < 8; j++)
            if (m & (1u << j)) at |= (uint64_t)j << (8 * k++);
        df_bit_at[m] = at;
        k = 0;
        for (j = 0; j < 8; j++) {
            if (m & (1u << j)) df_escape_spread[m][k++] = 8;
            df_escape_spread[m][k++] = (unsigned char)j;
        }
        df_escape_spread_length[m] = (unsigned char)k;
        while (k < 16) df_escape_spread[m][k++] = 0x80;
    }
}

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

/* The 32 bits of m as 32 bytes, 0xFF where the bit is set. */
DF_TARGET_AVX2 static inline __m256i df_bytes_of_avx2(uint32_t m) {
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2,
                                            2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ULL);
    return _mm256_cmpeq_epi8(
        _mm256_and_si256(_mm256_shuffle_epi8(_mm256_set1_epi32((int)m), spread), bit), bit);
}

/* Of the 32 bytes v read as the bytes after a backslash: what each simple escape
   (\" \\ \/ \b \f \n \r \t) stands for into *plain, and the mask (0xFF) of the
   bytes that make one (DF_UNESCAPE's, 'u' apart). */
DF_TARGET_AVX2 static inline __m256i df_unescape_avx2(__m256i v, __m256i *plain) {
#define DF_IS(c) _mm256_cmpeq_epi8(v, _mm256_set1_epi8(c))
#define DF_TO(c, to) _mm256_and_si256(DF_IS(c), _mm256_set1_epi8((char)((c) ^ (to))))
    /* b f n r t to their control bytes (by xor); " \ / are what they stand for */
    *plain = _mm256_xor_si256(
        v, _mm256_or_si256(_mm256_or_si256(DF_TO('b', 8), DF_TO('f', 12)),
                           _mm256_or_si256(_mm256_or_si256(DF_TO('n', 10), DF_TO('r', 13)),
                                           DF_TO('t', 9))));
    return _mm256_or_si256(
        _mm256_or_si256(_mm256_or_si256(DF_IS('b'), DF_IS('f')),
                        _mm256_or_si256(DF_IS('n'), DF_IS('r'))),
        _mm256_or_si256(_mm256_or_si256(DF_IS('t'), DF_IS('"')),
                        _mm256_or_si256(DF_IS('\\'), DF_IS('/'))));
#undef DF_TO
#undef DF_IS
}

/* The 32 bytes v written at d with the bytes of drop (bit i: byte i) left out, eight
   bytes a step (vpshufb, the indexes from df_bit_at): how many were written. Stores
   up to 8 bytes past them. */
DF_TARGET_AVX2 static inline df_ssize df_squeeze_avx2(unsigned char *d, __m256i v,
                                                      uint32_t drop) {
    __m128i half[2], eight;
    df_ssize w = 0;
    unsigned j, keep;
    half[0] = _mm256_castsi256_si128(v);
    half[1] = _mm256_extracti128_si256(v, 1);
    for (j = 0; j < 4; j++) {
        eight = j & 1 ? _mm_unpackhi_epi64(half[j >> 1], half[j >> 1]) : half[j >> 1];
        keep = ~(drop >> (8 * j)) & 0xFF;
        _mm_storel_epi64((__m128i *)(d + w),
                         _mm_shuffle_epi8(eight, _mm_set_epi64x(0, (long long)df_bit_at[keep])));
        w += __builtin_popcount(keep);
    }
    return w;
}

/* df_simple_run(d, s, blocks, &o, &high, &flags), as df_simple_run_avx512: like
   df_plain_run, but a block may hold escapes too when each is simple (a backslash and
   one byte of \"\\/bfnrt) and ends in it: the escaped bytes replaced by what they stand
   for (compares), the backslashes that start them squeezed out (df_squeeze_avx2), and
   *flags |= DF_STR_ESCAPED when there were some. */
DF_TARGET_AVX2 static inline df_ssize df_simple_run_avx2(unsigned char *d,
                                                         const unsigned char *s,
                                                         df_ssize blocks, df_ssize *o,
                                                         uint64_t *high, int *flags) {
    const __m256i quote = _mm256_set1_epi8(0x22), slash = _mm256_set1_epi8(0x5C);
    __m256i a, b, pa, pb, hi = _mm256_setzero_si256();
    uint64_t backslash, prev, escaped, starts, simple, any = 0;
    df_ssize k, w = *o;
    for (k = 0; k < blocks; k++, s += 64) {
        a = _mm256_loadu_si256((const __m256i *)s);
        b = _mm256_loadu_si256((const __m256i *)(s + 32));
        backslash = DF_MASK_256(_mm256_cmpeq_epi8(a, slash)) |
                    DF_MASK_256(_mm256_cmpeq_epi8(b, slash)) << 32;
        prev = 0;
        escaped = backslash ? df_escaped64(backslash, &prev) : 0;
        /* a closing quote, a control byte, or an escape started by its last byte */
        if (((DF_MASK_256(_mm256_cmpeq_epi8(a, quote)) |
              DF_MASK_256(_mm256_cmpeq_epi8(b, quote)) << 32) &
             ~escaped) |
            DF_MASK_256(DF_CONTROL_256(a)) | DF_MASK_256(DF_CONTROL_256(b)) << 32 | prev)
            break;
        if (!backslash) {
            _mm256_storeu_si256((__m256i *)(d + w), a);
            _mm256_storeu_si256((__m256i *)(d + w + 32), b);
            hi = _mm256_or_si256(hi, _mm256_or_si256(a, b));
            w += 64;
            continue;
        }
        simple = DF_MASK_256(df_unescape_avx2(a, &pa)) |
                 DF_MASK_256(df_unescape_avx2(b, &pb)) << 32;
        if (escaped & ~simple) break; /* \u, or an escape serde_json rejects */
        hi = _mm256_or_si256(hi, _mm256_or_si256(a, b));
        a = _mm256_blendv_epi8(a, pa, df_bytes_of_avx2((uint32_t)escaped));
        b = _mm256_blendv_epi8(b, pb, df_bytes_of_avx2((uint32_t)(escaped >> 32)));
        starts = backslash & ~escaped;
        w += df_squeeze_avx2(d + w, a, (uint32_t)starts);
        w += df_squeeze_avx2(d + w, b, (uint32_t)(starts >> 32));
        any |= starts;
    }
    *o = w;
    if (_mm256_movemask_epi8(hi)) *high |= 1;
    if (any) *flags |= DF_STR_ESCAPED;
    return k;
}

/* The run of the AVX2 path: df_plain_run's while it can, then df_simple_run. */
DF_TARGET_AVX2 static inline df_ssize df_run_avx2(unsigned char *d, const unsigned char *s,
                                                  df_ssize blocks, df_ssize *o,
                                                  uint64_t *high, int *flags) {
    df_ssize k = df_plain_run_avx2(d, s, blocks, o, high, flags);
    return k == blocks ? k : k + df_simple_run_avx2(d, s + 64 * k, blocks - k, o, high, flags);
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

/* The control bytes (mask control) of v written \u00XX: those of 0x10-0x1F, and those
   whose letter (of DF_ESCAPE's first 16, looked up by vpshufb) is 'u'. */
DF_TARGET_AVX2 static inline __m256i df_long_escapes_avx2(__m256i v, __m256i control,
                                                         __m256i letter) {
    return _mm256_and_si256(
        control, _mm256_or_si256(_mm256_xor_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(16), v),
                                                  _mm256_set1_epi8(-1)),
                                 _mm256_cmpeq_epi8(letter, _mm256_set1_epi8('u'))));
}

/* DF_LOOP_ESCAPES: the 64 bytes at s, whose bytes to escape are exactly stops, written
   at d + *o in one step when all of them have short escapes (a quote, a backslash, or
   \b \t \n \f \r: escaped markdown's): each control byte replaced by its letter from
   DF_ESCAPE (vpshufb), then each eight bytes written with a backslash before each one
   to escape (vpshufb, the indexes looked up by their mask in df_escape_spread); 1, or
   0 with nothing written when one is written \u00XX. Stores 128 bytes from d + *o at
   most (eight stores of 16). */
DF_TARGET_AVX2 static inline int df_escapes_avx2(unsigned char *d, const unsigned char *s,
                                                 uint64_t stops, df_ssize *o) {
    const __m256i letters =
        _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)DF_ESCAPE));
    const __m128i backslashes = _mm_set1_epi8(0x5C);
    __m256i a = _mm256_loadu_si256((const __m256i *)s),
            b = _mm256_loadu_si256((const __m256i *)(s + 32));
    __m256i ca = DF_CONTROL_256(a), cb = DF_CONTROL_256(b);
    __m256i la = _mm256_shuffle_epi8(letters, a), lb = _mm256_shuffle_epi8(letters, b);
    __m128i x, halves[4];
    df_ssize w = *o;
    unsigned j, m;
    if (!_mm256_testz_si256(
            _mm256_or_si256(df_long_escapes_avx2(a, ca, la), df_long_escapes_avx2(b, cb, lb)),
            _mm256_set1_epi8(-1)))
        return 0;
    /* the control bytes as their letters */
    a = _mm256_blendv_epi8(a, la, ca);
    b = _mm256_blendv_epi8(b, lb, cb);
    halves[0] = _mm256_castsi256_si128(a);
    halves[1] = _mm256_extracti128_si256(a, 1);
    halves[2] = _mm256_castsi256_si128(b);
    halves[3] = _mm256_extracti128_si256(b, 1);
    for (j = 0; j < 4; j++) {
        x = halves[j];
        m = (unsigned)(stops >> (16 * j)) & 0xFF;
        _mm_storeu_si128((__m128i *)(d + w),
                         _mm_shuffle_epi8(_mm_unpacklo_epi64(x, backslashes),
                                          _mm_loadu_si128((const __m128i *)df_escape_spread[m])));
        w += df_escape_spread_length[m];
        m = (unsigned)(stops >> (16 * j + 8)) & 0xFF;
        _mm_storeu_si128((__m128i *)(d + w),
                         _mm_shuffle_epi8(_mm_unpackhi_epi64(x, backslashes),
                                          _mm_loadu_si128((const __m128i *)df_escape_spread[m])));
        w += df_escape_spread_length[m];
    }
    *o = w;
    return 1;
}

#define DF_LOOP(name) name##_avx2
#define DF_LOOP_ATTR DF_TARGET_AVX2
#define DF_LOOP_MASKS df_masks_avx2
#define DF_LOOP_COPY df_copy_avx2
#define DF_LOOP_RUN df_run_avx2
#define DF_LOOP_RUN_AFTER(mk) 1
#define DF_LOOP_STOPS df_stops_avx2
#define DF_LOOP_PLAIN df_plain_run_avx2
#define DF_LOOP_ESCAPES df_escapes_avx2
#include "_strings_loops.h"
#endif /* DF_AVX2 */

#endif /* DF_STRINGS_AVX2_H */
