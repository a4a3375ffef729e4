/* The glance of src/diverge_frames/_serde_json_glance.h, 64 bytes a block (df_sj_glance),
 * against the byte loop it is held to (df_sj_glance_bytes).
 *
 * Built and run by tests/test_scan_c.py twice: as the compiler builds the extension
 * (on x86-64 the blocks, on each path the CPU has: AVX2, SSE2) and with -DDF_SCALAR
 * (where df_sj_glance is the byte loop itself). Bodies: real frames, JSON generated with keys repeated, escaped, long
 * and non-ASCII, numbers plain and not, whitespace, nesting, each shifted across the
 * 64-byte blocks, and byte-level mutations of all of them. For every body and every
 * set of rules:
 *   - a 0 from the blocks is a 0 from the byte loop, with the same *top_keys and the same
 *     *watched (a 0 the byte loop would not give could let msgspec read a body otherwise
 *     than serde_json; a key watched for and missed, a result decoded the wrong way);
 *   - on a body generated with no key longer than 40 bytes, no whitespace run of 64
 *     bytes and nothing but ASCII and valid UTF-8, the two agree exactly (the blocks'
 *     extra 1s are kept to the cases the header names).
 * Each body is copied to an allocation of its exact length, so that a sanitizer or
 * valgrind sees a read past its end. Exit status 0 when every check holds.
 *
 *   cc -O2 -I src/diverge_frames tests/c/test_glance.c -o test_glance && ./test_glance
 */
#include <stdio.h>
#include <stdlib.h>

#include "_serde_json_glance.h"

#include "random.h"

static unsigned below(unsigned n) { return next_random() % n; }

#define CAP 8192
static unsigned char out[CAP];
static df_ssize used;
static int exotic; /* the body holds what only the blocks send to the scan */

static void put(const char *s) {
    size_t k = strlen(s);
    if (used + (df_ssize)k < CAP) {
        memcpy(out + used, s, k);
        used += (df_ssize)k;
    }
}

static void put_byte(unsigned char c) {
    if (used < CAP) out[used++] = c;
}

static void ws(void) {
    static const char *const forms[] = {"", "", "", "", " ", "\n", "\t ", "\r\n  "};
    unsigned k;
    if (below(40) == 0) { /* a run of 64 or more */
        for (k = 64 + below(20); k; k--) put_byte(' ');
        exotic = 1;
        return;
    }
    put(forms[below(8)]);
}

static const char *const KEYS[] = {
    "method", "params", "inputRequests", "_meta", "a", "b", "contents", "uri", "text",
    "blob", "mimeType", "code", "message", "data", "progressToken", "x\\u0041", "\\\"q",
    "\xc3\xbc", "caf\xc3\xa9", "k\\\\", "\xe2\x82\xac-key", "level", "logger",
};

static void key(void) {
    unsigned k;
    put_byte('"');
    if (below(30) == 0) { /* a long key: its quotes may be more than a block apart */
        for (k = 41 + below(90); k; k--) put_byte((unsigned char)('a' + below(3)));
        exotic = 1;
    } else if (below(8) == 0) { /* a short made-up one, repeats likely */
        for (k = 1 + below(12); k; k--) put_byte((unsigned char)('a' + below(2)));
    } else {
        put(KEYS[below(sizeof KEYS / sizeof KEYS[0])]);
    }
    put_byte('"');
}

static void string(void) {
    static const char *const parts[] = {
        "plain text", "\\n", "\\\"", "\\\\", "\\\\\\\"", "\\u00e9", "\\ud83d\\ude00", "\xc3\xa9",
        "\xf0\x9f\x98\x80", ":{[,]}", "-12", "e5", "\\/", "tok-\xc3\xbc-1",
    };
    unsigned k;
    put_byte('"');
    for (k = below(6); k; k--) put(parts[below(sizeof parts / sizeof parts[0])]);
    if (below(12) == 0)
        for (k = 30 + below(120); k; k--) put_byte((unsigned char)('a' + below(26)));
    put_byte('"');
}

static void number(void) {
    static const char *const forms[] = {
        "0", "1", "-1", "42", "-32042", "123456789012345", "1234567890123456", "-0", "00",
        "0.5", "1.0", "1e5", "-1E-5", "2e+3", "1e400", "-", "1.", "2e", "01", "9007199254740993",
    };
    put(forms[below(sizeof forms / sizeof forms[0])]);
}

static void value(int depth);

static void object(int depth) {
    unsigned k, count = below(7);
    put_byte('{');
    ws();
    for (k = 0; k < count; k++) {
        if (k) {
            put_byte(',');
            ws();
        }
        key();
        ws();
        put_byte(':');
        ws();
        value(depth + 1);
        ws();
    }
    put_byte('}');
}

