/* serde_json 1.0.154's reading of a whole body, in C (see _serde_json.h): df_sj_scan.
 *
 * The body as serde_json reads it, where msgspec would read it otherwise (tokens to
 * rewrite, a member repeated at a struct position: the positions' tables here), and,
 * with an output buffer, the body written again so that msgspec reads serde_json's
 * values.
 */
#ifndef DF_SERDE_JSON_SCAN_H
#define DF_SERDE_JSON_SCAN_H

#include "_common.h"
#include "_serde_json_number.h"
#include "_serde_json_tokens.h"
#include "_write_f64.h"

/* The struct positions of a body (see _rmcp.STRUCT_POSITIONS): where a repeated member
   fails serde's derived struct. A position with members is a struct (its members, and
   the position of each member's value); one without is an array or map whose items
   (values) are at position `items`. -1: a value no rule looks into. */
typedef struct {
    const unsigned char *name;
    int len;
    int child;
    int flags; /* DF_SJ_MODEL: a member only the rmcp model reads (_rmcp_model) */
} df_sj_member;

#define DF_SJ_MODEL 1

/* A struct has at most this many members (a bit each in a 64-bit mask, and a hash table
   of DF_SJ_SLOTS slots kept at most 3/4 full). */
#define DF_SJ_MAX_MEMBERS 48
/* df_sj_glance watches for at most this many names (rules->watch: a bit each). */
#define DF_SJ_WATCH 32
#define DF_SJ_SLOTS 64

typedef struct {
    int first; /* members[first .. first + count) */
    int count; /* at most DF_SJ_MAX_MEMBERS */
    int items;
    int model_below; /* a model member at this position or below (an array here, serde's
                        sequence form, may hold one) */
    short slots[DF_SJ_SLOTS]; /* members by df_sj_hash of their names (df_sj_index), -1 */
    uint64_t heads[DF_SJ_SLOTS]; /* the first 8 bytes of each slot's name (df_sj_head) */
    unsigned char lens[DF_SJ_SLOTS]; /* the length of each slot's name */
    unsigned char bits[DF_SJ_SLOTS]; /* its member's index in the position */
    unsigned char flags[DF_SJ_SLOTS]; /* its member's flags */
    short children[DF_SJ_SLOTS]; /* its member's child */
} df_sj_position;

typedef struct {
    const df_sj_position *positions;
    const df_sj_member *members;
    int root;   /* the position of the top-level value */
    int direct; /* the top-level struct is read directly (not buffered by an untagged
                   enum): the values of members it does not have are skipped */
    int keep;   /* the rewrite can spell the keys of objects nested this deep or less with
                   their index ("3:key"), so that a reader keeps repeated keys apart */
    int deepest; /* the deepest struct position's nesting (the top level: 1), for
                    df_sj_glance */
    const df_sj_member *models; /* the model members' names, for df_sj_glance */
    int n_models;
    const df_sj_member *watch; /* names df_sj_glance says it saw as keys (*watched) */
    int n_watch;               /* at most DF_SJ_WATCH */
    uint64_t name_lens;        /* set by df_sj_glance_ready, from models' and watch's names */
    uint64_t watch_heads[DF_SJ_WATCH];
} df_sj_rules;

typedef struct {
    int reason;            /* DF_SJ_OK, or why serde_json rejects the body */
    df_ssize at;           /* where it found that */
    df_ssize edits;        /* tokens the rewrite must spell otherwise: numbers msgspec
                              would read otherwise, skipped values it would not skip */
    df_ssize skipped;      /* values skipped (members a direct struct does not have) */
    df_ssize growth;       /* bytes the rewrite adds (or takes, < 0) for the edits */
    df_ssize growth_skipped; /* ... when every skipped value is written null, instead of
                              the skipped edits only */
    df_ssize growth_keys;  /* ... more when keys are spelled with their index */
    int repeated;          /* a member repeated at a struct position, or an array where a
                              struct is read (serde's sequence form), or a model member */
    int model;             /* a member only the rmcp model reads (keep every pair) */
    uint64_t repeated_top; /* the top-level struct's members repeated (bit i: member i) */
    int top_keys;          /* members of the top-level object */
    unsigned watched;      /* what df_sj_glance saw of rules->watch (its callers' field) */
    int top;               /* the top-level value's first byte (-1: none) */
} df_sj_result;

