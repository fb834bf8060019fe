/*
 * bench/spike/vsqr_avx2.c -- spike, not part of the library or its build:
 * a vertical-layout AVX2 Montgomery squaring of TWO numbers (the two CRT
 * halves, each with its own modulus) in one instruction stream, checked
 * against GMP and timed against two calls of big_mont_sqr_vec_adx.  The
 * findings are in docs/design-notes.md ("A vertical AVX2 squaring for the
 * single operation").
 *
 * Build (from the worktree root; links the adx kernels of an existing
 * chunk64-asm build, here /work/main/build/chunk64-asm):
 *   gcc -O2 -mavx2 -mbmi2 -o /tmp/vsqr bench/spike/vsqr_avx2.c \
 *       /work/main/build/chunk64-asm/bignum/libbigmont_bignum.a -lgmp
 * Run:
 *   taskset -c 1 /tmp/vsqr [trials [seed]]   (default 400 trials, seed 44)
 * It checks every full variant against GMP first (no timing if one
 * fails), then prints core cycles for each variant beside two adx calls.
 *
 * The math.  A half of b bits is held in N digits of radix 2^28 with
 * R = 2^(28 N) > 4w, w the modulus reduced by, and the almost-Montgomery
 * square of a < 2w,
 *   r = (a^2 + M w) / R  with  M = -a^2 w^-1 mod R,
 * is < 4w^2 / R + w < 2w: the output can be the next input, no final
 * subtraction.  Digits sit in the 64-bit lanes of ymm registers, four
 * consecutive digits a ymm ("block"), one number per buffer.
 *   - "modulus n": w = n, N = ceil((b + 2) / 28) (37, 55, 74), and each
 *     Montgomery digit is m = u k0 mod 2^28, k0 = -n^-1 mod 2^28.
 *   - "n k0": w = n k0, which is -1 mod 2^28, so m = u mod 2^28 and the
 *     carry out of the column is floor(u / 2^28) + m: no multiply on the
 *     chain for m.  w has 28 bits more: N = ceil((b + 30) / 28) (38, 56,
 *     75); r == a^2 R^-1 mod n still, a last reduction mod n at the end
 *     of an exponentiation would bring it below n.
 *
 * Squaring, per number:
 *   a^2 = sum_i a_i^2 2^(56 i) + sum_{i<j} (2 a_i) a_j 2^(28 (i + j)).
 * Row i = 4g + s multiplies broadcast(a_i) with the doubled operand
 * shifted up by s digits, block b': lane l holds j = 4b' - s + l and the
 * product lands in column i + j = 4(g + b') + l, so every row adds to
 * whole output blocks without a lane shuffle.  Lanes with j <= i are
 * masked (in blocks b' = g and g + 1 only).  The squares a_i^2 come from
 * one vpmuludq of a block with itself, spread to even columns by a vpermq
 * and a mask.  Variants: by output block (sqr_product: one accumulator,
 * the shifted operand an unaligned load), by rows of four with aligned
 * shifted copies made first (sqr_product_rows, unrolled; inline or one
 * out-of-line call per number), the same as a compact loop
 * (sqr_product_loop), and the loop with unaligned loads instead of copies
 * and 2 a_i broadcast (sqr_product_loop2).
 *
 * Reduction, the two numbers interleaved, four Montgomery digits at a
 * time: for the block g of columns 4g..4g+3 the scalar code forms
 * m_{4g..4g+3} (the in-block triangle m_r n_{c-r} in imul), then the
 * vector code adds m_r * (n shifted up by r digits) to blocks g+1..
 * (precomputed shifted copies of n, per key).  Block g+1 is updated
 * first and its four lanes go to the scalar code of the next group, which
 * is issued before the rest of this group's blocks.  Variants: the next
 * chain spread one step per block (redc_pipelined), block g+1's share of
 * group g computed in scalar so no vector result is on the chain
 * (redc_ahead), the lanes read back by scalar loads (PHASE_LANES_MEM),
 * the next group's broadcasts and first block placed amid this group's
 * blocks (redc_skew, SKEW_SPLIT blocks before them; 16 broadcasts live).
 * And the halves staggered (stagger_phase): each call is two phases, one
 * reducing A while forming B's product as filler, the other reducing B
 * while forming the product of A's new value, which the next call
 * reduces (vsqr2_prime sets that up before a chain of calls).
 * The PHASE_ flags also time the parts alone; those marked timing only
 * cut the chain and give wrong results.
 *
 * Carry bounds (lazy columns in 64-bit lanes): digits < 2^28, products
 * < 2^57 (2 a_i a_j).  A column of a^2 is at most N products of
 * (2^28 - 1)^2 counting a doubled one twice, the reduction adds at most
 * N more, and the scalar carries are < 2^37: a column stays below
 * 2 * 75 * 2^56 + 2^37 < 2^63.3 at N = 75.  After the last group one
 * serial carry pass brings columns N..2N-1 back to digits < 2^28 (the
 * output < 2w < 2^(28 N), so nothing is left over).
 */
#define _GNU_SOURCE
#include <gmp.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#include <cpuid.h>

void big_mont_sqr_vec_adx(uint64_t *r, const uint64_t *a, const uint64_t *n, uint64_t n0, int len);

#define RADIX_BITS 28
#define DIGIT_MASK ((1ULL << RADIX_BITS) - 1)
#define MAX_N 75
#define MAX_B 20                       /* ceil((MAX_N + 3) / 4) */
#define PHASE_PRODUCT 1
#define PHASE_REDC 2
#define PHASE_CARRY 4
#define PHASE_ALL 7
#define PHASE_PRODUCT_ROWS 8
#define PHASE_NOCHAIN 16 /* timing only: the m chain reads no column (wrong results) */
#define PHASE_ONE 32     /* timing only: the reduction of the first number alone */
#define PHASE_NOSCALAR 64 /* timing only: no m chain at all, the vector passes alone */
#define PHASE_NOFEED 256 /* timing only: the carry pass writes scratch, not the operand */
#define PHASE_PRODUCT_CALL 512 /* the product of each number by one out-of-line call (half the code) */
#define PHASE_PRODUCT_LOOP 1024 /* the product as one compact loop */
#define PHASE_PRODUCT_LOOP2 2048 /* the product as a loop without copies */
#define PHASE_PIPE 4096 /* the reduction with the chain spread over the blocks (friendly only) */
#define PHASE_AHEAD 8192 /* the reduction with block g+1's share in scalar (friendly only) */
#define PHASE_LANES_MEM 16384 /* the chain reads its lanes by scalar loads of the stored block */
#define PHASE_SKEW 32768 /* the next group's vector steps amid this group's blocks (friendly only) */
#ifndef SKEW_SPLIT
#define SKEW_SPLIT 3
#endif
#ifndef STAGGER_SPLIT
#define STAGGER_SPLIT 2
#endif
#define PHASE_FRIENDLY 128 /* the key holds n' = n k0 (n' = -1 mod 2^28): m = u mod 2^28 */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* One number's key data: immutable once set up. */
struct vkey {
	uint64_t nsh[4][4 * MAX_B] __attribute__((aligned(32))); /* n shifted up by r digits */
	uint64_t n[MAX_N];
	uint64_t k0;                   /* -n^-1 mod 2^28 */
};

/* One number's operand: digits at a[4..4+N), zeros around (the shifted loads read them). */
struct vnum {
	uint64_t a[4 + 4 * MAX_B + 4] __attribute__((aligned(32)));
};

/* Scratch of one squaring of one number. */
struct vscratch {
	uint64_t a2[4 + 4 * MAX_B + 4] __attribute__((aligned(32)));
	uint64_t ysh[4][4 * MAX_B + 4] __attribute__((aligned(32))); /* 2a shifted up by s digits */
	uint64_t t[4 * (2 * MAX_B + 2)] __attribute__((aligned(32)));
};

/* t[0..2B) blocks = a^2 (lazy columns). */
ALWAYS_INLINE void sqr_product(uint64_t *t, uint64_t *a2, const uint64_t *a, const int N, const int B)
{
	const __m256i zero = _mm256_setzero_si256();
	const __m256i keep_above0 = _mm256_set_epi64x(-1, -1, -1, 0);  /* lanes > 0 */
	const __m256i keep_above2 = _mm256_set_epi64x(-1, 0, 0, 0);    /* lanes > 2 */
	const __m256i even_lanes = _mm256_set_epi64x(0, -1, 0, -1);
#pragma GCC unroll 32
	for (int b = 0; b < B + 1; b++) {
		__m256i x = _mm256_load_si256((const __m256i *)(a + 4 * b));
		_mm256_store_si256((__m256i *)(a2 + 4 * b), _mm256_add_epi64(x, x));
	}
	_mm256_store_si256((__m256i *)(a2 + 4 * (B + 1)), zero);
	const uint64_t *ad = a + 4, *a2d = a2 + 4;
#pragma GCC unroll 64
	for (int k = 0; k < 2 * B; k++) {
		__m256i acc0 = zero, acc1 = zero;
		int g0 = k - (B - 1);
		if (g0 < 0)
			g0 = 0;
#pragma GCC unroll 64
		for (int g = g0; 2 * g <= k; g++) {
			const int bp = k - g;
#pragma GCC unroll 4
			for (int s = 0; s < 4; s++) {
				const int i = 4 * g + s;
				if (i >= N)
					break;
				if (bp == g && s >= 2)
					continue;
				__m256i y = _mm256_loadu_si256((const __m256i *)(a2d + 4 * bp - s));
				__m256i p = _mm256_mul_epu32(_mm256_set1_epi64x((long long)ad[i]), y);
				if (bp == g)
					p = _mm256_and_si256(p, s == 0 ? keep_above0 : keep_above2);
				else if (bp == g + 1 && s >= 2)
					p = _mm256_and_si256(p, s == 2 ? keep_above0 : keep_above2);
				if (s & 1)
					acc1 = _mm256_add_epi64(acc1, p);
				else
					acc0 = _mm256_add_epi64(acc0, p);
			}
		}
		const int c = k >> 1;
		if (4 * c < N) {
			__m256i x = _mm256_load_si256((const __m256i *)(ad + 4 * c));
			__m256i sq = _mm256_mul_epu32(x, x);
			__m256i d = (k & 1) ? _mm256_permute4x64_epi64(sq, 0xfa)  /* 2,2,3,3 */
					    : _mm256_permute4x64_epi64(sq, 0x50); /* 0,0,1,1 */
			acc0 = _mm256_add_epi64(acc0, _mm256_and_si256(d, even_lanes));
		}
		_mm256_store_si256((__m256i *)(t + 4 * k), _mm256_add_epi64(acc0, acc1));
	}
	_mm256_store_si256((__m256i *)(t + 8 * B), zero);
	_mm256_store_si256((__m256i *)(t + 8 * B + 4), zero);
}

