/* serde_json 1.0.154's reading, in C, for the compiled hot path (_frames_c.pyx).
 *
 * The twin of _serde_json.py's rules, without building values:
 *
 * - df_sj_number: one JSON number token as serde_json reads it into a Value
 *   (parse_integer, parse_decimal, parse_exponent, f64_from_parts; no float_roundtrip):
 *   whether msgspec reads the token to the same value ("plain"), else the f64 serde_json
 *   computes, or "number out of range".
 * - df_write_f64: a short decimal spelling of any finite f64 that every correctly
 *   rounding reader (msgspec, Python's float) reads back to that f64.
 * - df_sj_scan: a whole body as serde_json reads it (syntax, UTF-8, escapes, surrogates,
 *   depth 128, numbers; the values of members a directly read struct does not have
 *   skipped as ignore_value skips them; a raw control character in a string is left to
 *   msgspec, which rejects it as serde_json does), and where msgspec would read it otherwise:
 *   tokens to rewrite, a member repeated at a struct position (the positions come from
 *   the caller: _rmcp.STRUCT_POSITIONS). With an output buffer it writes the body again
 *   with those tokens spelled so that msgspec reads serde_json's values.
 * - df_sj_exponents: the exponents msgspec writes as "1e16" and serde_json as "1e+16".
 *
 * Nothing here allocates (except df_sj_ignore for a skipped value nested deeper than
 * 4096 levels), touches Python objects or recurses; every read is bounds-checked, so a
 * buffer that changes while it is read gives some answer, never a read out of bounds.
 * tests/c/test_serde_json.c builds it alone.
 *
 * One header an algorithm (as msgspec keeps atof.h apart from ryu.h), each included
 * here: _serde_json_number.h (df_sj_number), _write_f64.h (df_write_f64,
 * df_sj_exponents), _serde_json_tokens.h (strings, literals, df_sj_ignore),
 * _serde_json_scan.h (df_sj_scan and the struct positions), _serde_json_glance.h
 * (df_sj_glance).
 */
#ifndef DF_SERDE_JSON_H
#define DF_SERDE_JSON_H

#include "_common.h"
#include "_serde_json_number.h"
#include "_write_f64.h"
#include "_serde_json_tokens.h"
#include "_serde_json_scan.h"
#include "_serde_json_glance.h"

#endif /* DF_SERDE_JSON_H */
