// bigmont-test: once
/*
 * The radix-2^52 lane kernels (bignum/lanes/lanes52.h) against GMP and
 * against the radix-2^28 twin (lanes.h), in each build: the IFMA source
 * on emulated intrinsics (tests/lanes/lanes52_emu.c), which runs on every
 * CPU, and the IFMA build itself (the "/ifma" instances: a ctest entry of
 * their own, skipped, "skipped: no AVX-512 IFMA", where the CPU lacks it).
 * Nothing here depends on the chunk-kernel variant: the suite runs once.
 *
 * - Conversion: chunks <-> 52-bit digits at digit counts 3..41, every
 *   lane, random density, other lanes untouched, vs GMP's export with 12
 *   nail bits; the digit counts of the RSA halves; big_lanes52_len_ok.
 * - Products and squarings: every digit count 3..41, a
 *   modulus of its own in every lane (full size, small, all-ones),
 *   operands 0, 1, m-1, 2m-1, all-ones digits below 2m, random below 2m,
 *   the same operand in every lane (tests/lanes/lane_check.h, shared
 *   with test_lanes); the exact almost-Montgomery value
 *   (a b + Y m) / R, Y = -a b m^-1 mod R (not only its residue),
 *   normalised digits, aliasing.
 * - The exponentiation at the RSA halves (10, 20, 30, 40 digits: RSA-1024
 *   .. 4096; full-length exponents up to 1024 bits, one or two words
 *   above) and at 3, 4, 7 digits: lane counts 1..8 (the lanes past the
 *   count hold lane 0's modulus and 0, as the batch CRT fills them), a
 *   random modulus per lane, bases 0, 1, m-1, random, exponents 0, 1,
 *   all-ones, random; vs mpz_powm and vs the radix-2^28 twin's
 *   exponentiation of the same numbers; R^2 from big_lanes52_mod_init.
 * - The public-exponent power (the batch fault check's): lane counts
 *   1..8, each lane's own exponent (0, 1, 3, 65537, all-ones, random),
 *   bases up to 2m - 1, vs mpz_powm; big_modexp_public_batch, where the
 *   IFMA lanes run, at n's sizes of RSA-1024 and 2048 with bases up to
 *   2^(64 len) - 1, vs mpz_powm, and its refusals.
 * - The batch CRT in radix 2^52: 1..8 operations at the RSA prime lengths
 *   with random odd coprime moduli per operation and edge inputs, vs
 *   big_modexp_crt on the same inputs, and one batch at every prime
 *   length the radix serves; its bad-argument refusals; where
 *   IFMA runs, no digit of the primes left on the stack below
 *   big_modexp_crt_batch (the kernels' frames wiped).
 * BIGMONT_TEST_SCALE below 1 (the sanitizer build) runs fewer of the long
 * exponentiations: lane counts 1 and 8 above 1024 bits, one batch CRT at
 * 512 and at 1024 bits.
 * - The dispatch: BIGMONT_BATCH=c and =avx2 never choose IFMA, =ifma and
 *   unset choose it exactly where the CPU has it (elsewhere the best
 *   radix-2^28 build there is), and big_crt_batch_kernel says so.
 * - Constant time under Memcheck (its own entry): one exponentiation of
 *   the emulated build with every secret marked undefined (at 5 digits:
 *   the window), and its public-exponent power with the base and the
 *   moduli marked, a product and a squaring at 30 digits (the tiles), and a
 *   control that Memcheck must catch.
 * The seed is printed (BIGMONT_TEST_SEED replays it).
 */
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "internal.h"
#include "lanes/lane_check.h"
#include "lanes/lanes.h"
#include "lanes/lanes52.h"
#include "lanes/lanes52_emu.h"
#include "scoped_env.h"
#include "testutil.h"
#include "stack_scan.h"

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#define RUNNING_ON_VALGRIND 0
#endif

namespace {

using bt::Mpz;

typedef lane_check::Build<big_lanes52_ops> Build;

#if BIG_LANES52_HAVE_IFMA_BUILD
/* The IFMA build with each side of LANES52_SQR20_ASM (lanes52.h) whatever
 * the binding: its product, squaring and exponentiation at 20 digits by
 * the NASM kernels (the table read ahead of the squarings) or by the C
 * ones (the read in slices within the squarings); "ifma" takes the side bound, and so does every
 * build's pow_public (it squares by the entry point): the entries
 * test_lanes52.ifma.sqr20_0/1 (tuning.cmake) run it bound each way. */
template <int NASM20>
void mul_side(uint64_t *r, const uint64_t *a, const uint64_t *b, const big_lanes52_mod *mod)
{
	big_lanes52_mul_ifma_side(r, a, b, mod, NASM20);
}
template <int NASM20> void sqr_side(uint64_t *r, const uint64_t *a, const big_lanes52_mod *mod)
{
	big_lanes52_sqr_ifma_side(r, a, mod, NASM20);
}
template <int NASM20>
void pow_side(uint64_t *out, const uint64_t *base, const uint64_t *e, int ewords,
	      const big_lanes52_mod *mod, uint64_t *scratch)
{
	big_lanes52_pow_ifma_side(out, base, e, ewords, mod, scratch, NASM20);
}
template <int NASM20> big_lanes52_ops ifma_side(const char *name)
{
	big_lanes52_ops ops = BIG_LANES52_OPS_INIT(ifma);
	ops.mul = mul_side<NASM20>;
	ops.sqr = sqr_side<NASM20>;
	ops.pow = pow_side<NASM20>;
	ops.name = name;
	return ops;
}
#endif

std::vector<Build> builds()
{
	/* The emulated and ifma builds with their pow2 (the two groups of a
	 * batch in lockstep at 10 digits); the sides and the FMA builds run
	 * the groups one after the other. */
	std::vector<Build> v{ { "emulated", BIG_LANES52_OPS_INIT_LOCKSTEP(emu), true } };
#if BIG_LANES52_HAVE_IFMA_BUILD
	const bool ifma = big_lanes52_cpu_has_ifma() != 0;
	v.push_back({ "ifma", BIG_LANES52_OPS_INIT_LOCKSTEP(ifma), ifma });
	v.push_back({ "ifma_nasm20", ifma_side<1>("ifma_nasm20"), ifma });
	v.push_back({ "ifma_c20", ifma_side<0>("ifma_c20"), ifma });
#endif
#if BIG_LANES52_HAVE_FMA_BUILD
	v.push_back({ "fma", BIG_LANES52_OPS_INIT(fma), big_lanes52_cpu_has_fma() != 0 });
#endif
#if BIG_LANES52_HAVE_FMA512_BUILD
	v.push_back({ "fma512", BIG_LANES52_OPS_INIT(fma512), big_lanes_cpu_has_avx512() != 0 });
#endif
	return v;
}

using lane_check::Radix28;
using lane_check::Radix52;
using lane_check::random_modulus;
using lane_check::r_squared;

/* Lane numbers of 52-bit digits (28 for the twin). */
struct LaneNum : lane_check::LaneNum {
	explicit LaneNum(int k, int bits = 52) : lane_check::LaneNum(k, bits) {}
};

typedef lane_check::Moduli<Radix52> Moduli;

/* BIGMONT_TEST_SCALE below 1 (the sanitizer build's 0.05): fewer of the
 * long exponentiations; the other builds run them all. */
bool reduced()
{
	return bt::scaled(100) < 100;
}

class Lanes52 : public ::testing::TestWithParam<Build> {
protected:
	void SetUp() override
	{
		if (!GetParam().runnable)
			GTEST_SKIP() << (std::string(GetParam().name).rfind("ifma", 0) == 0
						 ? "skipped: no AVX-512 IFMA"
						 : "skipped: no AVX2 and FMA");
	}
	const big_lanes52_ops &ops() const { return GetParam().ops; }

	/* pow_public of the lanes' bases bv under mods, lane l's exponent
	 * the ewords words at e + l ewords (its value ev[l]), against
	 * mpz_powm lane by lane; `what` names the case in a failure. */
	void expect_public_powers(const Mpz *mods, const Mpz *bv, const Mpz *ev,
				  const std::vector<uint64_t> &e, int ewords, int k,
				  const std::string &what) const
	{
		Moduli M(mods, k);
		LaneNum base(k), out(k);
		for (int l = 0; l < BIG_LANES; l++)
			base.set(l, bv[l]);
		std::vector<uint64_t> scratch(big_lanes52_pow_public_scratch(k) + 7);
		ops().pow_public(out.x(), base.x(), e.data(), ewords, &M.mod, scratch.data() + 1);
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz want, got;
			mpz_powm(want, bv[l], ev[l], mods[l]);
			ASSERT_TRUE(out.get(l, got)) << what << " lane " << l;
			ASSERT_EQ(mpz_cmp(want, got), 0)
				<< what << " lane " << l << " base " << bt::hex(bv[l]) << " e "
				<< bt::hex(ev[l]) << " m " << bt::hex(mods[l]);
		}
	}
};

TEST(Lanes52Convert, RoundTripsAgainstGmp)
{
	bt::Rng rng(0x1a4e5201);
	lane_check::round_trips_against_gmp(rng, BIG_LANES52_MIN_DIGITS, BIG_LANES52_MAX_DIGITS,
					    52, big_lanes52_from_chunks, big_lanes52_to_chunks);
}

TEST(Lanes52Convert, DigitsAndLengths)
{
	EXPECT_EQ(big_lanes52_digits(512), 10);
	EXPECT_EQ(big_lanes52_digits(1024), 20);
	EXPECT_EQ(big_lanes52_digits(1536), 30);
	EXPECT_EQ(big_lanes52_digits(2048), 40);
	EXPECT_EQ(big_lanes52_digits(2130), 41);
	EXPECT_EQ(big_lanes52_digits(2131), 0);
	for (int len = 1; len <= 2048 / BIG_CHUNK_SIZE + 2; len++) {
		const int bits = len * BIG_CHUNK_SIZE, k = big_lanes52_digits(bits);
		const long e = 208L * k - 4L * bits;
		const bool want = k != 0 && e >= 0 && e < 52L * k;
		EXPECT_EQ(big_lanes52_len_ok(len) != 0, want) << len;
		if (bits >= 160 && bits <= 2130) {
			EXPECT_TRUE(big_lanes52_len_ok(len)) << len;
		}
	}
}

/* Every digit count the layer serves: the register window, the tiles
 * and the rows each take a range of them. */
std::vector<int> product_sizes()
{
	std::vector<int> v;
	for (int k = BIG_LANES52_MIN_DIGITS; k <= BIG_LANES52_MAX_DIGITS; k++)
		v.push_back(k);
	return v;
}

