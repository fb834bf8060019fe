/*
 * Montgomery arithmetic on BIGNUMs against GMP: big_n0 (random odd chunks,
 * 1, all-ones), big_mont_rr and big_mont_conv, big_mont_mul at every
 * modulus length 1..80 chunks with random-density operands (shorter than
 * n, or padded with high zero chunks), aliasing ret == a, ret == b and the
 * squaring path a == b, inputs never modified; the refusals (even n, n <=
 * 1); big_mod_mul (a*b mod n) with its aliasing and refusals; the vector
 * pieces big_check_modulus, big_load_vec and big_mont_rr_vec.  (The fused
 * kernels under big_mont_mul: tests/test_mont_kernels.cpp.)
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
	/* "odd n > 1": a negative n is refused, not taken as |n| (as
	 * big_mod_inverse refuses it). */
	Mpz n;
	mpz_set_si(n, -7);
	Big neg(n);
	ASSERT_EQ(neg.b.sign, -1);
	EXPECT_EQ(big_mont_rr(&out.b, &neg.b), BIG_INVALID_ARGS);
	Mpz av, ev;
	mpz_set_ui(av, 5);
	mpz_set_ui(ev, 3);
	Big a(av), e(ev), r(1);
	EXPECT_EQ(big_modexp(&r.b, &a.b, &e.b, &neg.b, nullptr), BIG_INVALID_ARGS);
	EXPECT_EQ(big_modexp_ct(&r.b, &a.b, &e.b, &neg.b, nullptr), BIG_INVALID_ARGS);
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

/* big_mod_mul shares the modulus check. */
TEST(MontMul, RefusesEvenOrTrivialModulus)
{
	Mpz a, n;
	mpz_set_ui(a, 1);
	Big ba(a), out(1);
	for (unsigned v : { 0u, 1u, 4u }) {
		mpz_set_ui(n, v);
		Big bn(n);
		EXPECT_EQ(big_mont_mul(&out.b, &ba.b, &ba.b, &bn.b, 1), BIG_INVALID_ARGS) << v;
		EXPECT_EQ(big_mod_mul(&out.b, &ba.b, &ba.b, &bn.b, 1, &ba.b), BIG_INVALID_ARGS) << v;
	}
}

/* big_mod_mul(a, b) against a*b mod n, with a and b given a_pad, b_pad
 * high zero chunks: the value, normalised, sign 1, inputs unchanged; then
 * the result aliasing a, b, and both (the square). */
void check_mod_mul(const mpz_t n, const BIGNUM *bn, const BIGNUM *rr, const mpz_t a,
		   const mpz_t b, int a_pad, int b_pad)
{
	const chunk n0 = big_n0(bn->value[0]);
	Mpz want, sq, got;
	mpz_mul(want, a, b);
	mpz_mod(want, want, n);
	mpz_mul(sq, a, a);
	mpz_mod(sq, sq, n);
	SCOPED_TRACE("n " + bt::hex(n) + "\n a " + bt::hex(a) + "\n b " + bt::hex(b));
	Big x(a), y(b), out(1);
	pad_len(&x.b, a_pad);
	pad_len(&y.b, b_pad);
	const std::vector<chunk> x0(x.b.value, x.b.value + x.b.len), y0(y.b.value, y.b.value + y.b.len);
	ASSERT_EQ(big_mod_mul(&out.b, &x.b, &y.b, bn, n0, rr), BIG_OK);
	bt::to_mpz(got, &out.b);
	EXPECT_EQ(mpz_cmp(got, want), 0);
	EXPECT_TRUE(normalised(&out.b));
	EXPECT_EQ(out.b.sign, 1);
	EXPECT_TRUE(std::equal(x0.begin(), x0.end(), x.b.value) && x.b.len == static_cast<int>(x0.size()));
	EXPECT_TRUE(std::equal(y0.begin(), y0.end(), y.b.value) && y.b.len == static_cast<int>(y0.size()));
	for (int alias = 0; alias < 3; alias++) {
		Big p(a), q(alias == 2 ? a : b);
		BIGNUM *res = alias == 1 ? &q.b : &p.b;
		ASSERT_EQ(big_mod_mul(res, &p.b, alias == 2 ? &p.b : &q.b, bn, n0, rr), BIG_OK);
		bt::to_mpz(got, res);
		EXPECT_EQ(mpz_cmp(got, alias == 2 ? sq.v : want.v), 0) << "alias " << alias;
	}
}

/* big_mod_mul at every modulus length 1..80 chunks and a few past RSA
 * sizes (up to BIG_MAX_MODULUS_CHUNKS): a < n, b < n or b anywhere below R
 * (often >= n, up to R - 1), high zero chunks in a, b and n. */
TEST(ModMul, EveryLengthAgainstGmpWithAliasing)
{
	bt::Rng rng(15);
	for (int len : bt::lengths(80, { 96, 128, 129, BIG_MAX_MODULUS_CHUNKS })) {
		Mpz n, r_minus_1, a, b;
		random_modulus(rng, n, len);
		bt::mont_R(r_minus_1, len);
		mpz_sub_ui(r_minus_1, r_minus_1, 1);
		Big bn(n), rr(1);
		ASSERT_EQ(big_mont_rr(&rr.b, &bn.b), BIG_OK);
		pad_len(&bn.b, len % 5 == 0); /* the trimmed length is the one that counts */
		const long reps = len > 80 ? 2 : bt::scaled(20);
		for (long rep = 0; rep < reps; rep++) {
			random_below(rng, a, n, len);
			if (rep % 4 == 0) {
				mpz_set(b, r_minus_1);
			} else if (rep % 4 == 1) {
				std::vector<chunk> w = rng.vec(len);
				bt::to_mpz(b, w.data(), len);
			} else {
				random_below(rng, b, n, len);
			}
			check_mod_mul(n, &bn.b, &rr.b, a, b, rep % 3 == 1 ? 1 + static_cast<int>(rng.below(3)) : 0,
				      rep % 4 == 2);
			if (HasFatalFailure() || HasNonfatalFailure())
				FAIL() << "len " << len << " rep " << rep;
		}
	}
}

