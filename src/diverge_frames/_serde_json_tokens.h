/* serde_json 1.0.154's reading of tokens, in C (see _serde_json.h): why a body is
 * rejected, whitespace, strings (escapes, UTF-8, surrogates), literals, and a value
 * skipped as ignore_value skips it (df_sj_ignore).
 */
#ifndef DF_SERDE_JSON_TOKENS_H
#define DF_SERDE_JSON_TOKENS_H

#include <stdlib.h>

#include "_common.h"
#include "_scan.h"
#include "_serde_json_number.h"

/* Why serde_json rejects a body (df_sj_result.reason); _serde_json.REASONS words them. */
#define DF_SJ_OK 0
#define DF_SJ_EXPECTED_VALUE 1
#define DF_SJ_TRAILING 2
#define DF_SJ_EXPECTED_COMMA 3     /* `,` or the end of an array or object */
#define DF_SJ_EXPECTED_COMMA_TOP 4 /* `,` or `}` in a directly read top-level struct */
#define DF_SJ_KEY 5
#define DF_SJ_COLON 6
#define DF_SJ_NUMBER 7
#define DF_SJ_STRING 8 /* a raw control character, a bad escape, or no end */
#define DF_SJ_UNICODE 9
#define DF_SJ_SURROGATE 10
#define DF_SJ_RANGE 11
#define DF_SJ_DEPTH 12

/* serde_json's recursion limit: 128 nested arrays/objects fail, 127 are read. */
#define DF_SJ_MAX_DEPTH 127
/* A skipped value nested deeper than this is written as null by the rewrite: msgspec,
   which skips it too, recurses on the C stack (Python's recursion limit). */
#define DF_SJ_SKIP_DEPTH 32
/* Keys longer than this match no member name. */
#define DF_SJ_NAME_MAX 64

DF_INLINE df_ssize df_sj_ws(const unsigned char *p, df_ssize n, df_ssize i) {
    if (i < n && p[i] > ' ') return i;
    return df_ws_end(p, n, i);
}

/* Whether p[j:end] holds a byte below 0x20 (which a JSON string cannot hold raw); p[:n]
   is the whole body, so that a short string is looked at in one 16-byte step that
   overlaps its neighbours (their bits masked off). */
DF_INLINE int df_sj_has_control(const unsigned char *p, df_ssize j, df_ssize end, df_ssize n) {
#if DF_SSE2
    const __m128i limit = _mm_set1_epi8(0x1F);
    __m128i v;
    unsigned m, len = (unsigned)(end - j);
    if (len < 16 && n >= 16) {
        if (j + 16 <= n) {
            v = _mm_loadu_si128((const __m128i *)(p + j));
            m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit));
            return (m & ((1u << len) - 1u)) != 0;
        }
        /* the body's last 16 bytes, which hold p[j:end] (j > n - 16); not the 16 that
           end at `end`, which start before p when end < 16 */
        v = _mm_loadu_si128((const __m128i *)(p + n - 16));
        m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit));
        return ((m >> (j - (n - 16))) & ((1u << len) - 1u)) != 0;
    }
    for (; j + 16 <= end; j += 16) {
        v = _mm_loadu_si128((const __m128i *)(p + j));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit))) return 1;
    }
#else
    (void)n;
#endif
    for (; j < end; j++)
        if (p[j] < 0x20) return 1;
    return 0;
}

DF_INLINE int df_sj_hex4(const unsigned char *p, df_ssize n, df_ssize i) {
    int v = 0, k, c;
    if (i + 4 > n) return -1;
    for (k = 0; k < 4; k++) {
        c = p[i + k];
        if (DF_IS_DIGIT(c)) c -= '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') c = (c | 0x20) - 'a' + 10;
        else return -1;
        v = v * 16 + c;
    }
    return v;
}

/* The escapes of the string content p[j:end] (which holds a backslash): checked as
   serde_json's parse_str (parsed = 1: a surrogate escape must be a high one followed at
   once by a low one) or ignore_str (0) checks them. Returns DF_SJ_OK, DF_SJ_STRING, or
   (parsed only) DF_SJ_SURROGATE; *surrogate is set when some \u escape is a surrogate. */