TEST_P(Lanes52, ProductsAreExact)
{
	bt::Rng rng(0x1a4e5202);
	const int rounds = static_cast<int>(std::max(2L, bt::scaled(8)));
	for (int k : product_sizes()) {
		Moduli M(rng, k, 52 * k - 2);
		lane_check::check_products<Radix52>(rng, ops().mul, ops().sqr, M, rounds,
						     GetParam().name);
		if (HasFatalFailure())
			return;
	}
}

/* The radix-2^28 twin's exponentiation of the same lanes (its own digit
 * count for the same moduli), fully reduced: comparable word for word
 * once both are numbers. */
void twin_pow(Mpz *out, const Mpz *m, const Mpz *base, const std::vector<uint64_t> &e,
	      int ewords, int bits)
{
	const int k = big_lanes_digits(bits);
	ASSERT_NE(k, 0) << bits;
	const lane_check::Moduli<Radix28> M(m, k);
	LaneNum b(k, 28), o(k, 28);
	for (int l = 0; l < BIG_LANES; l++)
		b.set(l, base[l]);
	std::vector<uint64_t> scratch(big_lanes_pow_scratch(k));
	big_lanes_pow_c(o.x(), b.x(), e.data(), ewords, &M.mod, scratch.data());
	for (int l = 0; l < BIG_LANES; l++)
		ASSERT_TRUE(o.get(l, out[l].v));
}

/* At the RSA halves and a few small sizes, lane counts 1..8: lanes past
 * the count hold lane 0's modulus with base 0 and exponent 0, as the
 * batch CRT fills them.  Up to 1024 bits one count runs a full-length
 * exponent (ewords of the half) and the others one or two words; the
 * 1536- and 2048-bit halves run full exponents in CrtBatchMatchesModexpCrt. */
/* Lane l < count: a random modulus of `bits` bits (lane 1 all-ones) and a
 * base 0, 1, m - 1, 2m - 1 (if up_to_2m: the products' bound) or random
 * below m; the lanes past count: lane 0's modulus, base 0. */
void lane_moduli_and_bases(bt::Rng &rng, int bits, int count, bool up_to_2m, Mpz *mods, Mpz *bv)
{
	for (int l = 0; l < BIG_LANES; l++) {
		if (l >= count) {
			mpz_set(mods[l], mods[0]);
			continue;
		}
		random_modulus(rng, mods[l], bits, l == 1 ? 0 : 2 + static_cast<int>(rng.below(4)));
		const int kind = static_cast<int>(rng.below(6));
		if (kind < 2)
			mpz_set_ui(bv[l], static_cast<unsigned long>(kind));
		else if (kind == 2)
			mpz_sub_ui(bv[l], mods[l], 1);
		else if (kind == 3 && up_to_2m) {
			mpz_mul_2exp(bv[l], mods[l], 1);
			mpz_sub_ui(bv[l], bv[l], 1);
		} else {
			rng.mpz_bits(bv[l], bits);
			mpz_mod(bv[l], bv[l], mods[l]);
		}
	}
}

