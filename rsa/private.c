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
 * result to e with big_modexp_ct_base (constant time in its base, steered
 * by the bits of e, which is public; big_modexp would trim and compare its
 * base, the secret result), then compares out^e -- public: it equals the
 * input unless a fault happened -- with the input by big_equal_ct.
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

#include "blinding.h"
#include "rsa_internal.h"

enum { V_IN, V_BASE, V_UNBLIND, V_CRT, V_OUT, V_COUNT };

/* RSA_OK if out^e mod n == in, else RSA_ERR_FAULT.  out^e goes into a
 * buffer on the stack (the key reader keeps n within RSA_MAX_BITS, so
 * within BIG_MAX_MODULUS_CHUNKS): the check allocates nothing. */
static int fault_check(const rsa_key *k, const BIGNUM *out, const BIGNUM *in)
{
	BIG_CHUNK_TYPE buf[BIG_MAX_MODULUS_CHUNKS];
	const int size = k->n.len;
	BIGNUM out_e;
	BIG_ERR_CODE err = big_init1(&out_e, size, buf,
				     size <= BIG_MAX_MODULUS_CHUNKS ? size : 0);
	if (err == BIG_OK)
		err = big_modexp_ct_base(&out_e, out, &k->e, &k->n, k->n0, &k->n_rr);
	int rc = rsa_status_from_big(err, RSA_ERR_ARGS);
	if (rc == RSA_OK && !big_equal_ct(&out_e, in))
		rc = RSA_ERR_FAULT;
	big_finish(&out_e); /* wipes buf */
	return rc;
}

static int private_op(const rsa_key *k, uint8_t *result, const uint8_t *in,
		      size_t len, BIGNUM *v)
{
	BIG_ERR_CODE err = bytestring2bignum(&v[V_IN], in, len);
	int rc = rsa_status_from_big(err, RSA_ERR_ARGS);
	const BIGNUM *base = &v[V_IN];
	if (rc == RSA_OK && k->blinding) {
		rc = rsa_blind(&v[V_BASE], &v[V_UNBLIND], &v[V_IN], &k->e, &k->n, k->n0,
			       &k->n_rr);
		base = &v[V_BASE];
	}
	if (rc == RSA_OK) {
		err = big_modexp_crt(&v[V_CRT], base, &k->dq, &k->dp, &k->q, &k->p,
				     &k->qinv, &k->q_rr, &k->p_rr);
		rc = rsa_status_from_big(err, RSA_ERR_ARGS);
	}
	const BIGNUM *out = &v[V_CRT];
	if (rc == RSA_OK && k->blinding) {
		rc = rsa_unblind(&v[V_OUT], &v[V_CRT], &v[V_UNBLIND], &k->n, k->n0, &k->n_rr);
		out = &v[V_OUT];
	}
	if (rc == RSA_OK && k->fault_check)
		rc = fault_check(k, out, &v[V_IN]);
	if (rc == RSA_OK)
		rc = rsa_status_from_big(bignum2bytestring(result, out, len), RSA_ERR_ARGS);
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
