/*
 * Montgomery arithmetic on BIGNUMs against GMP: big_n0 (random odd chunks,
 * 1, all-ones), big_mont_rr and big_mont_conv, big_mont_mul at every
 * modulus length 1..80 chunks with random-density operands (shorter than
 * n, or padded with high zero chunks), aliasing ret == a, ret == b and the
 * squaring path a == b, inputs never modified; the refusals (even n, n <=
 * 1).  (The fused kernels under big_mont_mul: tests/test_mont_kernels.cpp.)
 */
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mont_ref.h"
#include "operand.h"
#include "testutil.h"

namespace {

using bt::Big;
using bt::chunk;
using bt::kChunkBits;
using bt::Mpz;
using bt::normalised;
using bt::pad_len;

/* A random odd modulus of exactly len chunks (top chunk non-zero), > 1. */
void random_modulus(bt::Rng &rng, mpz_t n, int len)
{
	std::vector<chunk> v = rng.vec(len);
	switch (rng.below(4)) {
	case 0: v[len - 1] = BIG_CHUNK_ALLBITS; break;
	case 1: v[len - 1] = 1; break;
	case 2: v[len - 1] |= BIG_CHUNK_HIGHBIT; break;
	default: break;
	}
	if (v[len - 1] == 0)
		v[len - 1] = 1 + (rng.chunk_any() >> 1);
	v[0] |= 1;
	if (len == 1 && v[0] == 1)
		v[0] = 3;
	bt::to_mpz(n, v.data(), len);
}

/* A random operand < n, often an edge value. */
void random_below(bt::Rng &rng, mpz_t out, const mpz_t n, int len)
{
	switch (rng.below(8)) {
	case 0: mpz_set_ui(out, 0); break;
	case 1: mpz_set_ui(out, 1); break;
	case 2: mpz_sub_ui(out, n, 1); break;
	default: {
		int l = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(len)));
		std::vector<chunk> w = rng.vec(l);
		bt::to_mpz(out, w.data(), l);
		mpz_mod(out, out, n);
		break;
	}
	}
}

TEST(MontN0, NewtonInverse)
{
	bt::Rng rng(11);
	std::vector<chunk> cases = { 1, 3, 5, BIG_CHUNK_ALLBITS, BIG_CHUNK_ALLBITS - 2,
				     BIG_CHUNK_HIGHBIT | 1, BIG_CHUNK_LOWHALFBITS };
	for (long i = 0; i < bt::scaled(100000); i++)
		cases.push_back(rng.chunk_any() | 1);
	for (chunk n : cases) {
		chunk n0 = big_n0(n);
		ASSERT_EQ(static_cast<chunk>(n * n0 + 1), 0u) << "n = " << n;
	}
}

TEST(MontRR, EveryLengthAgainstGmp)
{
	bt::Rng rng(12);
	for (int len = 1; len <= 80; len++) {
		for (int rep = 0; rep < 4; rep++) {
			Mpz n, want, r;
			random_modulus(rng, n, len);
			bt::mont_R(r, len);
			mpz_mul(want, r, r);
			mpz_mod(want, want, n);
			Big bn(n), out(1);
			if (rep == 3)
				pad_len(&bn.b, 2); /* R follows the trimmed length */
			ASSERT_EQ(big_mont_rr(&out.b, &bn.b), BIG_OK);
			Mpz got;
			bt::to_mpz(got, &out.b);
			ASSERT_EQ(mpz_cmp(got, want), 0) << "len " << len << " n " << bt::hex(n);
			ASSERT_TRUE(normalised(&out.b));
		}
	}
}

TEST(MontRR, Refusals)
{
	Big out(1);
	for (unsigned v : { 0u, 1u, 2u, 10u }) {
		Mpz n;
		mpz_set_ui(n, v);
		Big bn(n);
		EXPECT_EQ(big_mont_rr(&out.b, &bn.b), BIG_INVALID_ARGS) << v;
	}
}