TEST_P(Lanes52, ExponentiationMatchesGmpAndTwin)
{
	bt::Rng rng(0x1a4e5203);
	struct Size {
		int bits, full_count;
	};
	for (Size sz : { Size{ 150, 8 }, Size{ 200, 3 }, Size{ 360, 5 }, Size{ 512, 8 },
			 Size{ 1024, 4 }, Size{ 1536, 0 }, Size{ 2048, 0 } }) {
		const int k = big_lanes52_digits(sz.bits);
		ASSERT_NE(k, 0);
		for (int count = 1; count <= BIG_LANES; count++) {
			/* Every count at the RSA halves; at the small sizes two;
			 * scaled down (the sanitizer build), 1 and 8 above 1024
			 * bits. */
			if (sz.bits < 512 && count != sz.full_count && count != 1)
				continue;
			if (reduced() && sz.bits > 1024 && count != 1 && count != BIG_LANES)
				continue;
			const bool full = count == sz.full_count;
			const int ewords = full ? (sz.bits + 63) / 64 : 1 + static_cast<int>(rng.below(2));
			Mpz mods[BIG_LANES], bv[BIG_LANES], ev[BIG_LANES];
			std::vector<uint64_t> e(static_cast<size_t>(BIG_LANES * ewords), 0);
			lane_moduli_and_bases(rng, sz.bits, count, false, mods, bv);
			for (int l = 0; l < count; l++) { /* the others: exponent 0 */
				const int ek = static_cast<int>(rng.below(6));
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
			Moduli M(mods, k);
			LaneNum base(k), out(k);
			for (int l = 0; l < BIG_LANES; l++)
				base.set(l, bv[l]);
			std::vector<uint64_t> scratch(big_lanes52_pow_scratch(k) + 7);
			/* scratch at an odd 8-byte offset: used from its first line */
			ops().pow(out.x(), base.x(), e.data(), ewords, &M.mod, scratch.data() + 1);
			Mpz twin[BIG_LANES];
			twin_pow(twin, mods, bv, e, ewords, sz.bits);
			for (int l = 0; l < BIG_LANES; l++) {
				Mpz want, got;
				mpz_powm(want, bv[l], ev[l], mods[l]);
				ASSERT_TRUE(out.get(l, got));
				const std::string what = "bits " + std::to_string(sz.bits) + " count " +
							 std::to_string(count) + " lane " + std::to_string(l);
				ASSERT_EQ(mpz_cmp(want, got), 0)
					<< what << " base " << bt::hex(bv[l]) << " e " << bt::hex(ev[l])
					<< " m " << bt::hex(mods[l]);
				ASSERT_EQ(mpz_cmp(twin[l].v, got), 0) << what << ": twin";
			}
		}
	}
}

/* The public-exponent power (the batch fault check's): each lane's own
 * exponent (0, 1, 3, 65537, all-ones, random; one or two words), bases 0,
 * 1, m - 1, 2m - 1, random, and in lane 2 any value below R (m < R/16
 * here); vs mpz_powm, lane counts 1..8 at n's sizes of RSA-1024 and 2048
 * and two small ones. */
TEST_P(Lanes52, PublicExponentMatchesGmp)
{
	bt::Rng rng(0x1a4e5206);
	for (int bits : { 150, 512, 1024, 2048 }) {
		const int k = big_lanes52_digits(bits);
		ASSERT_NE(k, 0);
		for (int count = 1; count <= BIG_LANES; count++) {
			if (reduced() && bits > 1024 && count != BIG_LANES)
				continue;
			const int ewords = 1 + static_cast<int>(rng.below(2));
			Mpz mods[BIG_LANES], bv[BIG_LANES], ev[BIG_LANES];
			std::vector<uint64_t> e(static_cast<size_t>(BIG_LANES * ewords), 0);
			lane_moduli_and_bases(rng, bits, count, true, mods, bv);
			/* m < R/16 at these sizes: a base may be any value below R. */
			if (count > 2)
				rng.mpz_bits(bv[2], 52 * k);
			for (int l = 0; l < count; l++) { /* the others: exponent 0 */
				const uint64_t small[] = { 0, 1, 3, 65537 };
				const int ek = static_cast<int>(rng.below(6));
				for (int w = 0; w < ewords; w++)
					e[static_cast<size_t>(l * ewords + w)] =
						ek < 4 ? (w == 0 ? small[ek] : 0) : ek == 4 ? ~0ULL : rng.next();
				mpz_import(ev[l], static_cast<size_t>(ewords), -1, 8, 0, 0,
					   e.data() + l * ewords);
			}
			expect_public_powers(mods, bv, ev, e, ewords, k,
					     "bits " + std::to_string(bits) + " count " +
						     std::to_string(count));
			if (HasFatalFailure())
				return;
		}
	}
}

/* The public-exponent power with one exponent in every lane (the fault
 * check's case, where the power starts at the base and, e odd, ends by a
 * product by the base itself): e = 1, 2, 3, 65536, 65537, 2^64 - 1 and
 * a random two-word one, odd and even; bases as above, lanes 2 and 3 any
 * value below R with its top bit set, and R - 1; vs mpz_powm at n's sizes
 * of RSA-1024 and 2048, a small one, and moduli just below R/16 (152 and
 * 1036 bits at 3 and 20 digits), where the last product by such a base
 * passes 2m and needs both subtractions. */
TEST_P(Lanes52, PublicExponentOneInEveryLaneMatchesGmp)
{
	bt::Rng rng(0x1a4e5207);
	for (int bits : { 150, 152, 1024, 1036, 2048 }) {
		const int k = big_lanes52_digits(bits);
		ASSERT_NE(k, 0);
		const uint64_t r = rng.next();
		const uint64_t one_word[] = { 1, 2, 3, 65536, 65537, ~0ULL };
		for (int ek = 0; ek < 8; ek++) {
			const int ewords = ek < 6 ? 1 : 2;
			uint64_t ew[2] = { ek < 6 ? one_word[ek] : r, 0 };
			if (ek >= 6) /* two words, the top one's bit 63 set */
				ew[1] = rng.next() | (1ULL << 63), ew[0] = ek == 6 ? r | 1 : r & ~1ULL;
			Mpz mods[BIG_LANES], bv[BIG_LANES], ev[BIG_LANES];
			lane_moduli_and_bases(rng, bits, BIG_LANES, true, mods, bv);
			rng.mpz_bits(bv[2], 52 * k);
			mpz_setbit(bv[2], static_cast<mp_bitcnt_t>(52 * k - 1));
			mpz_set_ui(bv[3], 0);
			mpz_setbit(bv[3], static_cast<mp_bitcnt_t>(52 * k));
			mpz_sub_ui(bv[3], bv[3], 1);
			std::vector<uint64_t> e(static_cast<size_t>(BIG_LANES * ewords));
			for (int l = 0; l < BIG_LANES; l++)
				for (int w = 0; w < ewords; w++)
					e[static_cast<size_t>(l * ewords + w)] = ew[w];
			for (int l = 0; l < BIG_LANES; l++)
				mpz_import(ev[l], static_cast<size_t>(ewords), -1, 8, 0, 0, ew);
			expect_public_powers(mods, bv, ev, e, ewords, k, "bits " + std::to_string(bits));
			if (HasFatalFailure())
				return;
		}
	}
}

/* The public power's last product by the base itself lands in [2m, 3m)
 * only now and then: with m just below R/16, a base just below R and
 * e = 3, for about one lane in 500.  4000 calls of eight such lanes at
 * three digits (some 60 such lanes expected) vs mpz_powm: a power that
 * took one subtraction there would be caught. */
TEST_P(Lanes52, PublicExponentLastProductPast2m)
{
	bt::Rng rng(0x1a4e5208);
	const int k = 3, bits = 52 * k - 4;
	ASSERT_EQ(big_lanes52_digits(bits), k);
	const int ewords = 1;
	std::vector<uint64_t> e(BIG_LANES, 3);
	Mpz three[BIG_LANES];
	for (int l = 0; l < BIG_LANES; l++)
		mpz_set_ui(three[l], 3);
	for (int call = 0; call < 4000; call++) {
		Mpz mods[BIG_LANES], bv[BIG_LANES];
		for (int l = 0; l < BIG_LANES; l++) {
			rng.mpz_bits(mods[l], bits); /* m in [15/16, 1) R/16 */
			for (int b = bits - 4; b < bits; b++)
				mpz_setbit(mods[l], static_cast<mp_bitcnt_t>(b));
			mpz_setbit(mods[l], 0);
			rng.mpz_bits(bv[l], 52 * k); /* base in [15/16, 1) R */
			for (int b = 52 * k - 4; b < 52 * k; b++)
				mpz_setbit(bv[l], static_cast<mp_bitcnt_t>(b));
		}
		expect_public_powers(mods, bv, three, e, ewords, k, "call " + std::to_string(call));
		if (HasFatalFailure())
			return;
	}
}

/* big_modexp_public_batch against mpz_powm where it runs (the IFMA lanes;
 * elsewhere big_public_batch_len is 0 and it refuses), with bases up to
 * 2^(64 len) - 1 (a faulty signature may be >= n), and its refusals. */
TEST(Lanes52PublicBatch, MatchesGmpWhereItRuns)
{
	bt::Rng rng(0x1a4e5207);
	for (int bits : { 1024, 2048 }) {
		const int len = bits / BIG_CHUNK_SIZE;
		Mpz n[BIG_PUBLIC_BATCH_MAX], rr[BIG_PUBLIC_BATCH_MAX], a[BIG_PUBLIC_BATCH_MAX],
			ev[BIG_PUBLIC_BATCH_MAX];
		std::deque<bt::Big> nb, rrb, ab, eb, res;
		for (int i = 0; i < BIG_PUBLIC_BATCH_MAX; i++) {
			rng.mpz_bits(n[i], bits);
			mpz_setbit(n[i], static_cast<mp_bitcnt_t>(bits - 1));
			mpz_setbit(n[i], 0);
			r_squared(rr[i], n[i], len * BIG_CHUNK_SIZE);
			const int kind = i % 4;
			if (kind == 0)
				rng.mpz_bits(a[i], bits); /* often >= n */
			else if (kind == 1)
				mpz_sub_ui(a[i], n[i], 1);
			else if (kind == 2)
				mpz_set_ui(a[i], 0);
			else {
				rng.mpz_bits(a[i], bits);
				mpz_mod(a[i], a[i], n[i]);
			}
			mpz_set_ui(ev[i], i == 5 ? 3 : i == 6 ? 1 : 65537);
			if (i == 7)
				rng.mpz_bits(ev[i], 70);
			nb.emplace_back(n[i]);
			rrb.emplace_back(rr[i]);
			ab.emplace_back(a[i]);
			eb.emplace_back(ev[i]);
		}
		for (int i = 0; i < BIG_PUBLIC_BATCH_MAX; i++)
			res.emplace_back(len);
		const int served = big_public_batch_len(nb[0].get());
		const size_t need = big_public_batch_scratch(len);
		ASSERT_GT(need, 0u);
		std::vector<uint8_t> scratch(need);
		big_public_batch_op ops[BIG_PUBLIC_BATCH_MAX];
		for (int i = 0; i < BIG_PUBLIC_BATCH_MAX; i++)
			ops[i] = { res[static_cast<size_t>(i)].get(), ab[static_cast<size_t>(i)].get(),
				   eb[static_cast<size_t>(i)].get(), nb[static_cast<size_t>(i)].get(),
				   rrb[static_cast<size_t>(i)].get() };
		for (int count = 1; count <= BIG_PUBLIC_BATCH_MAX; count++) {
			const BIG_ERR_CODE err = big_modexp_public_batch(ops, count, scratch.data(), need);
			if (!served) {
				EXPECT_EQ(err, BIG_INVALID_ARGS);
				continue;
			}
			ASSERT_EQ(served, len);
			ASSERT_EQ(err, BIG_OK) << bits << " count " << count;
			for (int i = 0; i < count; i++) {
				Mpz want, got;
				mpz_powm(want, a[i], ev[i], n[i]);
				bt::to_mpz(got, res[static_cast<size_t>(i)].get());
				EXPECT_EQ(mpz_cmp(want, got), 0) << bits << " count " << count << " op " << i;
			}
		}
		if (!served)
			continue;
		EXPECT_EQ(big_modexp_public_batch(ops, 0, scratch.data(), need), BIG_INVALID_ARGS);
		EXPECT_EQ(big_modexp_public_batch(ops, BIG_PUBLIC_BATCH_MAX + 1, scratch.data(), need),
			  BIG_INVALID_ARGS);
		EXPECT_EQ(big_modexp_public_batch(ops, 2, scratch.data(), need - 1), BIG_INVALID_ARGS);
		EXPECT_EQ(big_modexp_public_batch(nullptr, 2, scratch.data(), need), BIG_INVALID_ARGS);
		big_public_batch_op odd[2] = { ops[0], ops[1] };
		bt::Big short_n(n[1]);
		short_n.get()->len = len - 1; /* a length that differs */
		odd[1].n = short_n.get();
		EXPECT_EQ(big_modexp_public_batch(odd, 2, scratch.data(), need), BIG_INVALID_ARGS);
		Mpz even;
		mpz_add_ui(even, n[1], 1);
		bt::Big even_n(even);
		odd[1].n = even_n.get();
		EXPECT_EQ(big_modexp_public_batch(odd, 2, scratch.data(), need), BIG_INVALID_ARGS);
		odd[1].n = nb[1].get();
		odd[1].result = nullptr;
		EXPECT_EQ(big_modexp_public_batch(odd, 2, scratch.data(), need), BIG_INVALID_ARGS);
		odd[1] = ops[1];
		Mpz wide;
		mpz_setbit(wide, static_cast<mp_bitcnt_t>(bits)); /* len + 1 chunks */
		bt::Big wide_big(wide);
		odd[1].a = wide_big.get();
		EXPECT_EQ(big_modexp_public_batch(odd, 2, scratch.data(), need), BIG_INVALID_ARGS);
		odd[1] = ops[1];
		odd[1].e = wide_big.get();
		EXPECT_EQ(big_modexp_public_batch(odd, 2, scratch.data(), need), BIG_INVALID_ARGS);
		odd[1] = ops[1];
		odd[1].n_rr = wide_big.get();
		EXPECT_EQ(big_modexp_public_batch(odd, 2, scratch.data(), need), BIG_INVALID_ARGS);
		/* and every refusal left the results as they were */
		for (int i = 0; i < BIG_PUBLIC_BATCH_MAX; i++) {
			Mpz want, got;
			mpz_powm(want, a[i], ev[i], n[i]);
			bt::to_mpz(got, res[static_cast<size_t>(i)].get());
			EXPECT_EQ(mpz_cmp(want, got), 0) << "op " << i << " after the refusals";
		}
		/* A result on the caller's buffer, shorter than len: grown,
		 * not refused. */
		BIG_CHUNK_TYPE buf[4];
		BIGNUM small;
		ASSERT_EQ(big_init1(&small, 4, buf, 4), BIG_OK);
		odd[1] = ops[1];
		odd[1].result = &small;
		ASSERT_EQ(big_modexp_public_batch(odd, 2, scratch.data(), need), BIG_OK);
		{
			Mpz want, got;
			mpz_powm(want, a[1], ev[1], n[1]);
			bt::to_mpz(got, &small);
			EXPECT_EQ(mpz_cmp(want, got), 0) << bits << " a result grown from 4 chunks";
			EXPECT_EQ(small.malloced, 1);
		}
		big_finish(&small);
		/* Every operation on op 0's n (the same BIGNUMs, as a batch on
		 * one key: the lanes share one conversion of n and R^2). */
		big_public_batch_op one_key[BIG_PUBLIC_BATCH_MAX];
		for (int i = 0; i < BIG_PUBLIC_BATCH_MAX; i++) {
			one_key[i] = ops[i];
			one_key[i].n = ops[0].n;
			one_key[i].n_rr = ops[0].n_rr;
		}
		ASSERT_EQ(big_modexp_public_batch(one_key, BIG_PUBLIC_BATCH_MAX, scratch.data(), need),
			  BIG_OK);
		for (int i = 0; i < BIG_PUBLIC_BATCH_MAX; i++) {
			Mpz want, got;
			mpz_powm(want, a[i], ev[i], n[0]);
			bt::to_mpz(got, res[static_cast<size_t>(i)].get());
			EXPECT_EQ(mpz_cmp(want, got), 0) << bits << " one key, op " << i;
		}
	}
}

/* R^2 mod m from the radix-B R^2 (big_lanes52_mod_init) at the RSA prime
 * lengths and the smallest that has it: congruent to 2^(104k), below 2m. */
TEST_P(Lanes52, ModInitGivesRSquared)
{
	bt::Rng rng(0x1a4e5204);
	for (int bits : { 192, 512, 1024, 1536, 2048 }) {
		const int len = bits / BIG_CHUNK_SIZE, k = big_lanes52_digits(bits);
		ASSERT_NE(k, 0);
		ASSERT_TRUE(big_lanes52_len_ok(len));
		Mpz m[BIG_LANES], rr[BIG_LANES];
		std::vector<std::vector<bt::chunk>> mc, rc;
		const BIG_CHUNK_TYPE *mp[BIG_LANES], *rp[BIG_LANES];
		for (int l = 0; l < BIG_LANES; l++) {
			rng.mpz_bits(m[l], bits - (l == 3 ? 100 : 0));
			mpz_setbit(m[l], 0);
			r_squared(rr[l], m[l], len * BIG_CHUNK_SIZE);
			mc.push_back(bt::chunks_of(m[l], len));
			rc.push_back(bt::chunks_of(rr[l], len));
		}
		/* Lanes 6 and 7 on lane 2's m and rr (the same pointers, as a
		 * batch on one key passes them): copies of lane 2. */
		for (int l = 6; l < BIG_LANES; l++) {
			mpz_set(m[l], m[2]);
			mpz_set(rr[l], rr[2]);
		}
		for (int l = 0; l < BIG_LANES; l++) {
			const size_t from = static_cast<size_t>(l >= 6 ? 2 : l);
			mp[l] = mc[from].data();
			rp[l] = rc[from].data();
		}
		big_lanes52_mod mod;
		LaneNum x(k), y(k), got(k);
		ASSERT_EQ(big_lanes52_mod_init(&mod, k, mp, rp, len, &ops(), x.x(), y.x()), 0);
		EXPECT_EQ(big_lanes52_mod_init(&mod, k - 1, mp, rp, len, &ops(), x.x(), y.x()), -1)
			<< "e below 0";
		EXPECT_EQ(big_lanes52_mod_init(&mod, BIG_LANES52_MAX_DIGITS + 1, mp, rp, len, &ops(),
					       x.x(), y.x()),
			  -1)
			<< "k out of range";
		memcpy(got.x(), mod.rr, got.w.size() * 8);
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz want, g, two_m;
			r_squared(want, m[l], 52 * k);
			ASSERT_TRUE(got.get(l, g, true)); /* rr in the digit form */
			mpz_mul_2exp(two_m, m[l], 1);
			EXPECT_LT(mpz_cmp(g, two_m), 0);
			mpz_mod(g, g, m[l]);
			EXPECT_EQ(mpz_cmp(g, want), 0) << bits << " lane " << l;
			EXPECT_EQ(mod.k0[l], big_lanes52_k0(mpz_getlimbn(m[l], 0)));
		}
	}
}

