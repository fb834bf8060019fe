/*
 * The vector API of the radix-2^52 algorithm, in portable C: the twin.
 *
 * A vector is four 64-bit lanes; a lane mask is an unsigned int whose bit
 * l stands for lane l.  Each operation is the lane-wise meaning of the
 * AVX-512 instruction vec_ifma.h maps it to (named beside it), exactly,
 * so the algorithm computes the same words in both builds.  Products go
 * through unsigned __int128.  Masks and selections use arithmetic, never
 * a branch on a lane's value (Valgrind's memcheck checks it).
 *
 *   r52v_load/store(p)          vmovdqu64 (unaligned)
 *   r52v_zero, r52v_bcast(x)    vpxor, vpbroadcastq
 *   r52v_add(a, b)              vpaddq
 *   r52v_madd_lo(acc, a, b)     vpmadd52luq: acc + bits 0..51 of a*b
 *   r52v_madd_hi(acc, a, b)     vpmadd52huq: acc + bits 52..103 of a*b
 *                               (a, b: the low 52 bits of each lane)
 *   r52v_madd_lo/hi_mask(acc, k, a, b)   the same in lanes of k, acc
 *                               elsewhere (merge masking)
 *   r52v_shr52(a), r52v_and52(a)  vpsrlq 52, vpandq 2^52-1
 *   r52v_align(hi, lo, n)       valignq n: lanes n..n+3 of hi:lo
 *   r52v_lane(a, l)             vmovq / vpextrq (l = 0, 1)
 *   r52v_set_lane0(a, x)        vpbroadcastq under mask 1
 *   r52v_interleave_lo/hi(a, b) vpermt2q: a0 b0 a1 b1 / a2 b2 a3 b3
 *   r52v_gt(a, b), r52v_eq(a, b)  vpcmpuq: lane mask of a > b, a == b
 *   r52v_add_mask(a, k, b)      vpaddq under mask k: a + b in lanes of k
 *   r52v_blend(k, a, b)         vpblendmq: b in lanes of k, a elsewhere
 *   r52v_blend_load(k, a, p)    the same from memory, p read whole
 */
#ifndef BIGMONT_RADIX52_VEC_C_H
#define BIGMONT_RADIX52_VEC_C_H

#include "radix52.h"

typedef struct {
	uint64_t l[4];
} r52v;
typedef unsigned r52m;

#define R52V_FN static inline __attribute__((always_inline))

R52V_FN r52v r52v_load(const uint64_t *p)
{
	r52v r;
	for (int l = 0; l < 4; l++)
		r.l[l] = p[l];
	return r;
}

R52V_FN void r52v_store(uint64_t *p, r52v a)
{
	for (int l = 0; l < 4; l++)
		p[l] = a.l[l];
}

R52V_FN r52v r52v_bcast(uint64_t x)
{
	r52v r;
	for (int l = 0; l < 4; l++)
		r.l[l] = x;
	return r;
}

R52V_FN r52v r52v_zero(void)
{
	return r52v_bcast(0);
}

R52V_FN r52v r52v_add(r52v a, r52v b)
{
	for (int l = 0; l < 4; l++)
		a.l[l] += b.l[l];
	return a;
}

/* All-ones if bit l of k is set, else 0. */
R52V_FN uint64_t r52v_lane_mask(r52m k, int l)
{
	return (uint64_t)0 - (uint64_t)((k >> l) & 1);
}

R52V_FN unsigned __int128 r52v_prod(uint64_t a, uint64_t b)
{
	return (unsigned __int128)(a & BIG_R52_DIGIT_MASK) *
	       (b & BIG_R52_DIGIT_MASK);
}

R52V_FN r52v r52v_madd_lo_mask(r52v acc, r52m k, r52v a, r52v b)
{
	for (int l = 0; l < 4; l++)
		acc.l[l] += (uint64_t)r52v_prod(a.l[l], b.l[l]) &
			    BIG_R52_DIGIT_MASK & r52v_lane_mask(k, l);
	return acc;
}

