/*
 * The vector API of the lane algorithm (lanes_impl.h) as AVX2 intrinsics
 * on ymm registers: the meanings are in vec_c.h, beside each name.
 */
#ifndef BIGMONT_LANES_VEC_AVX2_H
#define BIGMONT_LANES_VEC_AVX2_H

#include <immintrin.h>

#include "lanes.h"

typedef __m256i lv;
#define LN_VLANES 4

#define LV_FN static inline __attribute__((always_inline))

LV_FN lv lv_load(const uint64_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}
LV_FN void lv_store(uint64_t *p, lv a)
{
	_mm256_storeu_si256((__m256i *)p, a);
}
LV_FN lv lv_set1(uint64_t x)
{
	return _mm256_set1_epi64x((long long)x);
}
LV_FN lv lv_zero(void)
{
	return _mm256_setzero_si256();
}
LV_FN lv lv_add(lv a, lv b)
{
	return _mm256_add_epi64(a, b);
}
LV_FN lv lv_sub(lv a, lv b)
{
	return _mm256_sub_epi64(a, b);
}
LV_FN lv lv_mul(lv a, lv b)
{
	return _mm256_mul_epu32(a, b);
}
#define lv_srl(a, n) _mm256_srli_epi64((a), (n))
#define lv_sll(a, n) _mm256_slli_epi64((a), (n))
LV_FN lv lv_and(lv a, lv b)
{
	return _mm256_and_si256(a, b);
}
LV_FN lv lv_or(lv a, lv b)
{
	return _mm256_or_si256(a, b);
}
LV_FN lv lv_andnot(lv a, lv b)
{
	return _mm256_andnot_si256(a, b);
}
LV_FN lv lv_eq(lv a, lv b)
{
	return _mm256_cmpeq_epi64(a, b);
}

#endif
