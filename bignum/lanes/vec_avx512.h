/*
 * The vector API of the lane algorithm (lanes_impl.h) as AVX-512F
 * intrinsics on zmm registers: eight lanes a vector, so the eight lanes
 * are one stream.  The meanings are in vec_c.h, beside each name; lv_eq
 * widens the compare's mask register to all-ones lanes (AVX-512F has no
 * vector-valued compare).
 */
#ifndef BIGMONT_LANES_VEC_AVX512_H
#define BIGMONT_LANES_VEC_AVX512_H

#include <immintrin.h>

#include "lanes.h"

typedef __m512i lv;
#define LN_VLANES 8

#define LV_FN static inline __attribute__((always_inline))

LV_FN lv lv_load(const uint64_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}
LV_FN void lv_store(uint64_t *p, lv a)
{
	_mm512_storeu_si512((void *)p, a);
}
LV_FN lv lv_set1(uint64_t x)
{
	return _mm512_set1_epi64((long long)x);
}
LV_FN lv lv_zero(void)
{
	return _mm512_setzero_si512();
}
LV_FN lv lv_add(lv a, lv b)
{
	return _mm512_add_epi64(a, b);
}
LV_FN lv lv_sub(lv a, lv b)
{
	return _mm512_sub_epi64(a, b);
}
LV_FN lv lv_mul(lv a, lv b)
{
	return _mm512_mul_epu32(a, b);
}
#define lv_srl(a, n) _mm512_srli_epi64((a), (n))
#define lv_sll(a, n) _mm512_slli_epi64((a), (n))
LV_FN lv lv_and(lv a, lv b)
{
	return _mm512_and_si512(a, b);
}
LV_FN lv lv_or(lv a, lv b)
{
	return _mm512_or_si512(a, b);
}
LV_FN lv lv_andnot(lv a, lv b)
{
	return _mm512_andnot_si512(a, b);
}
LV_FN lv lv_eq(lv a, lv b)
{
	return _mm512_maskz_set1_epi64(_mm512_cmpeq_epi64_mask(a, b), -1);
}

#endif
