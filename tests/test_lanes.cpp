// bigmont-test: once
/*
 * The lane kernels (bignum/lanes/) against GMP, in each build: the twin
 * (portable C) and AVX2 (skipped, "skipped: no AVX2", where the CPU lacks
 * it); and the batch CRT exponentiation against big_modexp_crt.  Nothing
 * here depends on the chunk-kernel variant: the suite runs once.
 *
 * - Conversion: chunks <-> 28-bit digits at digit counts 5..76, every lane,
 *   random density, other lanes untouched, vs GMP's export with 36 nail bits;
 *   the shared conversions at 28 and 52 bits, 1..80 digits, every chunk
 *   count from 1 to two past the digits' span, junk above the digits.
 * - Products and squarings: every digit count 5..76, a modulus
 *   of its own in every lane (full size, small, all-ones), operands 0, 1,
 *   m-1, 2m-1, all-ones digits, random below 2m, and the same operand in
 *   every lane (tests/lanes/lane_check.h, shared with test_lanes52); the
 *   exact almost-Montgomery value (a b + Y m) / R, Y = -a b m^-1 mod R
 *   (not only its residue), normalised digits, aliasing.
 * - The exponentiation: digit counts 5, 6, 7, 19, 37, 55, 74, bases 0, 1,
 *   m-1 and random, exponents 0, 1, all-ones and random per lane, vs
 *   mpz_powm; R^2 from big_lanes_mod_init against GMP's.
 * - BIGMONT_TEST_SCALE scales the random rounds of the products and the
 *   exponentiation (at least two: every edge kind, every size at any
 *   scale); below 1 the batch CRT runs every count at 512 bits only.
 * - The avx2 build's two kernels at 19, 37, 55, 74 digits (lanes.h: the NASM
 *   ones and the intrinsics), each called by name: words equal to the twin's, the
 *   twin's equal to GMP's, every aliasing; also with every modulus all ones,
 *   so the edge operands have every digit at its largest.  The avx2 instances run the
 *   side the tuning binds; tests/tuning.cmake runs them with each side.
 * - The NASM kernels' frame: the 37- and 74-digit squarings' Montgomery
 *   digits on the stack below their caller after a call (the control), not
 *   after big_lanes_avx2_wipe or an exponentiation.
 * - The batch CRT: 1..4 operations at the RSA prime lengths, random odd
 *   coprime moduli per operation, vs big_modexp_crt on the same inputs,
 *   and the AVX2 build's words equal to the twin's; one batch at every
 *   prime length the batch serves.
 * The seed is printed (BIGMONT_TEST_SEED replays it).
 */
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "internal.h"
#include "lanes/lane_check.h"
#include "lanes/lanes.h"
#include "lanes/lanes52.h" /* big_r52_stack_wipe_ifma */
#include "stack_scan.h"
#include "testutil.h"

