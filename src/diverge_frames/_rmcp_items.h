/* rmcp's untagged ResourceContents on a whole body, in C, for the compiled hot path
 * (_frames_c.pyx): df_rmcp_items.
 *
 * The C copy of _exact.rmcp_read's item rule (_contents_item), applied in one pass to the
 * `contents` items of a ReadResourceResult body that df_sj_scan has read: a shared member
 * (uri, mimeType, _meta) repeated, or both `text` and `blob`, and neither variant reads the
 * item; `text` repeated fails the text variant (its keys dropped); `blob` repeated fails
 * the blob variant (its keys dropped). Dropping a key here is renaming it, in the caller's
 * own copy of the body, to a name no member has (its bytes between the quotes all `x`):
 * msgspec then skips its value, as the rule leaves it out. The text-or-blob choice and the
 * rest of each item's checks stay msgspec's and _public.pxi's, as on the plain path.
 *
 * Nothing here allocates or touches Python objects; every read is bounds-checked.
 */
#ifndef DF_RMCP_ITEMS_H
#define DF_RMCP_ITEMS_H

#include "_common.h"
#include "_serde_json_scan.h"
#include "_serde_json_tokens.h"

/* What df_rmcp_items found. */
#define DF_ITEMS_READ 0   /* every item as the rule reads it (keys renamed where it drops) */
#define DF_ITEMS_REJECT 1 /* an item that neither variant reads: the body is rejected */
#define DF_ITEMS_OTHER 2  /* a rule other than the items' applies: the exact reading decides */

/* The member bits df_rmcp_items knows, in the positions of df_sj_rules (see df_sj_index). */
typedef struct {
    int contents;    /* `contents` in the top-level position */
    int cache_scope; /* `cacheScope`, a unit enum (its map forms: the exact reading) */
    int item;        /* the position of a `contents` item */
    int text, blob;  /* their bits in the item's position; every other member is shared */
} df_rmcp_item_rules;

/* The key whose content starts at p[j]: its closing quote's index, or -1. *member: the
   bit of the member it names at position `at`, or -1 (no member, or at < 0). */
DF_INLINE df_ssize df_rmcp_key(const unsigned char *p, df_ssize n, df_ssize j,
                               const df_sj_rules *rules, int at, int *member) {
    int escaped = 0, surrogate = 0, why = DF_SJ_OK, m;
    df_ssize k = df_sj_string(p, n, j, 1, &escaped, &surrogate, &why);
    *member = -1;
    if (k < 0 || at < 0) return k;
    m = df_sj_member_of(rules, at, p, n, j, k, escaped);
    if (m >= 0) *member = rules->positions[at].bits[m];
    return k;
}

/* The value at p[i] skipped: the index after it, or -1. */
DF_INLINE df_ssize df_rmcp_skip(const unsigned char *p, df_ssize n, df_ssize i) {
    df_ssize deepest, at;
    int surrogate = 0, why = DF_SJ_OK;
    return df_sj_ignore(p, n, i, &deepest, &surrogate, &why, &at);
}

/* The item object at p[i] ('{'): its members counted (counts[bit], 2: more than once), the
   index after it returned, or -1. With `drop` >= 0, the keys of member `drop` renamed. */
DF_INLINE df_ssize df_rmcp_item(unsigned char *p, df_ssize n, df_ssize i,
                                const df_sj_rules *rules, int at, int drop,
                                unsigned char *counts) {
    df_ssize k, j;
    int member;
    i = df_sj_ws(p, n, i + 1);
    if (i < n && p[i] == '}') return i + 1;
    for (;;) {
        if (i >= n || p[i] != '"') return -1;
        k = df_rmcp_key(p, n, i + 1, rules, at, &member);
        if (k < 0) return -1;
        if (member >= 0 && member < DF_SJ_MAX_MEMBERS) {
            if (counts[member] < 2) counts[member]++;
            if (member == drop)
                for (j = i + 1; j < k; j++) p[j] = 'x';
        }
        i = df_sj_ws(p, n, k + 1);
        if (i >= n || p[i] != ':') return -1;
        i = df_rmcp_skip(p, n, df_sj_ws(p, n, i + 1));
        if (i < 0) return -1;
        i = df_sj_ws(p, n, i);
        if (i < n && p[i] == ',') {
            i = df_sj_ws(p, n, i + 1);
            continue;
        }
        if (i < n && p[i] == '}') return i + 1;
        return -1;
    }
}

