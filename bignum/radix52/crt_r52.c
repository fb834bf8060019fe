/*
 * big_crt_r52_pow: both CRT exponentiations of big_modexp_crt in one
 * radix-2^52 dual exponentiation (contract: radix52.h).
 *
 * With L = len chunks of 64 bits and k = digits (52k >= 64L; k = 10L/8
 * for the RSA sizes), R64 = 2^(64L) and R = 2^(52k):
 *
 * - The moduli, their k0 = -m^-1 mod 2^52 (the low 52 bits of the
 *   radix-2^64 n0, since 2^52 divides 2^64) and the caller's R64^2 mod m
 *   are converted to digits.
 * - R^2 mod m from R64^2 mod m by two almost-Montgomery products, as
 *   OpenSSL derives it, in constant time and without a division:
 *     T1 = AMM(RR64, RR64)  = R64^4 / R       = 2^(256L - 52k)
 *     RR = AMM(T1, 2^e)     = 2^(256L - 104k + e) = 2^(104k) = R^2,
 *   all mod m, with e = 208k - 256L.  For the RSA sizes e = 4L (32, 64,
 *   96, 128), so 0 <= e < 52k and 2^e is a k-digit number; both products
 *   stay below 2m (RR64 < m; T1 * 2^e < 2m * 2^(52k - 1) = m R).  The
 *   exponentiation accepts an R^2 below 2m.
 * - The base is a mod m as a plain residue (big_mont_reduce_ct, k = 0:
 *   Montgomery products by the radix-2^64 R^2, no division), below m.
 * - The exponents are zero-padded to a common length, so both halves scan
 *   the same windows.
 */
#include "internal.h"
#include "radix52.h"

#if BIG_CHUNK_SIZE == 64

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

	mod.digits = digits;
	mod.k0[0] = n0_p & BIG_R52_DIGIT_MASK;
	mod.k0[1] = n0_q & BIG_R52_DIGIT_MASK;
	big_r52_from_words(mod.m, 0, digits, p, len);
	big_r52_from_words(mod.m, 1, digits, q, len);
	big_r52_dual_mod_prepare(&mod);

	big_r52_from_words(x, 0, digits, rr_p, len);
	big_r52_from_words(x, 1, digits, rr_q, len);
	ops->mul(x, x, x, &mod);
	const int e = 208 * digits - 256 * len;
	for (int w = 0; w < words; w++)
		y[w] = 0;
	y[BIG_R52_AT(0, e / 52)] = y[BIG_R52_AT(1, e / 52)] = (uint64_t)1 << (e % 52);
	ops->mul(mod.rr, x, y, &mod);

	big_mont_reduce_ct(residue, a, alen, p, n0_p, rr_p, len, 0);
	big_r52_from_words(x, 0, digits, residue, len);
	big_mont_reduce_ct(residue, a, alen, q, n0_q, rr_q, len, 0);
	big_r52_from_words(x, 1, digits, residue, len);

	pad_words(e_p, dp, dplen, ewords);
	pad_words(e_q, dq, dqlen, ewords);
	ops->pow(y, x, e_p, e_q, ewords, &mod, pow_scratch);
	big_r52_to_words(m_p, len, y, 0, digits);
	big_r52_to_words(m_q, len, y, 1, digits);
	big_wipe(&mod, sizeof(mod));
}

#endif