namespace {

using bt::Mpz;

typedef lane_check::Build<big_lanes_ops> Build;

std::vector<Build> builds()
{
	std::vector<Build> v{ { "twin", BIG_LANES_OPS_INIT(c), true } };
#if BIG_LANES_HAVE_AVX2_BUILD
	v.push_back({ "avx2", BIG_LANES_OPS_INIT(avx2), big_lanes_cpu_has_avx2() != 0 });
#endif
#if BIG_LANES_HAVE_AVX512_BUILD
	v.push_back({ "avx512", BIG_LANES_OPS_INIT(avx512), big_lanes_cpu_has_avx512() != 0 });
#endif
	return v;
}

using lane_check::Radix28;

/* The radix-2^28 layer's lane numbers and moduli (below 2^(28k - 2)). */
struct LaneNum : lane_check::LaneNum {
	explicit LaneNum(int k) : lane_check::LaneNum(k, 28) {}
};

struct Moduli : lane_check::Moduli<Radix28> {
	Moduli(bt::Rng &rng, int k) : lane_check::Moduli<Radix28>(rng, k, 28 * k - 2) {}
};

class Lanes : public ::testing::TestWithParam<Build> {
protected:
	void SetUp() override
	{
		if (!GetParam().runnable)
			GTEST_SKIP() << "skipped: no AVX2";
	}
	const big_lanes_ops &ops() const { return GetParam().ops; }
};

/* Every digit count the layer serves: the zmm build's Karatsuba starts
 * at 37 digits for products and 55 for squarings, and its halves differ
 * with k's residues. */
std::vector<int> product_sizes()
{
	std::vector<int> v;
	for (int k = BIG_LANES_MIN_DIGITS; k <= BIG_LANES_MAX_DIGITS; k++)
		v.push_back(k);
	return v;
}

TEST(LanesConvert, RoundTripsAgainstGmp)
{
	bt::Rng rng(0x1a4e5001);
	lane_check::round_trips_against_gmp(rng, BIG_LANES_MIN_DIGITS, BIG_LANES_MAX_DIGITS, 28,
					    big_lanes_from_chunks, big_lanes_to_chunks);
}

/* The conversions both lane layers share, for 28- and 52-bit digits, at
 * every chunk count from 1 to two past the digits' span: digits past w
 * zero, chunks past the digits zero, chunks past len dropped, junk above
 * each digit's bits (the digit form) ignored. */
TEST(LanesConvert, EveryChunkCountAgainstGmp)
{
	bt::Rng rng(0x1a4e5003);
	for (int bits : { 28, 52 })
		for (int k = 1; k <= 80; k += 1 + static_cast<int>(rng.below(3))) {
			const int span = (bits * k + BIG_CHUNK_SIZE - 1) / BIG_CHUNK_SIZE;
			for (int len = 1; len <= span + 2; len++) {
				const int vbits = std::min(bits * k, BIG_CHUNK_SIZE * len);
				Mpz v, d, want;
				rng.mpz_bits(v, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(vbits))));
				std::vector<bt::chunk> w = bt::chunks_of(v, len);
				std::vector<uint64_t> x(BIG_LANES_WORDS(k), 0x0badbeefULL);
				const int l = static_cast<int>(rng.below(BIG_LANES));
				big_lanes_digits_from_chunks(x.data(), l, k, bits, w.data(), len);
				for (int j = 0; j < k; j++) {
					mpz_fdiv_q_2exp(d, v, static_cast<mp_bitcnt_t>(bits) * j);
					mpz_fdiv_r_2exp(d, d, static_cast<mp_bitcnt_t>(bits));
					ASSERT_EQ(x[BIG_LANES_AT(j, l)], mpz_get_ui(d))
						<< "bits " << bits << " k " << k << " len " << len << " digit " << j;
					ASSERT_EQ(x[BIG_LANES_AT(j, (l + 1) % BIG_LANES)], 0x0badbeefULL);
					x[BIG_LANES_AT(j, l)] |= rng.next() << bits;
				}
				/* Back into fewer chunks than the digits span: v's low ones. */
				const int olen = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(span + 2)));
				std::vector<bt::chunk> out(static_cast<size_t>(olen), 7);
				big_lanes_digits_to_chunks(out.data(), olen, x.data(), l, k, bits);
				mpz_fdiv_r_2exp(want, v, static_cast<mp_bitcnt_t>(BIG_CHUNK_SIZE) * olen);
				ASSERT_EQ(out, bt::chunks_of(want, olen))
					<< "bits " << bits << " k " << k << " len " << len << " olen " << olen;
			}
		}
}

TEST_P(Lanes, ProductsAreExact)
{
	bt::Rng rng(0x1a4e5002);
	const int rounds = static_cast<int>(std::max(2L, bt::scaled(12)));
	for (int k : product_sizes()) {
		Moduli M(rng, k);
		lane_check::check_products<Radix28>(rng, ops().mul, ops().sqr, M, rounds,
						     GetParam().name);
		if (HasFatalFailure())
			return;
	}
}

