/*
 * An exact software model of the AVX-512 intrinsics that
 * bignum/lanes/vec52_ifma.h uses, so that the IFMA build of the radix-2^52
 * lane algorithm (bignum/lanes/lanes_ifma.c) compiles and runs on any CPU
 * (lanes52_emu.c); tests/radix52/intrin_emu.h builds its model of the
 * dual kernels' intrinsics on it.  Each function has the intrinsic's name and signature
 * and follows Intel's pseudo-code in the Intrinsics Guide lane by lane
 * (quoted in short above it); nothing more.  The masked ones select by
 * arithmetic, not by a branch on the mask, so the model keeps the
 * instructions' constant time (a Memcheck run sees no branch on a lane's
 * value).  Include it instead of <immintrin.h>, in a file that includes
 * nothing else that does.
 */
#ifndef BIGMONT_TESTS_INTRIN512_EMU_H
#define BIGMONT_TESTS_INTRIN512_EMU_H

#include <stdint.h>

typedef struct {
	uint64_t q[8];
} __m512i;
typedef unsigned char __mmask8;

#define EMU static inline

/* dst[511:0] := MEM[mem_addr+511:mem_addr] (no alignment needed) */
EMU __m512i _mm512_loadu_si512(const void *mem_addr)
{
	__m512i r;
	__builtin_memcpy(&r, mem_addr, sizeof(r));
	return r;
}

/* MEM[mem_addr+511:mem_addr] := a[511:0] */
EMU void _mm512_storeu_si512(void *mem_addr, __m512i a)
{
	__builtin_memcpy(mem_addr, &a, sizeof(a));
}

/* dst[MAX:0] := 0 */
EMU __m512i _mm512_setzero_si512(void)
{
	__m512i r;
	for (int j = 0; j < 8; j++)
		r.q[j] = 0;
	return r;
}

/* dst[i+63:i] := a[63:0] for each element */
EMU __m512i _mm512_set1_epi64(long long a)
{
	__m512i r;
	for (int j = 0; j < 8; j++)
		r.q[j] = (uint64_t)a;
	return r;
}

/* dst[i+63:i] := a[i+63:i] + b[i+63:i] */
EMU __m512i _mm512_add_epi64(__m512i a, __m512i b)
{
	for (int j = 0; j < 8; j++)
		a.q[j] += b.q[j];
	return a;
}

/* dst[i+63:i] := a[i+63:i] - b[i+63:i] */
EMU __m512i _mm512_sub_epi64(__m512i a, __m512i b)
{
	for (int j = 0; j < 8; j++)
		a.q[j] -= b.q[j];
	return a;
}

/* dst[511:0] := a[511:0] AND b[511:0] */
EMU __m512i _mm512_and_si512(__m512i a, __m512i b)
{
	for (int j = 0; j < 8; j++)
		a.q[j] &= b.q[j];
	return a;
}

/* dst[i+63:i] := imm8[7:0] > 63 ? 0 : ZeroExtend64(a[i+63:i] >> imm8[7:0]) */
EMU __m512i _mm512_srli_epi64(__m512i a, unsigned int imm8)
{
	const unsigned count = imm8 & 0xff;
	for (int j = 0; j < 8; j++)
		a.q[j] = count > 63 ? 0 : a.q[j] >> count;
	return a;
}

/* tmp[127:0] := ZeroExtend64(b[i+51:i]) * ZeroExtend64(c[i+51:i])
 * dst[i+63:i] := a[i+63:i] + ZeroExtend64(tmp[51:0])          (lo)
 * dst[i+63:i] := a[i+63:i] + ZeroExtend64(tmp[103:52])        (hi) */
EMU unsigned __int128 emu512_madd52_tmp(uint64_t b, uint64_t c)
{
	const uint64_t low52 = (UINT64_C(1) << 52) - 1;
	return (unsigned __int128)(b & low52) * (c & low52);
}

EMU __m512i _mm512_madd52lo_epu64(__m512i a, __m512i b, __m512i c)
{
	for (int j = 0; j < 8; j++)
		a.q[j] += (uint64_t)emu512_madd52_tmp(b.q[j], c.q[j]) &
			  ((UINT64_C(1) << 52) - 1);
	return a;
}

EMU __m512i _mm512_madd52hi_epu64(__m512i a, __m512i b, __m512i c)
{
	for (int j = 0; j < 8; j++)
		a.q[j] += (uint64_t)(emu512_madd52_tmp(b.q[j], c.q[j]) >> 52) &
			  ((UINT64_C(1) << 52) - 1);
	return a;
}

/* k[j] := (a[i+63:i] == b[i+63:i]) ? 1 : 0; k[MAX:8] := 0
 * (the bit from ((d | -d) >> 63) == 0, d = a XOR b: no branch) */
EMU __mmask8 _mm512_cmpeq_epu64_mask(__m512i a, __m512i b)
{
	unsigned k = 0;
	for (int j = 0; j < 8; j++) {
		const uint64_t d = a.q[j] ^ b.q[j];
		k |= (unsigned)(1 - ((d | (0 - d)) >> 63)) << j;
	}
	return (__mmask8)k;
}

/* dst[i+63:i] := k[j] ? b[i+63:i] : a[i+63:i]
 * (the choice by an all-ones or all-zero mask of k[j]: no branch) */
EMU __m512i _mm512_mask_blend_epi64(__mmask8 k, __m512i a, __m512i b)
{
	for (int j = 0; j < 8; j++) {
		const uint64_t take = 0 - (uint64_t)((k >> j) & 1);
		a.q[j] = (a.q[j] & ~take) | (b.q[j] & take);
	}
	return a;
}

#undef EMU

#endif /* BIGMONT_TESTS_INTRIN512_EMU_H */
