// bigmont-test: once
/*
 * The radix-2^52 kernels (bignum/radix52/) against GMP, in each build: the
 * twin (portable C), the IFMA source against its emulated intrinsics
 * ("emulated", tests/radix52/), and the IFMA build itself ("ifma"), whose
 * instances tests/radix52.cmake runs as their own ctest entry: skipped,
 * with "skipped: no AVX-512 IFMA", where the CPU lacks it.  Nothing here
 * depends on the kernel variant, so the suite runs once
 * (tests/test_radix52_crt.cpp has the CRT path, per variant).
 *
 * - Conversion: every digit count 1..41, random density, both halves,
 *   round trips through words of several lengths, vs GMP's export with
 *   12 nail bits (52-bit digits).
 * - Products and squarings: every digit count 1..41, moduli of full size,
 *   small, all-ones; operands 0, 1, m-1, m, 2m-1, all-ones digits and
 *   random below 2m; the exact almost-Montgomery value (a b + Y m) / R with
 *   Y = -a b m^-1 mod R (not only its residue), normalised digits, zero
 *   padding, untouched words around the output, aliasing.
 * - One half alone (mod.halves = 1): the same exact values in half 0 at
 *   every digit count, half 1 of the result untouched, aliasing.
 * - The dual exponentiation: every digit count 1..41, bases 0, 1, m-1, m
 *   (so every power is m until the final subtraction makes it 0) and
 *   random, exponents 0, 1, all-ones and random of 1..k/1.2+1 words, R^2
 *   given below m and in [m, 2m), vs mpz_powm.
 * - The exponentiation by a public exponent, one half and two: every
 *   digit count, bases 0, 1, m-1, m, random below m and up to R/4 - 1,
 *   exponents 0, 1, 2, 3, 65537 and random of up to 130 bits, vs
 *   mpz_powm; half 1 untouched when alone.
 * - The 20-digit assembly product and squaring on their own (ifma): many
 *   more operands, every aliasing, through the ABI checker.
 */
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "abi_call.h"
#include "radix52/builds.h"
#include "stack_scan.h"
#include "testutil.h"