/*
 * The same a^2 by rows of four (operand scanning): the four broadcasts of
 * a group stay in registers for all its blocks, the shifted doubled
 * operands are aligned copies made first (4 B stores), and each output
 * block is loaded, takes up to four products and a diagonal, and is
 * stored (its first touch starts from zero).
 */
ALWAYS_INLINE void sqr_product_rows(uint64_t *t, uint64_t ysh[4][4 * MAX_B + 4], const uint64_t *a, const int N,
				    const int B)
{
	const __m256i zero = _mm256_setzero_si256();
	const __m256i keep_above0 = _mm256_set_epi64x(-1, -1, -1, 0);
	const __m256i keep_above2 = _mm256_set_epi64x(-1, 0, 0, 0);
	const __m256i even_lanes = _mm256_set_epi64x(0, -1, 0, -1);
	const uint64_t *ad = a + 4;
	const int G = (N + 3) / 4;
#pragma GCC unroll 4
	for (int s = 0; s < 4; s++) {
#pragma GCC unroll 32
		for (int b = 0; b < B; b++) {
			__m256i x = _mm256_loadu_si256((const __m256i *)(ad + 4 * b - s));
			_mm256_store_si256((__m256i *)(ysh[s] + 4 * b), _mm256_add_epi64(x, x));
		}
	}
#pragma GCC unroll 32
	for (int g = 0; g < G; g++) {
		__m256i bc[4];
#pragma GCC unroll 4
		for (int s = 0; s < 4; s++)
			bc[s] = _mm256_set1_epi64x((long long)(4 * g + s < N ? ad[4 * g + s] : 0));
		__m256i x = _mm256_load_si256((const __m256i *)(ad + 4 * g));
		__m256i sq = _mm256_mul_epu32(x, x);
		__m256i d_even = _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0x50), even_lanes);
		__m256i d_odd = _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0xfa), even_lanes);
#pragma GCC unroll 32
		for (int bp = g; bp < B; bp++) {
			const int k = g + bp;
			const int first = g == (k - (B - 1) > 0 ? k - (B - 1) : 0);
			__m256i acc = first ? zero : _mm256_load_si256((const __m256i *)(t + 4 * k));
			__m256i acc1 = zero;
#pragma GCC unroll 4
			for (int s = 0; s < 4; s++) {
				if (4 * g + s >= N || (bp == g && s >= 2))
					continue;
				__m256i p = _mm256_mul_epu32(bc[s], _mm256_load_si256((const __m256i *)(ysh[s] + 4 * bp)));
				if (bp == g)
					p = _mm256_and_si256(p, s == 0 ? keep_above0 : keep_above2);
				else if (bp == g + 1 && s >= 2)
					p = _mm256_and_si256(p, s == 2 ? keep_above0 : keep_above2);
				if (s & 1)
					acc1 = _mm256_add_epi64(acc1, p);
				else
					acc = _mm256_add_epi64(acc, p);
			}
			if (bp == g)
				acc = _mm256_add_epi64(acc, d_even);
			if (bp == g + 1)
				acc = _mm256_add_epi64(acc, d_odd);
			_mm256_store_si256((__m256i *)(t + 4 * k), _mm256_add_epi64(acc, acc1));
		}
		if (g + 1 >= B) { /* the odd diagonal block has no row block of its own */
			__m256i y = _mm256_load_si256((const __m256i *)(t + 4 * (2 * g + 1)));
			_mm256_store_si256((__m256i *)(t + 4 * (2 * g + 1)), _mm256_add_epi64(y, d_odd));
		}
	}
	/* Blocks no row reaches (k > G - 1 + B - 1) are zero. */
#pragma GCC unroll 8
	for (int k = G + B - 1; k < 2 * B + 2; k++)
		_mm256_store_si256((__m256i *)(t + 4 * k), zero);
}

/*
 * The rows' product as a compact loop (one body for the unmasked blocks,
 * the two masked ones and the diagonals per group): same sums as
 * sqr_product_rows, with t zeroed first instead of first touches.
 */
static void __attribute__((noinline)) sqr_product_loop(uint64_t *t, uint64_t ysh[4][4 * MAX_B + 4], const uint64_t *a,
							 const int N, const int B)
{
	const __m256i zero = _mm256_setzero_si256();
	const __m256i keep_above0 = _mm256_set_epi64x(-1, -1, -1, 0);
	const __m256i keep_above2 = _mm256_set_epi64x(-1, 0, 0, 0);
	const __m256i even_lanes = _mm256_set_epi64x(0, -1, 0, -1);
	const uint64_t *ad = a + 4;
	const int G = (N + 3) / 4;
	for (int b = 0; b < B; b++) {
		__m256i x0 = _mm256_load_si256((const __m256i *)(ad + 4 * b));
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(ad + 4 * b - 1));
		__m256i x2 = _mm256_loadu_si256((const __m256i *)(ad + 4 * b - 2));
		__m256i x3 = _mm256_loadu_si256((const __m256i *)(ad + 4 * b - 3));
		_mm256_store_si256((__m256i *)(ysh[0] + 4 * b), _mm256_add_epi64(x0, x0));
		_mm256_store_si256((__m256i *)(ysh[1] + 4 * b), _mm256_add_epi64(x1, x1));
		_mm256_store_si256((__m256i *)(ysh[2] + 4 * b), _mm256_add_epi64(x2, x2));
		_mm256_store_si256((__m256i *)(ysh[3] + 4 * b), _mm256_add_epi64(x3, x3));
		_mm256_store_si256((__m256i *)(t + 8 * b), zero);
		_mm256_store_si256((__m256i *)(t + 8 * b + 4), zero);
	}
	_mm256_store_si256((__m256i *)(t + 8 * B), zero);
	_mm256_store_si256((__m256i *)(t + 8 * B + 4), zero);
	for (int s = 0; s < 4; s++)
		_mm256_store_si256((__m256i *)(ysh[s] + 4 * B), zero);
	for (int g = 0; g < G; g++) {
		const __m256i b0 = _mm256_set1_epi64x((long long)ad[4 * g]);
		const __m256i b1 = _mm256_set1_epi64x((long long)ad[4 * g + 1]);
		const __m256i b2 = _mm256_set1_epi64x((long long)ad[4 * g + 2]);
		const __m256i b3 = _mm256_set1_epi64x((long long)ad[4 * g + 3]);
		__m256i x = _mm256_load_si256((const __m256i *)(ad + 4 * g));
		__m256i sq = _mm256_mul_epu32(x, x);
		__m256i *tk = (__m256i *)(t + 8 * g);
		/* bp = g: rows s = 0, 1 above the diagonal, and the even squares */
		__m256i acc = _mm256_add_epi64(_mm256_load_si256(tk),
					       _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0x50), even_lanes));
		acc = _mm256_add_epi64(acc, _mm256_and_si256(keep_above0, _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)(ysh[0] + 4 * g)))));
		acc = _mm256_add_epi64(acc, _mm256_and_si256(keep_above2, _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(ysh[1] + 4 * g)))));
		_mm256_store_si256(tk, acc);
		/* bp = g + 1 (ysh has a zero block at B): rows 2, 3 masked, the odd squares */
		tk++;
		const uint64_t *y = ysh[0] + 4 * (g + 1);
		acc = _mm256_add_epi64(_mm256_load_si256(tk),
				       _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0xfa), even_lanes));
		__m256i p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
		__m256i p1 = _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(y + 4 * MAX_B + 4)));
		__m256i p2 = _mm256_and_si256(keep_above0, _mm256_mul_epu32(b2, _mm256_load_si256((const __m256i *)(y + 8 * MAX_B + 8))));
		__m256i p3 = _mm256_and_si256(keep_above2, _mm256_mul_epu32(b3, _mm256_load_si256((const __m256i *)(y + 12 * MAX_B + 12))));
		acc = _mm256_add_epi64(_mm256_add_epi64(acc, p0), _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
		_mm256_store_si256(tk, acc);
		for (int bp = g + 2; bp < B; bp++) {
			tk++;
			y += 4;
			p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
			p1 = _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(y + 4 * MAX_B + 4)));
			p2 = _mm256_mul_epu32(b2, _mm256_load_si256((const __m256i *)(y + 8 * MAX_B + 8)));
			p3 = _mm256_mul_epu32(b3, _mm256_load_si256((const __m256i *)(y + 12 * MAX_B + 12)));
			acc = _mm256_add_epi64(_mm256_add_epi64(_mm256_load_si256(tk), p0),
					       _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
			_mm256_store_si256(tk, acc);
		}
	}
}

