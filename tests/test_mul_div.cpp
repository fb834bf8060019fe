/*
 * big_mul and big_div_pos against GMP (they run through the dispatched
 * kernels big_mul_vec, big_sqr_vec, big_mul_set_vec, so this suite runs once
 * per kernel variant).  Random-density operands of every length from 1 to
 * 80 chunks and some to 140, negative signs, len 0 and high zero chunks
 * inside len, the squaring path (aa == bb), zero operands.  Division: every
 * dividend/divisor length pair shape (shorter, equal, longer), divisor 1,
 * one-chunk divisors, divisor > dividend, divisors whose top chunk is 1
 * (largest normalising shift) or all-ones (none), dividends built so the
 * quotient estimate needs its correction step and the add-back step,
 * exact multiples (remainder zero), NULL quotient or remainder, division
 * by zero.  Every call: results equal GMP's, are normalised, inputs are
 * unchanged, and q * b + r == a.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "operand.h"
#include "testutil.h"

namespace {

using bt::Big;
using bt::Mpz;
using bt::Operand;
using bt::chunk;

bool check_mul(bt::Rng &rng, Operand &a, Operand &b, bool square)
{
	Mpz want;
	mpz_mul(want, a.m, square ? a.m : b.m);
	bt::Snapshot sa(&a), sb(&b);
	Big r(1);
	bt::scramble(rng, &r.b);
	BIG_ERR_CODE err = big_mul(&r.b, &a, square ? &a : &b);
	EXPECT_EQ(err, BIG_OK);
	::testing::AssertionResult res = bt::equals(&r.b, want);
	EXPECT_TRUE(res) << (square ? "square" : "mul") << "\n a=" << bt::hex(a.m)
			 << " (len " << sa.len << ")\n b=" << bt::hex(b.m) << " (len " << sb.len << ")";
	EXPECT_TRUE(sa.same(&a) && sb.same(&b)) << "big_mul changed an input";
	return err == BIG_OK && res && sa.same(&a) && sb.same(&b);
}

TEST(Mul, RandomAgainstGmp)
{
	bt::for_each_random_operand(201, 100000, [](bt::Rng &rng, Operand &a, int alen) {
		Operand b;
		int blen;
		switch (rng.below(3)) {
		case 0: blen = alen; break;
		case 1: blen = 1 + static_cast<int>(rng.below(8)); break;
		default: blen = 1 + static_cast<int>(rng.below(140)); break;
		}
		b.random(rng, blen, true);
		if (rng.below(2))
			a.swap(b);
		ASSERT_TRUE(check_mul(rng, a, b, false));
	});
}

TEST(Mul, SquareRandomAgainstGmp)
{
	bt::for_each_random_operand(202, 100000, [](bt::Rng &rng, Operand &a, int) {
		Operand unused;
		ASSERT_TRUE(check_mul(rng, a, unused, true));
	});
}

TEST(Mul, EdgeValues)
{
	bt::Rng rng(203);
	const std::vector<std::vector<chunk>> values = bt::edge_values();
	for (const auto &va : values) {
		for (const auto &vb : values) {
			for (int sa : {1, -1}) {
				for (int sb : {1, -1}) {
					Operand a, b;
					a.set(va, 0, sa);
					b.set(vb, 1, sb);
					ASSERT_TRUE(check_mul(rng, a, b, false));
					ASSERT_TRUE(check_mul(rng, a, b, true));
				}
			}
		}
	}
	/* The result may not be an input: refused, nothing written. */
	Operand a, b;
	a.random(rng, 5, false);
	b.random(rng, 5, false);
	bt::Snapshot sa(&a), sb(&b);
	EXPECT_EQ(big_mul(&a, &a, &b), BIG_INVALID_ARGS);
	EXPECT_EQ(big_mul(&b, &a, &b), BIG_INVALID_ARGS);
	EXPECT_TRUE(sa.same(&a) && sb.same(&b));
}

/*
 * One division, checked against mpz_tdiv_qr on the magnitudes, with the
 * outputs chosen at random: both, quotient only, remainder only.
 */