TEST_P(Lanes, ExponentiationMatchesGmp)
{
	bt::Rng rng(0x1a4e5003);
	/* Rounds scale with BIGMONT_TEST_SCALE, at least two: round 0 has
	 * one exponent word and gives lane l the base kind l mod 4 and the
	 * exponent kind (l + 1) mod 4 (every edge), round 1 the bases m and
	 * m + r (below 2m, as the contract allows), the others random kinds
	 * and exponent lengths. */
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
				const int kind = round == 0   ? l % 4
						 : round == 1 ? 6 + l % 2
							      : static_cast<int>(rng.below(8));
				if (kind < 2)
					mpz_set_ui(bv[l], static_cast<unsigned long>(kind));
				else if (kind == 2)
					mpz_sub_ui(bv[l], M.m[l], 1);
				else if (kind >= 6) {
					/* m and m + r (r < m): the contract's base < 2m */
					rng.mpz_bits(bv[l], 28 * k);
					mpz_mod(bv[l], bv[l], M.m[l]);
					if (kind == 6)
						mpz_set_ui(bv[l], 0);
					mpz_add(bv[l], bv[l], M.m[l]);
				} else {
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
			EXPECT_EQ(mpz_cmp(g, want), 0) << bits << " bits, " << k << " digits, lane " << l;
			EXPECT_EQ(mod.k0[l], big_lanes_k0(mpz_getlimbn(m[l], 0)));
		}
	}
}

/* The batch at every prime length it serves (big_crt_batch_len not 0),
 * one batch a length, the count going round 1..8: the exponentiation at
 * every digit count those lengths give.  The sanitizer build (scale below
 * 1) takes every fourth length. */
TEST_P(Lanes, CrtBatchAtEveryLength)
{
	bt::Rng rng(0x1a4e5006);
	const int step = bt::scaled(100) < 100 ? 4 : 1;
	const int lengths = lane_check::crt_batch_at_every_length(
		rng, step, [](int) { return true; },
		[&](const big_crt_batch_op *batch, int count, int len) {
			std::vector<uint8_t> scratch(big_crt_batch_scratch(len));
			return big_modexp_crt_batch_ops(batch, count, &ops(), scratch.data(),
							scratch.size());
		});
	EXPECT_GE(lengths, 8 / step);
}

/* The batch CRT against big_modexp_crt, 1..8 operations per batch (one
 * lane group, or two). */
TEST_P(Lanes, CrtBatchMatchesModexpCrt)
{
	bt::Rng rng(0x1a4e5005);
	/* Every count at 512 bits; 3 and 6 at the larger sizes, and at 1024
	 * bits too where BIGMONT_TEST_SCALE is below 1 (the sanitizer build). */
	const bool reduced = bt::scaled(100) < 100;
	for (int bits : { 512, 1024, 1536, 2048 }) {
		const int len = bits / BIG_CHUNK_SIZE;
		for (int count = 1; count <= BIG_CRT_BATCH_MAX; count++) {
			if ((bits >= 1536 || (reduced && bits > 512)) && count != 3 && count != 6)
				continue;
			lane_check::CrtBatchCase c;
			c.make(rng, bits, count);
			if (HasFatalFailure())
				return;
			/* A fault check asked for: these lanes make none, and say
			 * so (fault -1: the caller checks), the results stored. */
			bt::Big e(1);
			e.b.value[0] = 65537;
			e.b.len = 1;
			int fault[BIG_CRT_BATCH_MAX];
			for (int i = 0; i < count; i++) {
				c.ops[i].e = &e.b;
				c.ops[i].n = c.ops[i].p; /* not read: no check here */
				c.ops[i].fault = &fault[i];
				fault[i] = -7;
			}
			std::vector<uint8_t> scratch(big_crt_batch_scratch(len));
			ASSERT_EQ(big_modexp_crt_batch_ops(c.ops, count, &ops(), scratch.data(),
							   scratch.size()),
				  BIG_OK);
			c.expect_results(bits);
			for (int i = 0; i < count; i++)
				EXPECT_EQ(fault[i], -1) << bits << " bits, op " << i;
		}
	}
}