static void array(int depth) {
    unsigned k, count = below(5);
    put_byte('[');
    ws();
    for (k = 0; k < count; k++) {
        if (k) {
            put_byte(',');
            ws();
        }
        value(depth + 1);
        ws();
    }
    put_byte(']');
}

static void value(int depth) {
    static const char *const literals[] = {"true", "false", "null"};
    unsigned pick = below(10);
    if (depth > 5 && pick < 5) pick += 5; /* shallower as it goes */
    if (pick < 3) {
        object(depth);
    } else if (pick < 4) {
        array(depth);
    } else if (pick < 7) {
        string();
    } else if (pick < 9) {
        number();
    } else {
        put(literals[below(3)]);
    }
}

/* ---- the checks */

static int failures = 0;
static long cases = 0, agreed = 0, kept = 0;

static df_sj_member MODEL = {(const unsigned char *)"inputRequests", 13};
static df_sj_member WATCH[4] = {{(const unsigned char *)"blob", 4},
                                 {(const unsigned char *)"text", 4},
                                 {(const unsigned char *)"a", 1},
                                 {(const unsigned char *)"progressToken", 13}};

static void report(const char *what, const unsigned char *p, df_ssize n, int deepest, int got,
                   int got_keys, int want, int want_keys) {
    df_ssize i;
    if (failures++ < 5) {
        fprintf(stderr, "FAIL %s (n=%ld, deepest=%d): blocks %d (%d keys), bytes %d (%d keys):",
                what, (long)n, deepest, got, got_keys, want, want_keys);
        for (i = 0; i < n; i++) fprintf(stderr, " %02x", p[i]);
        fprintf(stderr, "\n");
    }
}

/* What *watched must be for a body a glance says 0 for, found apart from the glance's
   key rule (df_sj_glance_key): the names of rules->watch among the keys, not escaped, of
   the objects nested rules->deepest levels or less, up to a closing bracket with none
   open (where the glance stops). A key is the string last read before a colon. */
static unsigned watched_reference(const unsigned char *p, df_ssize n, const df_sj_rules *rules) {
    df_ssize i = 0, key = 0, key_end = 0;
    int depth = 0, escaped = 0, m;
    unsigned seen = 0;
    while (i < n) {
        if (p[i] == '"') {
            key = ++i;
            escaped = 0;
            for (; i < n && p[i] != '"'; i++)
                if (p[i] == '\\') escaped = 1, i++;
            key_end = i++;
            continue;
        }
        if (p[i] == ':' && depth >= 1 && depth <= rules->deepest && !escaped)
            for (m = 0; m < rules->n_watch; m++)
                if (rules->watch[m].len == key_end - key &&
                    memcmp(rules->watch[m].name, p + key, (size_t)(key_end - key)) == 0)
                    seen |= 1u << m;
        if (p[i] == '{' || p[i] == '[') depth++;
        if ((p[i] == '}' || p[i] == ']') && --depth < 0) break;
        i++;
    }
    return seen;
}

/* The glance's paths (df_string_path values) to check: AVX2 and SSE2 where the CPU
   has them (df_sj_glance takes the AVX2 path from 2 up), else the byte loop alone. */
static int paths[2], n_paths;

/* Both glances on p[:n] (copied to its exact length), under each set of rules, the
   blocks on each path. */
static void check(const unsigned char *p, df_ssize n, int exact) {
    df_sj_rules rules;
    unsigned char *copy = (unsigned char *)malloc(n ? (size_t)n : 1);
    int deepest, models, got, want, got_keys, want_keys, path;
    unsigned got_watched, want_watched;
    memcpy(copy, p, (size_t)n);
    for (deepest = 1; deepest <= DF_SJ_GLANCE_DEPTH; deepest++) {
        for (models = 0; models <= 1; models++) {
          for (path = 0; path < n_paths; path++) {
            memset(&rules, 0, sizeof rules);
            rules.deepest = deepest;
            rules.models = &MODEL;
            rules.n_models = models;
            rules.watch = WATCH;
            rules.n_watch = models ? 4 : 2;
            if (df_sj_glance_ready(&rules) != 0) report("rules not ready", p, 0, 0, 0, 0, 0, 0);
            df_string_path = paths[path];
            got_keys = want_keys = -1;
            got_watched = want_watched = 99;
            got = df_sj_glance(copy, n, &rules, &got_keys, &got_watched);
            want = df_sj_glance_bytes(copy, n, &rules, &want_keys, &want_watched);
            cases++;
            if (got == 0 && (want != 0 || got_keys != want_keys))
                report("a 0 the byte loop does not give", copy, n, deepest, got, got_keys, want,
                       want_keys);
            else if (got == 0 && got_watched != want_watched)
                report("keys watched for seen otherwise", copy, n, deepest, (int)got_watched,
                       got_keys, (int)want_watched, want_keys);
            else if (got == 0 && got_watched != watched_reference(copy, n, &rules))
                report("keys watched for not the keys", copy, n, deepest, (int)got_watched,
                       got_keys, (int)watched_reference(copy, n, &rules), want_keys);
            else if (got != want && exact)
                report("a 1 on an ordinary body", copy, n, deepest, got, got_keys, want,
                       want_keys);
            else if (got == want)
                agreed++;
            else
                kept++;
          }
        }
    }
    free(copy);
}

