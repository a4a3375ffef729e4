/* Byte scanners of the compiled hot path (_frames_c.pyx), in plain C.
 *
 * Each function reads a byte range and allocates nothing; none touches Python
 * objects, so the header also compiles on its own (tests/c/test_scan.c checks every
 * function against a byte-by-byte reference, once with SSE2 and once with
 * -DDF_SCALAR).
 *
 * Paths: SSE2 on every x86-64 compiler (GCC, Clang, MSVC), 16 bytes a step; elsewhere
 * (arm64, and x86-64 built with -DDF_SCALAR) memchr and 8-byte SWAR words. DF_SSE2 says
 * which one was compiled; the callers rely on it (see df_string_end's flags).
 */
#ifndef DF_SCAN_H
#define DF_SCAN_H

#include "_common.h"

/* Flags of df_string_end. */
#define DF_ESCAPED 1 /* the string holds a backslash */
#define DF_HIGH 2    /* the string may hold a byte >= 0x80 (SSE2 only) */

/* ------------------------------------------------------------------ whitespace */

/* Whether the byte c is JSON whitespace: space, tab, LF, CR (RFC 8259's four, the only
   ones serde_json skips; \f, \v and non-ASCII spaces are not). */
#define DF_IS_WS(c) ((c) == ' ' || (c) == '\n' || (c) == '\r' || (c) == '\t')

/* df_ws_end(p, n, i): i moved past the JSON whitespace at p[i:n]. */
DF_INLINE df_ssize df_ws_end(const unsigned char *p, df_ssize n, df_ssize i) {
    while (i < n && DF_IS_WS(p[i])) i++;
    return i;
}

/* df_method_start(p, n): where the content of the method's string starts when the body
   p[:n] starts with an object whose first key is "method" and its value a string (`{"method":"`,
   whitespace allowed before and between those tokens), else -1. */
DF_INLINE df_ssize df_method_start(const unsigned char *p, df_ssize n) {
    df_ssize i;
    if (n >= 11 && memcmp(p, "{\"method\":\"", 11) == 0) return 11; /* as rmcp writes it */
    i = df_ws_end(p, n, 0);
    if (i >= n || p[i] != '{') return -1;
    i = df_ws_end(p, n, i + 1);
    if (n - i < 8 || memcmp(p + i, "\"method\"", 8) != 0) return -1;
    i = df_ws_end(p, n, i + 8);
    if (i >= n || p[i] != ':') return -1;
    i = df_ws_end(p, n, i + 1);
    return i < n && p[i] == '"' ? i + 1 : -1;
}

/* ------------------------------------------------------------------ UTF-8 */

/* The length of the UTF-8 character at p[0] (p[:n] the bytes left; p[0] >= 0x80) as
   Rust's str accepts it (no overlong forms, no surrogates, nothing above U+10FFFF), or 0
   when it is not one. */