TEST(MontConv, EveryLengthAgainstGmp)
{
	bt::Rng rng(13);
	for (int len = 1; len <= 80; len++) {
		Mpz n, r, rr, a, want;
		random_modulus(rng, n, len);
		bt::mont_R(r, len);
		Big bn(n), brr(1);
		ASSERT_EQ(big_mont_rr(&brr.b, &bn.b), BIG_OK);
		const chunk n0 = big_n0(bn.b.value[0]);
		for (int rep = 0; rep < 5; rep++) {
			random_below(rng, a, n, len);
			mpz_mul(want, a, r);
			mpz_mod(want, want, n);
			Big ba(a), out(1);
			ASSERT_EQ(big_mont_conv(&out.b, &ba.b, &bn.b, n0, &brr.b), BIG_OK);
			Mpz got;
			bt::to_mpz(got, &out.b);
			ASSERT_EQ(mpz_cmp(got, want), 0) << "len " << len;
			/* result aliasing a */
			ASSERT_EQ(big_mont_conv(&ba.b, &ba.b, &bn.b, n0, &brr.b), BIG_OK);
			bt::to_mpz(got, &ba.b);
			ASSERT_EQ(mpz_cmp(got, want), 0) << "len " << len << " aliased";
		}
	}
}

TEST(MontMul, EveryLengthAgainstGmpWithAliasing)
{
	bt::Rng rng(14);
	const long reps = bt::scaled(40);
	for (int len = 1; len <= 80; len++) {
		Mpz n, r, rinv;
		random_modulus(rng, n, len);
		bt::mont_R(r, len);
		ASSERT_NE(mpz_invert(rinv, r, n), 0);
		Big bn(n);
		if (len % 7 == 0)
			pad_len(&bn.b, 1); /* high zero chunk in the modulus */
		const chunk n0 = big_n0(bn.b.value[0]);
		for (long rep = 0; rep < reps; rep++) {
			Mpz a, b, want, want_sq, got;
			random_below(rng, a, n, len);
			random_below(rng, b, n, len);
			bt::mont_product(want, a, b, rinv, n);
			bt::mont_product(want_sq, a, a, rinv, n);
			const std::string ctx = "len " + std::to_string(len) + "\n n " + bt::hex(n) +
						"\n a " + bt::hex(a) + "\n b " + bt::hex(b);

			Big ba(a), bb(b), out(1);
			if (rep % 3 == 1)
				pad_len(&ba.b, 1 + static_cast<int>(rng.below(3)));
			const std::vector<chunk> a_before(ba.b.value, ba.b.value + ba.b.len);
			const int a_len = ba.b.len;
			ASSERT_EQ(big_mont_mul(&out.b, &ba.b, &bb.b, &bn.b, n0), BIG_OK) << ctx;
			bt::to_mpz(got, &out.b);
			ASSERT_EQ(mpz_cmp(got, want), 0) << ctx;
			ASSERT_TRUE(normalised(&out.b)) << ctx;
			ASSERT_EQ(ba.b.len, a_len);
			ASSERT_TRUE(std::equal(a_before.begin(), a_before.end(), ba.b.value));

			ASSERT_EQ(big_mont_mul(&out.b, &ba.b, &ba.b, &bn.b, n0), BIG_OK) << ctx;
			bt::to_mpz(got, &out.b);
			ASSERT_EQ(mpz_cmp(got, want_sq), 0) << "square " << ctx;

			Big a2(a), b2(b);
			ASSERT_EQ(big_mont_mul(&a2.b, &a2.b, &b2.b, &bn.b, n0), BIG_OK) << ctx;
			bt::to_mpz(got, &a2.b);
			ASSERT_EQ(mpz_cmp(got, want), 0) << "ret == a " << ctx;
			Big a3(a), b3(b);
			ASSERT_EQ(big_mont_mul(&b3.b, &a3.b, &b3.b, &bn.b, n0), BIG_OK) << ctx;
			bt::to_mpz(got, &b3.b);
			ASSERT_EQ(mpz_cmp(got, want), 0) << "ret == b " << ctx;
			Big a4(a);
			ASSERT_EQ(big_mont_mul(&a4.b, &a4.b, &a4.b, &bn.b, n0), BIG_OK) << ctx;
			bt::to_mpz(got, &a4.b);
			ASSERT_EQ(mpz_cmp(got, want_sq), 0) << "ret == a == b " << ctx;
		}
	}
}

TEST(MontMul, RefusesEvenOrTrivialModulus)
{
	Mpz a, n;
	mpz_set_ui(a, 1);
	Big ba(a), out(1);
	for (unsigned v : { 0u, 1u, 4u }) {
		mpz_set_ui(n, v);
		Big bn(n);
		EXPECT_EQ(big_mont_mul(&out.b, &ba.b, &ba.b, &bn.b, 1), BIG_INVALID_ARGS) << v;
	}
}

} // namespace