R52V_FN r52v r52v_madd_hi_mask(r52v acc, r52m k, r52v a, r52v b)
{
	for (int l = 0; l < 4; l++)
		acc.l[l] += (uint64_t)(r52v_prod(a.l[l], b.l[l]) >> 52) &
			    r52v_lane_mask(k, l);
	return acc;
}

R52V_FN r52v r52v_madd_lo(r52v acc, r52v a, r52v b)
{
	return r52v_madd_lo_mask(acc, 0xf, a, b);
}

R52V_FN r52v r52v_madd_hi(r52v acc, r52v a, r52v b)
{
	return r52v_madd_hi_mask(acc, 0xf, a, b);
}

R52V_FN r52v r52v_shr52(r52v a)
{
	for (int l = 0; l < 4; l++)
		a.l[l] >>= 52;
	return a;
}

R52V_FN r52v r52v_and52(r52v a)
{
	for (int l = 0; l < 4; l++)
		a.l[l] &= BIG_R52_DIGIT_MASK;
	return a;
}

/* n is a constant 0..3 at every call (an immediate in vec_ifma.h). */
R52V_FN r52v r52v_align(r52v hi, r52v lo, int n)
{
	r52v r;
	for (int l = 0; l < 4; l++)
		r.l[l] = l + n < 4 ? lo.l[l + n] : hi.l[l + n - 4];
	return r;
}

R52V_FN uint64_t r52v_lane(r52v a, int l)
{
	return a.l[l];
}

R52V_FN r52v r52v_set_lane0(r52v a, uint64_t x)
{
	a.l[0] = x;
	return a;
}

R52V_FN r52v r52v_interleave_lo(r52v a, r52v b)
{
	r52v r = { { a.l[0], b.l[0], a.l[1], b.l[1] } };
	return r;
}

R52V_FN r52v r52v_interleave_hi(r52v a, r52v b)
{
	r52v r = { { a.l[2], b.l[2], a.l[3], b.l[3] } };
	return r;
}

/* 1 if x > y (unsigned), from the borrow of y - x, without a branch. */
R52V_FN unsigned r52v_gt1(uint64_t x, uint64_t y)
{
	return (unsigned)(((~y & x) | (~(y ^ x) & (y - x))) >> 63);
}

/* 1 if x == y, without a branch. */
R52V_FN unsigned r52v_eq1(uint64_t x, uint64_t y)
{
	const uint64_t d = x ^ y;
	return 1u ^ (unsigned)((d | ((uint64_t)0 - d)) >> 63);
}

R52V_FN r52m r52v_gt(r52v a, r52v b)
{
	r52m k = 0;
	for (int l = 0; l < 4; l++)
		k |= r52v_gt1(a.l[l], b.l[l]) << l;
	return k;
}

R52V_FN r52m r52v_eq(r52v a, r52v b)
{
	r52m k = 0;
	for (int l = 0; l < 4; l++)
		k |= r52v_eq1(a.l[l], b.l[l]) << l;
	return k;
}

R52V_FN r52v r52v_add_mask(r52v a, r52m k, r52v b)
{
	for (int l = 0; l < 4; l++)
		a.l[l] += b.l[l] & r52v_lane_mask(k, l);
	return a;
}

R52V_FN r52v r52v_blend(r52m k, r52v a, r52v b)
{
	for (int l = 0; l < 4; l++) {
		const uint64_t take = r52v_lane_mask(k, l);
		a.l[l] = (a.l[l] & ~take) | (b.l[l] & take);
	}
	return a;
}

R52V_FN r52v r52v_blend_load(r52m k, r52v a, const uint64_t *p)
{
	return r52v_blend(k, a, r52v_load(p));
}

#endif /* BIGMONT_RADIX52_VEC_C_H */