/*
 * The loop without copies: the row digit is broadcast doubled (2 a_i) and
 * the shifted operand is an unaligned load of a itself; the first group
 * masks what it loads of t instead of t being zeroed, only t's blocks
 * B.. are zeroed.
 */
static void __attribute__((noinline)) sqr_product_loop2(uint64_t *t, const uint64_t *a, const int N, const int B)
{
	const __m256i zero = _mm256_setzero_si256();
	const __m256i keep_above0 = _mm256_set_epi64x(-1, -1, -1, 0);
	const __m256i keep_above2 = _mm256_set_epi64x(-1, 0, 0, 0);
	const __m256i even_lanes = _mm256_set_epi64x(0, -1, 0, -1);
	const uint64_t *ad = a + 4;
	const int G = (N + 3) / 4;
	for (int k = B; k < 2 * B + 2; k++)
		_mm256_store_si256((__m256i *)(t + 4 * k), zero);
	for (int g = 0; g < G; g++) {
		const __m256i keep_t = g ? _mm256_set1_epi64x(-1) : zero;
		const __m256i b0 = _mm256_set1_epi64x((long long)(2 * ad[4 * g]));
		const __m256i b1 = _mm256_set1_epi64x((long long)(2 * ad[4 * g + 1]));
		const __m256i b2 = _mm256_set1_epi64x((long long)(2 * ad[4 * g + 2]));
		const __m256i b3 = _mm256_set1_epi64x((long long)(2 * ad[4 * g + 3]));
		const uint64_t *y = ad + 4 * g;
		__m256i x = _mm256_load_si256((const __m256i *)y);
		__m256i sq = _mm256_mul_epu32(x, x);
		__m256i *tk = (__m256i *)(t + 8 * g);
		__m256i acc = _mm256_add_epi64(_mm256_and_si256(keep_t, _mm256_load_si256(tk)),
					       _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0x50), even_lanes));
		acc = _mm256_add_epi64(acc, _mm256_and_si256(keep_above0, _mm256_mul_epu32(b0, x)));
		acc = _mm256_add_epi64(acc, _mm256_and_si256(keep_above2, _mm256_mul_epu32(b1, _mm256_loadu_si256((const __m256i *)(y - 1)))));
		_mm256_store_si256(tk, acc);
		tk++;
		y += 4;
		acc = _mm256_add_epi64(_mm256_and_si256(keep_t, _mm256_load_si256(tk)),
				       _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0xfa), even_lanes));
		__m256i p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
		__m256i p1 = _mm256_mul_epu32(b1, _mm256_loadu_si256((const __m256i *)(y - 1)));
		__m256i p2 = _mm256_and_si256(keep_above0, _mm256_mul_epu32(b2, _mm256_loadu_si256((const __m256i *)(y - 2))));
		__m256i p3 = _mm256_and_si256(keep_above2, _mm256_mul_epu32(b3, _mm256_loadu_si256((const __m256i *)(y - 3))));
		acc = _mm256_add_epi64(_mm256_add_epi64(acc, p0), _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
		_mm256_store_si256(tk, acc);
		for (int bp = g + 2; bp < B; bp++) {
			tk++;
			y += 4;
			p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
			p1 = _mm256_mul_epu32(b1, _mm256_loadu_si256((const __m256i *)(y - 1)));
			p2 = _mm256_mul_epu32(b2, _mm256_loadu_si256((const __m256i *)(y - 2)));
			p3 = _mm256_mul_epu32(b3, _mm256_loadu_si256((const __m256i *)(y - 3)));
			acc = _mm256_add_epi64(_mm256_add_epi64(_mm256_and_si256(keep_t, _mm256_load_si256(tk)), p0),
					       _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
			_mm256_store_si256(tk, acc);
		}
	}
}

static void __attribute__((noinline)) sqr_product_rows_call(uint64_t *t, uint64_t ysh[4][4 * MAX_B + 4],
								 const uint64_t *a, const int N)
{
	switch (N) {
	case 38: sqr_product_rows(t, ysh, a, 38, (38 + 6) / 4); break;
	case 56: sqr_product_rows(t, ysh, a, 56, (56 + 6) / 4); break;
	case 75: sqr_product_rows(t, ysh, a, 75, (75 + 6) / 4); break;
	default: abort();
	}
}

/* The scalar Montgomery digits of block g: u = the block's four columns. */
ALWAYS_INLINE void mont_digits(uint64_t m[4], uint64_t *carry, const uint64_t u_in[4],
			       const struct vkey *key, const int g, const int N, const int friendly)
{
	if (friendly) {
		/* n'_0 = 2^28 - 1: m = u mod 2^28 and (u + m n'_0) / 2^28 = floor(u / 2^28) + m. */
		const uint64_t n1 = key->n[1], n2 = key->n[2], n3 = key->n[3];
		uint64_t u0 = u_in[0] + *carry;
		uint64_t m0 = u0 & DIGIT_MASK;
		uint64_t c = (u0 >> RADIX_BITS) + m0;
		m[0] = m0;
		m[1] = m[2] = m[3] = 0;
		if (4 * g + 1 >= N) {
			*carry = c;
			return;
		}
		uint64_t u1 = u_in[1] + m0 * n1 + c;
		uint64_t m1 = u1 & DIGIT_MASK;
		c = (u1 >> RADIX_BITS) + m1;
		m[1] = m1;
		if (4 * g + 2 >= N) {
			*carry = c;
			return;
		}
		uint64_t u2 = u_in[2] + m0 * n2 + m1 * n1 + c;
		uint64_t m2 = u2 & DIGIT_MASK;
		c = (u2 >> RADIX_BITS) + m2;
		m[2] = m2;
		if (4 * g + 3 >= N) {
			*carry = c;
			return;
		}
		uint64_t u3 = u_in[3] + m0 * n3 + m1 * n2 + m2 * n1 + c;
		uint64_t m3 = u3 & DIGIT_MASK;
		m[3] = m3;
		*carry = (u3 >> RADIX_BITS) + m3;
		return;
	}
	const uint64_t k0 = key->k0, n0 = key->n[0], n1 = key->n[1], n2 = key->n[2], n3 = key->n[3];
	uint64_t u0 = u_in[0] + *carry;
	uint64_t m0 = (u0 * k0) & DIGIT_MASK;
	uint64_t c = (u0 + m0 * n0) >> RADIX_BITS;
	m[0] = m0;
	m[1] = m[2] = m[3] = 0;
	if (4 * g + 1 >= N) {
		*carry = c;
		return;
	}
	uint64_t u1 = u_in[1] + m0 * n1 + c;
	uint64_t m1 = (u1 * k0) & DIGIT_MASK;
	c = (u1 + m1 * n0) >> RADIX_BITS;
	m[1] = m1;
	if (4 * g + 2 >= N) {
		*carry = c;
		return;
	}
	uint64_t u2 = u_in[2] + m0 * n2 + m1 * n1 + c;
	uint64_t m2 = (u2 * k0) & DIGIT_MASK;
	c = (u2 + m2 * n0) >> RADIX_BITS;
	m[2] = m2;
	if (4 * g + 3 >= N) {
		*carry = c;
		return;
	}
	uint64_t u3 = u_in[3] + m0 * n3 + m1 * n2 + m2 * n1 + c;
	uint64_t m3 = (u3 * k0) & DIGIT_MASK;
	m[3] = m3;
	*carry = (u3 + m3 * n0) >> RADIX_BITS;
}

ALWAYS_INLINE void block_lanes(uint64_t u[4], __m256i v)
{
	__m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
	u[0] = (uint64_t)_mm_cvtsi128_si64(lo);
	u[1] = (uint64_t)_mm_extract_epi64(lo, 1);
	u[2] = (uint64_t)_mm_cvtsi128_si64(hi);
	u[3] = (uint64_t)_mm_extract_epi64(hi, 1);
}

