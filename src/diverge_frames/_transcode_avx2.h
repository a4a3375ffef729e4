/* UTF-8 to and from a str's code units at vector speed, the AVX2 path (see _strings.h
 * for the dispatch): run when the CPU has AVX2 and POPCNT and not the AVX-512 path.
 *
 * Plain C, no Python objects: a str's code units are 1, 2 or 4 bytes wide (CPython's
 * PEP 393 kinds, UCS-1, UCS-2, UCS-4), what the extension allocates and these fill.
 *
 *   df_utf8_shape_avx2   how many characters UTF-8 bytes hold and the largest kind
 *                        their lead bytes call for;
 *   df_utf8_decode_avx2  those bytes into code units of a kind, validated as Rust's str
 *                        and CPython's strict decoder validate UTF-8;
 *   df_ucs_encode_avx2   code units written as UTF-8 (or a lone surrogate found).
 *
 * Decoding validates the bytes first, 32 a step (df_utf8_valid_avx2: Keiser and
 * Lemire's three table lookups a pair of bytes), then takes a 32-byte block at a time
 * in the steps of _transcode_avx512.h's decoder, in what AVX2 has: the lead bytes
 * (every byte that is not 10xxxxxx) found as a mask; for each eight bytes of it, the
 * positions of its leads from a table (df_bit_at), the four bytes from each lead
 * gathered into a 32-bit lane (vpshufb on each half of the block, blended by the
 * index's bit 4), and each lane's code point put together by two multiply-adds, its
 * bits and the shift that drops the bytes past its length looked up by the lead's high
 * nibble (vpermd). Blocks of ASCII are widened at once. Encoding takes eight code
 * points a step: each lane's one to four bytes built by its range, then each half's
 * lanes squeezed together by vpshufb, the indexes looked up by their lengths
 * (df_utf8_squeeze).
 *
 * Measured on text that changes script every few words (docs/performance.md), what
 * costs here is a branch mispredicted, more than the instructions: the steps take the
 * same path whatever the characters (a step of eight bytes with fewer leads fills fewer
 * lanes; a step of eight code points that are all ASCII goes the same way as any
 * other), and checking each character as _transcode_avx512.h does would cost AVX2 four
 * lookups a step of eight lanes, more than the separate validation.
 */
#ifndef DF_TRANSCODE_AVX2_H
#define DF_TRANSCODE_AVX2_H

#include "_common.h"
#include "_strings_avx2.h"
#include "_strings_base.h"

#if DF_AVX2

#define DF_TARGET_TRANSCODE_AVX2 __attribute__((target("avx2,popcnt")))

/* Tables filled once by df_transcode_init_avx2 (and df_bit_at, of _strings_avx2.h, by
   df_strings_init_avx2: the positions of the set bits of a byte, which read as a mask of
   eight bytes gives the positions of their lead bytes):
   df_utf8_squeeze  of four UTF-8 lengths less one (two bits each, the first lowest),
                    the vpshufb indexes that put the first that many bytes of each of
                    four 32-bit lanes together (0x80, a zero, past them);
   df_utf8_squeezed their sum: the bytes those indexes keep;
   df_pairs         of a four-bit mask, its bits spread two apart (bit i to bit 2i). */
static unsigned char df_utf8_squeeze[256][16];
static unsigned char df_utf8_squeezed[256];
static unsigned char df_pairs[16];

DF_INLINE void df_transcode_init_avx2(void) {
    unsigned m, b, j, k, length;
    for (m = 0; m < 256; m++) {
        k = 0;
        for (b = 0; b < 4; b++) { /* lane b's first length bytes */
            length = ((m >> (2 * b)) & 3) + 1;
            for (j = 0; j < length; j++) df_utf8_squeeze[m][k++] = (unsigned char)(4 * b + j);
        }
        df_utf8_squeezed[m] = (unsigned char)k;
        while (k < 16) df_utf8_squeeze[m][k++] = 0x80;
    }
    for (m = 0; m < 16; m++)
        df_pairs[m] = (unsigned char)((m & 1) | (m & 2) << 1 | (m & 4) << 2 | (m & 8) << 3);
}

