/*
 * The vector API of the lane algorithm (lanes_impl.h) in portable C: the
 * twin.  A vector is four 64-bit lanes; each operation is the lane-wise
 * meaning of the AVX2 instruction vec_avx2.h maps it to (named beside it),
 * exactly, so both builds compute the same words.  No operation branches
 * on a lane's value.
 *
 *   lv_load/store(p)     vmovdqu (unaligned)
 *   lv_zero, lv_set1(x)  vpxor, vpbroadcastq
 *   lv_add, lv_sub       vpaddq, vpsubq (mod 2^64)
 *   lv_mul(a, b)         vpmuludq: low 32 bits of a times low 32 bits of b
 *   lv_srl(a, n)         vpsrlq n
 *   lv_sll(a, n)         vpsllq n
 *   lv_and, lv_or        vpand, vpor
 *   lv_andnot(a, b)      vpandn: ~a & b
 *   lv_eq(a, b)          vpcmpeqq: all-ones where equal, else 0
 */
#ifndef BIGMONT_LANES_VEC_C_H
#define BIGMONT_LANES_VEC_C_H

#include "lanes.h"

typedef struct {
	uint64_t l[4];
} lv;
#define LN_VLANES 4

#define LV_FN static inline __attribute__((always_inline))

LV_FN lv lv_load(const uint64_t *p)
{
	lv r;
	for (int i = 0; i < 4; i++)
		r.l[i] = p[i];
	return r;
}
LV_FN void lv_store(uint64_t *p, lv a)
{
	for (int i = 0; i < 4; i++)
		p[i] = a.l[i];
}
LV_FN lv lv_set1(uint64_t x)
{
	lv r;
	for (int i = 0; i < 4; i++)
		r.l[i] = x;
	return r;
}
LV_FN lv lv_zero(void)
{
	return lv_set1(0);
}
LV_FN lv lv_add(lv a, lv b)
{
	for (int i = 0; i < 4; i++)
		a.l[i] += b.l[i];
	return a;
}
LV_FN lv lv_sub(lv a, lv b)
{
	for (int i = 0; i < 4; i++)
		a.l[i] -= b.l[i];
	return a;
}
LV_FN lv lv_mul(lv a, lv b)
{
	for (int i = 0; i < 4; i++)
		a.l[i] = (uint64_t)(uint32_t)a.l[i] * (uint32_t)b.l[i];
	return a;
}
LV_FN lv lv_srl(lv a, int n)
{
	for (int i = 0; i < 4; i++)
		a.l[i] >>= n;
	return a;
}
LV_FN lv lv_sll(lv a, int n)
{
	for (int i = 0; i < 4; i++)
		a.l[i] <<= n;
	return a;
}
LV_FN lv lv_and(lv a, lv b)
{
	for (int i = 0; i < 4; i++)
		a.l[i] &= b.l[i];
	return a;
}
LV_FN lv lv_or(lv a, lv b)
{
	for (int i = 0; i < 4; i++)
		a.l[i] |= b.l[i];
	return a;
}
LV_FN lv lv_andnot(lv a, lv b)
{
	for (int i = 0; i < 4; i++)
		a.l[i] = ~a.l[i] & b.l[i];
	return a;
}
/* The all-ones mask from the zero test, by arithmetic: ((d | -d) >> 63)
 * is 1 exactly when d != 0. */
LV_FN lv lv_eq(lv a, lv b)
{
	for (int i = 0; i < 4; i++) {
		const uint64_t d = a.l[i] ^ b.l[i];
		a.l[i] = ((d | (0 - d)) >> 63) - 1;
	}
	return a;
}

#endif
