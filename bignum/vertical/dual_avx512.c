/*
 * big_vert_mul2_avx512, big_vert_sqr2_avx512 (contracts in vertical.h):
 * the kernels of dual_avx2.c with both halves in one zmm.  A pair block
 * k is eight words, half 0's block k (columns or digits 4k..4k+3) in the
 * low 256 bits and half 1's in the high 256 bits, so each zmm multiply
 * or add does what dual_avx2.c does with two ymm ones; the schedule, the
 * shifted copies, the masks (repeated per 256-bit half) and the scalar
 * Montgomery-digit chain per half are those of dual_avx2.c, whose
 * comment has the method and the bounds.  Inputs and outputs keep the
 * per-half big_vert_num layout; the pair layout lives in the work, the
 * moduli's pair copies there made once per pair of moduli
 * (big_vert_pair_mod_avx512), not once a call.
 */
#include "vertical.h"

#if BIG_VERT_HAVE_AVX2_BUILD

#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx512f")
#endif
#include <immintrin.h>

#include "digits_impl.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))
/* Words of one pair copy of the multiplier: blocks 0..B (B <= MAX_BLOCKS). */
#define PSH_STRIDE (8 * (BIG_VERT_MAX_BLOCKS + 1))

/* The pair work, carved from the caller's two big_vert_work (64-byte
 * aligned inside them): the multiplier's shifted copies, the columns and
 * the two moduli's shifted copies. */
struct pair_work {
	uint64_t ysh[4][PSH_STRIDE];
	uint64_t t[8 * (2 * BIG_VERT_MAX_BLOCKS + 2)];
	uint64_t nsh[4][8 * BIG_VERT_MAX_BLOCKS];
};
_Static_assert(sizeof(struct pair_work) + 64 <= 2 * sizeof(struct big_vert_work),
	       "the pair work fits in the caller's two big_vert_work");

static struct pair_work *pair_work_of(struct big_vert_work *work)
{
	return (struct pair_work *)(((uintptr_t)work + 63) & ~(uintptr_t)63);
}

/* Block k of half 0's and half 1's words at x0 + 4k, x1 + 4k (unaligned). */
ALWAYS_INLINE __m512i pair_loadu(const uint64_t *x0, const uint64_t *x1, int k)
{
	return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(x0 + 4 * k))),
				  _mm256_loadu_si256((const __m256i *)(x1 + 4 * k)), 1);
}

/* Half 0's v0 in the low four lanes, half 1's v1 in the high four. */
ALWAYS_INLINE __m512i bcast2(uint64_t v0, uint64_t v1)
{
	return _mm512_inserti64x4(_mm512_set1_epi64((long long)v0), _mm256_set1_epi64x((long long)v1), 1);
}

ALWAYS_INLINE __m512i ld(const uint64_t *p)
{
	return _mm512_load_si512((const void *)p);
}

ALWAYS_INLINE void st(uint64_t *p, __m512i v)
{
	_mm512_store_si512((void *)p, v);
}

ALWAYS_INLINE __m512i add(__m512i a, __m512i b)
{
	return _mm512_add_epi64(a, b);
}

ALWAYS_INLINE __m512i mul(__m512i a, __m512i b)
{
	return _mm512_mul_epu32(a, b);
}

/* sum_s b_s y_s[k] over the pair copies. */
ALWAYS_INLINE __m512i rows4(const __m512i b[4], uint64_t ysh[4][PSH_STRIDE], int k)
{
	return add(add(mul(b[0], ld(ysh[0] + 8 * k)), mul(b[1], ld(ysh[1] + 8 * k))),
		   add(mul(b[2], ld(ysh[2] + 8 * k)), mul(b[3], ld(ysh[3] + 8 * k))));
}

ALWAYS_INLINE void broadcast8(__m512i bl[4], __m512i bh[4], const uint64_t *d0, const uint64_t *d1)
{
	for (int s = 0; s < 4; s++) {
		bl[s] = bcast2(d0[s], d1[s]);
		bh[s] = bcast2(d0[4 + s], d1[4 + s]);
	}
}

/* Pair columns t = a b per half (dual_avx2.c's mul_columns). */
static __attribute__((noinline)) void mul_columns(struct pair_work *pw, const struct big_vert_num *a,
						  const struct big_vert_num *b, int N, int B)
{
	const __m512i zero = _mm512_setzero_si512();
	const uint64_t *a0 = a[0].d + 4, *a1 = a[1].d + 4;
	const int P = (N + 7) / 8;
	for (int s = 0; s < 4; s++)
		for (int k = 0; k <= B; k++)
			st(pw->ysh[s] + 8 * k, pair_loadu(b[0].d + 4 - s, b[1].d + 4 - s, k));
	uint64_t *t = pw->t;
	for (int k = B + 1; k < 2 * B + 2; k++)
		st(t + 8 * k, zero);
	__m512i bl[4], bh[4];
	broadcast8(bl, bh, a0, a1);
	st(t, rows4(bl, pw->ysh, 0));
	for (int k = 1; k <= B; k++)
		st(t + 8 * k, add(rows4(bl, pw->ysh, k), rows4(bh, pw->ysh, k - 1)));
	for (int p = 1; p < P; p++) {
		broadcast8(bl, bh, a0 + 8 * p, a1 + 8 * p);
		uint64_t *tk = t + 16 * p;
		st(tk, add(ld(tk), rows4(bl, pw->ysh, 0)));
		for (int k = 1; k <= B; k++)
			st(tk + 8 * k, add(ld(tk + 8 * k), add(rows4(bl, pw->ysh, k), rows4(bh, pw->ysh, k - 1))));
	}
}

