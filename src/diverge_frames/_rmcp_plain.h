/* The plainest bodies rmcp writes, recognized in C: an ErrorData without data, and a
 * ReadResourceResult of text or blob items and nothing else.
 *
 * serde_json writes rmcp's ErrorData { code: i32, message, data: None } as
 * {"code":<i32>,"message":"<str>"} (_write_error.h writes it), and a ReadResourceResult
 * with no member but its contents as {"contents":[<item>,...]}, each item
 * {"uri":"<str>","mimeType":"<str>","text":"<str>"} or with "blob" for "text", without
 * "mimeType" when it has none: compact, in rmcp's member order. Most frames are these.
 *
 * df_rmcp_plain_error and df_rmcp_plain_result say whether a body p[0:n] is exactly one
 * of them, with a code in plain JSON integer syntax (no leading zero, no "-0", which
 * reads as 0 but is left to the general path) within i32, and every string plain
 * (df_plain_string): such a body holds those members and nothing else, as serde_json and
 * msgspec read it (a string's non-ASCII bytes are UTF-8 for the caller to decode, which
 * CPython's strict decoder checks as Rust's str does), so the caller builds the value at
 * once. Anything else returns 0, for the general path to read as before: whitespace,
 * other members or another order, a \u escape, a control byte, non-ASCII with an
 * escape, more than DF_PLAIN_ITEMS items, a body longer than DF_PLAIN_LONGEST.
 *
 * Plain C, no Python objects.
 */
#ifndef DF_RMCP_PLAIN_H
#define DF_RMCP_PLAIN_H

#include <stdint.h>
#include <string.h>

#include "_common.h"
#include "_strings_base.h"

/* The longest body read here: a small frame's (the general path reads a longer one at
   vector speed). */
#define DF_PLAIN_LONGEST 1024
/* The most items of a plain result. */
#define DF_PLAIN_ITEMS 8

/* Flags of a plain string. */
#define DF_PLAIN_ESCAPED 1 /* a simple escape */
#define DF_PLAIN_HIGH 2    /* a byte of 0x80 or more (then no escape) */

/* A plain string's content: p[at:end] (end: its closing quote), size bytes once its
   escapes are undone, and its flags. */
typedef struct {
    df_ssize at, end, size;
    int flags;
} df_plain_span;

/* The string whose content starts at p[i] (after its opening quote) read as plain:
   bytes from 0x20 on but '"' and '\\', the simple escapes (a backslash and one of
   "\\/bfnrt), bytes of 0x80 or more when there is no escape; its span in *s and the
   index after its closing quote, which comes before limit; or -1. */
DF_INLINE df_ssize df_plain_string(const unsigned char *p, df_ssize i, df_ssize limit,
                                   df_plain_span *s) {
    df_ssize escapes = 0;
    int flags = 0;
    s->at = i;
    for (; i < limit; i++) {
        const unsigned char c = p[i];
        if (c == '"') {
            if (flags == (DF_PLAIN_ESCAPED | DF_PLAIN_HIGH)) return -1;
            s->end = i;
            s->size = i - s->at - escapes;
            s->flags = flags;
            return i + 1;
        }
        if (c < 0x20) return -1;
        if (c >= 0x80) flags |= DF_PLAIN_HIGH;
        if (c == '\\') {
            if (i + 1 >= limit || !DF_UNESCAPE[p[i + 1]]) return -1;
            flags |= DF_PLAIN_ESCAPED;
            escapes++;
            i++;
        }
    }
    return -1;
}

/* The content of a plain string with escapes, s, written at d (its s->size bytes),
   each escape undone. (The span read first: d may alias it.) */
DF_INLINE void df_plain_unescape(unsigned char *d, const unsigned char *p,
                                 const df_plain_span *s) {
    const df_ssize end = s->end;
    df_ssize i;
    for (i = s->at; i < end; i++) *d++ = p[i] == '\\' ? DF_UNESCAPE[p[++i]] : p[i];
}

