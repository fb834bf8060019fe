/*
 * big_vert_pow2_avx2 and _avx512 (contracts in vertical.h): the CRT's two
 * fixed-window exponentiations in one stream of big_vert_mul2 / sqr2
 * calls of one vector width (dual_avx2.c, dual_avx512.c).
 *
 * Per half: the table of 2^w entries, entry i = base^i R mod' w (even
 * entries by squaring entry i/2, odd ones by a product with the base),
 * stored as 32-bit digits (half the bytes of the 64-bit ones: at RSA-4096
 * 2 x 64 x 80 x 4 = 40 KB, the read of every entry per window stays
 * mostly in L1); the windows of the exponent's 64 elen bits from the top
 * (the top window takes the leftover bits): w squarings, the masked read
 * of every entry of both tables, one product.  At the end the stack
 * below and the vector registers are wiped (big_lanes_avx2_wipe).
 */
#include "internal.h"
#include "lanes/lanes.h"
#include "radix52/radix52.h"
#include "vertical.h"

#if BIG_VERT_HAVE_AVX2_BUILD

#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx2")
#endif
#include <immintrin.h>
#include <string.h>

struct pow_frame {
	struct big_vert_mod mod[2];
	struct big_vert_num acc[2], base[2], sel[2], one[2];
	struct big_vert_work work[2];
	uint64_t chunks[2][BIG_VERT_MAX_CHUNKS + 1];
	uint64_t r_mod[2][BIG_VERT_MAX_CHUNKS]; /* R mod n */
	uint64_t r2_mod[2][BIG_VERT_MAX_CHUNKS]; /* B^len R mod n */
	uint64_t pow2[BIG_VERT_MAX_CHUNKS];
};
_Static_assert(sizeof(struct pow_frame) + 32 <= 4096 * 8, "big_vert_pow2_scratch's frame bound");

/* Entry idx of table (entries of stride 32-bit digits, 4 nblk used) into
 * out's digits, widened: every entry read, no address depends on idx. */
static void select_entry(uint64_t *out, const uint32_t *table, int entries, uint32_t idx, int nblk, int stride)
{
	const int nh = (nblk + 1) / 2; /* ymm of 8 digits */
	const __m256i want = _mm256_set1_epi32((int)idx), one = _mm256_set1_epi32(1);
	for (int c0 = 0; c0 < nh; c0 += 8) {
		__m256i acc[8];
		const int nb = nh - c0 < 8 ? nh - c0 : 8;
#pragma GCC unroll 8
		for (int k = 0; k < 8; k++)
			acc[k] = _mm256_setzero_si256();
		__m256i i = _mm256_setzero_si256();
		const uint32_t *e = table + 8 * c0;
		for (int j = 0; j < entries; j++, e += stride) {
			const __m256i m = _mm256_cmpeq_epi32(i, want);
#pragma GCC unroll 8
			for (int k = 0; k < 8; k++)
				if (k < nb)
					acc[k] = _mm256_or_si256(acc[k],
								 _mm256_and_si256(m, _mm256_load_si256((const __m256i *)(e + 8 * k))));
			i = _mm256_add_epi32(i, one);
		}
#pragma GCC unroll 8
		for (int k = 0; k < 8; k++)
			if (k < nb) {
				const int d = 8 * (c0 + k);
				_mm256_storeu_si256((__m256i *)(out + d), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(acc[k])));
				if (d + 4 < 4 * nblk)
					_mm256_storeu_si256((__m256i *)(out + d + 4),
							    _mm256_cvtepu32_epi64(_mm256_extracti128_si256(acc[k], 1)));
			}
	}
}

static void table_store(uint32_t *table, int i, const struct big_vert_num *x, int stride)
{
	uint32_t *e = table + (size_t)i * stride;
	for (int k = 0; k < stride; k++)
		e[k] = (uint32_t)x->d[4 + k];
}

static void table_load(struct big_vert_num *x, const uint32_t *table, int i, int stride)
{
	const uint32_t *e = table + (size_t)i * stride;
	for (int k = 0; k < stride; k++)
		x->d[4 + k] = e[k];
}

