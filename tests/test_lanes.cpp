// bigmont-test: once
/*
 * The lane kernels (bignum/lanes/) against GMP, in each build: the twin
 * (portable C) and AVX2 (skipped, "skipped: no AVX2", where the CPU lacks
 * it); and the batch CRT exponentiation against big_modexp_crt.  Nothing
 * here depends on the chunk-kernel variant: the suite runs once.
 *
 * - Conversion: chunks <-> 28-bit digits at digit counts 5..76, every lane,
 *   random density, other lanes untouched, vs GMP's export with 36 nail bits.
 * - Products and squarings: digit counts 5..24, 37, 55, 74, 76, a modulus
 *   of its own in every lane (full size, small, all-ones), operands 0, 1,
 *   m-1, 2m-1, random below 2m, and the same operand in every lane; the
 *   exact almost-Montgomery value (a b + Y m) / R, Y = -a b m^-1 mod R
 *   (not only its residue), normalised digits, aliasing.
 * - The exponentiation: digit counts 5, 6, 7, 19, 37, 55, 74, bases 0, 1,
 *   m-1 and random, exponents 0, 1, all-ones and random per lane, vs
 *   mpz_powm; R^2 from big_lanes_mod_init against GMP's.
 * - BIGMONT_TEST_SCALE scales the random rounds of the products and the
 *   exponentiation (at least two: every edge kind, every size at any
 *   scale); below 1 the batch CRT runs every count at 512 bits only.
 * - The avx2 build's two kernels at 19, 37, 55 digits (lanes.h: the NASM
 *   ones and the intrinsics), each called by name: words equal to the twin's, the
 *   twin's equal to GMP's, every aliasing.  The avx2 instances run the
 *   side the tuning binds; tests/tuning.cmake runs them with each side.
 * - The batch CRT: 1..4 operations at the RSA prime lengths, random odd
 *   coprime moduli per operation, vs big_modexp_crt on the same inputs,
 *   and the AVX2 build's words equal to the twin's.
 * The seed is printed (BIGMONT_TEST_SEED replays it).
 */
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "internal.h"
#include "lanes/lanes.h"
#include "testutil.h"