#if BIG_LANES_HAVE_AVX2_BUILD
/* Both kernels of the avx2 build at 19, 37, 55 and 74 digits (lanes.h): the
 * NASM ones and the intrinsics, whatever the tuning binds (the avx2
 * instances above run the bound side through the build's entry points),
 * against GMP's exact value (so the twin's words too), with every
 * aliasing.  Rounds as ProductsAreExact's. */
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
	for (int k : { 19, 37, 55, 74 }) {
		Moduli M(rng, k);
		/* Every lane's modulus all ones (2^(28k - 2) - 1): round 0's
		 * operands 2m - 1 and 2^(28(k - 1)) - 1 have every digit but
		 * the top one at 2^28 - 1 (2m - 1's lowest at 2^28 - 3), in
		 * both halves of the Karatsuba squaring (lanes_sqr_avx2.inc),
		 * so its sums lo + hi reach 2^29 - 2. */
		Mpz ones[BIG_LANES];
		for (int l = 0; l < BIG_LANES; l++)
			lane_check::random_modulus(rng, ones[l], 28 * k - 2, 0);
		lane_check::Moduli<Radix28> top(ones, k);
		for (const auto &kern : kernels) {
			lane_check::check_products<Radix28>(rng, kern.mul, kern.sqr, M, rounds,
							     kern.name);
			if (HasFatalFailure())
				return;
			lane_check::check_products<Radix28>(rng, kern.mul, kern.sqr, top, 2,
							     kern.name + std::string(", all-ones moduli"));
			if (HasFatalFailure())
				return;
		}
	}
}

/* The Montgomery digits q_0 .. q_{k-1} a k-digit squaring of x takes in
 * each lane: the radix-2^28 digits of Y = -x^2 m^-1 mod R, for each
 * candidate value x[c][l]; only digits no other code would leave on the
 * stack (above 2^24, neither sparse nor dense), masked for the scan. */
std::vector<uint64_t> sqr_quotient_digits(const Moduli &M, int k,
					  const std::vector<const Mpz *> &x)
{
	std::vector<uint64_t> digits;
	Mpz R, inv, y;
	mpz_setbit(R, static_cast<mp_bitcnt_t>(28 * k));
	for (const Mpz *cand : x)
		for (int l = 0; l < BIG_LANES; l++) {
			mpz_invert(inv, M.m[l], R);
			mpz_mul(y, cand[l], cand[l]);
			mpz_mul(y, y, inv);
			mpz_neg(y, y);
			mpz_mod(y, y, R);
			for (int j = 0; j < k; j++) {
				const uint64_t v = mpz_tdiv_ui(y, UINT64_C(1) << 28);
				mpz_tdiv_q_2exp(y, y, 28);
				const int ones = __builtin_popcountll(v);
				if (v >> 24 != 0 && ones >= 8 && ones <= 22)
					digits.push_back(v);
			}
		}
	bt::mask_secrets(digits);
	return digits;
}

/* The NASM kernels leave their frame below the caller (lanes.h:
 * big_lanes_avx2_wipe), the Montgomery digits of the last rows among it:
 * the 37-digit squaring's are there after a call (the control: the scan
 * finds what a kernel leaves), gone after big_lanes_avx2_wipe from the
 * same function, and gone after an exponentiation, whose last squaring
 * (exponent 0: of 1 in Montgomery form, R mod m or R mod m + m) leaves
 * them below the final product's smaller frame until big_lanes_pow_avx2's
 * own wipe.  (Without that wipe the last check fails.) */
