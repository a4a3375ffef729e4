/* JSON string content into text, for the long-string fast paths of _frames_c.pyx.
 *
 * Plain C, no Python objects (the extension builds the str from what these write), so
 * that tests/c/test_strings.c checks every path against byte-by-byte references, once
 * as the extension is built and once with -DDF_SCALAR.
 *
 *   df_string_copy      the content of a JSON string, up to its closing quote, copied
 *                       with each escape replaced by the UTF-8 it stands for, with
 *                       serde_json's rules for what a str may not hold;
 *   df_stop_index       the next quote, backslash or control byte (the end of a string
 *                       with no escape);
 *   df_string_write     a str's UTF-8 written as the content of a JSON string, escaped
 *                       as serde_json escapes it (encode's long strings);
 *   df_find_string_key  the next `"text":"`, `"blob":"` (or other name) in a range;
 *   df_count_empty      how many `""` a range holds;
 *   df_utf8_shape, df_utf8_decode, df_ucs_room, df_ucs_encode
 *                       UTF-8 into a str's code units and back (_transcode_avx512.h,
 *                       _transcode_avx2.h), on the AVX-512 and AVX2 paths
 *                       (df_transcodes() says whether): elsewhere the extension calls
 *                       CPython's own codec.
 *
 * df_string_copy reads 64 bytes a step as bit masks of the bytes that matter (quotes,
 * backslashes, control bytes, bytes >= 0x80; simdjson's way: a run of backslashes
 * escapes the byte after it when its length is odd, found for all the runs of a block
 * by one addition). Paths: AVX2 when the CPU has it (GCC and Clang on x86-64, chosen at
 * run time: wheels target baseline x86-64), else SSE2, else (arm64, or -DDF_SCALAR)
 * 8-byte SWAR words. The loop is written once (_strings_loops.h) and compiled once per
 * path. One header a path (as orjson keeps one file an instruction set): _strings_swar.h,
 * _strings_sse2.h, _strings_avx2.h, _strings_avx512.h, what they share in
 * _strings_base.h; this one holds the run-time dispatch alone (and includes the key
 * searches, _strings_keys.h).
 */
#ifndef DF_STRINGS_H
#define DF_STRINGS_H

#include "_common.h"
#include "_strings_avx2.h"
#include "_strings_avx512.h"
#include "_strings_base.h"
#include "_strings_keys.h"
#include "_strings_sse2.h"
#include "_strings_swar.h"
#include "_transcode_avx2.h"
#include "_transcode_avx512.h"

/* Which loops run: 3 AVX-512, 2 AVX2, 1 SSE2, 0 SWAR (and which glance: its AVX2 path
   from 2 up, _serde_json_glance.h). df_strings_init sets the best the CPU has (call it
   once, before the functions below); a test may lower it. */
static int df_string_path = DF_SSE2;

DF_INLINE void df_strings_init(void) {
#if DF_AVX2
    __builtin_cpu_init();
    df_strings_init_avx2();
    df_transcode_init_avx2();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) df_string_path = 2;
#endif
#if DF_AVX512
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("bmi2"))
        df_string_path = 3;
#endif
}

/* ------------------------------------------------------------------ dispatch */

/* df_string_copy(d, cap, p, n, &at): copy the content of the JSON string that starts
   at p[at.start] (df_copy_start) to d, which has room for cap bytes, each escape
   replaced by the UTF-8 of what it stands for; bytes >= 0x80 are copied as they are
   (their UTF-8 is the caller's to check). Returns the index in p of the closing quote,
   with at.o the length written and at.flags what the content held (DF_STR_ESCAPED,
   DF_STR_HIGH: what was written holds a byte >= 0x80); or -1 when the string is not
   closed in p[:n], or holds a control byte or an escape serde_json rejects in a str
   (df_escape); or -2 when d needs more room: call again with the same at and d grown
   (its first at.o bytes kept), which n - at.start bytes always are. */
DF_INLINE df_ssize df_string_copy(unsigned char *d, df_ssize cap, const unsigned char *p,
                                  df_ssize n, df_copy *at) {
#if DF_AVX512
    if (df_string_path == 3) return df_string_copy_avx512(d, cap, p, n, at);
#endif
#if DF_AVX2
    if (df_string_path == 2) return df_string_copy_avx2(d, cap, p, n, at);
#endif
#if DF_SSE2
    if (df_string_path == 1) return df_string_copy_sse2(d, cap, p, n, at);
#endif
    return df_string_copy_swar(d, cap, p, n, at);
}

/* df_stop_index(p, n, j): the index of the first quote, backslash or control byte in
   p[j:n], or n when there is none: where a string with no escape ends (or is not what
   it seemed). */