/* Bits pos .. pos + width - 1 of e[0..elen) (width <= 32; bits past the
 * top are 0).  pos and width are public; the value is used only as a
 * compare operand. */
static uint32_t window_bits(const uint64_t *e, int elen, int pos, int width)
{
	const int idx = pos / 64, shift = pos % 64;
	uint64_t v = e[idx] >> shift;
	if (shift + width > 64 && idx + 1 < elen)
		v |= e[idx + 1] << (64 - shift);
	return (uint32_t)(v & (((uint64_t)1 << width) - 1));
}

/* The dual kernels of one vector width, and what their work needs once
 * the moduli are set (NULL: nothing). */
struct vert_kernels {
	void (*mul2)(struct big_vert_num *, const struct big_vert_num *, const struct big_vert_num *,
		     const struct big_vert_mod *, struct big_vert_work *);
	void (*sqr2)(struct big_vert_num *, const struct big_vert_num *, const struct big_vert_mod *,
		     struct big_vert_work *);
	void (*prepare)(struct big_vert_work *, const struct big_vert_mod *);
};

/* big_vert_pow2_avx2's body with the kernels k; returns with the kernels'
 * stack and registers for the caller to wipe. */
static __attribute__((noinline)) void pow2(uint64_t *m_p, uint64_t *m_q, const uint64_t *a_p,
					   const uint64_t *a_q, const uint64_t *dp, const uint64_t *dq,
					   int elen, const uint64_t *p, const uint64_t *q,
					   const uint64_t *rr_p, const uint64_t *rr_q, int len,
					   uint64_t *scratch, const struct vert_kernels *k)
{
	const int N = big_vert_digits(len), nblk = (N + 3) / 4, stride = 8 * ((nblk + 1) / 2);
	const int ebits = 64 * elen, w = big_mont_pow_ct_window(ebits), entries = 1 << w;
	struct pow_frame *f = (struct pow_frame *)(((uintptr_t)scratch + 31) & ~(uintptr_t)31);
	uint32_t *table[2];
	table[0] = (uint32_t *)(f + 1);
	table[1] = table[0] + (size_t)entries * stride;
	const uint64_t *n[2] = { p, q }, *rr[2] = { rr_p, rr_q }, *a[2] = { a_p, a_q };
	const uint64_t *e[2] = { dp, dq };
	uint64_t *out[2] = { m_p, m_q };

	/* R = B^len 2^s: R mod n = mont64(rr, 2^s); a R = mont64(a, mont64(rr, R mod n)). */
	const int s = BIG_VERT_RADIX_BITS * N - 64 * len;
	for (int j = 0; j < len; j++)
		f->pow2[j] = j == 0 ? (uint64_t)1 << s : 0;
	for (int h = 0; h < 2; h++) {
		const uint64_t n0 = big_n0(n[h][0]);
		big_vert_mod_init(&f->mod[h], n[h], len);
		big_mont_mul_vec(f->r_mod[h], rr[h], f->pow2, n[h], n0, len);
		big_mont_mul_vec(f->r2_mod[h], rr[h], f->r_mod[h], n[h], n0, len);
		big_mont_mul_vec(f->chunks[h], a[h], f->r2_mod[h], n[h], n0, len);
		big_vert_from_chunks(&f->base[h], f->chunks[h], len, N);
		big_vert_from_chunks(&f->acc[h], f->r_mod[h], len, N);
		memset(&f->one[h], 0, sizeof(f->one[h]));
		f->one[h].d[4] = 1;
		memset(&f->sel[h], 0, sizeof(f->sel[h]));
		table_store(table[h], 0, &f->acc[h], stride);
		table_store(table[h], 1, &f->base[h], stride);
	}
	if (k->prepare != NULL)
		k->prepare(f->work, f->mod);
	for (int i = 2; i < entries; i++) {
		if (i % 2 == 0) {
			table_load(&f->acc[0], table[0], i / 2, stride);
			table_load(&f->acc[1], table[1], i / 2, stride);
			k->sqr2(f->acc, f->acc, f->mod, f->work);
		} else {
			k->mul2(f->acc, f->acc, f->base, f->mod, f->work);
		}
		table_store(table[0], i, &f->acc[0], stride);
		table_store(table[1], i, &f->acc[1], stride);
	}

	int top = ebits % w;
	if (top == 0)
		top = w;
	int pos = ebits - top;
	for (int h = 0; h < 2; h++)
		select_entry(f->acc[h].d + 4, table[h], entries, window_bits(e[h], elen, pos, top), nblk, stride);
	while (pos > 0) {
		pos -= w;
		for (int sq = 0; sq < w; sq++)
			k->sqr2(f->acc, f->acc, f->mod, f->work);
		for (int h = 0; h < 2; h++)
			select_entry(f->sel[h].d + 4, table[h], entries, window_bits(e[h], elen, pos, w), nblk,
				     stride);
		k->mul2(f->acc, f->acc, f->sel, f->mod, f->work);
	}

	/* acc R^-1 mod' w <= w < B^(len + 1), then mod n. */
	k->mul2(f->acc, f->acc, f->one, f->mod, f->work);
	for (int h = 0; h < 2; h++) {
		big_vert_to_chunks(f->chunks[h], len + 1, &f->acc[h], N);
		big_mont_reduce_ct(out[h], f->chunks[h], len + 1, n[h], big_n0(n[h][0]), rr[h], len, 0);
	}
}

