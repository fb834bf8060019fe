/*
 * An exact software model of the AVX-512 intrinsics that
 * bignum/radix52/vec_ifma.h uses, so that the IFMA build of the radix-2^52
 * algorithm (bignum/radix52/dual_ifma.c) compiles and runs on any CPU
 * (dual_emu.c).  Each function has the intrinsic's name and signature and
 * follows Intel's pseudo-code in the Intrinsics Guide lane by lane
 * (quoted in short above it); nothing more.  Include it instead of
 * <immintrin.h>, in a file that includes nothing else that does.
 */
#ifndef BIGMONT_TESTS_INTRIN_EMU_H
#define BIGMONT_TESTS_INTRIN_EMU_H

#include <stdint.h>

/* __m512i, __mmask8, EMU and the 512-bit intrinsics the lane build uses
 * too (loads, stores, set1, add, and, shift, the multiply-adds, compare
 * for equality, blend): one model of them.  The rest of the pair
 * kernels' 512-bit ones follow below. */
#include "../lanes/intrin512_emu.h"

typedef struct {
	uint64_t q[4];
} __m256i;

#define EMU static inline

/* All ones where bit j of k is set, else zero.  Every masked operation
 * below selects through it rather than branching on k: the masks the
 * algorithm makes depend on secrets (a table index, a carry), and the
 * emulated build runs under Memcheck (tests/ct/), which reports a branch
 * on a secret. */
EMU uint64_t emu_lane_mask(__mmask8 k, int j)
{
	return (uint64_t)0 - (uint64_t)((k >> j) & 1);
}

/* k[j] := cond_j: a compare's 0 or 1 shifted in place, no branch. */
EMU __mmask8 emu_mask_bit(int cond, int j)
{
	return (__mmask8)((unsigned)(cond != 0) << j);
}

/* dst[255:0] := MEM[mem_addr+255:mem_addr] (no alignment needed) */
EMU __m256i _mm256_loadu_si256(const __m256i *mem_addr)
{
	__m256i r;
	__builtin_memcpy(&r, mem_addr, sizeof(r));
	return r;
}

/* MEM[mem_addr+255:mem_addr] := a[255:0] */
EMU void _mm256_storeu_si256(__m256i *mem_addr, __m256i a)
{
	__builtin_memcpy(mem_addr, &a, sizeof(a));
}

EMU __m256i _mm256_setzero_si256(void)
{
	__m256i r = { { 0, 0, 0, 0 } };
	return r;
}

/* dst[i+63:i] := a[63:0] for each element */
EMU __m256i _mm256_set1_epi64x(long long a)
{
	__m256i r;
	for (int j = 0; j < 4; j++)
		r.q[j] = (uint64_t)a;
	return r;
}

/* dst[63:0] := e0, ..., dst[255:192] := e3 */
EMU __m256i _mm256_set_epi64x(long long e3, long long e2, long long e1,
			      long long e0)
{
	__m256i r = { { (uint64_t)e0, (uint64_t)e1, (uint64_t)e2, (uint64_t)e3 } };
	return r;
}

/* dst[i+63:i] := a[i+63:i] + b[i+63:i] */
EMU __m256i _mm256_add_epi64(__m256i a, __m256i b)
{
	for (int j = 0; j < 4; j++)
		a.q[j] += b.q[j];
	return a;
}

/* dst[i+63:i] := k[j] ? a[i+63:i] + b[i+63:i] : src[i+63:i] */
EMU __m256i _mm256_mask_add_epi64(__m256i src, __mmask8 k, __m256i a, __m256i b)
{
	for (int j = 0; j < 4; j++)
		src.q[j] ^= (src.q[j] ^ (a.q[j] + b.q[j])) & emu_lane_mask(k, j);
	return src;
}

/* dst[255:0] := a[255:0] AND b[255:0] */
EMU __m256i _mm256_and_si256(__m256i a, __m256i b)
{
	for (int j = 0; j < 4; j++)
		a.q[j] &= b.q[j];
	return a;
}

/* dst[i+63:i] := imm8[7:0] > 63 ? 0 : ZeroExtend64(a[i+63:i] >> imm8[7:0]) */
EMU __m256i _mm256_srli_epi64(__m256i a, int imm8)
{
	const unsigned count = (unsigned)imm8 & 0xff;
	for (int j = 0; j < 4; j++)
		a.q[j] = count > 63 ? 0 : a.q[j] >> count;
	return a;
}