DF_INLINE int df_utf8_char(const unsigned char *p, df_ssize n) {
    unsigned char c = p[0], c1;
    if (c < 0xC2) return 0;
    if (c < 0xE0) return n >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c < 0xF0) {
        if (n < 3) return 0;
        c1 = p[1];
        if ((c1 & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) return 0;
        return 3;
    }
    if (c < 0xF5) {
        if (n < 4) return 0;
        c1 = p[1];
        if ((c1 & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
        if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) return 0;
        return 4;
    }
    return 0;
}

/* Whether p[:n] is UTF-8 as Rust's str accepts it (df_utf8_char); eight ASCII bytes at a
   time. */
DF_INLINE int df_valid_utf8(const unsigned char *p, df_ssize n) {
    df_ssize i = 0;
    int len;
    uint64_t word;
    while (i < n) {
        if (i + 8 <= n) {
            memcpy(&word, p + i, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        if (p[i] < 0x80) {
            i += 1;
            continue;
        }
        len = df_utf8_char(p + i, n - i);
        if (!len) return 0;
        i += len;
    }
    return 1;
}

/* ------------------------------------------------------------------ JSON strings */

/* df_string_end(p, n, j, &flags): the index of the quote that closes the JSON string
   whose content starts at p[j], or -1 when it is not closed. Adds DF_ESCAPED to flags
   when the string holds a backslash, DF_HIGH when it may hold a byte >= 0x80 (with
   SSE2 an escaped byte counts; without, bytes >= 0x80 are not looked at: the caller
   checks the UTF-8 of the whole body instead). Linear in the string's length whatever
   its escapes. */
#if DF_SSE2

#define DF_ODD 0xAAAAAAAAAAAAAAAAULL

/* Of a 16-byte block's backslashes bs (bit i: byte i), and *carry (1 when the block's
   first byte is escaped by the block before): the bytes a backslash escapes; *carry is
   set for the next block. simdjson's escape scanner: a run of backslashes escapes the
   byte after it when its length is odd, found for every run at once by one
   subtraction. */
DF_INLINE uint64_t df_escaped(uint64_t bs, unsigned *carry) {
    uint64_t first = *carry;
    uint64_t potential = bs & ~first;
    uint64_t code = (((potential << 1) | DF_ODD) - potential) ^ DF_ODD;
    uint64_t escape = code & bs;
    *carry = (unsigned)((escape >> 15) & 1u);
    return (code ^ (bs | first)) & 0xFFFFu;
}

/* The end of the string in a block: masks of its quotes q, backslashes b and bytes
   >= 0x80 hi (bit i: byte j + i). Returns the index of the closing quote and sets
   flags, or -1 when the block holds none (flags then updated for the whole block). */
DF_INLINE df_ssize df_block_end(df_ssize j, unsigned q, unsigned b, unsigned hi,
                                unsigned *carry, unsigned *high, int *flags) {
    unsigned before;
    if (b | *carry) q &= ~(unsigned)df_escaped(b, carry);
    if (!q) {
        *high |= hi;
        if (b) *flags |= DF_ESCAPED;
        return -1;
    }
    before = (q & (0u - q)) - 1u; /* the bytes before the first unescaped quote */
    *high |= hi & before;
    if (b & before) *flags |= DF_ESCAPED;
    if (*high) *flags |= DF_HIGH;
    return j + (df_ssize)df_lowest_bit(q);
}

/* Inlined at each call: its out-parameter then stays in a register (a pre-check calls
   it once a string). */
DF_ALWAYS_INLINE df_ssize df_string_end(const unsigned char *p, df_ssize n, df_ssize j,
                                        int *flags) {
    const __m128i quote = _mm_set1_epi8(0x22), slash = _mm_set1_epi8(0x5C);
    unsigned high = 0, carry = 0, q, b, hi, off;
    df_ssize end;
    __m128i v;
    while (j + 16 <= n) {
        v = _mm_loadu_si128((const __m128i *)(p + j));
        q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote));
        b = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, slash));
        hi = (unsigned)_mm_movemask_epi8(v);
        end = df_block_end(j, q, b, hi, &carry, &high, flags);
        if (end >= 0) return end;
        j += 16;
    }
    if (j >= n) return -1;
    if (n >= 16) { /* the rest: the body's last 16 bytes, those before j shifted out */
        off = (unsigned)(j - (n - 16));
        v = _mm_loadu_si128((const __m128i *)(p + n - 16));
        q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) >> off;
        b = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, slash)) >> off;
        hi = (unsigned)_mm_movemask_epi8(v) >> off;
        return df_block_end(j, q, b, hi, &carry, &high, flags);
    }
    for (; j < n; j++) { /* a body under 16 bytes */
        if (carry) {
            carry = 0;
        } else if (p[j] == 0x22) {
            if (high) *flags |= DF_HIGH;
            return j;
        } else if (p[j] == 0x5C) {
            *flags |= DF_ESCAPED;
            carry = 1;
            continue;
        }
        high |= p[j] & 0x80u;
    }
    return -1;
}

#else /* !DF_SSE2 */

/* memchr finds a quote (one with an odd run of backslashes before it is escaped), then
   memchr looks for a backslash before it; flags never gets DF_HIGH. */
DF_INLINE df_ssize df_string_end(const unsigned char *p, df_ssize n, df_ssize j, int *flags) {
    df_ssize start = j, k, d;
    const unsigned char *q;
    for (;;) {
        q = (const unsigned char *)memchr(p + j, 0x22, (size_t)(n - j));
        if (q == NULL) return -1;
        k = q - p;
        for (d = 0; k - 1 - d >= start && p[k - 1 - d] == 0x5C; d++) {
        }
        if (!(d & 1)) break;
        j = k + 1;
    }
    if (memchr(p + start, 0x5C, (size_t)(k - start)) != NULL) *flags |= DF_ESCAPED;
    return k;
}

