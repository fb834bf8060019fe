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
#include <string.h>

#include "rsa_internal.h"

/* An r for which t = r*b mod n is not invertible shares a factor with n:
 * about 2^-500 for an RSA modulus.  Failing this often means randomness is
 * broken (e.g. all zero bytes), not bad luck. */
#define MAX_ATTEMPTS 32

int rsa_random_bytes(uint8_t *out, size_t len)
{
	return big_random_bytes(out, len) == BIG_OK ? 0 : -1;
}

/* out = a b mod n at n's full length, untrimmed: two Montgomery products
 * (by b, then by R^2), whose time depends on the lengths only.
 * big_mod_mul would trim its result, a loop that stops at the top nonzero
 * chunk, so its time would tell where a secret value's top chunks are
 * zero.  a, b < n; their lengths and n_rr's at most n's. */
static int mul_mod_full(BIGNUM *out, const BIGNUM *a, const BIGNUM *b, const BIGNUM *n,
			BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	const int len = n->len;
	if (len > BIG_MAX_MODULUS_CHUNKS || a->len > len || b->len > len || n_rr->len > len)
		return RSA_ERR_ARGS;
	if (big_extend(out, len) != BIG_OK)
		return RSA_ERR_NO_MEM;
	BIG_CHUNK_TYPE av[BIG_MAX_MODULUS_CHUNKS], bv[BIG_MAX_MODULUS_CHUNKS],
		rr[BIG_MAX_MODULUS_CHUNKS];
	rsa_load_padded(av, len, a);
	rsa_load_padded(bv, len, b);
	rsa_load_padded(rr, len, n_rr);
	big_mont_mul_vec(av, av, bv, n->value, n0, len);
	big_mont_mul_vec(out->value, av, rr, n->value, n0, len);
	out->len = len;
	out->sign = 1;
	big_wipe(av, sizeof(av[0]) * (size_t)len);
	big_wipe(bv, sizeof(bv[0]) * (size_t)len);
	return RSA_OK;
}

/* 1 if 0 < x < n, both of len chunks, else 0: one pass over every chunk
 * with no branch on them (x is a secret once accepted; a rejection tells
 * only that the draw was discarded). */
static int in_range(const BIG_CHUNK_TYPE *x, const BIG_CHUNK_TYPE *n, int len)
{
	BIG_CHUNK_TYPE any = 0, borrow = 0;
	for (int j = 0; j < len; j++) {
		const BIG_CHUNK_DOUBLE_TYPE d = (BIG_CHUNK_DOUBLE_TYPE)x[j] - n[j] - borrow;
		borrow = (BIG_CHUNK_TYPE)(d >> (2 * BIG_CHUNK_SIZE - 1)) & 1;
		any |= x[j];
	}
	/* borrow: x < n; any != 0 as a bit without a compare. */
	const BIG_CHUNK_TYPE nonzero = (any | ((BIG_CHUNK_TYPE)0 - any)) >> (BIG_CHUNK_SIZE - 1);
	return (int)(borrow & nonzero);
}

/* r and b uniform in [1, n): rejection sampling on n's bit length, n->len
 * chunks each (not trimmed: the length says nothing of the value), both
 * drawn from one getrandom() call per attempt (a value already accepted is
 * kept).  buf holds 2 * n->len chunks. */
static int random_pair_below(BIGNUM *r, BIGNUM *b, const BIGNUM *n, BIG_CHUNK_TYPE *buf,
			     int nbits)
{
	const int len = n->len;
	/* Bits of the top chunk that n uses: 1..BIG_CHUNK_SIZE. */
	const int top_bits = nbits - BIG_CHUNK_SIZE * (len - 1);
	const BIG_CHUNK_TYPE top_mask = BIG_CHUNK_ALLBITS >> (BIG_CHUNK_SIZE - top_bits);
	BIGNUM *dst[2] = {r, b};
	int have = 0; /* bit i: dst[i] accepted */
	for (int attempt = 0; attempt < MAX_ATTEMPTS && have != 3; attempt++) {
		if (rsa_random_bytes((uint8_t *)buf, 2 * (size_t)len * sizeof(*buf)) != 0)
			return RSA_ERR_RANDOM;
		for (int i = 0; i < 2; i++) {
			BIG_CHUNK_TYPE *x = buf + (size_t)i * (size_t)len;
			x[len - 1] &= top_mask;
			/* Reject 0 and >= n: for a modulus with its top bit
			 * set at least half the draws pass. */
			if ((have & (1 << i)) || !in_range(x, n->value, len))
				continue;
			memcpy(dst[i]->value, x, (size_t)len * sizeof(*x));
			dst[i]->len = len;
			dst[i]->sign = 1;
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
	const int size = n->len + 1;
	const size_t buf_bytes = 2 * (size_t)n->len * sizeof(BIG_CHUNK_TYPE);

	BIG_CHUNK_TYPE *buf = malloc(buf_bytes);
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
		if ((rc = random_pair_below(&r, &b, n, buf, nbits)) != RSA_OK)
			goto out;
		if ((rc = mul_mod_full(&t, &r, &b, n, n0, n_rr)) != RSA_OK)
			goto out;
		BIG_ERR_CODE err = big_mod_inverse(&tinv, &t, n);
		if (err == BIG_INVALID_ARGS) {
			rc = RSA_ERR_RANDOM; /* gcd(t, n) != 1: draw again */
			continue;
		}
		if ((rc = rsa_status_from_big(err, RSA_ERR_ARGS)) != RSA_OK)
			goto out;
		/* r^-1 = (r*b)^-1 * b, untrimmed: r^-1 is secret. */
		if ((rc = mul_mod_full(r_inv, &tinv, &b, n, n0, n_rr)) != RSA_OK)
			goto out;
		/* r^e: constant time in r, steered by the public e (the
		 * variable-time big_modexp trims r and compares it with n). */
		rc = rsa_status_from_big(big_modexp_ct_base(r_e, &r, e, n, n0, n_rr),
					 RSA_ERR_ARGS);
		goto out;
	}
out:
	for (int i = 0; i < inited; i++)
		big_finish(all[i]); /* wipes */
	big_wipe(buf, buf_bytes);
	free(buf);
	return rc;
}