namespace {

using bt::Mpz;
using r52t::Build;

constexpr int kMaxTestDigits = 41;
constexpr uint64_t kGuard = 0x5a5a5a5a5a5a5a5aULL;

class Radix52 : public ::testing::TestWithParam<Build> {
protected:
	void SetUp() override
	{
		if (!GetParam().runnable)
			GTEST_SKIP() << "skipped: no AVX-512 IFMA";
	}
	const big_r52_ops &ops() const { return GetParam().ops; }
};

/* ---- GMP side ---------------------------------------------------------- */

/* Digits of v in radix 2^52 (k of them, zero-padded), by GMP's export with
 * 12 nail bits: an independent conversion. */
std::vector<uint64_t> gmp_digits(const mpz_t v, int k)
{
	std::vector<uint64_t> d(static_cast<size_t>(k) + 2, 0);
	size_t count = 0;
	EXPECT_LE(mpz_sizeinbase(v, 2), static_cast<size_t>(52 * k)) << "does not fit";
	if (mpz_sgn(v) != 0 && mpz_sizeinbase(v, 2) <= static_cast<size_t>(52 * k))
		mpz_export(d.data(), &count, -1, sizeof(uint64_t), 0, 12, v);
	d.resize(static_cast<size_t>(k));
	return d;
}

/* A dual number with guard words on both sides of its pair layout. */
class Dual {
public:
	explicit Dual(int k)
		: k_(k), words_(BIG_R52_PAIR_WORDS(k)),
		  buf_(static_cast<size_t>(words_) + 16, kGuard)
	{
		for (int w = 0; w < words_; w++)
			x()[w] = 0;
	}
	uint64_t *x() { return buf_.data() + 8; }
	const uint64_t *x() const { return buf_.data() + 8; }
	void set(int h, const mpz_t v)
	{
		std::vector<uint64_t> d = gmp_digits(v, k_);
		for (int j = 0; j < k_; j++)
			x()[BIG_R52_AT(h, j)] = d[static_cast<size_t>(j)];
	}
	/* Half h as a number; false if a digit is not normalised or a
	 * padding digit is not zero. */
	bool get(int h, mpz_t out) const
	{
		std::vector<uint64_t> d(static_cast<size_t>(k_));
		bool ok = true;
		for (int j = 0; j < BIG_R52_LANES * BIG_R52_GROUPS(k_); j++) {
			const uint64_t v = x()[BIG_R52_AT(h, j)];
			if (j < k_)
				d[static_cast<size_t>(j)] = v;
			ok = ok && (j < k_ ? v <= BIG_R52_DIGIT_MASK : v == 0);
		}
		mpz_import(out, static_cast<size_t>(k_), -1, sizeof(uint64_t), 0, 12, d.data());
		return ok;
	}
	bool guards_intact() const
	{
		for (int i = 0; i < 8; i++)
			if (buf_[static_cast<size_t>(i)] != kGuard ||
			    buf_[static_cast<size_t>(8 + words_ + i)] != kGuard)
				return false;
		return true;
	}

private:
	int k_, words_;
	std::vector<uint64_t> buf_;
};

/* A random odd modulus below 2^(52k - 2), > 1: full size, smaller, or
 * all-ones. */
void random_modulus(bt::Rng &rng, mpz_t m, int k, int kind)
{
	const int top = 52 * k - 2;
	switch (kind) {
	case 0: /* all ones: every digit 2^52 - 1 but the top one */
		mpz_set_ui(m, 1);
		mpz_mul_2exp(m, m, static_cast<mp_bitcnt_t>(top));
		mpz_sub_ui(m, m, 1);
		return;
	case 1: /* small */
		rng.mpz_bits(m, 2 + static_cast<int>(rng.below(static_cast<uint64_t>(top - 1))));
		break;
	default:
		rng.mpz_bits(m, top);
		break;
	}
	mpz_setbit(m, 0);
	if (mpz_cmp_ui(m, 1) == 0)
		mpz_set_ui(m, 3);
}

/* One half of a modulus: m, k0 = -m^-1 mod 2^52, rr = R^2 mod m (+ m). */
void set_modulus(big_r52_dual_mod *mod, Dual *mbuf, Dual *rrbuf, int h, const mpz_t m,
		 bool rr_above_m)
{
	const int k = mod->digits;
	Mpz two52, inv, rr;
	mpz_ui_pow_ui(two52, 2, 52);
	ASSERT_NE(mpz_invert(inv, m, two52), 0);
	mpz_sub(inv, two52, inv);
	mod->k0[h] = mpz_get_ui(inv);
	mpz_ui_pow_ui(rr, 2, static_cast<unsigned long>(104 * k));
	mpz_mod(rr, rr, m);
	if (rr_above_m)
		mpz_add(rr, rr, m);
	mbuf->set(h, m);
	rrbuf->set(h, rr);
	for (int j = 0; j < BIG_R52_PAIR_WORDS(k); j++) {
		mod->m[j] = mbuf->x()[j];
		mod->rr[j] = rrbuf->x()[j];
	}
}

/* (a b + Y m) / R, Y = -a b m^-1 mod R: the exact almost-Montgomery value. */
void amm_value(mpz_t out, const mpz_t a, const mpz_t b, const mpz_t m, int k)
{
	Mpz R, ab, y, minv;
	mpz_ui_pow_ui(R, 2, static_cast<unsigned long>(52 * k));
	mpz_mul(ab, a, b);
	ASSERT_NE(mpz_invert(minv, m, R), 0);
	mpz_mul(y, ab, minv);
	mpz_neg(y, y);
	mpz_mod(y, y, R);
	mpz_addmul(ab, y, m);
	ASSERT_TRUE(mpz_divisible_p(ab, R));
	mpz_divexact(out, ab, R);
}

/* An operand below 2m: 0, 1, m-1, m, 2m-1, the largest all-ones number
 * below 2m, or random. */
void operand(bt::Rng &rng, mpz_t a, const mpz_t m)
{
	Mpz two_m;
	mpz_mul_2exp(two_m, m, 1);
	switch (rng.below(8)) {
	case 0: mpz_set_ui(a, 0); break;
	case 1: mpz_set_ui(a, 1); break;
	case 2: mpz_sub_ui(a, m, 1); break;
	case 3: mpz_set(a, m); break;
	case 4: mpz_sub_ui(a, two_m, 1); break;
	case 5:
		mpz_set_ui(a, 1);
		mpz_mul_2exp(a, a, mpz_sizeinbase(two_m, 2) - 1);
		mpz_sub_ui(a, a, 1);
		break;
	default:
		rng.mpz_bits(a, 1 + static_cast<int>(rng.below(mpz_sizeinbase(two_m, 2))));
		mpz_mod(a, a, two_m);
		break;
	}
}

struct Moduli {
	int k;
	big_r52_dual_mod mod;
	Mpz m[2];
	explicit Moduli(int digits) : k(digits)
	{
		std::memset(&mod, 0, sizeof(mod));
		mod.digits = k;
		mod.halves = 2;
	}
};

void make_moduli(bt::Rng &rng, Moduli *s, bool rr_above_m = false)
{
	Dual mbuf(s->k), rrbuf(s->k);
	for (int h = 0; h < 2; h++) {
		random_modulus(rng, s->m[h], s->k, static_cast<int>(rng.below(4)));
		set_modulus(&s->mod, &mbuf, &rrbuf, h, s->m[h], rr_above_m);
	}
	big_r52_dual_mod_prepare(&s->mod);
}

/* Fresh moduli of k digits and an operand pair below them (each half its
 * own kinds), as the product and squaring tests take them. */
struct AmmCase {
	Moduli s;
	Dual a, b;
	Mpz av[2], bv[2];
	AmmCase(bt::Rng &rng, int k) : s(k), a(k), b(k)
	{
		make_moduli(rng, &s);
		for (int h = 0; h < 2; h++) {
			operand(rng, av[h], s.m[h]);
			operand(rng, bv[h], s.m[h]);
			a.set(h, av[h]);
			b.set(h, bv[h]);
		}
	}
};

/* r = the product of the case's a and b, r2 = the square of a: both
 * normalised, each half the exact almost-Montgomery value (below 2m for
 * the product).  `what` names the call in a failure. */
void expect_exact(const AmmCase &c, const Dual &r, const Dual &r2, const std::string &what)
{
	const int k = c.s.k;
	for (int h = 0; h < 2; h++) {
		Mpz want, want_sq, got, got_sq, two_m;
		amm_value(want, c.av[h], c.bv[h], c.s.m[h], k);
		amm_value(want_sq, c.av[h], c.av[h], c.s.m[h], k);
		ASSERT_TRUE(r.get(h, got)) << "mul " << what << " not normalised";
		ASSERT_TRUE(r2.get(h, got_sq)) << "sqr " << what << " not normalised";
		ASSERT_EQ(mpz_cmp(got, want), 0)
			<< "mul " << what << " half " << h << "\n m " << bt::hex(c.s.m[h])
			<< "\n a " << bt::hex(c.av[h]) << "\n b " << bt::hex(c.bv[h]);
		ASSERT_EQ(mpz_cmp(got_sq, want_sq), 0)
			<< "sqr " << what << " half " << h << "\n m " << bt::hex(c.s.m[h])
			<< "\n a " << bt::hex(c.av[h]);
		mpz_mul_2exp(two_m, c.s.m[h], 1);
		ASSERT_LT(mpz_cmp(got, two_m), 0) << what;
	}
}

/* ---- conversion (one code for every build) ---------------------------- */

TEST(Radix52Convert, WordsToDigitsAndBackMatchGmp)
{
	bt::Rng rng(5201);
	for (int k = 1; k <= kMaxTestDigits; k++) {
		for (long rep = 0; rep < bt::scaled(8); rep++) {
			const int bits = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(52 * k)));
			const int nwords = (bits + 63) / 64 + static_cast<int>(rng.below(2));
			Mpz v[2];
			Dual d(k);
			for (int h = 0; h < 2; h++) {
				if (rng.below(5) == 0)
					mpz_set_ui(v[h], 0);
				else
					rng.mpz_bits(v[h], bits);
				std::vector<uint64_t> w(static_cast<size_t>(nwords), 0);
				size_t count = 0;
				mpz_export(w.data(), &count, -1, sizeof(uint64_t), 0, 0, v[h]);
				/* garbage in the padding digits must be overwritten */
				for (int j = k; j < BIG_R52_LANES * BIG_R52_GROUPS(k); j++)
					d.x()[BIG_R52_AT(h, j)] = rng.next();
				big_r52_from_words(d.x(), h, k, w.data(), nwords);
			}
			ASSERT_TRUE(d.guards_intact()) << "k " << k;
			for (int h = 0; h < 2; h++) {
				std::vector<uint64_t> want = gmp_digits(v[h], k);
				for (int j = 0; j < k; j++)
					ASSERT_EQ(d.x()[BIG_R52_AT(h, j)], want[static_cast<size_t>(j)])
						<< "k " << k << " half " << h << " digit " << j;
				Mpz back;
				ASSERT_TRUE(d.get(h, back)) << "k " << k;
				ASSERT_EQ(mpz_cmp(back, v[h]), 0) << "k " << k;
				/* back to words: exactly as many as the value needs, or more */
				for (int extra = 0; extra < 2; extra++) {
					const int n = (bits + 63) / 64 + extra;
					std::vector<uint64_t> w(static_cast<size_t>(n) + 1, kGuard);
					big_r52_to_words(w.data(), n, d.x(), h, k);
					ASSERT_EQ(w[static_cast<size_t>(n)], kGuard);
					Mpz got;
					bt::to_mpz(got, reinterpret_cast<const bt::chunk *>(w.data()),
						   n * 64 / bt::kChunkBits);
					ASSERT_EQ(mpz_cmp(got, v[h]), 0) << "k " << k << " words " << n;
				}
			}
		}
	}
}