namespace {

using bt::Mpz;

struct Build {
	const char *name;
	big_lanes_ops ops;
	bool runnable;
};

void PrintTo(const Build &b, std::ostream *os)
{
	*os << b.name;
}

std::vector<Build> builds()
{
	std::vector<Build> v{ { "twin", BIG_LANES_OPS_INIT(c), true } };
#if BIG_LANES_HAVE_AVX2_BUILD
	v.push_back({ "avx2", BIG_LANES_OPS_INIT(avx2), big_lanes_cpu_has_avx2() != 0 });
#endif
	return v;
}

/* Digits of v in radix 2^28 by GMP's export with 36 nail bits. */
std::vector<uint64_t> gmp_digits(const mpz_t v, int k)
{
	std::vector<uint64_t> d(static_cast<size_t>(k) + 80, 0);
	size_t count = 0;
	EXPECT_LE(mpz_sizeinbase(v, 2), static_cast<size_t>(28 * k));
	if (mpz_sgn(v) != 0)
		mpz_export(d.data(), &count, -1, sizeof(uint64_t), 0, 36, v);
	d.resize(static_cast<size_t>(k));
	return d;
}

struct LaneNum {
	int k;
	std::vector<uint64_t> w;
	explicit LaneNum(int k_) : k(k_), w(BIG_LANES_WORDS(k_), 0) {}
	uint64_t *x() { return w.data(); }
	void set(int l, const mpz_t v)
	{
		std::vector<uint64_t> d = gmp_digits(v, k);
		for (int j = 0; j < k; j++)
			w[BIG_LANES_AT(j, l)] = d[static_cast<size_t>(j)];
	}
	/* Lane l as a number; false if a digit is not normalised. */
	bool get(int l, mpz_t out) const
	{
		std::vector<uint64_t> d(static_cast<size_t>(k));
		bool ok = true;
		for (int j = 0; j < k; j++) {
			d[static_cast<size_t>(j)] = w[BIG_LANES_AT(j, l)];
			ok = ok && d[static_cast<size_t>(j)] <= BIG_LANES_DIGIT_MASK;
		}
		mpz_import(out, static_cast<size_t>(k), -1, sizeof(uint64_t), 0, 36, d.data());
		return ok;
	}
};

/* A random odd modulus below 2^(28k - 2), > 1. */
void random_modulus(bt::Rng &rng, mpz_t m, int k, int kind)
{
	const int top = 28 * k - 2;
	if (kind == 0) { /* all ones */
		mpz_set_ui(m, 1);
		mpz_mul_2exp(m, m, static_cast<mp_bitcnt_t>(top));
		mpz_sub_ui(m, m, 1);
		return;
	}
	if (kind == 1)
		rng.mpz_bits(m, 2 + static_cast<int>(rng.below(static_cast<uint64_t>(top - 1))));
	else
		rng.mpz_bits(m, top - static_cast<int>(rng.below(3)));
	mpz_setbit(m, 0);
	if (mpz_cmp_ui(m, 1) == 0)
		mpz_set_ui(m, 3);
}

/* Eight moduli with k0 and R^2 mod m from GMP. */
struct Moduli {
	big_lanes_mod mod;
	Mpz m[BIG_LANES];
	explicit Moduli(bt::Rng &rng, int k)
	{
		memset(&mod, 0, sizeof(mod));
		mod.digits = k;
		LaneNum mm(k), rr(k);
		Mpz r2;
		for (int l = 0; l < BIG_LANES; l++) {
			random_modulus(rng, m[l], k, static_cast<int>(rng.below(6)));
			mm.set(l, m[l]);
			mod.k0[l] = big_lanes_k0(mpz_getlimbn(m[l], 0));
			mpz_set_ui(r2, 1);
			mpz_mul_2exp(r2, r2, static_cast<mp_bitcnt_t>(56 * k));
			mpz_mod(r2, r2, m[l]);
			rr.set(l, r2);
		}
		memcpy(mod.m, mm.w.data(), mm.w.size() * 8);
		memcpy(mod.rr, rr.w.data(), rr.w.size() * 8);
	}
};

/* (x + Y m) / R with Y = -x m^-1 mod R: the exact almost-Montgomery value. */
void amm(mpz_t out, const mpz_t x, const mpz_t m, int k)
{
	Mpz R, y, inv;
	mpz_set_ui(R, 1);
	mpz_mul_2exp(R, R, static_cast<mp_bitcnt_t>(28 * k));
	mpz_invert(inv, m, R);
	mpz_mul(y, x, inv);
	mpz_neg(y, y);
	mpz_mod(y, y, R);
	mpz_mul(y, y, m);
	mpz_add(out, x, y);
	mpz_tdiv_q_2exp(out, out, static_cast<mp_bitcnt_t>(28 * k));
}

/* An operand below 2m of a kind: 0, 1, m-1, 2m-1, random. */
void operand(bt::Rng &rng, mpz_t v, const mpz_t m, int kind)
{
	switch (kind) {
	case 0:
		mpz_set_ui(v, 0);
		break;
	case 1:
		mpz_set_ui(v, 1);
		break;
	case 2:
		mpz_sub_ui(v, m, 1);
		break;
	case 3:
		mpz_mul_2exp(v, m, 1);
		mpz_sub_ui(v, v, 1);
		break;
	default: {
		Mpz two_m;
		mpz_mul_2exp(two_m, m, 1);
		rng.mpz_bits(v, static_cast<int>(mpz_sizeinbase(two_m, 2)));
		mpz_mod(v, v, two_m);
	}
	}
}

class Lanes : public ::testing::TestWithParam<Build> {
protected:
	void SetUp() override
	{
		if (!GetParam().runnable)
			GTEST_SKIP() << "skipped: no AVX2";
	}
	const big_lanes_ops &ops() const { return GetParam().ops; }
};

std::vector<int> product_sizes()
{
	std::vector<int> v;
	for (int k = BIG_LANES_MIN_DIGITS; k <= 24; k++)
		v.push_back(k);
	for (int k : { 37, 55, 74, 76 })
		v.push_back(k);
	return v;
}

TEST(LanesConvert, RoundTripsAgainstGmp)
{
	bt::Rng rng(0x1a4e5001);
	for (int k = BIG_LANES_MIN_DIGITS; k <= BIG_LANES_MAX_DIGITS; k++) {
		const int bits = 28 * k;
		const int len = (bits + BIG_CHUNK_SIZE - 1) / BIG_CHUNK_SIZE;
		LaneNum x(k);
		for (size_t i = 0; i < x.w.size(); i++)
			x.w[i] = 0x0badbeefULL;
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz v, back;
			rng.mpz_bits(v, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(bits))));
			std::vector<bt::chunk> w = bt::chunks_of(v, len);
			big_lanes_from_chunks(x.x(), l, k, w.data(), len);
			ASSERT_TRUE(x.get(l, back));
			ASSERT_EQ(mpz_cmp(v, back), 0) << "k " << k << " lane " << l;
			if (l + 1 < BIG_LANES) {
				ASSERT_EQ(x.w[BIG_LANES_AT(0, l + 1)], 0x0badbeefULL);
			}
			std::vector<bt::chunk> out(static_cast<size_t>(len), 7);
			big_lanes_to_chunks(out.data(), len, x.x(), l, k);
			ASSERT_EQ(out, w) << "k " << k << " lane " << l;
		}
	}
}

