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
#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx512f,avx512vl,avx512ifma,bmi2")
#endif
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
/* The 10-digit pair product in NASM (asm/x86_64/r52_dual_mul10_ifma.asm),
 * where the tuning table binds the pairs at 10 digits; its frame lies
 * within the C kernels' at 10 digits, and R52_WIPE_C_FRAMES wipes it. */
#define R52_MUL10_KERNEL big_r52_dual_mul10_ifma
/* Where it measured faster than the product, the exponentiation squares
 * by the dedicated squaring at 30 digits too (bignum/tuning.h). */
#define R52_POW_SQR30_DEDICATED big_r52_pow_sqr30_dedicated
/* The pair product where the tuning table binds it (bignum/tuning.h). */
#define R52_MUL_PAIRS_WANTED(k) big_r52_mul_pairs_wanted(k)
/* Every kernel here but the NASM ones leaves copies of its operands and
 * of m on its frame (the shifted copies, the square, spills) and values
 * of them in registers: zeroed once when done, from the depth the
 * kernels ran at (dual_pow_impl.h, r52_wipe_kernel_frames), as deep as
 * the frames of k digits reach.  With GCC 12 at -O2 the largest are
 * about 0.4 KB at 10 digits (and at 20, one half alone: the fault
 * check), 5 KB at 30 and 40 (r52_mul_pairs_40) and 10 KB at the run-time
 * k's (r52_sqr_pairs_any).  AddressSanitizer's builds keep the inline
 * helpers as calls and pad every frame: about 8 KB deep at 10 digits, 13
 * KB for the pairs, so they wipe 32 KB at every size, as builds by
 * another compiler or at another level do (clang -O2 and GCC -O0 left p
 * and q below the depths above at 30 and 40 digits).
 * Radix52Asm.KernelFramesAreWipedByTheirCaller fails if one reaches
 * deeper. */
#define R52_WIPE_C_FRAMES(k) big_r52_stack_wipe_ifma(R52_C_FRAME_BYTES(k))
#if defined(__SANITIZE_ADDRESS__) || defined(__clang__) || !defined(__OPTIMIZE__)
#define R52_C_FRAME_BYTES(k) 32768
#else
#define R52_C_FRAME_BYTES(k)                                                 \
	((k) == 10 || (k) == 20 ? 1024 : (k) == 30 || (k) == 40 ? 6144 : 12288)
#endif
#endif

/* GCC cannot follow the group ranges of a run-time digit count and
 * warns of reads it cannot match to writes; every group read is written
 * (dual_fixed_impl.h, dual_sqr_impl.h), which memcheck checks on the twin. */
#ifdef __clang__
/* clang has no -Wmaybe-uninitialized; it reads '#pragma GCC unroll' as a
 * request and warns where a run-time count leaves a loop rolled, which
 * GCC does quietly. */
#pragma clang diagnostic ignored "-Wpass-failed"
#else
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
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

/* _mm512_mask_blend_epi64(k, a, load(p)), p read whole whatever k is
 * (ct_blend.h). */
static inline __attribute__((always_inline)) __m512i
select_blend_load(__mmask8 k, __m512i a, const uint64_t *p)
{
#ifdef R52_INTRINSICS_EMULATED
	return _mm512_mask_blend_epi64(k, a, _mm512_loadu_si512(p));
#else
	return big_ct_blend_load512(k, a, p);
#endif
}

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
			acc[g] = select_blend_load(take, acc[g], entry + 8 * g);
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
 * holds digit i of b, or y_i, of each half in that half's lanes.  The
 * reduction reads two positions ahead (r52_pair_reduce), so y waits on
 * scalar products only.  The window of registers moves up
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

/* cur shifted up `up` lanes (0..3, public) within each half, the lanes
 * below filled from the top of the same half of below: lane l from lane
 * l - up of cur, or of below (index + 8) where l < up. */
R52_INLINE __m512i r52_pair_shift_up(__m512i cur, __m512i below, int up)
{
	switch (up & 3) {
	case 1: return _mm512_permutex2var_epi64(cur, _mm512_set_epi64(6, 5, 4, 15, 2, 1, 0, 11), below);
	case 2: return _mm512_permutex2var_epi64(cur, _mm512_set_epi64(5, 4, 15, 14, 1, 0, 11, 10), below);
	case 3: return _mm512_permutex2var_epi64(cur, _mm512_set_epi64(4, 15, 14, 13, 0, 11, 10, 9), below);
	default: return cur;
	}
}

/* One zmm store each, so the rows' zmm loads of them forward from the
 * stores. */
