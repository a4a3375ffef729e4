/* What the string loop of every path shares (see _strings.h): the escapes as serde_json
 * reads them in a str, the masks of a 64-byte block, and where a copy is.
 */
#ifndef DF_STRINGS_BASE_H
#define DF_STRINGS_BASE_H

#include "_common.h"

/* Flags of df_string_copy: what a string held. */
#define DF_STR_ESCAPED 1 /* an escape */
#define DF_STR_HIGH 4    /* a byte >= 0x80, raw or from a \u escape: UTF-8 to decode */

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

/* The code point cp (at most U+10FFFF, no surrogate) written at d as UTF-8: its
   length, 1-4. */
DF_INLINE df_ssize df_put_utf8(unsigned char *d, uint32_t cp) {
    if (cp < 0x80) {
        d[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (unsigned char)(0xC0 | (cp >> 6));
        d[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (unsigned char)(0xE0 | (cp >> 12));
        d[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (unsigned char)(0xF0 | (cp >> 18));
    d[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
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
    if (cp >= 0x80) *high = 0x80u;
    *o += df_put_utf8(w, (uint32_t)cp);
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

/* ------------------------------------------------------------------ the copy */

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

/* ------------------------------------------------------------------ writing */

/* What serde_json writes after a backslash for each byte of a str (ser.rs, ESCAPE and
   CharEscape): the seven short escapes, 'u' for the other control bytes (\u00XX, hex
   digits in lowercase), 0 for a byte written as it is (every other, 0x7F and the bytes
   of non-ASCII UTF-8 included). */
static const unsigned char DF_ESCAPE[256] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    ['"'] = '"', ['\\'] = '\\',
};

/* The room df_string_write asks for a block of 64 bytes with stops: 6 bytes for each,
   then the step's store of 64 after them. */
#define DF_WRITE_BLOCK 448

/* The escape of byte c (DF_ESCAPE[c] nonzero) written at d: its length, 2 or 6. */
DF_INLINE df_ssize df_write_escape(unsigned char *d, unsigned char c) {
    static const char hex[] = "0123456789abcdef";
    unsigned char e = DF_ESCAPE[c];
    d[0] = '\\';
    if (e != 'u') {
        d[1] = e;
        return 2;
    }
    d[1] = 'u';
    d[2] = '0';
    d[3] = '0';
    d[4] = (unsigned char)hex[c >> 4];
    d[5] = (unsigned char)hex[c & 15];
    return 6;
}

/* s[i:n] written at d + o as serde_json writes a str's content, a byte at a time (the
   tail of every path's df_string_write): the new o. */
DF_INLINE df_ssize df_write_bytes(unsigned char *d, df_ssize o, const unsigned char *s,
                                  df_ssize i, df_ssize n) {
    unsigned char c;
    for (; i < n; i++) {
        c = s[i];
        if (DF_ESCAPE[c]) {
            o += df_write_escape(d + o, c);
        } else {
            d[o++] = c;
        }
    }
    return o;
}

#endif /* DF_STRINGS_BASE_H */