static void mutate_and_check(const unsigned char *p, df_ssize n) {
    static const unsigned char bytes[] = {'"',  '\\', '{', '}', '[', ']', ':', ',', '-',
                                          '0',  '1',  '9', '.', 'e', 'E', '+', ' ', '\n',
                                          0x80, 0xC3, 0xBC, 0xFF, 'a', '/', 0x01};
    unsigned char buf[CAP + 8];
    df_ssize m, at, k;
    int round;
    for (round = 0; round < 8; round++) {
        if (n + 4 > CAP) return;
        memcpy(buf, p, (size_t)n);
        m = n;
        for (k = 1 + below(3); k; k--) {
            at = m ? (df_ssize)below((unsigned)m) : 0;
            switch (below(3)) {
            case 0: /* replace */
                if (m) buf[at] = bytes[below(sizeof bytes)];
                break;
            case 1: /* insert */
                memmove(buf + at + 1, buf + at, (size_t)(m - at));
                buf[at] = bytes[below(sizeof bytes)];
                m++;
                break;
            default: /* delete */
                if (m) {
                    memmove(buf + at, buf + at + 1, (size_t)(m - at - 1));
                    m--;
                }
            }
        }
        check(buf, m, 0);
    }
}

static const char *const REAL[] = {
    "{\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"logger\":"
    "\"everything-server\",\"data\":\"Roots updated: 2 root(s) received from client\"}}",
    "{\"method\":\"notifications/progress\",\"params\":{\"progress\":1,\"total\":4,"
    "\"progressToken\":\"tok-\xc3\xbc-1\"}}",
    "{\"method\":\"notifications/tools/list_changed\"}",
    "{\"method\":\"notifications/stderr\",\"params\":{\"content\":\"warn: cache miss\\n\"}}",
    "{\"contents\":[{\"uri\":\"demo://resource/dynamic/text/1\",\"mimeType\":\"text/plain\","
    "\"text\":\"Resource 1: This is a plaintext resource created at 6:10:35 PM\"}]}",
    "{\"code\":-32042,\"message\":\"MCP error -32042: This request requires browser-based "
    "authorization.\",\"data\":{\"elicitations\":[{\"mode\":\"url\",\"url\":"
    "\"https://modelcontextprotocol.io\",\"message\":\"Open this link to satisfy the "
    "prerequisite, then retry the request.\",\"elicitationId\":\"f218f3fc\"}]}}",
    "{\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":"
    "{\"a\":1,\"a\":2},\"level\":\"debug\"}}",
    "{\"method\":\"notifications/progress\",\"params\":{\"progress\":1e400,\"progressToken\":0}}",
    "{ \"method\" : \"notifications/cancelled\" , \"params\" : { \"requestId\" : 7 } }",
};

int main(void) {
    unsigned char base[CAP];
    df_ssize n, shift;
    unsigned k, r;
    df_strings_init();
#if DF_AVX2
    if (df_string_path >= 2) paths[n_paths++] = 2;
#endif
    paths[n_paths++] = DF_SSE2;
    for (r = 0; r < sizeof REAL / sizeof REAL[0]; r++) {
        for (shift = 0; shift < 70; shift++) {
            used = 0;
            for (k = 0; k < shift; k++) put_byte(' ');
            put(REAL[r]);
            check(out, used, 1);
            mutate_and_check(out, used);
        }
    }
    for (k = 0; k < 30000; k++) {
        used = 0;
        exotic = 0;
        for (shift = below(70); shift; shift--) put_byte(' ');
        value(0);
        n = used;
        memcpy(base, out, (size_t)n);
        check(base, n, !exotic);
        mutate_and_check(base, n);
    }
    printf("DF_SSE2=%d, %d paths (best %d): %ld cases, %ld agreed, %ld sent to the scan by "
           "the blocks alone\n",
           DF_SSE2, n_paths, paths[0], cases, agreed, kept);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("ok: the glance matches its reference\n");
    return 0;
}