/* A 32-byte block of s[0:rem] (rem > 0), its bytes past rem zero and never read. */
DF_TARGET_TRANSCODE_AVX2 static inline __m256i df_block_avx2(const unsigned char *s,
                                                             df_ssize rem) {
    unsigned char tail[32];
    if (rem >= 32) return _mm256_loadu_si256((const __m256i *)s);
    memset(tail, 0, sizeof tail);
    memcpy(tail, s, (size_t)rem);
    return _mm256_loadu_si256((const __m256i *)tail);
}

/* The mask of the bytes of v that are not continuation bytes (10xxxxxx: -128..-65 as
   signed bytes). */
DF_TARGET_TRANSCODE_AVX2 static inline uint32_t df_leads_avx2(__m256i v) {
    return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8((char)0xC0), v));
}

/* df_utf8_shape(s, n, &chars), as df_utf8_shape_avx512. */
DF_TARGET_TRANSCODE_AVX2 static inline uint32_t df_utf8_shape_avx2(const unsigned char *s,
                                                                  df_ssize n, df_ssize *chars) {
    __m256i v, most = _mm256_setzero_si256();
    __m128i x;
    df_ssize i, count = 0;
    uint32_t valid;
    uint8_t top;
    for (i = 0; i < n; i += 32) {
        v = df_block_avx2(s + i, n - i);
        valid = n - i >= 32 ? 0xFFFFFFFFu : (1u << (n - i)) - 1;
        count += __builtin_popcount(valid & df_leads_avx2(v));
        most = _mm256_max_epu8(most, v);
    }
    *chars = count;
    x = _mm_max_epu8(_mm256_castsi256_si128(most), _mm256_extracti128_si256(most, 1));
    x = _mm_max_epu8(x, _mm_srli_si128(x, 8));
    x = _mm_max_epu8(x, _mm_srli_si128(x, 4));
    x = _mm_max_epu8(x, _mm_srli_si128(x, 2));
    x = _mm_max_epu8(x, _mm_srli_si128(x, 1));
    top = (uint8_t)_mm_cvtsi128_si32(x);
    return top < 0x80 ? 127u : top < 0xC4 ? 255u : top < 0xF0 ? 0xFFFFu : 0x10FFFFu;
}

/* Of a lead's high nibble, by its index max(nibble, 8) & 7 (0: 0-8, ASCII, 8 never a
   lead; 1-3: 9-B, continuation bytes, never leads; 4, 5: C, D; 6: E; 7: F): the bits
   of its own it keeps (with six of each byte after it) and the right shift that drops
   the bytes past its length from the four-byte assembly. */
#define DF_NIBBLES_AVX2(ascii, cont, two, three, four)                                     \
    _mm256_set_epi32(four, three, two, two, cont, cont, cont, ascii)

/* Eight characters of well-formed UTF-8 in the block (its low and high halves, lo and
   hi, each in both halves of a vector), lead8 the positions of their lead bytes: their
   code points (those of the lanes past the block's characters mean nothing). */
