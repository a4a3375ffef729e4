/* The string loop of _strings.h, written once and compiled once per path.
 *
 * Included by _strings.h (no include guard: once per path) with these defined, and
 * undefined at the end:
 *   DF_LOOP(name)   the path's name of a function (name##_avx2, ...);
 *   DF_LOOP_ATTR    the path's target attribute, if any;
 *   DF_LOOP_MASKS   (p, &masks): the df_masks of the 64 bytes at p;
 *   DF_LOOP_COPY    (d, s): copy 64 bytes;
 *   DF_LOOP_RUN     (d, s, blocks, &o, &high, &flags): the path's run (df_plain_run, or
 *                   df_simple_run), from s, writing at d + o;
 *   DF_LOOP_RUN_AFTER(masks): whether to try the run again after a block with these
 *                   masks;
 *   DF_LOOP_PLAIN   (d, s, blocks, &o, &high, &flags): the path's df_plain_run;
 *   DF_LOOP_STOPS   (p): the quotes, backslashes and control bytes of the 64 bytes at
 *                   p (bit i: byte i); bits may be set too for other bytes after the
 *                   first of them, never when there is none.
 * and, where the path has it,
 *   DF_LOOP_ESCAPES (d, s, stops, &o): the 64 bytes at s, whose bytes to escape are
 *                   exactly stops, written at d + o with their escapes at once, as
 *                   df_write_bytes writes them, and o moved past them: 1; or 0 with
 *                   nothing written. Stores 128 bytes from d + o at most.
 */

#ifndef DF_LOOP_ESCAPES
#define DF_LOOP_ESCAPES(d, s, stops, o) 0
#endif

/* df_string_copy on this path (see _strings.h).
 *
 * While 128 bytes are left in p, a 64-byte block at a time: its masks give the closing
 * quote if it is there, the control bytes before it, and the backslashes that start an
 * escape (none of which waits for the escapes before it); the text before each escape,
 * and to the end of the block or the closing quote, is copied 64 bytes at a time (64
 * bytes are always there to read, and room to write: the output is no longer than
 * what was read, and the caller's room is checked for the whole block first). The last
 * bytes one at a time. */
DF_LOOP_ATTR static inline df_ssize DF_LOOP(df_string_copy)(unsigned char *d, df_ssize cap,
                                                            const unsigned char *p,
                                                            df_ssize n, df_copy *at) {
    df_ssize base = at->base, i = at->i, o = at->o, k, skip;
    const df_ssize start = at->start;
    uint64_t prev = at->prev, high = at->high, escaped, q, before, starts;
    unsigned hi = 0;
    int flags = at->flags;
    df_masks mk;
    unsigned char simple, c;
    int run = 1; /* the block before was one the path's run might copy */
    for (; base + 128 <= n; base += 64) {
        if (base + 128 - start > cap) goto more_room; /* writes end before it */
        if (run && i == base && !prev) {
            /* the blocks the path's run copies (o <= i - start), as many as there are to
               read and room for */
            base += 64 * DF_LOOP_RUN(d, p + base,
                                     ((n < cap + start ? n : cap + start) - base) / 64, &o,
                                     &high, &flags);
            i = base;
            run = 0;
            if (base + 128 > n) break;
            if (base + 128 - start > cap) goto more_room;
        }
        DF_LOOP_MASKS(p + base, &mk);
        escaped = (mk.slash | prev) ? df_escaped64(mk.slash, &prev) : 0;
        q = mk.quote & ~escaped;
        before = q ? (q & (0 - q)) - 1 : ~0ULL; /* the content's bytes in the block */
        if (mk.control & before) return -1;
        high |= mk.high & before;
        starts = mk.slash & ~escaped & before;
        skip = i - base; /* bytes of the block an escape before it has read */
        starts = skip >= 64 ? 0 : starts & (~0ULL << skip);
        if (starts) flags |= DF_STR_ESCAPED;
        run = DF_LOOP_RUN_AFTER(mk);
        while (starts) {
            k = base + (df_ssize)df_lowest_bit64(starts);
            DF_LOOP_COPY(d + o, p + i); /* the text before the escape */
            o += k - i;
            c = p[k + 1];
            simple = DF_UNESCAPE[c];
            if (simple) {
                d[o++] = simple;
                i = k + 2;
                starts &= starts - 1;
                continue;
            }
            i = k;
            if (c != 'u' || df_unicode_escape(d, &o, p, n, &i, &hi) < 0) return -1;
            skip = i - base; /* a pair of \u escapes reads a backslash of its own */
            starts = skip >= 64 ? 0 : starts & (~0ULL << skip);
        }
        if (q) { /* the text before the closing quote (no escape reads past it) */
            k = base + (df_ssize)df_lowest_bit64(q);
            if (i < k) {
                DF_LOOP_COPY(d + o, p + i);
                o += k - i;
            }
            i = k;
            goto done;
        }
        if (i < base + 64) { /* the rest of the block */
            DF_LOOP_COPY(d + o, p + i);
            o += base + 64 - i;
            i = base + 64;
        }
    }
    if (n - start > cap) goto more_room;
    for (;;) {
        if (i >= n) return -1;
        c = p[i];
        if (c == 0x22) goto done;
        if (c == 0x5C) {
            flags |= DF_STR_ESCAPED;
            if (df_escape(d, &o, p, n, &i, &hi) < 0) return -1;
            continue;
        }
        if (c < 0x20) return -1;
        hi |= c;
        d[o++] = c;
        i++;
    }
done:
    at->o = o;
    at->flags = flags | ((high || (hi & 0x80u)) ? DF_STR_HIGH : 0);
    return i;
more_room:
    at->base = base;
    at->i = i;
    at->o = o;
    at->prev = prev;
    at->high = high | (hi & 0x80u);
    at->flags = flags;
    return -2;
}