TEST_P(Lanes, ProductsAreExact)
{
	bt::Rng rng(0x1a4e5002);
	/* Rounds scale with BIGMONT_TEST_SCALE, at least two: round 0 gives
	 * lane l the operand kinds l mod 5 and (l + 3) mod 5 (every edge in
	 * a and in b), the last round the same operand in every lane. */
	const int rounds = static_cast<int>(std::max(2L, bt::scaled(12)));
	for (int k : product_sizes()) {
		Moduli M(rng, k);
		for (int round = 0; round < rounds; round++) {
			LaneNum a(k), b(k), r(k), s(k), alias(k);
			Mpz av[BIG_LANES], bv[BIG_LANES];
			const bool same = round == rounds - 1;
			for (int l = 0; l < BIG_LANES; l++) {
				operand(rng, av[l], M.m[l],
					same ? 4 : round == 0 ? l % 5 : static_cast<int>(rng.below(8)));
				operand(rng, bv[l], M.m[l],
					round == 0 ? (l + 3) % 5 : static_cast<int>(rng.below(8)));
				if (same && l > 0 && mpz_cmp(av[0], M.m[l]) < 0)
					mpz_set(av[l], av[0]);
				a.set(l, av[l]);
				b.set(l, bv[l]);
			}
			ops().mul(r.x(), a.x(), b.x(), &M.mod);
			ops().sqr(s.x(), a.x(), &M.mod);
			alias = a;
			ops().mul(alias.x(), alias.x(), b.x(), &M.mod);
			EXPECT_EQ(alias.w, r.w) << "k " << k << ": r aliasing a";
			/* The product's last row reads b as the final carry pass
			 * writes r (lanes_impl.h: ln_carry_out). */
			alias = b;
			ops().mul(alias.x(), a.x(), alias.x(), &M.mod);
			EXPECT_EQ(alias.w, r.w) << "k " << k << ": r aliasing b";
			alias = a;
			ops().mul(alias.x(), alias.x(), alias.x(), &M.mod);
			EXPECT_EQ(alias.w, s.w) << "k " << k << ": r, a and b one";
			alias = a;
			ops().sqr(alias.x(), alias.x(), &M.mod);
			EXPECT_EQ(alias.w, s.w) << "k " << k << ": sqr in place";
			for (int l = 0; l < BIG_LANES; l++) {
				Mpz want, got, x;
				mpz_mul(x, av[l], bv[l]);
				amm(want, x, M.m[l], k);
				ASSERT_TRUE(r.get(l, got)) << "k " << k << " lane " << l << ": not normalised";
				ASSERT_EQ(mpz_cmp(want, got), 0)
					<< "mul k " << k << " lane " << l << " a " << bt::hex(av[l])
					<< " b " << bt::hex(bv[l]) << " m " << bt::hex(M.m[l]);
				mpz_mul(x, av[l], av[l]);
				amm(want, x, M.m[l], k);
				ASSERT_TRUE(s.get(l, got));
				ASSERT_EQ(mpz_cmp(want, got), 0)
					<< "sqr k " << k << " lane " << l << " a " << bt::hex(av[l])
					<< " m " << bt::hex(M.m[l]);
			}
		}
	}
}

