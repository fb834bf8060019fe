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

/* The dual product on whole pair groups (dual_fixed_impl.h's rows and
 * reduction steps, the same words): a zmm register holds group g of both
 * halves, so each multiply-add serves both halves.  No lane shift sits on
 * a chain: as in the fixed window, each group only accumulates, row i
 * (i = 4q + s) adding lo(x d) to groups q.. through the copy of x shifted
 * up s lanes in each half and hi(x d) through the copy shifted s + 1; d
 * holds digit i of b, or y_i, of each half in that half's lanes.
 * Reduction step i reads position i + 1 of each half after row i + 1
 * (the last row reaching it) and before its own terms, so y waits on
 * scalar products and one lane read.  The window of registers moves up
 * one group every four rows (r52_mul_pairs), a loop body the same for
 * every group of four, which the fully unrolled fixed window at 30 and 40
 * digits is not: its code outgrew the decoded-instruction cache, and ran
 * at the legacy decoders' speed (docs/design-notes.md).
 *
 * Lane bound: r52_reduce_fixed's (4k terms below 2^52 a position, plus
 * carries below 2^12): below 2^60 for k <= 44. */
#define R52_MUL_PAIRS r52_mul_pairs

/* Copy s (0..3), group g (0..G) of a pair number shifted up s lanes in
 * each half, in memory: read as the multiply-adds' memory operands.  One
 * group more than G + 1 a copy: GCC cannot bound g from the run-time k
 * and warns of reads past the end otherwise. */
#define R52_PAIR_COPY_GROUPS (BIG_R52_MAX_GROUPS + 2)
#define R52_PAIR_COPY_WORDS (4 * R52_PAIR_COPY_GROUPS * 2 * BIG_R52_LANES)
#define R52_PAIR_COPY(X, s, g)                                               \
	((X) + ((s) * R52_PAIR_COPY_GROUPS + (g)) * 2 * BIG_R52_LANES)

R52_INLINE void r52_pair_copies(uint64_t *X, const uint64_t *x, const int G)
{
	/* lane l of each half from lane l - s of cur, or of below (index + 8)
	 * where l < s; one zmm store each, so the rows' zmm loads of them
	 * forward from the stores */
	const __m512i up1 = _mm512_set_epi64(6, 5, 4, 15, 2, 1, 0, 11);
	const __m512i up2 = _mm512_set_epi64(5, 4, 15, 14, 1, 0, 11, 10);
	const __m512i up3 = _mm512_set_epi64(4, 15, 14, 13, 0, 11, 10, 9);
	__m512i below = _mm512_setzero_si512();
	R52_UNROLL
	for (int g = 0; g <= G; g++) {
		const __m512i cur = g < G ? _mm512_loadu_si512(x + 2 * BIG_R52_LANES * g)
					  : _mm512_setzero_si512();
		_mm512_storeu_si512(R52_PAIR_COPY(X, 0, g), cur);
		_mm512_storeu_si512(R52_PAIR_COPY(X, 1, g), _mm512_permutex2var_epi64(cur, up1, below));
		_mm512_storeu_si512(R52_PAIR_COPY(X, 2, g), _mm512_permutex2var_epi64(cur, up2, below));
		_mm512_storeu_si512(R52_PAIR_COPY(X, 3, g), _mm512_permutex2var_epi64(cur, up3, below));
		below = cur;
	}
}

/* W[base + g] += lo(x d) through copy s, W[base + g] += hi(x d) through
 * copy s + 1 (or W[base + 1 + g] through copy 0 when s = 3), over the
 * copies' groups from `first` (s, base, first public). */
R52_INLINE void r52_pair_row(__m512i *W, const uint64_t *X, __m512i D, int s, int base,
			     int first, const int k)
{
	R52_UNROLL
	for (int g = first; g < R52_COPY_GROUPS(s, k); g++)
		W[base + g] = _mm512_madd52lo_epu64(W[base + g], D,
						    _mm512_loadu_si512(R52_PAIR_COPY(X, s, g)));
	const int up = s < 3 ? s + 1 : 0, at = s < 3 ? base : base + 1;
	R52_UNROLL
	for (int g = 0; g < R52_COPY_GROUPS(up, k); g++)
		W[at + g] = _mm512_madd52hi_epu64(W[at + g], D,
						  _mm512_loadu_si512(R52_PAIR_COPY(X, up, g)));
}

/* Lane l of half h of x (h, l public): one permute to lane 0, one move
 * (two extracts and a move for the upper lanes of half 1 otherwise). */
R52_INLINE uint64_t r52_pair_lane(__m512i x, int h, int l)
{
	const long long at = 4 * h + l;
	return r52v_lane(_mm512_castsi512_si256(_mm512_permutexvar_epi64(
				 _mm512_set_epi64(at, at, at, at, at, at, at, at), x)), 0);
}

/* The reduction state of both halves. */
struct r52_pair_reduction {
	uint64_t t[2], m0[2], m1[2], k0_12[2];
};

/* Reduction step j (r52_reduce_fixed): t -> y -> t', reading position j + 1
 * at lane `lane` of `at` before this step's terms; returns Y. */