DF_TARGET_TRANSCODE_AVX2 static inline __m256i df_utf8_chars_avx2(__m256i lo, __m256i hi,
                                                                  __m128i lead8) {
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12,
                                            0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12);
    const __m256i keeps = DF_NIBBLES_AVX2(0x3F3F3F7F, 0, 0x3F3F3F1F, 0x3F3F3F0F, 0x3F3F3F07);
    const __m256i shifts = DF_NIBBLES_AVX2(18, 0, 12, 6, 0);
    __m256i index, x, nibble;
    /* each lead's position in the four bytes of its lane, plus 0-3: the bytes to
       gather, from the block's low half or (bit 4 set) its high one */
    index = _mm256_add_epi8(_mm256_shuffle_epi8(_mm256_cvtepu8_epi32(lead8), spread),
                            _mm256_set1_epi32(0x03020100));
    x = _mm256_blendv_epi8(_mm256_shuffle_epi8(lo, index), _mm256_shuffle_epi8(hi, index),
                           _mm256_slli_epi16(index, 3));
    nibble = _mm256_max_epu32(_mm256_and_si256(_mm256_srli_epi32(x, 4), _mm256_set1_epi32(15)),
                              _mm256_set1_epi32(8));
    /* the four bytes' bits (the lead's own, six of each other), put together as
       b0 << 18 | b1 << 12 | b2 << 6 | b3 by two multiply-adds, then the bytes past the
       length shifted out */
    x = _mm256_madd_epi16(
        _mm256_maddubs_epi16(_mm256_and_si256(x, _mm256_permutevar8x32_epi32(keeps, nibble)),
                             _mm256_set1_epi16(0x0140)),
        _mm256_set1_epi32(0x00011000));
    return _mm256_srlv_epi32(x, _mm256_permutevar8x32_epi32(shifts, nibble));
}

/* The first k (1 or more; eight when more) code points of cp stored as units of kind
   at d + o units, d holding chars units: all eight lanes where they fit (the lanes past
   k are written over by the characters that follow), else only k. */
