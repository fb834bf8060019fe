/*
 * Base blinding of the RSA private operation: rsa_blind, rsa_unblind,
 * rsa_random_bytes (contracts in rsa/blinding.h).
 *
 * Why blind when the exponentiation is already constant time: the
 * constant-time claim covers the code we can see; blinding also covers the
 * microarchitecture we cannot (a multiplier whose latency depends on its
 * operands, power and EM side channels), because the exponentiation's
 * input becomes a uniformly random value unrelated to the caller's input.
 *
 * Why t = r*b: big_mod_inverse is a variable-time binary Euclid.  Run on r
 * it would leak bits of r, and r^-1 multiplies the secret result.  Run on
 * t = r*b mod n with b uniform and secret, t is uniform and independent of
 * r, so whatever its timing tells is about a value that is then discarded.
 *
 * Cost per private operation: two getrandom() calls, r^e mod n (cheap for
 * small e), four modular products (big_mod_mul: two Montgomery products
 * each), one inversion.
 */
#include "blinding.h"

#include <bigmont/rsa.h>

#include <stdlib.h>

#include "rsa_internal.h"

/* An r for which t = r*b mod n is not invertible shares a factor with n:
 * about 2^-500 for an RSA modulus.  Failing this often means randomness is
 * broken (e.g. all zero bytes), not bad luck. */
#define MAX_ATTEMPTS 32

int rsa_random_bytes(uint8_t *out, size_t len)
{
	return big_random_bytes(out, len) == BIG_OK ? 0 : -1;
}

/* out = a * b mod n as a status. */
static int mul_mod(BIGNUM *out, const BIGNUM *a, const BIGNUM *b,
		   const BIGNUM *n, BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	return rsa_status_from_big(big_mod_mul(out, a, b, n, n0, n_rr),
				   RSA_ERR_ARGS);
}

/* r uniform in [1, n) from getrandom(): rejection sampling on n's bit
 * length.  buf holds nbytes. */
static int random_below(BIGNUM *r, const BIGNUM *n, uint8_t *buf, size_t nbytes,
			int nbits)
{
	/* Bits of the top byte that n uses: 1..8. */
	int top_bits = nbits - 8 * ((int)nbytes - 1);
	uint8_t top_mask = (uint8_t)((1u << top_bits) - 1);
	for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		if (rsa_random_bytes(buf, nbytes) != 0)
			return RSA_ERR_RANDOM;
		buf[0] &= top_mask;
		BIG_ERR_CODE err = bytestring2bignum(r, buf, nbytes);
		if (err != BIG_OK)
			return rsa_status_from_big(err, RSA_ERR_ARGS);
		/* Reject 0 and >= n: for a modulus with its top bit set at
		 * least half the draws pass. */
		if (!big_is_zero(r) && big_cmp_abs(r, n) < 0)
			return RSA_OK;
	}
	return RSA_ERR_RANDOM;
}

int rsa_blind(BIGNUM *blinded, BIGNUM *unblinder, const BIGNUM *in,
	      const BIGNUM *e, const BIGNUM *n, BIG_CHUNK_TYPE n0,
	      const BIGNUM *n_rr)
{
	if (!blinded || !unblinder || !in || !e || !n || !n_rr)
		return RSA_ERR_ARGS;
	const int nbits = big_bitlength(n);
	if (nbits < 2 || (n->value[0] & 1) == 0)
		return RSA_ERR_ARGS;
	const size_t nbytes = ((size_t)nbits + 7) / 8;
	const int size = n->len + 1;

	uint8_t *buf = malloc(nbytes);
	if (buf == NULL)
		return RSA_ERR_NO_MEM;
	BIGNUM r, b, t, tinv, r_e;
	BIGNUM *all[] = {&r, &b, &t, &tinv, &r_e};
	int inited = 0, rc = RSA_ERR_NO_MEM;
	for (; inited < 5; inited++)
		if (big_init(all[inited], size) != BIG_OK)
			goto out;

	rc = RSA_ERR_RANDOM;
	for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		if ((rc = random_below(&r, n, buf, nbytes, nbits)) != RSA_OK ||
		    (rc = random_below(&b, n, buf, nbytes, nbits)) != RSA_OK)
			goto out;
		if ((rc = mul_mod(&t, &r, &b, n, n0, n_rr)) != RSA_OK)
			goto out;
		BIG_ERR_CODE err = big_mod_inverse(&tinv, &t, n);
		if (err == BIG_INVALID_ARGS) {
			rc = RSA_ERR_RANDOM; /* gcd(t, n) != 1: draw again */
			continue;
		}
		if ((rc = rsa_status_from_big(err, RSA_ERR_ARGS)) != RSA_OK)
			goto out;
		/* r^-1 = (r*b)^-1 * b. */
		if ((rc = mul_mod(unblinder, &tinv, &b, n, n0, n_rr)) != RSA_OK)
			goto out;
		/* r^e: e is public, so the variable-time exponentiation is
		 * fine; r only enters it through constant-time products. */
		rc = rsa_status_from_big(big_modexp(&r_e, &r, e, n, n_rr),
					 RSA_ERR_ARGS);
		if (rc != RSA_OK)
			goto out;
		rc = mul_mod(blinded, in, &r_e, n, n0, n_rr);
		goto out;
	}
out:
	for (int i = 0; i < inited; i++)
		big_finish(all[i]); /* wipes */
	big_wipe(buf, nbytes);
	free(buf);
	return rc;
}

int rsa_unblind(BIGNUM *out, const BIGNUM *x, const BIGNUM *unblinder,
		const BIGNUM *n, BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	if (!out || !x || !unblinder || !n || !n_rr)
		return RSA_ERR_ARGS;
	return mul_mod(out, x, unblinder, n, n0, n_rr);
}