R52_INLINE void r52_pair_copies(uint64_t *X, const uint64_t *x, const int G)
{
	__m512i below = _mm512_setzero_si512();
	R52_UNROLL
	for (int g = 0; g <= G; g++) {
		const __m512i cur = g < G ? _mm512_loadu_si512(x + 2 * BIG_R52_LANES * g)
					  : _mm512_setzero_si512();
		R52_UNROLL
		for (int s = 0; s < 4; s++)
			_mm512_storeu_si512(R52_PAIR_COPY(X, s, g), r52_pair_shift_up(cur, below, s));
		below = cur;
	}
}

/* W[base + g] += lo(x d) through copy s, W[base + g] += hi(x d) through
 * copy s + 1 (or W[base + 1 + g] through copy 0 when s = 3), s and base
 * public.  base may be -1 in a reduction step whose lowest group has
 * left the window: that group's terms reach only positions the scalar
 * chain has taken, never read again, and are left out. */
R52_INLINE void r52_pair_row(__m512i *W, const uint64_t *X, __m512i D, int s, int base,
			     const int k)
{
	R52_UNROLL
	for (int g = base < 0 ? -base : 0; g < R52_COPY_GROUPS(s, k); g++)
		W[base + g] = _mm512_madd52lo_epu64(W[base + g], D,
						    _mm512_loadu_si512(R52_PAIR_COPY(X, s, g)));
	const int up = s < 3 ? s + 1 : 0, at = s < 3 ? base : base + 1;
	R52_UNROLL
	for (int g = at < 0 ? -at : 0; g < R52_COPY_GROUPS(up, k); g++)
		W[at + g] = _mm512_madd52hi_epu64(W[at + g], D,
						  _mm512_loadu_si512(R52_PAIR_COPY(X, up, g)));
}

/*
 * The reduction of both halves, two positions ahead.  At step j, per
 * half: t is position j's true value, ahead position j + 1's with every
 * term but step j's and the carry, and v (read from the vector before
 * step j's multiply-adds) position j + 2's with the terms of the rows and
 * of steps before j.  With y' = y * 2^12 (one imul, no mask):
 *   y      = t k0 mod 2^52
 *   t'     = (t + lo(m_0 y)) >> 52 + hi(m_0 y) + lo(m_1 y) + ahead
 *   ahead' = v + lo(m_2 y) + hi(m_1 y)
 * hi(m_i y) the high word of m_i y', lo(m_i y) its low word >> 12; the
 * carry is ceil(t / 2^52), as t + lo(m_0 y) == 0 mod 2^52
 * (r52_retired_carry).  So y waits on scalar products only; the read at
 * step j waits on step j - 1's multiply-adds and is needed at step j + 1
 * (through ahead), where a read one position ahead is needed at step j
 * itself: two steps of the scalar chain, not one, to hide the broadcast,
 * the multiply-adds and the read.  Every term also goes into the vector (the
 * result's positions above j + 2 take them from there).
 */
struct r52_pair_reduction {
	uint64_t t[2], ahead[2], m0[2], m1[2], m2[2], k0_12[2];
};

R52_INLINE void r52_pair_reduction_start(struct r52_pair_reduction *st,
					 const struct big_r52_dual_mod *mod, const int k)
{
	for (int h = 0; h < 2; h++) {
		st->m0[h] = mod->m[BIG_R52_AT(h, 0)];
		st->m1[h] = k > 1 ? mod->m[BIG_R52_AT(h, 1)] : 0;
		st->m2[h] = k > 2 ? mod->m[BIG_R52_AT(h, 2)] : 0;
		st->k0_12[h] = mod->k0[h] << 12;
	}
}

/* Step j with v[h] as above; returns y of each half in its lanes. */
R52_INLINE __m512i r52_pair_reduce(struct r52_pair_reduction *st, const uint64_t v[2])
{
	uint64_t y[2];
	R52_UNROLL
	for (int h = 0; h < 2; h++) {
		const uint64_t t = st->t[h];
		const uint64_t carry = r52_retired_carry(t);
		const uint64_t y12 = t * st->k0_12[h];
		const uint64_t hi_m0y = (uint64_t)(r52_prod(st->m0[h], y12) >> 64);
		const unsigned __int128 m1y = r52_prod(st->m1[h], y12);

		y[h] = y12 >> 12;
		st->t[h] = carry + hi_m0y + ((uint64_t)m1y >> 12) + st->ahead[h];
		st->ahead[h] = v[h] + ((st->m2[h] * y12) >> 12) + (uint64_t)(m1y >> 64);
	}
	return _mm512_mask_blend_epi64(0xf0, _mm512_set1_epi64((long long)y[0]),
				       _mm512_set1_epi64((long long)y[1]));
}