R52_INLINE __m512i r52_pair_reduce(struct r52_pair_reduction *st, __m512i at, int lane)
{
	uint64_t y[2];
	R52_UNROLL
	for (int h = 0; h < 2; h++) {
		const uint64_t t = st->t[h];
		const uint64_t carry = (t >> 52) + ((t & BIG_R52_DIGIT_MASK) != 0);
		const uint64_t next = r52_pair_lane(at, h, lane);
		const uint64_t y12 = t * st->k0_12[h];
		const uint64_t hi_m0y = (uint64_t)(r52_prod(st->m0[h], y12) >> 64);

		y[h] = y12 >> 12;
		st->t[h] = carry + next + hi_m0y + ((st->m1[h] * y12) >> 12);
	}
	return _mm512_mask_blend_epi64(0xf0, _mm512_set1_epi64((long long)y[0]),
				       _mm512_set1_epi64((long long)y[1]));
}

/* Pass q runs, for s = 0..3, row i = 4q + s and then reduction step
 * i - 1; slot g of the windows holds group q + g.  Groups below q hold
 * positions the scalar t has already taken (their lanes are never read
 * again), so G + 1 registers hold every live group, and the pass's
 * addresses (the copies) do not move, only b's digits and y do.  The
 * rows accumulate in P and the reduction in R: a row waits on nothing,
 * and only R's multiply-adds wait on y, so the serial chain per step is
 * R's two multiply-adds on the lane read next, not every multiply-add
 * into that register.  Step 4q - 1 would add lo(m_0 y) to position
 * 4q - 1, below the window and never read again: that multiply-add is
 * left out. */
R52_INLINE void r52_mul_pairs(uint64_t *r, const uint64_t *a, const uint64_t *b,
			      const struct big_r52_dual_mod *mod, const int k)
{
	/* radix52.h's contract, for GCC's bounds on the run-time k */
	if (k < 1 || k > BIG_R52_MAX_DIGITS)
		__builtin_unreachable();
	const int G = BIG_R52_GROUPS(k), last = k / 4;
	uint64_t A[R52_PAIR_COPY_WORDS] __attribute__((aligned(64)));
	uint64_t M[R52_PAIR_COPY_WORDS] __attribute__((aligned(64)));
	/* one spare slot each: GCC cannot bound the window's indices */
	__m512i P[BIG_R52_MAX_GROUPS + 2], R[BIG_R52_MAX_GROUPS + 2];
	struct r52_pair_reduction st;

	r52_pair_copies(A, a, G);
	r52_pair_copies(M, mod->m, G);
	R52_UNROLL
	for (int g = 0; g <= G; g++)
		P[g] = R[g] = _mm512_setzero_si512();
	for (int h = 0; h < 2; h++) {
		st.m0[h] = mod->m[BIG_R52_AT(h, 0)];
		st.m1[h] = k > 1 ? mod->m[BIG_R52_AT(h, 1)] : 0;
		st.k0_12[h] = mod->k0[h] << 12;
	}
	for (int q = 0; q <= last; q++) {
		const __m512i bq = q < G ? _mm512_loadu_si512(b + 2 * BIG_R52_LANES * q)
					 : _mm512_setzero_si512();
		R52_UNROLL
		for (int s = 0; s < 4; s++) {
			const int i = 4 * q + s;
			if (i < k)
				r52_pair_row(P, A, _mm512_permutexvar_epi64(
					_mm512_set_epi64(4 + s, 4 + s, 4 + s, 4 + s, s, s, s, s), bq),
					s, 0, 0, k);
			if (i == 0) {
				st.t[0] = r52_pair_lane(P[0], 0, 0);
				st.t[1] = r52_pair_lane(P[0], 1, 0);
			} else if (i <= k) {
				const __m512i Y = r52_pair_reduce(&st, _mm512_add_epi64(P[0], R[0]), s);
				if (s == 0)
					r52_pair_row(R, M, Y, 3, -1, 1, k);
				else
					r52_pair_row(R, M, Y, s - 1, 0, 0, k);
			}
		}
		if (q == last)
			break;
		R52_UNROLL
		for (int g = 0; g < G; g++) {
			P[g] = P[g + 1];
			R[g] = R[g + 1];
		}
		P[G] = R[G] = _mm512_setzero_si512();
	}
	/* slot g is group last + g: positions k .. 2k - 1 start at lane k % 4 */
	const int s = k % 4;
	R52_UNROLL
	for (int g = 0; g <= G; g++)
		P[g] = _mm512_add_epi64(P[g], R[g]);
	R52_UNROLL
	for (int h = 0; h < 2; h++) {
		r52v U[BIG_R52_MAX_GROUPS];
		R52_UNROLL
		for (int g = 0; g < G; g++) {
			const __m512i lo = P[g], hi = P[g + 1];
			const r52v lo_h = h ? _mm512_extracti64x4_epi64(lo, 1) : _mm512_castsi512_si256(lo);
			const r52v hi_h = h ? _mm512_extracti64x4_epi64(hi, 1) : _mm512_castsi512_si256(hi);
			U[g] = s == 0 ? lo_h : r52_shift_up(hi_h, lo_h, 4 - s);
		}
		U[0] = r52v_set_lane0(U[0], st.t[h]);
		r52_normalise(r, h, U, G);
	}
}
#endif

#include "dual_pow_impl.h"

#endif
