/*
 * The radix-2^52 dual product, squaring and exponentiation on AVX-512
 * IFMA: the algorithm of dual_step_impl.h .. dual_pow_impl.h with the vector API as
 * intrinsics on ymm registers (vec_ifma.h).  A 1024-bit half is 20 digits
 * in 5 ymm registers; the two halves' steps alternate in one stream.
 *
 * Math (radix52.h, dual_mul_impl.h, dual_sqr_impl.h), in each half h of the pair
 * layout, with R = 2^(52k), m odd < R/4, Y = -a b m^-1 mod R:
 *   mul: r = (a b + Y m) / R < 2m          (operand scanning)
 *   sqr: r = (a a + Y m) / R < 2m          (cross products once, doubled)
 *   pow: out = base^e mod m, fully reduced (window 5, masked table scan)
 *
 * Prototypes (radix52.h):
 *   void big_r52_dual_mul_ifma(uint64_t *r, const uint64_t *a,
 *                              const uint64_t *b,
 *                              const struct big_r52_dual_mod *mod);
 *   void big_r52_dual_sqr_ifma(uint64_t *r, const uint64_t *a,
 *                              const struct big_r52_dual_mod *mod);
 *   void big_r52_dual_pow_ifma(uint64_t *out, const uint64_t *base,
 *                              const uint64_t *e_p, const uint64_t *e_q,
 *                              int ewords,
 *                              const struct big_r52_dual_mod *mod,
 *                              uint64_t *scratch);
 *
 * Preconditions: the CPU has AVX512F, VL, IFMA, DQ and BW and the OS
 * saves their state (big_r52_cpu_has_ifma(); the dispatch checks it before
 * anything here runs); 1 <= mod->digits <= BIG_R52_MAX_DIGITS; operands
 * normalised with zero padding, each half below 2m; scratch of
 * big_r52_dual_pow_scratch(k) words; aliasing as in radix52.h.  Constant
 * time: no branch or address depends on a digit or an exponent bit.
 * 10, 20, 30 and 40 digits are compiled with k constant (R52_FIXED_SIZES).
 *
 * Work per product and half (k digits, G = k/4 ymm groups):
 *   mul: 4kG vpmadd52[lh]uq, kG valignq, 3k scalar products
 *   sqr: about kG + 2G vpmadd52[lh]uq for the square, 2kG for the
 *        reduction, kG + 4G valignq
 *
 * Cycles: `bigmont speed --kernels` prints them per CPU (the ifma rows,
 * and the pairs against the ymm halves); the committed runs are under
 * results/<cpu>/, and which of this file's choices each CPU model takes,
 * with the figures that decided it, is bignum/tuning.h.  Only the builds
 * with the assembly kernels have this build (radix52.h: their ifma
 * variant runs it), and they run their NASM product and squaring at 20
 * digits instead (asm/x86_64/r52_dual_{mul,sqr}20_ifma.asm).
 *
 * The tests compile this file twice more against an exact software model
 * of the intrinsics (tests/radix52/): once as it runs by default (the ymm
 * halves), once with the pair product at every size above the fixed
 * window and the dedicated squaring at 30 digits (R52_EMULATED_PAIRS), so
 * that every path here runs on every machine, under Memcheck too
 * (tests/ct/).  The emulated builds leave out the fixed sizes and the
 * NASM kernels (which the IFMA build's own tests, one ctest entry per
 * side of each choice, run where the CPU has IFMA); the build here runs
 * only on IFMA CPUs.
 */
#if (defined(__x86_64__) && BIGMONT_HAVE_ASM) || defined(R52_INTRINSICS_EMULATED)

#ifndef R52_INTRINSICS_EMULATED
#pragma GCC target("avx512f,avx512vl,avx512ifma,bmi2")
#define R52_SFX ifma
/* The emulated build leaves these out: unrolled over emulated lanes they
 * take minutes to compile, and every size's steps are the same as k's
 * run-time form (dual_pow_impl.h). */
#define R52_FIXED_SIZES 1
/* The 20-digit product and squaring in NASM (asm/x86_64/r52_dual_*20_
 * ifma.asm). */
#define R52_KERNELS20 1
#define R52_MUL20_KERNEL big_r52_dual_mul20_ifma_asm
#define R52_SQR20_KERNEL big_r52_dual_sqr20_ifma_asm
#define R52_WIPE20 big_r52_dual20_ifma_wipe
/* Where it measured faster than the product, the exponentiation squares
 * by the dedicated squaring at 30 digits too (bignum/tuning.h). */
#define R52_POW_SQR30_DEDICATED big_r52_pow_sqr30_dedicated
/* The pair product where the tuning table binds it (bignum/tuning.h). */
#define R52_MUL_PAIRS_WANTED(k) big_r52_mul_pairs_wanted(k)
#endif