/* v = lane l of each half of x, through memory: the stores forward to
 * the loads, and take no uop from port 5, which the multiply-adds, the
 * broadcasts and the scalar high products share (a rotation and a move
 * a half otherwise).  One 32-byte store a half: Intel's cores forward a
 * 64-byte store to an 8-byte load from its low 32 bytes only, and half
 * q's load waited for the store to retire, on the chain (the 20-digit
 * kernels' R52_SLOT_STORE says the same); the loads are volatile so that
 * GCC keeps them (it folds a store and a load of one variable back into
 * lane rotations).  The dual exponentiation at 30 and 40 digits took
 * 0.94 of its time with a 64-byte store (docs/design-notes.md). */
R52_INLINE void r52_pair_read(uint64_t v[2], __m512i x, int l)
{
	uint64_t lanes[2 * BIG_R52_LANES] __attribute__((aligned(64)));
	_mm256_storeu_si256((__m256i *)lanes, _mm512_castsi512_si256(x));
	_mm256_storeu_si256((__m256i *)(lanes + BIG_R52_LANES), _mm512_extracti64x4_epi64(x, 1));
	v[0] = ((volatile const uint64_t *)lanes)[l];
	v[1] = ((volatile const uint64_t *)lanes)[BIG_R52_LANES + l];
}

/* r = positions k .. 2k - 1 of each half, normalised, from the window W
 * (slot g holding group k / 4 + g) and position k's true value t[h]. */
R52_INLINE void r52_pair_take_high(uint64_t *r, const __m512i *W, const uint64_t t[2],
				   const int k)
{
	const int G = BIG_R52_GROUPS(k), s = k % 4;
	const __m512i digit_max = _mm512_set1_epi64((long long)BIG_R52_DIGIT_MASK);
	const __m512i one = _mm512_set1_epi64(1);
	__m512i U[BIG_R52_MAX_GROUPS];
	R52_UNROLL
	for (int g = 0; g < G; g++)
		U[g] = s == 0 ? W[g] : r52_pair_shift_up(W[g + 1], W[g], 4 - s);
	U[0] = _mm512_mask_set1_epi64(_mm512_mask_set1_epi64(U[0], 0x01, (long long)t[0]), 0x10,
				      (long long)t[1]);
	/* r52_normalise on both halves at once: each half's carries ripple
	 * through its own mask words */
	__m512i carries_below = _mm512_setzero_si512();
	uint64_t gen[2] = { 0, 0 }, prop[2] = { 0, 0 };
	R52_UNROLL
	for (int g = 0; g < G; g++) {
		const __m512i c = _mm512_srli_epi64(U[g], 52);
		U[g] = _mm512_add_epi64(_mm512_and_si512(U[g], digit_max),
					r52_pair_shift_up(c, carries_below, 1));
		carries_below = c;
		const unsigned gm = _mm512_cmpgt_epu64_mask(U[g], digit_max);
		const unsigned pm = _mm512_cmpeq_epu64_mask(U[g], digit_max);
		R52_UNROLL
		for (int h = 0; h < 2; h++) {
			gen[h] |= (uint64_t)((gm >> (BIG_R52_LANES * h)) & 0xf) << (BIG_R52_LANES * g);
			prop[h] |= (uint64_t)((pm >> (BIG_R52_LANES * h)) & 0xf) << (BIG_R52_LANES * g);
		}
	}
	const uint64_t carry_in[2] = { ((gen[0] << 1) + prop[0]) ^ prop[0],
				       ((gen[1] << 1) + prop[1]) ^ prop[1] };
	R52_UNROLL
	for (int g = 0; g < G; g++) {
		const __mmask8 m = (__mmask8)(((carry_in[0] >> (BIG_R52_LANES * g)) & 0xf) |
					      (((carry_in[1] >> (BIG_R52_LANES * g)) & 0xf) << 4));
		_mm512_storeu_si512(r + 2 * BIG_R52_LANES * g,
				    _mm512_and_si512(_mm512_mask_add_epi64(U[g], m, U[g], one),
						     digit_max));
	}
}

/* Reduction step 4q + s - 2 of pass q: position 4q + s read from x (the
 * window's lowest group, all of its sum), then the step's row into R,
 * from the slot below the window (left out) where the step's group
 * is q - 1. */