/* t block (g + b) += sum_r m_r * nsh[r] block b; returns the new block. */
ALWAYS_INLINE __m256i redc_block(uint64_t *t, const struct vkey *key, const __m256i mb[4], int g, int b)
{
	__m256i x = _mm256_load_si256((const __m256i *)(t + 4 * (g + b)));
	__m256i p0 = _mm256_mul_epu32(mb[0], _mm256_load_si256((const __m256i *)(key->nsh[0] + 4 * b)));
	__m256i p1 = _mm256_mul_epu32(mb[1], _mm256_load_si256((const __m256i *)(key->nsh[1] + 4 * b)));
	__m256i p2 = _mm256_mul_epu32(mb[2], _mm256_load_si256((const __m256i *)(key->nsh[2] + 4 * b)));
	__m256i p3 = _mm256_mul_epu32(mb[3], _mm256_load_si256((const __m256i *)(key->nsh[3] + 4 * b)));
	x = _mm256_add_epi64(_mm256_add_epi64(x, p0), _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
	_mm256_store_si256((__m256i *)(t + 4 * (g + b)), x);
	return x;
}

ALWAYS_INLINE void broadcast4(__m256i mb[4], const uint64_t m[4])
{
	for (int r = 0; r < 4; r++)
		mb[r] = _mm256_set1_epi64x((long long)m[r]);
}

/*
 * One step r of the friendly m chain (n'_0 = -1 mod 2^28) of block g, as
 * a piece that can be placed between vector blocks: st->m[0..r) known,
 * st->u the block's lanes, st->c the carry in.
 */
struct chain_state {
	uint64_t u[4], m[4], c;
};

ALWAYS_INLINE void chain_step(struct chain_state *st, const struct vkey *key, const int g, const int r, const int N)
{
	if (4 * g + r >= N) {
		st->m[r] = 0;
		return;
	}
	uint64_t u = st->u[r] + st->c;
	if (r >= 1)
		u += st->m[r - 1] * key->n[1];
	if (r >= 2)
		u += st->m[r - 2] * key->n[2];
	if (r >= 3)
		u += st->m[r - 3] * key->n[3];
	const uint64_t m = u & DIGIT_MASK;
	st->m[r] = m;
	st->c = (u >> RADIX_BITS) + m;
}

/*
 * The reduction with the next group's chain spread over this group's
 * blocks 2.. in program order (step r after block 2 + r of both
 * numbers), so that the front end reaches it early.  Friendly keys only.
 */
ALWAYS_INLINE void redc_pipelined(struct vscratch *sa, struct vscratch *sb, const struct vkey *ka,
				  const struct vkey *kb, uint64_t *carry_a, uint64_t *carry_b, const int N)
{
	const int B = (N + 3 + 3) / 4;
	const int G = (N + 3) / 4;
	struct chain_state A = {{0}, {0}, 0}, Bs = {{0}, {0}, 0};
	__m256i va[4], vb[4];
	block_lanes(A.u, _mm256_load_si256((const __m256i *)sa->t));
	block_lanes(Bs.u, _mm256_load_si256((const __m256i *)sb->t));
	for (int r = 0; r < 4; r++) {
		chain_step(&A, ka, 0, r, N);
		chain_step(&Bs, kb, 0, r, N);
	}
	for (int g = 0; g < G; g++) {
		broadcast4(va, A.m);
		broadcast4(vb, Bs.m);
		const int last = g == G - 1;
		if (last && (N & 3)) {
			redc_block(sa->t, ka, va, g, 0);
			redc_block(sb->t, kb, vb, g, 0);
		}
		__m256i na = redc_block(sa->t, ka, va, g, 1);
		__m256i nb = redc_block(sb->t, kb, vb, g, 1);
		if (!last) {
			block_lanes(A.u, na);
			block_lanes(Bs.u, nb);
		}
#pragma GCC unroll 32
		for (int b = 2; b < B; b++) {
			redc_block(sa->t, ka, va, g, b);
			redc_block(sb->t, kb, vb, g, b);
			if (!last && b - 2 < 4) {
				chain_step(&A, ka, g + 1, b - 2, N);
				chain_step(&Bs, kb, g + 1, b - 2, N);
			}
		}
	}
	*carry_a = A.c;
	*carry_b = Bs.c;
}

/*
 * The reduction with the next block's share computed in scalar: group g's
 * contribution to block g+1 (all 16 products m_r n_{4+c-r}) is added to
 * the lanes the chain g+1 reads (block g+1 as group g-1 left it), so the
 * vector side adds only to blocks g+2.. and no vector result lies on the
 * chain's path except one group back.  The group before the last keeps
 * the vector update of block g+1 (its columns above N are output).
 */
ALWAYS_INLINE void lookahead(uint64_t u[4], const uint64_t m[4], const struct vkey *key)
{
	const uint64_t *n = key->n;
	u[0] += m[1] * n[3] + m[2] * n[2] + m[3] * n[1] + m[0] * n[4];
	u[1] += m[2] * n[3] + m[3] * n[2] + m[1] * n[4] + m[0] * n[5];
	u[2] += m[3] * n[3] + m[2] * n[4] + m[1] * n[5] + m[0] * n[6];
	u[3] += m[3] * n[4] + m[2] * n[5] + m[1] * n[6] + m[0] * n[7];
}

ALWAYS_INLINE void redc_ahead(struct vscratch *sa, struct vscratch *sb, const struct vkey *ka,
			      const struct vkey *kb, uint64_t *carry_a, uint64_t *carry_b, const int N)
{
	const int B = (N + 3 + 3) / 4;
	const int G = (N + 3) / 4;
	struct chain_state A = {{0}, {0}, 0}, Bs = {{0}, {0}, 0};
	__m256i va[4], vb[4];
	block_lanes(A.u, _mm256_load_si256((const __m256i *)sa->t));
	block_lanes(Bs.u, _mm256_load_si256((const __m256i *)sb->t));
	for (int r = 0; r < 4; r++) {
		chain_step(&A, ka, 0, r, N);
		chain_step(&Bs, kb, 0, r, N);
	}
	for (int g = 0; g < G; g++) {
		broadcast4(va, A.m);
		broadcast4(vb, Bs.m);
		const int last = g == G - 1;
		if (last && (N & 3)) {
			redc_block(sa->t, ka, va, g, 0);
			redc_block(sb->t, kb, vb, g, 0);
		}
		if (g >= G - 2) {
			__m256i na = redc_block(sa->t, ka, va, g, 1);
			__m256i nb = redc_block(sb->t, kb, vb, g, 1);
			if (!last) {
				block_lanes(A.u, na);
				block_lanes(Bs.u, nb);
			}
		} else {
			block_lanes(A.u, _mm256_load_si256((const __m256i *)(sa->t + 4 * (g + 1))));
			block_lanes(Bs.u, _mm256_load_si256((const __m256i *)(sb->t + 4 * (g + 1))));
			lookahead(A.u, A.m, ka);
			lookahead(Bs.u, Bs.m, kb);
		}
		if (!last)
			for (int r = 0; r < 4; r++) {
				chain_step(&A, ka, g + 1, r, N);
				chain_step(&Bs, kb, g + 1, r, N);
			}
#pragma GCC unroll 32
		for (int b = 2; b < B; b++) {
			redc_block(sa->t, ka, va, g, b);
			redc_block(sb->t, kb, vb, g, b);
		}
	}
	*carry_a = A.c;
	*carry_b = Bs.c;
}

/*
 * The reduction with the next group's vector steps on the chain (its
 * broadcasts, its first block, the lanes) placed in the middle of this
 * group's blocks in program order, so that they are older than the rest
 * of the bulk when their m arrive (the scheduler picks the oldest ready
 * op).  Friendly keys only; split = the bulk blocks before them.
 */
ALWAYS_INLINE void redc_skew(struct vscratch *sa, struct vscratch *sb, const struct vkey *ka,
			     const struct vkey *kb, uint64_t *carry_a, uint64_t *carry_b, const int N,
			     const int split)
{
	const int B = (N + 3 + 3) / 4;
	const int G = (N + 3) / 4;
	struct chain_state A = {{0}, {0}, 0}, Bs = {{0}, {0}, 0};
	__m256i va[4], vb[4], wa[4], wb[4];
	block_lanes(A.u, _mm256_load_si256((const __m256i *)sa->t));
	block_lanes(Bs.u, _mm256_load_si256((const __m256i *)sb->t));
	for (int r = 0; r < 4; r++) {
		chain_step(&A, ka, 0, r, N);
		chain_step(&Bs, kb, 0, r, N);
	}
	broadcast4(va, A.m);
	broadcast4(vb, Bs.m);
	{
		__m256i na = redc_block(sa->t, ka, va, 0, 1);
		__m256i nb = redc_block(sb->t, kb, vb, 0, 1);
		block_lanes(A.u, na);
		block_lanes(Bs.u, nb);
		for (int r = 0; r < 4; r++) {
			chain_step(&A, ka, 1, r, N);
			chain_step(&Bs, kb, 1, r, N);
		}
	}
	for (int g = 0; g < G; g++) {
		/* m(g) broadcast in va/vb, block 1 of group g done; A/Bs hold m(g+1) */
#pragma GCC unroll 32
		for (int b = 2; b < 2 + split; b++) {
			if (b < B) {
				redc_block(sa->t, ka, va, g, b);
				redc_block(sb->t, kb, vb, g, b);
			}
		}
		if (g + 1 < G) {
			const int h = g + 1;
			broadcast4(wa, A.m);
			broadcast4(wb, Bs.m);
			if (h == G - 1 && (N & 3)) {
				redc_block(sa->t, ka, wa, h, 0);
				redc_block(sb->t, kb, wb, h, 0);
			}
			__m256i na = redc_block(sa->t, ka, wa, h, 1);
			__m256i nb = redc_block(sb->t, kb, wb, h, 1);
			if (h < G - 1) {
				block_lanes(A.u, na);
				block_lanes(Bs.u, nb);
				for (int r = 0; r < 4; r++) {
					chain_step(&A, ka, h + 1, r, N);
					chain_step(&Bs, kb, h + 1, r, N);
				}
			}
		}
#pragma GCC unroll 32
		for (int b = 2 + split; b < B; b++) {
			redc_block(sa->t, ka, va, g, b);
			redc_block(sb->t, kb, vb, g, b);
		}
		for (int r = 0; r < 4; r++)
			va[r] = wa[r], vb[r] = wb[r];
	}
	*carry_a = A.c;
	*carry_b = Bs.c;
}

/*
 * out_x = in_x^2 / R mod' key_x for x = A, B (almost Montgomery, < 2 m_x),
 * in place.  Inputs < 2 m_x as N digits < 2^28 in struct vnum.
 */
ALWAYS_INLINE void vsqr2_n(struct vnum *xa, struct vnum *xb, const struct vkey *ka, const struct vkey *kb,
			   struct vscratch *sa, struct vscratch *sb, const int N, const int phases)
{
	const int B = (N + 3 + 3) / 4;
	const int G = (N + 3) / 4;
	if (phases & PHASE_PRODUCT_LOOP2) {
		sqr_product_loop2(sa->t, xa->a, N, B);
		sqr_product_loop2(sb->t, xb->a, N, B);
	} else if (phases & PHASE_PRODUCT_LOOP) {
		sqr_product_loop(sa->t, sa->ysh, xa->a, N, B);
		sqr_product_loop(sb->t, sb->ysh, xb->a, N, B);
	} else if (phases & PHASE_PRODUCT_CALL) {
		sqr_product_rows_call(sa->t, sa->ysh, xa->a, N);
		sqr_product_rows_call(sb->t, sb->ysh, xb->a, N);
	} else if (phases & PHASE_PRODUCT_ROWS) {
		sqr_product_rows(sa->t, sa->ysh, xa->a, N, B);
		sqr_product_rows(sb->t, sb->ysh, xb->a, N, B);
	} else if (phases & PHASE_PRODUCT) {
		sqr_product(sa->t, sa->a2, xa->a, N, B);
		sqr_product(sb->t, sb->a2, xb->a, N, B);
	}
	if (!(phases & PHASE_REDC))
		return;

	uint64_t ca = 0, cb = 0, ma[4], mb_[4], u[4];
	__m256i va[4], vb[4];
	if (phases & PHASE_SKEW) {
		redc_skew(sa, sb, ka, kb, &ca, &cb, N, SKEW_SPLIT);
		goto carry_pass;
	}
	if (phases & PHASE_AHEAD) {
		redc_ahead(sa, sb, ka, kb, &ca, &cb, N);
		goto carry_pass;
	}
	if (phases & PHASE_PIPE) {
		redc_pipelined(sa, sb, ka, kb, &ca, &cb, N);
		goto carry_pass;
	}
	block_lanes(u, _mm256_load_si256((const __m256i *)sa->t));
	mont_digits(ma, &ca, u, ka, 0, N, phases & PHASE_FRIENDLY);
	block_lanes(u, _mm256_load_si256((const __m256i *)sb->t));
	mont_digits(mb_, &cb, u, kb, 0, N, phases & PHASE_FRIENDLY);
	for (int g = 0; g < G; g++) {
		broadcast4(va, ma);
		broadcast4(vb, mb_);
		const int last = g == G - 1;
		const int first_b = (last && (N & 3)) ? 0 : 1;
		if (first_b == 0) {
			redc_block(sa->t, ka, va, g, 0);
			redc_block(sb->t, kb, vb, g, 0);
		}
		__m256i na = redc_block(sa->t, ka, va, g, 1);
		__m256i nb = (phases & PHASE_ONE) ? na : redc_block(sb->t, kb, vb, g, 1);
		if (phases & PHASE_NOCHAIN)
			na = nb = _mm256_load_si256((const __m256i *)ka->nsh[0]);
		if (!last && !(phases & PHASE_NOSCALAR)) {
			if (phases & PHASE_LANES_MEM) {
				const volatile uint64_t *p = sa->t + 4 * (g + 1);
				u[0] = p[0], u[1] = p[1], u[2] = p[2], u[3] = p[3];
			} else
				block_lanes(u, na);
			mont_digits(ma, &ca, u, ka, g + 1, N, phases & PHASE_FRIENDLY);
			if (!(phases & PHASE_ONE)) {
				if (phases & PHASE_LANES_MEM) {
					const volatile uint64_t *p = sb->t + 4 * (g + 1);
					u[0] = p[0], u[1] = p[1], u[2] = p[2], u[3] = p[3];
				} else
					block_lanes(u, nb);
				mont_digits(mb_, &cb, u, kb, g + 1, N, phases & PHASE_FRIENDLY);
			}
		}
#pragma GCC unroll 32
		for (int b = 2; b < B; b++) {
			redc_block(sa->t, ka, va, g, b);
			if (!(phases & PHASE_ONE))
				redc_block(sb->t, kb, vb, g, b);
		}
	}
carry_pass:
	if (!(phases & PHASE_CARRY))
		return;
	/* The carry out of column N-1, then columns N..2N-1 to digits. */
	uint64_t *ta = sa->t + N, *tb = sb->t + N;
	uint64_t *oa = (phases & PHASE_NOFEED) ? sa->a2 + 4 : xa->a + 4;
	uint64_t *ob = (phases & PHASE_NOFEED) ? sb->a2 + 4 : xb->a + 4;
	ca += ta[0];
	cb += tb[0];
	oa[0] = ca & DIGIT_MASK;
	ob[0] = cb & DIGIT_MASK;
	for (int k = 1; k < N; k++) {
		ca = (ca >> RADIX_BITS) + ta[k];
		cb = (cb >> RADIX_BITS) + tb[k];
		oa[k] = ca & DIGIT_MASK;
		ob[k] = cb & DIGIT_MASK;
	}
}

/*
 * Staggered halves: one call reduces one number while it forms the other
 * number's product, group by group, so the product's rows (no chain) fill
 * the reduction's chain latency; the next group's broadcasts and first
 * block sit amid this group's blocks (older than the filler).  A pair of
 * squarings is two such phases:
 *   phase 1: reduce A (T_A holds A^2) and form T_B = B^2;
 *   phase 2: reduce B and form T_A = A'^2 for the next pair.
 * So the scratch of A must hold the product of A's input on entry
 * (vsqr2_prime), as it does after every pair.  Friendly keys only.
 */
ALWAYS_INLINE void product_prepare(uint64_t *t, uint64_t ysh[4][4 * MAX_B + 4], const uint64_t *a, const int B)
{
	const __m256i zero = _mm256_setzero_si256();
	const uint64_t *ad = a + 4;
	for (int b = 0; b < B; b++) {
		__m256i x0 = _mm256_load_si256((const __m256i *)(ad + 4 * b));
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(ad + 4 * b - 1));
		__m256i x2 = _mm256_loadu_si256((const __m256i *)(ad + 4 * b - 2));
		__m256i x3 = _mm256_loadu_si256((const __m256i *)(ad + 4 * b - 3));
		_mm256_store_si256((__m256i *)(ysh[0] + 4 * b), _mm256_add_epi64(x0, x0));
		_mm256_store_si256((__m256i *)(ysh[1] + 4 * b), _mm256_add_epi64(x1, x1));
		_mm256_store_si256((__m256i *)(ysh[2] + 4 * b), _mm256_add_epi64(x2, x2));
		_mm256_store_si256((__m256i *)(ysh[3] + 4 * b), _mm256_add_epi64(x3, x3));
		_mm256_store_si256((__m256i *)(t + 8 * b), zero);
		_mm256_store_si256((__m256i *)(t + 8 * b + 4), zero);
	}
	_mm256_store_si256((__m256i *)(t + 8 * B), zero);
	_mm256_store_si256((__m256i *)(t + 8 * B + 4), zero);
	for (int s = 0; s < 4; s++)
		_mm256_store_si256((__m256i *)(ysh[s] + 4 * B), zero);
}

