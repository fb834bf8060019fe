/*
 * xoshiro256** (Blackman and Vigna) and the splitmix64 that seeds it: the
 * tests' generator, for the C++ suites (testutil's bt::Rng) and the C
 * tools (ct/dudect.c).  Fast and reproducible from a seed; not for keys.
 */
#ifndef BIGMONT_XOSHIRO_H
#define BIGMONT_XOSHIRO_H

#include <stdint.h>

static inline uint64_t xoshiro_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* The next output of the state s[4]. */
static inline uint64_t xoshiro256ss_next(uint64_t s[4])
{
	const uint64_t result = xoshiro_rotl(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = xoshiro_rotl(s[3], 45);
	return result;
}

/* A state from one 64-bit seed, by splitmix64. */
static inline void xoshiro256ss_seed(uint64_t s[4], uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		s[i] = z ^ (z >> 31);
	}
}

#endif
