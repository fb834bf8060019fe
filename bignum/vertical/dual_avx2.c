/*
 * big_vert_mul2_avx2, big_vert_sqr2_avx2 (contracts in vertical.h): the
 * almost-Montgomery product and squaring of both halves on AVX2.
 *
 * Product a b, per half (mul_columns): passes of eight rows, digits
 * a_{8p..8p+7} broadcast, b in four aligned forms shifted up by 0..3
 * digits (b's own digits and three copies), so that row 8p + s times form
 * s block b' lands in output block 2p + b' (row 8p + 4 + s in
 * 2p + 1 + b') without a lane shuffle, and each T block is loaded and
 * stored once per eight products: 8 P B vpmuludq (P = ceil(N / 8),
 * B = ceil((N + 3) / 4)).
 *
 * Square a^2 = sum_i a_i^2 2^(56 i) + sum_{i<j} (2 a_i) a_j 2^(28 (i+j)),
 * per half (sqr_columns): the same rows over the doubled operand's
 * shifted copies, the lanes j <= i masked (in blocks g and g + 1 only),
 * the squares by one vpmuludq of a block with itself spread to the even
 * columns by a vpermq and a mask.
 *
 * Reduction (reduce2), both halves interleaved, four Montgomery digits at
 * a time: for block g (columns 4g..4g+3) scalar code forms m_{4g..4g+3}
 * (big_vert_mont_digits, digits_impl.h: the in-block triangle; w_0 = -1 mod 2^28, so m = u mod
 * 2^28 and the carry out is floor(u / 2^28) + m), then the vector code
 * adds m_r (w shifted up by r) to blocks g + 1.. (redc_block); block
 * g + 1 first, its lanes go to the next group's scalar code.  Columns
 * below N end as multiples of 2^28 that only carry; where N is not a
 * multiple of 4 the last group's block also takes the vector update, for
 * its columns N.. (its lanes below N are not read again).  Then one
 * serial carry pass over columns N..2N-1 (carry_out).
 *
 * Bounds: vertical.h (columns < 2^63.3; the chain's u adds three more
 * products < 2^56 and a carry < 2^37 to a column: below 2^64).
 * The code size matters more than the schedule here (the op cache): the
 * products are loops, out of line, called per half.
 */
#include "vertical.h"

#if BIG_VERT_HAVE_AVX2_BUILD

#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx2")
#endif
#include <immintrin.h>

#include "digits_impl.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))
/* Words between two shifted copies of the multiplier. */
#define YSH_STRIDE (4 * BIG_VERT_MAX_BLOCKS + 4)

/* The multiplier shifted up by s = 0..3 digits, block-aligned: y[0] is
 * the operand's own digits (aligned already), y[1..3] copies in the work
 * (ysh[1..3]); each has blocks 0..B, block B zero. */
struct shifted {
	const uint64_t *y[4];
};

/* Build the copies of the digits d (a num's, zero from digit N through
 * block B and below digit 0): the loads are unaligned, the stores and the
 * products' reads aligned. */
ALWAYS_INLINE void make_shifted(struct shifted *sh, uint64_t ysh[4][YSH_STRIDE], const uint64_t *d, int B)
{
	for (int k = 0; k <= B; k++) {
		_mm256_store_si256((__m256i *)(ysh[1] + 4 * k), _mm256_loadu_si256((const __m256i *)(d + 4 * k - 1)));
		_mm256_store_si256((__m256i *)(ysh[2] + 4 * k), _mm256_loadu_si256((const __m256i *)(d + 4 * k - 2)));
		_mm256_store_si256((__m256i *)(ysh[3] + 4 * k), _mm256_loadu_si256((const __m256i *)(d + 4 * k - 3)));
	}
	sh->y[0] = d;
	sh->y[1] = ysh[1];
	sh->y[2] = ysh[2];
	sh->y[3] = ysh[3];
}

/* Four rows (broadcast digits b[s]) times block k of the copies:
 * sum_s b_s y_s[k]. */
