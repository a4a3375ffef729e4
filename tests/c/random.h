/* The C tests' random numbers: xorshift64*, the same sequence on every machine for a
 * given seed. A test defines RANDOM_SEED before it includes this header, or takes the
 * default; each test program has one state of its own.
 */
#ifndef TESTS_RANDOM_H
#define TESTS_RANDOM_H

#ifndef RANDOM_SEED
#define RANDOM_SEED 0x2545F4914F6CDD1DULL
#endif

static unsigned long long rng_state = RANDOM_SEED;

/* The next 32 random bits. */
static unsigned next_random(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

#endif /* TESTS_RANDOM_H */
