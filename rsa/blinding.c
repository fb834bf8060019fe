/*
 * A fresh blinding pair: rsa_blind_pair, rsa_random_bytes (contracts in
 * rsa/blinding.h; rsa/blinding_cache.c keeps and uses the pairs).
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
 * Cost of a pair: one getrandom() call, r^e mod n (cheap for small e), two
 * modular products (big_mod_mul), one inversion; the cache makes one every
 * RSA_BLIND_REFRESH private operations.
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

/* r and b uniform in [1, n): rejection sampling on n's bit length, both
 * drawn from one getrandom() call per attempt (a value already accepted is
 * kept).  buf holds 2 * nbytes. */
static int random_pair_below(BIGNUM *r, BIGNUM *b, const BIGNUM *n,
			     uint8_t *buf, size_t nbytes, int nbits)
{
	/* Bits of the top byte that n uses: 1..8. */
	int top_bits = nbits - 8 * ((int)nbytes - 1);
	uint8_t top_mask = (uint8_t)((1u << top_bits) - 1);
	BIGNUM *dst[2] = {r, b};
	int have = 0; /* bit i: dst[i] accepted */
	for (int attempt = 0; attempt < MAX_ATTEMPTS && have != 3; attempt++) {
		if (rsa_random_bytes(buf, 2 * nbytes) != 0)
			return RSA_ERR_RANDOM;
		for (int i = 0; i < 2; i++) {
			if (have & (1 << i))
				continue;
			uint8_t *half = buf + (size_t)i * nbytes;
			half[0] &= top_mask;
			BIG_ERR_CODE err = bytestring2bignum(dst[i], half, nbytes);
			if (err != BIG_OK)
				return rsa_status_from_big(err, RSA_ERR_ARGS);
			/* Reject 0 and >= n: for a modulus with its top bit
			 * set at least half the draws pass. */
			if (!big_is_zero(dst[i]) && big_cmp_abs(dst[i], n) < 0)
				have |= 1 << i;
		}
	}
	return have == 3 ? RSA_OK : RSA_ERR_RANDOM;
}

int rsa_blind_pair(BIGNUM *r_e, BIGNUM *r_inv, const BIGNUM *e,
		   const BIGNUM *n, BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	if (!r_e || !r_inv || !e || !n || !n_rr)
		return RSA_ERR_ARGS;
	const int nbits = big_bitlength(n);
	if (nbits < 2 || (n->value[0] & 1) == 0)
		return RSA_ERR_ARGS;
	const size_t nbytes = ((size_t)nbits + 7) / 8;
	const int size = n->len + 1;

	uint8_t *buf = malloc(2 * nbytes);
	if (buf == NULL)
		return RSA_ERR_NO_MEM;
	BIGNUM r, b, t, tinv;
	BIGNUM *all[] = {&r, &b, &t, &tinv};
	int inited = 0, rc = RSA_ERR_NO_MEM;
	for (; inited < 4; inited++)
		if (big_init(all[inited], size) != BIG_OK)
			goto out;

	rc = RSA_ERR_RANDOM;
	for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		if ((rc = random_pair_below(&r, &b, n, buf, nbytes, nbits)) != RSA_OK)
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
		if ((rc = mul_mod(r_inv, &tinv, &b, n, n0, n_rr)) != RSA_OK)
			goto out;
		/* r^e: e is public, so the variable-time exponentiation is
		 * fine; r only enters it through constant-time products. */
		rc = rsa_status_from_big(big_modexp(r_e, &r, e, n, n_rr),
					 RSA_ERR_ARGS);
		goto out;
	}
out:
	for (int i = 0; i < inited; i++)
		big_finish(all[i]); /* wipes */
	big_wipe(buf, 2 * nbytes);
	free(buf);
	return rc;
}