ALWAYS_INLINE void product_group(uint64_t *t, uint64_t ysh[4][4 * MAX_B + 4], const uint64_t *a, const int g,
				 const int B)
{
	const __m256i keep_above0 = _mm256_set_epi64x(-1, -1, -1, 0);
	const __m256i keep_above2 = _mm256_set_epi64x(-1, 0, 0, 0);
	const __m256i even_lanes = _mm256_set_epi64x(0, -1, 0, -1);
	const uint64_t *ad = a + 4;
	const __m256i b0 = _mm256_set1_epi64x((long long)ad[4 * g]);
	const __m256i b1 = _mm256_set1_epi64x((long long)ad[4 * g + 1]);
	const __m256i b2 = _mm256_set1_epi64x((long long)ad[4 * g + 2]);
	const __m256i b3 = _mm256_set1_epi64x((long long)ad[4 * g + 3]);
	__m256i x = _mm256_load_si256((const __m256i *)(ad + 4 * g));
	__m256i sq = _mm256_mul_epu32(x, x);
	__m256i *tk = (__m256i *)(t + 8 * g);
	__m256i acc = _mm256_add_epi64(_mm256_load_si256(tk),
				       _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0x50), even_lanes));
	acc = _mm256_add_epi64(acc, _mm256_and_si256(keep_above0, _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)(ysh[0] + 4 * g)))));
	acc = _mm256_add_epi64(acc, _mm256_and_si256(keep_above2, _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(ysh[1] + 4 * g)))));
	_mm256_store_si256(tk, acc);
	tk++;
	const uint64_t *y = ysh[0] + 4 * (g + 1);
	acc = _mm256_add_epi64(_mm256_load_si256(tk), _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0xfa), even_lanes));
	__m256i p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
	__m256i p1 = _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(y + 4 * MAX_B + 4)));
	__m256i p2 = _mm256_and_si256(keep_above0, _mm256_mul_epu32(b2, _mm256_load_si256((const __m256i *)(y + 8 * MAX_B + 8))));
	__m256i p3 = _mm256_and_si256(keep_above2, _mm256_mul_epu32(b3, _mm256_load_si256((const __m256i *)(y + 12 * MAX_B + 12))));
	acc = _mm256_add_epi64(_mm256_add_epi64(acc, p0), _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
	_mm256_store_si256(tk, acc);
	for (int bp = g + 2; bp < B; bp++) {
		tk++;
		y += 4;
		p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
		p1 = _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(y + 4 * MAX_B + 4)));
		p2 = _mm256_mul_epu32(b2, _mm256_load_si256((const __m256i *)(y + 8 * MAX_B + 8)));
		p3 = _mm256_mul_epu32(b3, _mm256_load_si256((const __m256i *)(y + 12 * MAX_B + 12)));
		acc = _mm256_add_epi64(_mm256_add_epi64(_mm256_load_si256(tk), p0), _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
		_mm256_store_si256(tk, acc);
	}
}

