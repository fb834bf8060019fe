// bigmont-test: once
/*
 * The vertical layer (bignum/vertical/), its kernels on ymm (AVX2) and on
 * zmm (AVX-512F, where the CPU has it), against GMP, at both sizes
 * it serves (24 and 32 chunks: 56 and 75 digits).  Nothing here depends
 * on the chunk-kernel variant: the suite runs once.  Skipped, with
 * "skipped: no AVX2", where the CPU lacks AVX2, and with "skipped: no
 * vertical build" in builds without it (vertical.h).
 *
 * - Conversion: chunks <-> 28-bit digits, random density, against GMP's
 *   export with 36 nail bits; the modulus w = p k0 against GMP's.
 * - Products and squarings of both halves: moduli p of full size with
 *   random density, 2^b - 1 and 2^(b-1) + 1 (b = 64 len); operands 0, 1,
 *   w - 1, 2w - 1, all ones below w's top bit, random below 2w; the exact
 *   almost-Montgomery value (x + M w) / R, M = -x w^-1 mod R (not only its
 *   residue), below 2w, normalised digits, padding left zero; aliasing r == a,
 *   r == b; chains of outputs fed back.
 * - The dual exponentiation against mpz_powm: bases 0, 1, p - 1 and
 *   random; exponents 0, 1, 2, all ones and random (some with long runs
 *   of zeros); the moduli above; the halves swapped.
 * BIGMONT_TEST_SCALE scales the random rounds; the seed is printed
 * (BIGMONT_TEST_SEED replays it).
 */
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "internal.h"
#include "lanes/lanes.h"
#include "stack_scan.h"
#include "testutil.h"
#include "vertical/vertical.h"

namespace {

using bt::Mpz;

constexpr int kLens[] = { 24, 32 };

/* Digits of v (< 2^(28 N)) by GMP's export with 36 nail bits. */
void gmp_to_num(big_vert_num *x, const mpz_t v, int digits)
{
	std::memset(x, 0, sizeof(*x));
	ASSERT_LE(mpz_sizeinbase(v, 2), static_cast<size_t>(28 * digits));
	size_t count = 0;
	if (mpz_sgn(v) != 0)
		mpz_export(x->d + 4, &count, -1, sizeof(uint64_t), 0, 36, v);
}

/* w = p k0, k0 = -p^-1 mod 2^28. */
void gmp_w(mpz_t w, const mpz_t p)
{
	Mpz base, inv;
	mpz_ui_pow_ui(base, 2, 28);
	ASSERT_NE(mpz_invert(inv, p, base), 0);
	mpz_sub(inv, base, inv);
	mpz_mul(w, p, inv);
}

std::vector<uint64_t> u64_of(const mpz_t v, int len)
{
	std::vector<uint64_t> c(static_cast<size_t>(len), 0);
	if (mpz_sgn(v) != 0)
		mpz_export(c.data(), nullptr, -1, sizeof(uint64_t), 0, 0, v);
	return c;
}

/* The moduli of a test: random odd of exactly b bits (random density),
 * 2^b - 1, 2^(b-1) + 1. */
void modulus(mpz_t p, bt::Rng &rng, int bits, int kind)
{
	if (kind == 1) {
		mpz_ui_pow_ui(p, 2, static_cast<unsigned long>(bits));
		mpz_sub_ui(p, p, 1);
	} else if (kind == 2) {
		mpz_ui_pow_ui(p, 2, static_cast<unsigned long>(bits - 1));
		mpz_add_ui(p, p, 1);
	} else {
		rng.mpz_bits(p, bits);
		mpz_setbit(p, 0);
	}
}

TEST(VerticalConvert, DigitsAndModulusAgainstGmp)
{
	bt::Rng rng(0x7e471001);
	for (int len : kLens) {
		const int digits = big_vert_digits(len);
		for (long round = 0; round < bt::scaled(50); round++) {
			for (int clen : { len, len + 1 }) {
				Mpz v, back;
				const int bits = std::min(64 * clen, 28 * digits);
				rng.mpz_bits(v, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(bits))));
				std::vector<uint64_t> c = u64_of(v, clen);
				big_vert_num x, ref;
				big_vert_from_chunks(&x, c.data(), clen, digits);
				gmp_to_num(&ref, v, digits);
				ASSERT_EQ(std::memcmp(&x, &ref, sizeof(x)), 0) << "len " << len << " " << bt::hex(v);
				std::vector<uint64_t> out(static_cast<size_t>(clen), 7);
				big_vert_to_chunks(out.data(), clen, &x, digits);
				ASSERT_EQ(out, c) << "len " << len;
			}
			Mpz p, w;
			modulus(p, rng, 64 * len, static_cast<int>(round % 3));
			gmp_w(w, p);
			std::vector<uint64_t> pc = u64_of(p, len);
			big_vert_mod m;
			big_vert_mod_init(&m, pc.data(), len);
			big_vert_num wd;
			gmp_to_num(&wd, w, digits);
			ASSERT_EQ(m.digits, digits);
			ASSERT_EQ(wd.d[4], BIG_VERT_DIGIT_MASK) << "w = -1 mod 2^28";
			for (int r = 0; r < 4; r++)
				for (int j = 0; j < 4 * BIG_VERT_MAX_BLOCKS; j++) {
					const uint64_t want = j >= r && j - r < digits ? wd.d[4 + j - r] : 0;
					ASSERT_EQ(m.nsh[r][j], want) << "len " << len << " shift " << r << " word " << j;
				}
			ASSERT_EQ(m.w1, wd.d[5]);
			ASSERT_EQ(m.w2, wd.d[6]);
			ASSERT_EQ(m.w3, wd.d[7]);
		}
	}
	EXPECT_EQ(big_vert_digits(16), 0);
	EXPECT_EQ(big_vert_digits(23), 0);
	EXPECT_EQ(big_vert_digits(24), 56);
	EXPECT_EQ(big_vert_digits(32), 75);
}