/* Pair columns t = a^2 per half (dual_avx2.c's sqr_columns). */
static __attribute__((noinline)) void sqr_columns(struct pair_work *pw, const struct big_vert_num *a, int N,
						  int B)
{
	const __m512i zero = _mm512_setzero_si512();
	const __m512i keep_above0 = _mm512_set_epi64(-1, -1, -1, 0, -1, -1, -1, 0);
	const __m512i keep_above2 = _mm512_set_epi64(-1, 0, 0, 0, -1, 0, 0, 0);
	const __m512i even_lanes = _mm512_set_epi64(0, -1, 0, -1, 0, -1, 0, -1);
	const uint64_t *a0 = a[0].d + 4, *a1 = a[1].d + 4;
	const int G = (N + 3) / 4;
	uint64_t *t = pw->t;
	for (int b = 0; b < B; b++) {
		for (int s = 0; s < 4; s++) {
			const __m512i x = pair_loadu(a0 - s, a1 - s, b);
			st(pw->ysh[s] + 8 * b, add(x, x));
		}
		st(t + 16 * b, zero);
		st(t + 16 * b + 8, zero);
	}
	st(t + 16 * B, zero);
	st(t + 16 * B + 8, zero);
	for (int s = 0; s < 4; s++)
		st(pw->ysh[s] + 8 * B, zero);
	for (int g = 0; g < G; g++) {
		const __m512i b0 = bcast2(a0[4 * g], a1[4 * g]);
		const __m512i b1 = bcast2(a0[4 * g + 1], a1[4 * g + 1]);
		const __m512i b2 = bcast2(a0[4 * g + 2], a1[4 * g + 2]);
		const __m512i b3 = bcast2(a0[4 * g + 3], a1[4 * g + 3]);
		const __m512i x = pair_loadu(a0, a1, g);
		const __m512i sq = mul(x, x);
		uint64_t *tk = t + 16 * g;
		__m512i acc = add(ld(tk), _mm512_and_si512(_mm512_permutex_epi64(sq, 0x50), even_lanes));
		acc = add(acc, _mm512_and_si512(keep_above0, mul(b0, ld(pw->ysh[0] + 8 * g))));
		acc = add(acc, _mm512_and_si512(keep_above2, mul(b1, ld(pw->ysh[1] + 8 * g))));
		st(tk, acc);
		tk += 8;
		const uint64_t *y = pw->ysh[0] + 8 * (g + 1);
		acc = add(ld(tk), _mm512_and_si512(_mm512_permutex_epi64(sq, 0xfa), even_lanes));
		__m512i p0 = mul(b0, ld(y));
		__m512i p1 = mul(b1, ld(y + PSH_STRIDE));
		__m512i p2 = _mm512_and_si512(keep_above0, mul(b2, ld(y + 2 * PSH_STRIDE)));
		__m512i p3 = _mm512_and_si512(keep_above2, mul(b3, ld(y + 3 * PSH_STRIDE)));
		st(tk, add(add(acc, p0), add(p1, add(p2, p3))));
		for (int bp = g + 2; bp < B; bp++) {
			tk += 8;
			y += 8;
			p0 = mul(b0, ld(y));
			p1 = mul(b1, ld(y + PSH_STRIDE));
			p2 = mul(b2, ld(y + 2 * PSH_STRIDE));
			p3 = mul(b3, ld(y + 3 * PSH_STRIDE));
			st(tk, add(add(ld(tk), p0), add(p1, add(p2, p3))));
		}
	}
}

/* Pair block g + b of t += sum_r m_r (w shifted up by r) block b; returns it. */
ALWAYS_INLINE __m512i redc_block(uint64_t *t, uint64_t nsh[4][8 * BIG_VERT_MAX_BLOCKS], const __m512i mb[4],
				 int g, int b)
{
	__m512i x = ld(t + 8 * (g + b));
	const __m512i p0 = mul(mb[0], ld(nsh[0] + 8 * b));
	const __m512i p1 = mul(mb[1], ld(nsh[1] + 8 * b));
	const __m512i p2 = mul(mb[2], ld(nsh[2] + 8 * b));
	const __m512i p3 = mul(mb[3], ld(nsh[3] + 8 * b));
	x = add(add(x, p0), add(p1, add(p2, p3)));
	st(t + 8 * (g + b), x);
	return x;
}

