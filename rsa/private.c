/*
 * rsa_private_raw: RSADP / RSASP1 (RFC 8017 5.1.2), out = in^d mod n,
 * through big_modexp_crt with the key's precomputed R^2 mod p and mod q.
 *
 * big_modexp_crt's Garner form takes pinvmodq = p^-1 mod q; the key holds
 * qInv = q^-1 mod p, so the key's (q, p, qInv) are passed as its
 * (p, q, pinvmodq): result = m_q + q * ((m_p - m_q) * qInv mod p).
 *
 * Constant time in the secret values: big_modexp_crt does the work on
 * fixed-length vectors and returns an untrimmed result; this file never
 * trims, compares or branches on a secret.  The range check compares the
 * caller's input (public) with n.  The fault check raises the secret
 * result to e on fixed-length chunk vectors with the constant-time
 * Montgomery kernels (square-and-multiply steered by the bits of e, which
 * is public), then compares out^e -- public: it equals the input unless a
 * fault happened -- with the input.  (big_modexp would do the same
 * arithmetic but trims and compares its base, the secret result.)
 *
 * Fault check (on by default): out^e mod n must give back in, else
 * RSA_ERR_FAULT and out is untouched -- a wrong CRT half would otherwise
 * hand out a value whose gcd with n factors the key (Boneh-DeMillo-Lipton).
 * Blinding (on by default, rsa_key_set_blinding): the exponentiation runs
 * on in * r^e for a fresh random r (rsa/blinding.c).
 *
 * Thread safety: the key is only read; every BIGNUM and the output buffer
 * belong to the call, and all are wiped before they are freed.
 */
#include <stdlib.h>
#include <string.h>

#include "../bignum/internal.h" /* big_wipe, the Montgomery kernels */
#include "blinding.h"
#include "rsa_internal.h"

enum { V_IN, V_BASE, V_UNBLIND, V_CRT, V_OUT, V_COUNT };

static int from_big(BIG_ERR_CODE err)
{
	return err == BIG_OK ? RSA_OK : err == BIG_NO_MEM ? RSA_ERR_NO_MEM : RSA_ERR_ARGS;
}

/* 1 if x^e mod n == in (both < n, x of any stored length, its chunks at
 * and past n's length zero since x < n).  Left-to-right square and
 * multiply in Montgomery form, except the product for e's last bit
 * (always 1: key_check.c requires e odd), which takes x itself, not
 * x*R mod n: that product, x^(e-1)*R * x / R, is x^e mod n already out
 * of Montgomery form, with no conversion after it. */
static int fault_check_passes(const rsa_key *k, const BIGNUM *x, const BIGNUM *in)
{
	chunk_t xp[BIG_MAX_MODULUS_CHUNKS], xm[BIG_MAX_MODULUS_CHUNKS];
	chunk_t acc[BIG_MAX_MODULUS_CHUNKS], rr[BIG_MAX_MODULUS_CHUNKS];
	const int len = k->n.len;
	const chunk_t *n = k->n.value;
	for (int j = 0; j < len; j++) {
		xp[j] = j < x->len ? x->value[j] : 0;
		rr[j] = j < k->n_rr.len ? k->n_rr.value[j] : 0;
	}
	big_mont_mul_vec(xm, xp, rr, n, k->n0, len); /* x*R mod n */
	memcpy(acc, xm, sizeof(chunk_t) * (size_t)len);
	for (int bit = big_bitlength(&k->e) - 2; bit >= 1; bit--) {
		big_mont_sqr_vec(acc, acc, n, k->n0, len);
		if ((k->e.value[bit / BIG_CHUNK_SIZE] >> (bit % BIG_CHUNK_SIZE)) & 1)
			big_mont_mul_vec(acc, acc, xm, n, k->n0, len);
	}
	big_mont_sqr_vec(acc, acc, n, k->n0, len);
	big_mont_mul_vec(acc, acc, xp, n, k->n0, len); /* bit 0: x^e mod n */
	chunk_t diff = 0;
	for (int j = 0; j < len; j++)
		diff |= acc[j] ^ (j < in->len ? in->value[j] : 0);
	for (int j = len; j < in->len; j++)
		diff |= in->value[j];
	big_wipe(xp, sizeof(chunk_t) * (size_t)len);
	big_wipe(xm, sizeof(chunk_t) * (size_t)len);
	big_wipe(acc, sizeof(chunk_t) * (size_t)len);
	return diff == 0;
}

static int private_op(const rsa_key *k, uint8_t *result, const uint8_t *in,
		      size_t len, BIGNUM *v)
{
	int rc = from_big(bytestring2bignum(&v[V_IN], in, len));
	const BIGNUM *base = &v[V_IN];
	if (rc == RSA_OK && k->blinding) {
		rc = rsa_blind(&v[V_BASE], &v[V_UNBLIND], &v[V_IN], &k->e, &k->n, k->n0,
			       &k->n_rr);
		base = &v[V_BASE];
	}
	if (rc == RSA_OK)
		rc = from_big(big_modexp_crt(&v[V_CRT], base, &k->dq, &k->dp, &k->q,
					     &k->p, &k->qinv, &k->q_rr, &k->p_rr));
	const BIGNUM *out = &v[V_CRT];
	if (rc == RSA_OK && k->blinding) {
		rc = rsa_unblind(&v[V_OUT], &v[V_CRT], &v[V_UNBLIND], &k->n, k->n0, &k->n_rr);
		out = &v[V_OUT];
	}
	if (rc == RSA_OK && k->fault_check && !fault_check_passes(k, out, &v[V_IN]))
		rc = RSA_ERR_FAULT;
	if (rc == RSA_OK)
		rc = from_big(bignum2bytestring(result, out, len));
	return rc;
}

int rsa_private_raw(const rsa_key *key, uint8_t *out, const uint8_t *in,
		    size_t len)
{
	if (key == NULL || out == NULL || in == NULL)
		return RSA_ERR_ARGS;
	if (!key->is_private)
		return RSA_ERR_NOT_PRIVATE;
	if (len != key->size)
		return RSA_ERR_LENGTH;
	if (memcmp(in, key->n_bytes, len) >= 0)
		return RSA_ERR_RANGE;

	BIGNUM v[V_COUNT];
	uint8_t *result = malloc(len);
	int rc = result ? RSA_OK : RSA_ERR_NO_MEM, made = 0;
	for (; rc == RSA_OK && made < V_COUNT; made++)
		if (big_init(&v[made], key->p.len + key->q.len + 1) != BIG_OK)
			rc = RSA_ERR_NO_MEM;
	if (rc != RSA_OK)
		made = made > 0 ? made - 1 : 0; /* the failed one is not initialised */
	if (rc == RSA_OK)
		rc = private_op(key, result, in, len, v);
	if (rc == RSA_OK)
		memcpy(out, result, len); /* only now: errors leave out untouched */
	while (made > 0)
		big_finish(&v[--made]);
	if (result != NULL) {
		big_wipe(result, len);
		free(result);
	}
	return rc;
}
