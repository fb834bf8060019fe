/*
 * The vector API of the lane algorithm (lanes_impl.h) as AVX-512F
 * intrinsics on zmm registers (vec_x86.h): eight lanes a vector, so the
 * eight lanes are one stream.  lv_eq widens the compare's mask register
 * to all-ones lanes (AVX-512F has no vector-valued compare).
 */
#ifndef BIGMONT_LANES_VEC_AVX512_H
#define BIGMONT_LANES_VEC_AVX512_H

#include "vec_x86.h"

typedef __m512i lv;
#define LN_VLANES 8

LV_X86_API(_mm512, si512)

LV_FN lv lv_set1(uint64_t x)
{
	return _mm512_set1_epi64((long long)x);
}
#define lv_srl(a, n) _mm512_srli_epi64((a), (n))
#define lv_sll(a, n) _mm512_slli_epi64((a), (n))
LV_FN lv lv_eq(lv a, lv b)
{
	return _mm512_maskz_set1_epi64(_mm512_cmpeq_epi64_mask(a, b), -1);
}

#endif
