// bigmont-test: once
/*
 * big_mod_inverse against GMP's mpz_invert: random odd moduli of every
 * length from 1 chunk to past RSA sizes, random-density a shorter and
 * longer than n, negative a, a with high zero chunks in len, the edge
 * values (0, 1, n-1, n, n+1, multiples of a factor of n), aliasing of the
 * result with a and with n, and the refusals (even n, n <= 1, gcd != 1).
 * The bitwise fallback, which the batched algorithm's bound keeps from
 * running, on random and edge operands and shared factors, through a
 * second build of modinv.c that takes it at once (tests/modinv/).
 * (C code only, so it runs once, not per kernel variant.)
 */
#include <gtest/gtest.h>

#include "testutil.h"

/* bignum/modinv.c compiled with the batched rounds' bound at 0
 * (tests/modinv/bitwise.c). */
extern "C" BIG_ERR_CODE big_mod_inverse_bitwise_for_test(BIGNUM *result, const BIGNUM *a,
							  const BIGNUM *n);

namespace {

using bt::Big;
using bt::Mpz;

typedef BIG_ERR_CODE inverse_fn(BIGNUM *result, const BIGNUM *a, const BIGNUM *n);

/* Check big_mod_inverse(a, n) (or the given form of it) against
 * mpz_invert; returns false on a mismatch (the EXPECTs say what). */
bool check_inverse(const mpz_t a, const mpz_t n, int extra_zero_chunks = 0,
		   inverse_fn *inverse = big_mod_inverse)
{
	Big ba(a), bn(n), r(1);
	if (extra_zero_chunks > 0) {
		int len = ba.b.len;
		EXPECT_EQ(big_extend(&ba.b, len + extra_zero_chunks), BIG_OK);
		for (int i = len; i < len + extra_zero_chunks; i++)
			ba.b.value[i] = 0;
		ba.b.len = len + extra_zero_chunks;
	}
	std::vector<bt::chunk> a_before(ba.b.value, ba.b.value + ba.b.len);
	const int a_len = ba.b.len, a_sign = ba.b.sign;

	Mpz want;
	const bool invertible = mpz_invert(want, a, n) != 0;
	BIG_ERR_CODE err = inverse(&r.b, &ba.b, &bn.b);

	/* The input is never modified, not even its len. */
	EXPECT_EQ(ba.b.len, a_len);
	EXPECT_EQ(ba.b.sign, a_sign);
	EXPECT_TRUE(std::equal(a_before.begin(), a_before.end(), ba.b.value));
	if (!invertible) {
		EXPECT_EQ(err, BIG_INVALID_ARGS)
			<< "a=" << bt::hex(a) << " n=" << bt::hex(n) << " is not invertible";
		return err == BIG_INVALID_ARGS;
	}
	EXPECT_EQ(err, BIG_OK) << "a=" << bt::hex(a) << " n=" << bt::hex(n);
	Mpz got;
	bt::to_mpz(got, &r.b);
	EXPECT_EQ(mpz_cmp(got, want), 0) << "a=" << bt::hex(a) << " n=" << bt::hex(n)
					 << "\n want " << bt::hex(want) << "\n got  " << bt::hex(got);
	EXPECT_EQ(r.b.sign, 1);
	EXPECT_TRUE(r.b.len == 1 || r.b.value[r.b.len - 1] != 0) << "not normalised";
	return err == BIG_OK && mpz_cmp(got, want) == 0;
}

/* Random odd moduli of every length from 1 chunk to past 4096 bits
 * (`small` cases a length up to 8 chunks, `large` above), a from 1 bit to
 * twice n's length, a quarter negative; with shared_factors a quarter
 * share a random odd factor with n (refused). */
void random_every_length(bt::Rng &rng, long small, long large, inverse_fn *inverse,
			 bool shared_factors)
{
	const int max_chunks = 4200 / bt::kChunkBits + 2;
	for (int nlen = 1; nlen <= max_chunks; nlen++) {
		const long cases = bt::scaled(nlen <= 8 ? small : large);
		for (long k = 0; k < cases; k++) {
			Mpz n, a;
			int nbits = (nlen - 1) * bt::kChunkBits + 1 +
				    static_cast<int>(rng.below(bt::kChunkBits));
			rng.mpz_bits(n, nbits < 2 ? 2 : nbits);
			mpz_setbit(n, 0);
			rng.mpz_bits(a, 1 + static_cast<int>(rng.below(2 * nbits + 2)));
			if (rng.below(4) == 0)
				mpz_neg(a, a);
			if (shared_factors && rng.below(4) == 0) {
				Mpz g;
				rng.mpz_bits(g, 2 + static_cast<int>(rng.below(64)));
				mpz_setbit(g, 0);
				mpz_mul(n, n, g);
				mpz_mul(a, a, g);
			}
			if (!check_inverse(a, n, static_cast<int>(rng.below(3)), inverse))
				return;
		}
	}
}

TEST(ModInverse, RandomAgainstGmpEveryLength)
{
	bt::Rng rng(1);
	random_every_length(rng, 600, 60, big_mod_inverse, false);
}

TEST(ModInverse, EdgeValues)
{
	bt::Rng rng(2);
	for (int nbits : {2, 3, 63, 64, 65, 127, 128, 512, 1024, 2048, 4096}) {
		Mpz n;
		rng.mpz_bits(n, nbits);
		mpz_setbit(n, 0);
		Mpz a;
		for (int which = 0; which < 9; which++) {
			switch (which) {
			case 0: mpz_set_ui(a, 0); break;
			case 1: mpz_set_ui(a, 1); break;
			case 2: mpz_sub_ui(a, n, 1); break;
			case 3: mpz_set(a, n); break;
			case 4: mpz_add_ui(a, n, 1); break;
			case 5: mpz_set_si(a, -1); break;
			case 6: mpz_mul_ui(a, n, 12345); break; /* multiple of n */
			case 7: mpz_set_ui(a, 2); break;
			default: mpz_ui_pow_ui(a, 2, static_cast<unsigned long>(nbits) + 7); break;
			}
			EXPECT_TRUE(check_inverse(a, n)) << "edge case " << which << ", n of " << nbits << " bits";
		}
	}
	/* All-ones moduli (2^k - 1) and small ones. */
	for (int bits : {2, 5, 64, 128, 1024}) {
		Mpz n, a;
		mpz_ui_pow_ui(n, 2, static_cast<unsigned long>(bits));
		mpz_sub_ui(n, n, 1);
		rng.mpz_bits(a, bits + 3);
		check_inverse(a, n);
	}
	for (unsigned long small = 3; small < 200; small += 2)
		for (long av = -20; av < 220; av += 7) {
			Mpz n, a;
			mpz_set_ui(n, small);
			mpz_set_si(a, av);
			if (!check_inverse(a, n))
				return;
		}
}

TEST(ModInverse, SharedFactorIsRefused)
{
	bt::Rng rng(3);
	for (long k = 0; k < bt::scaled(200); k++) {
		Mpz p, q, n, a;
		rng.mpz_bits(p, 2 + static_cast<int>(rng.below(600)));
		rng.mpz_bits(q, 2 + static_cast<int>(rng.below(600)));
		mpz_setbit(p, 0);
		mpz_setbit(q, 0);
		if (mpz_cmp_ui(p.v, 1) == 0)
			continue;
		mpz_mul(n, p, q);
		rng.mpz_bits(a, 1 + static_cast<int>(rng.below(600)));
		mpz_mul(a, a, p); /* gcd(a, n) >= p > 1 */
		Big ba(a), bn(n), r(1);
		EXPECT_EQ(big_mod_inverse(&r.b, &ba.b, &bn.b), BIG_INVALID_ARGS)
			<< "a=" << bt::hex(a) << " n=" << bt::hex(n);
	}
}

TEST(ModInverse, ResultMayAliasEitherInput)
{
	bt::Rng rng(4);
	for (long k = 0; k < bt::scaled(200); k++) {
		Mpz n, a, want, got;
		rng.mpz_bits(n, 2 + static_cast<int>(rng.below(3000)));
		mpz_setbit(n, 0);
		do
			rng.mpz_bits(a, 1 + static_cast<int>(rng.below(3000)));
		while (!mpz_invert(want, a, n));
		/* Every other a negative: its sign is read after the result,
		 * which is a, has been written. */
		if (k % 2)
			mpz_neg(a, a);
		ASSERT_NE(mpz_invert(want, a, n), 0);

		Big ba(a), bn(n);
		ASSERT_EQ(big_mod_inverse(&ba.b, &ba.b, &bn.b), BIG_OK);
		bt::to_mpz(got, &ba.b);
		EXPECT_EQ(mpz_cmp(got, want), 0) << "result == a, a " << (k % 2 ? "negative" : "positive");

		Big ba2(a), bn2(n);
		ASSERT_EQ(big_mod_inverse(&bn2.b, &ba2.b, &bn2.b), BIG_OK);
		bt::to_mpz(got, &bn2.b);
		EXPECT_EQ(mpz_cmp(got, want), 0) << "result == n";
	}
}

TEST(ModInverse, BadModulusIsRefused)
{
	Mpz a, n;
	mpz_set_ui(a, 3);
	for (long nv : {0L, 1L, 2L, 4L, 1000L}) {
		mpz_set_si(n, nv);
		Big ba(a), bn(n), r(1);
		EXPECT_EQ(big_mod_inverse(&r.b, &ba.b, &bn.b), BIG_INVALID_ARGS) << "n = " << nv;
	}
	mpz_set_si(n, -7); /* a negative modulus is refused too */
	Big ba(a), bn(n), r(1);
	EXPECT_EQ(big_mod_inverse(&r.b, &ba.b, &bn.b), BIG_INVALID_ARGS);
}

/* The bitwise fallback against GMP: random moduli and operands (negative
 * too) at every length to past RSA's, edge values, shared factors. */
TEST(ModInverse, BitwiseFallbackAgainstGmp)
{
	bt::Rng rng(5);
	inverse_fn *const bitwise = big_mod_inverse_bitwise_for_test;
	random_every_length(rng, 60, 4, bitwise, true);
	for (int nbits : { 2, 3, 64, 65, 1024 }) {
		Mpz n, a;
		rng.mpz_bits(n, nbits);
		mpz_setbit(n, 0);
		for (long av : { 0L, 1L, -1L, 2L }) {
			mpz_set_si(a, av);
			EXPECT_TRUE(check_inverse(a, n, 0, bitwise)) << av << ", n of " << nbits;
		}
		mpz_sub_ui(a, n, 1);
		EXPECT_TRUE(check_inverse(a, n, 0, bitwise));
		mpz_add_ui(a, n, 1);
		EXPECT_TRUE(check_inverse(a, n, 0, bitwise));
	}
}

} // namespace
