/*
 * big_ct_select: out[0..len) = table[index], reading every entry of the
 * table (the constant-time table read of the fixed-window exponentiation).
 *
 * Contract (bignum/internal.h): 1 <= entries <= 64, index < entries,
 * len >= 1; out must not overlap the table.  Time and addresses depend on
 * entries and len only: every entry goes into accumulators that stay in
 * registers, a block of columns at a time, under a mask that is all-ones
 * for the wanted entry and zero for the others.
 *
 * Two builds of the scan:
 * - big_ct_select_c: 16-byte GNU vectors (SSE2 on x86-64, words
 *   elsewhere), the masks formed once per call with scalar arithmetic
 *   (SSE2 has no 64-bit compare), two columns of vectors per pass.
 * - big_ct_select_avx2: 32-byte vectors, the mask of each entry one
 *   vpcmpeqq of a running counter with the index, and up to four vectors
 *   (16 chunks of 64 bits) per pass so that each mask serves them all.
 *   Each entry goes into its accumulator with one blend under the mask:
 *   data-independent timing like an AND and an OR, in one instruction.
 *   The blend is vblendvpd, which reads the mask's sign per 64-bit lane,
 *   so the compare's all-ones or zero lanes serve as they are (a byte
 *   blend would need them turned into byte signs first).
 * - big_ct_select_vl: the same 32-byte blocks in AVX-512VL: each entry's
 *   mask one compare into an opmask, each block one vpblendmq of a full
 *   load (a masked load would skip the memory of the entries not taken).
 *   vblendvpd is three uops on Intel's Golden Cove cores, on the ports the
 *   Montgomery kernels' mulx and adds use; vpblendmq one.  No 512-bit
 *   instruction (on Intel those can slow the scalar code beside them).
 *   Bound where the tuning table says so (SELECT_VL, bignum/tuning.h).
 * Measured ticks per call: the `table read` lines of `bigmont speed
 * --kernels` (bench/mont_kernels.c); the measurements behind these
 * choices, and a variant that measured no better: docs/design-notes.md.
 */
#include "internal.h"

typedef chunk_t vec16_t __attribute__((vector_size(16)));
#define VEC16_CHUNKS ((int)(sizeof(vec16_t) / sizeof(chunk_t)))

/* out[j] for the columns j = from .. len-1 that no vector block covered,
 * one word at a time. */
static void select_tail(chunk_t *out, const chunk_t *table, int entries,
			chunk_t index, int len, int from)
{
	for (int j = from; j < len; j++) {
		chunk_t acc = 0;
		for (int i = 0; i < entries; i++)
			acc |= table[(size_t)i * (size_t)len + j] &
			       ~big_ct_mask_nonzero((chunk_t)i ^ index);
		out[j] = acc;
	}
}

void big_ct_select_c(chunk_t *out, const chunk_t *table, int entries,
		     chunk_t index, int len)
{
	chunk_t take[64];
	for (int i = 0; i < entries; i++)
		take[i] = ~big_ct_mask_nonzero((chunk_t)i ^ index);

	int j = 0;
	for (; j + 2 * VEC16_CHUNKS <= len; j += 2 * VEC16_CHUNKS) {
		vec16_t acc0 = { 0 }, acc1 = { 0 };
		for (int i = 0; i < entries; i++) {
			const chunk_t *e = table + (size_t)i * (size_t)len + j;
			const vec16_t m = (vec16_t){ 0 } + take[i];
			vec16_t v0, v1;
			__builtin_memcpy(&v0, e, sizeof(v0));
			__builtin_memcpy(&v1, e + VEC16_CHUNKS, sizeof(v1));
			acc0 |= v0 & m;
			acc1 |= v1 & m;
		}
		__builtin_memcpy(out + j, &acc0, sizeof(acc0));
		__builtin_memcpy(out + j + VEC16_CHUNKS, &acc1, sizeof(acc1));
	}
	select_tail(out, table, entries, index, len, j);
	big_wipe(take, sizeof(chunk_t) * (size_t)entries);
}

#if defined(__x86_64__)
#include <immintrin.h>

#include "ct_blend.h"

typedef chunk_t vec32_t __attribute__((vector_size(32)));
#define VEC32_CHUNKS ((int)(sizeof(vec32_t) / sizeof(chunk_t)))
#define AVX2 __attribute__((target("avx2")))