/* A result left as it was: every chunk still the fill it had, its len too. */
bool untouched(const BIGNUM *r, int len)
{
	bool same = r->len == len;
	for (int j = 0; j < len; j++)
		same = same && r->value[j] == static_cast<BIG_CHUNK_TYPE>(0x5a5a5a5a5a5a5a5aULL);
	return same;
}

/* The batch's own fault check (big_crt_batch_op.e and .fault) on RSA
 * keys (primes, e = 65537, dp and dq from it), eight operations (two lane
 * groups): results that pass are stored with fault 0; a result wrong
 * modulo p (dp + 2) or modulo q (dq + 2) fails alone with fault 1 and is
 * left as it was, as does one whose n is not p q; an operation without e
 * gets no verdict (fault not written); e longer than p, or an input of
 * 2 len + 1 chunks (reduced in chunks), leave every fault of that lane
 * group -1 (the caller checks) and every result stored, the other group
 * checked. */
TEST_P(Lanes52, CrtBatchChecksItsResults)
{
	bt::Rng rng(0x1a4e5207);
	for (int bits : { 512, 1024 }) {
		if (reduced() && bits > 512)
			continue;
		const int len = bits / BIG_CHUNK_SIZE;
		Mpz p, q, n, pinv, e, dp, dq, t;
		mpz_set_ui(e, 65537);
		do {
			rng.mpz_prime_pair(p, q, bits, bits);
			mpz_sub_ui(t, p, 1);
			const int ok_p = mpz_invert(dp, e, t);
			mpz_sub_ui(t, q, 1);
			const int ok_q = mpz_invert(dq, e, t);
			if (ok_p && ok_q && mpz_invert(pinv, p, q))
				break;
		} while (true);
		mpz_mul(n, p, q);
		Mpz prr, qrr, dp_bad, dq_bad;
		r_squared(prr, p, len * BIG_CHUNK_SIZE);
		r_squared(qrr, q, len * BIG_CHUNK_SIZE);
		mpz_add_ui(dp_bad, dp, 2);
		mpz_add_ui(dq_bad, dq, 2);
		bt::Big bp(p), bq(q), bpinv(pinv), bprr(prr), bqrr(qrr), be(e), bn(n);
		bt::Big bdp(dp), bdq(dq), bdp_bad(dp_bad), bdq_bad(dq_bad);
		std::vector<std::unique_ptr<bt::Big>> a, res;
		Mpz av[BIG_CRT_BATCH_MAX];
		big_crt_batch_op batch[BIG_CRT_BATCH_MAX];
		int fault[BIG_CRT_BATCH_MAX];
		for (int i = 0; i < BIG_CRT_BATCH_MAX; i++) {
			rng.mpz_bits(av[i], 2 * bits);
			mpz_mod(av[i], av[i], n);
			a.push_back(std::make_unique<bt::Big>(av[i]));
			res.push_back(std::make_unique<bt::Big>(2 * len + 1));
			batch[i] = { res.back()->get(), a.back()->get(), bdp.get(), bdq.get(), bp.get(),
				   bq.get(), bpinv.get(), bprr.get(), bqrr.get(), be.get(), bn.get(),
				   &fault[i] };
		}
		batch[1].dp = bdp_bad.get();
		batch[2].dq = bdq_bad.get();
		batch[3].e = nullptr;
		/* The second lane group: op 5 fails, 7 asks for no check. */
		batch[5].dp = bdp_bad.get();
		batch[7].e = nullptr;
		/* Every result the fill untouched() looks for, every fault -7. */
		const auto fill = [&]() {
			for (int i = 0; i < BIG_CRT_BATCH_MAX; i++) {
				BIGNUM *r = batch[i].result;
				for (int j = 0; j < r->size; j++)
					r->value[j] = static_cast<BIG_CHUNK_TYPE>(0x5a5a5a5a5a5a5a5aULL);
				r->len = 2 * len;
				fault[i] = -7;
			}
		};
		/* want[i]: op i's fault after the call (-7: not written). */
		const auto run = [&](const std::vector<int> &want) {
			fill();
			std::vector<uint8_t> scratch(big_crt_batch52_scratch(len));
			ASSERT_EQ(big_modexp_crt_batch52_ops(batch, BIG_CRT_BATCH_MAX, &ops(),
							     scratch.data(), scratch.size()),
				  BIG_OK);
			for (int i = 0; i < BIG_CRT_BATCH_MAX; i++) {
				SCOPED_TRACE(::testing::Message() << bits << "-bit primes, op " << i);
				EXPECT_EQ(fault[i], want[static_cast<size_t>(i)]);
				if (want[static_cast<size_t>(i)] == 1) {
					EXPECT_TRUE(untouched(batch[i].result, 2 * len));
					continue;
				}
				Mpz want_s, got, d;
				mpz_powm(want_s, av[i], i == 1 || i == 5 ? dp_bad : dp, p);
				mpz_powm(d, av[i], i == 2 ? dq_bad : dq, q);
				/* want_s + p ((d - want_s) pinv mod q) */
				mpz_sub(d, d, want_s);
				mpz_mul(d, d, pinv);
				mpz_mod(d, d, q);
				mpz_addmul(want_s, p, d);
				bt::to_mpz(got, batch[i].result);
				EXPECT_EQ(mpz_cmp(want_s, got), 0);
			}
		};
		run({ 0, 1, 1, -7, 0, 1, 0, -7 });
		if (HasFatalFailure())
			return;
		/* n not p q for op 0 (a prime faulted in memory would give
		 * that): op 0 fails too, its exponentiation right. */
		Mpz n2;
		mpz_add_ui(n2, n, 2);
		bt::Big bn2(n2);
		batch[0].n = bn2.get();
		batch[3].e = be.get(); /* op 3 on the key's n: it passes */
		run({ 1, 1, 1, 0, 0, 1, 0, -7 });
		batch[0].n = bn.get();
		batch[3].e = nullptr;
		/* e of len + 1 chunks (its top chunk 0): no check made in its
		 * lane group; the other group checks. */
		bt::Big long_e(len + 1);
		for (int j = 0; j < len + 1; j++)
			long_e.b.value[j] = j == 0 ? 65537 : 0;
		long_e.b.len = len + 1;
		batch[0].e = long_e.get();
		run({ -1, -1, -1, -7, 0, 1, 0, -7 });
		batch[0].e = be.get();
		/* An input of 2 len + 1 chunks: its group reduced in chunks, not
		 * checked. */
		bt::Big wide(2 * len + 1);
		const BIGNUM *a2 = batch[2].a;
		for (int j = 0; j < 2 * len + 1; j++)
			wide.b.value[j] = j < a2->len ? a2->value[j] : 0;
		wide.b.len = 2 * len + 1;
		batch[2].a = wide.get();
		run({ -1, -1, -1, -7, 0, 1, 0, -7 });
		batch[2].a = a2;
		/* A check asked for with nowhere to say its verdict, or no n:
		 * refused whole, nothing written. */
		for (int missing = 0; missing < 2; missing++) {
			SCOPED_TRACE(missing ? "no n" : "no fault");
			fill();
			if (missing)
				batch[1].n = nullptr;
			else
				batch[1].fault = nullptr;
			std::vector<uint8_t> scratch(big_crt_batch52_scratch(len));
			EXPECT_EQ(big_modexp_crt_batch52_ops(batch, BIG_CRT_BATCH_MAX, &ops(),
							     scratch.data(), scratch.size()),
				  BIG_INVALID_ARGS);
			std::vector<uint8_t> any(big_crt_batch_scratch(len));
			EXPECT_EQ(big_modexp_crt_batch(batch, BIG_CRT_BATCH_MAX, any.data(), any.size()),
				  BIG_INVALID_ARGS);
			for (int i = 0; i < BIG_CRT_BATCH_MAX; i++) {
				EXPECT_TRUE(untouched(batch[i].result, 2 * len)) << "op " << i;
				EXPECT_EQ(fault[i], -7) << "op " << i;
			}
			batch[1].n = bn.get();
			batch[1].fault = &fault[1];
		}
	}
}

/* The batch at every prime length it serves in radix 2^52
 * (big_crt_batch_len and big_lanes52_len_ok), one batch a length, the
 * count going round 1..8: the exponentiation at every digit count those
 * lengths give.  Scaled down (the sanitizer build): every fourth length. */
TEST_P(Lanes52, CrtBatchAtEveryLength)
{
	bt::Rng rng(0x1a4e5206);
	const int step = reduced() ? 4 : 1;
	const int lengths = lane_check::crt_batch_at_every_length(
		rng, step, big_lanes52_len_ok, [&](const big_crt_batch_op *batch, int count, int len) {
			std::vector<uint8_t> scratch(big_crt_batch52_scratch(len));
			return big_modexp_crt_batch52_ops(batch, count, &ops(), scratch.data(),
							  scratch.size());
		});
	EXPECT_GE(lengths, 8 / step);
}

/* The batch CRT in radix 2^52 against big_modexp_crt, 1..8 operations
 * per batch (one lane group or two: in lockstep at 512-bit primes, where
 * the IFMA builds have it) at the prime lengths of RSA-1024 .. 4096. */
