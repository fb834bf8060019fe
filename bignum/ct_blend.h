/*
 * a with the 64-bit lanes of the vector at p where bit l of k is set, by
 * one vpblendmq from memory: the table reads that select an entry by a
 * secret index (big_ct_select_vl, r52_select_*, the IFMA lanes' scans).
 * vpblendmq's mask selects (it is no writemask), so the memory at p is
 * read whole whatever k is.  Written out because from the intrinsics
 * (a load and _mm*_mask_blend_epi64) GCC folds the load into vmovdqu64
 * under the writemask k, a load that may leave the memory of the lanes
 * not taken unread, so that which table lines were read could follow
 * the index (docs/security.md; ct_no_masked_access checks the objects).
 * For AVX-512 code only (the including file's target has AVX-512F, and
 * VL for the 256-bit form); the tests' emulated builds blend in C.
 */
#ifndef BIGMONT_CT_BLEND_H
#define BIGMONT_CT_BLEND_H

#include <immintrin.h>

#define BIG_CT_BLEND_FN(features)                                              \
	static inline __attribute__((always_inline, target(features)))

#define BIG_CT_BLEND_LOAD(type, k, a, p)                                       \
	do {                                                                   \
		__asm__("vpblendmq %[m], %[x], %[x]%{%[k]%}"                   \
			: [x] "+v"(a)                                          \
			: [m] "m"(*(const type *)(p)), [k] "Yk"(k));          \
	} while (0)

BIG_CT_BLEND_FN("avx512f") __m512i big_ct_blend_load512(__mmask8 k, __m512i a, const void *p)
{
	BIG_CT_BLEND_LOAD(__m512i_u, k, a, p);
	return a;
}

BIG_CT_BLEND_FN("avx512f,avx512vl") __m256i big_ct_blend_load256(__mmask8 k, __m256i a, const void *p)
{
	BIG_CT_BLEND_LOAD(__m256i_u, k, a, p);
	return a;
}

#endif
