/* The glance, in C (see _serde_json.h): df_sj_glance, a cheaper look at a body than
 * df_sj_scan that says when msgspec reads it as serde_json does (or rejects it).
 *
 * With SSE2 the body is read 64 bytes a block, simdjson's stage 1: bit masks of its
 * quotes, backslashes and the bytes the glance acts on (brackets, colons, a number's
 * bytes), and of its bytes >= 0x80; the quotes a backslash escapes are found for the
 * whole block at once (df_escaped64), the bytes inside strings by a prefix XOR of the
 * others, and only the bytes outside strings that the glance acts on are visited, one
 * at a time. A body's last bytes are read as the last 64 (those of the block before
 * shifted out of the masks), and its UTF-8 is checked from its first byte >= 0x80 to its
 * last. Without SSE2 it is df_sj_glance_bytes, the byte loop it is held to.
 *
 * The block loop is written once (_serde_json_glance_loop.h) and compiled once per path,
 * each with its masks: SSE2 (_serde_json_glance_sse2.h, inlined at each call) and AVX2
 * (_serde_json_glance_avx2.h, out of line for its own target), chosen at run time by
 * _strings.h's df_strings_init as the string loops are. (An AVX-512 path measured no
 * faster than AVX2's: the loop's work after the masks is the same.)
 */
#ifndef DF_SERDE_JSON_GLANCE_H
#define DF_SERDE_JSON_GLANCE_H

#include "_common.h"
#include "_scan.h"
#include "_serde_json_glance_avx2.h"
#include "_serde_json_glance_sse2.h"
#include "_serde_json_number.h"
#include "_serde_json_scan.h"
#include "_strings.h"
#include "_strings_base.h"

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

/* A name's length as a bit of a 64-bit set (63: any of 63 bytes or more), so that one
   AND says whether a key may be one of a few names (rules->models, rules->watch). */
DF_INLINE uint64_t df_sj_len_bit(df_ssize len) { return 1ULL << (len < 63 ? len : 63); }

/* Ready rules for the glance, once, before any glance with them (they are read only
   then): rules->name_lens, the lengths of rules->models' and rules->watch's names (as
   df_sj_len_bit's set), and rules->watch_heads, each watched name's df_sj_head. 0, or
   -1 when rules->watch has more than DF_SJ_WATCH names. */
DF_INLINE int df_sj_glance_ready(df_sj_rules *rules) {
    uint64_t lens = 0;
    int m;
    if (rules->n_watch > DF_SJ_WATCH) return -1;
    for (m = 0; m < rules->n_models; m++) lens |= df_sj_len_bit(rules->models[m].len);
    for (m = 0; m < rules->n_watch; m++) {
        lens |= df_sj_len_bit(rules->watch[m].len);
        rules->watch_heads[m] = df_sj_head(rules->watch[m].name, rules->watch[m].len, 0);
    }
    rules->name_lens = lens;
    return 0;
}

/* The keys a glance has seen in the objects nested rules->deepest levels or less that
   are open (one at each depth): each key's first 8 bytes (df_sj_head), start and
   length; and the names of rules->watch seen as keys (bit i: rules->watch[i]). */
