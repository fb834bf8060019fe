/*
 * rsa_key_check: is a loaded key consistent?  For every key: n odd, e odd,
 * 1 < e < n.  For a private key also: p, q > 1 and p != q, p*q == n,
 * dp == d mod (p-1), dq == d mod (q-1), qInv < p and qInv*q == 1 (mod p),
 * and e*dp == 1 (mod p-1), e*dq == 1 (mod q-1) (so the CRT exponents undo
 * e: without it every decryption would fail the fault check), and last,
 * p and q probable primes (rsa_prime_rounds rounds of Miller-Rabin each):
 * a composite p with every other number consistent with it passes all the
 * checks above and then fails every fault check.  The first check that
 * fails is named in err.
 *
 * Variable time (divisions, early exits): it runs once, at load, on a key
 * the user handed us; the per-operation path never comes here.  The
 * primality test keeps its powerings constant time in p and q
 * (big_is_probable_prime).  Scratch is wiped by big_finish.
 */
#include <stdio.h>

#include "rsa_internal.h"

enum { T_ONE, T_PM1, T_QM1, T_PROD, T_REM, T_COUNT };

static int bad(char *err, size_t errlen, const char *what)
{
	rsa_set_error(err, errlen, "key check failed: %s", what);
	return RSA_ERR_KEY_CHECK;
}

static int is_one(const BIGNUM *a, const BIGNUM *one)
{
	return big_cmp_abs(a, one) == 0;
}

/* rem = a*b mod m, or a mod m when b is NULL. */
static BIG_ERR_CODE mul_mod(BIGNUM *rem, BIGNUM *prod, const BIGNUM *a,
			    const BIGNUM *b, const BIGNUM *m)
{
	BIG_ERR_CODE err = BIG_OK;
	if (b != NULL) {
		err = big_mul(prod, a, b);
		a = prod;
	}
	return err != BIG_OK ? err : big_div_pos(NULL, rem, a, m);
}

static int check_private(const rsa_key *k, BIGNUM *t, char *err, size_t errlen)
{
	BIGNUM *one = &t[T_ONE], *pm1 = &t[T_PM1], *qm1 = &t[T_QM1];
	BIGNUM *prod = &t[T_PROD], *rem = &t[T_REM];
	if (big_set_chunk(one, 1) != BIG_OK)
		return RSA_ERR_NO_MEM;
	if (is_one(&k->p, one) || is_one(&k->q, one))
		return bad(err, errlen, "a prime factor (p or q) is 1");
	if (big_cmp_abs(&k->p, &k->q) == 0)
		return bad(err, errlen, "p == q");
	if (big_mul(prod, &k->p, &k->q) != BIG_OK)
		return RSA_ERR_NO_MEM;
	if (big_cmp_abs(prod, &k->n) != 0)
		return bad(err, errlen, "p*q != n");
	if (big_sub_pos(pm1, &k->p, one) != BIG_OK || big_sub_pos(qm1, &k->q, one) != BIG_OK)
		return RSA_ERR_NO_MEM;
	if (mul_mod(rem, prod, &k->d, NULL, pm1) != BIG_OK)
		return RSA_ERR_NO_MEM;
	if (big_cmp_abs(rem, &k->dp) != 0)
		return bad(err, errlen, "dp != d mod (p-1)");
	if (mul_mod(rem, prod, &k->d, NULL, qm1) != BIG_OK)
		return RSA_ERR_NO_MEM;
	if (big_cmp_abs(rem, &k->dq) != 0)
		return bad(err, errlen, "dq != d mod (q-1)");
	if (big_cmp_abs(&k->qinv, &k->p) >= 0)
		return bad(err, errlen, "qInv*q != 1 (mod p) (qInv >= p)");
	if (mul_mod(rem, prod, &k->qinv, &k->q, &k->p) != BIG_OK)
		return RSA_ERR_NO_MEM;
	if (!is_one(rem, one))
		return bad(err, errlen, "qInv*q != 1 (mod p)");
	if (mul_mod(rem, prod, &k->e, &k->dp, pm1) != BIG_OK)
		return RSA_ERR_NO_MEM;
	if (!is_one(rem, one))
		return bad(err, errlen, "e*dp != 1 (mod p-1): d does not invert e");
	if (mul_mod(rem, prod, &k->e, &k->dq, qm1) != BIG_OK)
		return RSA_ERR_NO_MEM;
	if (!is_one(rem, one))
		return bad(err, errlen, "e*dq != 1 (mod q-1): d does not invert e");
	const BIGNUM *factor[] = { &k->p, &k->q };
	for (int i = 0; i < 2; i++) {
		int prime;
		BIG_ERR_CODE e = big_is_probable_prime(&prime, factor[i],
						       rsa_prime_rounds(big_bitlength(factor[i])));
		if (e == BIG_NO_RANDOM)
			return RSA_ERR_RANDOM;
		if (e != BIG_OK)
			return RSA_ERR_NO_MEM;
		if (!prime)
			return bad(err, errlen, i == 0 ? "p is not prime" : "q is not prime");
	}
	return RSA_OK;
}

/*
 * FIPS 186-5 Table B.1 gives the rounds for the primes of 2048-, 3072- and
 * 4096-bit moduli at the modulus' security strength: 5 for 1024-bit
 * primes (error 2^-112), 4 for 1536- and 2048-bit ones (2^-128, 2^-144).
 * Smaller primes, which it no longer covers, get the fewest rounds for
 * which the Damgard-Landrock-Pomerance bound for a random candidate of the
 * range's smallest size (HAC fact 4.48) is below 2^-100: 5 from 768 bits,
 * 8 from 512, 11 from 384, 17 from 256; under 256 bits, 50 rounds, the
 * 2^-100 bound for any composite.
 */
int rsa_prime_rounds(int bits)
{
	return bits >= 1536 ? 4 : bits >= 768 ? 5 : bits >= 512 ? 8 : bits >= 384 ? 11 :
	       bits >= 256 ? 17 : 50;
}

int rsa_key_check_public(const rsa_key *k, char *err, size_t errlen)
{
	if ((k->n.value[0] & 1) == 0)
		return bad(err, errlen, "the modulus n is even");
	if ((k->e.value[0] & 1) == 0)
		return bad(err, errlen, "the public exponent e is even");
	if (k->e.len == 1 && k->e.value[0] == 1)
		return bad(err, errlen, "the public exponent e is 1");
	if (big_cmp_abs(&k->e, &k->n) >= 0)
		return bad(err, errlen, "the public exponent e is not less than n");
	return RSA_OK;
}

int rsa_key_check(const rsa_key *k, char *err, size_t errlen)
{
	int pub = rsa_key_check_public(k, err, errlen);
	if (pub != RSA_OK || !k->is_private)
		return pub;

	BIGNUM t[T_COUNT];
	int rc = RSA_OK;
	int made = 0;
	for (; made < T_COUNT; made++)
		if (big_init(&t[made], k->n.len + 1) != BIG_OK) {
			rc = RSA_ERR_NO_MEM;
			break;
		}
	if (rc == RSA_OK)
		rc = check_private(k, t, err, errlen);
	if (rc == RSA_ERR_NO_MEM)
		rsa_set_error(err, errlen, "out of memory while checking the key");
	if (rc == RSA_ERR_RANDOM)
		rsa_set_error(err, errlen, "no randomness (getrandom) for the primality test");
	while (made > 0)
		big_finish(&t[--made]);
	return rc;
}
