/* What every C header of the compiled twins shares: the portability macros (inlining,
 * the instruction sets compiled in, bit scans) and the index type.
 *
 * Plain C, no Python objects, so that each header with it builds on its own (the tests
 * in tests/c/). Include it first: every other header here does.
 */
#ifndef DF_COMMON_H
#define DF_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ inlining */

#if defined(_MSC_VER) && !defined(__clang__)
#define DF_INLINE static __inline
#define DF_ALWAYS_INLINE static __forceinline
#define DF_NOINLINE static __declspec(noinline)
#else
#define DF_INLINE static inline
#define DF_ALWAYS_INLINE static inline __attribute__((always_inline))
#define DF_NOINLINE static __attribute__((noinline))
#endif

/* A hot function out of line, started on a 64-byte boundary: where its loops fall
   against the instruction fetch's boundaries no longer moves with the code the compiler
   places before it (the AVX2 glance's loop ran 20% slower on a body of long numbers in
   one build than in another whose changes were all elsewhere). */
#if defined(_MSC_VER) && !defined(__clang__)
#define DF_HOT_ALIGN
#else
#define DF_HOT_ALIGN __attribute__((aligned(64)))
#endif

/* Indexes and lengths: the width of Py_ssize_t on every platform CPython supports. */
typedef ptrdiff_t df_ssize;

/* ------------------------------------------------------------------ instruction sets */

/* DF_SSE2, DF_AVX2, DF_AVX512: which SIMD code is compiled in. DF_SCALAR (the arm64
   path, tested on x86-64 too) compiles none; DF_NO_AVX2 and DF_NO_AVX512 leave those
   out. AVX2 and AVX-512 are compiled for their functions' own targets and chosen at
   run time (_strings.h); SSE2 is baseline x86-64. */
#if !defined(DF_SCALAR) && (defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64))
#define DF_SSE2 1
#include <emmintrin.h>
#else
#define DF_SSE2 0
#endif
#if DF_SSE2 && (defined(__GNUC__) || defined(__clang__)) && !defined(DF_NO_AVX2)
#define DF_AVX2 1
#include <immintrin.h>
#else
#define DF_AVX2 0
#endif
#if DF_AVX2 && !defined(DF_NO_AVX512)
#define DF_AVX512 1
#else
#define DF_AVX512 0
#endif

/* ------------------------------------------------------------------ bits */

/* The index of the lowest (df_lowest_bit, df_lowest_bit64, df_ctz64) or highest
   (df_clz64: 63 minus it) set bit of a nonzero word; df_add_overflow: a + b into *sum,
   1 when it carried out. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
DF_INLINE unsigned df_lowest_bit(unsigned m) {
    unsigned long at;
    _BitScanForward(&at, m);
    return (unsigned)at;
}
DF_INLINE int df_clz64(uint64_t x) {
    unsigned long at;
    _BitScanReverse64(&at, x);
    return 63 - (int)at;
}
DF_INLINE int df_ctz64(uint64_t x) {
    unsigned long at;
    _BitScanForward64(&at, x);
    return (int)at;
}
DF_INLINE int df_add_overflow(uint64_t a, uint64_t b, uint64_t *sum) {
    *sum = a + b;
    return *sum < a;
}
#else
#define df_lowest_bit(m) ((unsigned)__builtin_ctz(m))
#define df_clz64(x) __builtin_clzll(x)
#define df_ctz64(x) __builtin_ctzll(x)
#define df_add_overflow(a, b, sum) __builtin_add_overflow((a), (b), (sum))
#endif
#define df_lowest_bit64(m) ((unsigned)df_ctz64(m))

/* Free-threaded CPython (3.13t, 3.14t): set when Python.h was included first. */
#ifdef Py_GIL_DISABLED
#define DF_GIL_DISABLED 1
#else
#define DF_GIL_DISABLED 0
#endif

#endif /* DF_COMMON_H */