DF_TARGET_TRANSCODE_AVX2 static inline void df_store_units_avx2(void *d, int kind, df_ssize o,
                                                                df_ssize chars, __m256i cp,
                                                                unsigned k) {
    __m128i w;
    unsigned char units[16];
    if (k > 8) k = 8;
    if (kind == 4) {
        if (o + 8 <= chars) {
            _mm256_storeu_si256((__m256i *)((uint32_t *)d + o), cp);
        } else {
            _mm256_maskstore_epi32(
                (int *)((uint32_t *)d + o),
                _mm256_cmpgt_epi32(_mm256_set1_epi32((int)k),
                                   _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
                cp);
        }
        return;
    }
    /* to 16 bits (saturated: a code point that does not fit the kind is no error here),
       lanes 0-7 in order */
    w = _mm256_castsi256_si128(
        _mm256_permute4x64_epi64(_mm256_packus_epi32(cp, cp), _MM_SHUFFLE(3, 1, 2, 0)));
    if (kind == 1) w = _mm_packus_epi16(w, w);
    if (o + 8 <= chars) {
        if (kind == 2)
            _mm_storeu_si128((__m128i *)((uint16_t *)d + o), w);
        else
            _mm_storel_epi64((__m128i *)((unsigned char *)d + o), w);
        return;
    }
    _mm_storeu_si128((__m128i *)units, w);
    memcpy((unsigned char *)d + o * kind, units, (size_t)k * (size_t)kind);
}

/* The lookup of Keiser and Lemire's UTF-8 validation ("Validating UTF-8 In Less Than
   One Instruction Per Byte", 2021), a table of 16 bytes in both halves of a vector. */
#define DF_TABLE_AVX2(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                      \
    _mm256_setr_epi8(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, a, b, c, d, e, f, g, h, \
                     i, j, k, l, m, n, o, p)

/* Whether s[0:n] is well-formed UTF-8 (as Rust's str and CPython's strict decoder
   define it), 32 bytes a step: each pair of adjacent bytes classed by three table
   lookups (the first byte's high and low nibbles, the second's high nibble) whose AND
   is nonzero exactly where the pair cannot occur (a lead with no continuation after
   it, a continuation after ASCII, overlong, surrogate and past-U+10FFFF prefixes, two
   continuations where no lead of three or four bytes two or three back allows them).
   The block past the end reads as zero, so that a character cut short at the end is
   one followed by ASCII. */
DF_TARGET_TRANSCODE_AVX2 static inline int df_utf8_valid_avx2(const unsigned char *s,
                                                             df_ssize n) {
    /* what a pair of bytes may break, a bit each */
    enum {
        SHORT = 1,       /* a lead, then ASCII or another lead */
        LONG = 2,        /* ASCII, then a continuation */
        OVERLONG_3 = 4,  /* E0 80-9F */
        LARGE = 8,       /* F4 90-BF, F5-FF 90-BF */
        SURROGATE = 16,  /* ED A0-BF */
        OVERLONG_2 = 32, /* C0, C1 */
        LARGE_1000 = 64, /* F5-FF 80-8F; and, the same bit, F0 80-8F (overlong 4) */
        TWO_CONTS = 128, /* a continuation after a continuation */
        CARRY = SHORT | LONG | TWO_CONTS
    };
    const __m256i first_high = DF_TABLE_AVX2(
        LONG, LONG, LONG, LONG, LONG, LONG, LONG, LONG, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        TWO_CONTS, SHORT | OVERLONG_2, SHORT, SHORT | OVERLONG_3 | SURROGATE,
        SHORT | LARGE | LARGE_1000);
    const __m256i first_low = DF_TABLE_AVX2(
        CARRY | OVERLONG_3 | OVERLONG_2 | LARGE_1000, CARRY | OVERLONG_2, CARRY, CARRY,
        CARRY | LARGE, CARRY | LARGE | LARGE_1000, CARRY | LARGE | LARGE_1000,
        CARRY | LARGE | LARGE_1000, CARRY | LARGE | LARGE_1000, CARRY | LARGE | LARGE_1000,
        CARRY | LARGE | LARGE_1000, CARRY | LARGE | LARGE_1000, CARRY | LARGE | LARGE_1000,
        CARRY | LARGE | LARGE_1000 | SURROGATE, CARRY | LARGE | LARGE_1000,
        CARRY | LARGE | LARGE_1000);
    const __m256i second_high = DF_TABLE_AVX2(
        SHORT, SHORT, SHORT, SHORT, SHORT, SHORT, SHORT, SHORT,
        LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | LARGE_1000,
        LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | LARGE,
        LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | LARGE,
        LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | LARGE, SHORT, SHORT, SHORT, SHORT);
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    __m256i v, before = _mm256_setzero_si256(), joined, prev1, prev2, prev3, pairs, must,
               error = _mm256_setzero_si256();
    df_ssize i;
    for (i = 0; i <= n; i += 32) {
        v = i < n ? df_block_avx2(s + i, n - i) : _mm256_setzero_si256();
        /* the bytes one, two and three before each */
        joined = _mm256_permute2x128_si256(before, v, 0x21);
        prev1 = _mm256_alignr_epi8(v, joined, 15);
        prev2 = _mm256_alignr_epi8(v, joined, 14);
        prev3 = _mm256_alignr_epi8(v, joined, 13);
        pairs = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_shuffle_epi8(first_high,
                                    _mm256_and_si256(_mm256_srli_epi16(prev1, 4), low4)),
                _mm256_shuffle_epi8(first_low, _mm256_and_si256(prev1, low4))),
            _mm256_shuffle_epi8(second_high, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4)));
        /* 0x80 where a lead of three or four bytes two or three back calls for a
           continuation: there, and only there, two continuations in a row are right */
        must = _mm256_and_si256(
            _mm256_or_si256(_mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80))),
                            _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)))),
            _mm256_set1_epi8((char)0x80));
        error = _mm256_or_si256(error, _mm256_xor_si256(must, pairs));
        before = v;
    }
    return _mm256_testz_si256(error, error);
}

/* df_utf8_decode(d, kind, chars, s, n), as df_utf8_decode_avx512: the UTF-8 bytes
   s[0:n] written at d (room for chars units, df_utf8_shape's count) as code units of
   kind; 0, or -1 when s[0:n] is not well-formed UTF-8 (df_utf8_valid_avx2, first:
   then nothing is written).

   A block's characters are those whose lead lies in its first 29 bytes (so that all
   four of their bytes are in it; all of them in the last, short block), taken a step
   for each eight bytes, the next block starting at the first lead not taken. */