/* GCC cannot follow the group ranges of a run-time digit count and
 * warns of reads it cannot match to writes; every group read is written
 * (dual_fixed_impl.h, dual_sqr_impl.h), which memcheck checks on the twin. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "vec_ifma.h"

#include "dual_step_impl.h"
#include "dual_mul_impl.h"
#include "dual_sqr_impl.h"
#include "dual_fixed_impl.h"

#if !defined(R52_INTRINSICS_EMULATED) || defined(R52_EMULATED_PAIRS)
/* The table read (dual_pow_impl.h) on whole pair groups: a zmm register holds
 * the same four digit positions of both halves, so an entry takes one
 * compare against (want_p x 4, want_q x 4) and G zmm blends, where the
 * ymm API takes two compares and 2G blends: fewer operations for the
 * vector ports that Intel's cores share between the blends and the
 * multiply-adds.  The same words as r52_select_k; every build that has
 * the pair product reads its tables this way. */
#define R52_SELECT_PAIRS r52_select_pairs
R52_INLINE void r52_select_pairs(uint64_t *out, const uint64_t *table, uint64_t want_p,
				 uint64_t want_q, const int k)
{
	const int G = BIG_R52_GROUPS(k), words = BIG_R52_PAIR_WORDS(k);
	const __m512i want = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)want_p),
						    0xf0, (long long)want_q);
	const __m512i one = _mm512_set1_epi64(1);
	__m512i acc[BIG_R52_MAX_GROUPS];
	__m512i at = _mm512_setzero_si512();

	R52_UNROLL
	for (int g = 0; g < G; g++)
		acc[g] = _mm512_setzero_si512();
	for (int e = 0; e < BIG_R52_TABLE_ENTRIES; e++) {
		const uint64_t *entry = table + (size_t)e * (size_t)words;
		const __mmask8 take = _mm512_cmpeq_epu64_mask(at, want);
		R52_UNROLL
		for (int g = 0; g < G; g++)
			acc[g] = _mm512_mask_blend_epi64(take, acc[g],
							 _mm512_loadu_si512(entry + 8 * g));
		at = _mm512_add_epi64(at, one);
	}
	R52_UNROLL
	for (int g = 0; g < G; g++)
		_mm512_storeu_si512(out + 8 * g, acc[g]);
}

/* The dual product on whole pair groups, for the shifting window
 * (dual_mul_impl.h's r52_mul_body, the same words): a zmm register holds
 * group g of both halves, so each multiply-add, load and shift serves
 * both, half the vector instructions of the ymm API (on Intel's server
 * cores a zmm multiply-add issues as often as a ymm one).  The window
 * shift is a two-source permute within each half; the two halves' y go
 * into one register.
 *
 * With both halves in one register, their chains (t -> y -> the vector
 * products -> the lane the next t reads) no longer fill each other's
 * latency.  So the chain reads the vector a step early: step i reads
 * position i+2 (lane 2) where r52_reduce_step reads i+1, after this
 * step's lo(a b_i), and the next step adds in the scalar what position
 * i+2 gets after that read:
 *   lane1_(i+1) = lane2_i + lo(m_2 y_i) + hi(m_1 y_i) + hi(a_1 b_i)
 *                 + lo(a_1 b_(i+1))
 * (step i's lo(m y) before its shift, its hi terms after, step i+1's
 * lo(a b) before its read: nothing else reaches position i+2 in
 * between).  y then waits on scalar products only, and the vector's own
 * chain per step is its four multiply-adds and the shift.  The scalar
 * products are mulx by a factor shifted up 12 bits, whose high word is
 * the hi 52-bit half and whose low word is the lo half shifted up (so
 * with y' = y << 12 = t (k0 << 12) mod 2^64 from one imul); the carry
 * (t + lo(m_0 y)) >> 52 is ceil(t / 2^52), as the sum is 0 mod 2^52.
 * Lane bounds as r52_mul_body's (the same lane sums). */
#define R52_MUL_PAIRS r52_mul_pairs

/* The running state of r52_mul_pairs: the window, each half's t and the
 * position i+1 as step i-1 read it plus what came after. */
struct r52_pair_state {
	__m512i W[BIG_R52_MAX_GROUPS];
	uint64_t t[2], ahead[2];
};

/* Step i = 4q + s of r52_mul_pairs: bi is digit i of b in each half,
 * bgroup b's group q (both halves). */