/* ---- products and squarings ------------------------------------------- */

TEST_P(Radix52, ProductAndSquareAreExactAlmostMontgomery)
{
	bt::Rng rng(5202);
	for (int k = 1; k <= kMaxTestDigits; k++) {
		for (long rep = 0; rep < bt::scaled(6); rep++) {
			AmmCase c(rng, k);
			Dual r(k), r2(k);
			ops().mul(r.x(), c.a.x(), c.b.x(), &c.s.mod);
			ops().sqr(r2.x(), c.a.x(), &c.s.mod);
			ASSERT_TRUE(r.guards_intact() && r2.guards_intact()) << "k " << k;
			expect_exact(c, r, r2, "k " + std::to_string(k));
			if (HasFatalFailure())
				return;
		}
	}
}

/* Each side of the IFMA build's choices (the pair product and squaring,
 * at the fixed window's sizes the square by the pair product, the ymm
 * halves' product, the dedicated squaring), at every digit count,
 * called by name whatever this CPU binds: the emulated build's on every
 * CPU, the IFMA build's where it runs.  Exact against GMP, and the same
 * words as the twin's product and squaring; aliasing r == a. */
TEST(Radix52Sides, PairsHalvesAndDedicatedSquaringMatchGmpAndTheTwin)
{
	struct Sides {
		const char *name;
		big_r52_dual_mul_fn *pairs, *halves;
		big_r52_dual_sqr_fn *sqr_pairs, *sqr;
		bool runs;
	};
	std::vector<Sides> v = { { "emulated_pairs", big_r52_dual_mul_pairs_emu_pairs,
				   big_r52_dual_mul_halves_emu_pairs,
				   big_r52_dual_sqr_pairs_emu_pairs,
				   big_r52_dual_sqr_dedicated_emu_pairs, true } };
#if BIG_R52_HAVE_IFMA_BUILD
	v.push_back({ "ifma", big_r52_dual_mul_pairs_ifma, big_r52_dual_mul_halves_ifma,
		      big_r52_dual_sqr_pairs_ifma, big_r52_dual_sqr_dedicated_ifma,
		      big_r52_cpu_has_ifma() != 0 });
#endif
	bt::Rng rng(5209);
	long ran = 0;
	for (const Sides &b : v) {
		if (!b.runs)
			continue;
		for (int k = 1; k <= kMaxTestDigits; k++) {
			for (long rep = 0; rep < bt::scaled(3); rep++) {
				AmmCase c(rng, k);
				Dual twin(k), twin2(k);
				big_r52_dual_mul_c(twin.x(), c.a.x(), c.b.x(), &c.s.mod);
				big_r52_dual_sqr_c(twin2.x(), c.a.x(), &c.s.mod);
				big_r52_dual_mul_fn *const muls[2] = { b.pairs, b.halves };
				big_r52_dual_sqr_fn *const sqrs[2] = { b.sqr_pairs, b.sqr };
				for (int side = 0; side < 2; side++) {
					const std::string what = std::string(b.name) + (side ? " halves" : " pairs") +
								 " k " + std::to_string(k);
					Dual r(k), r2(k), sq(k);
					muls[side](r.x(), c.a.x(), c.b.x(), &c.s.mod);
					sqrs[side](r2.x(), c.a.x(), &c.s.mod);
					ASSERT_TRUE(r.guards_intact() && r2.guards_intact()) << what;
					expect_exact(c, r, r2, what);
					if (HasFatalFailure())
						return;
					ASSERT_EQ(std::memcmp(r.x(), twin.x(), sizeof(uint64_t) * BIG_R52_PAIR_WORDS(k)), 0)
						<< what << ": not the twin's words";
					ASSERT_EQ(std::memcmp(r2.x(), twin2.x(), sizeof(uint64_t) * BIG_R52_PAIR_WORDS(k)), 0)
						<< what << ": the squaring not the twin's words";
					/* the square by the product, in place (r == a == b) */
					std::memcpy(sq.x(), c.a.x(), sizeof(uint64_t) * BIG_R52_PAIR_WORDS(k));
					muls[side](sq.x(), sq.x(), sq.x(), &c.s.mod);
					Mpz got, want;
					for (int h = 0; h < 2; h++) {
						amm_value(want, c.av[h], c.av[h], c.s.m[h], k);
						ASSERT_TRUE(sq.get(h, got)) << what;
						ASSERT_EQ(mpz_cmp(got, want), 0) << what << " a * a in place, half " << h;
					}
					ran++;
				}
			}
		}
	}
	EXPECT_GT(ran, 0);
}

