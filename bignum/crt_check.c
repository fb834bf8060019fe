/*
 * big_crt_check: whether s^e = a mod n and n = pq, checked modulo p and
 * modulo q apart (contract in bignum.h): the fault check of a CRT result
 * s of input a, for a public e.
 *
 * By the CRT, s^e = a mod pq exactly when s^e = a mod p and mod q.  Each
 * side is reduced afresh from the whole s and the whole a (Montgomery
 * reductions and products by R^2, no division: below), so a fault anywhere in the
 * CRT (either half's exponentiation, the reduction of its input, Garner's
 * recombination) leaves at least one congruence false.  The check modulo
 * the primes trusts them: a stored prime faulted to a small value (1,
 * say) would make its congruence hold for any s and let through a result
 * that is right modulo the other prime alone, which factors n.  So p q is
 * compared with the stored n too (one product of the primes, half a
 * Montgomery product's multiplies); a
 * faulted R^2 mod p scales both residues of that half by the same wrong
 * factor X, and (s X)^e = a X fails unless X^(e-1) = 1.  Two
 * exponentiations by e modulo the half-size primes cost about half of one
 * modulo pq: 2 (n/2)^2 multiplies a product against n^2.
 *
 *   radix 2^52 (the ifma variant, the sizes big_r52_crt_digits serves):
 *     both halves in one dual square-and-multiply (big_r52_pow_public,
 *     mod->halves = 2), as the CRT's exponentiations run there;
 *   elsewhere: big_pow_public_vec for p, then for q.
 *
 * With primes of one length, s and a are reduced by one Montgomery
 * reduction and a product each (big_mont_reduce_crt_ct), which needs
 * them below p R and q R (R = B^len): every value below pq is, a CRT
 * result and its input; a larger one reads as some other residue, so as
 * not equal but by chance.  Primes of different lengths take
 * big_mont_reduce_ct's blocks, for any value.
 *
 * Measured against big_modexp_ct_base modulo n on the same out (rdtsc
 * medians of 400 checks, Intel family 6 model 207, halves over whole):
 * ifma 1.15-1.24 at RSA-1024, where the whole check runs in radix 2^52
 * at 20 digits, so big_crt_check_wanted says 0 there; 0.75-0.78 at
 * RSA-2048 (also radix 2^52 modulo n), 0.39-0.47 at 3072 and 0.31-0.39 at
 * 4096 (radix 2^64 modulo n); adx 0.79 and 0.71 at RSA-1024 and 2048.
 *
 * Constant time in s, a, p, q and n (the loops run over p->len, q->len
 * and the bits of e, which are public; the comparisons OR every chunk's
 * difference).  Scratch: CHECK_CHUNKS on the stack (14 KB), wiped before
 * the return; nothing is allocated.
 */
#include "internal.h"
#include "radix52/radix52.h"

/* Room for primes of lp + lq <= BIG_MAX_MODULUS_CHUNKS + 1 chunks (those
 * of any n big_check_modulus takes): 6 (lp + lq) + max(lp, lq) chunks on
 * the radix-2^64 path; the radix-2^52 one (up to 32-chunk primes) needs
 * less. */
#define CHECK_CHUNKS (7 * (BIG_MAX_MODULUS_CHUNKS + 1))

int big_crt_check_wanted(int nlen)
{
#if BIG_CHUNK_SIZE == 64 && BIG_R52_HAVE_IFMA_BUILD
	/* RSA-1024's n: the radix-2^52 check modulo n at 20 digits. */
	if (big_cpu_bound() == BIG_CPU_IFMA && nlen == 16)
		return 0;
#endif
	(void)nlen;
	return 1;
}

/* 0 if x and y (len chunks) are equal, else not 0; every chunk read. */
static chunk_t differ(const chunk_t *x, const chunk_t *y, int len)
{
	chunk_t d = 0;
	for (int j = 0; j < len; j++)
		d |= x[j] ^ y[j];
	return d;
}

static int len_ok(const BIGNUM *x, int max)
{
	return x != NULL && x->len >= 0 && x->len <= max;
}