DF_TARGET_TRANSCODE_AVX2 static inline int df_utf8_decode_avx2(void *d, int kind, df_ssize chars,
                                                              const unsigned char *s,
                                                              df_ssize n) {
    __m256i v, lo, hi;
    __m128i w;
    uint32_t leads, window, rest;
    df_ssize i = 0, o = 0, rem;
    unsigned j, k, m, size;
    if (!df_utf8_valid_avx2(s, n)) return -1;
    while (i < n) {
        rem = n - i;
        v = df_block_avx2(s + i, rem);
        size = (unsigned)(rem >= 32 ? 32 : rem);
        if (size == 32 && !_mm256_movemask_epi8(v)) {
            /* 32 ASCII bytes: each its own code unit */
            if (kind == 1) {
                _mm256_storeu_si256((__m256i *)((unsigned char *)d + o), v);
            } else if (kind == 2) {
                w = _mm256_castsi256_si128(v);
                _mm256_storeu_si256((__m256i *)((uint16_t *)d + o), _mm256_cvtepu8_epi16(w));
                _mm256_storeu_si256((__m256i *)((uint16_t *)d + o + 16),
                                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1)));
            } else {
                w = _mm256_castsi256_si128(v);
                _mm256_storeu_si256((__m256i *)((uint32_t *)d + o), _mm256_cvtepu8_epi32(w));
                _mm256_storeu_si256((__m256i *)((uint32_t *)d + o + 8),
                                    _mm256_cvtepu8_epi32(_mm_srli_si128(w, 8)));
                w = _mm256_extracti128_si256(v, 1);
                _mm256_storeu_si256((__m256i *)((uint32_t *)d + o + 16),
                                    _mm256_cvtepu8_epi32(w));
                _mm256_storeu_si256((__m256i *)((uint32_t *)d + o + 24),
                                    _mm256_cvtepu8_epi32(_mm_srli_si128(w, 8)));
            }
            i += 32;
            o += 32;
            continue;
        }
        leads = df_leads_avx2(v) & (size == 32 ? 0xFFFFFFFFu : (1u << size) - 1);
        window = size == 32 ? leads & ((1u << 29) - 1) : leads;
        rest = leads & ~window;
        lo = _mm256_permute2x128_si256(v, v, 0x00);
        hi = _mm256_permute2x128_si256(v, v, 0x11);
        /* a step for each eight bytes: the characters whose leads lie in them, their
           positions from df_bit_at */
        for (j = 0; j < 32; j += 8) {
            m = (window >> j) & 0xFF;
            k = (unsigned)__builtin_popcount(m);
            df_store_units_avx2(d, kind, o, chars,
                                df_utf8_chars_avx2(lo, hi, _mm_set_epi64x(0, (long long)(
                                    df_bit_at[m] + 0x0101010101010101ULL * j))),
                                k);
            o += k;
        }
        /* on to the first lead not taken, or the block's end */
        i += rest ? (df_ssize)df_lowest_bit(rest) : (df_ssize)size;
    }
    return 0;
}

/* df_ucs_encode(d, u, kind, n), as df_ucs_encode_avx512: the n code units of kind at
   u written at d as UTF-8, d having room for df_ucs_room(kind, n) bytes (each step
   stores 16 or 32 past what it writes); the length written, or -1 when one is a
   surrogate (U+D800-U+DFFF, which UTF-8 cannot hold).

   Eight code points a step, ASCII or not (a branch on whether they are all ASCII is
   mispredicted too often on text that changes script every few words; 32 ASCII bytes
   at once in a UCS-1 str): each lane's bits
   cut into the four bytes of a four-byte sequence by shifts and masks, shifted right by
   the bytes its length does not use, the length's marks put in (both looked up by how
   far past two bytes the lane is), an ASCII lane kept as it is; then each half's four
   lanes squeezed together by vpshufb, the indexes looked up by their four lengths
   (df_utf8_squeeze). The last seven or fewer one at a time. */