DF_INLINE int df_sj_escapes(const unsigned char *p, df_ssize j, df_ssize end, int parsed,
                            int *surrogate) {
    const unsigned char *q;
    int u, low, lone = 0;
    while (j < end) {
        q = (const unsigned char *)memchr(p + j, '\\', (size_t)(end - j));
        if (q == NULL) break;
        j = q - p + 1;
        if (j >= end) return DF_SJ_STRING;
        switch (p[j]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            j++;
            continue;
        case 'u':
            u = df_sj_hex4(p, end, j + 1);
            if (u < 0) return DF_SJ_STRING;
            j += 5;
            if (u < 0xD800 || u > 0xDFFF) continue;
            *surrogate = 1;
            if (!parsed) continue;
            if (u >= 0xDC00 || j + 1 >= end || p[j] != '\\' || p[j + 1] != 'u') {
                lone = 1;
                continue;
            }
            low = df_sj_hex4(p, end, j + 2);
            if (low < 0) return DF_SJ_STRING;
            if (low < 0xDC00 || low > 0xDFFF) {
                lone = 1; /* the next escape is read on its own */
                continue;
            }
            j += 6;
            continue;
        default:
            return DF_SJ_STRING;
        }
    }
    return lone ? DF_SJ_SURROGATE : DF_SJ_OK;
}

/* The JSON string whose content starts at p[j]: returns the index of its closing quote,
   or -1 with *reason set. parsed: checked as parse_str (its syntax: escapes and raw
   control characters, then UTF-8, then surrogates; msgspec, asked for its words of a
   body only up to _stack.MSGSPEC_MESSAGE_OPENINGS, may not meet a control character
   past them), else as ignore_str (syntax only: a skipped value the rewrite writes null
   must be one serde reads).
   *escaped: it holds a backslash; *surrogate: a surrogate escape. */
DF_ALWAYS_INLINE
df_ssize df_sj_string(const unsigned char *p, df_ssize n, df_ssize j, int parsed,
                      int *escaped, int *surrogate, int *reason) {
    int flags = 0, why = DF_SJ_OK;
    df_ssize end;
#if DF_SSE2
    if (j + 16 <= n) { /* a short string of ASCII without escapes: its first 16 bytes */
        __m128i v = _mm_loadu_si128((const __m128i *)(p + j));
        unsigned q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)));
        unsigned odd = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C))) |
                       (unsigned)_mm_movemask_epi8(v);
        odd |= (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
        if (q && !(odd & ((q & (0u - q)) - 1u))) {
            *escaped = 0;
            return j + (df_ssize)df_lowest_bit(q);
        }
    }
#endif
    end = df_string_end(p, n, j, &flags);
    *escaped = flags & DF_ESCAPED;
    if (end < 0 || df_sj_has_control(p, j, end, n)) {
        *reason = DF_SJ_STRING;
        return -1;
    }
    if (*escaped) {
        why = df_sj_escapes(p, j, end, parsed, surrogate);
        if (why == DF_SJ_STRING) {
            *reason = why;
            return -1;
        }
    }
    if (parsed && (!DF_SSE2 || (flags & DF_HIGH)) && !df_valid_utf8(p + j, end - j)) {
        *reason = DF_SJ_UNICODE;
        return -1;
    }
    if (why != DF_SJ_OK) {
        *reason = why;
        return -1;
    }
    return end;
}

/* The length of the run at p[j:n] that msgspec and serde_json read alike as characters
   of a string, wherever it is cut: whole UTF-8 characters (df_utf8_char), none a quote,
   a backslash, a control byte, `[` or `{` (the openings _stack.within_openings counts,
   strings included). A string that serde_json rejects for its UTF-8 is worded by msgspec
   from the body without such a run (_exact.rejection.utf8_rejection). */
DF_INLINE df_ssize df_sj_plain_run(const unsigned char *p, df_ssize n, df_ssize j) {
    df_ssize i = j;
    int len;
    unsigned char c;
#if DF_SSE2
    const __m128i limit = _mm_set1_epi8(0x1F);
    __m128i v, odd;
    unsigned m;
#endif
    while (i < n) {
#if DF_SSE2
        while (i + 16 <= n) { /* 16 ASCII bytes of none of them at once */
            v = _mm_loadu_si128((const __m128i *)(p + i));
            odd = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)),
                                            _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C))),
                               _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x5B)),
                                            _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7B))));
            odd = _mm_or_si128(odd, _mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit));
            m = (unsigned)_mm_movemask_epi8(odd) | (unsigned)_mm_movemask_epi8(v);
            if (m) {
                i += df_lowest_bit(m);
                break;
            }
            i += 16;
        }
        if (i >= n) break;
