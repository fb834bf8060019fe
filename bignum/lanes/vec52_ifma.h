/*
 * The vector API of the radix-2^52 lane algorithm (lanes52_impl.h) as
 * AVX-512 F and IFMA intrinsics on zmm registers: a vector is digit j of
 * the eight lanes, eight 64-bit lanes.
 *
 *   z52_load/store(p)      vmovdqu64 (unaligned)
 *   z52_in_reg(a)          a, in a register (no instruction)
 *   z52_zero, z52_set1(x)  vpxorq, vpbroadcastq
 *   z52_add, z52_sub       vpaddq, vpsubq (mod 2^64)
 *   z52_madd_lo(c, a, b)   vpmadd52luq: c + low 52 bits of a[51:0] b[51:0]
 *   z52_madd_hi(c, a, b)   vpmadd52huq: c + bits 103:52 of that product
 *   z52_shr51, 52, 63      vpsrlq 51, 52, 63
 *   z52_and52(a)           vpandq with 2^52 - 1
 *   z52_eq(a, b)           vpcmpeqq into a mask: bit l set where equal
 *   z52_blend(k, a, b)     vpblendmq: lane l of b where bit l of k, else a
 *   z52_blend_load(k, a, p) the same from memory, p read whole (the scans)
 *
 * The including file compiles it for the target (lanes_ifma.c: #pragma
 * GCC target), or, in the tests, with LANES52_INTRINSICS_EMULATED defined
 * after including an exact software model of every intrinsic used here
 * (tests/lanes/intrin512_emu.h).  Keep the two in step: an intrinsic
 * added here is added there, from Intel's pseudo-code.
 */
#ifndef BIGMONT_LANES_VEC52_IFMA_H
#define BIGMONT_LANES_VEC52_IFMA_H

#ifndef LANES52_INTRINSICS_EMULATED
#include <immintrin.h>

#include "ct_blend.h"
#endif

#include "lanes52.h"

typedef __m512i z52;
typedef __mmask8 z52m;

#define Z52_FN static inline __attribute__((always_inline))

Z52_FN z52 z52_load(const uint64_t *p)
{
	return _mm512_loadu_si512((const void *)p);
}
/* a, held in a register: the two multiply-adds of a row that take one
 * digit then read it from there, not each from memory (gcc 12 folds the
 * load into both where registers are short, and a memory operand costs a
 * multiply-add slot on some cores: docs/design-notes.md). */
Z52_FN z52 z52_in_reg(z52 a)
{
#ifndef LANES52_INTRINSICS_EMULATED
	__asm__("" : "+v"(a));
#endif
	return a;
}
Z52_FN void z52_store(uint64_t *p, z52 a)
{
	_mm512_storeu_si512((void *)p, a);
}
Z52_FN z52 z52_zero(void)
{
	return _mm512_setzero_si512();
}
Z52_FN z52 z52_set1(uint64_t x)
{
	return _mm512_set1_epi64((long long)x);
}
Z52_FN z52 z52_add(z52 a, z52 b)
{
	return _mm512_add_epi64(a, b);
}
Z52_FN z52 z52_sub(z52 a, z52 b)
{
	return _mm512_sub_epi64(a, b);
}
Z52_FN z52 z52_madd_lo(z52 c, z52 a, z52 b)
{
	return _mm512_madd52lo_epu64(c, a, b);
}
Z52_FN z52 z52_madd_hi(z52 c, z52 a, z52 b)
{
	return _mm512_madd52hi_epu64(c, a, b);
}
Z52_FN z52 z52_shr52(z52 a)
{
	return _mm512_srli_epi64(a, 52);
}
Z52_FN z52 z52_shr51(z52 a)
{
	return _mm512_srli_epi64(a, 51);
}
Z52_FN z52 z52_shr63(z52 a)
{
	return _mm512_srli_epi64(a, 63);
}
Z52_FN z52 z52_and52(z52 a)
{
	return _mm512_and_si512(a, _mm512_set1_epi64((long long)BIG_LANES52_DIGIT_MASK));
}
Z52_FN z52m z52_eq(z52 a, z52 b)
{
	return _mm512_cmpeq_epu64_mask(a, b);
}
Z52_FN z52 z52_blend(z52m k, z52 a, z52 b)
{
	return _mm512_mask_blend_epi64(k, a, b);
}
/* z52_blend(k, a, z52_load(p)) for the secret-indexed table scans, p
 * read whole whatever k is (ct_blend.h). */
Z52_FN z52 z52_blend_load(z52m k, z52 a, const uint64_t *p)
{
#ifdef LANES52_INTRINSICS_EMULATED
	return z52_blend(k, a, z52_load(p));
#else
	return big_ct_blend_load512(k, a, p);
#endif
}

#endif
