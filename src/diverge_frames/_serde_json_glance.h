/* The glance, in C (see _serde_json.h): df_sj_glance, a cheaper look at a body than
 * df_sj_scan that says when msgspec reads it as serde_json does (or rejects it).
 */
#ifndef DF_SERDE_JSON_GLANCE_H
#define DF_SERDE_JSON_GLANCE_H

#include "_common.h"
#include "_scan.h"
#include "_serde_json_number.h"
#include "_serde_json_scan.h"

/* df_sj_glance looks at the keys of objects nested this deep or less (and of at most
   this many keys); a struct position deeper than it sends every body to df_sj_scan. */
#define DF_SJ_GLANCE_DEPTH 4
#define DF_SJ_GLANCE_KEYS 16

/* df_sj_glance's number at p[i], past the quick look: its end, or -1 unless plain. */
DF_NOINLINE df_ssize df_sj_glance_number(const unsigned char *p, df_ssize n, df_ssize i) {
    int kind;
    double f;
    i = df_sj_number(p, n, i, &kind, &f);
    return kind == DF_NUM_PLAIN ? i : -1;
}

/* df_sj_glance(p, n, rules, &top_keys): a cheaper look at the body p[:n] than df_sj_scan
   (no positions, no syntax): 0 when msgspec reads it as serde_json does or rejects it,
   else 1 (df_sj_scan decides). 0 needs valid UTF-8, every number plain (df_sj_number),
   nesting at most DF_SJ_SKIP_DEPTH, and in each object nested rules->deepest levels or
   less at most DF_SJ_GLANCE_KEYS keys, none escaped, none repeated, none a model
   member's name. A body it says 0 for is one df_sj_scan finds nothing in (no reason,
   repeated member or edit), or one msgspec rejects: a syntax error, a raw control
   character, a bad escape or a lone surrogate in any string, read or skipped (the scan
   after msgspec's failure words it, or, for a surrogate in a value serde_json skips,
   sends it to the exact reading), or an array where serde's derived struct reads its
   sequence form (a repeated in df_sj_scan's terms), which msgspec's struct, literal or
   union there rejects. With 0, *top_keys is how many
   keys the top-level object has. Reads only p[:n]. Inlined at each call (each decode's,
   through _exact.pxi's _source): out of line, GCC's copy of it cost the small frames more
   time than its instructions (bench_guard). */
DF_ALWAYS_INLINE int df_sj_glance(const unsigned char *p, df_ssize n, const df_sj_rules *rules,
                                  int *top_keys) {
    uint64_t heads[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    df_ssize starts[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    int lens[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    int keys[DF_SJ_GLANCE_DEPTH + 1];
    df_ssize i = 0, j, key = 0, key_end = 0, len;
    int depth = 0, deepest = rules->deepest, escaped = 0, m, d, count, flags;
    const df_sj_member *models = rules->models;
    const int n_models = rules->n_models;
    uint64_t head;
    unsigned char c;
    *top_keys = 0;
    if (deepest > DF_SJ_GLANCE_DEPTH) return 1;
    if (!DF_SSE2 && !df_valid_utf8(p, n)) return 1; /* DF_HIGH is SSE2's */
    keys[1] = 0;
    while (i < n) {
        c = p[i];
        if (c == '"') {
            key = ++i;
            flags = 0;
            key_end = df_string_end(p, n, i, &flags);
            if (key_end < 0) return 1;
            if ((flags & DF_HIGH) && !df_valid_utf8(p + i, key_end - i)) return 1;
            escaped = flags & DF_ESCAPED;
            i = key_end + 1;
            continue;
        }
        if (c == ':') {
            i = df_sj_ws(p, n, i + 1);
            if (depth == 1) ++*top_keys;
            if (depth < 1 || depth > deepest) continue;
            count = keys[depth];
            if (escaped || count == DF_SJ_GLANCE_KEYS) return 1;
            len = key_end - key;
            head = df_sj_head(p + key, len, n - key);
            for (m = 0; m < n_models; m++)
                if (models[m].len == len && df_sj_same(models[m].name, p + key, len)) return 1;
            for (d = 0; d < count; d++)
                if (heads[depth][d] == head && lens[depth][d] == len &&
                    (len <= 8 || df_sj_same(p + starts[depth][d] + 8, p + key + 8, len - 8)))
                    return 1;
            heads[depth][count] = head;
            starts[depth][count] = key;
            lens[depth][count] = (int)len;
            keys[depth] = count + 1;
            continue;
        }
        if (c == '{' || c == '[') {
            if (++depth > DF_SJ_SKIP_DEPTH) return 1;
            if (depth <= deepest) keys[depth] = 0;
            i = df_sj_ws(p, n, i + 1);
            continue;
        }
        if (c == '}' || c == ']') {
            if (--depth < 0) return 0; /* msgspec rejects it */
            i++;
            continue;
        }
        if (c == '-' || DF_IS_DIGIT(c)) {
            /* quick: an integer of at most 15 digits, not -0 (no leading zero) */
            j = i + (c == '-');
            while (j < n && DF_IS_DIGIT(p[j])) j++;
            len = j - i - (c == '-');
            if (len >= 1 && len <= 15 && (p[j - len] != '0' || (len == 1 && c != '-')) &&
                (j >= n || (p[j] != '.' && (p[j] | 0x20) != 'e'))) {
                i = j;
                continue;
            }
            i = df_sj_glance_number(p, n, i);
            if (i < 0) return 1;
            continue;
        }
        /* whitespace, a comma, a literal's letters (or a syntax error), and the
           whitespace after it at once */
        i = df_sj_ws(p, n, i + 1);
    }
    return 0;
}

#endif /* DF_SERDE_JSON_GLANCE_H */
