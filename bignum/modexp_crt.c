/*
 * big_modexp_crt: result = a^d mod pq through the CRT,
 *
 *   m_p = a^dp mod p,  m_q = a^dq mod q,
 *   h   = (m_q - m_p) * pinv mod q      (pinv = p^-1 mod q, Garner),
 *   result = m_p + p*h                  (< pq, no reduction needed).
 *
 * Constant time in the values of a, dp, dq, p, q and pinv: only the chunk
 * lengths p->len and q->len may leak, and a->len, dp->len, dq->len,
 * pinv->len only where they exceed the lengths their values can have
 * (p->len + q->len for a, p->len for dp, q->len for dq and pinv): shorter
 * (trimmed) inputs are zero-padded to those, so a value whose top chunk
 * happens to be zero costs the same.
 * Nothing here trims or compares a secret.  The Montgomery radices are
 * R_p = B^(p->len), R_q = B^(q->len) (the stored lengths, so p and q
 * must be normalised: then p_rr = big_mont_rr(p); trimming them here would
 * branch on their top chunks, which memcheck rightly reports).  Reductions of a,
 * pinv and (for primes of different lengths) m_p into the other modulus are
 * big_mont_reduce_ct (Montgomery products block by block, masked sums, no
 * division), so p and q may have different lengths (a 1025-bit n); with
 * one length, m_p < R goes into the products by pinv R mod q as it is.
 * The exponentiations are
 * big_mont_pow_ct; m_q - m_p mod q is a masked add-back; p*h is the
 * fixed-length schoolbook big_mul_vec and m_p is added with a full-length
 * carry chain.
 *
 * Preconditions (not checked where checking would branch on a secret):
 * p, q odd > 1, p != q, pinv = p^-1 mod q, a < pq.  With p_rr or q_rr NULL
 * the missing R^2 is computed here by division (variable time: a per-key
 * precomputation; callers that care pass both).
 *
 * result->len is p->len + q->len, NOT trimmed (trimming would branch on
 * the secret result): it may carry high zero chunks.  Scratch is one
 * allocation per call, wiped before it is freed.
 *
 * The radix-2^52 path: in the ifma variant, for every size the radix-2^52
 * code serves (big_r52_crt_digits: equal-length primes of 7 to 32
 * chunks, moduli of about 770 to 4096 bits), m_p and m_q come from one
 * dual exponentiation on AVX-512 IFMA
 * (radix52/crt_pow.c) instead of two big_mont_pow_ct; the rest is the
 * same.  The vertical path: in the adx variant on an AVX2 CPU, for equal
 * 24- or 32-chunk primes (RSA-3072 and 4096), where the tuning table binds
 * it (bignum/tuning.h, VERTICAL), m_p and m_q come from one dual
 * exponentiation in the vertical AVX2 layout (bignum/vertical/) from a mod
 * p and a mod q, or on its zmm kernels where VERTICAL_ZMM binds them on
 * a CPU with AVX-512F; the rest is the same.  The paired path: for equal
 * 8-chunk primes (RSA-1024) where the tuning table binds it (CRT_PAIRED8),
 * the two big_mont_pow_ct run side by side, kernel call by kernel call
 * (big_crt_exp_mod_primes); same words.  Public facts decide all three:
 * the chunk lengths, the variant, the CPU model.  This file is the one
 * place that decides (big_crt_r52_digits, which big_crt_check asks too,
 * and crt_pow_path below), and big_modexp_crt_path names its answer for
 * reports.
 */
#include "internal.h"
#include "lanes/lanes.h"
#include "radix52/radix52.h"
#include "vertical/vertical.h"

#include <stdlib.h>

/* Digits of the radix-2^52 path for primes of lp and lq chunks, 0 for
 * the radix-2^64 one: every size it serves, in the ifma variant only.
 * Each size was measured faster there than adx, RSA-1024 included
 * (docs/design-notes.md, "Which sizes take the radix-2^52 CRT path"); a
 * size some CPU measures slower would be left out here. */
