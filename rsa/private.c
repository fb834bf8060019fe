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
 * on in * r^e for a random r, unblinded by r^-1, a pair kept per thread and
 * per key (rsa/blinding.h).
 *
 * Thread safety: the key is only read; every BIGNUM and the output buffer
 * belong to the call (on its stack), the blinding pair to the calling
 * thread; all are wiped.
 */
#include <string.h>

#include "blinding.h"
#include "rsa_internal.h"

enum { V_IN, V_BASE, V_CRT, V_OUT, V_COUNT };

/* The call's values, on the stack (about 10 KiB): the key reader keeps n
 * within RSA_KEY_MAX_BITS, so every value fits in V_CHUNKS chunks (p->len +
 * q->len + 1 <= n->len + 2).  The exponentiation's scratch is the
 * caller's where rsa_private_raw_ws is given enough (rsa_private_batch),
 * else big_modexp_crt's one allocation; nothing else is allocated but a
 * fresh blinding pair, every RSA_BLIND_REFRESH calls. */
#define V_CHUNKS (BIG_MAX_MODULUS_CHUNKS + 2)
struct scratch {
	BIG_CHUNK_TYPE buf[V_COUNT][V_CHUNKS];
	uint8_t result[RSA_KEY_MAX_BITS / 8];
	BIGNUM v[V_COUNT];
};

/* RSA_OK if out^e = in mod n, else RSA_ERR_FAULT: modulo p and modulo q
 * apart (big_crt_check), or modulo n where that costs less
 * (big_crt_check_wanted: the ifma variant at RSA-1024), out^e
 * then into a buffer on the stack (the key reader keeps n within
 * RSA_KEY_MAX_BITS, so within BIG_MAX_MODULUS_CHUNKS).  Allocates
 * nothing. */
int rsa_fault_check(const rsa_key *k, const BIGNUM *out, const BIGNUM *in)
{
	if (big_crt_check_wanted(k->n.len)) {
		int equal = 0;
		const BIG_ERR_CODE err = big_crt_check(&equal, out, in, &k->e, &k->n, &k->p,
						       &k->q, &k->p_rr, &k->q_rr);
		const int rc = rsa_status_from_big(err, RSA_ERR_ARGS);
		return rc != RSA_OK ? rc : equal ? RSA_OK : RSA_ERR_FAULT;
	}
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
		      size_t len, BIGNUM *v, BIG_CHUNK_TYPE *ws, size_t ws_chunks)
{
	BIG_ERR_CODE err = bytestring2bignum(&v[V_IN], in, len);
	int rc = rsa_status_from_big(err, RSA_ERR_ARGS);
	const BIGNUM *base = &v[V_IN];
	const BIG_CHUNK_TYPE *blind = NULL, *unblind = NULL;
	if (rc == RSA_OK && k->blinding) {
		rc = rsa_blinding_next(k, &blind, &unblind);
		if (rc == RSA_OK)
			rc = rsa_blinding_mul(&v[V_BASE], &v[V_IN], blind, k);
		base = &v[V_BASE];
	}
	if (rc == RSA_OK) {
		err = big_modexp_crt_ws(&v[V_CRT], base, &k->dq, &k->dp, &k->q, &k->p,
					&k->qinv, &k->q_rr, &k->p_rr, ws, ws_chunks);
		rc = rsa_status_from_big(err, RSA_ERR_ARGS);
	}
	const BIGNUM *out = &v[V_CRT];
	if (rc == RSA_OK && k->blinding) {
		rc = rsa_blinding_mul(&v[V_OUT], &v[V_CRT], unblind, k);
		out = &v[V_OUT];
	}
	if (rc == RSA_OK && k->fault_check)
		rc = rsa_fault_check(k, out, &v[V_IN]);
	if (rc == RSA_OK)
		rc = rsa_status_from_big(bignum2bytestring(result, out, len), RSA_ERR_ARGS);
	return rc;
}

int rsa_private_raw(const rsa_key *key, uint8_t *out, const uint8_t *in,
		    size_t len)
{
	return rsa_private_raw_ws(key, out, in, len, NULL, 0);
}

int rsa_private_raw_ws(const rsa_key *key, uint8_t *out, const uint8_t *in, size_t len,
		       BIG_CHUNK_TYPE *ws, size_t ws_chunks)
{
	if (key == NULL || out == NULL || in == NULL)
		return RSA_ERR_ARGS;
	if (!key->is_private)
		return RSA_ERR_NOT_PRIVATE;
	if (len != key->size)
		return RSA_ERR_LENGTH;
	if (memcmp(in, key->n_bytes, len) >= 0)
		return RSA_ERR_RANGE;

	struct scratch s;
	const int size = key->p.len + key->q.len + 1;
	int rc = len <= sizeof(s.result) ? RSA_OK : RSA_ERR_ARGS, made = 0;
	for (; rc == RSA_OK && made < V_COUNT; made++)
		if (big_init1(&s.v[made], size, s.buf[made],
			      size <= V_CHUNKS ? size : 0) != BIG_OK)
			rc = RSA_ERR_NO_MEM;
	if (rc != RSA_OK)
		made = made > 0 ? made - 1 : 0; /* the failed one is not initialised */
	if (rc == RSA_OK)
		rc = private_op(key, s.result, in, len, s.v, ws, ws_chunks);
	if (key->blinding)
		rsa_blinding_done();
	if (rc == RSA_OK)
		memcpy(out, s.result, len); /* only now: errors leave out untouched */
	while (made > 0)
		big_finish(&s.v[--made]); /* wipes */
	big_wipe(s.result, len <= sizeof(s.result) ? len : 0);
	return rc;
}