R52_INLINE void r52_pair_step(__m512i *R, const uint64_t *M, struct r52_pair_reduction *st,
			      __m512i x, int s, const int k)
{
	uint64_t v[2];
	r52_pair_read(v, x, s);
	r52_pair_row(R, M, r52_pair_reduce(st, v), (s + 2) % 4, s < 2 ? -1 : 0, k);
}

/* The last step, k - 1, which reads nothing (slot g is group k / 4 + g). */
R52_INLINE void r52_pair_last_step(__m512i *R, const uint64_t *M,
				   struct r52_pair_reduction *st, const int k)
{
	const uint64_t v[2] = { 0, 0 };
	r52_pair_row(R, M, r52_pair_reduce(st, v), (k - 1) % 4, (k - 1) / 4 - k / 4, k);
}

/* The window W[0..G] up one group. */
R52_INLINE void r52_pair_window_up(__m512i *W, const int G)
{
	R52_UNROLL
	for (int g = 0; g < G; g++)
		W[g] = W[g + 1];
	W[G] = _mm512_setzero_si512();
}

/* Pass q runs, for s = 0..3, row i = 4q + s and then reduction step
 * i - 2 (which reads position i, complete once row i is in); slot g of
 * the windows holds group q + g.  Groups below q hold positions the
 * scalar chain has taken (never read again), so G + 1 registers hold
 * every live group, and the pass's addresses (the copies) do not move,
 * only b's digits and y do.  The rows accumulate in P and the reduction
 * in R: a row waits on nothing, and only R's multiply-adds wait on y. */
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
	r52_pair_reduction_start(&st, mod, k);
	R52_UNROLL
	for (int g = 0; g <= G; g++)
		P[g] = R[g] = _mm512_setzero_si512();
	for (int q = 0; q <= last; q++) {
		const __m512i bq = q < G ? _mm512_loadu_si512(b + 2 * BIG_R52_LANES * q)
					 : _mm512_setzero_si512();
		R52_UNROLL
		for (int s = 0; s < 4; s++) {
			const int i = 4 * q + s;
			if (i < k)
				r52_pair_row(P, A, _mm512_permutexvar_epi64(
					_mm512_set_epi64(4 + s, 4 + s, 4 + s, 4 + s, s, s, s, s), bq),
					s, 0, k);
			if (i < 2)
				r52_pair_read(i ? st.ahead : st.t, P[0], s);
			else if (i <= k)
				r52_pair_step(R, M, &st, _mm512_add_epi64(P[0], R[0]), s, k);
		}
		if (q == last)
			break;
		r52_pair_window_up(P, G);
		r52_pair_window_up(R, G);
	}
	r52_pair_last_step(R, M, &st, k);
	R52_UNROLL
	for (int g = 0; g <= G; g++)
		P[g] = _mm512_add_epi64(P[g], R[g]);
	r52_pair_take_high(r, P, st.t, k);
}

/* The dual squaring on pair groups: r52_square_product's rows (each cross
 * product once, doubled, then the squares) on zmm pair groups into 2G
 * registers, fully unrolled (a triangle: the rows' lengths differ), then
 * r52_mul_pairs's reduction passes with the square in memory in place of
 * its row window.  The same words as r52_mul_pairs(r, a, a); the lane
 * bound is r52_sqr_body's. */
#define R52_SQR_PAIRS r52_sqr_pairs

/* Copy s of x's pair copies X where s = 4 is copy 0 one group up. */
R52_INLINE __m512i r52_pair_copy_at(const uint64_t *X, int s, int g)
{
	if (s < 4)
		return _mm512_loadu_si512(R52_PAIR_COPY(X, s, g));
	return g > 0 ? _mm512_loadu_si512(R52_PAIR_COPY(X, 0, g - 1)) : _mm512_setzero_si512();
}

