/* The SWAR path of the string loop (see _strings.h): 8-byte words, on every platform
 * (arm64, and x86-64 built with -DDF_SCALAR, run nothing else).
 */
#ifndef DF_STRINGS_SWAR_H
#define DF_STRINGS_SWAR_H

#include "_common.h"
#include "_strings_base.h"

/* SWAR: the high bit of each byte of x, gathered into 8 bits (no two terms of the
   product meet, so nothing carries). */
#define DF_GATHER(x) ((unsigned)((((x) >> 7) * 0x0102040810204080ULL) >> 56))

DF_INLINE void df_masks_swar(const unsigned char *p, df_masks *m) {
    const uint64_t ones = 0x0101010101010101ULL, low7 = 0x7F7F7F7F7F7F7F7FULL,
                   top = 0x8080808080808080ULL;
    uint64_t w, t;
    int k;
    m->quote = m->slash = m->control = m->high = 0;
    for (k = 0; k < 64; k += 8) {
        memcpy(&w, p + k, 8);
        t = w ^ (ones * 0x22); /* high bit of each byte: the byte is not 0 */
        m->quote |= (uint64_t)DF_GATHER(~(((t & low7) + low7) | t) & top) << k;
        t = w ^ (ones * 0x5C);
        m->slash |= (uint64_t)DF_GATHER(~(((t & low7) + low7) | t) & top) << k;
        m->control |= (uint64_t)DF_GATHER(~(((w & low7) + ones * 0x60) | w) & top) << k;
        m->high |= (uint64_t)DF_GATHER(w & top) << k;
    }
}

/* Copy the 64 bytes at s to d. */
DF_INLINE void df_copy_swar(unsigned char *d, const unsigned char *s) { memcpy(d, s, 64); }

/* df_plain_run(d, s, blocks, &o, &high, &flags): copy the 64-byte blocks at s to d + *o,
   at most `blocks` of them, while they hold no quote, backslash or control byte;
   returns how many were copied, with *o moved past them and *high |= 1 when they hold a
   byte >= 0x80 (flags untouched: the run of the paths with no df_simple_run). */
DF_INLINE df_ssize df_plain_run_swar(unsigned char *d, const unsigned char *s,
                                     df_ssize blocks, df_ssize *o, uint64_t *high,
                                     int *flags) {
    const uint64_t ones = 0x0101010101010101ULL, top = 0x8080808080808080ULL;
    uint64_t w[8], any, hi = 0, stop, x;
    df_ssize b;
    int k;
    (void)flags;
    d += *o;
    for (b = 0; b < blocks; b++, s += 64, d += 64) {
        memcpy(w, s, 64);
        stop = 0;
        any = 0;
        for (k = 0; k < 8; k++) {
            x = w[k];
            any |= x;
            /* a zero byte in x ^ '"', in x ^ '\\', a byte below 0x20: exact as a whole */
            stop |= ((x ^ (ones * 0x22)) - ones) & ~(x ^ (ones * 0x22));
            stop |= ((x ^ (ones * 0x5C)) - ones) & ~(x ^ (ones * 0x5C));
            stop |= (x - ones * 0x20) & ~x;
        }
        if (stop & top) break;
        memcpy(d, w, 64);
        hi |= any;
    }
    if (hi & top) *high |= 1;
    *o += 64 * b;
    return b;
}

/* df_stops(p) (DF_LOOP_STOPS): the quotes, backslashes and control bytes of the 64
   bytes at p, bit i for byte i; in a word of 8 bytes, a borrow may set bits after the
   first of them too. */
DF_INLINE uint64_t df_stops_swar(const unsigned char *p) {
    const uint64_t ones = 0x0101010101010101ULL, top = 0x8080808080808080ULL;
    uint64_t x, stop, m = 0;
    int k;
    for (k = 0; k < 64; k += 8) {
        memcpy(&x, p + k, 8);
        stop = ((x ^ (ones * 0x22)) - ones) & ~(x ^ (ones * 0x22));
        stop |= ((x ^ (ones * 0x5C)) - ones) & ~(x ^ (ones * 0x5C));
        stop |= (x - ones * 0x20) & ~x;
        m |= (uint64_t)DF_GATHER(stop & top) << k;
    }
    return m;
}

#define DF_LOOP(name) name##_swar
#define DF_LOOP_ATTR
#define DF_LOOP_MASKS df_masks_swar
#define DF_LOOP_COPY df_copy_swar
#define DF_LOOP_RUN df_plain_run_swar
#define DF_LOOP_RUN_AFTER(mk) (!((mk).slash | (mk).control | (mk).quote))
#define DF_LOOP_STOPS df_stops_swar
#define DF_LOOP_PLAIN df_plain_run_swar
#include "_strings_loops.h"

#endif /* DF_STRINGS_SWAR_H */