/* out[j .. j + blocks*VEC32_CHUNKS) from every entry; blocks is a constant
 * at each call, so the accumulators unroll into registers. */
static inline __attribute__((always_inline)) AVX2 void
scan_avx2(chunk_t *out, const chunk_t *table, int entries, vec32_t want,
	  int len, int j, const int blocks)
{
	vec32_t acc[4] = { { 0 } }, at = { 0 };
	const chunk_t *e = table + j;
#pragma GCC unroll 4
	for (int i = 0; i < entries; i++) {
		const vec32_t m = (vec32_t)(at == want);
#pragma GCC unroll 4
		for (int b = 0; b < blocks; b++) {
			vec32_t v;
			__builtin_memcpy(&v, e + b * VEC32_CHUNKS, sizeof(v));
			acc[b] = (vec32_t)_mm256_castpd_si256(_mm256_blendv_pd(
				_mm256_castsi256_pd((__m256i)acc[b]),
				_mm256_castsi256_pd((__m256i)v),
				_mm256_castsi256_pd((__m256i)m)));
		}
		at += 1;
		e += len;
	}
#pragma GCC unroll 4
	for (int b = 0; b < blocks; b++)
		__builtin_memcpy(out + j + b * VEC32_CHUNKS, &acc[b], sizeof(acc[b]));
}

/* The columns in passes of 4, 2, then 1 vector of VEC32_CHUNKS (each
 * scan's block count a constant), then the tail one word at a time. */
#define SCAN_BY_BLOCKS(scan, out, table, entries, want, index, len)          \
	do {                                                                 \
		int j = 0;                                                   \
		for (; j + 4 * VEC32_CHUNKS <= (len); j += 4 * VEC32_CHUNKS) \
			scan(out, table, entries, want, len, j, 4);          \
		if (j + 2 * VEC32_CHUNKS <= (len)) {                         \
			scan(out, table, entries, want, len, j, 2);          \
			j += 2 * VEC32_CHUNKS;                               \
		}                                                            \
		if (j + VEC32_CHUNKS <= (len)) {                             \
			scan(out, table, entries, want, len, j, 1);          \
			j += VEC32_CHUNKS;                                   \
		}                                                            \
		select_tail(out, table, entries, index, len, j);             \
	} while (0)

AVX2 void big_ct_select_avx2(chunk_t *out, const chunk_t *table, int entries,
			     chunk_t index, int len)
{
	const vec32_t want = (vec32_t){ 0 } + index;
	SCAN_BY_BLOCKS(scan_avx2, out, table, entries, want, index, len);
}

#define AVX512VL __attribute__((target("avx512f,avx512vl")))

/* As scan_avx2, the mask in an opmask and each block one vpblendmq. */
static inline __attribute__((always_inline)) AVX512VL void
scan_vl(chunk_t *out, const chunk_t *table, int entries, __m256i want, int len,
	int j, const int blocks)
{
	__m256i acc[4], at = _mm256_setzero_si256();
	const __m256i one = _mm256_set1_epi64x(1);
	const chunk_t *e = table + j;
#pragma GCC unroll 4
	for (int b = 0; b < blocks; b++)
		acc[b] = _mm256_setzero_si256();
#pragma GCC unroll 4
	for (int i = 0; i < entries; i++) {
		const __mmask8 m = _mm256_cmpeq_epi64_mask(at, want);
#pragma GCC unroll 4
		for (int b = 0; b < blocks; b++)
			acc[b] = big_ct_blend_load256(m, acc[b], e + b * VEC32_CHUNKS);
		at = _mm256_add_epi64(at, one);
		e += len;
	}
#pragma GCC unroll 4
	for (int b = 0; b < blocks; b++)
		_mm256_storeu_si256((__m256i *)(out + j + b * VEC32_CHUNKS), acc[b]);
}

AVX512VL void big_ct_select_vl(chunk_t *out, const chunk_t *table, int entries,
			       chunk_t index, int len)
{
	const __m256i want = _mm256_set1_epi64x((long long)index);
	SCAN_BY_BLOCKS(scan_vl, out, table, entries, want, index, len);
}
#endif
