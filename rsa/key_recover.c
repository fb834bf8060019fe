/*
 * rsa_key_recover_crt: p, q, dp, dq and qinv of a private key given as n,
 * e and d alone (rsa_key_from_numbers: an OpenSSL import or a key store
 * may hand over no more).
 *
 * d e - 1 is a multiple of lambda(n) = lcm(p - 1, q - 1).  Written as
 * 2^t r with r odd, a base g gives y = g^r mod n, whose squarings reach 1
 * within t steps.  The value before the first 1, where it is not n - 1, is
 * a square root of 1 other than +-1, so gcd(y - 1, n) is p or q.  For
 * n = p q with distinct odd primes at least half of the bases give one
 * (NIST SP 800-56B rev. 2, Appendix C.2); the primes below 256 are tried
 * in turn, so a true key fails only with probability about 2^-54.  An n
 * with one prime factor only, which no base splits, is told apart first
 * (one_prime_only).  A d that does not invert e, a prime n, a prime power
 * and an n of three or more primes fail here, named as such; what this
 * makes is then checked as any key is (rsa_key_check: p q = n, the CRT
 * numbers, primality).
 *
 * p is taken as the larger factor, as OpenSSL's key generation orders
 * them; qinv = q^-1 mod p.
 *
 * Not constant time (the step at which 1 appears follows p - 1 and
 * q - 1, Euclid's steps follow p): it runs once, at load, as the key
 * checks do.  Every temporary is wiped by big_finish.
 */
#include "rsa_internal.h"

enum { T_K, T_Y, T_X, T_NM1, T_ONE, T_RR, T_A, T_B, T_C, T_G, T_COUNT };

static const uint8_t bases[] = {
	2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67,
	71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139,
	149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199, 211, 223,
	227, 229, 233, 239, 241, 251,
};

/* out = gcd(a, b); a and b are overwritten, c is scratch.  Euclid by
 * remainders: no output aliases an input of big_div_pos. */
static BIG_ERR_CODE gcd(BIGNUM *out, BIGNUM *a, BIGNUM *b, BIGNUM *c)
{
	BIGNUM *x = a, *y = b, *r = c;
	while (!big_is_zero(y)) {
		BIG_ERR_CODE err = big_div_pos(NULL, r, x, y);
		if (err != BIG_OK)
			return err;
		BIGNUM *old = x;
		x = y;
		y = r;
		r = old;
	}
	return big_copy(out, x);
}

enum { FOUND, NOT_THIS_BASE, NOT_AN_INVERSE };

/*
 * One base g: y = g^r, squared up to t times.  FOUND with a factor in
 * *factor, NOT_THIS_BASE (y was 1 or reached n - 1), or NOT_AN_INVERSE
 * (no 1 within t squarings: d e - 1 is no multiple of lambda(n)).
 */
static int try_base(BIGNUM *factor, BIG_ERR_CODE *err, const rsa_key *k, BIGNUM *t, int twos,
		    BIG_CHUNK_TYPE n0)
{
	BIGNUM *y = &t[T_Y], *x = &t[T_X], *one = &t[T_ONE], *nm1 = &t[T_NM1];
	if ((*err = big_modexp_ct(y, &t[T_G], &t[T_K], &k->n, &t[T_RR])) != BIG_OK)
		return NOT_THIS_BASE;
	if (big_cmp_abs(y, one) == 0 || big_cmp_abs(y, nm1) == 0)
		return NOT_THIS_BASE;
	for (int i = 0; i < twos; i++) {
		if ((*err = big_mod_mul(x, y, y, &k->n, n0, &t[T_RR])) != BIG_OK)
			return NOT_THIS_BASE;
		if (big_cmp_abs(x, one) == 0) {
			if ((*err = big_sub_pos(&t[T_A], y, one)) != BIG_OK ||
			    (*err = big_copy(&t[T_B], &k->n)) != BIG_OK ||
			    (*err = gcd(factor, &t[T_A], &t[T_B], &t[T_C])) != BIG_OK)
				return NOT_THIS_BASE;
			return FOUND;
		}
		if (big_cmp_abs(x, nm1) == 0)
			return NOT_THIS_BASE;
		if ((*err = big_copy(y, x)) != BIG_OK)
			return NOT_THIS_BASE;
	}
	return NOT_AN_INVERSE;
}