#if BIG_VERT_HAVE_AVX2_BUILD

void gmp_from_num(mpz_t v, const big_vert_num *x, int digits)
{
	mpz_import(v, static_cast<size_t>(digits), -1, sizeof(uint64_t), 0, 36, x->d + 4);
}

/* An operand below 2w of the given kind: 0, 1, w - 1, 2w - 1, all ones
 * below w's top bit, random (random density). */
void operand(mpz_t x, bt::Rng &rng, const mpz_t w, int kind)
{
	switch (kind) {
	case 0:
		mpz_set_ui(x, 0);
		break;
	case 1:
		mpz_set_ui(x, 1);
		break;
	case 2:
		mpz_sub_ui(x, w, 1);
		break;
	case 3:
		mpz_mul_2exp(x, w, 1);
		mpz_sub_ui(x, x, 1);
		break;
	case 4:
		mpz_ui_pow_ui(x, 2, static_cast<unsigned long>(mpz_sizeinbase(w, 2)));
		mpz_sub_ui(x, x, 1);
		break;
	default: {
		Mpz two_w;
		mpz_mul_2exp(two_w, w, 1);
		rng.mpz_bits(x, static_cast<int>(mpz_sizeinbase(w, 2)) + 1);
		mpz_mod(x, x, two_w);
	}
	}
}

/* One vector width of the layer's kernels (dual_avx2.c, dual_avx512.c)
 * and its exponentiation (pow_avx2.c). */
struct Width {
	const char *name;
	void (*mul2)(big_vert_num *, const big_vert_num *, const big_vert_num *, const big_vert_mod *,
		     big_vert_work *);
	void (*sqr2)(big_vert_num *, const big_vert_num *, const big_vert_mod *, big_vert_work *);
	void (*pow2)(uint64_t *, uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *,
		     const uint64_t *, int, const uint64_t *, const uint64_t *, const uint64_t *,
		     const uint64_t *, int, uint64_t *);
	int (*runs)(void);
	/* What the work needs once the moduli are set (NULL: nothing). */
	void (*prepare)(big_vert_work *, const big_vert_mod *);
};

std::ostream &operator<<(std::ostream &os, const Width &w)
{
	return os << w.name;
}

/* The zmm kernels where the CPU has AVX-512F: elsewhere their instances
 * say "not run" (not "skipped: no ", which would mark the suite skipped
 * though the ymm ones ran). */
class Vertical : public ::testing::TestWithParam<Width> {
protected:
	void SetUp() override
	{
		if (!big_lanes_cpu_has_avx2())
			GTEST_SKIP() << "skipped: no AVX2";
		if (!GetParam().runs())
			GTEST_SKIP() << "not run: this CPU lacks AVX-512F";
	}
};

/* Both halves' modulus from p[h]: the layer's and GMP's w. */
struct Pair {
	int len = 0, digits = 0;
	Mpz p[2], w[2], R;
	big_vert_mod mod[2];