DF_TARGET_TRANSCODE_AVX2 static inline df_ssize df_ucs_encode_avx2(unsigned char *d, const void *u,
                                                                  int kind, df_ssize n) {
    const unsigned char *u1 = (const unsigned char *)u;
    const uint16_t *u2 = (const uint16_t *)u;
    const uint32_t *u4 = (const uint32_t *)u;
    /* by how far past two bytes a lane is (0: one or two, 1: three, 2: four) */
    const __m256i shifts = _mm256_setr_epi32(16, 8, 0, 0, 0, 0, 0, 0);
    const __m256i marks = _mm256_setr_epi32(0x80C0, 0x8080E0, (int)0x808080F0, 0, 0, 0, 0, 0);
    const __m256i x7f = _mm256_set1_epi32(0x7F), x7ff = _mm256_set1_epi32(0x7FF);
    const __m256i xffff = _mm256_set1_epi32(0xFFFF), xd800 = _mm256_set1_epi32(0xD800);
    const __m256i bits = _mm256_set1_epi32(0x3F);
    __m256i v, w, two, three, four, cut, lanes, bad = _mm256_setzero_si256();
    df_ssize i = 0, o = 0;
    unsigned m2, m3, m4, key;
    uint32_t c;
    while (n - i >= 8) {
        if (kind == 1 && n - i >= 32) {
            w = _mm256_loadu_si256((const __m256i *)(u1 + i));
            if (!_mm256_movemask_epi8(w)) { /* 32 ASCII code units: their bytes */
                _mm256_storeu_si256((__m256i *)(d + o), w);
                i += 32;
                o += 32;
                continue;
            }
        }
        v = kind == 1   ? _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(u1 + i)))
            : kind == 2 ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(u2 + i)))
                        : _mm256_loadu_si256((const __m256i *)(u4 + i));
        two = _mm256_cmpgt_epi32(v, x7f);
        m2 = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(two));
        three = _mm256_cmpgt_epi32(v, x7ff);
        four = _mm256_cmpgt_epi32(v, xffff);
        m3 = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(three));
        m4 = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(four));
        /* a surrogate: (v ^ 0xD800) < 0x800 */
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(_mm256_set1_epi32(0x800),
                                                      _mm256_xor_si256(v, xd800)));
        /* bits 18-20, 12-17, 6-11 and 0-5 into bytes 0-3 */
        cut = _mm256_or_si256(
            _mm256_or_si256(_mm256_srli_epi32(v, 18),
                            _mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(v, 12), bits), 8)),
            _mm256_or_si256(
                _mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(v, 6), bits), 16),
                _mm256_slli_epi32(_mm256_and_si256(v, bits), 24)));
        w = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_add_epi32(three, four));
        lanes = _mm256_or_si256(_mm256_srlv_epi32(cut, _mm256_permutevar8x32_epi32(shifts, w)),
                                _mm256_permutevar8x32_epi32(marks, w));
        lanes = _mm256_blendv_epi8(v, lanes, two);
        key = df_pairs[m2 & 15] + df_pairs[m3 & 15] + df_pairs[m4 & 15];
        _mm_storeu_si128((__m128i *)(d + o),
                         _mm_shuffle_epi8(_mm256_castsi256_si128(lanes),
                                          _mm_loadu_si128((const __m128i *)df_utf8_squeeze[key])));
        o += df_utf8_squeezed[key];
        key = df_pairs[m2 >> 4] + df_pairs[m3 >> 4] + df_pairs[m4 >> 4];
        _mm_storeu_si128((__m128i *)(d + o),
                         _mm_shuffle_epi8(_mm256_extracti128_si256(lanes, 1),
                                          _mm_loadu_si128((const __m128i *)df_utf8_squeeze[key])));
        o += df_utf8_squeezed[key];
        i += 8;
    }
    if (!_mm256_testz_si256(bad, bad)) return -1;
    for (; i < n; i++) {
        c = kind == 1 ? u1[i] : kind == 2 ? u2[i] : u4[i];
        if (c >= 0xD800 && c <= 0xDFFF) return -1;
        o += df_put_utf8(d + o, c);
    }
    return o;
}

#endif /* DF_AVX2 */

#endif /* DF_TRANSCODE_AVX2_H */