int big_crt_r52_digits(int lp, int lq)
{
#if BIG_CHUNK_SIZE == 64 && BIG_R52_HAVE_IFMA_BUILD
	if (big_cpu_bound() == BIG_CPU_IFMA)
		return big_r52_crt_digits(lp, lq);
#endif
	(void)lp;
	(void)lq;
	return 0;
}

/* 1 where the vertical layer can serve primes of lp and lq chunks here:
 * equal lengths it serves, its build, a CPU with AVX2. */
static int vertical_serves(int lp, int lq)
{
#if BIG_VERT_HAVE_AVX2_BUILD
	return lp == lq && big_vert_digits(lp) != 0 && big_lanes_cpu_has_avx2();
#else
	(void)lp;
	(void)lq;
	return 0;
#endif
}

/* How big_modexp_crt's radix-2^64 path runs its two exponentiations. */
enum crt_pow {
	CRT_POW_APART,    /* two big_mont_pow_ct, one after the other */
	CRT_POW_PAIRED,   /* side by side, big_mont_pow_ct_halves */
	CRT_POW_VERTICAL, /* one dual exponentiation in the vertical layout */
	CRT_POW_VERTICAL_ZMM, /* the same on the zmm kernels */
};

/* The vertical path where it serves, in the adx variant, where the tuning
 * table binds it (measured faster than two big_mont_pow_ct on that CPU
 * model: docs/design-notes.md, "The vertical dual exponentiation in the
 * library", "The vertical layer on zmm"), on zmm where VERTICAL_ZMM is
 * bound and the CPU has AVX-512F; else paired for primes of 8 chunks each where the table
 * binds CRT_PAIRED8 (a kernel call there waits on its reduction's
 * latency chain, which the other half's calls fill: docs/design-notes.md,
 * "The CRT's halves side by side"); else apart. */
static enum crt_pow crt_pow_path(int lp, int lq)
{
	if (big_cpu_bound() == BIG_CPU_ADX && vertical_serves(lp, lq)) {
		if (big_vert_zmm_tuned() && big_vert_cpu_has_avx512())
			return CRT_POW_VERTICAL_ZMM;
		if (big_vert_tuned())
			return CRT_POW_VERTICAL;
	}
	if (BIG_CHUNK_SIZE == 64 && lp == lq && lp == 8 && big_crt_paired8_tuned())
		return CRT_POW_PAIRED;
	return CRT_POW_APART;
}

const char *big_modexp_crt_path(int pbits, int qbits)
{
	if (pbits < 1 || qbits < 1)
		return "radix64";
	const int lp = BITLEN2BIGNUMLEN(pbits), lq = BITLEN2BIGNUMLEN(qbits);
	if (big_crt_r52_digits(lp, lq))
		return "radix52-ifma";
	static const char *const names[] = { "radix64", "radix64-paired", "vertical-avx2",
					     "vertical-avx512" };
	return names[crt_pow_path(lp, lq)];
}