BIG_ERR_CODE big_crt_check(int *equal, const BIGNUM *s, const BIGNUM *a, const BIGNUM *e,
			   const BIGNUM *n, const BIGNUM *p, const BIGNUM *q, const BIGNUM *p_rr,
			   const BIGNUM *q_rr)
{
	if (equal == NULL)
		return BIG_INVALID_ARGS;
	*equal = 0;
	if (p == NULL || q == NULL || p->len < 1 || q->len < 1 ||
	    p->len > BIG_MAX_MODULUS_CHUNKS || q->len > BIG_MAX_MODULUS_CHUNKS ||
	    e == NULL || e->len < 0)
		return BIG_INVALID_ARGS;
	const int lp = p->len, lq = q->len, lpq = lp + lq, lmax = lp > lq ? lp : lq;
	if (lpq > BIG_MAX_MODULUS_CHUNKS + 1 || !len_ok(s, lpq) || !len_ok(a, lpq) ||
	    !len_ok(n, lpq))
		return BIG_INVALID_ARGS;
	const int digits = big_crt_r52_digits(lp, lq); /* the CRT's own path */
	(void)digits; /* read only where the radix-2^52 build is */
	/* rr_p, rr_q; s and a mod p and mod q; the powers; a padded copy of
	 * s, a or n; p q; the radix-64 power's scratch or the dual path's. */
	size_t work = lmax;
#if BIG_CHUNK_SIZE == 64 && BIG_R52_HAVE_IFMA_BUILD
	if (digits)
		work = 2 * (size_t)BIG_R52_PAIR_WORDS(digits) + big_r52_pow_public_scratch(digits);
#endif
	const size_t total = (size_t)2 * lp + 2 * (size_t)lq + 2 * (size_t)lp +
			     2 * (size_t)lq + 2 * (size_t)lpq + work;
	chunk_t scratch[CHECK_CHUNKS];
	if (total > CHECK_CHUNKS)
		return BIG_INVALID_ARGS;
	chunk_t *rr_p = scratch, *s_p = rr_p + lp, *a_p = s_p + lp, *pow_p = a_p + lp;
	chunk_t *rr_q = pow_p + lp, *s_q = rr_q + lq, *a_q = s_q + lq, *pow_q = a_q + lq;
	chunk_t *x = pow_q + lq, *pq = x + lpq, *wk = pq + lpq;
	const chunk_t *pv = p->value, *qv = q->value;
	const chunk_t p0 = big_n0(pv[0]), q0 = big_n0(qv[0]);

	BIG_ERR_CODE err = big_mont_rr_vec(rr_p, p_rr, p, lp);
	if (err == BIG_OK)
		err = big_mont_rr_vec(rr_q, q_rr, q, lq);
	if (err != BIG_OK)
		goto out;
	/* Padded to lp + lq chunks, so that a trimmed s or a (a top chunk
	 * that happens to be zero) costs the same. */
	big_copy_pad_vec(x, lpq, s->value, s->len);
	big_mont_reduce_crt_ct(s_p, x, lpq, pv, p0, rr_p, lp);
	big_mont_reduce_crt_ct(s_q, x, lpq, qv, q0, rr_q, lq);
	big_copy_pad_vec(x, lpq, a->value, a->len);
	big_mont_reduce_crt_ct(a_p, x, lpq, pv, p0, rr_p, lp);
	big_mont_reduce_crt_ct(a_q, x, lpq, qv, q0, rr_q, lq);

	const int ebits = big_bitlength(e);
#if BIG_CHUNK_SIZE == 64 && BIG_R52_HAVE_IFMA_BUILD
	if (digits) {
		const struct big_r52_ops ifma = BIG_R52_OPS_INIT(ifma);
		const int words = BIG_R52_PAIR_WORDS(digits);
		uint64_t *base = wk, *power = base + words, *pow_scratch = power + words;
		struct big_r52_dual_mod mod;
		big_r52_mod_init(&mod, digits, 2, (const uint64_t *const[2]){ pv, qv },
				 (const uint64_t *const[2]){ rr_p, rr_q }, lp, &ifma, base, power);
		/* Below p and q: within the public power's R/4. */
		big_r52_from_words(base, 0, digits, s_p, lp);
		big_r52_from_words(base, 1, digits, s_q, lq);
		ifma.pow_public(power, base, e->value, ebits, &mod, pow_scratch);
		big_r52_to_words(pow_p, lp, power, 0, digits);
		big_r52_to_words(pow_q, lq, power, 1, digits);
		big_wipe(&mod, sizeof(mod));
	} else
#endif
	{
		big_pow_public_vec(pow_p, s_p, rr_p, e, ebits, pv, p0, lp, wk);
		big_pow_public_vec(pow_q, s_q, rr_q, e, ebits, qv, q0, lq, wk);
	}
	/* The primes against the stored n: a prime faulted in memory (to 1,
	 * say) would make its half of the check hold for any s. */
	big_mul_vec(pq, pv, lp, qv, lq);
	big_copy_pad_vec(x, lpq, n->value, n->len);
	*equal = (differ(pow_p, a_p, lp) | differ(pow_q, a_q, lq) | differ(pq, x, lpq)) == 0;
out:
	big_wipe(scratch, sizeof(chunk_t) * total);
	return err;
}