/* The items of the `contents` array at p[i] ('['), each read by the rule: the index after
   the array (*found: DF_ITEMS_READ, or DF_ITEMS_REJECT past an item neither variant
   reads, the rest skipped), or -1. An item that is no object is left to msgspec, which
   rejects it as the rule's reading does. */
DF_INLINE df_ssize df_rmcp_contents(unsigned char *p, df_ssize n, df_ssize i,
                                    const df_sj_rules *rules, const df_rmcp_item_rules *items,
                                    int *found) {
    unsigned char counts[DF_SJ_MAX_MEMBERS];
    const int count = rules->positions[items->item].count;
    df_ssize start, end;
    int b, drop;
    *found = DF_ITEMS_READ;
    i = df_sj_ws(p, n, i + 1);
    if (i < n && p[i] == ']') return i + 1;
    for (;;) {
        if (i >= n) return -1;
        start = i;
        if (p[i] == '{' && *found == DF_ITEMS_READ) {
            memset(counts, 0, sizeof counts);
            end = df_rmcp_item(p, n, i, rules, items->item, -1, counts);
            if (end < 0) return -1;
            for (b = 0; b < count; b++)
                if (b != items->text && b != items->blob && counts[b] > 1)
                    *found = DF_ITEMS_REJECT;
            drop = -1;
            if (*found != DF_ITEMS_READ) {
                /* rejected: the rest only skipped */
            } else if (counts[items->text] > 1) {
                if (counts[items->blob] > 1) *found = DF_ITEMS_REJECT;
                else drop = items->text;
            } else if (counts[items->blob] > 1) {
                drop = items->blob;
            }
            if (drop >= 0 && df_rmcp_item(p, n, start, rules, items->item, drop, counts) != end)
                return -1;
            i = end;
        } else {
            i = df_rmcp_skip(p, n, i);
            if (i < 0) return -1;
        }
        i = df_sj_ws(p, n, i);
        if (i < n && p[i] == ',') {
            i = df_sj_ws(p, n, i + 1);
            continue;
        }
        if (i < n && p[i] == ']') return i + 1;
        return -1;
    }
}

/* df_rmcp_items(p, n, rules, items): the item rule applied to the contents of the body
   p[:n] (the caller's copy, which df_sj_scan found valid with no repeated top-level
   member), the keys it drops renamed in place. DF_ITEMS_READ when msgspec may now read
   the copy as rmcp reads the body, DF_ITEMS_REJECT for an item neither variant reads (the
   first one: the rule rejects it before it reads anything else but the unit enum),
   DF_ITEMS_OTHER when another rule of the exact reading applies (a top-level array, a
   unit enum's map form, `contents` no array) or the bytes do not read. */
DF_INLINE int df_rmcp_items(unsigned char *p, df_ssize n, const df_sj_rules *rules,
                            const df_rmcp_item_rules *items) {
    df_ssize i = df_sj_ws(p, n, 0), k;
    int member, found, rejected = 0;
    if (i >= n || p[i] != '{') return DF_ITEMS_OTHER;
    i = df_sj_ws(p, n, i + 1);
    if (i < n && p[i] == '}') return DF_ITEMS_READ;
    for (;;) {
        if (i >= n || p[i] != '"') return DF_ITEMS_OTHER;
        k = df_rmcp_key(p, n, i + 1, rules, rules->root, &member);
        if (k < 0) return DF_ITEMS_OTHER;
        i = df_sj_ws(p, n, k + 1);
        if (i >= n || p[i] != ':') return DF_ITEMS_OTHER;
        i = df_sj_ws(p, n, i + 1);
        if (i >= n) return DF_ITEMS_OTHER;
        if (member == items->cache_scope && (p[i] == '{' || p[i] == '['))
            return DF_ITEMS_OTHER;
        if (member == items->contents && p[i] == '[') {
            i = df_rmcp_contents(p, n, i, rules, items, &found);
            if (i < 0) return DF_ITEMS_OTHER;
            rejected = found == DF_ITEMS_REJECT;
        } else if (member == items->contents) {
            return DF_ITEMS_OTHER;
        } else {
            i = df_rmcp_skip(p, n, i);
            if (i < 0) return DF_ITEMS_OTHER;
        }
        i = df_sj_ws(p, n, i);
        if (i < n && p[i] == ',') {
            i = df_sj_ws(p, n, i + 1);
            continue;
        }
        if (i < n && p[i] == '}' && df_sj_ws(p, n, i + 1) == n)
            return rejected ? DF_ITEMS_REJECT : DF_ITEMS_READ;
        return DF_ITEMS_OTHER;
    }
}

#endif /* DF_RMCP_ITEMS_H */