TEST_P(Lanes52, CrtBatchMatchesModexpCrt)
{
	bt::Rng rng(0x1a4e5205);
	for (int bits : { 512, 1024, 1536, 2048 }) {
		const int len = bits / BIG_CHUNK_SIZE;
		for (int count = 1; count <= BIG_CRT_BATCH_MAX; count++) {
			if (bits >= 1536 && count != (bits == 1536 ? 2 : 7))
				continue;
			/* Scaled down (the sanitizer build): up to 1024-bit
			 * primes, one batch a size and two groups at 512. */
			if (reduced() && (bits > 1024 || (count != bits / 256 &&
							   !(bits == 512 && count == 6))))
				continue;
			lane_check::CrtBatchCase c;
			c.make(rng, bits, count);
			if (HasFatalFailure())
				return;
			const size_t need = big_crt_batch52_scratch(len);
			EXPECT_LE(need, big_crt_batch_scratch(len));
			std::vector<uint8_t> scratch(need);
			if (count == 2) {
				EXPECT_EQ(big_modexp_crt_batch52_ops(c.ops, count, &ops(), scratch.data(),
								     need - 1),
					  BIG_INVALID_ARGS);
				EXPECT_EQ(big_modexp_crt_batch52_ops(c.ops, BIG_CRT_BATCH_MAX + 1, &ops(),
								     scratch.data(), need),
					  BIG_INVALID_ARGS);
				EXPECT_EQ(big_modexp_crt_batch52_ops(c.ops, 0, &ops(), scratch.data(), need),
					  BIG_INVALID_ARGS);
			}
			ASSERT_EQ(big_modexp_crt_batch52_ops(c.ops, count, &ops(), scratch.data(), need),
				  BIG_OK);
			c.expect_results(bits);
			if (count != 2)
				continue;
			/* Inputs of 2 len chunks are reduced in the lanes (at these
			 * lengths, with room below R); one of 2 len + 1 (its top
			 * chunk 0) sends every input through the chunk reduction
			 * instead: the same results. */
			const BIGNUM *a1 = c.ops[1].a;
			bt::Big wide(2 * len + 1);
			for (int j = 0; j < 2 * len + 1; j++)
				wide.b.value[j] = j < a1->len ? a1->value[j] : 0;
			wide.b.len = 2 * len + 1;
			c.ops[1].a = &wide.b;
			for (int i = 0; i < count; i++)
				for (int j = 0; j < c.ops[i].result->size; j++)
					c.ops[i].result->value[j] = 0;
			ASSERT_EQ(big_modexp_crt_batch52_ops(c.ops, count, &ops(), scratch.data(), need),
				  BIG_OK);
			c.expect_results(bits);
			c.ops[1].a = a1;
		}
	}
}

#if BIG_LANES52_HAVE_IFMA_BUILD
/* The radix-2^52 digits of the batch's primes that do not look like other
 * stack words (above 2^40, neither sparse nor dense), masked for the scan:
 * the IFMA kernels keep copies of m's digits in their frames. */
void add_distinctive_digits(std::vector<uint64_t> &digits, const Mpz &x)
{
	Mpz v;
	mpz_set(v, x.v);
	while (mpz_sgn(v.v) != 0) {
		const uint64_t d = mpz_getlimbn(v.v, 0) & BIG_LANES52_DIGIT_MASK;
		mpz_tdiv_q_2exp(v, v, 52);
		const int ones = __builtin_popcountll(d);
		if (d >> 40 != 0 && ones >= 16 && ones <= 36)
			digits.push_back(d);
	}
}

std::vector<uint64_t> prime_digits(const lane_check::CrtBatchCase &c)
{
	std::vector<uint64_t> digits;
	Mpz v;
	for (int i = 0; i < c.count; i++)
		for (const BIGNUM *m : { c.ops[i].p, c.ops[i].q }) {
			bt::to_mpz(v, m);
			add_distinctive_digits(digits, v);
		}
	bt::mask_secrets(digits);
	return digits;
}

/* Under Valgrind (which ignores the FMA build's rounding mode). */
bool under_valgrind()
{
	return RUNNING_ON_VALGRIND != 0;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif

/* The words' digits (lanes52.h's digit form: the bits above 52 were
 * carried already), which give the value. */
std::vector<uint64_t> digits_of(const std::vector<uint64_t> &words)
{
	std::vector<uint64_t> d(words);
	for (uint64_t &w : d)
		w &= BIG_LANES52_DIGIT_MASK;
	return d;
}

/* The NASM squaring and product give the register window's words, not
 * only its values (the carry bits above 52 too): the emulated build's, which takes
 * the window at 20 digits in every build (LN52_WINDOW_RUNTIME_K), as the
 * IFMA build's C does where k is a constant (not in the ASan build, whose
 * C takes the rows there: the same values, other carry bits); and the
 * C side's values.  Over every edge operand kind in every lane and its own
 * outputs chained (carry bits above 52 in them), in place (the product in
 * either operand's place), with junk above bit 52 in some rounds' inputs;
 * the exponentiation (fully reduced) by
 * random full-length exponents word for word. */
TEST(Lanes52Ifma, NasmKernelsGiveTheWindowsWords)
{
	if (!big_lanes52_cpu_has_ifma())
		GTEST_SKIP() << "skipped: no AVX-512 IFMA";
	bt::Rng rng(0x1a4e5232);
	const int k = 20;
	const size_t words = BIG_LANES_WORDS(k);
	for (int round = 0; round < 2 * (lane_check::kEdgeOperands + 1); round++) {
		SCOPED_TRACE("round " + std::to_string(round));
		Moduli M(rng, k, round % 3 == 0 ? 52 * k - 4 : 52 * k - 2 - static_cast<int>(rng.below(40)));
		LaneNum a(k), b(k);
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz av, bv;
			lane_check::operand(rng, av, M.m[l], (round + l) % (lane_check::kEdgeOperands + 1),
					    52 * k);
			lane_check::operand(rng, bv, M.m[l],
					    (round + 3 * l + 1) % (lane_check::kEdgeOperands + 1), 52 * k);
			a.set(l, av);
			b.set(l, bv);
		}
		std::vector<uint64_t> x(a.x(), a.x() + words), y(b.x(), b.x() + words), c(words),
			window(words), nasm(words);
		if (round % 4 == 3)
			for (size_t j = 0; j < words; j++) {
				x[j] |= rng.next() << 52;
				y[j] |= rng.next() << 52;
			}
		for (int chain = 0; chain < 8; chain++) {
			big_lanes52_mul_emu(window.data(), x.data(), y.data(), &M.mod);
			big_lanes52_mul_ifma_side(c.data(), x.data(), y.data(), &M.mod, 0);
			big_lanes52_mul_ifma_side(nasm.data(), x.data(), y.data(), &M.mod, 1);
			ASSERT_EQ(window, nasm) << "product " << chain << " of the chain";
			ASSERT_EQ(digits_of(c), digits_of(nasm)) << "product " << chain;
			std::vector<uint64_t> as_a(x), as_b(y);
			big_lanes52_mul_ifma_side(as_a.data(), as_a.data(), y.data(), &M.mod, 1);
			big_lanes52_mul_ifma_side(as_b.data(), x.data(), as_b.data(), &M.mod, 1);
			ASSERT_EQ(window, as_a) << "product " << chain << " in a's place";
			ASSERT_EQ(window, as_b) << "product " << chain << " in b's place";
			y = nasm;

			big_lanes52_sqr_emu(window.data(), x.data(), &M.mod);
			big_lanes52_sqr_ifma_side(c.data(), x.data(), &M.mod, 0);
			big_lanes52_sqr_ifma_side(nasm.data(), x.data(), &M.mod, 1);
			ASSERT_EQ(window, nasm) << "squaring " << chain << " of the chain";
			ASSERT_EQ(digits_of(c), digits_of(nasm)) << "squaring " << chain;
			std::vector<uint64_t> in_place(x);
			big_lanes52_sqr_ifma_side(in_place.data(), in_place.data(), &M.mod, 1);
			ASSERT_EQ(window, in_place) << "squaring " << chain << " in place";
			x = nasm;
		}
		std::vector<uint64_t> e(BIG_LANES * 16), scratch(big_lanes52_pow_scratch(k));
		for (uint64_t &w : e)
			w = rng.next();
		big_lanes52_pow_ifma_side(c.data(), a.x(), e.data(), 16, &M.mod, scratch.data(), 0);
		big_lanes52_pow_ifma_side(nasm.data(), a.x(), e.data(), 16, &M.mod, scratch.data(), 1);
		ASSERT_EQ(c, nasm) << "the exponentiation";
	}
}

/* The NASM squaring leaves the doubled digits of its operand, E_j =
 * 2 a_j mod 2^52, on its frame (lanes52.h): found there after a call (the
 * control), gone after big_r52_stack_wipe_ifma from the same function,
 * as big_modexp_crt_batch and big_modexp_public_batch call it. */
TEST(Lanes52Ifma, NasmSquaringFrameIsWipedByTheCaller)
{
	if (!big_lanes52_cpu_has_ifma())
		GTEST_SKIP() << "skipped: no AVX-512 IFMA";
	bt::Rng rng(0x1a4e5233);
	const int k = 20;
	/* The moduli have random density, and so the operands below them: a
	 * draw with too few distinctive digits draws again. */
	std::unique_ptr<Moduli> M;
	LaneNum a(k), r(k);
	std::vector<uint64_t> doubled;
	for (int attempt = 0; attempt < 8 && doubled.size() < 16; attempt++) {
		M = std::make_unique<Moduli>(rng, k, 52 * k - 4);
		doubled.clear();
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz av;
			lane_check::operand(rng, av, M->m[l], lane_check::kEdgeOperands + 1, 52 * k);
			a.set(l, av);
			for (int j = 1; j < k; j++) {
				const uint64_t e =
					(a.x()[BIG_LANES_AT(j, l)] << 1) & BIG_LANES52_DIGIT_MASK;
				const int ones = __builtin_popcountll(e);
				if (e >> 40 != 0 && ones >= 16 && ones <= 36)
					doubled.push_back(e);
			}
		}
	}
	ASSERT_GE(doubled.size(), 16u) << "too few distinctive digits in 8 draws";
	bt::mask_secrets(doubled);
	bt::scrub_stack_below();
	ASSERT_FALSE(bt::stack_below_holds(doubled)) << "before any call";
	if (!kAsan) {
		bt::scrub_stack_below();
		big_lanes52_sqr20_ifma_asm(r.x(), a.x(), &M->mod);
		ASSERT_TRUE(bt::stack_below_holds(doubled))
			<< "the control: the doubled digits are not found after the squaring";
	}
	bt::scrub_stack_below();
	big_lanes52_sqr20_ifma_asm(r.x(), a.x(), &M->mod);
	big_r52_stack_wipe_ifma(BIG_LANES52_FRAME_BYTES);
	EXPECT_FALSE(bt::stack_below_holds(doubled)) << "after the squaring and the wipe";
}

/* The doubles the FMA build holds digits as (lanes52_fma.c), their bit
 * patterns masked as the digits are. */
std::vector<uint64_t> as_double_patterns(std::vector<uint64_t> digits)
{
	bt::mask_secrets(digits); /* back to the digits */
	for (uint64_t &d : digits) {
		const double x = static_cast<double>(d);
		memcpy(&d, &x, sizeof(d));
	}
	bt::mask_secrets(digits);
	return digits;
}