/* df_stop_index on this path (see _strings.h). */
DF_LOOP_ATTR static inline df_ssize DF_LOOP(df_stop_index)(const unsigned char *p, df_ssize n,
                                                           df_ssize j) {
    df_masks mk;
    uint64_t stops;
    for (; j + 64 <= n; j += 64) {
        DF_LOOP_MASKS(p + j, &mk);
        stops = mk.quote | mk.slash | mk.control;
        if (stops) return j + (df_ssize)df_lowest_bit64(stops);
    }
    for (; j < n; j++)
        if (p[j] == 0x22 || p[j] == 0x5C || p[j] < 0x20) return j;
    return n;
}

/* df_string_write on this path (see _strings.h).
 *
 * The path's plain run stores the blocks of 64 bytes with no byte to escape, as many as
 * come and fit (tried again after a block with no stop); in a block with some, while
 * 128 bytes are left to read, the text before each such byte is stored 64 bytes at a
 * time from where it starts (64 bytes are always there to read), then the byte's
 * escape, then the rest of the block: DF_WRITE_BLOCK bytes of room at most (or the
 * whole block at once by DF_LOOP_ESCAPES, where the path has it and can). A bit of
 * the stops that is no byte to escape (a borrow of the SWAR path) is passed over. The
 * last bytes one at a time, when 6 a byte fit. */
DF_LOOP_ATTR static inline df_ssize DF_LOOP(df_string_write)(unsigned char *d, df_ssize cap,
                                                             const unsigned char *s,
                                                             df_ssize n, df_ssize *at) {
    df_ssize i = *at, o = 0, k, last, blocks;
    uint64_t stops, high = 0;
    unsigned char c;
    int flags = 0, run = 1;
    for (;;) {
        if (run) {
            blocks = (n - i) / 64;
            if (blocks > (cap - o) / 64) blocks = (cap - o) / 64;
            i += 64 * DF_LOOP_PLAIN(d, s + i, blocks, &o, &high, &flags);
        }
        if (i + 128 > n) break;
        if (cap - o < DF_WRITE_BLOCK) goto done;
        stops = DF_LOOP_STOPS(s + i);
        run = !stops; /* after a block with no stop, the run again */
        if (stops && DF_LOOP_ESCAPES(d, s + i, stops, &o)) {
            i += 64;
            continue;
        }
        last = 0; /* the block's first byte not yet written */
        for (; stops; stops &= stops - 1) {
            k = (df_ssize)df_lowest_bit64(stops);
            c = s[i + k];
            if (!DF_ESCAPE[c]) continue;
            DF_LOOP_COPY(d + o, s + i + last);
            o += k - last;
            o += df_write_escape(d + o, c);
            last = k + 1;
        }
        DF_LOOP_COPY(d + o, s + i + last);
        o += 64 - last;
        i += 64;
    }
    if (cap - o >= 6 * (n - i)) {
        o = df_write_bytes(d, o, s, i, n);
        i = n;
    }
done:
    *at = i;
    return o;
}

#undef DF_LOOP
#undef DF_LOOP_ATTR
#undef DF_LOOP_MASKS
#undef DF_LOOP_COPY
#undef DF_LOOP_RUN
#undef DF_LOOP_RUN_AFTER
#undef DF_LOOP_STOPS
#undef DF_LOOP_PLAIN
#undef DF_LOOP_ESCAPES