/* Reduce t_r (by key kr) into out_r's digits while forming t_p = a_p^2. */
ALWAYS_INLINE void stagger_phase(struct vscratch *sr, const struct vkey *kr, struct vnum *out_r,
						    struct vscratch *sp, const struct vnum *xp, const int N)
{
	const int B = (N + 3 + 3) / 4;
	const int G = (N + 3) / 4;
	const int split = STAGGER_SPLIT;
	uint64_t *t = sr->t;
	struct chain_state A = {{0}, {0}, 0};
	__m256i va[4], wa[4];
	product_prepare(sp->t, sp->ysh, xp->a, B);
	block_lanes(A.u, _mm256_load_si256((const __m256i *)t));
	for (int r = 0; r < 4; r++)
		chain_step(&A, kr, 0, r, N);
	broadcast4(va, A.m);
	block_lanes(A.u, redc_block(t, kr, va, 0, 1));
	for (int r = 0; r < 4; r++)
		chain_step(&A, kr, 1, r, N);
	for (int g = 0; g < G; g++) {
#pragma GCC unroll 8
		for (int b = 2; b < 2 + split; b++)
			if (b < B)
				redc_block(t, kr, va, g, b);
		if (g + 1 < G) {
			const int h = g + 1;
			broadcast4(wa, A.m);
			if (h == G - 1 && (N & 3))
				redc_block(t, kr, wa, h, 0);
			__m256i na = redc_block(t, kr, wa, h, 1);
			if (h < G - 1) {
				block_lanes(A.u, na);
				for (int r = 0; r < 4; r++)
					chain_step(&A, kr, h + 1, r, N);
			}
		}
#pragma GCC unroll 32
		for (int b = 2 + split; b < B; b++)
			redc_block(t, kr, va, g, b);
		product_group(sp->t, sp->ysh, xp->a, g, B);
		for (int r = 0; r < 4; r++)
			va[r] = wa[r];
	}
	const uint64_t *tr = t + N;
	uint64_t *o = out_r->a + 4;
	uint64_t c = A.c + tr[0];
	o[0] = c & DIGIT_MASK;
	for (int k = 1; k < N; k++) {
		c = (c >> RADIX_BITS) + tr[k];
		o[k] = c & DIGIT_MASK;
	}
}

#define VSQR2_VARIANT(name, N, phases)                                                            \
	static void __attribute__((noinline)) name(struct vnum *xa, struct vnum *xb, const struct vkey *ka, \
						   const struct vkey *kb, struct vscratch *sa,             \
						   struct vscratch *sb)                                    \
	{                                                                                          \
		vsqr2_n(xa, xb, ka, kb, sa, sb, N, phases);                                          \
	}
#define FULL (PHASE_PRODUCT_ROWS | PHASE_REDC | PHASE_CARRY)
VSQR2_VARIANT(vsqr2_37, 37, FULL)
VSQR2_VARIANT(vsqr2_55, 55, FULL)
VSQR2_VARIANT(vsqr2_74, 74, FULL)
VSQR2_VARIANT(vsqr2_37_columns, 37, PHASE_PRODUCT | PHASE_REDC | PHASE_CARRY)
VSQR2_VARIANT(vsqr2_37_product_rows, 37, PHASE_PRODUCT_ROWS)
VSQR2_VARIANT(vsqr2_37_product_columns, 37, PHASE_PRODUCT)
VSQR2_VARIANT(vsqr2_37_redc, 37, PHASE_REDC)
VSQR2_VARIANT(vsqr2_37_redc_carry, 37, PHASE_REDC | PHASE_CARRY)
VSQR2_VARIANT(vsqr2_37_redc_nochain, 37, PHASE_REDC | PHASE_NOCHAIN)
VSQR2_VARIANT(vsqr2_37_redc_one, 37, PHASE_REDC | PHASE_ONE)
VSQR2_VARIANT(vsqr2_37_redc_noscalar, 37, PHASE_REDC | PHASE_NOSCALAR)
#define FRIENDLY (FULL | PHASE_FRIENDLY)
VSQR2_VARIANT(vsqr2_38f, 38, FRIENDLY)
VSQR2_VARIANT(vsqr2_56f, 56, FRIENDLY)
VSQR2_VARIANT(vsqr2_75f, 75, FRIENDLY)
VSQR2_VARIANT(vsqr2_38fc, 38, FRIENDLY | PHASE_PRODUCT_CALL)
VSQR2_VARIANT(vsqr2_56fc, 56, FRIENDLY | PHASE_PRODUCT_CALL)
VSQR2_VARIANT(vsqr2_75fc, 75, FRIENDLY | PHASE_PRODUCT_CALL)
VSQR2_VARIANT(vsqr2_38fl, 38, FRIENDLY | PHASE_PRODUCT_LOOP)
VSQR2_VARIANT(vsqr2_56fl, 56, FRIENDLY | PHASE_PRODUCT_LOOP)
VSQR2_VARIANT(vsqr2_75fl, 75, FRIENDLY | PHASE_PRODUCT_LOOP)
VSQR2_VARIANT(vsqr2_38fm, 38, FRIENDLY | PHASE_PRODUCT_LOOP2)
VSQR2_VARIANT(vsqr2_38fm_product, 38, PHASE_PRODUCT_LOOP2)
VSQR2_VARIANT(vsqr2_38fl_product, 38, PHASE_PRODUCT_LOOP)
VSQR2_VARIANT(vsqr2_38fpc, 38, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_PIPE)
VSQR2_VARIANT(vsqr2_56fpc, 56, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_PIPE)
VSQR2_VARIANT(vsqr2_75fpc, 75, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_PIPE)
VSQR2_VARIANT(vsqr2_38fp_redc, 38, PHASE_REDC | PHASE_FRIENDLY | PHASE_PIPE)
VSQR2_VARIANT(vsqr2_38fac, 38, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_AHEAD)
VSQR2_VARIANT(vsqr2_56fac, 56, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_AHEAD)
VSQR2_VARIANT(vsqr2_75fac, 75, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_AHEAD)
VSQR2_VARIANT(vsqr2_38fa_redc, 38, PHASE_REDC | PHASE_FRIENDLY | PHASE_AHEAD)
VSQR2_VARIANT(vsqr2_38fcm, 38, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_LANES_MEM)
VSQR2_VARIANT(vsqr2_38fm_redc, 38, PHASE_REDC | PHASE_FRIENDLY | PHASE_LANES_MEM)
VSQR2_VARIANT(vsqr2_38fsc, 38, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_SKEW)
VSQR2_VARIANT(vsqr2_56fsc, 56, FRIENDLY | PHASE_PRODUCT_CALL | PHASE_SKEW)
VSQR2_VARIANT(vsqr2_75fsl, 75, FRIENDLY | PHASE_PRODUCT_LOOP | PHASE_SKEW)
VSQR2_VARIANT(vsqr2_38fs_redc, 38, PHASE_REDC | PHASE_FRIENDLY | PHASE_SKEW)
VSQR2_VARIANT(vsqr2_38f_nofeed, 38, FRIENDLY | PHASE_NOFEED)
VSQR2_VARIANT(vsqr2_38f_product, 38, PHASE_PRODUCT_ROWS | PHASE_FRIENDLY)
VSQR2_VARIANT(vsqr2_38f_redc, 38, PHASE_REDC | PHASE_FRIENDLY)
VSQR2_VARIANT(vsqr2_38f_redc_noscalar, 38, PHASE_REDC | PHASE_FRIENDLY | PHASE_NOSCALAR)

#define VSQR2_STAGGER(name, N)                                                                     \
	static void __attribute__((noinline)) name(struct vnum *xa, struct vnum *xb, const struct vkey *ka, \
						   const struct vkey *kb, struct vscratch *sa,             \
						   struct vscratch *sb)                                    \
	{                                                                                          \
		stagger_phase_##N(sa, ka, xa, sb, xb);                                               \
		stagger_phase_##N(sb, kb, xb, sa, xa);                                               \
	}
#define STAGGER_PHASE(N)                                                                           \
	static void __attribute__((noinline)) stagger_phase_##N(struct vscratch *sr, const struct vkey *kr, \
								struct vnum *out_r, struct vscratch *sp, \
								const struct vnum *xp)                   \
	{                                                                                          \
		stagger_phase(sr, kr, out_r, sp, xp, N);                                             \
	}
STAGGER_PHASE(38)
STAGGER_PHASE(56)
STAGGER_PHASE(75)
VSQR2_STAGGER(vsqr2_38st, 38)
VSQR2_STAGGER(vsqr2_56st, 56)
VSQR2_STAGGER(vsqr2_75st, 75)

/* The staggered variants' entry condition: the scratch of A holds A's square. */
static void vsqr2_prime(struct vscratch *sa, const struct vnum *xa, int N)
{
	const int B = (N + 6) / 4;
	product_prepare(sa->t, sa->ysh, xa->a, B);
	for (int g = 0; g < (N + 3) / 4; g++)
		product_group(sa->t, sa->ysh, xa->a, g, B);
}

typedef void vsqr2_fn(struct vnum *, struct vnum *, const struct vkey *, const struct vkey *,
		      struct vscratch *, struct vscratch *);

/* ---- conversions and set-up (outside the timed loops) ---- */

static void to_digits(uint64_t *d, int N, const mpz_t x)
{
	mpz_t t;
	mpz_init_set(t, x);
	for (int i = 0; i < N; i++) {
		d[i] = mpz_get_ui(t) & DIGIT_MASK;
		mpz_tdiv_q_2exp(t, t, RADIX_BITS);
	}
	if (mpz_sgn(t) != 0) {
		fprintf(stderr, "vsqr: operand does not fit %d digits\n", N);
		exit(2);
	}
	mpz_clear(t);
}