/* A build's kernels leave copies of the primes' digits on their frames
 * (lanes52.h: BIG_LANES52_FRAME_BYTES for IFMA; the FMA build's as
 * doubles): found there after big_modexp_crt_batch52_ops (the control, at
 * 1024-bit primes, or 2048 where the IFMA build's NASM kernels take the
 * 20-digit ones; not in the ASan build), gone after big_modexp_crt_batch,
 * which calls it and then the wipe; at 2048-bit primes too (the deepest
 * frames: big_lanes52_mod_init's 40-digit products).  want: BIGMONT_BATCH
 * for the build, whose name big_lanes52_ops_choose must give. */
/* The batch's own fault check asked for on every operation of c (e =
 * 65537, n taken as a), so that its lane square-and-multiply runs too;
 * every verdict is a fault (c's dp are random, n is not p q), which shows
 * the check ran in the lanes (-1 would say it did not). */
struct CheckAsked {
	bt::Big e{ 1 };
	int fault[BIG_CRT_BATCH_MAX] = {};
	explicit CheckAsked(lane_check::CrtBatchCase &c)
	{
		e.b.value[0] = 65537;
		e.b.len = 1;
		for (int i = 0; i < c.count; i++) {
			c.ops[i].e = &e.b;
			c.ops[i].n = c.ops[i].a;
			c.ops[i].fault = &fault[i];
		}
	}
};

void expect_frames_wiped(const char *want, bool doubles)
{
	bt::BatchEnv env(want);
	bt::Rng rng(0x1a4e5231);
	/* The control where C kernels run: at 1024-bit primes (20 digits)
	 * the IFMA build bound to its NASM kernels there (lanes52.h) leaves
	 * no prime digit on the stack, so it looks at 2048-bit primes. */
	int control_bits = 1024;
#if BIG_LANES52_HAVE_IFMA_BUILD
	if (strcmp(want, "ifma") == 0 && big_lanes52_sqr20_asm())
		control_bits = 2048;
#endif
	for (int bits : { 1024, 2048 }) {
		SCOPED_TRACE(std::to_string(bits) + "-bit primes");
		/* The moduli have random density: a draw whose digits are
		 * mostly runs of 0s or 1s gives the search too little to find,
		 * so draw again (a few tries find one). */
		std::unique_ptr<lane_check::CrtBatchCase> c;
		std::vector<uint64_t> digits;
		for (int attempt = 0; attempt < 8 && digits.size() < 16; attempt++) {
			c = std::make_unique<lane_check::CrtBatchCase>();
			c->make(rng, bits, BIG_CRT_BATCH_MAX);
			if (::testing::Test::HasFatalFailure())
				return;
			digits = prime_digits(*c);
		}
		ASSERT_GE(digits.size(), 16u) << "too few distinctive digits in 8 draws";
		if (doubles)
			digits = as_double_patterns(digits);
		std::vector<uint8_t> scratch(big_crt_batch_scratch(c->len));
		struct big_lanes52_ops lanes;
		ASSERT_EQ(big_lanes52_ops_choose(&lanes), 1);
		ASSERT_STREQ(lanes.name, want);

		bt::scrub_stack_below();
		ASSERT_FALSE(bt::stack_below_holds(digits)) << "before any call";
		/* Not under AddressSanitizer, whose kernels' frames lie
		 * elsewhere (deeper, or on its fake stack). */
		if (bits == control_bits && !kAsan) {
			bt::scrub_stack_below();
			ASSERT_EQ(big_modexp_crt_batch52_ops(c->ops, c->count, &lanes, scratch.data(),
							     scratch.size()),
				  BIG_OK);
			ASSERT_TRUE(bt::stack_below_holds(digits))
				<< "the control: the primes' digits are not found after the kernels";
		}
		bt::scrub_stack_below();
		ASSERT_EQ(big_modexp_crt_batch(c->ops, c->count, scratch.data(), scratch.size()),
			  BIG_OK);
		EXPECT_FALSE(bt::stack_below_holds(digits)) << "after big_modexp_crt_batch";
		c->expect_results(bits);
		/* And with its fault check, which runs deeper lane code. */
		CheckAsked asked(*c);
		bt::scrub_stack_below();
		ASSERT_EQ(big_modexp_crt_batch(c->ops, c->count, scratch.data(), scratch.size()),
			  BIG_OK);
		EXPECT_FALSE(bt::stack_below_holds(digits)) << "after the batch with its check";
		EXPECT_EQ(asked.fault[0], 1) << "the check did not run in the lanes";
	}
}

TEST(Lanes52Ifma, FramesAreWipedByTheirCaller)
{
	if (!big_lanes52_cpu_has_ifma())
		GTEST_SKIP() << "skipped: no AVX-512 IFMA";
	expect_frames_wiped("ifma", false);
}

#endif

#if BIG_LANES52_HAVE_FMA_BUILD
/* The FMA build sets the rounding mode toward minus infinity and masks
 * every exception around its kernels (lanes52_fma.c): the caller's MXCSR
 * comes back as it was (mode, masks, flags), and a caller that unmasked
 * the inexact exception, whose products are inexact, does not trap; the
 * mode takes on this CPU (where it does not, as under Valgrind, the build
 * is not offered). */
/* Offered wherever the CPU has AVX2 and FMA, but under Valgrind (which
 * ignores the rounding mode): a mode that does not take would otherwise
 * leave every FMA test skipped and the suite green. */
TEST(Lanes52Fma, OfferedWhereTheCpuHasIt)
{
	if (!big_lanes52_cpu_can_fma())
		GTEST_SKIP() << "skipped: no AVX2 and FMA";
	if (under_valgrind())
		GTEST_SKIP() << "skipped: under Valgrind, which ignores the rounding mode";
	EXPECT_EQ(big_lanes52_fma_rounds_down(), 1);
	EXPECT_EQ(big_lanes52_cpu_has_fma(), 1);
	struct big_lanes52_ops o;
	bt::BatchEnv env(nullptr);
	if (!big_lanes_cpu_has_avx512() && !big_lanes52_cpu_has_ifma()) {
		ASSERT_EQ(big_lanes52_ops_choose(&o), 1);
		EXPECT_STREQ(o.name, "fma");
	}
}

/* A build's products and exponentiations under a caller's MXCSR of its
 * own (toward plus infinity, the inexact exception unmasked, the overflow
 * flag set): the emulated build's values, and that MXCSR as it was after
 * each call.  fma: the build, seed: the draw. */
void expect_callers_mxcsr_kept(const big_lanes52_ops &fma, uint64_t seed)
{
	bt::Rng rng(seed);
	const int k = 20;
	Moduli M(rng, k, 52 * k - 2);
	LaneNum a(k), r(k), want(k);
	for (int l = 0; l < BIG_LANES; l++) {
		Mpz v;
		rng.mpz_bits(v, 52 * k - 3);
		a.set(l, v);
	}
	const big_lanes52_ops emu = BIG_LANES52_OPS_INIT(emu);
	emu.mul(want.x(), a.x(), a.x(), &M.mod);
	const unsigned before = _mm_getcsr();
	const unsigned mine = ((before & ~0x6000u) | 0x4000u | 0x0008u) & ~0x1000u;
	_mm_setcsr(mine);
	fma.mul(r.x(), a.x(), a.x(), &M.mod);
	fma.sqr(r.x(), r.x(), &M.mod);
	const unsigned after = _mm_getcsr();
	_mm_setcsr(before);
	EXPECT_EQ(after, mine);
	emu.sqr(want.x(), want.x(), &M.mod);
	EXPECT_EQ(digits_of(r.w), digits_of(want.w));
	/* The exponentiations (the ymm build sets its mode once for all
	 * their products): the same. */
	std::vector<uint64_t> e(BIG_LANES * 2), scratch(big_lanes52_pow_scratch(k));
	for (uint64_t &w : e)
		w = rng.next();
	LaneNum base(k), out(k), out_emu(k);
	for (int l = 0; l < BIG_LANES; l++) {
		Mpz v;
		rng.mpz_bits(v, 52 * k);
		mpz_mod(v, v, M.m[l]);
		base.set(l, v);
	}
	for (int pub = 0; pub < 2; pub++) {
		SCOPED_TRACE(pub ? "pow_public" : "pow");
		(pub ? emu.pow_public : emu.pow)(out_emu.x(), base.x(), e.data(), 2, &M.mod,
						  scratch.data());
		_mm_setcsr(mine);
		(pub ? fma.pow_public : fma.pow)(out.x(), base.x(), e.data(), 2, &M.mod,
						  scratch.data());
		const unsigned after_pow = _mm_getcsr();
		_mm_setcsr(before);
		EXPECT_EQ(after_pow, mine);
		EXPECT_EQ(out.w, out_emu.w);
	}
}

TEST(Lanes52Fma, RestoresTheCallersMxcsr)
{
	if (!big_lanes52_cpu_has_fma())
		GTEST_SKIP() << "skipped: no AVX2 and FMA";
	expect_callers_mxcsr_kept(BIG_LANES52_OPS_INIT(fma), 0x1a4e5240);
}

/* The wipe reaches as deep as an FMA build's kernels' frames: from one
 * frame, the batch CRT's kernels and the public batch's exponentiation (as
 * big_modexp_crt_batch and big_modexp_public_batch call them) write no
 * deeper than the build's wipe zeroes (as those callers call it):
 * at 1024- and 2048-bit primes (the mod init's 40-digit products the
 * deepest), in every build, the sanitizers' with their deeper frames.
 * want: BIGMONT_BATCH for the build, whose name big_lanes52_ops_choose
 * must give. */
void expect_wipe_as_deep_as_the_frames(const char *want, uint64_t seed)
{
	bt::BatchEnv env(want);
	struct big_lanes52_ops lanes;
	ASSERT_EQ(big_lanes52_ops_choose(&lanes), 1);
	ASSERT_STREQ(lanes.name, want);
	bt::paint_stack_below();
	lanes.wipe(BIG_LANES52_FRAME_BYTES);
	const ptrdiff_t wiped = bt::stack_below_depth();
	EXPECT_GE(wiped, BIG_LANES52_FRAME_BYTES);
	bt::Rng rng(seed);
	for (int bits : { 1024, 2048 }) {
		SCOPED_TRACE(std::to_string(bits) + "-bit primes");
		lane_check::CrtBatchCase c;
		c.make(rng, bits, BIG_CRT_BATCH_MAX);
		if (::testing::Test::HasFatalFailure())
			return;
		std::vector<uint8_t> scratch(big_crt_batch_scratch(c.len));
		bt::paint_stack_below();
		ASSERT_EQ(big_modexp_crt_batch52_ops(c.ops, c.count, &lanes, scratch.data(),
						     scratch.size()),
			  BIG_OK);
		const ptrdiff_t kernels = bt::stack_below_depth();
		EXPECT_GT(kernels, 4096) << "the kernels' frames not seen";
		EXPECT_LE(kernels, wiped) << "the kernels write below the wipe";
		c.expect_results(bits);
		CheckAsked asked(c);
		bt::paint_stack_below();
		ASSERT_EQ(big_modexp_crt_batch52_ops(c.ops, c.count, &lanes, scratch.data(),
						     scratch.size()),
			  BIG_OK);
		EXPECT_LE(bt::stack_below_depth(), wiped) << "the batch's check writes below the wipe";
		EXPECT_EQ(asked.fault[0], 1) << "the check did not run in the lanes";

		const int k = big_lanes52_digits(bits);
		Moduli M(rng, k, bits);
		LaneNum base(k), out(k);
		std::vector<uint64_t> e(BIG_LANES, 65537), pw(big_lanes52_pow_public_scratch(k));
		bt::paint_stack_below();
		lanes.pow_public(out.x(), base.x(), e.data(), 1, &M.mod, pw.data());
		const ptrdiff_t pub = bt::stack_below_depth();
		EXPECT_LE(pub, wiped) << "pow_public writes below the wipe";
	}
}