ALWAYS_INLINE __m256i rows4(const __m256i b[4], const struct shifted *sh, int k)
{
	return _mm256_add_epi64(
		_mm256_add_epi64(_mm256_mul_epu32(b[0], _mm256_load_si256((const __m256i *)(sh->y[0] + 4 * k))),
				 _mm256_mul_epu32(b[1], _mm256_load_si256((const __m256i *)(sh->y[1] + 4 * k)))),
		_mm256_add_epi64(_mm256_mul_epu32(b[2], _mm256_load_si256((const __m256i *)(sh->y[2] + 4 * k))),
				 _mm256_mul_epu32(b[3], _mm256_load_si256((const __m256i *)(sh->y[3] + 4 * k)))));
}

/* Eight rows, bl[s] and bh[s] the broadcast row digits 8p + s and
 * 8p + 4 + s, for one output block: sum_s bl_s y_s[k] + bh_s y_s[k - 1]. */
ALWAYS_INLINE __m256i rows8(const __m256i bl[4], const __m256i bh[4], const struct shifted *sh, int k)
{
	return _mm256_add_epi64(rows4(bl, sh, k), rows4(bh, sh, k - 1));
}

ALWAYS_INLINE void broadcast8(__m256i bl[4], __m256i bh[4], const uint64_t *d)
{
	bl[0] = _mm256_set1_epi64x((long long)d[0]);
	bl[1] = _mm256_set1_epi64x((long long)d[1]);
	bl[2] = _mm256_set1_epi64x((long long)d[2]);
	bl[3] = _mm256_set1_epi64x((long long)d[3]);
	bh[0] = _mm256_set1_epi64x((long long)d[4]);
	bh[1] = _mm256_set1_epi64x((long long)d[5]);
	bh[2] = _mm256_set1_epi64x((long long)d[6]);
	bh[3] = _mm256_set1_epi64x((long long)d[7]);
}

/* t = a * b, lazy columns, blocks 0..2B+1 (a, b as big_vert_num digits).
 * Passes of eight rows, so a T block is loaded and stored once per eight
 * products: row 8p + s (s < 4) times copy s block b' lands in output
 * block 2p + b', row 8p + 4 + s in 2p + 1 + b', pass p covers blocks
 * 2p .. 2p + B (its first from rows 8p..8p+3 only; the copies' block B is
 * zero).  Pass 0 stores, later passes add.  Digits N .. 8P - 1 are the
 * num's zero padding (P = ceil(N / 8)): an odd last group adds zeros. */
static __attribute__((noinline)) void mul_columns(uint64_t *t, uint64_t ysh[4][YSH_STRIDE],
						  const uint64_t *a, const uint64_t *b, int N, int B)
{
	const __m256i zero = _mm256_setzero_si256();
	const uint64_t *ad = a + 4;
	const int P = (N + 7) / 8;
	struct shifted sh;
	make_shifted(&sh, ysh, b + 4, B);
	for (int k = B + 1; k < 2 * B + 2; k++)
		_mm256_store_si256((__m256i *)(t + 4 * k), zero);
	__m256i bl[4], bh[4];
	broadcast8(bl, bh, ad);
	__m256i *tk = (__m256i *)t;
	_mm256_store_si256(tk, rows4(bl, &sh, 0));
	for (int k = 1; k <= B; k++)
		_mm256_store_si256(tk + k, rows8(bl, bh, &sh, k));
	for (int p = 1; p < P; p++) {
		broadcast8(bl, bh, ad + 8 * p);
		tk = (__m256i *)(t + 8 * p);
		_mm256_store_si256(tk, _mm256_add_epi64(_mm256_load_si256(tk), rows4(bl, &sh, 0)));
		for (int k = 1; k <= B; k++)
			_mm256_store_si256(tk + k, _mm256_add_epi64(_mm256_load_si256(tk + k), rows8(bl, bh, &sh, k)));
	}
}