TEST_P(Radix52, ProductAndSquareMayAliasTheirInputs)
{
	bt::Rng rng(5203);
	for (int k : { 1, 5, 10, 20, 30, 40, 41 }) {
		Moduli s(k);
		make_moduli(rng, &s);
		Dual a(k), b(k), want(k), want_sq(k), x(k);
		for (int h = 0; h < 2; h++) {
			Mpz v;
			operand(rng, v, s.m[h]);
			a.set(h, v);
			operand(rng, v, s.m[h]);
			b.set(h, v);
		}
		const size_t bytes = sizeof(uint64_t) * static_cast<size_t>(BIG_R52_PAIR_WORDS(k));
		ops().mul(want.x(), a.x(), b.x(), &s.mod);
		ops().mul(want_sq.x(), a.x(), a.x(), &s.mod);
		std::memcpy(x.x(), a.x(), bytes);
		ops().mul(x.x(), x.x(), b.x(), &s.mod); /* r == a */
		ASSERT_EQ(std::memcmp(x.x(), want.x(), bytes), 0) << "k " << k;
		std::memcpy(x.x(), b.x(), bytes);
		ops().mul(x.x(), a.x(), x.x(), &s.mod); /* r == b */
		ASSERT_EQ(std::memcmp(x.x(), want.x(), bytes), 0) << "k " << k;
		std::memcpy(x.x(), a.x(), bytes);
		ops().mul(x.x(), x.x(), x.x(), &s.mod); /* r == a == b */
		ASSERT_EQ(std::memcmp(x.x(), want_sq.x(), bytes), 0) << "k " << k;
		std::memcpy(x.x(), a.x(), bytes);
		ops().sqr(x.x(), x.x(), &s.mod); /* r == a, squaring */
		ASSERT_EQ(std::memcmp(x.x(), want_sq.x(), bytes), 0) << "k " << k;
	}
}

/* Half 1 of every word of x set to a pattern a kernel never writes. */
void mark_half1(Dual *x, int k)
{
	for (int j = 0; j < BIG_R52_LANES * BIG_R52_GROUPS(k); j++)
		x->x()[BIG_R52_AT(1, j)] = kGuard ^ static_cast<uint64_t>(j);
}