TEST(Lanes52Fma, WipeIsAsDeepAsTheFrames)
{
	if (!big_lanes52_cpu_has_fma())
		GTEST_SKIP() << "skipped: no AVX2 and FMA";
	expect_wipe_as_deep_as_the_frames("fma", 0x1a4e5241);
}

TEST(Lanes52Fma, FramesAreWipedByTheirCaller)
{
	if (!big_lanes52_cpu_has_fma())
		GTEST_SKIP() << "skipped: no AVX2 and FMA";
	expect_frames_wiped("fma", true);
}
#endif

#if BIG_LANES52_HAVE_FMA512_BUILD
/* The zmm FMA build is the library's choice where the CPU has AVX-512 F
 * and no IFMA; its rounding is in each instruction (no MXCSR to restore). */
TEST(Lanes52Fma512, OfferedWhereTheCpuHasIt)
{
	if (!big_lanes_cpu_has_avx512())
		GTEST_SKIP() << "skipped: no AVX-512 F";
	struct big_lanes52_ops o;
	bt::BatchEnv env(nullptr);
	ASSERT_EQ(big_lanes52_ops_choose(&o), 1);
	EXPECT_STREQ(o.name, big_lanes52_cpu_has_ifma() ? "ifma" : "fma512");
	bt::BatchEnv forced("fma512");
	ASSERT_EQ(big_lanes52_ops_choose(&o), 1);
	EXPECT_STREQ(o.name, "fma512");
}

/* Its rounding is in each FMA: the caller's MXCSR is neither used nor
 * changed (a mode set in an entry point and left would fail here). */
TEST(Lanes52Fma512, KeepsTheCallersMxcsr)
{
	if (!big_lanes_cpu_has_avx512())
		GTEST_SKIP() << "skipped: no AVX-512 F";
	expect_callers_mxcsr_kept(BIG_LANES52_OPS_INIT(fma512), 0x1a4e5244);
}

/* zmm0-31 (vzeroall leaves zmm16-31) and k1-k7 as the caller finds them
 * after an exponentiation and the build's wipe: zero.  The control: after
 * the exponentiation alone, some are not (a ymm wipe in the build's place
 * left them so). */
void read_zmm_and_masks(uint64_t *zmm, uint64_t *k)
{
#define LN52_SAVE_ZMM(n) "vmovdqu64 %%zmm" #n ", " #n "*64(%0)\n\t"
	__asm__ volatile(LN52_SAVE_ZMM(0) LN52_SAVE_ZMM(1) LN52_SAVE_ZMM(2) LN52_SAVE_ZMM(3)
			 LN52_SAVE_ZMM(4) LN52_SAVE_ZMM(5) LN52_SAVE_ZMM(6) LN52_SAVE_ZMM(7)
			 LN52_SAVE_ZMM(8) LN52_SAVE_ZMM(9) LN52_SAVE_ZMM(10) LN52_SAVE_ZMM(11)
			 LN52_SAVE_ZMM(12) LN52_SAVE_ZMM(13) LN52_SAVE_ZMM(14) LN52_SAVE_ZMM(15)
			 LN52_SAVE_ZMM(16) LN52_SAVE_ZMM(17) LN52_SAVE_ZMM(18) LN52_SAVE_ZMM(19)
			 LN52_SAVE_ZMM(20) LN52_SAVE_ZMM(21) LN52_SAVE_ZMM(22) LN52_SAVE_ZMM(23)
			 LN52_SAVE_ZMM(24) LN52_SAVE_ZMM(25) LN52_SAVE_ZMM(26) LN52_SAVE_ZMM(27)
			 LN52_SAVE_ZMM(28) LN52_SAVE_ZMM(29) LN52_SAVE_ZMM(30) LN52_SAVE_ZMM(31)
			 "kmovw %%k1, %%eax\n\tmovq %%rax, 0(%1)\n\t"
			 "kmovw %%k2, %%eax\n\tmovq %%rax, 8(%1)\n\t"
			 "kmovw %%k3, %%eax\n\tmovq %%rax, 16(%1)\n\t"
			 "kmovw %%k4, %%eax\n\tmovq %%rax, 24(%1)\n\t"
			 "kmovw %%k5, %%eax\n\tmovq %%rax, 32(%1)\n\t"
			 "kmovw %%k6, %%eax\n\tmovq %%rax, 40(%1)\n\t"
			 "kmovw %%k7, %%eax\n\tmovq %%rax, 48(%1)\n\t"
			 :
			 : "r"(zmm), "r"(k)
			 : "rax", "memory");
#undef LN52_SAVE_ZMM
}

TEST(Lanes52Fma512, WipeZeroesTheVectorAndMaskRegisters)
{
	if (!big_lanes_cpu_has_avx512())
		GTEST_SKIP() << "skipped: no AVX-512 F";
	bt::Rng rng(0x1a4e5243);
	const int k = 20;
	Moduli M(rng, k, 52 * k - 2);
	LaneNum base(k), out(k);
	for (int l = 0; l < BIG_LANES; l++) {
		Mpz v;
		rng.mpz_bits(v, 52 * k);
		mpz_mod(v, v, M.m[l]);
		base.set(l, v);
	}
	std::vector<uint64_t> e(BIG_LANES * 2), scratch(big_lanes52_pow_scratch(k));
	for (uint64_t &w : e)
		w = rng.next();
	const big_lanes52_ops lanes = BIG_LANES52_OPS_INIT(fma512);
	alignas(64) uint64_t zmm[32 * 8];
	uint64_t masks[7];
	const auto nonzero = [&]() {
		return std::count_if(std::begin(zmm), std::end(zmm), [](uint64_t w) { return w; }) +
		       std::count_if(std::begin(masks), std::end(masks), [](uint64_t w) { return w; });
	};
	lanes.pow(out.x(), base.x(), e.data(), 2, &M.mod, scratch.data());
	read_zmm_and_masks(zmm, masks);
	EXPECT_GT(nonzero(), 0) << "the control: nothing left in the registers to wipe";
	lanes.pow(out.x(), base.x(), e.data(), 2, &M.mod, scratch.data());
	lanes.wipe(BIG_LANES52_FRAME_BYTES);
	read_zmm_and_masks(zmm, masks);
	EXPECT_EQ(nonzero(), 0) << "registers left nonzero after the wipe";
}

TEST(Lanes52Fma512, WipeIsAsDeepAsTheFrames)
{
	if (!big_lanes_cpu_has_avx512())
		GTEST_SKIP() << "skipped: no AVX-512 F";
	expect_wipe_as_deep_as_the_frames("fma512", 0x1a4e5242);
}

TEST(Lanes52Fma512, FramesAreWipedByTheirCaller)
{
	if (!big_lanes_cpu_has_avx512())
		GTEST_SKIP() << "skipped: no AVX-512 F";
	expect_frames_wiped("fma512", true);
}
#endif

/* The scratch the header asks for, whichever lanes run: one byte short is
 * refused with nothing written, also where the IFMA layout would fit in
 * about half (before, it ran there and failed only on other CPUs). */
TEST(Lanes52CrtBatch, ScratchShortOfTheQueryRefused)
{
	bt::Rng rng(0x5c7a7c11);
	for (int bits : { 512, 1024 }) {
		SCOPED_TRACE(std::to_string(bits) + "-bit primes");
		lane_check::CrtBatchCase c;
		c.make(rng, bits, BIG_CRT_BATCH_MAX);
		if (HasFatalFailure())
			return;
		const size_t need = big_crt_batch_scratch(c.len);
		std::vector<uint8_t> scratch(need);
		EXPECT_EQ(big_modexp_crt_batch(c.ops, c.count, scratch.data(), need - 1),
			  BIG_INVALID_ARGS);
		ASSERT_EQ(big_modexp_crt_batch(c.ops, c.count, scratch.data(), need), BIG_OK);
		c.expect_results(bits);
	}
}

/* A result BIGNUM on the caller's buffer, shorter than the results, is
 * grown as bignum.h says, not refused; its value is right. */
TEST(Lanes52CrtBatch, ResultInACallersShortBufferGrows)
{
	bt::Rng rng(0x5c7a7c12);
	lane_check::CrtBatchCase c;
	c.make(rng, 1024, BIG_CRT_BATCH_MAX);
	if (HasFatalFailure())
		return;
	BIG_CHUNK_TYPE buf[4];
	BIGNUM small;
	ASSERT_EQ(big_init1(&small, 4, buf, 4), BIG_OK);
	BIGNUM *const theirs = c.ops[1].result;
	c.ops[1].result = &small;
	std::vector<uint8_t> scratch(big_crt_batch_scratch(c.len));
	ASSERT_EQ(big_modexp_crt_batch(c.ops, c.count, scratch.data(), scratch.size()), BIG_OK);
	EXPECT_EQ(small.malloced, 1);
	EXPECT_GE(small.size, 2 * c.len);
	ASSERT_EQ(big_copy(theirs, &small), BIG_OK);
	c.ops[1].result = theirs;
	big_finish(&small);
	c.expect_results(1024);
}

using bt::BatchEnv;