/* tmp[127:0] := ZeroExtend64(b[i+51:i]) * ZeroExtend64(c[i+51:i])
 * dst[i+63:i] := a[i+63:i] + ZeroExtend64(tmp[51:0])          (lo)
 * dst[i+63:i] := a[i+63:i] + ZeroExtend64(tmp[103:52])        (hi)
 * masked: dst[i+63:i] := a[i+63:i] where k[j] is clear */
EMU unsigned __int128 emu_madd52_tmp(uint64_t b, uint64_t c)
{
	const uint64_t low52 = (UINT64_C(1) << 52) - 1;
	return (unsigned __int128)(b & low52) * (c & low52);
}

EMU __m256i _mm256_mask_madd52lo_epu64(__m256i a, __mmask8 k, __m256i b, __m256i c)
{
	for (int j = 0; j < 4; j++)
		a.q[j] += (uint64_t)emu_madd52_tmp(b.q[j], c.q[j]) & ((UINT64_C(1) << 52) - 1) &
			  emu_lane_mask(k, j);
	return a;
}

EMU __m256i _mm256_mask_madd52hi_epu64(__m256i a, __mmask8 k, __m256i b, __m256i c)
{
	for (int j = 0; j < 4; j++)
		a.q[j] += (uint64_t)(emu_madd52_tmp(b.q[j], c.q[j]) >> 52) &
			  ((UINT64_C(1) << 52) - 1) & emu_lane_mask(k, j);
	return a;
}

EMU __m256i _mm256_madd52lo_epu64(__m256i a, __m256i b, __m256i c)
{
	return _mm256_mask_madd52lo_epu64(a, 0xff, b, c);
}

EMU __m256i _mm256_madd52hi_epu64(__m256i a, __m256i b, __m256i c)
{
	return _mm256_mask_madd52hi_epu64(a, 0xff, b, c);
}

/* temp[511:256] := a[255:0]; temp[255:0] := b[255:0];
 * temp[511:0] := temp[511:0] >> (64 * imm8[1:0]); dst[255:0] := temp[255:0] */
EMU __m256i _mm256_alignr_epi64(__m256i a, __m256i b, int imm8)
{
	const int count = imm8 & 3;
	uint64_t temp[8];
	__m256i r;
	for (int j = 0; j < 4; j++) {
		temp[j] = b.q[j];
		temp[j + 4] = a.q[j];
	}
	for (int j = 0; j < 4; j++)
		r.q[j] = temp[j + count];
	return r;
}

/* dst[63:0] := (a[255:0] >> (index[1:0] * 64))[63:0] */
EMU long long _mm256_extract_epi64(__m256i a, int index)
{
	return (long long)a.q[index & 3];
}

/* dst[i+63:i] := k[j] ? a[63:0] : src[i+63:i] */
EMU __m256i _mm256_mask_set1_epi64(__m256i src, __mmask8 k, long long a)
{
	for (int j = 0; j < 4; j++)
		src.q[j] ^= (src.q[j] ^ (uint64_t)a) & emu_lane_mask(k, j);
	return src;
}

/* off := idx[i+1:i] * 64;
 * dst[i+63:i] := idx[i+2] ? b[off+63:off] : a[off+63:off] */
EMU __m256i _mm256_permutex2var_epi64(__m256i a, __m256i idx, __m256i b)
{
	__m256i r;
	for (int j = 0; j < 4; j++) {
		const unsigned off = (unsigned)(idx.q[j] & 3);
		r.q[j] = (idx.q[j] >> 2) & 1 ? b.q[off] : a.q[off];
	}
	return r;
}

/* k[j] := (a[i+63:i] OP b[i+63:i]) ? 1 : 0 (unsigned); k[MAX:4] := 0 */
EMU __mmask8 _mm256_cmpgt_epu64_mask(__m256i a, __m256i b)
{
	__mmask8 k = 0;
	for (int j = 0; j < 4; j++)
		k |= emu_mask_bit(a.q[j] > b.q[j], j);
	return k;
}

EMU __mmask8 _mm256_cmpeq_epu64_mask(__m256i a, __m256i b)
{
	__mmask8 k = 0;
	for (int j = 0; j < 4; j++)
		k |= emu_mask_bit(a.q[j] == b.q[j], j);
	return k;
}

/* dst[i+63:i] := k[j] ? b[i+63:i] : a[i+63:i] */
EMU __m256i _mm256_mask_blend_epi64(__mmask8 k, __m256i a, __m256i b)
{
	for (int j = 0; j < 4; j++)
		a.q[j] ^= (a.q[j] ^ b.q[j]) & emu_lane_mask(k, j);
	return a;
}