/* The kernels' spills below pow2's frame and the vector registers hold
 * digits of the secrets: zeroed once after it (lanes.h, radix52.h: each
 * wipe covers the 16 KB below its own return address, at pow2's depth;
 * the empty asm keeps the call from becoming a tail call, which would
 * wipe above this frame). */
void big_vert_pow2_avx2(uint64_t *m_p, uint64_t *m_q, const uint64_t *a_p, const uint64_t *a_q,
			const uint64_t *dp, const uint64_t *dq, int elen, const uint64_t *p, const uint64_t *q,
			const uint64_t *rr_p, const uint64_t *rr_q, int len, uint64_t *scratch)
{
	static const struct vert_kernels ymm = { big_vert_mul2_avx2, big_vert_sqr2_avx2, NULL };
	pow2(m_p, m_q, a_p, a_q, dp, dq, elen, p, q, rr_p, rr_q, len, scratch, &ymm);
	big_lanes_avx2_wipe();
	__asm__ volatile("" ::: "memory");
}

void big_vert_pow2_avx512(uint64_t *m_p, uint64_t *m_q, const uint64_t *a_p, const uint64_t *a_q,
			  const uint64_t *dp, const uint64_t *dq, int elen, const uint64_t *p,
			  const uint64_t *q, const uint64_t *rr_p, const uint64_t *rr_q, int len,
			  uint64_t *scratch)
{
	static const struct vert_kernels zmm = { big_vert_mul2_avx512, big_vert_sqr2_avx512,
						 big_vert_pair_mod_avx512 };
	pow2(m_p, m_q, a_p, a_q, dp, dq, elen, p, q, rr_p, rr_q, len, scratch, &zmm);
	big_r52_stack_wipe_ifma(16384);
	__asm__ volatile("" ::: "memory");
}

void big_vert_crt_pow2(uint64_t *m_p, uint64_t *m_q, const uint64_t *a, int alen, const uint64_t *dp,
		       const uint64_t *dq, int elen, const uint64_t *p, const uint64_t *q,
		       const uint64_t *rr_p, const uint64_t *rr_q, int len, int zmm, uint64_t *scratch)
{
	uint64_t *a_p = scratch, *a_q = a_p + len;
	big_mont_reduce_crt_ct(a_p, a, alen, p, big_n0(p[0]), rr_p, len);
	big_mont_reduce_crt_ct(a_q, a, alen, q, big_n0(q[0]), rr_q, len);
	if (zmm)
		big_vert_pow2_avx512(m_p, m_q, a_p, a_q, dp, dq, elen, p, q, rr_p, rr_q, len, a_q + len);
	else
		big_vert_pow2_avx2(m_p, m_q, a_p, a_q, dp, dq, elen, p, q, rr_p, rr_q, len, a_q + len);
}

#endif
