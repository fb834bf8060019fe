/*
 * The fused Montgomery kernels big_mont_mul_vec / big_mont_sqr_vec, every
 * variant called by its own name (_c; _base and _adx in an assembly build,
 * _adx only where the CPU has BMI2 + ADX; only BIGMONT_CPU's where that is
 * set, as in each ctest entry) and through the dispatched names,
 * against GMP: r == a * b * 2^(-BIG_CHUNK_SIZE*len) mod n at every len from
 * 1 to 80 (the unrolled lengths 8, 12, 16, 24, 32, 48, 64 and their
 * neighbours), with random odd moduli of random bit density (top chunk
 * random, all-ones, 1 or just its top bit), operands 0, 1, n-1, n-2, just
 * below n and random, the aliasing the contract allows (r == a, r == b,
 * r == a == b), guard chunks around r, and for the assembly a trampoline
 * that checks the callee-saved registers and passes garbage in the upper
 * half of the int len register.
 */
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>
#include <valgrind/memcheck.h>

#include <gmp.h>
#include <gtest/gtest.h>

#include "abi_call.h"
#include "guarded.h"
#include "mont_ref.h"
#include "testutil.h"

namespace {

using bt::chunk;
using bt::Guarded;
using bt::kChunkBits;

struct Kernel {
	const char *name;
	big_mont_mul_vec_fn *mul;
	big_mont_sqr_vec_fn *sqr;
	bool is_asm;
};

[[maybe_unused]] bool cpu_has_adx() { return big_cpu_best() >= BIG_CPU_ADX; }

/* Every variant's kernels this build and CPU have (BIG_CPU_VARIANTS), each
 * set once (ifma's are adx's), then the dispatched names.  Under
 * BIGMONT_CPU (every ctest entry sets it) only the variant it binds and
 * the dispatched names: each entry proves its own variant, and the
 * entries together every one, where each entry ran them all again. */
std::vector<Kernel> kernels()
{
	struct Row {
		Kernel k;
		big_cpu_variant needs;
	};
#define KERNEL_ROW(arg, V, name, sfx, here)                                           \
	BIG_IF(here, { { #sfx, big_mont_mul_vec_##sfx, big_mont_sqr_vec_##sfx,        \
			 BIG_CPU_##V != BIG_CPU_C }, BIG_CPU_##V },)
	const Row rows[] = { BIG_CPU_VARIANTS(KERNEL_ROW, ) };
#undef KERNEL_ROW
	const bool bound_only = std::getenv("BIGMONT_CPU") != nullptr;
	big_mont_mul_vec_fn *bound = nullptr;
	for (const Row &r : rows)
		if (r.needs == big_cpu_bound())
			bound = r.k.mul;
	std::vector<Kernel> k;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (rows[i].needs <= big_cpu_best() && (i == 0 || rows[i - 1].k.mul != rows[i].k.mul) &&
		    (!bound_only || rows[i].k.mul == bound))
			k.push_back(rows[i].k);
	k.push_back({ "dispatched", big_mont_mul_vec, big_mont_sqr_vec, false });
	return k;
}

#if BIGMONT_HAVE_ASM
/* The assembly variants alone, called by their own names. */
std::vector<Kernel> asm_kernels()
{
	std::vector<Kernel> k;
	for (const Kernel &v : kernels())
		if (v.is_asm)
			k.push_back(v);
	return k;
}
#endif

/* -n^-1 mod 2^kChunkBits by Newton's iteration; n odd. */
chunk neg_inverse(chunk n)
{
	chunk x = n; /* n * n == 1 mod 8: 3 bits */
	for (int i = 0; i < 6; i++)
		x = static_cast<chunk>(x * (2 - n * x));
	return static_cast<chunk>(0 - x);
}

/* One modulus with everything GMP needs to check results against it. */
struct Modulus {
	int len;
	std::vector<chunk> n;
	chunk n0;
	bt::Mpz nz, rinv, r, nneg; /* n, 2^(-bits) mod n, 2^bits, -n^-1 mod 2^bits */

	Modulus(bt::Rng &rng, int len_) : len(len_), n(static_cast<size_t>(len_))
	{
		rng.fill(n.data(), len);
		switch (rng.below(5)) {
		case 0: n[len - 1] = BIG_CHUNK_ALLBITS; break;
		case 1: n[len - 1] = 1; break;
		case 2: n[len - 1] |= BIG_CHUNK_HIGHBIT; break;
		case 3: /* n just below 2^bits: the final subtraction with t[len] set */
			for (auto &w : n)
				w = BIG_CHUNK_ALLBITS - (rng.below(4) == 0 ? rng.below(16) : 0);
			break;
		default: break; /* random top, may be 0 */
		}
		n[0] |= 1;
		if (len == 1 && n[0] == 1)
			n[0] = 3; /* a, b < n must leave room; n == 1 has only 0 */
		n0 = neg_inverse(n[0]);
		bt::to_mpz(nz, n.data(), len);
		bt::mont_R(r, len);
		EXPECT_NE(mpz_invert(rinv, r, nz), 0);
		EXPECT_NE(mpz_invert(nneg, nz, r), 0);
		mpz_sub(nneg, r, nneg);
	}

	/* A random operand < n, often an edge value. */
	std::vector<chunk> operand(bt::Rng &rng)
	{
		bt::Mpz v;
		switch (rng.below(10)) {
		case 0: mpz_set_ui(v, 0); break;
		case 1: mpz_set_ui(v, 1); break;
		case 2: mpz_sub_ui(v, nz, 1); break;
		case 3: mpz_sub_ui(v, nz, mpz_cmp_ui(nz.v, 2) > 0 ? 2 : 1); break;
		case 4: { /* just below n */
			mpz_sub_ui(v, nz, 1 + rng.below(1000));
			if (mpz_sgn(v.v) < 0)
				mpz_set_ui(v, 0);
			break;
		}
		default: {
			std::vector<chunk> w = rng.vec(len);
			bt::to_mpz(v, w.data(), len);
			mpz_mod(v, v, nz);
			break;
		}
		}
		return bt::chunks_of(v, len);
	}

	/* a * b * R^-1 mod n; *subtracted tells whether the Montgomery sum
	 * t = (a*b + m*n) / R was >= n, so the final subtraction was taken. */
	std::vector<chunk> expect(const chunk *a, const chunk *b, bool *subtracted)
	{
		bt::Mpz az, bz, p, m, t;
		bt::to_mpz(az, a, len);
		bt::to_mpz(bz, b, len);
		mpz_mul(p, az, bz);
		/* m = -p * n^-1 mod R, t = (p + m n) / R */
		mpz_mul(m, nneg, p);
		mpz_fdiv_r_2exp(m, m, static_cast<mp_bitcnt_t>(kChunkBits) * len);
		mpz_mul(t, m, nz);
		mpz_add(t, t, p);
		mpz_tdiv_q_2exp(t, t, static_cast<mp_bitcnt_t>(kChunkBits) * len);
		*subtracted = mpz_cmp(t, nz) >= 0;
		mpz_mul(p, p, rinv);
		mpz_mod(p, p, nz);
		return bt::chunks_of(p, len);
	}
};

/* Check one (a, b) pair against every kernel and every allowed aliasing. */
void check_pair(const Kernel &k, Modulus &m, const std::vector<chunk> &a,
		const std::vector<chunk> &b, const std::vector<chunk> &want_ab,
		const std::vector<chunk> &want_aa)
{
	const int len = m.len;
	const chunk *n = m.n.data();
	const std::string ctx = std::string(k.name) + " len " + std::to_string(len) +
				"\n n = " + bt::hex(m.n) + "\n a = " + bt::hex(a) + "\n b = " + bt::hex(b);

	Guarded g(len);
	k.mul(g.r(), a.data(), b.data(), n, m.n0, len);
	ASSERT_EQ(g.value(), want_ab) << "mul " << ctx;
	ASSERT_TRUE(g.guards_intact()) << "mul wrote outside r " << ctx;

	g.set(a); /* r == a */
	k.mul(g.r(), g.r(), b.data(), n, m.n0, len);
	ASSERT_EQ(g.value(), want_ab) << "mul r==a " << ctx;
	ASSERT_TRUE(g.guards_intact()) << ctx;

	g.set(b); /* r == b */
	k.mul(g.r(), a.data(), g.r(), n, m.n0, len);
	ASSERT_EQ(g.value(), want_ab) << "mul r==b " << ctx;
	ASSERT_TRUE(g.guards_intact()) << ctx;

	g.set(a); /* r == a == b */
	k.mul(g.r(), g.r(), g.r(), n, m.n0, len);
	ASSERT_EQ(g.value(), want_aa) << "mul r==a==b " << ctx;
	ASSERT_TRUE(g.guards_intact()) << ctx;

	Guarded s(len);
	k.sqr(s.r(), a.data(), n, m.n0, len);
	ASSERT_EQ(s.value(), want_aa) << "sqr " << ctx;
	ASSERT_TRUE(s.guards_intact()) << "sqr wrote outside r " << ctx;

	s.set(a); /* r == a */
	k.sqr(s.r(), s.r(), n, m.n0, len);
	ASSERT_EQ(s.value(), want_aa) << "sqr r==a " << ctx;
	ASSERT_TRUE(s.guards_intact()) << ctx;

	/* The inputs are const. */
	ASSERT_EQ(m.n, std::vector<chunk>(n, n + len)) << ctx;
}

/* a < n, b any len-chunk value (often >= n: random density, all-ones
 * chunks): r and r == b. */
void check_wide_b(const Kernel &k, Modulus &m, const std::vector<chunk> &a,
		  const std::vector<chunk> &b, const std::vector<chunk> &want)
{
	const int len = m.len;
	const std::string ctx = std::string(k.name) + " len " + std::to_string(len) +
				"\n n = " + bt::hex(m.n) + "\n a = " + bt::hex(a) + "\n b = " + bt::hex(b);
	Guarded g(len);
	k.mul(g.r(), a.data(), b.data(), m.n.data(), m.n0, len);
	ASSERT_EQ(g.value(), want) << "mul, b >= n allowed " << ctx;
	ASSERT_TRUE(g.guards_intact()) << ctx;
	g.set(b);
	k.mul(g.r(), a.data(), g.r(), m.n.data(), m.n0, len);
	ASSERT_EQ(g.value(), want) << "mul r==b, b >= n allowed " << ctx;
	ASSERT_TRUE(g.guards_intact()) << ctx;
}

TEST(MontKernels, AgainstGmpEveryLength)
{
	bt::Rng rng(0x6d6f6e74);
	const std::vector<Kernel> ks = kernels();
	const long per_len = bt::scaled(120);
	long subtracted[2] = { 0, 0 };
	for (int len = 1; len <= 80; len++) {
		for (long c = 0; c < per_len; c += 4) {
			Modulus m(rng, len);
			for (int pair = 0; pair < 4; pair++) {
				std::vector<chunk> a = m.operand(rng);
				std::vector<chunk> b = m.operand(rng);
				bool sub_ab, sub_aa;
				std::vector<chunk> want_ab = m.expect(a.data(), b.data(), &sub_ab);
				std::vector<chunk> want_aa = m.expect(a.data(), a.data(), &sub_aa);
				subtracted[sub_ab]++;
				subtracted[sub_aa]++;
				/* b may be any len-chunk value when a < n. */
				const std::vector<chunk> bw = rng.vec(len);
				bool sub_w;
				const std::vector<chunk> want_w = m.expect(a.data(), bw.data(), &sub_w);
				for (const Kernel &k : ks) {
					check_pair(k, m, a, b, want_ab, want_aa);
					if (HasFatalFailure())
						return;
					check_wide_b(k, m, a, bw, want_w);
					if (HasFatalFailure())
						return;
				}
			}
		}
	}
	/* Both ways out of the final subtraction were exercised. */
	EXPECT_GT(subtracted[0], 0);
	EXPECT_GT(subtracted[1], 0);
}

#if BIGMONT_HAVE_ASM
/* Both sides of the adx product's choice at 16 chunks (bignum/tuning.h):
 * Karatsuba (big_mont_mul_vec_adx) and the rows (_rows16, which also
 * takes every other length to _adx), each called by name on any CPU with
 * ADX whatever the table binds, and the dispatched name, against GMP.
 * Karatsuba's middle term takes |a0 - a1| |b0 - b1| and its sign from the
 * two borrows (mont_mul16_adx.inc): directed operands give each of the
 * four borrow pairs, with a0 = a1 and b0 = b1 (no borrow, a zero
 * difference) among them, and `signs` proves each ran. */
TEST(MontKernels, Mul16KaratsubaAndRowsEverySign)
{
	if (!cpu_has_adx())
		GTEST_SKIP() << "no BMI2 + ADX on this CPU";
	const Kernel ks[] = {
		{ "adx (karatsuba at 16)", big_mont_mul_vec_adx, big_mont_sqr_vec_adx, true },
		{ "adx_rows16", big_mont_mul_vec_adx_rows16, big_mont_sqr_vec_adx, true },
		{ "dispatched", big_mont_mul_vec, big_mont_sqr_vec, false },
	};
	bt::Rng rng(0x6b617261);
	/* At 16 every pair of the 3 x 3 directed shapes at least twice,
	 * whatever BIGMONT_TEST_SCALE says. */
	const long cases = bt::scaled(40), cases16 = std::max(cases, 18L);
	long signs[2][2] = { { 0, 0 }, { 0, 0 } }; /* [a0 < a1][b0 < b1] */
	long equal_halves[2] = { 0, 0 };	   /* a0 = a1 != 0, b0 = b1 != 0 */
	const int half = 8;
	for (int len : { 8, 15, 16, 17, 32 }) {
		for (long c = 0; c < (len == 16 ? cases16 : cases); c++) {
			Modulus m(rng, len);
			std::vector<chunk> a = m.operand(rng), b = m.operand(rng);
			if (len == 16) {
				/* a = L + H X (X = 2^512) with H below n's high half,
				 * so any L keeps a < n; L below H, L = H, or L >= H
				 * as the case asks (b alike). */
				const int want_a = static_cast<int>(c % 3), want_b = static_cast<int>((c / 3) % 3);
				auto shape = [&](int want) {
					bt::Mpz nhi, h, l, r, x;
					mpz_tdiv_q_2exp(nhi, m.nz, 64 * half);
					if (mpz_cmp_ui(nhi.v, 2) < 0)
						return m.operand(rng); /* no room: the random shape */
					const std::vector<chunk> w1 = rng.vec(half), w2 = rng.vec(half);
					bt::to_mpz(h, w1.data(), half);
					bt::to_mpz(r, w2.data(), half);
					mpz_mod(h, h, nhi);
					if (mpz_sgn(h.v) == 0)
						mpz_set_ui(h, 1);
					if (want == 2) {
						mpz_set(l, h);
					} else if (want == 1) {
						mpz_mod(l, r, h);
					} else { /* H + (r mod (X - H)) */
						mpz_set_ui(x, 1);
						mpz_mul_2exp(x, x, 64 * half);
						mpz_sub(x, x, h);
						mpz_mod(l, r, x);
						mpz_add(l, l, h);
					}
					mpz_mul_2exp(x, h, 64 * half);
					mpz_add(x, x, l);
					return bt::chunks_of(x, len);
				};
				a = shape(want_a);
				b = shape(want_b);
				const auto lt = [&](const std::vector<chunk> &x) {
					for (int j = half - 1; j >= 0; j--)
						if (x[static_cast<size_t>(j)] != x[static_cast<size_t>(half + j)])
							return x[static_cast<size_t>(j)] < x[static_cast<size_t>(half + j)];
					return false;
				};
				const auto same = [&](const std::vector<chunk> &x) {
					bool nz = false;
					for (int j = 0; j < half; j++) {
						if (x[static_cast<size_t>(j)] != x[static_cast<size_t>(half + j)])
							return false;
						nz |= x[static_cast<size_t>(j)] != 0;
					}
					return nz;
				};
				signs[lt(a)][lt(b)]++;
				equal_halves[0] += same(a);
				equal_halves[1] += same(b);
			}
			bool sub_ab, sub_aa, sub_w;
			const std::vector<chunk> want_ab = m.expect(a.data(), b.data(), &sub_ab);
			const std::vector<chunk> want_aa = m.expect(a.data(), a.data(), &sub_aa);
			const std::vector<chunk> bw = rng.vec(len);
			const std::vector<chunk> want_w = m.expect(a.data(), bw.data(), &sub_w);
			for (const Kernel &k : ks) {
				check_pair(k, m, a, b, want_ab, want_aa);
				if (HasFatalFailure())
					return;
				check_wide_b(k, m, a, bw, want_w);
				if (HasFatalFailure())
					return;
			}
		}
	}
	for (int sa = 0; sa < 2; sa++)
		for (int sb = 0; sb < 2; sb++)
			EXPECT_GT(signs[sa][sb], 0) << "a0 < a1: " << sa << ", b0 < b1: " << sb;
	EXPECT_GT(equal_halves[0], 0) << "a0 = a1 != 0 never ran";
	EXPECT_GT(equal_halves[1], 0) << "b0 = b1 != 0 never ran";
}

/* The dispatched product follows BIGMONT_TUNE's mont_mul16_karatsuba
 * where it is set (tests/CMakeLists.txt runs this under both values). */
TEST(MontKernels, Mul16FollowsBigmontTune)
{
	const char *tune = std::getenv("BIGMONT_TUNE");
	const std::string t = tune ? tune : "";
	if (t.find("mont_mul16_karatsuba=") == std::string::npos)
		GTEST_SKIP() << "BIGMONT_TUNE does not set mont_mul16_karatsuba";
	const int want = t.find("mont_mul16_karatsuba=1") != std::string::npos;
	EXPECT_EQ(big_mont_mul16_karatsuba(), want) << "BIGMONT_TUNE=" << t;
}
#endif

/* Lengths past 80 up to BIG_MAX_MODULUS_CHUNKS, where only the loops run:
 * a few cases each, with the same checks. */
TEST(MontKernels, LongLengthsUpToTheMaximum)
{
	bt::Rng rng(0x6c6f6e67);
	const std::vector<Kernel> ks = kernels();
	const int lens[] = { 81, 96, 127, 128, 129, 200, BIG_MAX_MODULUS_CHUNKS - 1,
			     BIG_MAX_MODULUS_CHUNKS };
	const long cases = bt::scaled(4);
	for (int len : lens) {
		for (long c = 0; c < cases; c++) {
			Modulus m(rng, len);
			std::vector<chunk> a = m.operand(rng), b = m.operand(rng);
			bool sub_ab, sub_aa;
			std::vector<chunk> want_ab = m.expect(a.data(), b.data(), &sub_ab);
			std::vector<chunk> want_aa = m.expect(a.data(), a.data(), &sub_aa);
			for (const Kernel &k : ks) {
				check_pair(k, m, a, b, want_ab, want_aa);
				if (HasFatalFailure())
					return;
			}
		}
	}
}

#if BIGMONT_HAVE_ASM
/* len < 1 is outside the contract; the assembly still writes nothing. */
TEST(MontKernels, AsmZeroLengthWritesNothing)
{
	const chunk a = 1, n = 3;
	const std::vector<Kernel> ks = asm_kernels();
	if (ks.empty())
		GTEST_SKIP() << "BIGMONT_CPU binds no assembly kernel";
	for (const Kernel &k : ks) {
		for (int len : { 0, -1, -16 }) {
			Guarded g(0);
			k.mul(g.r(), &a, &a, &n, neg_inverse(n), len);
			k.sqr(g.r(), &a, &n, neg_inverse(n), len);
			EXPECT_TRUE(g.guards_intact()) << k.name << " len " << len;
		}
	}
}
#endif

/* Long chains of dependent squarings and multiplications at the unrolled
 * lengths: the shape of an exponentiation, where an error in a rarely
 * taken carry would show up. */
TEST(MontKernels, ChainsAtRsaLengths)
{
	bt::Rng rng(0x636861696e);
	const std::vector<Kernel> ks = kernels();
	const int lens[] = { 4, 7, 8, 9, 11, 12, 13, 15, 16, 17, 23, 24, 25, 31, 32, 33, 48, 64 };
	const long chains = bt::scaled(6);
	for (int len : lens) {
		for (long c = 0; c < chains; c++) {
			Modulus m(rng, len);
			std::vector<chunk> x0 = m.operand(rng);
			std::vector<chunk> b = m.operand(rng);
			bt::Mpz xz, bz;
			bt::to_mpz(xz, x0.data(), len);
			bt::to_mpz(bz, b.data(), len);
			for (int step = 0; step < 64; step++)
				bt::mont_product(xz, xz, step % 5 == 4 ? bz.v : xz.v, m.rinv, m.nz);
			std::vector<chunk> want = bt::chunks_of(xz, len);
			for (const Kernel &k : ks) {
				std::vector<chunk> x = x0;
				for (int step = 0; step < 64; step++) {
					if (step % 5 == 4)
						k.mul(x.data(), x.data(), b.data(), m.n.data(), m.n0, len);
					else
						k.sqr(x.data(), x.data(), m.n.data(), m.n0, len);
				}
				ASSERT_EQ(x, want) << k.name << " len " << len << " n = " << bt::hex(m.n);
			}
		}
	}
}

/* Every length up to 40 (the unrolled 8, 12, 16, 24, 32 and their
 * neighbours), then the unrolled 48 and 64. */
std::vector<int> lengths_1_to_40_and_48_64()
{
	return bt::lengths(40, { 48, 64 });
}

/* The reductions' lengths: every one to 64 chunks, then a few to
 * BIG_MAX_MODULUS_CHUNKS (an RSA-16384 key's n), with one modulus each. */
std::vector<int> reduce_lengths()
{
	std::vector<int> v;
	for (int len = 1; len <= 64; len++)
		v.push_back(len);
	for (int len : { 65, 96, BIG_MAX_MODULUS_CHUNKS / 2 + 1, BIG_MAX_MODULUS_CHUNKS })
		v.push_back(len);
	return v;
}

long reduce_moduli(int len)
{
	return len > 64 ? 1 : bt::scaled(8);
}

/* x's lengths for a modulus of len chunks: 1 .. len + 1 (past 64 chunks
 * only 1, 2 and len - 1 .. len + 1), then len + 2 and on by len to
 * 3 len + 1. */
std::vector<int> reduce_input_lengths(int len)
{
	std::vector<int> v;
	for (int xlen = 1; xlen <= len + 1; xlen++)
		if (len <= 64 || xlen <= 2 || xlen >= len - 1)
			v.push_back(xlen);
	for (int xlen = len + 2; xlen <= 3 * len + 1; xlen += len)
		v.push_back(xlen);
	return v;
}

/* big_mont_reduce_ct against GMP: x of 1 .. 3 len + 1 chunks (random
 * density: runs of ones and zeros, all-ones chunks; past 64 chunks only
 * the lengths around 1, len and 2 len), into Montgomery form and plain,
 * at every length to 64 chunks and a few to the largest; out's guards
 * intact, x not written. */
TEST(MontKernels, ReduceAnyLengthInConstantTime)
{
	bt::Rng rng(0x72656475);
	for (int len : reduce_lengths()) {
		for (long c = 0; c < reduce_moduli(len); c++) {
			Modulus m(rng, len);
			bt::Mpz rr, x, want;
			mpz_mul(rr, m.r, m.r);
			mpz_mod(rr, rr, m.nz);
			const std::vector<chunk> rrv = bt::chunks_of(rr, len);
			for (int xlen : reduce_input_lengths(len)) {
				const std::vector<chunk> xv = rng.vec(xlen);
				const std::vector<chunk> before = xv;
				bt::to_mpz(x, xv.data(), xlen);
				for (int to_mont = 0; to_mont < 2; to_mont++) {
					if (to_mont)
						mpz_mul(want, x, m.r);
					else
						mpz_set(want, x);
					mpz_mod(want, want, m.nz);
					Guarded out(len);
					big_mont_reduce_ct(out.r(), xv.data(), xlen, m.n.data(), m.n0,
							   rrv.data(), len, to_mont);
					ASSERT_EQ(out.value(), bt::chunks_of(want, len))
						<< "len " << len << " xlen " << xlen << " to_mont " << to_mont
						<< "\n n = " << bt::hex(m.n) << "\n x = " << bt::hex(xv);
					ASSERT_TRUE(out.guards_intact()) << "len " << len << " xlen " << xlen;
				}
				ASSERT_EQ(xv, before);
			}
		}
	}
}

/* big_mont_reduce_below_ct (and big_mont_reduce_crt_ct, which takes it
 * at 2 len chunks) against GMP: x of 2 len chunks below n R
 * (random density; 0, 1, n R - 1, x of n R - 1 rounded down to all-ones
 * low chunks, a product of two values below n and R), plain and fully
 * reduced, at every length to 64 chunks and a few to the largest; out's
 * guards intact, x not written. */
TEST(MontKernels, ReduceBelowNRAsGmp)
{
	bt::Rng rng(0x62656c6f);
	for (int len : reduce_lengths()) {
		for (long c = 0; c < reduce_moduli(len); c++) {
			Modulus m(rng, len);
			bt::Mpz rr, bound, x, want, y;
			mpz_mul(rr, m.r, m.r);
			mpz_mod(rr, rr, m.nz);
			mpz_mul(bound, m.nz, m.r); /* x < n R */
			const std::vector<chunk> rrv = bt::chunks_of(rr, len);
			for (int kind = 0; kind < 7; kind++) {
				switch (kind) {
				case 0: mpz_set_ui(x, 0); break;
				case 1: mpz_set_ui(x, 1); break;
				case 2: mpz_sub_ui(x, bound, 1); break;
				case 3: /* n R - 1 with its low half all ones */
					mpz_tdiv_q(x, bound, m.r);
					mpz_mul(x, x, m.r);
					mpz_sub_ui(x, x, 1);
					break;
				case 4: { /* a CRT input: below n times a value below R */
					const std::vector<chunk> a = rng.vec(len);
					bt::to_mpz(y, a.data(), len);
					mpz_mul(x, y, m.nz);
					mpz_sub_ui(x, x, mpz_sgn(x.v) > 0);
					break;
				}
				default: {
					const std::vector<chunk> v = rng.vec(2 * len);
					bt::to_mpz(x, v.data(), 2 * len);
					mpz_mod(x, x, bound);
				}
				}
				const std::vector<chunk> xv = bt::chunks_of(x, 2 * len);
				const std::vector<chunk> before = xv;
				mpz_mod(want, x, m.nz);
				Guarded out(len);
				big_mont_reduce_below_ct(out.r(), xv.data(), m.n.data(), m.n0, rrv.data(),
							 len);
				ASSERT_EQ(out.value(), bt::chunks_of(want, len))
					<< "seed " << bt::seed() << " len " << len << " kind " << kind
					<< "\n n = " << bt::hex(m.n) << "\n x = " << bt::hex(x);
				ASSERT_TRUE(out.guards_intact()) << "len " << len;
				ASSERT_EQ(xv, before);
				/* big_mont_reduce_crt_ct: this path at 2 len chunks, the
				 * blocks' past it (x with a zero chunk on top). */
				std::vector<chunk> wide = xv;
				wide.push_back(0);
				for (int xlen : { 2 * len, 2 * len + 1 }) {
					Guarded crt(len);
					big_mont_reduce_crt_ct(crt.r(), wide.data(), xlen, m.n.data(), m.n0,
							       rrv.data(), len);
					ASSERT_EQ(crt.value(), bt::chunks_of(want, len))
						<< "len " << len << " xlen " << xlen;
				}
			}
		}
	}
}

/* The squaring with the table read (big_mont_sqr_select_vec): every
 * build of it gives exactly the squaring of AgainstGmpEveryLength and
 * exactly table[index], for the table sizes the exponentiation uses (and
 * 1, 31, 33), lengths 1..40 and the unrolled lengths past them, every
 * index at 7, 8 and 9 chunks, r == a, guard chunks around r and sel; the
 * table, a and n are not written. */
struct SqrSelect {
	const char *name;
	big_mont_sqr_select_fn *fn;
};

std::vector<SqrSelect> sqr_select_impls()
{
	std::vector<SqrSelect> v = { { "separate", big_mont_sqr_select_vec_separate },
				     { "dispatched", big_mont_sqr_select_vec } };
#if BIGMONT_HAVE_ASM
	if (cpu_has_adx() && big_ct_select_uses_avx2())
		v.push_back({ "adx", big_mont_sqr_select_vec_adx });
	if (cpu_has_adx() && big_ct_select_uses_avx2() && big_ct_select_can_vl())
		v.push_back({ "adx_vl", big_mont_sqr_select_vec_adx_vl });
	else
		printf("[ note ] no AVX-512VL here: big_mont_sqr_select_vec_adx_vl not run\n");
#endif
	return v;
}

TEST(MontKernels, SquareWithTableRead)
{
	bt::Rng rng(0x73717273);
	const std::vector<int> lens = lengths_1_to_40_and_48_64();
	const long per_len = bt::scaled(4);
	for (const SqrSelect &impl : sqr_select_impls()) {
		for (int len : lens) {
			for (long c = 0; c < per_len; c++) {
				Modulus m(rng, len);
				for (int entries : { 1, 2, 8, 16, 31, 32, 33, 64 }) {
					std::vector<chunk> table(static_cast<size_t>(entries * len));
					if (c == 0 && entries == 32) /* neighbours all-ones and zero */
						for (int i = 0; i < entries * len; i++)
							table[static_cast<size_t>(i)] =
								(i / len) % 2 ? BIG_CHUNK_ALLBITS : 0;
					else
						rng.fill(table.data(), entries * len);
					const std::vector<chunk> table_before = table;
					const bool all = len >= 7 && len <= 9;
					for (int k = 0; k < (all ? entries : 3); k++) {
						const int index = all ? k : static_cast<int>(rng.below(entries));
						const std::vector<chunk> a = m.operand(rng);
						bool sub;
						const std::vector<chunk> want = m.expect(a.data(), a.data(), &sub);
						const chunk *entry = table.data() + index * len;
						const std::string ctx = std::string(impl.name) + " len " +
									std::to_string(len) + " entries " +
									std::to_string(entries) + " index " +
									std::to_string(index) + "\n n = " + bt::hex(m.n) +
									"\n a = " + bt::hex(a);
						for (const bool alias : { false, true }) { /* r == a */
							Guarded r(len), sel(len);
							r.set(a);
							impl.fn(r.r(), alias ? r.r() : a.data(), m.n.data(), m.n0,
								len, sel.r(), table.data(), entries,
								static_cast<chunk>(index));
							const char *how = alias ? " r==a " : " ";
							ASSERT_EQ(r.value(), want) << "sqr" << how << ctx;
							ASSERT_EQ(sel.value(),
								  std::vector<chunk>(entry, entry + len))
								<< "read" << how << ctx;
							ASSERT_TRUE(r.guards_intact() && sel.guards_intact())
								<< ctx;
						}
					}
					ASSERT_EQ(table, table_before) << impl.name << " wrote its table";
				}
			}
		}
	}
}

/*
 * Constant time, checked by Memcheck: with a, b, n and n0 marked undefined
 * (secret), Memcheck reports any branch, conditional move or address that
 * depends on them.  Run directly, the test re-runs itself under valgrind
 * (when installed and the build is not sanitized) with only this test
 * selected; under valgrind it makes the calls and counts the reports.
 */
TEST(MontKernels, ConstantTimeUnderMemcheck)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	GTEST_SKIP() << "sanitizer builds cannot run under valgrind";
#else
	if (!RUNNING_ON_VALGRIND) {
		if (std::getenv("BIGMONT_EMULATOR") != nullptr)
			GTEST_SKIP() << "run under an emulator (BIGMONT_EMULATOR): the host's valgrind "
					"cannot run this cross build's code";
		if (std::system("valgrind --version >/dev/null 2>&1") != 0)
			GTEST_SKIP() << "valgrind not installed";
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		ASSERT_GT(n, 0);
		self[n] = '\0';
		std::string cmd = std::string("valgrind -q --error-exitcode=3 '") + self +
				  "' --gtest_filter=MontKernels.ConstantTimeUnderMemcheck >/dev/null 2>&1";
		int status = std::system(cmd.c_str());
		EXPECT_EQ(status, 0) << "rerun by hand to see the reports: " << cmd;
		return;
	}
	bt::Rng rng(0x6374);
	const std::vector<Kernel> ks = kernels();
	const int lens[] = { 1, 3, 8, 9, 12, 16, 24, 32, 48, 64 };
	const unsigned long before = VALGRIND_COUNT_ERRORS;
	for (int len : lens) {
		Modulus m(rng, len);
		std::vector<chunk> a = m.operand(rng), b = m.operand(rng), r(static_cast<size_t>(len));
		chunk n0 = m.n0;
		for (const Kernel &k : ks) {
			VALGRIND_MAKE_MEM_UNDEFINED(a.data(), sizeof(chunk) * len);
			VALGRIND_MAKE_MEM_UNDEFINED(b.data(), sizeof(chunk) * len);
			VALGRIND_MAKE_MEM_UNDEFINED(m.n.data(), sizeof(chunk) * len);
			VALGRIND_MAKE_MEM_UNDEFINED(&n0, sizeof(n0));
			k.mul(r.data(), a.data(), b.data(), m.n.data(), n0, len);
			k.sqr(r.data(), r.data(), m.n.data(), n0, len);
			VALGRIND_MAKE_MEM_DEFINED(r.data(), sizeof(chunk) * len);
			VALGRIND_MAKE_MEM_DEFINED(a.data(), sizeof(chunk) * len);
			VALGRIND_MAKE_MEM_DEFINED(b.data(), sizeof(chunk) * len);
			VALGRIND_MAKE_MEM_DEFINED(m.n.data(), sizeof(chunk) * len);
			VALGRIND_MAKE_MEM_DEFINED(&n0, sizeof(n0));
			EXPECT_EQ(VALGRIND_COUNT_ERRORS, before)
				<< k.name << " len " << len << " branched or indexed on a secret";
		}
	}
#endif
}

#if BIGMONT_HAVE_ASM && defined(__x86_64__)
/* The contract's stack bound, 2*len + 8 chunks (the return address
 * included), measured by the deepest word the call changes. */
TEST(MontKernels, AsmStackWithinContract)
{
	if (RUNNING_ON_VALGRIND)
		GTEST_SKIP() << "valgrind takes the moved stack pointer for a stack switch";
	bt::Rng rng(0x737461);
	const std::vector<Kernel> ks = asm_kernels();
	if (ks.empty())
		GTEST_SKIP() << "BIGMONT_CPU binds no assembly kernel";
	const size_t words = 2 * BIG_MAX_MODULUS_CHUNKS + 64;
	std::vector<uint64_t> stack(words + 2);
	uint64_t *top = stack.data() + words;
	top = reinterpret_cast<uint64_t *>(reinterpret_cast<uintptr_t>(top) & ~uintptr_t(15));
	const uint64_t fill = 0x5a17c0de5a17c0deULL;
	for (int len : bt::lengths(80, { 96, 128, 255, BIG_MAX_MODULUS_CHUNKS })) {
		Modulus m(rng, len);
		std::vector<chunk> a = m.operand(rng), b = m.operand(rng), r(static_cast<size_t>(len));
		for (const Kernel &k : ks) {
			for (int op = 0; op < 2; op++) {
				for (uint64_t *w = stack.data(); w < top; w++)
					*w = fill;
				const uint64_t margs[6] = {
					reinterpret_cast<uint64_t>(r.data()), reinterpret_cast<uint64_t>(a.data()),
					reinterpret_cast<uint64_t>(b.data()), reinterpret_cast<uint64_t>(m.n.data()),
					m.n0, static_cast<uint64_t>(len),
				};
				const uint64_t sargs[6] = {
					reinterpret_cast<uint64_t>(r.data()), reinterpret_cast<uint64_t>(a.data()),
					reinterpret_cast<uint64_t>(m.n.data()), m.n0, static_cast<uint64_t>(len), 0,
				};
				bt::call_on_stack(op ? reinterpret_cast<const void *>(k.sqr)
						     : reinterpret_cast<const void *>(k.mul),
						  op ? sargs : margs, top);
				const uint64_t *deepest = top;
				for (const uint64_t *w = stack.data(); w < top; w++) {
					if (*w != fill) {
						deepest = w;
						break;
					}
				}
				const long used = static_cast<long>(top - deepest);
				EXPECT_LE(used, 2L * len + 8)
					<< k.name << (op ? " sqr" : " mul") << " len " << len;
				EXPECT_GT(used, 0) << "the measurement saw no writes";
			}
		}
	}
}

TEST(MontKernels, AsmAbi)
{
	bt::Rng rng(0x616269);
	const std::vector<Kernel> ks = asm_kernels();
	if (ks.empty())
		GTEST_SKIP() << "BIGMONT_CPU binds no assembly kernel";
	for (int len = 1; len <= 40; len++) {
		Modulus m(rng, len);
		std::vector<chunk> a = m.operand(rng), b = m.operand(rng);
		bool sub;
		std::vector<chunk> want_ab = m.expect(a.data(), b.data(), &sub);
		std::vector<chunk> want_aa = m.expect(a.data(), a.data(), &sub);
		for (const Kernel &k : ks) {
			Guarded g(len);
			bt::AbiCall mc = { { bt::ptr_arg(g.r()), bt::ptr_arg(a.data()), bt::ptr_arg(b.data()),
					     bt::ptr_arg(m.n.data()), m.n0, bt::int_arg(len) } };
			EXPECT_TRUE(bt::abi_call(reinterpret_cast<const void *>(k.mul), &mc))
				<< k.name << " mul len " << len;
			EXPECT_EQ(g.value(), want_ab) << k.name << " mul len " << len;
			EXPECT_TRUE(g.guards_intact()) << k.name << " mul len " << len;

			Guarded s(len);
			bt::AbiCall sc = { { bt::ptr_arg(s.r()), bt::ptr_arg(a.data()), bt::ptr_arg(m.n.data()),
					     m.n0, bt::int_arg(len) } };
			EXPECT_TRUE(bt::abi_call(reinterpret_cast<const void *>(k.sqr), &sc))
				<< k.name << " sqr len " << len;
			EXPECT_EQ(s.value(), want_aa) << k.name << " sqr len " << len;
			EXPECT_TRUE(s.guards_intact()) << k.name << " sqr len " << len;
		}
		/* The squaring with the table read: 32 entries (one pass at len 8,
		 * the tail call elsewhere), garbage above the int entries too. */
		if (!cpu_has_adx() || !big_ct_select_uses_avx2())
			continue;
		std::vector<chunk> table = rng.vec(32 * len);
		const int index = static_cast<int>(rng.below(32));
		Guarded s(len), sel(len);
		bt::AbiCall c = { { bt::ptr_arg(s.r()), bt::ptr_arg(a.data()), bt::ptr_arg(m.n.data()), m.n0,
				    bt::int_arg(len), bt::ptr_arg(sel.r()), bt::ptr_arg(table.data()),
				    bt::int_arg(32), static_cast<uint64_t>(index) } };
		EXPECT_TRUE(bt::abi_call(reinterpret_cast<const void *>(big_mont_sqr_select_vec_adx), &c))
			<< "sqr+select len " << len;
		EXPECT_EQ(s.value(), want_aa) << "sqr+select len " << len;
		EXPECT_EQ(sel.value(), std::vector<chunk>(table.begin() + index * len,
							  table.begin() + (index + 1) * len))
			<< "sqr+select len " << len;
		EXPECT_TRUE(s.guards_intact() && sel.guards_intact()) << "sqr+select len " << len;
	}
}
#endif

} // namespace