/* ---- the 512-bit ones of the pair product (dual_ifma.c) -------------- */

/* dst[63:0] := e0, ..., dst[511:448] := e7 */
EMU __m512i _mm512_set_epi64(long long e7, long long e6, long long e5, long long e4,
			     long long e3, long long e2, long long e1, long long e0)
{
	__m512i r = { { (uint64_t)e0, (uint64_t)e1, (uint64_t)e2, (uint64_t)e3, (uint64_t)e4,
			(uint64_t)e5, (uint64_t)e6, (uint64_t)e7 } };
	return r;
}

/* dst[i+63:i] := k[j] ? a[63:0] : src[i+63:i] */
EMU __m512i _mm512_mask_set1_epi64(__m512i src, __mmask8 k, long long a)
{
	for (int j = 0; j < 8; j++)
		src.q[j] ^= (src.q[j] ^ (uint64_t)a) & emu_lane_mask(k, j);
	return src;
}

/* the 256-bit ones above (add with a mask, compare), on 8 lanes */
EMU __m512i _mm512_mask_add_epi64(__m512i src, __mmask8 k, __m512i a, __m512i b)
{
	for (int j = 0; j < 8; j++)
		src.q[j] ^= (src.q[j] ^ (a.q[j] + b.q[j])) & emu_lane_mask(k, j);
	return src;
}

EMU __mmask8 _mm512_cmpgt_epu64_mask(__m512i a, __m512i b)
{
	__mmask8 k = 0;
	for (int j = 0; j < 8; j++)
		k |= emu_mask_bit(a.q[j] > b.q[j], j);
	return k;
}

/* the lo and hi forms of the 256-bit ones above, on 8 lanes */
EMU __m512i _mm512_mask_madd52lo_epu64(__m512i a, __mmask8 k, __m512i b, __m512i c)
{
	for (int j = 0; j < 8; j++)
		a.q[j] += (uint64_t)emu_madd52_tmp(b.q[j], c.q[j]) & ((UINT64_C(1) << 52) - 1) &
			  emu_lane_mask(k, j);
	return a;
}

EMU __m512i _mm512_mask_madd52hi_epu64(__m512i a, __mmask8 k, __m512i b, __m512i c)
{
	for (int j = 0; j < 8; j++)
		a.q[j] += (uint64_t)(emu_madd52_tmp(b.q[j], c.q[j]) >> 52) &
			  ((UINT64_C(1) << 52) - 1) & emu_lane_mask(k, j);
	return a;
}

/* id := idx[i+2:i] * 64; dst[i+63:i] := a[id+63:id] */
EMU __m512i _mm512_permutexvar_epi64(__m512i idx, __m512i a)
{
	__m512i r;
	for (int j = 0; j < 8; j++)
		r.q[j] = a.q[idx.q[j] & 7];
	return r;
}

/* off := idx[i+2:i] * 64;
 * dst[i+63:i] := idx[i+3] ? b[off+63:off] : a[off+63:off] */
EMU __m512i _mm512_permutex2var_epi64(__m512i a, __m512i idx, __m512i b)
{
	__m512i r;
	for (int j = 0; j < 8; j++) {
		const unsigned off = (unsigned)(idx.q[j] & 7);
		r.q[j] = (idx.q[j] >> 3) & 1 ? b.q[off] : a.q[off];
	}
	return r;
}

/* dst[255:0] := a[255:0] */
EMU __m256i _mm512_castsi512_si256(__m512i a)
{
	__m256i r = { { a.q[0], a.q[1], a.q[2], a.q[3] } };
	return r;
}

/* dst[255:0] := imm8[0] ? a[511:256] : a[255:0] */
EMU __m256i _mm512_extracti64x4_epi64(__m512i a, int imm8)
{
	const int at = (imm8 & 1) * 4;
	__m256i r = { { a.q[at], a.q[at + 1], a.q[at + 2], a.q[at + 3] } };
	return r;
}

/* BMI2: dst[127:0] := a * b (unsigned); MEM[hi+63:hi] := dst[127:64];
 * return dst[63:0] */
EMU unsigned long long _mulx_u64(unsigned long long a, unsigned long long b,
				 unsigned long long *hi)
{
	const unsigned __int128 p = (unsigned __int128)a * b;
	*hi = (unsigned long long)(p >> 64);
	return (unsigned long long)p;
}

#undef EMU

#endif /* BIGMONT_TESTS_INTRIN_EMU_H */
