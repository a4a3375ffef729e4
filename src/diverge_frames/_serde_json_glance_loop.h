/* The glance's block loop (df_sj_glance, see _serde_json_glance.h), written once and
 * compiled once per path.
 *
 * Included by _serde_json_glance.h (no include guard: once per path) with these
 * defined, and undefined at the end:
 *   DF_GLANCE(name)   the path's name of a function (name##_sse2, name##_avx2);
 *   DF_GLANCE_ATTR    how the path's function is declared (inlined, or out of line for
 *                     its own target);
 *   DF_GLANCE_MASKS   (p, n, base, &quote, &slash, &acts, &high): the masks of the
 *                     block at base (df_sj_glance_masks_sse2 says what they are).
 */

/* The glance, 64 bytes a block (see the top of _serde_json_glance.h): what
   df_sj_glance_bytes says of every body (the same 0 and *top_keys), or 1 where that
   says 0 in a few cases that are only slower (df_sj_scan decides): a key whose quotes
   are more than a block apart, or 64 bytes of whitespace or more between a key and its
   colon; a byte >= 0x80 outside strings, or invalid UTF-8 there; a backslash outside
   strings. Bodies under 16 bytes are df_sj_glance_bytes's. */
DF_GLANCE_ATTR int DF_GLANCE(df_sj_glance)(const unsigned char *p, df_ssize n,
                                           const df_sj_rules *rules, int *top_keys,
                                           unsigned *watched) {
    df_sj_glance_keys k;
    df_ssize base, i, key, key_end, resume = 0;
    int depth = 0, deepest = rules->deepest, top = 0;
    uint64_t quote, slash, acts, high, q, in;
    uint64_t escape = 0, inside = 0, pq = 0, ps = 0;
    df_ssize first_high = -1, last_high = -1; /* the first and last byte >= 0x80 */
    unsigned char c;
    if (n < 16) return df_sj_glance_bytes(p, n, rules, top_keys, watched);
    *top_keys = 0;
    *watched = 0; /* kept in k.seen while it looks, stored as it says 0 */
    if (deepest > DF_SJ_GLANCE_DEPTH) return 1;
    k.seen = 0;
    k.count[1] = 0;
    for (base = 0; base < n; base += 64) {
        DF_GLANCE_MASKS(p, n, base, &quote, &slash, &acts, &high);
        q = (slash | escape) ? quote & ~df_escaped64(slash, &escape) : quote;
        if (high) {
            if (first_high < 0) first_high = base + (df_ssize)df_lowest_bit64(high);
            last_high = base + 63 - df_clz64(high);
        }
        in = df_sj_prefix_xor(q) ^ inside;
        inside = 0 - (in >> 63);
        if (slash & ~in) return 1; /* a backslash outside strings: not JSON */
        acts &= ~in;
        while (acts) {
            i = base + (df_ssize)df_lowest_bit64(acts);
            acts &= acts - 1;
            if (i < resume) continue; /* a number's own bytes */
            c = p[i];
            if (c == ':') {
                top += depth == 1;
                if (depth < 1 || depth > deepest) continue;
                /* the key: the string closed by the last quote before the colon */
                key_end = p[i - 1] == '"' ? i - 1 : df_sj_quote_before(q, pq, base, i);
                if (key_end < 0) return 1;
                key = df_sj_quote_before(q, pq, base, key_end) + 1;
                if (key <= 0 || ((slash | ps) && df_sj_slash_in(slash, ps, base, key, key_end)) ||
                    df_sj_glance_key(&k, rules, p, n, key, key_end - key, depth))
                    return 1;
                continue;
            }
            if ((c | 0x20) == '{') { /* { or [ */
                if (++depth > DF_SJ_SKIP_DEPTH) return 1;
                if (depth <= deepest) k.count[depth] = 0;
                continue;
            }
            if ((c | 0x20) == '}') { /* } or ] */
                /* msgspec rejects it (the byte loop's 0, once the UTF-8 before it is) */
                if (--depth < 0) {
                    *top_keys = top;
                    *watched = k.seen;
                    return first_high >= 0 && first_high < i &&
                           !df_valid_utf8(p + first_high, i - first_high);
                }
                continue;
            }
            if (c == '.' || c == '/') continue; /* not a number's first byte */
            resume = df_sj_glance_number_end(p, n, i);
            if (resume < 0) return 1;
        }
        pq = q;
        ps = slash;
    }
    if (inside) return 1; /* a string not closed */
    /* the UTF-8 from the first byte >= 0x80 to the last (a lead byte there, its
       continuation missing, is invalid either way) */
    if (first_high >= 0 && !df_valid_utf8(p + first_high, last_high + 1 - first_high))
        return 1;
    *top_keys = top;
    *watched = k.seen;
    return 0;
}

#undef DF_GLANCE
#undef DF_GLANCE_ATTR
#undef DF_GLANCE_MASKS
