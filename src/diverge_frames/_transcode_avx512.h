/* UTF-8 to and from a str's code units at vector speed, the AVX-512 path (see
 * _strings.h for the dispatch): run when the CPU has AVX-512 F, BW, VL, VBMI, VBMI2 and BMI2, as the
 * string loop's AVX-512 path is.
 *
 * Plain C, no Python objects: a str's code units are 1, 2 or 4 bytes wide (CPython's
 * PEP 393 kinds, UCS-1, UCS-2, UCS-4), what the extension allocates and these fill.
 *
 *   df_utf8_shape_avx512   how many characters UTF-8 bytes hold and the largest kind
 *                          their lead bytes call for;
 *   df_utf8_decode_avx512  those bytes into code units of a kind, validated as Rust's
 *                          str and CPython's strict decoder validate UTF-8;
 *   df_ucs_encode_avx512   code units written as UTF-8 (or a lone surrogate found).
 *
 * Decoding takes 16 characters a step: the lead bytes of a 64-byte block (every byte
 * that is not 10xxxxxx) are found as a mask, their positions compressed (vpcompressb),
 * the four bytes from each lead gathered into a 32-bit lane (vpermb), and each lane's
 * code point assembled by its length, found from the lead's high nibble (one table,
 * vpermd). A step is valid when each character's length is the distance to the next
 * lead (so every continuation byte belongs to one lead), the code point is not
 * overlong, not a surrogate and at most U+10FFFF, and no lead is 0xF8 or more: the
 * Unicode definition of well-formed UTF-8, the one Rust's str and CPython hold to.
 * Blocks of ASCII are widened at once. Encoding takes 16 code points a step: each
 * lane's one to four bytes built by its range and compressed together (vpcompressb).
 */
#ifndef DF_TRANSCODE_AVX512_H
#define DF_TRANSCODE_AVX512_H

#include "_common.h"

#if DF_AVX512