#endif
        c = p[i];
        if (c >= 0x80) {
            len = df_utf8_char(p + i, n - i);
            if (!len) break;
            i += len;
        } else if (c < 0x20 || c == '"' || c == '\\' || c == '[' || c == '{') {
            break;
        } else {
            i += 1;
        }
    }
    return i - j;
}

/* A key's content p[j:end] with its escapes undone into buf (at most DF_SJ_NAME_MAX
   bytes, surrogate pairs and lone surrogates as WTF-8): its length, or -1 when longer. */
DF_INLINE int df_sj_unescape(const unsigned char *p, df_ssize j, df_ssize end,
                             unsigned char *buf) {
    int len = 0, u, low;
    unsigned c;
    while (j < end) {
        if (len + 4 > DF_SJ_NAME_MAX) return -1;
        c = p[j++];
        if (c != '\\') {
            buf[len++] = (unsigned char)c;
            continue;
        }
        c = p[j++];
        switch (c) {
        case 'b': buf[len++] = '\b'; continue;
        case 'f': buf[len++] = '\f'; continue;
        case 'n': buf[len++] = '\n'; continue;
        case 'r': buf[len++] = '\r'; continue;
        case 't': buf[len++] = '\t'; continue;
        case 'u': break;
        default: buf[len++] = (unsigned char)c; continue; /* " \ / */
        }
        u = df_sj_hex4(p, end, j);
        if (u < 0) return -1;
        j += 4;
        if (u >= 0xD800 && u < 0xDC00 && j + 6 <= end && p[j] == '\\' && p[j + 1] == 'u' &&
            (low = df_sj_hex4(p, end, j + 2)) >= 0xDC00 && low <= 0xDFFF) {
            u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
            j += 6;
        }
        if (u < 0x80) {
            buf[len++] = (unsigned char)u;
        } else if (u < 0x800) {
            buf[len++] = (unsigned char)(0xC0 | (u >> 6));
            buf[len++] = (unsigned char)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            buf[len++] = (unsigned char)(0xE0 | (u >> 12));
            buf[len++] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
            buf[len++] = (unsigned char)(0x80 | (u & 0x3F));
        } else {
            buf[len++] = (unsigned char)(0xF0 | (u >> 18));
            buf[len++] = (unsigned char)(0x80 | ((u >> 12) & 0x3F));
            buf[len++] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
            buf[len++] = (unsigned char)(0x80 | (u & 0x3F));
        }
    }
    return len;
}

/* A literal (true, false, null) at p[i]: the index after it, or -1. */
DF_INLINE df_ssize df_sj_literal(const unsigned char *p, df_ssize n, df_ssize i) {
    if (n - i >= 4) {
        if (p[i] == 't' && p[i + 1] == 'r' && p[i + 2] == 'u' && p[i + 3] == 'e') return i + 4;
        if (p[i] == 'n' && p[i + 1] == 'u' && p[i + 2] == 'l' && p[i + 3] == 'l') return i + 4;
        if (n - i >= 5 && p[i] == 'f' && p[i + 1] == 'a' && p[i + 2] == 'l' && p[i + 3] == 's' &&
            p[i + 4] == 'e')
            return i + 5;
    }
    return -1;
}

/* The syntax of a number token at p[i] as ignore_integer checks it: the index after it,
   or -1. */
DF_INLINE df_ssize df_sj_skip_number(const unsigned char *p, df_ssize n, df_ssize i) {
    if (p[i] == '-') i++;
    if (i >= n || !DF_IS_DIGIT(p[i])) return -1;
    if (p[i] == '0') {
        i++;
        if (i < n && DF_IS_DIGIT(p[i])) return -1;
    } else {
        while (i < n && DF_IS_DIGIT(p[i])) i++;
    }
    if (i < n && p[i] == '.') {
        i++;
        if (i >= n || !DF_IS_DIGIT(p[i])) return -1;
        while (i < n && DF_IS_DIGIT(p[i])) i++;
    }
    if (i < n && (p[i] | 0x20) == 'e') {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) i++;
        if (i >= n || !DF_IS_DIGIT(p[i])) return -1;
        while (i < n && DF_IS_DIGIT(p[i])) i++;
    }
    return i;
}