/* Whether p[i:] starts with the n bytes of s (i + n within limit). */
DF_INLINE int df_plain_at(const unsigned char *p, df_ssize i, df_ssize limit, const char *s,
                          df_ssize n) {
    return i + n <= limit && memcmp(p + i, s, (size_t)n) == 0;
}
#define DF_PLAIN_AT(p, i, limit, s) df_plain_at((p), (i), (limit), (s), sizeof(s) - 1)

/* Whether p[0:n] is {"code":<code>,"message":"<message>"} as above: then 1, with the
   code in *code and the message's span in *message. */
DF_INLINE int df_rmcp_plain_error(const unsigned char *p, df_ssize n, int32_t *code,
                                  df_plain_span *message) {
    df_ssize i = 8, digits;
    int64_t value = 0;
    int negative;
    if (n < 23 || n > DF_PLAIN_LONGEST || p[n - 1] != '}' || p[n - 2] != '"' ||
        !DF_PLAIN_AT(p, 0, n, "{\"code\":"))
        return 0;
    negative = p[i] == '-';
    i += negative;
    for (digits = 0; digits < 11 && p[i + digits] >= '0' && p[i + digits] <= '9'; digits++)
        value = value * 10 + (p[i + digits] - '0');
    if (digits == 0 || digits > 10 || (p[i] == '0' && (digits > 1 || negative))) return 0;
    if (negative) value = -value;
    if (value < INT32_MIN || value > INT32_MAX) return 0;
    i += digits;
    if (!DF_PLAIN_AT(p, i, n, ",\"message\":\"")) return 0;
    i = df_plain_string(p, i + 12, n, message);
    if (i != n - 1 || p[i] != '}') return 0;
    *code = (int32_t)value;
    return 1;
}

/* One item of a plain result: its uri, its mimeType (mime.at < 0 when it has none), and
   its text or blob (blob: 0 or 1). */
typedef struct {
    df_plain_span uri, mime, value;
    int blob;
} df_plain_item;

/* Whether p[0:n] is {"contents":[<item>,...]} as above: then 1, with its items in
   items[0:*count]. */
DF_INLINE int df_rmcp_plain_result(const unsigned char *p, df_ssize n, df_plain_item *items,
                                   int *count) {
    df_ssize i = 13;
    int k = 0;
    if (n < 15 || n > DF_PLAIN_LONGEST || p[n - 1] != '}' || p[n - 2] != ']' ||
        (p[n - 3] != '}' && p[n - 3] != '[') || !DF_PLAIN_AT(p, 0, n, "{\"contents\":["))
        return 0;
    if (p[i] == ']') {
        *count = 0;
        return i + 2 == n;
    }
    for (;;) {
        df_plain_item *item = &items[k];
        if (k == DF_PLAIN_ITEMS || !DF_PLAIN_AT(p, i, n, "{\"uri\":\"")) return 0;
        i = df_plain_string(p, i + 8, n, &item->uri);
        if (i < 0) return 0;
        item->mime.at = -1;
        if (DF_PLAIN_AT(p, i, n, ",\"mimeType\":\"")) {
            i = df_plain_string(p, i + 13, n, &item->mime);
            if (i < 0) return 0;
        }
        if (DF_PLAIN_AT(p, i, n, ",\"text\":\"")) {
            item->blob = 0;
        } else if (DF_PLAIN_AT(p, i, n, ",\"blob\":\"")) {
            item->blob = 1;
        } else {
            return 0;
        }
        i = df_plain_string(p, i + 9, n, &item->value);
        if (i < 0 || i + 1 >= n || p[i] != '}') return 0;
        k++;
        i++;
        if (p[i] == ']') break;
        if (p[i] != ',') return 0;
        i++;
    }
    *count = k;
    return i + 2 == n; /* "]}" and the end */
}

#endif /* DF_RMCP_PLAIN_H */