/* An operand or R^2 with a non-zero chunk past n's length (n of two
 * chunks, the third chunk set); the same with that chunk zero is fine. */
TEST(ModMul, RefusesWideOperands)
{
	Mpz one, n;
	mpz_set_ui(one, 1);
	Big out(1);
	mpz_set_ui(n, 0);
	mpz_setbit(n, static_cast<mp_bitcnt_t>(kChunkBits) * 2);
	mpz_sub_ui(n, n, 1);
	Big bn(n), rr(1);
	ASSERT_EQ(big_mont_rr(&rr.b, &bn.b), BIG_OK);
	const chunk n0 = big_n0(bn.b.value[0]);
	for (int which = 0; which < 3; which++) {
		Big x(one), y(one), r2(1);
		ASSERT_EQ(big_copy(&r2.b, &rr.b), BIG_OK);
		BIGNUM *w = which == 0 ? &x.b : which == 1 ? &y.b : &r2.b;
		pad_len(w, 3 - w->len);
		EXPECT_EQ(big_mod_mul(&out.b, &x.b, &y.b, &bn.b, n0, &r2.b), BIG_OK) << which;
		w->value[2] = 1;
		EXPECT_EQ(big_mod_mul(&out.b, &x.b, &y.b, &bn.b, n0, &r2.b), BIG_INVALID_ARGS) << which;
	}
}

/* The vector-level pieces the exponentiations share (internal.h):
 * big_check_modulus, big_load_vec, big_mont_rr_vec with a radix at and
 * past the modulus' trimmed length (the CRT uses a prime's stored one). */
TEST(MontVec, CheckModulusLoadAndRR)
{
	bt::Rng rng(16);
	for (int len = 1; len <= 70; len++) {
		Mpz n, r, want;
		random_modulus(rng, n, len);
		Big bn(n);
		const int extra = static_cast<int>(rng.below(3));
		pad_len(&bn.b, extra);
		int got_len = -1;
		ASSERT_EQ(big_check_modulus(&bn.b, &got_len), BIG_OK);
		ASSERT_EQ(got_len, len);

		/* R^2 for the radix len + extra, computed, then given back. */
		const int rlen = len + extra;
		bt::mont_R(r, rlen);
		mpz_mul(want, r, r);
		mpz_mod(want, want, n);
		std::vector<chunk> rr(static_cast<size_t>(rlen) + 1, 0x5a), rr2(rr);
		ASSERT_EQ(big_mont_rr_vec(rr.data(), nullptr, &bn.b, rlen), BIG_OK);
		EXPECT_EQ(rr[static_cast<size_t>(rlen)], static_cast<chunk>(0x5a)) << "wrote past len";
		Mpz got;
		bt::to_mpz(got, rr.data(), rlen);
		ASSERT_EQ(mpz_cmp(got, want), 0) << "len " << len << " radix " << rlen;
		Big given(want);
		pad_len(&given.b, 1 + extra); /* high zero chunks past rlen are fine */
		ASSERT_EQ(big_mont_rr_vec(rr2.data(), &given.b, &bn.b, rlen), BIG_OK);
		ASSERT_TRUE(std::equal(rr.begin(), rr.begin() + rlen, rr2.begin()));

		/* big_load_vec: zero-padded, refuses a non-zero chunk at or past len. */
		std::vector<chunk> w = rng.vec(len);
		Mpz x;
		bt::to_mpz(x, w.data(), len);
		Big bx(x);
		std::vector<chunk> v(static_cast<size_t>(len) + 3, 0x77);
		ASSERT_EQ(big_load_vec(v.data(), len + 2, &bx.b), BIG_OK);
		EXPECT_TRUE(std::equal(w.begin(), w.end(), v.begin()));
		EXPECT_EQ(v[static_cast<size_t>(len)], 0u);
		EXPECT_EQ(v[static_cast<size_t>(len) + 1], 0u);
		EXPECT_EQ(v[static_cast<size_t>(len) + 2], static_cast<chunk>(0x77));
		if (len > 1 && w[static_cast<size_t>(len) - 1] != 0) {
			EXPECT_EQ(big_load_vec(v.data(), len - 1, &bx.b), BIG_INVALID_ARGS);
		}
		Big zero(1);
		zero.b.len = 0;
		ASSERT_EQ(big_load_vec(v.data(), 2, &zero.b), BIG_OK);
		EXPECT_EQ(v[0] | v[1], 0u);
	}
	for (unsigned v : { 0u, 1u, 2u, 10u }) {
		Mpz n;
		mpz_set_ui(n, v);
		Big bn(n);
		int len = -1;
		EXPECT_EQ(big_check_modulus(&bn.b, &len), BIG_INVALID_ARGS) << v;
	}
	Big empty(1);
	empty.b.len = 0;
	int len = -1;
	EXPECT_EQ(big_check_modulus(&empty.b, &len), BIG_INVALID_ARGS);
	Mpz huge;
	mpz_setbit(huge, static_cast<mp_bitcnt_t>(kChunkBits) * BIG_MAX_MODULUS_CHUNKS);
	mpz_setbit(huge, 0);
	Big bh(huge);
	EXPECT_EQ(big_check_modulus(&bh.b, &len), BIG_INVALID_ARGS) << "too long";
}

} // namespace