typedef struct {
    uint64_t heads[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    df_ssize starts[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    int lens[DF_SJ_GLANCE_DEPTH + 1][DF_SJ_GLANCE_KEYS];
    int count[DF_SJ_GLANCE_DEPTH + 1];
    unsigned seen;
} df_sj_glance_keys;

/* The glance's rule for a key, p[key:key + len] (no escape in it), of an object nested
   depth levels (1 to rules->deepest): 1 when the body goes to df_sj_scan (more keys
   than kept, a key repeated in that object, a model member's name), else 0, the key
   kept and a watched name noted. Both glances call it, the one rule. */
DF_ALWAYS_INLINE int df_sj_glance_key(df_sj_glance_keys *k, const df_sj_rules *rules,
                                      const unsigned char *p, df_ssize n, df_ssize key,
                                      df_ssize len, int depth) {
    const int count = k->count[depth];
    uint64_t head;
    int m, d;
    if (count == DF_SJ_GLANCE_KEYS) return 1;
    head = df_sj_head(p + key, len, n - key);
    for (d = 0; d < count; d++)
        if (k->heads[depth][d] == head && k->lens[depth][d] == len &&
            (len <= 8 || df_sj_same(p + k->starts[depth][d] + 8, p + key + 8, len - 8)))
            return 1;
    if (rules->name_lens & df_sj_len_bit(len)) { /* as long as a model's or watched name */
        const df_sj_member *models = rules->models, *watch = rules->watch;
        for (m = 0; m < rules->n_models; m++)
            if (models[m].len == len && df_sj_same(models[m].name, p + key, len)) return 1;
        for (m = 0; m < rules->n_watch; m++) /* the head first: no byte loop */
            if (rules->watch_heads[m] == head && watch[m].len == len &&
                (len <= 8 || df_sj_same(watch[m].name + 8, p + key + 8, len - 8)))
                k->seen |= 1u << m;
    }
    k->heads[depth][count] = head;
    k->starts[depth][count] = key;
    k->lens[depth][count] = (int)len;
    k->count[depth] = count + 1;
    return 0;
}

/* The end of the number whose first byte ('-' or a digit) is p[i] when df_sj_number
   reads it plain, else -1: an integer of at most 15 digits, not -0 and with no leading
   zero, at once; any other by df_sj_glance_number. */
DF_ALWAYS_INLINE df_ssize df_sj_glance_number_end(const unsigned char *p, df_ssize n,
                                                  df_ssize i) {
    const int minus = p[i] == '-';
    df_ssize j = i + minus, len;
    while (j < n && DF_IS_DIGIT(p[j])) j++;
    len = j - i - minus;
    if (len >= 1 && len <= 15 && (p[j - len] != '0' || (len == 1 && !minus)) &&
        (j >= n || (p[j] != '.' && (p[j] | 0x20) != 'e')))
        return j;
    return df_sj_glance_number(p, n, i);
}

#if DF_SSE2
#define DF_GLANCE_BYTES_INLINE DF_INLINE
#else
#define DF_GLANCE_BYTES_INLINE DF_ALWAYS_INLINE
#endif

/* df_sj_glance(p, n, rules, &top_keys, &watched): a cheaper look at the body p[:n] than
   df_sj_scan (no positions, no syntax): 0 when msgspec reads it as serde_json does or
   rejects it, else 1 (df_sj_scan decides). 0 needs valid UTF-8, every number plain
   (df_sj_number), nesting at most DF_SJ_SKIP_DEPTH, and in each object nested
   rules->deepest levels or less at most DF_SJ_GLANCE_KEYS keys, none escaped, none
   repeated, none a model member's name. A body it says 0 for is one df_sj_scan finds
   nothing in (no reason, repeated member or edit), or one msgspec rejects: a syntax
   error, a raw control character, a bad escape or a lone surrogate in any string, read
   or skipped (the scan after msgspec's failure words it, or, for a surrogate in a value
   serde_json skips, sends it to the exact reading), or an array where serde's derived
   struct reads its sequence form (a repeated in df_sj_scan's terms), which msgspec's
   struct, literal or union there rejects. With 0, *top_keys is how many keys the
   top-level object has, and bit i of *watched is set when rules->watch[i] is a key of
   an object nested rules->deepest levels or less (a result's items: whether any is a
   text or a blob). Reads only p[:n].

   df_sj_glance_bytes is the glance a byte (or a string) at a time: the reference that
   df_sj_glance's blocks are held to (tests/c/test_glance.c), and df_sj_glance itself
   where SSE2 is not compiled in (arm64) and on bodies under 16 bytes. */
DF_GLANCE_BYTES_INLINE int df_sj_glance_bytes(const unsigned char *p, df_ssize n,
                                              const df_sj_rules *rules, int *top_keys,
                                              unsigned *watched) {
    df_sj_glance_keys k;
    df_ssize i = 0, key = 0, key_end = 0;
    int depth = 0, deepest = rules->deepest, escaped = 0, flags, top = 0;
    unsigned char c;
    *top_keys = 0;
    *watched = 0; /* kept in k.seen while it looks, stored as it says 0 */
    if (deepest > DF_SJ_GLANCE_DEPTH) return 1;
    if (!DF_SSE2 && !df_valid_utf8(p, n)) return 1; /* DF_HIGH is SSE2's */
    k.seen = 0;
    k.count[1] = 0;
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
            top += depth == 1;
            if (depth < 1 || depth > deepest) continue;
            if (escaped || df_sj_glance_key(&k, rules, p, n, key, key_end - key, depth))
                return 1;
            continue;
        }
        if (c == '{' || c == '[') {
            if (++depth > DF_SJ_SKIP_DEPTH) return 1;
            if (depth <= deepest) k.count[depth] = 0;
            i = df_sj_ws(p, n, i + 1);
            continue;
        }
        if (c == '}' || c == ']') {
            if (--depth < 0) { /* msgspec rejects it */
                *top_keys = top;
                *watched = k.seen;
                return 0;
            }
            i++;
            continue;
        }
        if (c == '-' || DF_IS_DIGIT(c)) {
            i = df_sj_glance_number_end(p, n, i);
            if (i < 0) return 1;
            continue;
        }
        /* whitespace, a comma, a literal's letters (or a syntax error), and the
           whitespace after it at once */
        i = df_sj_ws(p, n, i + 1);
    }
    *top_keys = top;
    *watched = k.seen;
    return 0;
}