	void set(int l)
	{
		len = l;
		digits = big_vert_digits(l);
		mpz_ui_pow_ui(R, 2, static_cast<unsigned long>(28 * digits));
		for (int h = 0; h < 2; h++) {
			gmp_w(w[h], p[h]);
			std::vector<uint64_t> pc = u64_of(p[h], len);
			big_vert_mod_init(&mod[h], pc.data(), len);
		}
	}
};

/* (x + M w) / R with M = -x w^-1 mod R: exact. */
void expected(mpz_t r, const mpz_t x, const mpz_t w, const mpz_t R)
{
	Mpz winv, M;
	ASSERT_NE(mpz_invert(winv, w, R), 0);
	mpz_mul(M, x, winv);
	mpz_neg(M, M);
	mpz_mod(M, M, R);
	mpz_mul(M, M, w);
	mpz_add(r, x, M);
	ASSERT_TRUE(mpz_divisible_p(r, R));
	mpz_divexact(r, r, R);
}

/* Half h of r against the exact value of a b (or a^2) and the bounds. */
void check_half(const Pair &P, int h, const big_vert_num &r, const mpz_t a, const mpz_t b, const std::string &ctx)
{
	Mpz x, want, got, two_w;
	mpz_mul(x, a, b);
	expected(want, x, P.w[h], P.R);
	for (int k = 0; k < BIG_VERT_NUM_WORDS; k++) {
		if (k >= 4 && k < 4 + P.digits)
			ASSERT_LE(r.d[k], BIG_VERT_DIGIT_MASK) << ctx << " half " << h << " digit " << k - 4;
		else
			ASSERT_EQ(r.d[k], 0u) << ctx << " half " << h << " padding word " << k;
	}
	gmp_from_num(got, &r, P.digits);
	ASSERT_EQ(mpz_cmp(got, want), 0) << ctx << " half " << h << "\n a " << bt::hex(a) << "\n b " << bt::hex(b)
					 << "\n p " << bt::hex(P.p[h]);
	mpz_mul_2exp(two_w, P.w[h], 1);
	ASSERT_LT(mpz_cmp(got, two_w), 0) << ctx << " half " << h;
}


/* Every operand kind against every other in both halves (the halves
 * take different kinds), then chains of random ones; aliasing by `alias`
 * (0 r apart, 1 r == a, 2 r == b). */
void check_products(const Width &W, bt::Rng &rng, Pair &P, bool square, int alias, long chains,
		    const std::string &ctx)
{
	big_vert_work work[2];
	if (W.prepare != nullptr)
		W.prepare(work, P.mod);
	const int kinds = 6;
	for (int ka = 0; ka < kinds; ka++)
		for (int kb = 0; kb < kinds; kb++) {
			Mpz a[2], b[2];
			big_vert_num an[2], bn[2], rn[2];
			for (int h = 0; h < 2; h++) {
				operand(a[h], rng, P.w[h], h ? kb : ka);
				operand(b[h], rng, P.w[h], h ? ka : kb);
				if (square)
					mpz_set(b[h], a[h]);
				gmp_to_num(&an[h], a[h], P.digits);
				gmp_to_num(&bn[h], b[h], P.digits);
				std::memset(&rn[h], 0, sizeof(rn[h]));
				for (int k = 0; k < P.digits; k++)
					rn[h].d[4 + k] = 0x5a5a5a5a5a5a5a5aULL; /* overwritten */
			}
			big_vert_num *r = alias == 1 ? an : alias == 2 ? bn : rn;
			if (square)
				W.sqr2(r, an, P.mod, work);
			else
				W.mul2(r, an, bn, P.mod, work);
			for (int h = 0; h < 2; h++)
				check_half(P, h, r[h], a[h], b[h],
					   ctx + " kinds " + std::to_string(ka) + "," + std::to_string(kb));
		}
	for (long c = 0; c < chains; c++) {
		Mpz a[2], b[2];
		big_vert_num an[2], bn[2];
		for (int h = 0; h < 2; h++) {
			operand(a[h], rng, P.w[h], 5);
			operand(b[h], rng, P.w[h], 5);
			gmp_to_num(&an[h], a[h], P.digits);
			gmp_to_num(&bn[h], b[h], P.digits);
		}
		for (int step = 0; step < 8; step++) {
			big_vert_num prev[2] = { an[0], an[1] };
			if (square)
				W.sqr2(an, an, P.mod, work);
			else
				W.mul2(an, an, bn, P.mod, work);
			for (int h = 0; h < 2; h++) {
				Mpz pa;
				gmp_from_num(pa, &prev[h], P.digits);
				check_half(P, h, an[h], pa, square ? static_cast<mpz_srcptr>(pa) : b[h],
					   ctx + " chain step " + std::to_string(step));
			}
		}
	}
}