TEST(LanesNasm, KernelFramesAreWipedByTheirCaller)
{
	if (!big_lanes_cpu_has_avx2())
		GTEST_SKIP() << "skipped: no AVX2";
	/* 37 digits, and 74: the largest frame (14,368 bytes), whose
	 * Montgomery digits lie deepest, near the wipe's 16 KB. */
	const struct {
		int k;
		big_lanes_sqr_fn *sqr;
		int (*bound)(void);
	} sizes[] = { { 37, big_lanes_sqr37_avx2_asm, big_lanes37_asm },
		      { 74, big_lanes_sqr74_avx2_asm, big_lanes74_asm } };
	bt::Rng rng(0x1a4e5090);
	std::string unchecked;
	for (const auto &size : sizes) {
		const int k = size.k;
		SCOPED_TRACE(std::to_string(k) + " digits");
		Moduli M(rng, k);
		Mpz av[BIG_LANES], one_lo[BIG_LANES], one_hi[BIG_LANES], R;
		mpz_setbit(R, static_cast<mp_bitcnt_t>(28 * k));
		LaneNum a(k), r(k);
		for (int l = 0; l < BIG_LANES; l++) {
			lane_check::operand(rng, av[l], M.m[l], lane_check::kEdgeOperands, 28);
			a.set(l, av[l]);
			mpz_mod(one_lo[l], R, M.m[l]);
			mpz_add(one_hi[l], one_lo[l], M.m[l]);
		}
		const std::vector<uint64_t> of_a = sqr_quotient_digits(M, k, { av });
		const std::vector<uint64_t> of_one = sqr_quotient_digits(M, k, { one_lo, one_hi });
		ASSERT_GE(of_a.size(), 8u) << "too few distinctive digits";
		ASSERT_GE(of_one.size(), 8u) << "too few distinctive digits";

		bt::scrub_stack_below();
		ASSERT_FALSE(bt::stack_below_holds(of_a)) << "before any call";
		bt::scrub_stack_below();
		size.sqr(r.x(), a.x(), &M.mod);
		ASSERT_TRUE(bt::stack_below_holds(of_a))
			<< "the control: the squaring's Montgomery digits are not found after it";
		bt::scrub_stack_below();
		size.sqr(r.x(), a.x(), &M.mod);
		big_lanes_avx2_wipe();
		EXPECT_FALSE(bt::stack_below_holds(of_a)) << "after the squaring and the wipe";

		if (!size.bound()) {
			unchecked += " " + std::to_string(k);
			continue;
		}
		std::vector<uint64_t> e(BIG_LANES, 0), scratch(big_lanes_pow_scratch(k));
		bt::scrub_stack_below();
		big_lanes_pow_avx2(r.x(), a.x(), e.data(), 1, &M.mod, scratch.data());
		EXPECT_FALSE(bt::stack_below_holds(of_one)) << "after the exponentiation";
	}
	if (!unchecked.empty())
		GTEST_SKIP() << "skipped: the exponentiation runs the intrinsics at" << unchecked
			     << " digits (BIGMONT_TUNE=lanes<k>_asm=1 binds the NASM kernels)";
}
#endif

#if BIG_LANES_HAVE_AVX512_BUILD
/* Words no other code would leave on the stack (above 2^24, neither
 * sparse nor dense), masked for the scan. */
std::vector<uint64_t> distinctive(const std::vector<uint64_t> &words)
{
	std::vector<uint64_t> v;
	for (uint64_t w : words) {
		const int ones = __builtin_popcountll(w);
		if (w >> 24 != 0 && ones >= 8 && ones <= 64 - 8)
			v.push_back(w);
	}
	bt::mask_secrets(v);
	return v;
}

/* v uniform below 2m: the columns the test below looks for are products
 * of a's low digits, which an operand of random bit density
 * (Rng::mpz_bits) may leave too sparse to tell from other words. */
void uniform_below_2m(bt::Rng &rng, mpz_t v, const mpz_t m)
{
	Mpz two_m;
	mpz_mul_2exp(two_m, m, 1);
	mpz_set_ui(v, 0);
	for (size_t i = 0; i < mpz_sizeinbase(two_m, 2) / 64 + 2; i++) {
		mpz_mul_2exp(v, v, 64);
		mpz_add_ui(v, v, static_cast<unsigned long>(rng.next()));
	}
	mpz_mod(v, v, two_m);
}

/* The AVX-512F build keeps each product's columns on its frame
 * (lanes_impl.h), where the reduction never rewrites columns 0..5: a
 * squaring of a leaves 2 a_0 a_1, 2 a_0 a_2 + a_1^2 and 2 a_0 a_3 +
 * 2 a_1 a_2 of every lane there (the control), gone after
 * big_r52_stack_wipe_ifma from the same function; a product by 1 leaves
 * the operand's digits 1..5, and an exponentiation by 0 ends with the
 * product of Montgomery 1 (R mod m, or it plus m) by 1, gone after
 * big_lanes_pow_avx512's own wipe.  (Without that wipe the last check
 * fails.) */
