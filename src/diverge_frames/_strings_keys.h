/* Searches for string keys in a result body, for the long-string fast paths (see
 * _strings.h): df_find_string_key and df_count_empty.
 */
#ifndef DF_STRINGS_KEYS_H
#define DF_STRINGS_KEYS_H

#include "_common.h"
#include "_scan.h"

/* df_find_string_key(p, start, end, names, count, &kind): the index in p[start:end] just
   after the next `"<name>":"` (where the content of that string value starts) for one of
   the `count` four-letter names in `names` ("textblob": text, blob), JSON whitespace
   allowed on either side of the colon, with *kind the name's index, or -1 when there is
   none. Each colon is looked at once: its key's closing quote is the last byte before it
   that is no whitespace, the value's opening quote the first after it. */
DF_INLINE df_ssize df_find_string_key(const unsigned char *p, df_ssize start, df_ssize end,
                                      const char *names, int count, int *kind) {
    const unsigned char *q;
    df_ssize k, key, value, first = start;
    int i;
    start += 6; /* the colon: 6 bytes or more after the key's quote, one before the value's */
    while (start + 2 <= end) {
        q = (const unsigned char *)memchr(p + start, ':', (size_t)(end - start - 1));
        if (q == NULL) return -1;
        k = q - p;
        for (key = k - 1; key > first && DF_IS_WS(p[key]); key--) {
        }
        value = df_ws_end(p, end, k + 1);
        if (key - 5 >= first && value < end && p[key] == '"' && p[value] == '"' &&
            p[key - 5] == '"') {
            for (i = 0; i < count; i++) {
                if (memcmp(p + key - 4, names + 4 * i, 4) == 0) {
                    *kind = i;
                    return value + 1;
                }
            }
        }
        start = k + 1;
    }
    return -1;
}

/* df_count_empty(p, n): how many i have p[i] == p[i + 1] == '"'. */
DF_INLINE df_ssize df_count_empty(const unsigned char *p, df_ssize n) {
    df_ssize i = 0, count = 0;
#if DF_SSE2
    const __m128i quote = _mm_set1_epi8(0x22);
    unsigned a, b;
    while (i + 17 <= n) {
        a = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), quote));
        b = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i + 1)), quote));
        for (a &= b; a; a &= a - 1) count++;
        i += 16;
    }
#endif
    for (; i + 1 < n; i++) count += (p[i] == 0x22) & (p[i + 1] == 0x22);
    return count;
}

#endif /* DF_STRINGS_KEYS_H */