TEST_P(Vertical, ProductsAndSquaringsAreExact)
{
	bt::Rng rng(0x7e471002);
	const long rounds = std::max(3L, bt::scaled(6));
	for (int len : kLens)
		for (long round = 0; round < rounds; round++) {
			Pair P;
			/* Rounds 0..2: the moduli kinds in half 0 against a random
			 * half 1 and swapped; then random ones. */
			const int kind = round < 3 ? static_cast<int>(round) : 0;
			modulus(P.p[round & 1], rng, 64 * len, kind);
			modulus(P.p[!(round & 1)], rng, 64 * len, 0);
			P.set(len);
			const std::string ctx = "len " + std::to_string(len) + " round " + std::to_string(round);
			for (int alias = 0; alias < 3; alias++) {
				check_products(GetParam(), rng, P, false, alias, 2,
					       ctx + " mul alias " + std::to_string(alias));
				if (HasFatalFailure())
					return;
				if (alias < 2) {
					check_products(GetParam(), rng, P, true, alias, 2,
						       ctx + " sqr alias " + std::to_string(alias));
					if (HasFatalFailure())
						return;
				}
			}
		}
}

/* Exponent of elen chunks of the given kind: 0, 1, 2, all ones, random
 * of random density, random with its low 40 bits zero. */
std::vector<uint64_t> exponent(bt::Rng &rng, int elen, int kind)
{
	std::vector<uint64_t> e(static_cast<size_t>(elen), 0);
	if (kind == 1 || kind == 2)
		e[0] = static_cast<uint64_t>(kind);
	else if (kind == 3)
		std::fill(e.begin(), e.end(), ~UINT64_C(0));
	else if (kind >= 4) {
		rng.fill(reinterpret_cast<bt::chunk *>(e.data()), elen);
		if (kind == 5)
			e[0] &= ~((UINT64_C(1) << 40) - 1);
	}
	return e;
}

void check_pow(const Width &W, bt::Rng &rng, const mpz_t p, const mpz_t q, int len, int base_kind,
	       int ekind_p, int ekind_q, const std::string &ctx)
{
	const mpz_srcptr n[2] = { p, q };
	std::vector<uint64_t> nc[2], rr[2], a[2], e[2], out[2];
	Mpz want[2];
	for (int h = 0; h < 2; h++) {
		Mpz r2, av;
		nc[h] = u64_of(n[h], len);
		mpz_ui_pow_ui(r2, 2, static_cast<unsigned long>(128 * len));
		mpz_mod(r2, r2, n[h]);
		rr[h] = u64_of(r2, len);
		const int kind = h ? (base_kind + 1) % 4 : base_kind;
		if (kind == 0)
			mpz_set_ui(av, 0);
		else if (kind == 1)
			mpz_set_ui(av, 1);
		else if (kind == 2)
			mpz_sub_ui(av, n[h], 1);
		else {
			rng.mpz_bits(av, 64 * len);
			mpz_mod(av, av, n[h]);
		}
		a[h] = u64_of(av, len);
		e[h] = exponent(rng, len, h ? ekind_q : ekind_p);
		Mpz ev;
		mpz_import(ev, static_cast<size_t>(len), -1, sizeof(uint64_t), 0, 0, e[h].data());
		mpz_powm(want[h], av, ev, n[h]);
		out[h].assign(static_cast<size_t>(len), 0x5a5a5a5a5a5a5a5aULL);
	}
	std::vector<uint64_t> scratch(big_vert_pow2_scratch(len, len) + 1);
	/* Off by one word: the layer aligns its frame itself. */
	W.pow2(out[0].data(), out[1].data(), a[0].data(), a[1].data(), e[0].data(), e[1].data(), len,
	       nc[0].data(), nc[1].data(), rr[0].data(), rr[1].data(), len, scratch.data() + 1);
	for (int h = 0; h < 2; h++)
		ASSERT_EQ(out[h], u64_of(want[h], len)) << ctx << " half " << h << "\n p " << bt::hex(n[h]);
}