/* What df_sj_scan writes besides the edits (its `write` bits). */
#define DF_SJ_WRITE_KEYS 1    /* each key of an object nested rules->keep levels or less
                                 with its index in the object: "a" -> "0:a" */
#define DF_SJ_WRITE_SKIPPED 2 /* every skipped value as null */

/* The length of the rewrite of a body scanned into r, with `write`. */
DF_INLINE df_ssize df_sj_rewritten(df_ssize n, const df_sj_result *r, int write) {
    n += write & DF_SJ_WRITE_SKIPPED ? r->growth_skipped : r->growth;
    if (write & DF_SJ_WRITE_KEYS) n += r->growth_keys;
    return n;
}

/* Whether a[:len] == b[:len] (names: a few bytes, no call to memcmp). */
DF_INLINE int df_sj_same(const unsigned char *a, const unsigned char *b, df_ssize len) {
    df_ssize i;
    for (i = 0; i < len; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* A name's first 8 bytes (zeros past its end) as one word; `avail` bytes can be read
   at name (8 or more: one unaligned load). */
DF_INLINE uint64_t df_sj_head(const unsigned char *name, df_ssize len, df_ssize avail) {
    unsigned char bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint64_t w;
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
    if (avail >= 8) {
        memcpy(&w, name, 8);
        return len >= 8 ? w : w & ((1ULL << (8 * len)) - 1u);
    }
#else
    (void)avail;
#endif
    memcpy(bytes, name, (size_t)(len < 8 ? len : 8));
    memcpy(&w, bytes, 8);
    return w;
}

/* The slot of a name in a position's table: its head and length. */
DF_INLINE unsigned df_sj_hash(uint64_t head, df_ssize len) {
    return ((unsigned)((head * 0x9E3779B97F4A7C15ULL) >> 58) ^ (unsigned)len) & (DF_SJ_SLOTS - 1);
}

/* Fill each position's slots from its members' names (open addressing); 0, or -1 when a
   position has more than DF_SJ_MAX_MEMBERS members or a name is longer than
   DF_SJ_NAME_MAX. Called once, before any scan. */
DF_INLINE int df_sj_index(df_sj_position *positions, int count, const df_sj_member *members) {
    int k, i;
    unsigned h;
    uint64_t head;
    for (k = 0; k < count; k++) {
        if (positions[k].count > DF_SJ_MAX_MEMBERS) return -1;
        for (i = 0; i < DF_SJ_SLOTS; i++) {
            positions[k].slots[i] = -1;
            positions[k].heads[i] = 0;
            positions[k].lens[i] = 0;
        }
        for (i = positions[k].first; i < positions[k].first + positions[k].count; i++) {
            if (members[i].len > DF_SJ_NAME_MAX) return -1;
            head = df_sj_head(members[i].name, members[i].len, 0);
            h = df_sj_hash(head, members[i].len);
            while (positions[k].slots[h] >= 0) h = (h + 1) & (DF_SJ_SLOTS - 1);
            positions[k].slots[h] = (short)i;
            positions[k].heads[h] = head;
            positions[k].lens[h] = (unsigned char)members[i].len;
            positions[k].bits[h] = (unsigned char)(i - positions[k].first);
            positions[k].flags[h] = (unsigned char)members[i].flags;
            positions[k].children[h] = (short)members[i].child;
        }
    }
    return 0;
}

/* The slot of position `at`'s table that holds the member named by the key p[j:end]
   (escapes undone when escaped), or -1. */
DF_INLINE int df_sj_member_of(const df_sj_rules *rules, int at, const unsigned char *p,
                              df_ssize n, df_ssize j, df_ssize end, int escaped) {
    const df_sj_position *pos = &rules->positions[at];
    unsigned char buf[DF_SJ_NAME_MAX];
    const unsigned char *key = p + j;
    df_ssize len = end - j, avail = n - j;
    uint64_t head;
    unsigned h;
    int i;
    if (escaped) {
        len = df_sj_unescape(p, j, end, buf);
        if (len < 0) return -1;
        key = buf;
        avail = 0;
    }
    if (len > DF_SJ_NAME_MAX) return -1;
    head = df_sj_head(key, len, avail);
    for (h = df_sj_hash(head, len); (i = pos->slots[h]) >= 0; h = (h + 1) & (DF_SJ_SLOTS - 1)) {
        if (pos->heads[h] != head || pos->lens[h] != len) continue;
        if (len <= 8 || df_sj_same(rules->members[i].name + 8, key + 8, len - 8)) return (int)h;
    }
    return -1;
}

/* One open array or object of df_sj_scan. */
typedef struct {
    int object;
    int position; /* its struct position, or -1 */
    int items;    /* the position of its items (values), or -1 */
    uint64_t seen;
    df_ssize index; /* members so far */
} df_sj_level;

/* The writer of df_sj_scan: copies the body, one replaced token at a time. */
typedef struct {
    unsigned char *out;
    df_ssize cap, at, copied;
} df_sj_out;

/* Copy p[copied:i] and reserve `more` bytes; 0 when the buffer is too small. */
DF_INLINE int df_sj_put(df_sj_out *w, const unsigned char *p, df_ssize i, df_ssize more) {
    df_ssize run = i - w->copied;
    if (run < 0 || w->at + run + more > w->cap) return 0;
    memcpy(w->out + w->at, p + w->copied, (size_t)run);
    w->at += run;
    w->copied = i;
    return 1;
}

DF_INLINE int df_sj_digits(uint64_t v) {
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* df_sj_scan(p, n, rules, &r, out, cap, write): read the body p[:n] as serde_json does
   (see the top of this file); r says what was found. With out == NULL, returns 0. With
   an output buffer of cap bytes (df_sj_rewritten of a scan of the same bytes), writes
   the body again and returns its length: each number msgspec would read otherwise than
   serde_json spelled as df_write_f64 spells serde_json's f64; each skipped value that
   msgspec would not skip as serde_json does (one nested past DF_SJ_SKIP_DEPTH, or with a
   surrogate escape) written null; and what `write` asks (DF_SJ_WRITE_*). Returns -1
   when the body does not read as serde_json reads it, or the output does not fit (the
   bytes changed since the first scan). */
DF_INLINE df_ssize df_sj_scan(const unsigned char *p, df_ssize n, const df_sj_rules *rules,
                              df_sj_result *r, unsigned char *out, df_ssize cap, int write) {
    df_sj_level stack[DF_SJ_MAX_DEPTH + 1];
    df_sj_level *level = NULL;
    df_sj_out w;
    df_ssize i, k, key, deepest, index;
    int depth = 0, pending = rules->root, escaped, surrogate, kind, m, len, bit, pos;
    int why = DF_SJ_OK; /* set by the reader that fails, before it is read */
    unsigned char c, spelled[DF_F64_CHARS];
    double f = 0.0;
#define DF_SJ_REJECT(code, where) \
    do {                          \
        r->reason = (code);       \
        r->at = (where);          \
        return out ? -1 : 0;      \
    } while (0)
    memset(r, 0, sizeof *r);
    r->top = -1;
    w.out = out;
    w.cap = cap;
    w.at = 0;
    w.copied = 0;
    i = df_sj_ws(p, n, 0);
    if (i < n) r->top = p[i];
value:
    if (i >= n) DF_SJ_REJECT(DF_SJ_EXPECTED_VALUE, i);
    c = p[i];
    if (c == '{' || c == '[') {
        if (depth == DF_SJ_MAX_DEPTH) DF_SJ_REJECT(DF_SJ_DEPTH, i);
        level = &stack[++depth];
        level->object = c == '{';
        level->seen = 0;
        level->index = 0;
        level->position = -1;
        level->items = -1;
        if (pending >= 0) {
            if (rules->positions[pending].count == 0) {
                level->items = rules->positions[pending].items;
            } else if (c == '{') {
                level->position = pending;
            } else {
                r->repeated = 1; /* serde's sequence form of a struct */
                if (rules->positions[pending].model_below) r->model = 1;
            }
        }
        i = df_sj_ws(p, n, i + 1);
        if (i < n && p[i] == (c == '{' ? '}' : ']')) {
            depth--;
            i++;
            goto after;
        }
        if (c == '{') goto key;
        pending = level->items;
        goto value;
    }
    if (c == '"') {
        surrogate = 0;
        k = df_sj_string(p, n, i + 1, 1, &escaped, &surrogate, &why);
        if (k < 0) DF_SJ_REJECT(why, i);
        i = k + 1;
    } else if (c == '-' || DF_IS_DIGIT(c)) {
        k = df_sj_number(p, n, i, &kind, &f);
        if (kind == DF_NUM_INVALID) DF_SJ_REJECT(DF_SJ_NUMBER, i);
        if (kind == DF_NUM_RANGE) DF_SJ_REJECT(DF_SJ_RANGE, i);
        if (kind == DF_NUM_F64) {
            r->edits++;
            len = df_write_f64(f, spelled);
            r->growth += len - (k - i);
            r->growth_skipped += len - (k - i);
            if (out) {
                if (!df_sj_put(&w, p, i, len)) return -1;
                memcpy(out + w.at, spelled, (size_t)len);
                w.at += len;
                w.copied = k;
            }
        }
        i = k;
    } else {
        k = df_sj_literal(p, n, i);
        if (k < 0) DF_SJ_REJECT(DF_SJ_EXPECTED_VALUE, i);
        i = k;
    }
after:
    if (depth == 0) {
        i = df_sj_ws(p, n, i);
        if (i != n) DF_SJ_REJECT(DF_SJ_TRAILING, i);
        if (out) {
            if (!df_sj_put(&w, p, n, 0)) return -1;
            return w.at;
        }
        return 0;
    }
    i = df_sj_ws(p, n, i);
    level = &stack[depth];
    if (i < n && p[i] == ',') {
        i = df_sj_ws(p, n, i + 1);
        if (level->object) goto key;
        pending = level->items;
        goto value;
    }
    if (i < n && p[i] == (level->object ? '}' : ']')) {
        depth--;
        i++;
        goto after;
    }
    DF_SJ_REJECT(depth == 1 && rules->direct && level->object ? DF_SJ_EXPECTED_COMMA_TOP
                                                              : DF_SJ_EXPECTED_COMMA,
                 i);
key:
    level = &stack[depth];
    if (i >= n || p[i] != '"') DF_SJ_REJECT(DF_SJ_KEY, i);
    key = i + 1;
    surrogate = 0;
    k = df_sj_string(p, n, key, 1, &escaped, &surrogate, &why);
    if (k < 0) DF_SJ_REJECT(why, i);
    index = level->index++;
    if (depth <= rules->keep) {
        len = index < 10 ? 2 : index < 100 ? 3 : df_sj_digits((uint64_t)index) + 1;
        r->growth_keys += len;
        if (out && (write & DF_SJ_WRITE_KEYS)) {
            if (!df_sj_put(&w, p, key, len)) return -1;
            w.at += len;
            w.out[w.at - 1] = ':';
            for (bit = 2; bit <= len; bit++) {
                w.out[w.at - bit] = (unsigned char)('0' + index % 10);
                index /= 10;
            }
        }
    }
    i = df_sj_ws(p, n, k + 1);
    if (i >= n || p[i] != ':') DF_SJ_REJECT(DF_SJ_COLON, i);
    i = df_sj_ws(p, n, i + 1);
    if (depth == 1) r->top_keys++;
    pending = level->items;
    pos = level->position;
    if (pos < 0) goto value;
    m = df_sj_member_of(rules, pos, p, n, key, k, escaped);
    if (m >= 0) {
        if (rules->positions[pos].flags[m] & DF_SJ_MODEL) r->repeated = r->model = 1;
        bit = rules->positions[pos].bits[m];
        if (level->seen >> bit & 1u) {
            r->repeated = 1;
            if (depth == 1) r->repeated_top |= 1ULL << bit;
        }
        level->seen |= 1ULL << bit;
        pending = rules->positions[pos].children[m];
        goto value;
    }
    pending = -1;
    if (depth != 1 || !rules->direct) goto value;
    /* a member the directly read top-level struct does not have: ignore_value */
    surrogate = 0;
    k = df_sj_ignore(p, n, i, &deepest, &surrogate, &why, &key);
    if (k < 0) DF_SJ_REJECT(why, key);
    r->skipped++;
    r->growth_skipped += 4 - (k - i);
    bit = deepest > DF_SJ_SKIP_DEPTH || surrogate; /* msgspec would not skip it */
    if (bit) {
        r->edits++;
        r->growth += 4 - (k - i);
    }
    if (out && (bit || (write & DF_SJ_WRITE_SKIPPED))) {
        if (!df_sj_put(&w, p, i, 4)) return -1;
        memcpy(out + w.at, "null", 4);
        w.at += 4;
        w.copied = k;
    }
    i = k;
    goto after;
#undef DF_SJ_REJECT
}

#endif /* DF_SERDE_JSON_SCAN_H */
