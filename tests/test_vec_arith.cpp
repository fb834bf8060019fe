// bigmont-test: once
/*
 * The C vector routines of bignum/generic/ that have no asm variant
 * (contracts in bignum/internal.h) and big_equal_ct, against GMP:
 *
 *  - big_add_vec, big_sub_vec: every alen 0..140 with every blen 0..alen
 *    for short ones and random blen above, random-density operands, the
 *    result aliasing a or b, the carry / borrow out.
 *  - big_sub_if_ge_vec: (top:t) < 2n on both sides of n, top 0 and 1,
 *    t == n, r aliasing t.
 *  - big_sub_mod_vec: a, b < n with a < b, a == b, a > b, 0 and n - 1,
 *    aliasing r == a and r == b.
 *  - big_sqr_diag_vec (inline): the off-diagonal sum of a random-density a in, a^2
 *    out, every len 1..140.
 *  - big_copy_pad_vec: every rlen, alen <= rlen, nothing read past alen.
 *  - big_equal_ct: equal values with different stored lengths, len 0,
 *    a difference in every single chunk, against big_cmp_abs and GMP.
 * Outputs sit between guard chunks that must survive.  (Plain C, no
 * dispatched kernel: runs once.)
 */
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "testutil.h"

namespace {

using bt::Big;
using bt::chunk;
using bt::kChunkBits;
using bt::Mpz;

constexpr int kMaxLen = 140;
constexpr chunk kGuard = static_cast<chunk>(0xa5c3e1f00f1e3c5aULL);

/* A len-chunk output buffer with two guard chunks on each side. */
struct Guarded {
	std::vector<chunk> buf;
	explicit Guarded(int len) : buf(static_cast<size_t>(len) + 4, kGuard) {}
	chunk *r() { return buf.data() + 2; }
	bool guards_ok() const
	{
		const size_t n = buf.size();
		return buf[0] == kGuard && buf[1] == kGuard && buf[n - 2] == kGuard &&
		       buf[n - 1] == kGuard;
	}
};

/* The check of a routine with one len-chunk output: op(r, in) -- in the
 * pointers to the operands' chunks -- into a guarded r must give want with
 * the guards intact; then, for each (k, name) of aliases, op with r the
 * operand in[k] itself (on copies of the operands) must give want too. */
void expect_op(int len, const mpz_t want, const std::string &ctx,
	       const std::vector<std::vector<chunk>> &operands,
	       std::initializer_list<std::pair<size_t, const char *>> aliases,
	       const std::function<void(chunk *r, const std::vector<chunk *> &in)> &op)
{
	Mpz got;
	for (int pass = -1; pass < static_cast<int>(aliases.size()); pass++) {
		std::vector<std::vector<chunk>> copy = operands;
		std::vector<chunk *> in;
		for (std::vector<chunk> &v : copy)
			in.push_back(v.data());
		Guarded g(len);
		const auto *alias = pass < 0 ? nullptr : aliases.begin() + pass;
		chunk *r = alias ? in[alias->first] : g.r();
		op(r, in);
		bt::to_mpz(got, r, len);
		ASSERT_EQ(mpz_cmp(got, want), 0) << ctx << (alias ? " r == " : "")
						  << (alias ? alias->second : "");
		if (!alias) {
			ASSERT_TRUE(g.guards_ok()) << ctx;
		}
	}
}

/* B^len as an mpz. */
void mpz_b_pow(mpz_t out, int len)
{
	mpz_set_ui(out, 0);
	mpz_setbit(out, static_cast<mp_bitcnt_t>(kChunkBits) * static_cast<mp_bitcnt_t>(len));
}

/* a + b or a - b mod B^alen and the carry/borrow, by GMP. */
void want_addsub(bool add, const std::vector<chunk> &a, int alen, const std::vector<chunk> &b,
		 int blen, mpz_t sum_mod, chunk *carry)
{
	Mpz za, zb, s, m;
	bt::to_mpz(za, a.data(), alen);
	bt::to_mpz(zb, b.data(), blen);
	if (add)
		mpz_add(s, za, zb);
	else
		mpz_sub(s, za, zb);
	mpz_b_pow(m, alen);
	*carry = add ? mpz_cmp(s, m) >= 0 : mpz_sgn(s.v) < 0;
	mpz_mod(sum_mod, s, m);
}

void check_addsub(bool add, bt::Rng &rng, int alen, int blen)
{
	const char *name = add ? "big_add_vec" : "big_sub_vec";
	auto fn = add ? big_add_vec : big_sub_vec;
	std::vector<chunk> a = rng.vec(alen + 1), b = rng.vec(blen + 1);
	Mpz want, got;
	chunk want_c;
	want_addsub(add, a, alen, b, blen, want, &want_c);
	const std::string ctx = std::string(name) + " alen " + std::to_string(alen) + " blen " +
				std::to_string(blen);

	Guarded g(alen);
	const std::vector<chunk> a0 = a, b0 = b;
	ASSERT_EQ(fn(g.r(), a.data(), alen, b.data(), blen), want_c) << ctx;
	bt::to_mpz(got, g.r(), alen);
	ASSERT_EQ(mpz_cmp(got, want), 0) << ctx;
	ASSERT_TRUE(g.guards_ok()) << ctx;
	ASSERT_EQ(a, a0) << ctx;
	ASSERT_EQ(b, b0) << ctx;

	/* r == a */
	std::vector<chunk> ra = a;
	ASSERT_EQ(fn(ra.data(), ra.data(), alen, b.data(), blen), want_c) << ctx << " r == a";
	bt::to_mpz(got, ra.data(), alen);
	ASSERT_EQ(mpz_cmp(got, want), 0) << ctx << " r == a";
	/* r == b (b has room for alen chunks here) */
	std::vector<chunk> rb(static_cast<size_t>(alen) + 1, 0);
	std::copy(b.begin(), b.begin() + blen, rb.begin());
	ASSERT_EQ(fn(rb.data(), a.data(), alen, rb.data(), blen), want_c) << ctx << " r == b";
	bt::to_mpz(got, rb.data(), alen);
	ASSERT_EQ(mpz_cmp(got, want), 0) << ctx << " r == b";
}

TEST(VecArith, AddSubEveryLength)
{
	bt::Rng rng(301);
	for (int alen = 0; alen <= kMaxLen; alen++) {
		for (bool add : { true, false }) {
			if (alen <= 12) {
				for (int blen = 0; blen <= alen; blen++)
					check_addsub(add, rng, alen, blen);
			} else {
				check_addsub(add, rng, alen, alen);
				check_addsub(add, rng, alen, 0);
				for (int k = 0; k < 3; k++)
					check_addsub(add, rng, alen,
						     static_cast<int>(rng.below(static_cast<uint64_t>(alen) + 1)));
			}
		}
	}
}

TEST(VecArith, AddSubCarryEdges)
{
	/* All-ones plus one carries through every chunk; zero minus one
	 * borrows through every chunk. */
	for (int len = 1; len <= 20; len++) {
		std::vector<chunk> ones(static_cast<size_t>(len), BIG_CHUNK_ALLBITS);
		std::vector<chunk> zeros(static_cast<size_t>(len), 0), one(1, 1), r(static_cast<size_t>(len));
		EXPECT_EQ(big_add_vec(r.data(), ones.data(), len, one.data(), 1), 1u) << len;
		EXPECT_EQ(r, zeros) << len;
		EXPECT_EQ(big_sub_vec(r.data(), zeros.data(), len, one.data(), 1), 1u) << len;
		EXPECT_EQ(r, ones) << len;
		EXPECT_EQ(big_add_vec(r.data(), ones.data(), len, ones.data(), len), 1u) << len;
		EXPECT_EQ(big_sub_vec(r.data(), ones.data(), len, ones.data(), len), 0u) << len;
		EXPECT_EQ(r, zeros) << len;
	}
}

/* A random odd modulus of exactly len chunks (top chunk non-zero). */
void random_modulus(bt::Rng &rng, mpz_t n, int len)
{
	std::vector<chunk> v = rng.vec(len);
	if (v[static_cast<size_t>(len) - 1] == 0)
		v[static_cast<size_t>(len) - 1] = 1 + (rng.chunk_any() >> 1);
	v[0] |= 1;
	bt::to_mpz(n, v.data(), len);
}

/* A value in [0, bound), often an edge value. */
void random_below(bt::Rng &rng, mpz_t out, const mpz_t bound, int len)
{
	switch (rng.below(6)) {
	case 0: mpz_set_ui(out, 0); break;
	case 1: mpz_sub_ui(out, bound, 1); break;
	default: {
		std::vector<chunk> w = rng.vec(len + 1);
		bt::to_mpz(out, w.data(), len + 1);
		mpz_mod(out, out, bound);
	}
	}
}

TEST(VecArith, SubIfGe)
{
	bt::Rng rng(302);
	for (int len = 1; len <= BIG_MAX_MODULUS_CHUNKS; len += (len < kMaxLen ? 1 : 29)) {
		for (int rep = 0; rep < 12; rep++) {
			Mpz n, twice, x, want, top_part;
			random_modulus(rng, n, len);
			mpz_mul_2exp(twice, n, 1);
			switch (rep) {
			case 0: mpz_set(x, n); break;             /* exactly n: gives 0 */
			case 1: mpz_sub_ui(x, n, 1); break;       /* n - 1: kept */
			case 2: mpz_sub_ui(x, twice, 1); break;   /* 2n - 1: top may be 1 */
			case 3: mpz_set_ui(x, 0); break;
			default: random_below(rng, x, twice, len);
			}
			mpz_mod(want, x, n);
			std::vector<chunk> t = bt::chunks_of(x, len + 1);
			const chunk top = t[static_cast<size_t>(len)];
			ASSERT_LE(top, 1u);
			const std::string ctx = "len " + std::to_string(len) + " rep " + std::to_string(rep);
			ASSERT_NO_FATAL_FAILURE(expect_op(
				len, want, ctx + " x " + bt::hex(x), { t, bt::chunks_of(n, len) },
				{ { 0, "t" } }, [&](chunk *r, const std::vector<chunk *> &in) {
					big_sub_if_ge_vec(r, in[0], top, in[1], len);
				}));
		}
	}
}

TEST(VecArith, SubMod)
{
	bt::Rng rng(303);
	for (int len = 1; len <= kMaxLen; len++) {
		for (int rep = 0; rep < 10; rep++) {
			Mpz n, a, b, want;
			random_modulus(rng, n, len);
			random_below(rng, a, n, len);
			if (rep == 0)
				mpz_set(b, a);
			else
				random_below(rng, b, n, len);
			mpz_sub(want, a, b);
			mpz_mod(want, want, n);
			const std::string ctx = "len " + std::to_string(len) + "\n n " + bt::hex(n) +
						"\n a " + bt::hex(a) + "\n b " + bt::hex(b);
			ASSERT_NO_FATAL_FAILURE(expect_op(
				len, want, ctx,
				{ bt::chunks_of(a, len), bt::chunks_of(b, len), bt::chunks_of(n, len) },
				{ { 0, "a" }, { 1, "b" } }, [&](chunk *r, const std::vector<chunk *> &in) {
					big_sub_mod_vec(r, in[0], in[1], in[2], len);
				}));
		}
	}
}

TEST(VecArith, SqrDiag)
{
	bt::Rng rng(304);
	for (int len = 1; len <= kMaxLen; len++) {
		for (int rep = 0; rep < 4; rep++) {
			std::vector<chunk> a = rng.vec(len);
			if (rep == 0)
				std::fill(a.begin(), a.end(), BIG_CHUNK_ALLBITS);
			/* The off-diagonal sum by GMP: (a^2 - sum a[i]^2 B^2i) / 2. */
			Mpz za, sq, diag, term, off, want, got;
			bt::to_mpz(za, a.data(), len);
			mpz_mul(want, za, za);
			for (int i = 0; i < len; i++) {
				mpz_set_ui(term, 0);
				Mpz ai;
				bt::to_mpz(ai, &a[static_cast<size_t>(i)], 1);
				mpz_mul(term, ai, ai);
				mpz_mul_2exp(term, term, static_cast<mp_bitcnt_t>(2 * i * kChunkBits));
				mpz_add(diag, diag, term);
			}
			mpz_sub(off, want, diag);
			mpz_tdiv_q_2exp(off, off, 1);
			Guarded g(2 * len);
			std::vector<chunk> ov = bt::chunks_of(off, 2 * len);
			std::copy(ov.begin(), ov.end(), g.r());
			big_sqr_diag_vec(g.r(), a.data(), len);
			bt::to_mpz(got, g.r(), 2 * len);
			ASSERT_EQ(mpz_cmp(got, want), 0) << "len " << len << " rep " << rep;
			ASSERT_TRUE(g.guards_ok()) << "len " << len;
		}
	}
}

TEST(VecArith, CopyPad)
{
	bt::Rng rng(305);
	for (int rlen = 0; rlen <= 40; rlen++) {
		for (int alen = -1; alen <= rlen; alen++) {
			const int have = alen < 0 ? 0 : alen;
			/* The source ends exactly at alen: reading past it would be
			 * caught by the sanitizer build. */
			std::vector<chunk> a = rng.vec(have + 1);
			a.resize(static_cast<size_t>(have));
			Guarded g(rlen);
			big_copy_pad_vec(g.r(), rlen, have ? a.data() : nullptr, alen);
			for (int j = 0; j < rlen; j++)
				ASSERT_EQ(g.r()[j], j < have ? a[static_cast<size_t>(j)] : 0u)
					<< "rlen " << rlen << " alen " << alen << " j " << j;
			ASSERT_TRUE(g.guards_ok()) << "rlen " << rlen << " alen " << alen;
		}
	}
}

TEST(EqualCt, AgainstCmpAbsAndGmp)
{
	bt::Rng rng(306);
	for (int len = 1; len <= kMaxLen; len += (len < 20 ? 1 : 7)) {
		std::vector<chunk> w = rng.vec(len);
		Mpz x;
		bt::to_mpz(x, w.data(), len);
		Big a(x), b(x);
		EXPECT_EQ(big_equal_ct(&a.b, &b.b), 1) << len;
		/* The same value stored with high zero chunks; a negative sign
		 * does not count (magnitudes). */
		ASSERT_EQ(big_extend(&b.b, b.b.len + 3), BIG_OK);
		for (int i = b.b.len; i < b.b.len + 3; i++)
			b.b.value[i] = 0;
		b.b.len += 3;
		b.b.sign = -1;
		EXPECT_EQ(big_equal_ct(&a.b, &b.b), 1) << len;
		EXPECT_EQ(big_equal_ct(&b.b, &a.b), 1) << len;
		/* One chunk different, at every position inside b's len. */
		for (int i = 0; i < b.b.len; i++) {
			const chunk keep = b.b.value[i];
			b.b.value[i] ^= static_cast<chunk>(1) << rng.below(kChunkBits);
			Mpz zb;
			bt::to_mpz(zb, &b.b);
			const int want = mpz_cmpabs(x, zb) == 0;
			EXPECT_EQ(big_equal_ct(&a.b, &b.b), want) << "len " << len << " i " << i;
			EXPECT_EQ(big_equal_ct(&a.b, &b.b), big_cmp_abs(&a.b, &b.b) == 0);
			b.b.value[i] = keep;
		}
	}
	/* Zero in its forms: len 0, len 1, high zero chunks. */
	Big z0(1), z1(1), z3(3), one(1);
	z0.b.len = 0;
	z3.b.value[1] = z3.b.value[2] = 0;
	z3.b.len = 3;
	one.b.value[0] = 1;
	EXPECT_EQ(big_equal_ct(&z0.b, &z1.b), 1);
	EXPECT_EQ(big_equal_ct(&z0.b, &z3.b), 1);
	EXPECT_EQ(big_equal_ct(&z3.b, &z1.b), 1);
	EXPECT_EQ(big_equal_ct(&z0.b, &one.b), 0);
	EXPECT_EQ(big_equal_ct(&one.b, &z3.b), 0);
}

} // namespace