bool half1_marked(const Dual &x, int k)
{
	for (int j = 0; j < BIG_R52_LANES * BIG_R52_GROUPS(k); j++)
		if (x.x()[BIG_R52_AT(1, j)] != (kGuard ^ static_cast<uint64_t>(j)))
			return false;
	return true;
}

TEST_P(Radix52, OneHalfAloneIsExactAndLeavesTheOther)
{
	bt::Rng rng(5206);
	for (int k = 1; k <= kMaxTestDigits; k++) {
		for (long rep = 0; rep < bt::scaled(8); rep++) {
			AmmCase c(rng, k);
			c.s.mod.halves = 1;
			Dual r(k), r2(k), in_place(k);
			mark_half1(&r, k);
			mark_half1(&r2, k);
			ops().mul(r.x(), c.a.x(), c.b.x(), &c.s.mod);
			ops().sqr(r2.x(), c.a.x(), &c.s.mod);
			ASSERT_TRUE(r.guards_intact() && r2.guards_intact()) << "k " << k;
			ASSERT_TRUE(half1_marked(r, k) && half1_marked(r2, k)) << "k " << k;
			for (int w = 0; w < BIG_R52_PAIR_WORDS(k); w++)
				in_place.x()[w] = c.a.x()[w];
			ops().sqr(in_place.x(), in_place.x(), &c.s.mod); /* r == a */
			Mpz want, want_sq, got, got_sq, in_place_v, two_m;
			amm_value(want, c.av[0], c.bv[0], c.s.m[0], k);
			amm_value(want_sq, c.av[0], c.av[0], c.s.m[0], k);
			ASSERT_TRUE(r.get(0, got) && r2.get(0, got_sq) && in_place.get(0, in_place_v))
				<< "k " << k << " not normalised";
			ASSERT_EQ(mpz_cmp(got, want), 0) << "mul k " << k << "\n m " << bt::hex(c.s.m[0])
							 << "\n a " << bt::hex(c.av[0]) << "\n b "
							 << bt::hex(c.bv[0]);
			ASSERT_EQ(mpz_cmp(got_sq, want_sq), 0) << "sqr k " << k << "\n m "
							       << bt::hex(c.s.m[0]) << "\n a "
							       << bt::hex(c.av[0]);
			ASSERT_EQ(mpz_cmp(in_place_v, want_sq), 0) << "sqr in place, k " << k;
			mpz_mul_2exp(two_m, c.s.m[0], 1);
			ASSERT_LT(mpz_cmp(got, two_m), 0) << "k " << k;
		}
	}
}

/* ---- the dual exponentiation ------------------------------------------ */

void random_exponent(bt::Rng &rng, std::vector<uint64_t> *e)
{
	const int n = static_cast<int>(e->size());
	switch (rng.below(6)) {
	case 0:
		for (auto &w : *e)
			w = 0;
		break;
	case 1:
		for (auto &w : *e)
			w = 0;
		(*e)[0] = 1;
		break;
	case 2:
		for (auto &w : *e)
			w = ~0ULL;
		break;
	default:
		rng.fill(reinterpret_cast<bt::chunk *>(e->data()), n * 64 / bt::kChunkBits);
		break;
	}
}

/* Scratch of `words` words at a random 8-byte alignment (the
 * exponentiations use it from its first 64-byte boundary), fenced: the
 * words around it must come back as they were. */
class FencedScratch {
public:
	FencedScratch(bt::Rng &rng, size_t words)
	    : off_(static_cast<size_t>(rng.below(8))), words_(words), all_(words + 16, kFence)
	{
	}
	uint64_t *data() { return all_.data() + off_; }
	bool intact() const
	{
		for (size_t i = 0; i < all_.size(); i++)
			if ((i < off_ || i >= off_ + words_) && all_[i] != kFence)
				return false;
		return true;
	}

private:
	static constexpr uint64_t kFence = 0x5ca77e2ed5ca77e2ULL;
	size_t off_, words_;
	std::vector<uint64_t> all_;
};