#endif /* DF_SSE2 */

/* ------------------------------------------------------------------ exponents */

/* df_e_digit(p, n, i): the first index k >= i where p[k] is 'e' (0x65) and p[k + 1] an
   ASCII digit, or -1. With SSE2 16 bytes a step (the last step overlapping the one
   before), else 8 (SWAR). */
DF_INLINE df_ssize df_e_digit(const unsigned char *p, df_ssize n, df_ssize i) {
#if DF_SSE2
    const __m128i e = _mm_set1_epi8(0x65);
    const __m128i below = _mm_set1_epi8(0x2F), above = _mm_set1_epi8(0x3A);
    __m128i v, w, digit;
    unsigned m;
    while (i + 17 <= n) {
        v = _mm_loadu_si128((const __m128i *)(p + i));
        w = _mm_loadu_si128((const __m128i *)(p + i + 1));
        /* signed compares: a byte >= 0x80 is below '0' */
        digit = _mm_and_si128(_mm_cmpgt_epi8(w, below), _mm_cmplt_epi8(w, above));
        m = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(v, e), digit));
        if (m) return i + (df_ssize)df_lowest_bit(m);
        i += 16;
    }
    if (n >= 17 && i + 1 < n) { /* the rest in one step that overlaps the last */
        df_ssize base = n - 17;
        v = _mm_loadu_si128((const __m128i *)(p + base));
        w = _mm_loadu_si128((const __m128i *)(p + base + 1));
        digit = _mm_and_si128(_mm_cmpgt_epi8(w, below), _mm_cmplt_epi8(w, above));
        m = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(v, e), digit));
        m &= 0xFFFFu << (unsigned)(i - base); /* only k >= i */
        return m ? base + (df_ssize)df_lowest_bit(m) : -1;
    }
#else
    const uint64_t high = 0x8080808080808080ULL, low7 = 0x7F7F7F7F7F7F7F7FULL;
    uint64_t word, next, x, low, hits;
    df_ssize k;
    while (i + 9 <= n) {
        memcpy(&word, p + i, 8);
        memcpy(&next, p + i + 1, 8);
        x = word ^ 0x6565656565656565ULL; /* high bit: byte == 'e' */
        hits = ~(((x & low7) + low7) | x) & high;
        low = next & low7; /* high bit: byte is a digit */
        hits &= (low + 0x5050505050505050ULL) & ~(low + 0x4646464646464646ULL) & ~next;
        if (hits) {
            for (k = i; k < i + 8; k++)
                if (p[k] == 0x65 && p[k + 1] >= 0x30 && p[k + 1] <= 0x39) return k;
        }
        i += 8;
    }
#endif
    for (; i + 1 < n; i++)
        if (p[i] == 0x65 && p[i + 1] >= 0x30 && p[i + 1] <= 0x39) return i;
    return -1;
}

/* ------------------------------------------------------------------ searches */

/* Whether the four letters of `name` occur in p[:n] between quotes (`"blob"`, `"text"`):
   with SSE2 16 positions a step (the six bytes of each compared at once), the rest one
   at a time. */
DF_INLINE int df_has_key(const unsigned char *p, df_ssize n, const char *name) {
    df_ssize i = 0;
#if DF_SSE2
    const __m128i quote = _mm_set1_epi8('"'), c0 = _mm_set1_epi8(name[0]),
                  c1 = _mm_set1_epi8(name[1]), c2 = _mm_set1_epi8(name[2]),
                  c3 = _mm_set1_epi8(name[3]);
    __m128i m;
    for (; i + 21 <= n; i += 16) {
        m = _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), quote),
                          _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 5)), quote));
        m = _mm_and_si128(m, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 1)), c0));
        m = _mm_and_si128(m, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 2)), c1));
        m = _mm_and_si128(m, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 3)), c2));
        m = _mm_and_si128(m, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 4)), c3));
        if (_mm_movemask_epi8(m)) return 1;
    }
#endif
    for (; i + 5 < n; i++)
        if (p[i] == '"' && p[i + 5] == '"' && memcmp(p + i + 1, name, 4) == 0) return 1;
    return 0;
}

#endif /* DF_SCAN_H */