R52_INLINE void r52_pair_step(struct r52_pair_state *st, const uint64_t bi[2],
			      __m512i bgroup, const int s, const uint64_t *a,
			      const struct big_r52_dual_mod *mod, const uint64_t k0s[2],
			      const int G)
{
	const uint64_t mask = BIG_R52_DIGIT_MASK;
	/* lanes 1..3 of each half, then lane 0 of that half of the next group */
	const __m512i down = _mm512_set_epi64(12, 7, 6, 5, 8, 3, 2, 1);
	const __m512i B = _mm512_permutexvar_epi64(
		_mm512_set_epi64(4 + s, 4 + s, 4 + s, 4 + s, s, s, s, s), bgroup);
	__m512i *const W = st->W;
	uint64_t y[2];

	R52_UNROLL
	for (int g = 0; g < G; g++)
		W[g] = _mm512_madd52lo_epu64(W[g], _mm512_loadu_si512(a + 8 * g), B);
	const uint64_t lane2[2] = {
		(uint64_t)_mm256_extract_epi64(_mm512_castsi512_si256(W[0]), 2),
		(uint64_t)_mm256_extract_epi64(_mm512_extracti64x4_epi64(W[0], 1), 2)
	};
	R52_UNROLL
	for (int h = 0; h < 2; h++) {
		const uint64_t *ah = R52_GRP(a, 0, h), *mh = R52_GRP(mod->m, 0, h);
		unsigned long long a0b_hi, a1b_hi, m0y_hi, m1y_hi;
		const uint64_t bs = bi[h] << 12;
		const uint64_t a0b_lo = _mulx_u64(ah[0], bs, &a0b_hi) >> 12;
		const uint64_t a1b_lo = _mulx_u64(ah[1], bs, &a1b_hi) >> 12;
		const uint64_t ti = st->t[h] + a0b_lo;
		const uint64_t ys = ti * k0s[h];

		y[h] = ys >> 12;
		(void)_mulx_u64(mh[0], ys, &m0y_hi);
		const uint64_t m1y_lo = _mulx_u64(mh[1], ys, &m1y_hi) >> 12;
		st->t[h] = ((ti + mask) >> 52) + m0y_hi + m1y_lo + st->ahead[h] + a1b_lo + a0b_hi;
		st->ahead[h] = lane2[h] + ((mh[2] * ys) >> 12) + m1y_hi + a1b_hi;
	}
	const __m512i Y = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)y[0]), 0xf0,
						 (long long)y[1]);
	R52_UNROLL
	for (int g = 0; g < G; g++)
		W[g] = _mm512_madd52lo_epu64(W[g], _mm512_loadu_si512(mod->m + 8 * g), Y);
	R52_UNROLL
	for (int g = 0; g + 1 < G; g++)
		W[g] = _mm512_permutex2var_epi64(W[g], down, W[g + 1]);
	W[G - 1] = _mm512_permutex2var_epi64(W[G - 1], down, _mm512_setzero_si512());
	R52_UNROLL
	for (int g = 0; g < G; g++)
		W[g] = _mm512_madd52hi_epu64(W[g], _mm512_loadu_si512(mod->m + 8 * g), Y);
	R52_UNROLL
	for (int g = 0; g < G; g++)
		W[g] = _mm512_madd52hi_epu64(W[g], _mm512_loadu_si512(a + 8 * g), B);
}

R52_INLINE void r52_mul_pairs(uint64_t *r, const uint64_t *a, const uint64_t *b,
			      const struct big_r52_dual_mod *mod, const int k)
{
	const int G = BIG_R52_GROUPS(k);
	const uint64_t k0s[2] = { mod->k0[0] << 12, mod->k0[1] << 12 };
	struct r52_pair_state st = { .t = { 0, 0 }, .ahead = { 0, 0 } };

	R52_UNROLL
	for (int g = 0; g < G; g++)
		st.W[g] = _mm512_setzero_si512();
	/* b a group at a time, so that a digit's place in it is a constant */
	int q = 0;
	for (; 4 * q + 4 <= k; q++) {
		const uint64_t *bq = b + 2 * BIG_R52_LANES * q;
		const __m512i bg = _mm512_loadu_si512(bq);
		R52_UNROLL
		for (int s = 0; s < BIG_R52_LANES; s++)
			r52_pair_step(&st, (const uint64_t[2]){ bq[s], bq[BIG_R52_LANES + s] }, bg,
				      s, a, mod, k0s, G);
	}
	for (int s = 0; 4 * q + s < k; s++) {
		const uint64_t *bq = b + 2 * BIG_R52_LANES * q;
		r52_pair_step(&st, (const uint64_t[2]){ bq[s], bq[BIG_R52_LANES + s] },
			      _mm512_loadu_si512(bq), s, a, mod, k0s, G);
	}
	r52v half[2][BIG_R52_MAX_GROUPS];
	R52_UNROLL
	for (int g = 0; g < G; g++) {
		half[0][g] = _mm512_castsi512_si256(st.W[g]);
		half[1][g] = _mm512_extracti64x4_epi64(st.W[g], 1);
	}
	for (int h = 0; h < 2; h++) {
		half[h][0] = r52v_set_lane0(half[h][0], st.t[h]);
		r52_normalise(r, h, half[h], G);
	}
}
#endif

#include "dual_pow_impl.h"

#endif