TEST_P(Radix52, DualPowMatchesPowm)
{
	bt::Rng rng(5204);
	for (int k = 1; k <= kMaxTestDigits; k++) {
		const long reps = k % 10 == 0 ? bt::scaled(3) : 1;
		for (long rep = 0; rep < reps; rep++) {
			Moduli s(k);
			make_moduli(rng, &s, rng.below(2) == 1);
			const int ewords = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(52 * k / 64 + 1)));
			std::vector<uint64_t> e[2] = { std::vector<uint64_t>(static_cast<size_t>(ewords)),
						       std::vector<uint64_t>(static_cast<size_t>(ewords)) };
			Dual base(k), out(k);
			Mpz bv[2];
			for (int h = 0; h < 2; h++) {
				switch (rng.below(6)) {
				case 0: mpz_set_ui(bv[h], 0); break;
				case 1: mpz_set_ui(bv[h], 1); break;
				case 2: mpz_sub_ui(bv[h], s.m[h], 1); break;
				case 3: mpz_set(bv[h], s.m[h]); break; /* 0 mod m, below 2m */
				default:
					rng.mpz_bits(bv[h], 52 * k);
					mpz_mod(bv[h], bv[h], s.m[h]);
				}
				base.set(h, bv[h]);
				random_exponent(rng, &e[h]);
			}
			FencedScratch scratch(rng, big_r52_dual_pow_scratch(k));
			ops().pow(out.x(), base.x(), e[0].data(), e[1].data(), ewords, &s.mod,
				  scratch.data());
			ASSERT_TRUE(out.guards_intact()) << "k " << k;
			ASSERT_TRUE(scratch.intact()) << "k " << k;
			for (int h = 0; h < 2; h++) {
				Mpz ev, want, got;
				mpz_import(ev, static_cast<size_t>(ewords), -1, sizeof(uint64_t), 0, 0,
					   e[h].data());
				mpz_powm(want, bv[h], ev, s.m[h]);
				ASSERT_TRUE(out.get(h, got)) << "k " << k << " not normalised";
				ASSERT_EQ(mpz_cmp(got, want), 0)
					<< "k " << k << " half " << h << "\n m " << bt::hex(s.m[h])
					<< "\n base " << bt::hex(bv[h]) << "\n e " << bt::hex(ev);
			}
		}
	}
}

/* ---- the exponentiation by a public exponent -------------------------- */

/* A public exponent: 0, 1, 2, 3, 65537 or random of 1..130 bits. */
void public_exponent(bt::Rng &rng, mpz_t e)
{
	switch (rng.below(8)) {
	case 0: mpz_set_ui(e, 0); break;
	case 1: mpz_set_ui(e, 1); break;
	case 2: mpz_set_ui(e, 2); break;
	case 3: mpz_set_ui(e, 3); break;
	case 4: mpz_set_ui(e, 65537); break;
	default: rng.mpz_bits(e, 1 + static_cast<int>(rng.below(130))); break;
	}
}

/* A base below R/4: 0, 1, m-1, m, random below m, or random of up to
 * 52k - 2 bits (above m for the smaller moduli). */
void public_pow_base(bt::Rng &rng, mpz_t b, const mpz_t m, int k)
{
	switch (rng.below(6)) {
	case 0: mpz_set_ui(b, 0); break;
	case 1: mpz_set_ui(b, 1); break;
	case 2: mpz_sub_ui(b, m, 1); break;
	case 3: mpz_set(b, m); break;
	case 4:
		rng.mpz_bits(b, 52 * k);
		mpz_mod(b, b, m);
		break;
	default: rng.mpz_bits(b, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(52 * k - 2)))); break;
	}
}

TEST_P(Radix52, PowPublicMatchesPowm)
{
	bt::Rng rng(5207);
	for (int k = 1; k <= kMaxTestDigits; k++) {
		const long reps = k % 10 == 0 ? bt::scaled(12) : bt::scaled(4);
		for (long rep = 0; rep < reps; rep++) {
			const int halves = rep % 2 == 0 ? 1 : 2;
			Moduli s(k);
			make_moduli(rng, &s, rng.below(2) == 1);
			s.mod.halves = halves;
			Mpz e, bv[2];
			public_exponent(rng, e);
			std::vector<uint64_t> ew(mpz_sizeinbase(e, 2) / 64 + 1, 0);
			size_t count = 0;
			mpz_export(ew.data(), &count, -1, sizeof(uint64_t), 0, 0, e);
			const int ebits = mpz_size(e) == 0 ? 0 : static_cast<int>(mpz_sizeinbase(e, 2));
			Dual base(k), out(k);
			mark_half1(&out, k);
			for (int h = 0; h < halves; h++) {
				public_pow_base(rng, bv[h], s.m[h], k);
				base.set(h, bv[h]);
			}
			FencedScratch scratch(rng, big_r52_pow_public_scratch(k));
			ops().pow_public(out.x(), base.x(), ew.data(), ebits, &s.mod, scratch.data());
			ASSERT_TRUE(out.guards_intact()) << "k " << k;
			ASSERT_TRUE(scratch.intact()) << "k " << k;
			if (halves == 1) {
				ASSERT_TRUE(half1_marked(out, k)) << "k " << k;
			}
			for (int h = 0; h < halves; h++) {
				Mpz want, got;
				mpz_powm(want, bv[h], e, s.m[h]);
				ASSERT_TRUE(out.get(h, got)) << "k " << k << " not normalised";
				ASSERT_EQ(mpz_cmp(got, want), 0)
					<< "k " << k << " halves " << halves << " half " << h << "\n m "
					<< bt::hex(s.m[h]) << "\n base " << bt::hex(bv[h]) << "\n e "
					<< bt::hex(e);
			}
		}
	}
}

std::vector<Build> builds()
{
	std::vector<Build> v = { r52t::twin(), r52t::emulated(), r52t::emulated_pairs() };
	for (const Build &b : r52t::ifma())
		v.push_back(b);
	return v;
}

INSTANTIATE_TEST_SUITE_P(Builds, Radix52, ::testing::ValuesIn(builds()),
			 [](const ::testing::TestParamInfo<Build> &info) {
				 return std::string(info.param.name);
			 });

/* ---- the 20-digit assembly squaring ----------------------------------- */