/* The CRT numbers from p and q (p > q): dp, dq, qinv. */
static BIG_ERR_CODE crt_numbers(rsa_key *k, BIGNUM *t)
{
	BIGNUM *one = &t[T_ONE], *pm1 = &t[T_A], *qm1 = &t[T_B];
	BIG_ERR_CODE err;
	if ((err = big_sub_pos(pm1, &k->p, one)) != BIG_OK ||
	    (err = big_sub_pos(qm1, &k->q, one)) != BIG_OK ||
	    (err = big_div_pos(NULL, &k->dp, &k->d, pm1)) != BIG_OK ||
	    (err = big_div_pos(NULL, &k->dq, &k->d, qm1)) != BIG_OK)
		return err;
	return big_mod_inverse(&k->qinv, &k->q, &k->p);
}

/*
 * Where n has one prime factor only (a prime, or a prime power p^j), no
 * base gives a square root of 1 other than +-1, and the loop below would
 * run all its bases, each a power to an exponent as long as d e: minutes
 * at 16384 bits, for a key anyone can make.  Those n are told first, by
 * x = 2^n - 2 mod n: p divides it for every prime p of a prime power (2^p
 * = 2 mod p, so 2^(p^j) = 2), so gcd(x, n) > 1 there, while for n = p q
 * it is 1 but where 2^(n-1) = 1 mod p or mod q.  gcd(x, n) a proper
 * factor: *found, in p (a prime power's is then refused as not prime or
 * as p and q sharing a factor; for p q, d is then checked by
 * rsa_key_check); n itself: refused where n is a probable prime.
 */
static int one_prime_only(rsa_key *k, BIGNUM *t, int *found, char *err, size_t errlen)
{
	BIGNUM *two = &t[T_G], *x = &t[T_Y];
	BIG_ERR_CODE e;
	if ((e = big_set_chunk(two, 2)) != BIG_OK ||
	    (e = big_modexp(x, two, &k->n, &k->n, &t[T_RR])) != BIG_OK)
		return rsa_status_from_big(e, RSA_ERR_FORMAT);
	if (big_cmp_abs(x, two) >= 0)
		e = big_sub_pos(&t[T_A], x, two);
	else if ((e = big_add_abs(&t[T_A], x, &k->n)) == BIG_OK)
		e = big_sub_pos(&t[T_A], &t[T_A], two);
	if (e != BIG_OK || (e = big_copy(&t[T_B], &k->n)) != BIG_OK ||
	    (e = gcd(&k->p, &t[T_A], &t[T_B], &t[T_C])) != BIG_OK)
		return rsa_status_from_big(e, RSA_ERR_FORMAT);
	if (big_cmp_abs(&k->p, &t[T_ONE]) == 0)
		return RSA_OK;
	if (big_cmp_abs(&k->p, &k->n) != 0) {
		*found = 1;
		return RSA_OK;
	}
	int prime;
	e = big_is_probable_prime(&prime, &k->n, 1);
	if (e == BIG_NO_RANDOM)
		return RSA_ERR_RANDOM;
	if (e != BIG_OK)
		return rsa_status_from_big(e, RSA_ERR_FORMAT);
	if (prime) {
		rsa_set_error(err, errlen,
			      "key check failed: n is not the product of two primes (n is prime)");
		return RSA_ERR_KEY_CHECK;
	}
	return RSA_OK;
}