TEST(Lanes52Dispatch, IfmaWhereTheCpuHasItUnlessForcedOff)
{
	const bool ifma = BIG_LANES52_HAVE_IFMA_BUILD && big_lanes52_cpu_has_ifma();
	bool avx2 = false, avx512 = false, fma = false, fma512 = false;
#if BIG_LANES_HAVE_AVX2_BUILD
	avx2 = big_lanes_cpu_has_avx2() != 0;
#endif
#if BIG_LANES_HAVE_AVX512_BUILD
	avx512 = big_lanes_cpu_has_avx512() != 0;
#endif
#if BIG_LANES52_HAVE_FMA_BUILD
	fma = big_lanes52_cpu_has_fma() != 0;
#endif
#if BIG_LANES52_HAVE_FMA512_BUILD
	fma512 = big_lanes_cpu_has_avx512() != 0;
#endif
	/* Unasked, the portable lanes are not run: "none" (crt_batch.c). */
	const std::string best28 = avx512 ? "avx512" : avx2 ? "avx2" : "none";
	/* "avx3" names no build: as unset (big_crt_batch_forced). */
	for (const char *want : { static_cast<const char *>(nullptr), "ifma", "fma512", "fma",
				  "avx512", "avx2", "c", "avx3", "" }) {
		BatchEnv env(want);
		const std::string w = want == nullptr ? "(unset)" : want;
		big_lanes52_ops o;
		memset(&o, 0, sizeof(o));
		const bool named = big_crt_batch_forced() != nullptr;
		EXPECT_EQ(named, want != nullptr && (w == "ifma" || w == "fma512" || w == "fma" ||
						     w == "avx512" || w == "avx2" || w == "c"))
			<< w;
		/* The library's order: ifma, fma512, avx512 (radix 2^28),
		 * fma, avx2; a build named is taken where the CPU runs it,
		 * and =ifma where it cannot gets the best there is. */
		const bool any = !named || w == "ifma";
		std::string kernel = w == "c" ? "c" : w == "avx2" ? (avx2 ? "avx2" : "none")
						   : w == "avx512" ? best28 : "";
		if (kernel.empty()) {
			if (ifma && any)
				kernel = "ifma";
			else if (fma512 && (w == "fma512" || any))
				kernel = "fma512";
			else if (fma && (w == "fma" || (any && !avx512)))
				kernel = "fma";
			else
				kernel = best28;
		}
		const int chose = big_lanes52_ops_choose(&o);
		EXPECT_EQ(chose != 0, kernel == "ifma" || kernel == "fma512" || kernel == "fma") << w;
		if (chose) {
			EXPECT_EQ(std::string(o.name), kernel) << w;
#if BIG_LANES52_HAVE_IFMA_BUILD
			EXPECT_EQ(o.pow, kernel == "ifma"     ? &big_lanes52_pow_ifma
					 : kernel == "fma512" ? &big_lanes52_pow_fma512
							      : &big_lanes52_pow_fma)
				<< w;
#endif
		}
		EXPECT_EQ(std::string(big_crt_batch_kernel()), kernel) << w;
	}
}

/*
 * Constant time of the IFMA source, seen through its emulation: under
 * Valgrind Memcheck (the entry test_lanes52.memcheck) every lane's
 * modulus, k0, R^2, base and exponent are marked undefined, so any branch,
 * conditional move or address that depends on them is a report (the
 * emulated intrinsics select by arithmetic, as the instructions do).
 * Outside Valgrind the marks do nothing and the values are checked.
 */
void pow_branches_on_no_secret(int bits)
{
	SCOPED_TRACE(bits);
	bt::Rng rng(0x1a4e5206 + static_cast<uint64_t>(bits));
	const int k = big_lanes52_digits(bits), ewords = 2;
	Mpz mods[BIG_LANES], bv[BIG_LANES], ev[BIG_LANES];
	std::vector<uint64_t> e(static_cast<size_t>(BIG_LANES * ewords));
	for (int l = 0; l < BIG_LANES; l++) {
		random_modulus(rng, mods[l], bits, 2);
		rng.mpz_bits(bv[l], bits);
		mpz_mod(bv[l], bv[l], mods[l]);
		for (int w = 0; w < ewords; w++)
			e[static_cast<size_t>(l * ewords + w)] = rng.next();
		mpz_import(ev[l], static_cast<size_t>(ewords), -1, 8, 0, 0, e.data() + l * ewords);
	}
	Moduli M(mods, k);
	LaneNum base(k), out(k);
	for (int l = 0; l < BIG_LANES; l++)
		base.set(l, bv[l]);
	std::vector<uint64_t> scratch(big_lanes52_pow_scratch(k));
	VALGRIND_MAKE_MEM_UNDEFINED(M.mod.m, sizeof(M.mod.m));
	VALGRIND_MAKE_MEM_UNDEFINED(M.mod.rr, sizeof(M.mod.rr));
	VALGRIND_MAKE_MEM_UNDEFINED(M.mod.k0, sizeof(M.mod.k0));
	VALGRIND_MAKE_MEM_UNDEFINED(base.x(), sizeof(uint64_t) * base.w.size());
	VALGRIND_MAKE_MEM_UNDEFINED(e.data(), sizeof(uint64_t) * e.size());
	const big_lanes52_ops emu = BIG_LANES52_OPS_INIT(emu);
	emu.pow(out.x(), base.x(), e.data(), ewords, &M.mod, scratch.data());
	VALGRIND_MAKE_MEM_DEFINED(out.x(), sizeof(uint64_t) * out.w.size());
	VALGRIND_MAKE_MEM_DEFINED(M.mod.m, sizeof(M.mod.m));
	for (int l = 0; l < BIG_LANES; l++) {
		Mpz want, got;
		mpz_powm(want, bv[l], ev[l], mods[l]);
		ASSERT_TRUE(out.get(l, got));
		EXPECT_EQ(mpz_cmp(want, got), 0) << "lane " << l;
	}
	/* The public-exponent power: its exponents public, the rest marked. */
	VALGRIND_MAKE_MEM_DEFINED(e.data(), sizeof(uint64_t) * e.size());
	VALGRIND_MAKE_MEM_UNDEFINED(M.mod.m, sizeof(M.mod.m));
	VALGRIND_MAKE_MEM_UNDEFINED(base.x(), sizeof(uint64_t) * base.w.size());
	emu.pow_public(out.x(), base.x(), e.data(), ewords, &M.mod, scratch.data());
	VALGRIND_MAKE_MEM_DEFINED(out.x(), sizeof(uint64_t) * out.w.size());
	VALGRIND_MAKE_MEM_DEFINED(M.mod.m, sizeof(M.mod.m));
	VALGRIND_MAKE_MEM_DEFINED(M.mod.rr, sizeof(M.mod.rr));
	VALGRIND_MAKE_MEM_DEFINED(M.mod.k0, sizeof(M.mod.k0));
	for (int l = 0; l < BIG_LANES; l++) {
		Mpz want, got;
		mpz_powm(want, bv[l], ev[l], mods[l]);
		ASSERT_TRUE(out.get(l, got));
		EXPECT_EQ(mpz_cmp(want, got), 0) << "public, lane " << l;
	}
}

TEST(Lanes52Memcheck, PowBranchesOnNoSecret)
{
	/* 5 digits: the emulated build's register window with the early q
	 * (it takes the window at every k); 10 and 20: the register window
	 * with the table scan stitched into the squarings (the batch's own
	 * kernels at RSA-1024 and 2048). */
	for (int bits : { 250, 500, 1000 })
		ASSERT_NO_FATAL_FAILURE(pow_branches_on_no_secret(bits));
}

/* The same for one product and one squaring with the moduli, k0 and the
 * operands marked: at 10 and 20 digits the register window, at 30 the
 * tiles (30 and 40 digits). */
void mul_sqr_branch_on_no_secret(int k)
{
	SCOPED_TRACE(k);
	bt::Rng rng(0x1a4e5230 + static_cast<uint64_t>(k));
	Moduli M(rng, k, 52 * k - 2);
	LaneNum a(k), b(k), r(k), r2(k);
	Mpz av[BIG_LANES], bv[BIG_LANES];
	for (int l = 0; l < BIG_LANES; l++) {
		rng.mpz_bits(av[l], 52 * k - 2);
		mpz_mod(av[l], av[l], M.m[l]);
		rng.mpz_bits(bv[l], 52 * k - 2);
		mpz_mod(bv[l], bv[l], M.m[l]);
		a.set(l, av[l]);
		b.set(l, bv[l]);
	}
	VALGRIND_MAKE_MEM_UNDEFINED(M.mod.m, sizeof(M.mod.m));
	VALGRIND_MAKE_MEM_UNDEFINED(M.mod.k0, sizeof(M.mod.k0));
	VALGRIND_MAKE_MEM_UNDEFINED(a.x(), sizeof(uint64_t) * a.w.size());
	VALGRIND_MAKE_MEM_UNDEFINED(b.x(), sizeof(uint64_t) * b.w.size());
	const big_lanes52_ops emu = BIG_LANES52_OPS_INIT(emu);
	emu.mul(r.x(), a.x(), b.x(), &M.mod);
	emu.sqr(r2.x(), a.x(), &M.mod);
	VALGRIND_MAKE_MEM_DEFINED(r.x(), sizeof(uint64_t) * r.w.size());
	VALGRIND_MAKE_MEM_DEFINED(r2.x(), sizeof(uint64_t) * r2.w.size());
	VALGRIND_MAKE_MEM_DEFINED(M.mod.m, sizeof(M.mod.m));
	VALGRIND_MAKE_MEM_DEFINED(M.mod.k0, sizeof(M.mod.k0));
	for (int l = 0; l < BIG_LANES; l++) {
		Mpz ab, aa, want, want2, got, got2;
		mpz_mul(ab, av[l], bv[l]);
		mpz_mul(aa, av[l], av[l]);
		lane_check::amm(want, ab, M.m[l], 52 * k);
		lane_check::amm(want2, aa, M.m[l], 52 * k);
		ASSERT_TRUE(r.get(l, got, true));
		ASSERT_TRUE(r2.get(l, got2, true));
		EXPECT_EQ(mpz_cmp(want, got), 0) << "lane " << l;
		EXPECT_EQ(mpz_cmp(want2, got2), 0) << "lane " << l;
	}
}

TEST(Lanes52Memcheck, WindowAndTilesBranchOnNoSecret)
{
	for (int k : { 10, 20, 30 })
		ASSERT_NO_FATAL_FAILURE(mul_sqr_branch_on_no_secret(k));
}

/* The entry above's positive control (test_lanes52.memcheck_control,
 * expected to fail under Memcheck): a branch on a marked value. */
TEST(Lanes52MemcheckControl, BranchOnASecretIsReported)
{
	volatile uint64_t secret = 0x5ec2e7;
	VALGRIND_MAKE_MEM_UNDEFINED(const_cast<uint64_t *>(&secret), sizeof(secret));
	int taken = 0;
	if (secret & 1)
		taken = 1;
	VALGRIND_MAKE_MEM_DEFINED(const_cast<uint64_t *>(&secret), sizeof(secret));
	EXPECT_EQ(taken, 1);
}

INSTANTIATE_TEST_SUITE_P(Builds, Lanes52, ::testing::ValuesIn(builds()),
			 [](const ::testing::TestParamInfo<Build> &info) {
				 return std::string(info.param.name);
			 });

} // namespace