bool check_div(bt::Rng &rng, Operand &a, Operand &b)
{
	Mpz aa, ab, wq, wr;
	mpz_abs(aa, a.m);
	mpz_abs(ab, b.m);
	bt::Snapshot sa(&a), sb(&b);
	Big q(1), r(1);
	bt::scramble(rng, &q.b);
	bt::scramble(rng, &r.b);
	const int which = static_cast<int>(rng.below(4)); /* 0,1 both; 2 q; 3 r */
	BIGNUM *qp = which == 3 ? nullptr : &q.b;
	BIGNUM *rp = which == 2 ? nullptr : &r.b;
	bt::Snapshot sq(&q.b), sr(&r.b);
	BIG_ERR_CODE err = big_div_pos(qp, rp, &a, &b);
	EXPECT_TRUE(sa.same(&a) && sb.same(&b)) << "big_div_pos changed an input";
	if (mpz_sgn(ab.v) == 0) {
		EXPECT_EQ(err, BIG_DIV_BY_0);
		EXPECT_TRUE(sq.same(&q.b) && sr.same(&r.b)) << "division by zero wrote";
		return err == BIG_DIV_BY_0;
	}
	mpz_tdiv_qr(wq, wr, aa, ab);
	EXPECT_EQ(err, BIG_OK);
	bool ok = err == BIG_OK && sa.same(&a) && sb.same(&b);
	const struct {
		const char *what;
		const BIGNUM *got;
		mpz_srcptr want;
	} outputs[] = { { "quotient", qp, wq }, { "remainder", rp, wr } };
	for (const auto &o : outputs) {
		if (o.got == nullptr)
			continue;
		::testing::AssertionResult res = bt::equals(o.got, o.want);
		EXPECT_TRUE(res) << o.what << "\n a=" << bt::hex(a.m) << " (len " << sa.len
				 << ")\n b=" << bt::hex(b.m) << " (len " << sb.len << ")";
		ok = ok && res;
	}
	return ok;
}

/* A random divisor of blen chunks whose top chunk is random, 1, or
 * all-ones (the two extremes of the normalising shift). */
void random_divisor(bt::Rng &rng, Operand &b, int blen)
{
	std::vector<chunk> v = rng.vec(blen);
	switch (rng.below(4)) {
	case 0: v[static_cast<size_t>(blen - 1)] = 1; break;
	case 1: v[static_cast<size_t>(blen - 1)] = BIG_CHUNK_ALLBITS; break;
	case 2: v[static_cast<size_t>(blen - 1)] |= 1; break; /* keep blen chunks */
	default: break; /* may be shorter, or zero */
	}
	int pad = rng.below(5) == 0 ? 1 + static_cast<int>(rng.below(2)) : 0;
	b.set(v, pad, rng.below(4) == 0 ? -1 : 1);
}

TEST(Div, RandomAgainstGmp)
{
	bt::for_each_random_operand(204, 100000, [](bt::Rng &rng, Operand &a, int alen) {
		Operand b;
		int blen;
		switch (rng.below(5)) {
		case 0: blen = 1; break;
		case 1: blen = alen; break;
		case 2: blen = std::max(1, alen - static_cast<int>(rng.below(4))); break;
		case 3: blen = alen + 1 + static_cast<int>(rng.below(3)); break; /* b > a */
		default: blen = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(alen))); break;
		}
		random_divisor(rng, b, blen);
		ASSERT_TRUE(check_div(rng, a, b));
	});
}

/*
 * Dividends that steer algorithm D into its rare branches, for divisors b
 * of n >= 2 chunks (the shift s makes bn = b << s have its top bit set):
 *  - add-back: the top quotient step sees u = qd * (bn - low) * B^k, where
 *    low = bn mod B^(n-2) > 0; the two-chunk estimate gives qd exactly but
 *    qd * bn > u, so the multiply-subtract borrows and qd - 1 is added back.
 *  - top chunks equal: a = (b - 1) * B^k + R makes the second step start
 *    with u[j+n] == v[n-1], the qhat = B - 1 branch.
 *  - exact multiples: a = q * b, remainder zero.
 */