static int recover(rsa_key *k, BIGNUM *t, char *err, size_t errlen)
{
	BIG_ERR_CODE e;
	if ((e = big_set_chunk(&t[T_ONE], 1)) != BIG_OK ||
	    (e = big_sub_pos(&t[T_NM1], &k->n, &t[T_ONE])) != BIG_OK ||
	    (e = big_mont_rr(&t[T_RR], &k->n)) != BIG_OK ||
	    (e = big_mul(&t[T_A], &k->d, &k->e)) != BIG_OK ||
	    (e = big_sub_pos(&t[T_K], &t[T_A], &t[T_ONE])) != BIG_OK)
		return rsa_status_from_big(e, RSA_ERR_FORMAT);
	if (big_is_zero(&t[T_K]) || (t[T_K].value[0] & 1) != 0) {
		rsa_set_error(err, errlen, "key check failed: d does not invert e (d e - 1 is %s)",
			      big_is_zero(&t[T_K]) ? "zero" : "odd");
		return RSA_ERR_KEY_CHECK;
	}
	int twos = 0;
	while (((t[T_K].value[twos / BIG_CHUNK_SIZE] >> (twos % BIG_CHUNK_SIZE)) & 1) == 0)
		twos++;
	if ((e = big_shiftright(&t[T_K], &t[T_K], twos)) != BIG_OK)
		return rsa_status_from_big(e, RSA_ERR_FORMAT);

	const BIG_CHUNK_TYPE n0 = big_n0(k->n.value[0]);
	int found = 0;
	int rc = one_prime_only(k, t, &found, err, errlen);
	if (rc != RSA_OK)
		return rc;
	for (size_t i = 0; i < sizeof(bases) && !found; i++) {
		if ((e = big_set_chunk(&t[T_G], bases[i])) != BIG_OK)
			return rsa_status_from_big(e, RSA_ERR_FORMAT);
		int r = try_base(&k->p, &e, k, t, twos, n0);
		if (e != BIG_OK)
			return rsa_status_from_big(e, RSA_ERR_FORMAT);
		if (r == NOT_AN_INVERSE) {
			rsa_set_error(err, errlen,
				      "key check failed: d does not invert e (g^(d e - 1) != 1 mod n "
				      "for g = %d)",
				      bases[i]);
			return RSA_ERR_KEY_CHECK;
		}
		found = r == FOUND;
	}
	if (!found) {
		rsa_set_error(err, errlen,
			      "key check failed: n is not the product of two primes (d and e "
			      "gave no factor with %zu bases)",
			      sizeof(bases));
		return RSA_ERR_KEY_CHECK;
	}
	if ((e = big_div_pos(&k->q, &t[T_A], &k->n, &k->p)) != BIG_OK)
		return rsa_status_from_big(e, RSA_ERR_FORMAT);
	/* One round each, so that n of three or more primes is named as
	 * such here, not by a CRT check it then fails; rsa_key_check runs
	 * the full count. */
	for (int i = 0; i < 2; i++) {
		int prime;
		e = big_is_probable_prime(&prime, i == 0 ? &k->p : &k->q, 1);
		if (e == BIG_NO_RANDOM)
			return RSA_ERR_RANDOM;
		if (e != BIG_OK)
			return rsa_status_from_big(e, RSA_ERR_FORMAT);
		if (!prime) {
			rsa_set_error(err, errlen,
				      "key check failed: n is not the product of two primes (a "
				      "factor found is not prime)");
			return RSA_ERR_KEY_CHECK;
		}
	}
	if (big_cmp_abs(&k->p, &k->q) < 0) {
		BIGNUM swap = k->p;
		k->p = k->q;
		k->q = swap;
	}
	if ((e = crt_numbers(k, t)) != BIG_OK) {
		if (e == BIG_INVALID_ARGS) { /* q not invertible mod p: p, q not coprime */
			rsa_set_error(err, errlen, "key check failed: p and q share a factor");
			return RSA_ERR_KEY_CHECK;
		}
		return rsa_status_from_big(e, RSA_ERR_FORMAT);
	}
	return RSA_OK;
}

int rsa_key_recover_crt(rsa_key *k, char *err, size_t errlen)
{
	/* n odd, as the powers mod n need, and e's own faults named as such
	 * rather than as a d that does not invert it. */
	int rc = rsa_key_check_public(k, err, errlen);
	if (rc != RSA_OK)
		return rc;
	BIGNUM t[T_COUNT];
	int made = 0;
	for (; made < T_COUNT; made++)
		if (big_init(&t[made], 2 * k->n.len + 2) != BIG_OK) {
			rc = RSA_ERR_NO_MEM;
			break;
		}
	BIGNUM *out[] = { &k->p, &k->q, &k->dp, &k->dq, &k->qinv };
	for (size_t i = 0; rc == RSA_OK && i < 5; i++)
		if (big_extend(out[i], k->n.len + 1) != BIG_OK)
			rc = RSA_ERR_NO_MEM;
	if (rc == RSA_OK)
		rc = recover(k, t, err, errlen);
	if (rc == RSA_ERR_NO_MEM)
		rsa_set_error(err, errlen, "out of memory while recovering p and q");
	else if (rc == RSA_ERR_RANDOM)
		rsa_set_error(err, errlen, "no randomness (getrandom) for the primality test");
	else if (rc != RSA_OK && rc != RSA_ERR_KEY_CHECK)
		rsa_set_error(err, errlen, "recovering p and q failed: %s", rsa_strerror(rc));
	while (made > 0)
		big_finish(&t[--made]);
	return rc;
}