static void from_digits(mpz_t x, const uint64_t *d, int N)
{
	mpz_set_ui(x, 0);
	for (int i = N - 1; i >= 0; i--) {
		if (d[i] > DIGIT_MASK) {
			fprintf(stderr, "vsqr: output digit %d not normalized\n", i);
			exit(1);
		}
		mpz_mul_2exp(x, x, RADIX_BITS);
		mpz_add_ui(x, x, d[i]);
	}
}

/* w = the modulus the squaring reduces by: m, or m k0 when friendly (w = -1 mod 2^28). */
static void working_modulus(mpz_t w, const mpz_t m, int friendly)
{
	mpz_t inv, base;
	mpz_inits(inv, base, NULL);
	mpz_ui_pow_ui(base, 2, RADIX_BITS);
	mpz_invert(inv, m, base);
	mpz_sub(inv, base, inv);
	if (friendly)
		mpz_mul(w, m, inv);
	else
		mpz_set(w, m);
	mpz_clears(inv, base, NULL);
}

static void set_key(struct vkey *k, const mpz_t m, int N, int friendly)
{
	memset(k, 0, sizeof(*k));
	mpz_t w, inv, base;
	mpz_inits(w, inv, base, NULL);
	working_modulus(w, m, friendly);
	to_digits(k->n, N, w);
	for (int r = 0; r < 4; r++)
		for (int j = 0; j < N; j++)
			k->nsh[r][j + r] = k->n[j];
	mpz_ui_pow_ui(base, 2, RADIX_BITS);
	mpz_invert(inv, w, base);
	mpz_sub(inv, base, inv);
	k->k0 = mpz_get_ui(inv) & DIGIT_MASK;
	if (friendly && k->k0 != 1) {
		fprintf(stderr, "vsqr: n k0 is not -1 mod 2^28\n");
		exit(1);
	}
	mpz_clears(w, inv, base, NULL);
}

static void set_num(struct vnum *x, const mpz_t v, int N)
{
	memset(x, 0, sizeof(*x));
	to_digits(x->a + 4, N, v);
}

static void to_chunks(uint64_t *c, int len, const mpz_t x)
{
	memset(c, 0, 8 * (size_t)len);
	mpz_export(c, NULL, -1, 8, 0, 0, x);
}

static uint64_t neg_inv64(uint64_t n)
{
	uint64_t x = n; /* n * x == 1 mod 2^3 for odd n */
	for (int i = 0; i < 5; i++)
		x *= 2 - n * x;
	return 0 - x;
}

static void random_modulus(mpz_t m, gmp_randstate_t rs, int bits)
{
	mpz_urandomb(m, rs, bits);
	mpz_setbit(m, bits - 1);
	mpz_setbit(m, 0);
}

/* ---- checks against GMP ---- */

static int fails;

/* Our squaring of (xa, xb) checked: out < 2m and out == in^2 R^-1 mod m. */
static void check_pair(vsqr2_fn *fn, int N, int friendly, const mpz_t ma, const mpz_t mb, const mpz_t ina,
		       const mpz_t inb, int chain, const char *what)
{
	static struct vkey ka, kb;
	static struct vnum xa, xb;
	static struct vscratch sa, sb;
	set_key(&ka, ma, N, friendly);
	set_key(&kb, mb, N, friendly);
	set_num(&xa, ina, N);
	set_num(&xb, inb, N);
	vsqr2_prime(&sa, &xa, N);
	mpz_t rinv, ref[2], got, two_m, R;
	mpz_inits(rinv, ref[0], ref[1], got, two_m, R, NULL);
	mpz_set(ref[0], ina);
	mpz_set(ref[1], inb);
	for (int step = 0; step < chain; step++) {
		fn(&xa, &xb, &ka, &kb, &sa, &sb);
		for (int h = 0; h < 2; h++) {
			const mpz_srcptr m = h ? mb : ma;
			mpz_ui_pow_ui(R, 2, (unsigned long)RADIX_BITS * N);
			mpz_invert(rinv, R, m);
			mpz_mul(ref[h], ref[h], ref[h]);
			mpz_mul(ref[h], ref[h], rinv);
			mpz_mod(ref[h], ref[h], m);
			from_digits(got, (h ? xb.a : xa.a) + 4, N);
			working_modulus(two_m, m, friendly);
			mpz_mul_2exp(two_m, two_m, 1);
			for (int p = 4 + N; p < 4 + 4 * MAX_B + 4; p++)
				if ((h ? xb.a : xa.a)[p] != 0) {
					fprintf(stderr, "FAIL %s N=%d: padding digit %d overwritten\n", what, N, p);
					fails++;
					return;
				}
			int ok = mpz_cmp(got, two_m) < 0;
			mpz_mod(got, got, m);
			ok = ok && mpz_cmp(got, ref[h]) == 0;
			if (!ok) {
				gmp_fprintf(stderr, "FAIL %s N=%d half %d step %d\n m=%Zx\n", what, N, h, step, m);
				fails++;
				mpz_clears(rinv, ref[0], ref[1], got, two_m, R, NULL);
				return;
			}
		}
	}
	mpz_clears(rinv, ref[0], ref[1], got, two_m, R, NULL);
}

static void check_size(vsqr2_fn *fn, int bits, int N, int friendly, gmp_randstate_t rs, const char *what)
{
	mpz_t ma, mb, a, b, two_m;
	mpz_inits(ma, mb, a, b, two_m, NULL);
	int before = fails;
	for (int t = 0; t < 200; t++) {
		random_modulus(ma, rs, bits);
		random_modulus(mb, rs, bits);
		if (t % 3 == 0)
			mpz_rrandomb(ma, rs, bits), mpz_setbit(ma, bits - 1), mpz_setbit(ma, 0);
		working_modulus(two_m, ma, friendly && (t & 1));
		mpz_mul_2exp(two_m, two_m, 1);
		mpz_urandomm(a, rs, two_m);
		working_modulus(two_m, mb, friendly && (t & 1));
		mpz_mul_2exp(two_m, two_m, 1);
		mpz_urandomm(b, rs, two_m);
		check_pair(fn, N, friendly, ma, mb, a, b, t < 20 ? 64 : 1, "random");
	}
	/* Edge values: 0, 1, m-1, 2m-1, 2^bits-1 (all-ones digits), 2w-1 (the largest input:
	 * w = m, or m k0 when friendly), and the extreme moduli 2^bits-1 and 2^(bits-1)+1. */
	mpz_t edge[6];
	for (int mk = 0; mk < 3; mk++) {
		if (mk == 0)
			random_modulus(ma, rs, bits);
		else if (mk == 1)
			mpz_ui_pow_ui(ma, 2, bits), mpz_sub_ui(ma, ma, 1);
		else
			mpz_ui_pow_ui(ma, 2, bits - 1), mpz_add_ui(ma, ma, 1);
		random_modulus(mb, rs, bits);
		for (int e = 0; e < 6; e++)
			mpz_init(edge[e]);
		mpz_set_ui(edge[0], 0);
		mpz_set_ui(edge[1], 1);
		mpz_sub_ui(edge[2], ma, 1);
		mpz_mul_2exp(edge[3], ma, 1), mpz_sub_ui(edge[3], edge[3], 1);
		mpz_ui_pow_ui(edge[4], 2, bits), mpz_sub_ui(edge[4], edge[4], 1);
		working_modulus(edge[5], ma, friendly);
		mpz_mul_2exp(edge[5], edge[5], 1), mpz_sub_ui(edge[5], edge[5], 1);
		for (int e = 0; e < 6; e++)
			for (int f = 0; f < 6; f++) {
				mpz_t eb;
				mpz_init(eb);
				if (f == 0) mpz_set_ui(eb, 0);
				else if (f == 1) mpz_set_ui(eb, 1);
				else if (f == 2) mpz_sub_ui(eb, mb, 1);
				else if (f == 3) mpz_mul_2exp(eb, mb, 1), mpz_sub_ui(eb, eb, 1);
				else if (f == 4) mpz_ui_pow_ui(eb, 2, bits), mpz_sub_ui(eb, eb, 1);
				else working_modulus(eb, mb, friendly), mpz_mul_2exp(eb, eb, 1), mpz_sub_ui(eb, eb, 1);
				working_modulus(two_m, mb, friendly);
				mpz_mul_2exp(two_m, two_m, 1);
				if (mpz_cmp(eb, two_m) >= 0)
					mpz_sub_ui(eb, two_m, 1);
				check_pair(fn, N, friendly, ma, mb, edge[e], eb, 8, "edge");
				mpz_clear(eb);
			}
		for (int e = 0; e < 6; e++)
			mpz_clear(edge[e]);
	}
	printf("check %4d %2d %-56s %s\n", bits, N, what, fails == before ? "ok" : "FAILED");
	mpz_clears(ma, mb, a, b, two_m, NULL);
}

/* ---- timing ---- */

static double ticks_per_cycle(void)
{
	uint64_t best = UINT64_MAX;
	for (int t = 0; t < 200; t++) {
		uint64_t x = 1, t0 = __rdtsc();
		for (int i = 0; i < 64; i++)
			__asm__ volatile(".rept 64\n\tadd %0, %0\n\t.endr" : "+r"(x));
		uint64_t d = __rdtsc() - t0;
		if (d < best)
			best = d;
	}
	return (double)best / 4096.0;
}

#define REPS 16

