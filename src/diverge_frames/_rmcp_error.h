/* The ErrorData body rmcp writes when it has no data, recognized in C.
 *
 * rmcp's ErrorData is { code: i32, message: str, data: Option<serde_json::Value> }
 * (_write_error.h writes it); serde_json writes one without data as
 * {"code":<i32>,"message":"<str>"}, with no space: what most error frames are.
 *
 * df_rmcp_plain_error says whether the body p[0:n] is exactly that, with a code in
 * plain JSON integer syntax (no leading zero, no "-0", which reads as 0 but is left to
 * the general path) within i32, and a message of ASCII from 0x20 to 0x7F, '"' and '\\'
 * only in the simple escapes (a backslash and one of "\\/bfnrt: a multi-line message,
 * a quoted word): such a body holds that code and that message and nothing else, as
 * serde_json and msgspec read it, so the caller builds the value at once
 * (df_rmcp_plain_message writes the message's escapes undone). Anything else returns
 * 0, for the general path to read as before: whitespace, other members or another
 * order, a \\u escape, a control byte, a byte of 0x80 or more, a body longer than
 * DF_PLAIN_ERROR_LONGEST.
 *
 * Plain C, no Python objects.
 */
#ifndef DF_RMCP_ERROR_H
#define DF_RMCP_ERROR_H

#include <stdint.h>
#include <string.h>

#include "_common.h"
#include "_strings_base.h"

/* The longest body df_rmcp_plain_error reads: a small frame's (the general path reads
   a longer one at vector speed). */
#define DF_PLAIN_ERROR_LONGEST 1024

/* Whether p[0:n] is {"code":<code>,"message":"<message>"} as above: then 1, with the
   code in *code, the message's JSON at p[*at : n - 2], its length once its escapes are
   undone in *size, and in *escaped whether it has any. */
DF_INLINE int df_rmcp_plain_error(const unsigned char *p, df_ssize n, int32_t *code,
                                  df_ssize *at, df_ssize *size, int *escaped) {
    static const char head[] = "{\"code\":", middle[] = ",\"message\":\"";
    df_ssize i = sizeof head - 1, digits, escapes = 0;
    int64_t value = 0;
    int negative;
    if (n < 23 || n > DF_PLAIN_ERROR_LONGEST || memcmp(p, head, sizeof head - 1) != 0 ||
        p[n - 1] != '}' || p[n - 2] != '"')
        return 0;
    negative = p[i] == '-';
    i += negative;
    for (digits = 0; digits < 11 && p[i + digits] >= '0' && p[i + digits] <= '9'; digits++)
        value = value * 10 + (p[i + digits] - '0');
    if (digits == 0 || digits > 10 || (p[i] == '0' && (digits > 1 || negative))) return 0;
    if (negative) value = -value;
    if (value < INT32_MIN || value > INT32_MAX) return 0;
    i += digits;
    if (i + (df_ssize)(sizeof middle - 1) > n - 2 ||
        memcmp(p + i, middle, sizeof middle - 1) != 0)
        return 0;
    i += sizeof middle - 1;
    *at = i;
    for (; i < n - 2; i++) {
        if (p[i] < 0x20 || p[i] >= 0x80 || p[i] == '"') return 0;
        if (p[i] == '\\') { /* a simple escape, its byte before the closing quote */
            if (i + 1 >= n - 2 || !DF_UNESCAPE[p[i + 1]]) return 0;
            escapes++;
            i++;
        }
    }
    *size = n - 2 - *at - escapes;
    *escaped = escapes != 0;
    *code = (int32_t)value;
    return 1;
}

/* The message p[at:end] of a body df_rmcp_plain_error took written at d (its *size
   bytes), each simple escape undone. */
DF_INLINE void df_rmcp_plain_message(unsigned char *d, const unsigned char *p, df_ssize at,
                                     df_ssize end) {
    for (; at < end; at++) *d++ = p[at] == '\\' ? DF_UNESCAPE[p[++at]] : p[at];
}

#endif /* DF_RMCP_ERROR_H */
