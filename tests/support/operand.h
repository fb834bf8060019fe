/*
 * Operands for the BIGNUM-level tests (add, sub, shift, cmp, mul, div,
 * copy, bytes): a BIGNUM input with its GMP value, a snapshot that proves
 * an input unchanged, an output in a random stale state, the check that a
 * result equals GMP's and is normalised, and the lengths and edge values
 * every such suite walks through.
 */
#ifndef BIGMONT_OPERAND_H
#define BIGMONT_OPERAND_H

#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "testutil.h"

namespace bt {

/* A BIGNUM input built from raw chunks: it may carry high zero chunks
 * inside len (fill makes some, pad adds more), a negative sign, or len 0
 * (garbage in value[0], which must be read as zero).  m is its value. */
struct Operand {
	Big b;
	Mpz m;
	Operand() : b(1) {}
	/* v as the low chunks, pad zero chunks above them, the sign. */
	void set(const std::vector<chunk> &v, int pad, int sign);
	void set_mpz(const mpz_t x, int pad = 0);
	/* len chunks of random density, sometimes padded, sometimes negative
	 * (when allowed), rarely len 0. */
	void random(Rng &rng, int len, bool allow_negative);
	void swap(Operand &o)
	{
		std::swap(b.b, o.b.b);
		mpz_swap(m, o.m);
	}
	BIGNUM *operator&() { return &b.b; }
};

/* An input's len, sign and chunks, to prove a call left it unchanged. */
struct Snapshot {
	int len, sign;
	std::vector<chunk> v;
	explicit Snapshot(const BIGNUM *x);
	bool same(const BIGNUM *x) const;
};

/* An output BIGNUM in a random state: small or roomy, full of garbage,
 * with a stale len and sign, so a result must be written whole. */
void scramble(Rng &rng, BIGNUM *r);

/* Give bn `extra` high zero chunks inside its len. */
void pad_len(BIGNUM *bn, int extra);

/* 1 <= len <= size, no high zero chunk, sign 1 or -1, no negative zero. */
::testing::AssertionResult normalised(const BIGNUM *r);

/* r's value is want and r is normalised. */
::testing::AssertionResult equals(const BIGNUM *r, const mpz_t want);

/* The length of random case k: every one from 1 to 80 in turn, with every
 * 8th case up to 140. */
int length_for(Rng &rng, long k);

/* The chunk vectors every edge-value test combines: empty (len 0), 0, 1,
 * 2, all-ones, zeros inside len, and at lengths 1 to 140: all-ones, B^len
 * (top chunk 1), 1 with high zero chunks, the top bit alone. */
std::vector<std::vector<chunk>> edge_values();

/* `cases` random cases (scaled by BIGMONT_TEST_SCALE) from Rng(salt): case
 * k hands check(rng, a, len) a random operand a of len = length_for(rng,
 * k) chunks (any sign).  Stops at the first failure. */
template <typename Check> void for_each_random_operand(uint64_t salt, long cases, Check check)
{
	Rng rng(salt);
	const long n = scaled(cases);
	for (long k = 0; k < n; k++) {
		Operand a;
		const int len = length_for(rng, k);
		a.random(rng, len, true);
		check(rng, a, len);
		if (::testing::Test::HasFailure())
			return;
	}
}

} // namespace bt

#endif