static void time_size(vsqr2_fn *fn, int bits, int N, int friendly, int trials, gmp_randstate_t rs,
		      const char *what)
{
	const int len = bits / 64;
	static struct vkey ka, kb;
	static struct vnum xa, xb;
	static struct vscratch sa, sb;
	static uint64_t na[64] __attribute__((aligned(64))), nb[64] __attribute__((aligned(64)));
	static uint64_t ya[64] __attribute__((aligned(64))), yb[64] __attribute__((aligned(64)));
	mpz_t ma, mb, a, b;
	mpz_inits(ma, mb, a, b, NULL);
	random_modulus(ma, rs, bits);
	random_modulus(mb, rs, bits);
	mpz_urandomm(a, rs, ma);
	mpz_urandomm(b, rs, mb);
	set_key(&ka, ma, N, friendly);
	set_key(&kb, mb, N, friendly);
	set_num(&xa, a, N);
	set_num(&xb, b, N);
	vsqr2_prime(&sa, &xa, N);
	to_chunks(na, len, ma);
	to_chunks(nb, len, mb);
	to_chunks(ya, len, a);
	to_chunks(yb, len, b);
	const uint64_t n0a = neg_inv64(na[0]), n0b = neg_inv64(nb[0]);
	uint64_t best_adx = UINT64_MAX, best_v = UINT64_MAX;
	for (int w = 0; w < 50; w++) { /* warm-up */
		big_mont_sqr_vec_adx(ya, ya, na, n0a, len);
		fn(&xa, &xb, &ka, &kb, &sa, &sb);
	}
	for (int t = 0; t < trials; t++) {
		uint64_t t0 = __rdtsc();
		for (int r = 0; r < REPS; r++) {
			big_mont_sqr_vec_adx(ya, ya, na, n0a, len);
			big_mont_sqr_vec_adx(yb, yb, nb, n0b, len);
		}
		uint64_t d = __rdtsc() - t0;
		if (d < best_adx)
			best_adx = d;
		t0 = __rdtsc();
		for (int r = 0; r < REPS; r++)
			fn(&xa, &xb, &ka, &kb, &sa, &sb);
		d = __rdtsc() - t0;
		if (d < best_v)
			best_v = d;
	}
	const double tpc = ticks_per_cycle();
	const double adx = (double)best_adx / REPS / tpc, v = (double)best_v / REPS / tpc;
	printf("%5d %3d  %-62s %6.0f %6.0f  %.3f  %.3f\n", bits, N, what, v, adx, v / adx, tpc);
	mpz_clears(ma, mb, a, b, NULL);
}

int main(int argc, char **argv)
{
	int trials = argc > 1 ? atoi(argv[1]) : 400;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 44;
	if (trials < 1) {
		fprintf(stderr, "vsqr: usage: vsqr [trials >= 1] [seed]\n");
		return 2;
	}
	unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
	char brand[49] = {0};
	for (unsigned i = 0; i < 3; i++) {
		__get_cpuid(0x80000002u + i, &eax, &ebx, &ecx, &edx);
		memcpy(brand + 16 * i, (unsigned[]){eax, ebx, ecx, edx}, 16);
	}
	__get_cpuid(1, &eax, &ebx, &ecx, &edx);
	const unsigned family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
	const unsigned model = ((eax >> 4) & 0xf) | (((eax >> 16) & 0xf) << 4);
	printf("vsqr: %s, family %u model %u; seed %lu; %d alternating trials\n", brand, family, model, seed,
	       trials);
	gmp_randstate_t rs;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, seed);
	static const struct {
		int bits, N, friendly;
		vsqr2_fn *fn;
		const char *what;
	} full[] = {
		{1024, 37, 0, vsqr2_37, "modulus n, m = u k0, product unrolled inline"},
		{1024, 38, 1, vsqr2_38f, "modulus n k0, m = u mod 2^28, product unrolled inline"},
		{1536, 55, 0, vsqr2_55, "modulus n, m = u k0, product unrolled inline"},
		{1536, 56, 1, vsqr2_56f, "modulus n k0, m = u mod 2^28, product unrolled inline"},
		{2048, 74, 0, vsqr2_74, "modulus n, m = u k0, product unrolled inline"},
		{2048, 75, 1, vsqr2_75f, "modulus n k0, m = u mod 2^28, product unrolled inline"},
		{1024, 37, 0, vsqr2_37_columns, "modulus n, product by column blocks inline"},
		{1024, 38, 1, vsqr2_38fc, "modulus n k0, product unrolled out of line"},
		{1536, 56, 1, vsqr2_56fc, "modulus n k0, product unrolled out of line"},
		{2048, 75, 1, vsqr2_75fc, "modulus n k0, product unrolled out of line"},
		{1024, 38, 1, vsqr2_38fl, "modulus n k0, product a loop (out of line)"},
		{1536, 56, 1, vsqr2_56fl, "modulus n k0, product a loop (out of line)"},
		{2048, 75, 1, vsqr2_75fl, "modulus n k0, product a loop (out of line)"},
		{1024, 38, 1, vsqr2_38fpc, "n k0, product out of line, chain spread over blocks"},
		{1536, 56, 1, vsqr2_56fpc, "n k0, product out of line, chain spread over blocks"},
		{2048, 75, 1, vsqr2_75fpc, "n k0, product out of line, chain spread over blocks"},
		{1024, 38, 1, vsqr2_38fac, "n k0, product out of line, next block in scalar"},
		{1536, 56, 1, vsqr2_56fac, "n k0, product out of line, next block in scalar"},
		{2048, 75, 1, vsqr2_75fac, "n k0, product out of line, next block in scalar"},
		{1024, 38, 1, vsqr2_38fcm, "n k0, product out of line, lanes by scalar loads"},
		{1024, 38, 1, vsqr2_38fsc, "n k0, product out of line, next group's first block amid"},
		{1536, 56, 1, vsqr2_56fsc, "n k0, product out of line, next group's first block amid"},
		{2048, 75, 1, vsqr2_75fsl, "n k0, product a loop, next group's first block amid"},
		{1024, 38, 1, vsqr2_38st, "n k0, staggered: A's reduction with B's product, then B's with A's"},
		{1536, 56, 1, vsqr2_56st, "n k0, staggered: A's reduction with B's product, then B's with A's"},
		{2048, 75, 1, vsqr2_75st, "n k0, staggered: A's reduction with B's product, then B's with A's"},
		{1024, 38, 1, vsqr2_38fm, "n k0, product a loop without shifted copies"},
	}, phase[] = {
		{1024, 37, 0, vsqr2_37_product_rows, "product by rows only"},
		{1024, 37, 0, vsqr2_37_product_columns, "product by column blocks only"},
		{1024, 37, 0, vsqr2_37_redc, "reduction only"},
		{1024, 37, 0, vsqr2_37_redc_carry, "reduction and carry pass only"},
		{1024, 37, 0, vsqr2_37_redc_nochain, "reduction only, chain through carries only: timing only"},
		{1024, 37, 0, vsqr2_37_redc_one, "reduction of ONE number only"},
		{1024, 37, 0, vsqr2_37_redc_noscalar, "reduction's vector passes only: timing only"},
		{1024, 38, 1, vsqr2_38f_redc, "modulus n k0: reduction only"},
		{1024, 38, 1, vsqr2_38fp_redc, "modulus n k0: reduction only, chain spread"},
		{1024, 38, 1, vsqr2_38fm_redc, "modulus n k0: reduction only, lanes by scalar loads"},
		{1024, 38, 1, vsqr2_38fs_redc, "n k0: reduction only, next group's first block amid"},
		{1024, 38, 1, vsqr2_38fa_redc, "modulus n k0: reduction only, next block in scalar"},
		{1024, 38, 1, vsqr2_38f_nofeed, "modulus n k0: full, output not fed back: timing only"},
		{1024, 38, 1, vsqr2_38f_product, "modulus n k0: product only"},
		{1024, 38, 1, vsqr2_38fl_product, "product loop only"},
		{1024, 38, 1, vsqr2_38fm_product, "product loop without copies only"},
		{1024, 38, 1, vsqr2_38f_redc_noscalar, "modulus n k0: reduction's vector passes only"},
	};
	const int nfull = (int)(sizeof(full) / sizeof(full[0])), nphase = (int)(sizeof(phase) / sizeof(phase[0]));
	printf("each variant against GMP: 200 random pairs of odd full-size moduli (a third with long runs of\n"
	       "ones and zeros) and inputs < 2w, 20 of them through 64 chained squarings; 3 moduli (random,\n"
	       "2^bits-1, 2^(bits-1)+1) x 36 edge pairs of {0, 1, m-1, 2m-1, 2^bits-1, 2w-1}, 8 chained;\n"
	       "out < 2w and out == in^2 R^-1 mod m (w = m, or m k0 for the 'n k0' variants)\n");
	for (int i = 0; i < nfull; i++)
		check_size(full[i].fn, full[i].bits, full[i].N, full[i].friendly, rs, full[i].what);
	if (fails) {
		fprintf(stderr, "vsqr: %d checks failed; no timing\n", fails);
		return 1;
	}
	printf("\ncore cycles for one squaring of each of two numbers (two halves): the least of %d trials of %d\n"
	       "chained calls, the two sides alternating; 2 x adx = two calls of big_mont_sqr_vec_adx, same run\n"
	       " bits   N  variant (vertical AVX2, both numbers in one call)                vert  2xadx  ratio  ticks/cycle\n",
	       trials, REPS);
	for (int i = 0; i < nfull; i++)
		time_size(full[i].fn, full[i].bits, full[i].N, full[i].friendly, trials, rs, full[i].what);
	printf("\nparts, 1024-bit halves (some cut the m chain: timing only, results wrong)\n");
	for (int i = 0; i < nphase; i++)
		time_size(phase[i].fn, phase[i].bits, phase[i].N, phase[i].friendly, trials, rs, phase[i].what);
	return 0;
}
