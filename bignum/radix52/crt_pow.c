/*
 * big_crt_r52_pow: both CRT exponentiations of big_modexp_crt in one
 * radix-2^52 dual exponentiation, and big_r52_crt_digits, the sizes it
 * serves (contracts: radix52.h).
 *
 * - The moduli and R^2 mod each: big_r52_mod_init (dual_mod.c).
 * - The base is a mod m as a plain residue, below m: a < pq < m R, so
 *   one Montgomery reduction and a product by the radix-2^64 R^2
 *   (big_mont_reduce_crt_ct), no division.
 * - The exponents are zero-padded to a common length, so both halves scan
 *   the same windows.
 */
#include "internal.h"
#include "radix52.h"

#if BIG_CHUNK_SIZE == 64

/* The least k with 52 k >= 64 lp + 2 (m < R/4), for equal primes of 7 to
 * 32 chunks: every such size measured faster than the adx path (RSA-896
 * to 4096; the sizes between the RSA ones on the run-time-k bodies, e.g.
 * 0.57-0.66 of adx's time from RSA-2304 up, 0.77-0.85 at 896 to 1280 and
 * 0.91 at 1536, where adx has its own 12-chunk kernels; Intel family 6
 * model 207); below, at 4 to 6 chunks, adx was as fast or faster (RSA-512
 * 1.16, 640 0.97, 768 0.92-1.02). */
int big_r52_crt_digits(int lp, int lq)
{
	if (lp != lq || lp < 7 || lp > 32)
		return 0;
	return (64 * lp + 2 + 51) / 52;
}

size_t big_crt_r52_scratch(int digits, int len, int ewords)
{
	return 2 * (size_t)BIG_R52_PAIR_WORDS(digits) + (size_t)len +
	       2 * (size_t)ewords + big_r52_dual_pow_scratch(digits);
}

static void pad_words(uint64_t *dst, const uint64_t *x, int xlen, int dlen)
{
	for (int j = 0; j < dlen; j++)
		dst[j] = j < xlen ? x[j] : 0;
}

void big_crt_r52_pow(uint64_t *m_p, uint64_t *m_q, const uint64_t *a,
		     int alen, const uint64_t *dp, int dplen,
		     const uint64_t *dq, int dqlen, const uint64_t *p,
		     const uint64_t *q, const uint64_t *rr_p,
		     const uint64_t *rr_q, int len, int digits,
		     const struct big_r52_ops *ops, uint64_t *scratch)
{
	const int words = BIG_R52_PAIR_WORDS(digits);
	const int ewords = dplen > dqlen ? dplen : dqlen;
	uint64_t *x = scratch, *y = x + words, *residue = y + words;
	uint64_t *e_p = residue + len, *e_q = e_p + ewords;
	uint64_t *pow_scratch = e_q + ewords;
	const uint64_t n0_p = big_n0(p[0]), n0_q = big_n0(q[0]);
	struct big_r52_dual_mod mod;

	big_r52_mod_init(&mod, digits, 2, (const uint64_t *const[2]){ p, q },
			 (const uint64_t *const[2]){ rr_p, rr_q }, len, ops, x, y);

	big_mont_reduce_crt_ct(residue, a, alen, p, n0_p, rr_p, len);
	big_r52_from_words(x, 0, digits, residue, len);
	big_mont_reduce_crt_ct(residue, a, alen, q, n0_q, rr_q, len);
	big_r52_from_words(x, 1, digits, residue, len);

	pad_words(e_p, dp, dplen, ewords);
	pad_words(e_q, dq, dqlen, ewords);
	ops->pow(y, x, e_p, e_q, ewords, &mod, pow_scratch);
	big_r52_to_words(m_p, len, y, 0, digits);
	big_r52_to_words(m_q, len, y, 1, digits);
	big_wipe(&mod, sizeof(mod));
}

#endif