/* The chunk count of x, reading len 0 (or less) as no chunks. */
static int stored_len(const BIGNUM *x)
{
	return x->len > 0 ? x->len : 0;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

void big_crt_exp_mod_primes(chunk_t *const *out, const chunk_t *av, int alen,
			    const chunk_t *const *dv, int dlen, const chunk_t *const *mv,
			    const chunk_t *const *rr, int len, int count, chunk_t *work)
{
	const size_t per_half = 4 * (size_t)len + big_mont_pow_ct_scratch(len, dlen);
	struct big_mont_pow_half half[2];
	chunk_t *one[2];

	for (int k = 0; k < count; k++) {
		const chunk_t n0 = big_n0(mv[k][0]);
		chunk_t *w = work + (size_t)k * per_half;
		chunk_t *one_m = w + len, *base_m = one_m + len;
		one[k] = w;
		for (int j = 0; j < len; j++)
			w[j] = j == 0;
		big_mont_mul_vec(one_m, rr[k], w, mv[k], n0, len);
		big_mont_reduce_ct(base_m, av, alen, mv[k], n0, rr[k], len, 1);
		half[k] = (struct big_mont_pow_half){
			.out = base_m + len, .base_m = base_m, .e = dv[k], .n = mv[k],
			.one_m = one_m, .n0 = n0, .scratch = base_m + 2 * len,
		};
	}
	big_mont_pow_ct_halves(half, count, dlen, len, big_mont_sqr_select_vec);
	for (int k = 0; k < count; k++)
		big_mont_mul_vec(out[k], half[k].out, one[k], mv[k], half[k].n0, len);
}

void big_crt_exp_mod_prime(chunk_t *out, const chunk_t *av, int alen,
			   const chunk_t *dv, int dlen, const chunk_t *mv,
			   const chunk_t *rr, int len, chunk_t *work)
{
	big_crt_exp_mod_primes(&out, av, alen, &dv, dlen, &mv, &rr, len, 1, work);
}

/* The scratch modexp_crt takes besides the exponentiations' work area:
 * rr_p, m_p (lp); rr_q, m_q, h, t (lq); p*h (lp+lq); the padded a (ax),
 * dp (dpx), dq (dqx) and pinv (ix). */
static size_t crt_fixed_chunks(int lp, int lq, int ax, int dpx, int dqx, int ix)
{
	return (size_t)lp * 2 + (size_t)lq * 4 + (size_t)(lp + lq) + (size_t)ax + (size_t)dpx +
	       (size_t)dqx + (size_t)ix;
}

/* The exponentiations' work area for primes of lp and lq chunks with
 * exponents padded to *dpx and *dqx chunks, by the radix-2^52 path
 * (r52_digits not 0) or the named one: the per-prime area (reused for
 * q), both side by side, the radix-2^52 path's, or a mod p, a mod q and
 * the vertical path's frame and tables.  The paired and vertical paths
 * take one exponent length for both halves: *dpx and *dqx set to it. */
static size_t crt_work_chunks(int lp, int lq, int *dpx, int *dqx, int r52_digits,
			      enum crt_pow path)
{
	const int lmax = lp > lq ? lp : lq;
#if BIG_CHUNK_SIZE == 64
	if (r52_digits)
		return big_crt_r52_scratch(r52_digits, lp, max_int(*dpx, *dqx));
#else
	(void)r52_digits;
#endif
#if BIG_VERT_HAVE_AVX2_BUILD
	if (path == CRT_POW_VERTICAL || path == CRT_POW_VERTICAL_ZMM) {
		*dpx = *dqx = max_int(*dpx, *dqx);
		return big_vert_crt_pow2_scratch(lp, *dpx);
	}
#endif
	if (path == CRT_POW_PAIRED) {
		*dpx = *dqx = max_int(*dpx, *dqx);
		return 2 * (4 * (size_t)lp + big_mont_pow_ct_scratch(lp, *dpx));
	}
	const size_t pow_p = big_mont_pow_ct_scratch(lp, *dpx);
	const size_t pow_q = big_mont_pow_ct_scratch(lq, *dqx);
	return 4 * (size_t)lmax + (pow_p > pow_q ? pow_p : pow_q);
}

size_t big_modexp_crt_scratch_chunks(int nlen)
{
	if (nlen < 1 || nlen > BIG_MAX_MODULUS_CHUNKS)
		return 0;
	/* Every term grows with the lengths: both primes taken as long as
	 * n, a as long as a value of the RSA layer can be (nlen + 2 chunks),
	 * the work area the largest of every path at every length it
	 * serves within that. */
	int dpx = nlen, dqx = nlen;
	size_t work = crt_work_chunks(nlen, nlen, &dpx, &dqx, 0, CRT_POW_PAIRED);
	for (int l = 1; l <= nlen; l++) {
		int dx = l, dy = l;
#if BIG_CHUNK_SIZE == 64
		const int digits = big_r52_crt_digits(l, l);
		if (digits) {
			const size_t w = crt_work_chunks(l, l, &dx, &dy, digits, CRT_POW_APART);
			work = w > work ? w : work;
		}
#endif
#if BIG_VERT_HAVE_AVX2_BUILD
		if (vertical_serves(l, l)) {
			dx = dy = l;
			const size_t w = crt_work_chunks(l, l, &dx, &dy, 0, CRT_POW_VERTICAL);
			work = w > work ? w : work;
		}
#endif
		(void)dx;
		(void)dy;
	}
	return crt_fixed_chunks(nlen, nlen, max_int(nlen + 2, 2 * nlen), nlen, nlen, nlen) + work;
}

/* big_modexp_crt with the exponentiations of m_p and m_q through the
 * radix-2^52 build r52 when r52_digits is not 0, else by the path named
 * (CRT_POW_VERTICAL where vertical_serves, CRT_POW_PAIRED where the
 * primes have one length); in ws (ws_chunks) when that holds the
 * scratch, else in one allocation. */
static BIG_ERR_CODE modexp_crt(BIGNUM *result, const BIGNUM *a,
			       const BIGNUM *dmodpminus1,
			       const BIGNUM *dmodqminus1, const BIGNUM *p,
			       const BIGNUM *q, const BIGNUM *pinvmodq,
			       const BIGNUM *p_rr, const BIGNUM *q_rr,
			       int r52_digits, const struct big_r52_ops *r52,
			       enum crt_pow path, chunk_t *ws, size_t ws_chunks)
{
	const int vertical = path == CRT_POW_VERTICAL || path == CRT_POW_VERTICAL_ZMM;
	const int paired = path == CRT_POW_PAIRED;
#if BIG_CHUNK_SIZE != 64
	(void)r52_digits;
	(void)r52;
#endif
#if !BIG_VERT_HAVE_AVX2_BUILD
	(void)vertical;
#endif
	const int lp = p->len, lq = q->len;
	if (lp < 1 || lq < 1 || lp > BIG_MAX_MODULUS_CHUNKS ||
	    lq > BIG_MAX_MODULUS_CHUNKS)
		return BIG_INVALID_ARGS;
	const int lpq = lp + lq;
	const int alen = stored_len(a), ilen = stored_len(pinvmodq);
	const int dplen = stored_len(dmodpminus1);
	const int dqlen = stored_len(dmodqminus1);
	/* Work on at least the lengths the values can have (a < pq, dp < p,
	 * dq < q, pinv < q), zero-padded: then a caller's trimmed input (a
	 * value whose top chunk happens to be zero) runs the same sequence of
	 * operations as any other. */
	const int ax = max_int(alen, lpq), ix = max_int(ilen, lq);
	int dpx = max_int(dplen, lp), dqx = max_int(dqlen, lq);

	const size_t work = crt_work_chunks(lp, lq, &dpx, &dqx, r52_digits, path);
	const size_t total = crt_fixed_chunks(lp, lq, ax, dpx, dqx, ix) + work;
	const int own = ws == NULL || ws_chunks < total;
	chunk_t *const scratch = own ? malloc(sizeof(chunk_t) * total) : ws;
	if (scratch == NULL)
		return BIG_NO_MEM;
	chunk_t *rr_p = scratch, *m_p = rr_p + lp;
	chunk_t *rr_q = m_p + lp, *m_q = rr_q + lq, *h = m_q + lq;
	chunk_t *t = h + lq, *prod = t + lq, *a_x = prod + lpq;
	chunk_t *dp_x = a_x + ax, *dq_x = dp_x + dpx, *i_x = dq_x + dqx;
	chunk_t *wk = i_x + ix;

	BIG_ERR_CODE err = big_mont_rr_vec(rr_p, p_rr, p, lp);
	if (err == BIG_OK)
		err = big_mont_rr_vec(rr_q, q_rr, q, lq);
	if (err != BIG_OK)
		goto out;
	big_copy_pad_vec(a_x, ax, a->value, alen);
	big_copy_pad_vec(dp_x, dpx, dmodpminus1->value, dplen);
	big_copy_pad_vec(dq_x, dqx, dmodqminus1->value, dqlen);
	big_copy_pad_vec(i_x, ix, pinvmodq->value, ilen);

#if BIG_CHUNK_SIZE == 64
	if (r52_digits) {
		big_crt_r52_pow(m_p, m_q, a_x, ax, dp_x, dpx, dq_x, dqx, p->value,
				q->value, rr_p, rr_q, lp, r52_digits, r52, wk);
	} else
#endif
#if BIG_VERT_HAVE_AVX2_BUILD
	if (vertical) {
		big_vert_crt_pow2(m_p, m_q, a_x, ax, dp_x, dq_x, dpx, p->value, q->value, rr_p, rr_q,
				  lp, path == CRT_POW_VERTICAL_ZMM, wk);
	} else
#endif
	if (paired) {
		chunk_t *const out[2] = { m_p, m_q };
		const chunk_t *const dv[2] = { dp_x, dq_x };
		const chunk_t *const mv[2] = { p->value, q->value };
		const chunk_t *const rr[2] = { rr_p, rr_q };
		big_crt_exp_mod_primes(out, a_x, ax, dv, dpx, mv, rr, lp, 2, wk);
	} else {
		big_crt_exp_mod_prime(m_p, a_x, ax, dp_x, dpx, p->value, rr_p, lp, wk);
		big_crt_exp_mod_prime(m_q, a_x, ax, dq_x, dqx, q->value, rr_q, lq, wk);
	}

	const chunk_t *qv = q->value;
	const chunk_t q0 = big_n0(qv[0]);
	/* t = pinv R mod q: pinv into Montgomery form (one product). */
	big_mont_reduce_ct(t, i_x, ix, qv, q0, rr_q, lq, 1);
	if (lp == lq) {
		/* h = m_q pinv - m_p pinv mod q: a product by each (m_p < p <
		 * R as b needs no reduction mod q), a masked add-back of q. */
		big_mont_mul_vec(h, t, m_q, qv, q0, lq);
		big_mont_mul_vec(t, t, m_p, qv, q0, lq);
		big_sub_mod_vec(h, h, t, qv, lq);
	} else {
		/* h = (m_q - (m_p mod q)) pinv mod q: m_p reduced (two
		 * products), a masked add-back of q, then one product. */
		big_mont_reduce_ct(h, m_p, lp, qv, q0, rr_q, lq, 0);
		big_sub_mod_vec(h, m_q, h, qv, lq);
		big_mont_mul_vec(h, h, t, qv, q0, lq);
	}

	/* result = m_p + p*h < pq: fits in lp + lq chunks, no carry out. */
	big_mul_vec(prod, p->value, lp, h, lq);
	big_add_vec(prod, prod, lpq, m_p, lp);

	/* Every input is consumed: result may be grown even if it aliases. */
	err = big_store_vec(result, prod, lpq);
out:
	big_wipe(scratch, sizeof(chunk_t) * total);
	if (own)
		free(scratch);
	return err;
}

BIG_ERR_CODE big_modexp_crt_ws(BIGNUM *result, const BIGNUM *a,
			       const BIGNUM *dmodpminus1,
			       const BIGNUM *dmodqminus1, const BIGNUM *p,
			       const BIGNUM *q, const BIGNUM *pinvmodq,
			       const BIGNUM *p_rr, const BIGNUM *q_rr,
			       BIG_CHUNK_TYPE *ws, size_t ws_chunks)
{
#if BIG_CHUNK_SIZE == 64 && BIG_R52_HAVE_IFMA_BUILD
	const int digits = big_crt_r52_digits(p->len, q->len);
	if (digits) {
		const struct big_r52_ops ifma = BIG_R52_OPS_INIT(ifma);
		return modexp_crt(result, a, dmodpminus1, dmodqminus1, p, q,
				  pinvmodq, p_rr, q_rr, digits, &ifma, CRT_POW_APART, ws,
				  ws_chunks);
	}
#endif
	return modexp_crt(result, a, dmodpminus1, dmodqminus1, p, q, pinvmodq,
			  p_rr, q_rr, 0, NULL, crt_pow_path(p->len, q->len), ws, ws_chunks);
}

BIG_ERR_CODE big_modexp_crt(BIGNUM *result, const BIGNUM *a,
			    const BIGNUM *dmodpminus1,
			    const BIGNUM *dmodqminus1, const BIGNUM *p,
			    const BIGNUM *q, const BIGNUM *pinvmodq,
			    const BIGNUM *p_rr, const BIGNUM *q_rr)
{
	return big_modexp_crt_ws(result, a, dmodpminus1, dmodqminus1, p, q, pinvmodq, p_rr,
				 q_rr, NULL, 0);
}

/* big_modexp_crt by the named path, where it can serve these primes. */
static BIG_ERR_CODE modexp_crt_by(enum crt_pow path, BIGNUM *result, const BIGNUM *a,
				  const BIGNUM *dmodpminus1, const BIGNUM *dmodqminus1,
				  const BIGNUM *p, const BIGNUM *q, const BIGNUM *pinvmodq,
				  const BIGNUM *p_rr, const BIGNUM *q_rr)
{
	const int serves = path == CRT_POW_PAIRED ? p->len == q->len
			   : path == CRT_POW_VERTICAL_ZMM
				   ? vertical_serves(p->len, q->len) && big_vert_cpu_has_avx512()
				   : vertical_serves(p->len, q->len);
	if (!serves)
		return BIG_INVALID_ARGS;
	return modexp_crt(result, a, dmodpminus1, dmodqminus1, p, q, pinvmodq,
			  p_rr, q_rr, 0, NULL, path, NULL, 0);
}

/* The tests' entry points, one per named path (internal.h). */
#define MODEXP_CRT_BY(name, path)                                                           \
	BIG_ERR_CODE name(BIGNUM *result, const BIGNUM *a, const BIGNUM *dmodpminus1,        \
			  const BIGNUM *dmodqminus1, const BIGNUM *p, const BIGNUM *q,        \
			  const BIGNUM *pinvmodq, const BIGNUM *p_rr, const BIGNUM *q_rr)    \
	{                                                                                   \
		return modexp_crt_by(path, result, a, dmodpminus1, dmodqminus1, p, q,        \
				     pinvmodq, p_rr, q_rr);                                 \
	}
MODEXP_CRT_BY(big_modexp_crt_vertical, CRT_POW_VERTICAL)
MODEXP_CRT_BY(big_modexp_crt_vertical_zmm, CRT_POW_VERTICAL_ZMM)
MODEXP_CRT_BY(big_modexp_crt_paired, CRT_POW_PAIRED)
#undef MODEXP_CRT_BY

#if BIG_CHUNK_SIZE == 64
BIG_ERR_CODE big_modexp_crt_r52(BIGNUM *result, const BIGNUM *a,
				const BIGNUM *dmodpminus1,
				const BIGNUM *dmodqminus1, const BIGNUM *p,
				const BIGNUM *q, const BIGNUM *pinvmodq,
				const BIGNUM *p_rr, const BIGNUM *q_rr,
				const struct big_r52_ops *ops)
{
	const int digits = big_r52_crt_digits(p->len, q->len);
	if (digits == 0)
		return BIG_INVALID_ARGS;
	return modexp_crt(result, a, dmodpminus1, dmodqminus1, p, q, pinvmodq,
			  p_rr, q_rr, digits, ops, CRT_POW_APART, NULL, 0);
}
#endif