TEST_P(Lanes, ExponentiationMatchesGmp)
{
	bt::Rng rng(0x1a4e5003);
	/* Rounds scale with BIGMONT_TEST_SCALE, at least two: round 0 has
	 * one exponent word and gives lane l the base kind l mod 4 and the
	 * exponent kind (l + 1) mod 4 (every edge), the others random
	 * kinds and exponent lengths. */
	const int rounds = static_cast<int>(std::max(2L, bt::scaled(3)));
	for (int k : { 5, 6, 7, 19, 37, 55, 74 }) {
		Moduli M(rng, k);
		const int maxw = 28 * k / 64 + 1;
		for (int round = 0; round < rounds; round++) {
			const int ewords = round == 0 ? 1 : 1 + static_cast<int>(rng.below(static_cast<uint64_t>(maxw)));
			LaneNum base(k), out(k);
			std::vector<uint64_t> e(static_cast<size_t>(BIG_LANES * ewords));
			std::vector<uint64_t> scratch(big_lanes_pow_scratch(k));
			Mpz bv[BIG_LANES], ev[BIG_LANES];
			for (int l = 0; l < BIG_LANES; l++) {
				const int kind = round == 0 ? l % 4 : static_cast<int>(rng.below(6));
				if (kind < 2)
					mpz_set_ui(bv[l], static_cast<unsigned long>(kind));
				else if (kind == 2)
					mpz_sub_ui(bv[l], M.m[l], 1);
				else {
					rng.mpz_bits(bv[l], 28 * k);
					mpz_mod(bv[l], bv[l], M.m[l]);
				}
				base.set(l, bv[l]);
				const int ek = round == 0 ? (l + 1) % 4 : static_cast<int>(rng.below(5));
				for (int w = 0; w < ewords; w++) {
					uint64_t v = rng.next();
					if (ek == 0)
						v = 0;
					else if (ek == 1)
						v = w == 0 ? 1 : 0;
					else if (ek == 2)
						v = ~0ULL;
					e[static_cast<size_t>(l * ewords + w)] = v;
				}
				mpz_import(ev[l], static_cast<size_t>(ewords), -1, 8, 0, 0,
					   e.data() + l * ewords);
			}
			ops().pow(out.x(), base.x(), e.data(), ewords, &M.mod, scratch.data());
			for (int l = 0; l < BIG_LANES; l++) {
				Mpz want, got;
				mpz_powm(want, bv[l], ev[l], M.m[l]);
				ASSERT_TRUE(out.get(l, got));
				ASSERT_EQ(mpz_cmp(want, got), 0)
					<< "k " << k << " lane " << l << " base " << bt::hex(bv[l])
					<< " e " << bt::hex(ev[l]) << " m " << bt::hex(M.m[l]);
			}
		}
	}
}

/* R^2 mod m from the radix-B R^2 (big_lanes_mod_init) at the RSA prime
 * lengths: congruent to 2^(56k) and below 2m. */
TEST_P(Lanes, ModInitGivesRSquared)
{
	bt::Rng rng(0x1a4e5004);
	for (int bits : { 512, 1024, 1536, 2048 }) {
		const int len = bits / BIG_CHUNK_SIZE, k = big_lanes_digits(bits);
		ASSERT_NE(k, 0);
		Mpz m[BIG_LANES], rr[BIG_LANES];
		std::vector<std::vector<bt::chunk>> mc, rc;
		const BIG_CHUNK_TYPE *mp[BIG_LANES], *rp[BIG_LANES];
		for (int l = 0; l < BIG_LANES; l++) {
			rng.mpz_bits(m[l], bits);
			mpz_setbit(m[l], 0);
			mpz_set_ui(rr[l], 1);
			mpz_mul_2exp(rr[l], rr[l], static_cast<mp_bitcnt_t>(2 * bits));
			mpz_mod(rr[l], rr[l], m[l]);
			mc.push_back(bt::chunks_of(m[l], len));
			rc.push_back(bt::chunks_of(rr[l], len));
		}
		for (int l = 0; l < BIG_LANES; l++) {
			mp[l] = mc[static_cast<size_t>(l)].data();
			rp[l] = rc[static_cast<size_t>(l)].data();
		}
		big_lanes_mod mod;
		LaneNum x(k), y(k), got(k);
		ASSERT_EQ(big_lanes_mod_init(&mod, k, mp, rp, len, &ops(), x.x(), y.x()), 0);
		memcpy(got.x(), mod.rr, got.w.size() * 8);
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz want, g, two_m;
			mpz_set_ui(want, 1);
			mpz_mul_2exp(want, want, static_cast<mp_bitcnt_t>(56 * k));
			mpz_mod(want, want, m[l]);
			ASSERT_TRUE(got.get(l, g));
			mpz_mul_2exp(two_m, m[l], 1);
			EXPECT_LT(mpz_cmp(g, two_m), 0);
			mpz_mod(g, g, m[l]);
			EXPECT_EQ(mpz_cmp(g, want), 0) << bits << " lane " << l;
			EXPECT_EQ(mod.k0[l], big_lanes_k0(mpz_getlimbn(m[l], 0)));
		}
	}
}