#define DF_TARGET_TRANSCODE                                                                \
    __attribute__((                                                                        \
        target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt,avx2")))

/* A 64-byte block of s[0:rem] (rem > 0), its bytes past rem read as zero and never
   from memory. */
DF_TARGET_TRANSCODE static inline __m512i df_block_avx512(const unsigned char *s, df_ssize rem,
                                                          uint64_t *valid) {
    if (rem >= 64) {
        *valid = ~0ULL;
        return _mm512_loadu_si512((const void *)s);
    }
    *valid = (1ULL << rem) - 1;
    return _mm512_maskz_loadu_epi8(*valid, (const void *)s);
}

/* df_utf8_shape(s, n, &chars): the characters of the UTF-8 bytes s[0:n] (its bytes
   that are not continuation bytes) into *chars, and the largest code point the lead
   bytes allow, as the maxchar of PyUnicode_New: 127 (all ASCII), 255 (no lead above
   0xC3), 0xFFFF (none from 0xF0) or 0x10FFFF. Exact for valid UTF-8 (decode checks). */
DF_TARGET_TRANSCODE static inline uint32_t df_utf8_shape_avx512(const unsigned char *s,
                                                                df_ssize n, df_ssize *chars) {
    const __m512i c0 = _mm512_set1_epi8((char)0xC0);
    __m512i v, most = _mm512_setzero_si512();
    uint64_t valid;
    df_ssize i, count = 0;
    uint8_t top;
    for (i = 0; i < n; i += 64) {
        v = df_block_avx512(s + i, n - i, &valid);
        /* continuation bytes are -128..-65 as signed bytes: the others are < -64 false */
        count += (df_ssize)__builtin_popcountll(valid & ~_mm512_cmplt_epi8_mask(v, c0));
        most = _mm512_max_epu8(most, v);
    }
    *chars = count;
    {
        __m256i m = _mm256_max_epu8(_mm512_castsi512_si256(most),
                                    _mm512_extracti64x4_epi64(most, 1));
        __m128i x = _mm_max_epu8(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
        x = _mm_max_epu8(x, _mm_srli_si128(x, 8));
        x = _mm_max_epu8(x, _mm_srli_si128(x, 4));
        x = _mm_max_epu8(x, _mm_srli_si128(x, 2));
        x = _mm_max_epu8(x, _mm_srli_si128(x, 1));
        top = (uint8_t)_mm_cvtsi128_si32(x);
    }
    return top < 0x80 ? 127u : top < 0xC4 ? 255u : top < 0xF0 ? 0xFFFFu : 0x10FFFFu;
}

/* Of the lead bytes' high nibbles (8-B, continuation bytes, never a lead): a lead's
   length, the bits of its own it keeps, the right shift that drops the bytes past its
   length from the four-byte assembly, and the least code point of its length. A lead
   of 0xF8 or more keeps its bit 3 too, which puts its code point past U+10FFFF. */
#define DF_NIBBLES(ascii, cont, two, three, four)                                          \
    _mm512_set_epi32(four, three, two, two, cont, cont, cont, cont, ascii, ascii, ascii,    \
                     ascii, ascii, ascii, ascii, ascii)

/* Store the k code points of v (k <= 16) as units of kind at d. */
DF_TARGET_TRANSCODE static inline void df_store_units_avx512(void *d, int kind, __m512i v,
                                                             __mmask16 k) {
    if (kind == 1)
        _mm512_mask_cvtepi32_storeu_epi8(d, k, v);
    else if (kind == 2)
        _mm512_mask_cvtepi32_storeu_epi16(d, k, v);
    else
        _mm512_mask_storeu_epi32(d, k, v);
}

/* Up to 16 characters of the block v decoded and stored: lead holds the positions of
   their lead bytes in v, next each one's following lead (or where the block's data
   ends); the first k (the mask take) stored as units of kind at d. Whether one of them
   is not well-formed. */
DF_TARGET_TRANSCODE static inline int df_utf8_chars_avx512(void *d, int kind, __m512i v,
                                                           __m128i lead8, __m128i next8,
                                                           __mmask16 take) {
    /* each lead's position copied to the four bytes of its 32-bit lane, plus 0-3 */
    const __m512i spread = _mm512_set_epi32(
        0x0F0F0F0F, 0x0E0E0E0E, 0x0D0D0D0D, 0x0C0C0C0C, 0x0B0B0B0B, 0x0A0A0A0A, 0x09090909,
        0x08080808, 0x07070707, 0x06060606, 0x05050505, 0x04040404, 0x03030303, 0x02020202,
        0x01010101, 0);
    const __m512i bytes4 = _mm512_set1_epi32(0x03020100);
    const __m512i lengths = DF_NIBBLES(1, 0, 2, 3, 4);
    const __m512i keeps = DF_NIBBLES(0x3F3F3F7F, 0, 0x3F3F3F1F, 0x3F3F3F0F, 0x3F3F3F0F);
    const __m512i shifts = DF_NIBBLES(18, 0, 12, 6, 0);
    const __m512i least = DF_NIBBLES(0, 0, 0x80, 0x800, 0x10000);
    const __m512i by64 = _mm512_set1_epi16(0x0140), by4096 = _mm512_set1_epi32(0x00011000);
    /* each character's length as the distance to the next lead */
    __m512i gap = _mm512_cvtepu8_epi32(_mm_sub_epi8(next8, lead8));
    __m512i x, nibble, cp;
    __mmask16 bad;
    x = _mm512_permutexvar_epi8(
        _mm512_add_epi8(_mm512_permutexvar_epi8(spread, _mm512_castsi128_si512(lead8)), bytes4),
        v);
    nibble = _mm512_srli_epi32(x, 4); /* its low four bits: the lead's high nibble */
    /* the four bytes' bits (the lead's own, six of each other), put together as
       b0 << 18 | b1 << 12 | b2 << 6 | b3 by two multiply-adds, then the bytes past the
       length shifted out */
    cp = _mm512_madd_epi16(
        _mm512_maddubs_epi16(_mm512_and_si512(x, _mm512_permutexvar_epi32(nibble, keeps)), by64),
        by4096);
    cp = _mm512_srlv_epi32(cp, _mm512_permutexvar_epi32(nibble, shifts));
    bad = _mm512_cmpneq_epi32_mask(gap, _mm512_permutexvar_epi32(nibble, lengths)) |
          _mm512_cmplt_epu32_mask(cp, _mm512_permutexvar_epi32(nibble, least)) |
          _mm512_cmpgt_epu32_mask(cp, _mm512_set1_epi32(0x10FFFF)) |
          _mm512_cmpeq_epi32_mask(_mm512_and_si512(cp, _mm512_set1_epi32(0x1FF800)),
                                  _mm512_set1_epi32(0xD800));
    df_store_units_avx512(d, kind, cp, take);
    return (bad & take) != 0;
}

/* df_utf8_decode(d, kind, s, n): the UTF-8 bytes s[0:n] written at d as code units of
   kind (1, 2 or 4 bytes), one per character (df_utf8_shape's count, which d holds).
   Returns 0, or -1 when s[0:n] is not well-formed UTF-8 (then what was written is of
   no use; never more than the count). The kind must be at least what df_utf8_shape
   gave (a code point that does not fit is no error here).

   A block's characters are those whose lead lies in its first 61 bytes (so that all
   four of their bytes are in it; all of them in the last, short block), taken 16 at a
   time from the one load, the next block starting at the first lead not taken. */
DF_TARGET_TRANSCODE static inline int df_utf8_decode_avx512(void *d, int kind,
                                                            const unsigned char *s, df_ssize n) {
    const __m512i iota = _mm512_set_epi8(
        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43,
        42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,
        21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i c0 = _mm512_set1_epi8((char)0xC0);
    __m512i v, at;
    __m128i p0, p1, p2, p3, end;
    uint64_t valid, leads, window, rest;
    df_ssize i = 0, o = 0, rem;
    unsigned k, size;
    int bad;
    unsigned char *d1 = (unsigned char *)d;
    uint16_t *d2 = (uint16_t *)d;
    uint32_t *d4 = (uint32_t *)d;
#define DF_UNITS(at) (kind == 1 ? (void *)(d1 + (at)) : kind == 2 ? (void *)(d2 + (at)) \
                                                                   : (void *)(d4 + (at)))
    while (i < n) {
        rem = n - i;
        v = df_block_avx512(s + i, rem, &valid);
        leads = valid & ~_mm512_cmplt_epi8_mask(v, c0);
        if (!(leads & 1)) return -1; /* a continuation byte with no lead */
        if (rem >= 64 && !_mm512_movepi8_mask(v)) {
            /* 64 ASCII bytes: each its own code unit */
            if (kind == 1) {
                _mm512_storeu_si512((void *)(d1 + o), v);
            } else if (kind == 2) {
                _mm512_storeu_si512((void *)(d2 + o),
                                    _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
                _mm512_storeu_si512((void *)(d2 + o + 32),
                                    _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1)));
            } else {
                _mm512_storeu_si512((void *)(d4 + o),
                                    _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 0)));
                _mm512_storeu_si512((void *)(d4 + o + 16),
                                    _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 1)));
                _mm512_storeu_si512((void *)(d4 + o + 32),
                                    _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 2)));
                _mm512_storeu_si512((void *)(d4 + o + 48),
                                    _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 3)));
            }
            i += 64;
            o += 64;
            continue;
        }
        size = (unsigned)(rem >= 64 ? 64 : rem);
        window = rem >= 64 ? leads & ((1ULL << 61) - 1) : leads;
        rest = leads & ~window;
        k = (unsigned)__builtin_popcountll(window); /* 1 to 61 */
        /* the leads' positions, then where the block's data ends */
        at = _mm512_mask_compress_epi8(_mm512_set1_epi8((char)size), leads, iota);
        p0 = _mm512_castsi512_si128(at);
        p1 = _mm512_extracti32x4_epi32(at, 1);
        bad = df_utf8_chars_avx512(DF_UNITS(o), kind, v, p0, _mm_alignr_epi8(p1, p0, 1),
                                   (__mmask16)(k >= 16 ? 0xFFFF : (1u << k) - 1));
        if (k > 16) {
            p2 = _mm512_extracti32x4_epi32(at, 2);
            bad |= df_utf8_chars_avx512(DF_UNITS(o + 16), kind, v, p1, _mm_alignr_epi8(p2, p1, 1),
                                        (__mmask16)(k >= 32 ? 0xFFFF : (1u << (k - 16)) - 1));
            if (k > 32) {
                p3 = _mm512_extracti32x4_epi32(at, 3);
                bad |= df_utf8_chars_avx512(
                    DF_UNITS(o + 32), kind, v, p2, _mm_alignr_epi8(p3, p2, 1),
                    (__mmask16)(k >= 48 ? 0xFFFF : (1u << (k - 32)) - 1));
                if (k > 48) {
                    end = _mm_set1_epi8((char)size); /* lane 15, never taken: k <= 63 */
                    bad |= df_utf8_chars_avx512(DF_UNITS(o + 48), kind, v, p3,
                                                _mm_alignr_epi8(end, p3, 1),
                                                (__mmask16)((1u << (k - 48)) - 1));
                }
            }
        }
        if (bad) return -1;
        o += k;
        /* on to the first lead not taken, or the block's end */
        i += rest ? (df_ssize)df_ctz64(rest) : (df_ssize)size;
    }