TEST_P(Vertical, DualExponentiationMatchesGmp)
{
	bt::Rng rng(0x7e471003);
	const long rounds = std::max(2L, bt::scaled(4));
	for (int len : kLens) {
		/* Every modulus kind with every base kind and every exponent
		 * kind, in either half. */
		for (int mk = 0; mk < 3; mk++) {
			Mpz p, q;
			modulus(p, rng, 64 * len, mk);
			modulus(q, rng, 64 * len, 0);
			for (int bk = 0; bk < 4; bk++) {
				const int ek = (bk + 2 * mk) % 6;
				const std::string ctx = "len " + std::to_string(len) + " modulus kind " +
							std::to_string(mk) + " base kind " + std::to_string(bk) +
							" exponent kind " + std::to_string(ek);
				check_pow(GetParam(), rng, p, q, len, bk, ek, (ek + 3) % 6, ctx);
				if (HasFatalFailure())
					return;
				check_pow(GetParam(), rng, q, p, len, bk, (ek + 1) % 6, ek, ctx + " swapped");
				if (HasFatalFailure())
					return;
			}
		}
		for (int ek = 0; ek < 6; ek++) {
			Mpz p, q;
			modulus(p, rng, 64 * len, 0);
			modulus(q, rng, 64 * len, 0);
			check_pow(GetParam(), rng, p, q, len, 3, ek, 5 - ek,
				  "len " + std::to_string(len) + " exponent kind " + std::to_string(ek));
			if (HasFatalFailure())
				return;
		}
		for (long round = 0; round < rounds; round++) {
			Mpz p, q;
			modulus(p, rng, 64 * len, 0);
			modulus(q, rng, 64 * len, 0);
			check_pow(GetParam(), rng, p, q, len, 3, 4, 4,
				  "len " + std::to_string(len) + " random round " + std::to_string(round));
			if (HasFatalFailure())
				return;
		}
	}
}

/* The kernels leave spills of both halves' digits on their frames and in
 * the vector registers; the exponentiation wipes the 16 KB below itself
 * once done (pow_avx2.c).  After it, the 16 KB below its caller hold only
 * its own few words (the return address, saved registers: 8 or 9 on
 * model 207).  Without the wipe the exponentiation leaves 166 to 212
 * nonzero words there (measured with each wipe call removed). */
TEST_P(Vertical, ExponentiationWipesTheStackBelowIt)
{
	const Width &W = GetParam();
	bt::Rng rng(0x7e471004);
	for (int len : kLens) {
		SCOPED_TRACE("len " + std::to_string(len));
		Mpz p[2];
		std::vector<uint64_t> nc[2], rr[2], a[2], e[2], out[2];
		for (int h = 0; h < 2; h++) {
			Mpz r2, av;
			modulus(p[h], rng, 64 * len, 0);
			nc[h] = u64_of(p[h], len);
			mpz_ui_pow_ui(r2, 2, static_cast<unsigned long>(128 * len));
			mpz_mod(r2, r2, p[h]);
			rr[h] = u64_of(r2, len);
			rng.mpz_bits(av, 64 * len);
			mpz_mod(av, av, p[h]);
			a[h] = u64_of(av, len);
			e[h] = exponent(rng, len, 4);
			out[h].assign(static_cast<size_t>(len), 0);
		}
		std::vector<uint64_t> scratch(big_vert_pow2_scratch(len, len));
		bt::scrub_stack_below();
		W.pow2(out[0].data(), out[1].data(), a[0].data(), a[1].data(), e[0].data(),
		       e[1].data(), len, nc[0].data(), nc[1].data(), rr[0].data(), rr[1].data(), len,
		       scratch.data());
		const ptrdiff_t left = bt::stack_below_nonzero_words();
		EXPECT_LE(left, 24) << "nonzero words left below the exponentiation";
	}
}

int always(void)
{
	return 1;
}

INSTANTIATE_TEST_SUITE_P(Widths, Vertical,
			 ::testing::Values(Width{ "ymm", big_vert_mul2_avx2, big_vert_sqr2_avx2,
						  big_vert_pow2_avx2, always, nullptr },
					   Width{ "zmm", big_vert_mul2_avx512, big_vert_sqr2_avx512,
						  big_vert_pow2_avx512, big_vert_cpu_has_avx512,
						  big_vert_pair_mod_avx512 }),
			 [](const ::testing::TestParamInfo<Width> &i) { return std::string(i.param.name); });

#else

TEST(Vertical, NotBuilt)
{
	GTEST_SKIP() << "skipped: no vertical build (64-bit chunks with the assembly only)";
}

#endif

} // namespace