/* The batch CRT against big_modexp_crt, 1..4 operations per batch. */
TEST_P(Lanes, CrtBatchMatchesModexpCrt)
{
	bt::Rng rng(0x1a4e5005);
	/* Every count at 512 bits; 3 at the larger sizes, and at 1024 bits
	 * too where BIGMONT_TEST_SCALE is below 1 (the sanitizer build). */
	const bool reduced = bt::scaled(100) < 100;
	for (int bits : { 512, 1024, 1536, 2048 }) {
		const int len = bits / BIG_CHUNK_SIZE;
		for (int count = 1; count <= 4; count++) {
			if ((bits >= 1536 || (reduced && bits > 512)) && count != 3)
				continue;
			struct Op {
				Mpz p, q, a, dp, dq, pinv, prr, qrr;
			} op[4];
			std::vector<bt::Big *> hold;
			big_crt_batch_op bops[4];
			BIGNUM want[4];
			for (int i = 0; i < count; i++) {
				Op &o = op[i];
				do {
					rng.mpz_bits(o.p, bits);
					mpz_setbit(o.p, 0);
					rng.mpz_bits(o.q, bits);
					mpz_setbit(o.q, 0);
				} while (mpz_invert(o.pinv, o.p, o.q) == 0);
				Mpz n;
				mpz_mul(n, o.p, o.q);
				rng.mpz_bits(o.a, 2 * bits);
				mpz_mod(o.a, o.a, n);
				if (i == 1)
					mpz_set_ui(o.a, 0);
				if (i == 2)
					mpz_sub_ui(o.a, n, 1);
				rng.mpz_bits(o.dp, bits - 1);
				rng.mpz_bits(o.dq, bits - 3);
				for (Mpz *r : { &o.prr, &o.qrr }) {
					const mpz_srcptr mod = r == &o.prr ? o.p.v : o.q.v;
					mpz_set_ui(*r, 1);
					mpz_mul_2exp(*r, *r, static_cast<mp_bitcnt_t>(2 * len * BIG_CHUNK_SIZE));
					mpz_mod(*r, *r, mod);
				}
				bt::Big *b[8] = { new bt::Big(o.a), new bt::Big(o.dp), new bt::Big(o.dq),
						  new bt::Big(o.p), new bt::Big(o.q), new bt::Big(o.pinv),
						  new bt::Big(o.prr), new bt::Big(o.qrr) };
				for (bt::Big *x : b)
					hold.push_back(x);
				/* p and q at their full stored length (the key's). */
				for (int j = 3; j < 5; j++)
					ASSERT_EQ(b[j]->b.len, len);
				bt::Big *res = new bt::Big(2 * len + 1);
				hold.push_back(res);
				bops[i] = { res->get(), &b[0]->b, &b[1]->b, &b[2]->b, &b[3]->b,
					    &b[4]->b, &b[5]->b, &b[6]->b, &b[7]->b };
				ASSERT_EQ(big_init(&want[i], 2 * len + 1), BIG_OK);
				ASSERT_EQ(big_modexp_crt(&want[i], &b[0]->b, &b[1]->b, &b[2]->b, &b[3]->b,
							 &b[4]->b, &b[5]->b, &b[6]->b, &b[7]->b),
					  BIG_OK);
			}
			std::vector<uint8_t> scratch(big_crt_batch_scratch(len));
			ASSERT_EQ(big_modexp_crt_batch_ops(bops, count, &ops(), scratch.data(), scratch.size()),
				  BIG_OK);
			for (int i = 0; i < count; i++) {
				Mpz w, g;
				bt::to_mpz(w, &want[i]);
				bt::to_mpz(g, bops[i].result);
				EXPECT_EQ(mpz_cmp(w, g), 0) << bits << " bits, op " << i << " of " << count;
				big_finish(&want[i]);
			}
			for (bt::Big *x : hold)
				delete x;
		}
	}
}