DF_INLINE df_ssize df_stop_index(const unsigned char *p, df_ssize n, df_ssize j) {
#if DF_AVX512
    if (df_string_path == 3) return df_stop_index_avx512(p, n, j);
#endif
#if DF_AVX2
    if (df_string_path == 2) return df_stop_index_avx2(p, n, j);
#endif
#if DF_SSE2
    if (df_string_path == 1) return df_stop_index_sse2(p, n, j);
#endif
    return df_stop_index_swar(p, n, j);
}

/* df_string_write(d, cap, s, n, &at): the UTF-8 bytes s[at:n] written at d, which has
   room for cap bytes, as serde_json writes the content of a str (no quotes around it):
   \" \\ \n \r \t \b \f, \u00XX (lowercase hex) for the other control bytes, every
   other byte as it is. Returns the length written, with at moved past what was read: n
   when all of it, which DF_WRITE_ROOM(n - at) bytes of room always are; with less, as
   much as fits (call again with more: room for the lesser of 6 (n - at) and
   2 (n - at) + 768 bytes always goes on). Each path stores 64 bytes a step, past what
   it has written but never past cap. */
#define DF_WRITE_ROOM(n) (6 * (n))
DF_INLINE df_ssize df_string_write(unsigned char *d, df_ssize cap, const unsigned char *s,
                                   df_ssize n, df_ssize *at) {
#if DF_AVX512
    if (df_string_path == 3) return df_string_write_avx512(d, cap, s, n, at);
#endif
#if DF_AVX2
    if (df_string_path == 2) return df_string_write_avx2(d, cap, s, n, at);
#endif
#if DF_SSE2
    if (df_string_path == 1) return df_string_write_sse2(d, cap, s, n, at);
#endif
    return df_string_write_swar(d, cap, s, n, at);
}

/* ------------------------------------------------------------------ transcoding */

/* 1 when the functions below run (the AVX-512 and AVX2 paths), 0 when they do
   nothing: then CPython's UTF-8 codec is the one (no scalar kernel beats it by enough;
   docs/performance.md, "Mixed UTF-8 decode"). */
DF_INLINE int df_transcodes(void) { return df_string_path >= 2; }

/* df_utf8_shape(s, n, &chars): the characters of the UTF-8 bytes s[0:n] and the
   maxchar PyUnicode_New wants for them (exact when they are valid UTF-8). */
DF_INLINE uint32_t df_utf8_shape(const unsigned char *s, df_ssize n, df_ssize *chars) {
#if DF_AVX512
    if (df_string_path == 3) return df_utf8_shape_avx512(s, n, chars);
#endif
#if DF_AVX2
    if (df_string_path == 2) return df_utf8_shape_avx2(s, n, chars);
#endif
    (void)s;
    *chars = n;
    return 0x10FFFF;
}

/* df_utf8_decode(d, kind, chars, s, n): s[0:n] into df_utf8_shape's count (chars) of
   code units of kind (1, 2, 4) at d, which has room for chars units and no more; 0, or
   -1 when s[0:n] is not well-formed UTF-8 (as Rust's str and CPython's strict decoder
   define it), or when no kernel runs (df_transcodes). */
DF_INLINE int df_utf8_decode(void *d, int kind, df_ssize chars, const unsigned char *s,
                             df_ssize n) {
#if DF_AVX512
    if (df_string_path == 3) return df_utf8_decode_avx512(d, kind, s, n);
#endif
#if DF_AVX2
    if (df_string_path == 2) return df_utf8_decode_avx2(d, kind, chars, s, n);
#endif
    (void)d, (void)kind, (void)chars, (void)s, (void)n;
    return -1;
}

/* df_ucs_room(kind, n): the room df_ucs_encode wants for n code units of kind: their
   longest UTF-8 (two bytes a UCS-1 unit, three a UCS-2 one, four a UCS-4 one) and the
   64 bytes a step stores. */
DF_INLINE df_ssize df_ucs_room(int kind, df_ssize n) {
    return n * (kind == 1 ? 2 : kind == 2 ? 3 : 4) + 64;
}

/* df_ucs_encode(d, u, kind, n): the n code units of kind at u written at d (room for
   df_ucs_room(kind, n) bytes) as UTF-8; the length written, or -1 for a surrogate among
   them, or when no kernel runs (df_transcodes). */
DF_INLINE df_ssize df_ucs_encode(unsigned char *d, const void *u, int kind, df_ssize n) {
#if DF_AVX512
    if (df_string_path == 3) return df_ucs_encode_avx512(d, u, kind, n);
#endif
#if DF_AVX2
    if (df_string_path == 2) return df_ucs_encode_avx2(d, u, kind, n);
#endif
    (void)d, (void)u, (void)kind, (void)n;
    return -1;
}

#endif /* DF_STRINGS_H */