TEST(Div, CorrectionAndAddBack)
{
	bt::Rng rng(205);
	const long cases = bt::scaled(100000);
	for (long k = 0; k < cases; k++) {
		const int n = 2 + static_cast<int>(k % 79);
		Operand b;
		random_divisor(rng, b, n);
		Mpz bm, bn, low, u, t;
		mpz_abs(bm, b.m);
		if (mpz_sizeinbase(bm, 2) <= static_cast<size_t>(bt::kChunkBits) * 2 - 0)
			mpz_setbit(bm, static_cast<mp_bitcnt_t>(2 * bt::kChunkBits)); /* n >= 2 effective */
		b.set_mpz(bm, static_cast<int>(rng.below(2)));
		const int bits = static_cast<int>(mpz_sizeinbase(bm, 2));
		const int chunks = (bits + bt::kChunkBits - 1) / bt::kChunkBits;
		const int s = chunks * bt::kChunkBits - bits;
		const int kk = static_cast<int>(rng.below(4));
		Operand a;
		switch (rng.below(3)) {
		case 0: { /* add-back */
			mpz_mul_2exp(bn, bm, static_cast<mp_bitcnt_t>(s));
			mpz_tdiv_r_2exp(low, bn, static_cast<mp_bitcnt_t>((chunks - 2) * bt::kChunkBits));
			if (mpz_sgn(low.v) == 0)
				mpz_setbit(bn, static_cast<mp_bitcnt_t>(s)), mpz_setbit(low, static_cast<mp_bitcnt_t>(s));
			mpz_sub(u, bn, low);
			mpz_set_ui(t, 0);
			chunk qd = rng.chunk_any() | 2;
			mpz_import(t, 1, -1, sizeof(chunk), 0, 0, &qd);
			mpz_mul(u, u, t);
			mpz_mul_2exp(u, u, static_cast<mp_bitcnt_t>(kk * bt::kChunkBits));
			if (kk > 0) { /* random low part with its low s bits clear */
				std::vector<chunk> r = rng.vec(kk);
				bt::to_mpz(t, r.data(), kk);
				mpz_fdiv_q_2exp(t, t, static_cast<mp_bitcnt_t>(s));
				mpz_mul_2exp(t, t, static_cast<mp_bitcnt_t>(s));
				mpz_add(u, u, t);
			}
			mpz_fdiv_q_2exp(u, u, static_cast<mp_bitcnt_t>(s));
			/* b itself becomes bn >> s (bn may have gained bit s). */
			mpz_fdiv_q_2exp(bm, bn, static_cast<mp_bitcnt_t>(s));
			b.set_mpz(bm, static_cast<int>(rng.below(2)));
			break;
		}
		case 1: { /* top chunks equal in a later step */
			mpz_sub_ui(u, bm, 1);
			mpz_mul_2exp(u, u, static_cast<mp_bitcnt_t>((kk + 1) * bt::kChunkBits));
			std::vector<chunk> r = rng.vec(kk + 1);
			bt::to_mpz(t, r.data(), kk + 1);
			mpz_add(u, u, t);
			break;
		}
		default: { /* exact multiple */
			rng.mpz_bits(t, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(4 * bt::kChunkBits))));
			mpz_mul(u, bm, t);
			break;
		}
		}
		a.set_mpz(u, static_cast<int>(rng.below(2)));
		ASSERT_TRUE(check_div(rng, a, b)) << "case " << k;
	}
}

TEST(Div, EdgeValues)
{
	bt::Rng rng(206);
	std::vector<std::vector<chunk>> values = bt::edge_values();
	for (int len : {2, 3, 7, 40, 80, 140})
		values.push_back(rng.vec(len));
	for (const auto &va : values) {
		for (const auto &vb : values) {
			for (int rep = 0; rep < 4; rep++) {
				Operand a, b;
				a.set(va, rep & 1, rep == 2 ? -1 : 1);
				b.set(vb, rep >> 1, rep == 3 ? -1 : 1);
				ASSERT_TRUE(check_div(rng, a, b));
			}
		}
	}
	/* Outputs may not be inputs or each other. */
	Operand a, b;
	a.set(rng.vec(6), 0, 1);
	b.set({1, 2, 3}, 0, 1);
	Big q(1);
	bt::Snapshot sa(&a), sb(&b);
	EXPECT_EQ(big_div_pos(&a, nullptr, &a, &b), BIG_INVALID_ARGS);
	EXPECT_EQ(big_div_pos(nullptr, &b, &a, &b), BIG_INVALID_ARGS);
	EXPECT_EQ(big_div_pos(&q.b, &q.b, &a, &b), BIG_INVALID_ARGS);
	EXPECT_TRUE(sa.same(&a) && sb.same(&b));
	/* Both outputs NULL: only the checks run. */
	EXPECT_EQ(big_div_pos(nullptr, nullptr, &a, &b), BIG_OK);
}

} // namespace