#if BIGMONT_HAVE_ASM && defined(__x86_64__)
/* The 20-digit assembly (asm/x86_64/r52_dual_{mul,sqr}20_ifma.asm), which
 * the IFMA build runs for every product and squaring at 20 digits, in
 * both tunings and as bound for this CPU, called directly through the
 * ABI checker: the callee-saved registers and rsp come back, the guard
 * words around r are untouched, r may be a and/or b, and the words are
 * the exact almost-Montgomery value (GMP) on many more operands than the
 * every-size test gives one size: all moduli kinds, all operand kinds,
 * the two halves' kinds independent. */
/* The NASM kernels: at 20 digits a product and a squaring in each
 * tuning; at 10 a product, which the exponentiation squares by too (sqr
 * NULL: the square is that product with b = a). */
struct AsmKernels {
	const char *name;
	int k;
	big_r52_dual_mul_fn *mul;
	big_r52_dual_sqr_fn *sqr;
};

class Radix52Asm : public Radix52 {
protected:
	void mul_and_sqr_are_exact(const AsmKernels &kn);
	void frames_are_wiped(int k);
};
const AsmKernels kAsmKernels[] = {
	{ "amd", 20, big_r52_dual_mul20_ifma_amd, big_r52_dual_sqr20_ifma_amd },
	{ "intel", 20, big_r52_dual_mul20_ifma_intel, big_r52_dual_sqr20_ifma_intel },
	{ "bound", 20, big_r52_dual_mul20_ifma_asm, big_r52_dual_sqr20_ifma_asm },
	{ "mul10", 10, big_r52_dual_mul10_ifma, nullptr },
};

TEST_P(Radix52Asm, MulAndSqrAreExactAndKeepTheAbi)
{
	for (const AsmKernels &kn : kAsmKernels) {
		SCOPED_TRACE(kn.name);
		mul_and_sqr_are_exact(kn);
		if (HasFatalFailure())
			return;
	}
}

void Radix52Asm::mul_and_sqr_are_exact(const AsmKernels &kn)
{
	const int k = kn.k, words = BIG_R52_PAIR_WORDS(k);
	bt::Rng rng(5220);
	for (long rep = 0; rep < bt::scaled(400); rep++) {
		AmmCase c(rng, k);
		Dual r(k), r2(k);
		/* rep % 4: 0 none, 1 r == a, 2 r == b, 3 r == a == b (b := a) */
		const int alias = static_cast<int>(rep % 4);
		if (alias == 3)
			for (int h = 0; h < 2; h++) {
				mpz_set(c.bv[h], c.av[h]);
				c.b.set(h, c.bv[h]);
			}
		std::memcpy(r.x(), alias == 2 ? c.b.x() : c.a.x(), sizeof(uint64_t) * words);
		std::memcpy(r2.x(), c.a.x(), sizeof(uint64_t) * words);
		const uint64_t *ain = alias == 1 || alias == 3 ? r.x() : c.a.x();
		const uint64_t *bin = alias >= 2 ? r.x() : c.b.x();
		bt::AbiCall mc = { { bt::ptr_arg(r.x()), bt::ptr_arg(ain), bt::ptr_arg(bin),
				     bt::ptr_arg(&c.s.mod) } };
		ASSERT_TRUE(bt::abi_call(reinterpret_cast<const void *>(kn.mul), &mc))
			<< "mul rep " << rep;
		const uint64_t *sin = alias ? r2.x() : c.a.x();
		bt::AbiCall sc = { { bt::ptr_arg(r2.x()), bt::ptr_arg(sin), bt::ptr_arg(&c.s.mod) } };
		if (kn.sqr == nullptr)
			sc = { { bt::ptr_arg(r2.x()), bt::ptr_arg(sin), bt::ptr_arg(sin),
				 bt::ptr_arg(&c.s.mod) } };
		const void *sfn = kn.sqr ? reinterpret_cast<const void *>(kn.sqr)
				       : reinterpret_cast<const void *>(kn.mul);
		ASSERT_TRUE(bt::abi_call(sfn, &sc))
			<< "sqr rep " << rep;
		ASSERT_TRUE(r.guards_intact() && r2.guards_intact()) << "rep " << rep;
		expect_exact(c, r, r2, "rep " + std::to_string(rep) + " alias " + std::to_string(alias));
		if (HasFatalFailure())
			return;
	}
}

/* The kernels leave copies of their operands and of m in a stack frame,
 * and values of them in zmm and mask registers, which their caller zeroes
 * when done (big_r52_dual20_ifma_wipe after the NASM kernels at 20 and 10
 * digits, big_r52_stack_wipe_ifma after the C kernels at 10, 30 and 40,
 * whichever this CPU binds there): after
 * a product, a squaring or an exponentiation none of a's digits, m's or
 * k0 << 12 is left below the caller.  The stack is zeroed before each call, so that what
 * the test's own setup left there does not count.  (Without the frame's
 * wipe the squaring leaves a's digits in its shifted copies; without the
 * registers' wipe, in the ASan build, the lazy binding of the first call
 * after the exponentiation saves them below the caller.) */
