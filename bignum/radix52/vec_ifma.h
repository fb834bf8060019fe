/*
 * The vector API of the radix-2^52 algorithm as AVX-512 F/VL/IFMA
 * intrinsics on ymm registers (the meaning of each operation: vec_c.h).
 *
 * The including file compiles it for the target (dual_ifma.c: #pragma GCC
 * target), or, in the tests, with R52_INTRINSICS_EMULATED defined after
 * including an exact software model of every intrinsic used here
 * (tests/radix52/intrin_emu.h), so that this mapping runs on any CPU.
 * Keep the two in step: an intrinsic added here is added there, from
 * Intel's pseudo-code.
 *
 * r52v_align and r52v_lane are macros: their count is an immediate.
 */
#ifndef BIGMONT_RADIX52_VEC_IFMA_H
#define BIGMONT_RADIX52_VEC_IFMA_H

#include "radix52.h"

#ifndef R52_INTRINSICS_EMULATED
#include <immintrin.h>

#include "ct_blend.h"
#endif

typedef __m256i r52v;
typedef __mmask8 r52m;

#define R52V_FN static inline __attribute__((always_inline))

R52V_FN r52v r52v_load(const uint64_t *p)
{
	return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

R52V_FN void r52v_store(uint64_t *p, r52v a)
{
	_mm256_storeu_si256((__m256i *)(void *)p, a);
}

R52V_FN r52v r52v_zero(void)
{
	return _mm256_setzero_si256();
}

R52V_FN r52v r52v_bcast(uint64_t x)
{
	return _mm256_set1_epi64x((long long)x);
}

R52V_FN r52v r52v_add(r52v a, r52v b)
{
	return _mm256_add_epi64(a, b);
}

R52V_FN r52v r52v_madd_lo(r52v acc, r52v a, r52v b)
{
	return _mm256_madd52lo_epu64(acc, a, b);
}

R52V_FN r52v r52v_madd_hi(r52v acc, r52v a, r52v b)
{
	return _mm256_madd52hi_epu64(acc, a, b);
}

R52V_FN r52v r52v_madd_lo_mask(r52v acc, r52m k, r52v a, r52v b)
{
	return _mm256_mask_madd52lo_epu64(acc, k, a, b);
}

R52V_FN r52v r52v_madd_hi_mask(r52v acc, r52m k, r52v a, r52v b)
{
	return _mm256_mask_madd52hi_epu64(acc, k, a, b);
}

R52V_FN r52v r52v_shr52(r52v a)
{
	return _mm256_srli_epi64(a, 52);
}

R52V_FN r52v r52v_and52(r52v a)
{
	return _mm256_and_si256(a, _mm256_set1_epi64x((long long)BIG_R52_DIGIT_MASK));
}

#define r52v_align(hi, lo, n) _mm256_alignr_epi64((hi), (lo), (n))
#define r52v_lane(a, l) ((uint64_t)_mm256_extract_epi64((a), (l)))

R52V_FN r52v r52v_set_lane0(r52v a, uint64_t x)
{
	return _mm256_mask_set1_epi64(a, 1, (long long)x);
}

R52V_FN r52v r52v_interleave_lo(r52v a, r52v b)
{
	return _mm256_permutex2var_epi64(a, _mm256_set_epi64x(5, 1, 4, 0), b);
}

R52V_FN r52v r52v_interleave_hi(r52v a, r52v b)
{
	return _mm256_permutex2var_epi64(a, _mm256_set_epi64x(7, 3, 6, 2), b);
}

R52V_FN r52m r52v_gt(r52v a, r52v b)
{
	return _mm256_cmpgt_epu64_mask(a, b);
}

R52V_FN r52m r52v_eq(r52v a, r52v b)
{
	return _mm256_cmpeq_epu64_mask(a, b);
}

R52V_FN r52v r52v_add_mask(r52v a, r52m k, r52v b)
{
	return _mm256_mask_add_epi64(a, k, a, b);
}

R52V_FN r52v r52v_blend(r52m k, r52v a, r52v b)
{
	return _mm256_mask_blend_epi64(k, a, b);
}

/* r52v_blend(k, a, r52v_load(p)) for the secret-indexed table reads, p
 * read whole whatever k is (ct_blend.h). */
R52V_FN r52v r52v_blend_load(r52m k, r52v a, const uint64_t *p)
{
#ifdef R52_INTRINSICS_EMULATED
	return r52v_blend(k, a, r52v_load(p));
#else
	return big_ct_blend_load256(k, a, p);
#endif
}

#endif /* BIGMONT_RADIX52_VEC_IFMA_H */