TEST(LanesAvx512, FramesAreWipedByTheirCaller)
{
	if (!big_lanes_cpu_has_avx512())
		GTEST_SKIP() << "skipped: no AVX-512F";
	bt::Rng rng(0x5120a4e5);
	for (int k : { 37, 74 }) {
		SCOPED_TRACE(std::to_string(k) + " digits");
		Moduli M(rng, k);
		Mpz av[BIG_LANES], R, one_v, unit_v;
		mpz_setbit(R, static_cast<mp_bitcnt_t>(28 * k));
		mpz_set_ui(unit_v, 1);
		LaneNum a(k), r(k), one(k), unit(k);
		for (int l = 0; l < BIG_LANES; l++) {
			uniform_below_2m(rng, av[l], M.m[l]);
			a.set(l, av[l]);
			unit.set(l, unit_v);
		}
		std::vector<uint64_t> cols, ones_digits;
		for (int l = 0; l < BIG_LANES; l++) {
			const uint64_t *x = a.x();
			auto d = [&](int j) { return x[BIG_LANES_AT(j, l)]; };
			cols.push_back(2 * d(0) * d(1));
			cols.push_back(2 * d(0) * d(2) + d(1) * d(1));
			cols.push_back(2 * d(0) * d(3) + 2 * d(1) * d(2));
			for (int plus_m = 0; plus_m < 2; plus_m++) {
				mpz_mod(one_v, R, M.m[l]);
				if (plus_m)
					mpz_add(one_v, one_v, M.m[l]);
				for (int j = 0; j <= 5; j++) {
					const uint64_t v = mpz_tdiv_ui(one_v, UINT64_C(1) << 28);
					mpz_tdiv_q_2exp(one_v, one_v, 28);
					if (j >= 1)
						ones_digits.push_back(v);
				}
				if (!plus_m) {
					mpz_mod(one_v, R, M.m[l]);
					one.set(l, one_v);
				}
			}
		}
		const std::vector<uint64_t> of_a = distinctive(cols), of_one = distinctive(ones_digits);
		ASSERT_GE(of_a.size(), 8u) << "too few distinctive columns";
		ASSERT_GE(of_one.size(), 8u) << "too few distinctive digits";

		bt::scrub_stack_below();
		ASSERT_FALSE(bt::stack_below_holds(of_a)) << "before any call";
		bt::scrub_stack_below();
		big_lanes_sqr_avx512(r.x(), a.x(), &M.mod);
		ASSERT_TRUE(bt::stack_below_holds(of_a))
			<< "the control: the squaring's columns are not found after it";
		bt::scrub_stack_below();
		big_lanes_sqr_avx512(r.x(), a.x(), &M.mod);
		big_r52_stack_wipe_ifma(BIG_LANES_AVX512_WIPE_BYTES);
		EXPECT_FALSE(bt::stack_below_holds(of_a)) << "after the squaring and the wipe";

		bt::scrub_stack_below();
		big_lanes_mul_avx512(r.x(), one.x(), unit.x(), &M.mod);
		ASSERT_TRUE(bt::stack_below_holds(of_one))
			<< "the control: a product by 1 leaves its operand's digits";
		big_r52_stack_wipe_ifma(BIG_LANES_AVX512_WIPE_BYTES);
		std::vector<uint64_t> e(BIG_LANES, 0), scratch(big_lanes_pow_scratch(k));
		bt::scrub_stack_below();
		big_lanes_pow_avx512(r.x(), a.x(), e.data(), 1, &M.mod, scratch.data());
		EXPECT_FALSE(bt::stack_below_holds(of_one)) << "after the exponentiation";
	}
}
#endif

INSTANTIATE_TEST_SUITE_P(Builds, Lanes, ::testing::ValuesIn(builds()),
			 [](const ::testing::TestParamInfo<Build> &info) {
				 return std::string(info.param.name);
			 });

} // namespace