TEST_P(Radix52Asm, KernelFramesAreWipedByTheirCaller)
{
	/* 15, 25, 35: the run-time-k bodies (RSA-1536, 2560, 3584). */
	for (int k : { 20, 10, 30, 40, 15, 25, 35 }) {
		SCOPED_TRACE("k " + std::to_string(k));
		frames_are_wiped(k);
		if (HasFatalFailure())
			return;
	}
}

void Radix52Asm::frames_are_wiped(int k)
{
	const int words = BIG_R52_PAIR_WORDS(k);
	bt::Rng rng(5221 + (uint64_t)k);
	/* Only words no other code would leave there: digits of 40 bits or
	 * more, neither all-ones nor sparse; a case with some of them. */
	const auto distinctive = [](uint64_t v) {
		const int ones = __builtin_popcountll(v);
		return v >> 40 != 0 && ones >= 12 && ones <= 40;
	};
	std::unique_ptr<AmmCase> cp;
	std::vector<uint64_t> secret;
	for (int attempt = 0; attempt < 100 && secret.size() < 8; attempt++) {
		cp = std::make_unique<AmmCase>(rng, k);
		secret.clear();
		for (int h = 0; h < 2; h++) {
			for (int j = 0; j < k; j++)
				for (uint64_t v : { cp->a.x()[BIG_R52_AT(h, j)],
						    cp->s.mod.m[BIG_R52_AT(h, j)] })
					if (distinctive(v))
						secret.push_back(v);
			if (distinctive(cp->s.mod.k0[h] << 12))
				secret.push_back(cp->s.mod.k0[h] << 12);
		}
	}
	ASSERT_GE(secret.size(), 8u) << "no case with distinctive digits to look for";
	bt::mask_secrets(secret);
	AmmCase &c = *cp;
	Dual r(k);
	bt::scrub_stack_below();
	EXPECT_FALSE(bt::stack_below_holds(secret)) << "before any call";
	bt::scrub_stack_below();
	big_r52_dual_sqr_ifma(r.x(), c.a.x(), &c.s.mod);
	EXPECT_FALSE(bt::stack_below_holds(secret)) << "after the squaring";
	bt::scrub_stack_below();
	big_r52_dual_mul_ifma(r.x(), c.a.x(), c.b.x(), &c.s.mod);
	EXPECT_FALSE(bt::stack_below_holds(secret)) << "after the product";
	std::vector<uint64_t> out(static_cast<size_t>(words)), e(16, ~UINT64_C(0));
	std::vector<uint64_t> scratch(big_r52_dual_pow_scratch(k));
	for (int w = 0; w < words; w++)
		c.s.mod.rr[w] = c.a.x()[w]; /* any R^2 below 2m does */
	bt::scrub_stack_below();
	big_r52_dual_pow_ifma(out.data(), c.a.x(), e.data(), e.data(), 16, &c.s.mod,
			      scratch.data());
	/* The result's digits less m's (mod R) give m beside the result: a
	 * final subtraction must not leave them either.  Formed here, in this
	 * frame, above the stack scanned. */
	secret.reserve(secret.size() + 2 * static_cast<size_t>(k));
	for (int h = 0; h < 2; h++) {
		uint64_t borrow = 0;
		for (int j = 0; j < k; j++) {
			const uint64_t d = out[BIG_R52_AT(h, j)] - c.s.mod.m[BIG_R52_AT(h, j)] - borrow;
			borrow = d >> 63;
			if (distinctive(d & BIG_R52_DIGIT_MASK))
				secret.push_back((d & BIG_R52_DIGIT_MASK) ^ bt::kScanMask);
		}
	}
	EXPECT_FALSE(bt::stack_below_holds(secret)) << "after the exponentiation";

	/* The positive control: the C kernels' sides called as they are
	 * (radix52.h: they leave their frames to their caller) leave the
	 * digits that the calls above, which wipe, do not.  At 30 and 40
	 * digits, whose frames reach 5 KB; not under AddressSanitizer, whose
	 * frames are laid out apart. */
#if !defined(__SANITIZE_ADDRESS__)
	if (k == 30 || k == 40) {
		int found = 0;
		for (big_r52_dual_sqr_fn *sqr : { big_r52_dual_sqr_pairs_ifma,
						  big_r52_dual_sqr_dedicated_ifma }) {
			bt::scrub_stack_below();
			sqr(r.x(), c.a.x(), &c.s.mod);
			found += bt::stack_below_holds(secret);
		}
		for (big_r52_dual_mul_fn *mul : { big_r52_dual_mul_pairs_ifma,
						  big_r52_dual_mul_halves_ifma }) {
			bt::scrub_stack_below();
			mul(r.x(), c.a.x(), c.b.x(), &c.s.mod);
			found += bt::stack_below_holds(secret);
		}
		EXPECT_GT(found, 0) << "the control: no unwiped kernel left a digit, so the "
				       "checks above could not fail";
	}
#endif
}

INSTANTIATE_TEST_SUITE_P(Builds, Radix52Asm, ::testing::ValuesIn(r52t::ifma()),
			 [](const ::testing::TestParamInfo<Build> &info) {
				 return std::string(info.param.name);
			 });
#endif

/* ---- the CRT path ------------------------------------------------------ */
} // namespace