/* df_sj_ignore(p, n, i, &deepest, &surrogate, &reason, &at): the value at p[i] skipped as
   serde_json's ignore_value skips it (syntax only: no UTF-8, surrogate or depth check);
   returns the index after it, or -1 with *reason and *at set. *deepest: its nesting;
   *surrogate: it holds a surrogate escape. The kinds of its open brackets are kept one
   bit each, on the heap past 4096 levels. */
DF_INLINE df_ssize df_sj_ignore(const unsigned char *p, df_ssize n, df_ssize i,
                                df_ssize *deepest, int *surrogate, int *reason,
                                df_ssize *at) {
    uint64_t local[64];
    uint64_t *bits = local, *grown;
    df_ssize depth = 0, words = 64, k;
    int escaped, why = DF_SJ_OK, object;
    unsigned char c;
#define DF_SJ_FAIL(code, where) \
    do {                        \
        why = (code);           \
        *at = (where);          \
        goto fail;              \
    } while (0)
    *deepest = 0;
    for (;;) {
        i = df_sj_ws(p, n, i);
        if (i >= n) DF_SJ_FAIL(DF_SJ_EXPECTED_VALUE, i);
        c = p[i];
        if (c == '{' || c == '[') {
            if (depth == words * 64) {
                grown = (uint64_t *)malloc((size_t)words * 2 * sizeof(uint64_t));
                if (grown == NULL) DF_SJ_FAIL(DF_SJ_DEPTH, i); /* out of memory: rejected */
                memcpy(grown, bits, (size_t)words * sizeof(uint64_t));
                if (bits != local) free(bits);
                bits = grown;
                words *= 2;
            }
            if (c == '{') bits[depth >> 6] |= 1ULL << (depth & 63);
            else bits[depth >> 6] &= ~(1ULL << (depth & 63));
            depth++;
            if (depth > *deepest) *deepest = depth;
            i = df_sj_ws(p, n, i + 1);
            if (i < n && p[i] == (c == '{' ? '}' : ']')) {
                depth--;
                i++;
                goto after;
            }
            if (c == '[') continue;
            goto key;
        }
        if (c == '"') {
            k = df_sj_string(p, n, i + 1, 0, &escaped, surrogate, &why);
            if (k < 0) DF_SJ_FAIL(why, i);
            i = k + 1;
        } else if (c == '-' || DF_IS_DIGIT(c)) {
            k = df_sj_skip_number(p, n, i);
            if (k < 0) DF_SJ_FAIL(DF_SJ_NUMBER, i);
            i = k;
        } else {
            k = df_sj_literal(p, n, i);
            if (k < 0) DF_SJ_FAIL(DF_SJ_EXPECTED_VALUE, i);
            i = k;
        }
    after:
        for (;;) {
            if (depth == 0) goto done;
            i = df_sj_ws(p, n, i);
            object = (int)((bits[(depth - 1) >> 6] >> ((depth - 1) & 63)) & 1);
            if (i < n && p[i] == ',') {
                i = df_sj_ws(p, n, i + 1);
                if (object) goto key;
                break;
            }
            if (i < n && p[i] == (object ? '}' : ']')) {
                depth--;
                i++;
                continue;
            }
            DF_SJ_FAIL(DF_SJ_EXPECTED_COMMA, i);
        }
        continue;
    key:
        if (i >= n || p[i] != '"') DF_SJ_FAIL(DF_SJ_KEY, i);
        k = df_sj_string(p, n, i + 1, 0, &escaped, surrogate, &why);
        if (k < 0) DF_SJ_FAIL(why, i);
        i = df_sj_ws(p, n, k + 1);
        if (i >= n || p[i] != ':') DF_SJ_FAIL(DF_SJ_COLON, i);
        i++;
    }
done:
    if (bits != local) free(bits);
    return i;
fail:
    if (bits != local) free(bits);
    *reason = why;
    return -1;
#undef DF_SJ_FAIL
}

#endif /* DF_SERDE_JSON_TOKENS_H */
