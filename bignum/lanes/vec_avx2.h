/*
 * The vector API of the lane algorithm (lanes_impl.h) as AVX2 intrinsics
 * on ymm registers (vec_x86.h): four lanes a vector, two streams.
 */
#ifndef BIGMONT_LANES_VEC_AVX2_H
#define BIGMONT_LANES_VEC_AVX2_H

#include "vec_x86.h"

typedef __m256i lv;
#define LN_VLANES 4

LV_X86_API(_mm256, si256)

LV_FN lv lv_set1(uint64_t x)
{
	return _mm256_set1_epi64x((long long)x);
}
#define lv_srl(a, n) _mm256_srli_epi64((a), (n))
#define lv_sll(a, n) _mm256_slli_epi64((a), (n))
LV_FN lv lv_eq(lv a, lv b)
{
	return _mm256_cmpeq_epi64(a, b);
}

#endif