/* t = a^2, lazy columns, blocks 0..2B+1. */
static __attribute__((noinline)) void sqr_columns(uint64_t *t, uint64_t ysh[4][YSH_STRIDE], const uint64_t *a,
						  int N, int B)
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
		/* Block b' = g: rows s = 0, 1 above the diagonal, the even squares. */
		__m256i acc = _mm256_add_epi64(_mm256_load_si256(tk),
					       _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0x50), even_lanes));
		acc = _mm256_add_epi64(acc, _mm256_and_si256(keep_above0, _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)(ysh[0] + 4 * g)))));
		acc = _mm256_add_epi64(acc, _mm256_and_si256(keep_above2, _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(ysh[1] + 4 * g)))));
		_mm256_store_si256(tk, acc);
		/* b' = g + 1 (ysh has a zero block at B): rows 2, 3 masked, the odd squares. */
		tk++;
		const uint64_t *y = ysh[0] + 4 * (g + 1);
		acc = _mm256_add_epi64(_mm256_load_si256(tk),
				       _mm256_and_si256(_mm256_permute4x64_epi64(sq, 0xfa), even_lanes));
		__m256i p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
		__m256i p1 = _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(y + YSH_STRIDE)));
		__m256i p2 = _mm256_and_si256(keep_above0, _mm256_mul_epu32(b2, _mm256_load_si256((const __m256i *)(y + 2 * YSH_STRIDE))));
		__m256i p3 = _mm256_and_si256(keep_above2, _mm256_mul_epu32(b3, _mm256_load_si256((const __m256i *)(y + 3 * YSH_STRIDE))));
		acc = _mm256_add_epi64(_mm256_add_epi64(acc, p0), _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
		_mm256_store_si256(tk, acc);
		for (int bp = g + 2; bp < B; bp++) {
			tk++;
			y += 4;
			p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
			p1 = _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(y + YSH_STRIDE)));
			p2 = _mm256_mul_epu32(b2, _mm256_load_si256((const __m256i *)(y + 2 * YSH_STRIDE)));
			p3 = _mm256_mul_epu32(b3, _mm256_load_si256((const __m256i *)(y + 3 * YSH_STRIDE)));
			acc = _mm256_add_epi64(_mm256_add_epi64(_mm256_load_si256(tk), p0),
					       _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
			_mm256_store_si256(tk, acc);
		}
	}
}

ALWAYS_INLINE void block_lanes(uint64_t u[4], __m256i v)
{
	const __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
	u[0] = (uint64_t)_mm_cvtsi128_si64(lo);
	u[1] = (uint64_t)_mm_extract_epi64(lo, 1);
	u[2] = (uint64_t)_mm_cvtsi128_si64(hi);
	u[3] = (uint64_t)_mm_extract_epi64(hi, 1);
}

ALWAYS_INLINE void broadcast4(__m256i mb[4], const uint64_t m[4])
{
	for (int r = 0; r < 4; r++)
		mb[r] = _mm256_set1_epi64x((long long)m[r]);
}

/* Block g + b of t += sum_r m_r (w shifted up by r) block b; returns it. */
ALWAYS_INLINE __m256i redc_block(uint64_t *t, const struct big_vert_mod *mod, const __m256i mb[4], int g, int b)
{
	__m256i x = _mm256_load_si256((const __m256i *)(t + 4 * (g + b)));
	__m256i p0 = _mm256_mul_epu32(mb[0], _mm256_load_si256((const __m256i *)(mod->nsh[0] + 4 * b)));
	__m256i p1 = _mm256_mul_epu32(mb[1], _mm256_load_si256((const __m256i *)(mod->nsh[1] + 4 * b)));
	__m256i p2 = _mm256_mul_epu32(mb[2], _mm256_load_si256((const __m256i *)(mod->nsh[2] + 4 * b)));
	__m256i p3 = _mm256_mul_epu32(mb[3], _mm256_load_si256((const __m256i *)(mod->nsh[3] + 4 * b)));
	x = _mm256_add_epi64(_mm256_add_epi64(x, p0), _mm256_add_epi64(p1, _mm256_add_epi64(p2, p3)));
	_mm256_store_si256((__m256i *)(t + 4 * (g + b)), x);
	return x;
}

/* r[h]'s digits = columns N..2N-1 of t[h] with the carry c[h] out of
 * column N-1, both halves in one loop: each half's carry chain is serial
 * (a shift and an add a digit), the two chains run side by side. */