#if DF_SSE2

/* Of x (bit i: byte i), bit i the XOR of bits 0 to i: set inside strings when x holds
   their quotes (the opening quote's bit set, the closing one's clear). */
DF_INLINE uint64_t df_sj_prefix_xor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* The index of the last quote before index i, of the quotes q of the block at base and
   pq of the block before it (base - 64 < i < base + 64), or -1 when neither holds one. */
DF_INLINE df_ssize df_sj_quote_before(uint64_t q, uint64_t pq, df_ssize base, df_ssize i) {
    uint64_t m;
    if (i > base) {
        m = q & (~0ULL >> (64 - (i - base)));
        if (m) return base + 63 - df_clz64(m);
        i = base;
    }
    if (i > base - 64) {
        m = pq & (~0ULL >> (base - i));
        if (m) return base - 1 - df_clz64(m);
    }
    return -1;
}

/* Whether a backslash is in p[a:b], of the backslashes s of the block at base and ps of
   the block before it (b <= base + 64); 1 too when a is before the block before. */
DF_INLINE int df_sj_slash_in(uint64_t s, uint64_t ps, df_ssize base, df_ssize a, df_ssize b) {
    df_ssize lo, hi;
    uint64_t m = 0;
    if (a < base - 64) return 1;
    lo = a - base < 0 ? 0 : a - base; /* this block's part */
    hi = b - base;
    if (lo < hi) m |= (s >> lo) & (~0ULL >> (64 - (hi - lo)));
    lo = a - base + 64; /* the part in the block before */
    hi = b - base + 64 > 64 ? 64 : b - base + 64;
    if (lo < hi) m |= (ps >> lo) & (~0ULL >> (64 - (hi - lo)));
    return m != 0;
}

#define DF_GLANCE(name) name##_sse2
#define DF_GLANCE_ATTR DF_ALWAYS_INLINE
#define DF_GLANCE_MASKS df_sj_glance_masks_sse2
#include "_serde_json_glance_loop.h"

#if DF_AVX2
#define DF_GLANCE(name) name##_avx2
#define DF_GLANCE_ATTR DF_TARGET_AVX2 DF_NOINLINE DF_HOT_ALIGN
#define DF_GLANCE_MASKS df_sj_glance_masks_avx2
#include "_serde_json_glance_loop.h"
#endif

/* df_sj_glance(p, n, rules, &top_keys, &watched): the glance on the best path the CPU
   has (df_string_path: 2 or more, AVX2). The SSE2 path is inlined at each call (each
   decode's, through _precheck.pxi's _source): out of line, GCC's copy of it cost the
   small frames more time than its instructions (bench_guard); the AVX2 path's call
   costs less than its masks save. */
DF_ALWAYS_INLINE int df_sj_glance(const unsigned char *p, df_ssize n, const df_sj_rules *rules,
                                  int *top_keys, unsigned *watched) {
#if DF_AVX2
    if (df_string_path >= 2) return df_sj_glance_avx2(p, n, rules, top_keys, watched);
#endif
    return df_sj_glance_sse2(p, n, rules, top_keys, watched);
}

#else /* !DF_SSE2 */

#define df_sj_glance df_sj_glance_bytes

#endif /* DF_SSE2 */

#endif /* DF_SERDE_JSON_GLANCE_H */