/* T[0..2G) = a * a in each half, A a's pair copies. */
R52_INLINE void r52_pair_square_product(__m512i *T, const uint64_t *A, const uint64_t *a,
					const int k)
{
	const int G = BIG_R52_GROUPS(k);
	R52_UNROLL
	for (int g = 0; g < 2 * G; g++)
		T[g] = _mm512_setzero_si512();
	R52_UNROLL
	for (int i = 0; i + 1 < k; i++) {
		const int q = i / 4, s = i % 4;
		const __m512i X = _mm512_permutexvar_epi64(
			_mm512_set_epi64(4 + s, 4 + s, 4 + s, 4 + s, s, s, s, s),
			_mm512_loadu_si512(a + 2 * BIG_R52_LANES * q));
		const int lo_first = q + s / 2, hi_first = q + (s + 1) / 2;
		const int lo_last = (k - 1 + s) / 4, hi_last = (k + s) / 4;

		T[q + lo_first] = _mm512_mask_madd52lo_epu64(T[q + lo_first],
							     (__mmask8)((s & 1) ? 0x88 : 0xee), X,
							     r52_pair_copy_at(A, s, lo_first));
		R52_UNROLL
		for (int g = lo_first + 1; g <= lo_last; g++)
			T[q + g] = _mm512_madd52lo_epu64(T[q + g], X, r52_pair_copy_at(A, s, g));
		T[q + hi_first] = _mm512_mask_madd52hi_epu64(T[q + hi_first],
							     (__mmask8)((s & 1) ? 0xff : 0xcc), X,
							     r52_pair_copy_at(A, s + 1, hi_first));
		R52_UNROLL
		for (int g = hi_first + 1; g <= hi_last; g++)
			T[q + g] = _mm512_madd52hi_epu64(T[q + g], X, r52_pair_copy_at(A, s + 1, g));
	}
	const __m512i even = _mm512_set_epi64(13, 5, 12, 4, 9, 1, 8, 0);
	const __m512i odd = _mm512_set_epi64(15, 7, 14, 6, 11, 3, 10, 2);
	R52_UNROLL
	for (int g = 0; g < G; g++) {
		const __m512i x = _mm512_loadu_si512(a + 2 * BIG_R52_LANES * g);
		const __m512i lo = _mm512_madd52lo_epu64(_mm512_setzero_si512(), x, x);
		const __m512i hi = _mm512_madd52hi_epu64(_mm512_setzero_si512(), x, x);
		T[2 * g] = _mm512_add_epi64(_mm512_add_epi64(T[2 * g], T[2 * g]),
					    _mm512_permutex2var_epi64(lo, even, hi));
		T[2 * g + 1] = _mm512_add_epi64(_mm512_add_epi64(T[2 * g + 1], T[2 * g + 1]),
						_mm512_permutex2var_epi64(lo, odd, hi));
	}
}

R52_INLINE void r52_sqr_pairs(uint64_t *r, const uint64_t *a,
			      const struct big_r52_dual_mod *mod, const int k)
{
	/* radix52.h's contract, for GCC's bounds on the run-time k */
	if (k < 1 || k > BIG_R52_MAX_DIGITS)
		__builtin_unreachable();
	const int G = BIG_R52_GROUPS(k), last = k / 4;
	uint64_t A[R52_PAIR_COPY_WORDS] __attribute__((aligned(64)));
	uint64_t M[R52_PAIR_COPY_WORDS] __attribute__((aligned(64)));
	uint64_t S[2 * BIG_R52_PAIR_MAX_WORDS] __attribute__((aligned(64)));
	/* one spare slot: GCC cannot bound the window's indices */
	__m512i R[BIG_R52_MAX_GROUPS + 2];
	struct r52_pair_reduction st;

	r52_pair_copies(A, a, G);
	{
		__m512i T[2 * BIG_R52_MAX_GROUPS];
		r52_pair_square_product(T, A, a, k);
		R52_UNROLL
		for (int g = 0; g < 2 * G; g++)
			_mm512_storeu_si512(S + 2 * BIG_R52_LANES * g, T[g]);
	}
	r52_pair_copies(M, mod->m, G);
	r52_pair_reduction_start(&st, mod, k);
	R52_UNROLL
	for (int g = 0; g <= G; g++)
		R[g] = _mm512_setzero_si512();
	for (int h = 0; h < 2; h++) {
		st.t[h] = S[BIG_R52_AT(h, 0)];
		st.ahead[h] = S[BIG_R52_AT(h, 1)];
	}
	for (int q = 0; q <= last; q++) {
		const __m512i Sq = _mm512_loadu_si512(S + 2 * BIG_R52_LANES * q);
		R52_UNROLL
		for (int s = 0; s < 4; s++) {
			if (4 * q + s < 2 || 4 * q + s > k)
				continue;
			r52_pair_step(R, M, &st, _mm512_add_epi64(Sq, R[0]), s, k);
		}
		if (q == last)
			break;
		r52_pair_window_up(R, G);
	}
	r52_pair_last_step(R, M, &st, k);
	R52_UNROLL
	for (int g = 0; g <= G; g++)
		if (last + g < 2 * G)
			R[g] = _mm512_add_epi64(R[g], _mm512_loadu_si512(S + 2 * BIG_R52_LANES * (last + g)));
	r52_pair_take_high(r, R, st.t, k);
}
#endif

#include "dual_pow_impl.h"

#endif
