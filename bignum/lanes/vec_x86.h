/*
 * The vector API of the lane algorithm (lanes_impl.h) as x86 intrinsics of
 * one width, written once: vec_avx2.h (ymm) and vec_avx512.h (zmm) name the
 * register type and the intrinsics' prefix and suffix and define lv_eq,
 * the one operation whose intrinsic differs in shape; the meanings are in
 * vec_c.h, beside each name.
 *
 *   LV_X86_API(P, S)  P: _mm256 or _mm512, S: si256 or si512
 */
#ifndef BIGMONT_LANES_VEC_X86_H
#define BIGMONT_LANES_VEC_X86_H

#include <immintrin.h>

#include "lanes.h"

#define LV_FN static inline __attribute__((always_inline))

#define LV_X86_API(P, S)                                                     \
	LV_FN lv lv_load(const uint64_t *p) { return P##_loadu_##S((const void *)p); } \
	LV_FN void lv_store(uint64_t *p, lv a) { P##_storeu_##S((void *)p, a); }       \
	LV_FN lv lv_zero(void) { return P##_setzero_##S(); }                           \
	LV_FN lv lv_add(lv a, lv b) { return P##_add_epi64(a, b); }                    \
	LV_FN lv lv_sub(lv a, lv b) { return P##_sub_epi64(a, b); }                    \
	LV_FN lv lv_mul(lv a, lv b) { return P##_mul_epu32(a, b); }                    \
	LV_FN lv lv_and(lv a, lv b) { return P##_and_##S(a, b); }                      \
	LV_FN lv lv_or(lv a, lv b) { return P##_or_##S(a, b); }                        \
	LV_FN lv lv_andnot(lv a, lv b) { return P##_andnot_##S(a, b); }

#endif