#undef DF_UNITS
    return 0;
}

/* df_ucs_encode(d, u, kind, n): the n code units of kind at u written at d as UTF-8,
   d having room for df_ucs_room(kind, n) bytes (each step stores 64); the length
   written, or -1 when one is a surrogate (U+D800-U+DFFF, which UTF-8 cannot hold).

   A step of 16 code points that are all ASCII stores their low bytes. Otherwise each
   lane's bits are cut into the four bytes of a four-byte sequence at once (vpmultishiftqb:
   bits 18-20, 12-17, 6-11 and 0-5), shifted right by the bytes its length does not
   use, the length's marks put in (0xC0, 0xE0 or 0xF0 on the first byte, 0x80 on the
   others), an ASCII lane kept as it is, and the lanes' bytes squeezed together
   (vpcompressb: each lane's first byte, a NUL too, and its others that are not 0). */
DF_TARGET_TRANSCODE static inline df_ssize df_ucs_encode_avx512(unsigned char *d, const void *u,
                                                                int kind, df_ssize n) {
    const unsigned char *u1 = (const unsigned char *)u;
    const uint16_t *u2 = (const uint16_t *)u;
    const uint32_t *u4 = (const uint32_t *)u;
    /* of each 64-bit element (two lanes), the bit offsets of the bytes to cut */
    const __m512i cuts = _mm512_set1_epi64(0x20262C3200060C12LL);
    const __m512i bits = _mm512_set1_epi32(0x3F3F3F07);
    const __m512i x80 = _mm512_set1_epi32(0x80), x800 = _mm512_set1_epi32(0x800);
    const __m512i xd800 = _mm512_set1_epi32(0xD800), one = _mm512_set1_epi32(1);
    const __m512i shifts = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 16);
    const __m512i marked = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                            (int)0x808080F0, 0x8080E0, 0x80C0);
    const uint64_t firsts = 0x1111111111111111ULL;
    df_ssize i = 0, o = 0;
    __m512i v, lanes, past, shift, marks;
    __mmask16 m, two;
    uint64_t keep;
    while (i < n) {
        if (kind == 1 && n - i >= 64) {
            v = _mm512_loadu_si512((const void *)(u1 + i));
            if (!_mm512_movepi8_mask(v)) { /* 64 ASCII code units: their bytes */
                _mm512_storeu_si512((void *)(d + o), v);
                i += 64;
                o += 64;
                continue;
            }
        }
        m = (__mmask16)(n - i >= 16 ? 0xFFFF : (1u << (n - i)) - 1);
        v = kind == 1   ? _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, (const void *)(u1 + i)))
            : kind == 2 ? _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, (const void *)(u2 + i)))
                        : _mm512_maskz_loadu_epi32(m, (const void *)(u4 + i));
        two = _mm512_cmpge_epu32_mask(v, x80);
        if (!two) { /* the lanes past m are 0: stored, not counted */
            _mm_storeu_si128((__m128i *)(d + o), _mm512_cvtepi32_epi8(v));
            o += __builtin_popcount(m);
            i += __builtin_popcount(m);
            continue;
        }
        /* a surrogate: (v ^ 0xD800) < 0x800 */
        if (_mm512_cmplt_epu32_mask(_mm512_xor_si512(v, xd800), x800)) return -1;
        /* past two bytes: 0 (two bytes or one), 1 (three) or 2 (four); by it, the right
           shift that drops the bytes a lane's length does not use, and its marks */
        past = _mm512_add_epi32(_mm512_min_epu32(_mm512_srli_epi32(v, 11), one),
                                _mm512_min_epu32(_mm512_srli_epi32(v, 16), one));
        shift = _mm512_permutexvar_epi32(past, shifts);
        marks = _mm512_permutexvar_epi32(past, marked);
        lanes = _mm512_srlv_epi32(_mm512_and_si512(_mm512_multishift_epi64_epi8(cuts, v), bits),
                                  shift);
        lanes = _mm512_mask_or_epi32(v, two, lanes, marks);
        /* each lane's first byte (a NUL is one), and its others that are not zero; only
           the lanes read */
        keep = (_mm512_test_epi8_mask(lanes, lanes) | firsts) &
               (m == 0xFFFF ? ~0ULL : (1ULL << (4 * __builtin_popcount(m))) - 1);
        _mm512_storeu_si512((void *)(d + o), _mm512_maskz_compress_epi8(keep, lanes));
        o += __builtin_popcountll(keep);
        i += __builtin_popcount(m);
    }
    return o;
}

#endif /* DF_AVX512 */

#endif /* DF_TRANSCODE_AVX512_H */