#if BIG_LANES_HAVE_AVX2_BUILD
/* Both kernels of the avx2 build at 19, 37 and 55 digits (lanes.h): the
 * NASM ones and the intrinsics, whatever the tuning binds (the avx2
 * instances above run the bound side through the build's entry points),
 * against GMP and the twin's words, with every aliasing.  Rounds as
 * ProductsAreExact's. */
TEST(LanesNasm, NasmAndIntrinsicsMatchGmpAndTwin)
{
	if (!big_lanes_cpu_has_avx2())
		GTEST_SKIP() << "skipped: no AVX2";
	const struct {
		const char *name;
		big_lanes_mul_fn *mul;
		big_lanes_sqr_fn *sqr;
	} kernels[] = { { "nasm", big_lanes_mul_avx2_asm, big_lanes_sqr_avx2_asm },
			{ "intrinsics", big_lanes_mul_avx2_intrin, big_lanes_sqr_avx2_intrin } };
	bt::Rng rng(0x1a4e5037);
	const int rounds = static_cast<int>(std::max(2L, bt::scaled(12)));
	for (int k : { 19, 37, 55 }) {
	Moduli M(rng, k);
	for (int round = 0; round < rounds; round++) {
		LaneNum a(k), b(k), r(k), s(k), want_r(k), want_s(k), alias(k);
		Mpz av[BIG_LANES], bv[BIG_LANES];
		const bool same = round == rounds - 1;
		for (int l = 0; l < BIG_LANES; l++) {
			operand(rng, av[l], M.m[l],
				same ? 4 : round == 0 ? l % 5 : static_cast<int>(rng.below(8)));
			operand(rng, bv[l], M.m[l],
				round == 0 ? (l + 3) % 5 : static_cast<int>(rng.below(8)));
			if (same && l > 0 && mpz_cmp(av[0], M.m[l]) < 0)
				mpz_set(av[l], av[0]);
			a.set(l, av[l]);
			b.set(l, bv[l]);
		}
		big_lanes_mul_c(want_r.x(), a.x(), b.x(), &M.mod);
		big_lanes_sqr_c(want_s.x(), a.x(), &M.mod);
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz want, got, x;
			mpz_mul(x, av[l], bv[l]);
			amm(want, x, M.m[l], k);
			ASSERT_TRUE(want_r.get(l, got));
			ASSERT_EQ(mpz_cmp(want, got), 0) << "twin mul lane " << l;
			mpz_mul(x, av[l], av[l]);
			amm(want, x, M.m[l], k);
			ASSERT_TRUE(want_s.get(l, got));
			ASSERT_EQ(mpz_cmp(want, got), 0) << "twin sqr lane " << l;
		}
		for (const auto &kern : kernels) {
			kern.mul(r.x(), a.x(), b.x(), &M.mod);
			kern.sqr(s.x(), a.x(), &M.mod);
			ASSERT_EQ(r.w, want_r.w) << kern.name << " mul, k " << k << ", round " << round;
			ASSERT_EQ(s.w, want_s.w) << kern.name << " sqr, k " << k << ", round " << round;
			alias = a;
			kern.mul(alias.x(), alias.x(), b.x(), &M.mod);
			EXPECT_EQ(alias.w, want_r.w) << kern.name << ": r aliasing a";
			alias = b;
			kern.mul(alias.x(), a.x(), alias.x(), &M.mod);
			EXPECT_EQ(alias.w, want_r.w) << kern.name << ": r aliasing b";
			alias = a;
			kern.mul(alias.x(), alias.x(), alias.x(), &M.mod);
			EXPECT_EQ(alias.w, want_s.w) << kern.name << ": r, a and b one";
			alias = a;
			kern.sqr(alias.x(), alias.x(), &M.mod);
			EXPECT_EQ(alias.w, want_s.w) << kern.name << ": sqr in place";
		}
	}
	}
}
#endif

INSTANTIATE_TEST_SUITE_P(Builds, Lanes, ::testing::ValuesIn(builds()),
			 [](const ::testing::TestParamInfo<Build> &info) {
				 return std::string(info.param.name);
			 });

} // namespace