ALWAYS_INLINE void carry_out2(struct big_vert_num *r, const uint64_t *ta, const uint64_t *tb, uint64_t ca,
			      uint64_t cb, int N)
{
	uint64_t *oa = r[0].d + 4, *ob = r[1].d + 4;
	ca += ta[N];
	cb += tb[N];
	oa[0] = ca & BIG_VERT_DIGIT_MASK;
	ob[0] = cb & BIG_VERT_DIGIT_MASK;
	for (int k = 1; k < N; k++) {
		ca = (ca >> BIG_VERT_RADIX_BITS) + ta[N + k];
		cb = (cb >> BIG_VERT_RADIX_BITS) + tb[N + k];
		oa[k] = ca & BIG_VERT_DIGIT_MASK;
		ob[k] = cb & BIG_VERT_DIGIT_MASK;
	}
}

ALWAYS_INLINE void reduce2(struct big_vert_num *r, const struct big_vert_mod *mod, struct big_vert_work *work,
			   const int N)
{
	const int B = (N + 6) / 4, G = (N + 3) / 4;
	const struct big_vert_mod *ka = &mod[0], *kb = &mod[1];
	uint64_t *ta = work[0].t, *tb = work[1].t;
	uint64_t ca = 0, cb = 0, ma[4], mb[4], u[4];
	__m256i va[4], vb[4];
	block_lanes(u, _mm256_load_si256((const __m256i *)ta));
	big_vert_mont_digits(ma, &ca, u, ka, 0, N);
	block_lanes(u, _mm256_load_si256((const __m256i *)tb));
	big_vert_mont_digits(mb, &cb, u, kb, 0, N);
	for (int g = 0; g < G; g++) {
		broadcast4(va, ma);
		broadcast4(vb, mb);
		const int last = g == G - 1;
		if (last && (N & 3)) {
			redc_block(ta, ka, va, g, 0);
			redc_block(tb, kb, vb, g, 0);
		}
		const __m256i na = redc_block(ta, ka, va, g, 1);
		const __m256i nb = redc_block(tb, kb, vb, g, 1);
		if (!last) {
			block_lanes(u, na);
			big_vert_mont_digits(ma, &ca, u, ka, g + 1, N);
			block_lanes(u, nb);
			big_vert_mont_digits(mb, &cb, u, kb, g + 1, N);
		}
#pragma GCC unroll 32
		for (int b = 2; b < B; b++) {
			redc_block(ta, ka, va, g, b);
			redc_block(tb, kb, vb, g, b);
		}
	}
	carry_out2(r, ta, tb, ca, cb, N);
}

#define REDUCE2_AT(N)                                                                              \
	static __attribute__((noinline)) void reduce2_##N(struct big_vert_num *r,                   \
							  const struct big_vert_mod *mod,          \
							  struct big_vert_work *work)              \
	{                                                                                          \
		reduce2(r, mod, work, N);                                                          \
	}
REDUCE2_AT(56)
REDUCE2_AT(75)

static void reduce2_any(struct big_vert_num *r, const struct big_vert_mod *mod, struct big_vert_work *work)
{
	if (mod->digits == 56)
		reduce2_56(r, mod, work);
	else
		reduce2_75(r, mod, work);
}

void big_vert_mul2_avx2(struct big_vert_num *r, const struct big_vert_num *a, const struct big_vert_num *b,
			const struct big_vert_mod *mod, struct big_vert_work *work)
{
	const int N = mod->digits, B = (N + 6) / 4;
	mul_columns(work[0].t, work[0].ysh, a[0].d, b[0].d, N, B);
	mul_columns(work[1].t, work[1].ysh, a[1].d, b[1].d, N, B);
	reduce2_any(r, mod, work);
}

void big_vert_sqr2_avx2(struct big_vert_num *r, const struct big_vert_num *a, const struct big_vert_mod *mod,
			struct big_vert_work *work)
{
	const int N = mod->digits, B = (N + 6) / 4;
	sqr_columns(work[0].t, work[0].ysh, a[0].d, N, B);
	sqr_columns(work[1].t, work[1].ysh, a[1].d, N, B);
	reduce2_any(r, mod, work);
}

#endif