/* The lanes of pair block v: half 0's in u0, half 1's in u1. */
ALWAYS_INLINE void block_lanes2(uint64_t u0[4], uint64_t u1[4], __m512i v)
{
	uint64_t lanes[8] __attribute__((aligned(64)));
	st(lanes, v);
	for (int l = 0; l < 4; l++) {
		u0[l] = lanes[l];
		u1[l] = lanes[4 + l];
	}
}

void big_vert_pair_mod_avx512(struct big_vert_work *work, const struct big_vert_mod *mod)
{
	struct pair_work *pw = pair_work_of(work);
	const int B = (mod->digits + 6) / 4;
	for (int s = 0; s < 4; s++)
		for (int k = 0; k < B; k++)
			st(pw->nsh[s] + 8 * k, pair_loadu(mod[0].nsh[s], mod[1].nsh[s], k));
}

ALWAYS_INLINE void reduce_pair(struct big_vert_num *r, const struct big_vert_mod *mod, struct pair_work *pw,
			       const int N)
{
	const int B = (N + 6) / 4, G = (N + 3) / 4;
	uint64_t *t = pw->t;
	uint64_t ca = 0, cb = 0, ma[4], mb[4], ua[4], ub[4];
	__m512i v[4];
	block_lanes2(ua, ub, ld(t));
	big_vert_mont_digits(ma, &ca, ua, &mod[0], 0, N);
	big_vert_mont_digits(mb, &cb, ub, &mod[1], 0, N);
	for (int g = 0; g < G; g++) {
		/* Unrolled, so that v stays in registers: as a loop gcc 12 stores
		 * the four broadcasts and loads them back, on the chain. */
#pragma GCC unroll 4
		for (int s = 0; s < 4; s++)
			v[s] = bcast2(ma[s], mb[s]);
		const int last = g == G - 1;
		if (last && (N & 3))
			redc_block(t, pw->nsh, v, g, 0);
		const __m512i next = redc_block(t, pw->nsh, v, g, 1);
		if (!last) {
			block_lanes2(ua, ub, next);
			big_vert_mont_digits(ma, &ca, ua, &mod[0], g + 1, N);
			big_vert_mont_digits(mb, &cb, ub, &mod[1], g + 1, N);
		}
#pragma GCC unroll 32
		for (int b = 2; b < B; b++)
			redc_block(t, pw->nsh, v, g, b);
	}
	/* Columns N..2N-1 of each half: pair word 8 (c / 4) + 4 h + c % 4. */
	uint64_t *oa = r[0].d + 4, *ob = r[1].d + 4;
#define COL(c, h) t[8 * ((c) / 4) + 4 * (h) + (c) % 4]
	ca += COL(N, 0);
	cb += COL(N, 1);
	oa[0] = ca & BIG_VERT_DIGIT_MASK;
	ob[0] = cb & BIG_VERT_DIGIT_MASK;
	for (int k = 1; k < N; k++) {
		ca = (ca >> BIG_VERT_RADIX_BITS) + COL(N + k, 0);
		cb = (cb >> BIG_VERT_RADIX_BITS) + COL(N + k, 1);
		oa[k] = ca & BIG_VERT_DIGIT_MASK;
		ob[k] = cb & BIG_VERT_DIGIT_MASK;
	}
#undef COL
}

#define REDUCE_PAIR_AT(N)                                                                          \
	static __attribute__((noinline)) void reduce_pair_##N(struct big_vert_num *r,               \
							      const struct big_vert_mod *mod,      \
							      struct pair_work *pw)                \
	{                                                                                          \
		reduce_pair(r, mod, pw, N);                                                        \
	}
REDUCE_PAIR_AT(56)
REDUCE_PAIR_AT(75)

static void reduce_pair_any(struct big_vert_num *r, const struct big_vert_mod *mod, struct pair_work *pw)
{
	if (mod->digits == 56)
		reduce_pair_56(r, mod, pw);
	else
		reduce_pair_75(r, mod, pw);
}

void big_vert_mul2_avx512(struct big_vert_num *r, const struct big_vert_num *a, const struct big_vert_num *b,
			  const struct big_vert_mod *mod, struct big_vert_work *work)
{
	const int N = mod->digits, B = (N + 6) / 4;
	struct pair_work *pw = pair_work_of(work);
	mul_columns(pw, a, b, N, B);
	reduce_pair_any(r, mod, pw);
}

void big_vert_sqr2_avx512(struct big_vert_num *r, const struct big_vert_num *a, const struct big_vert_mod *mod,
			  struct big_vert_work *work)
{
	const int N = mod->digits, B = (N + 6) / 4;
	struct pair_work *pw = pair_work_of(work);
	sqr_columns(pw, a, N, B);
	reduce_pair_any(r, mod, pw);
}

#endif
