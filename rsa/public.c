/*
 * rsa_public_raw: RSAEP (RFC 8017 5.1.1), out = in^e mod n with the
 * variable-time big_modexp (e, n and the input are public) and the key's
 * precomputed R^2 mod n.  in < n, len == rsa_key_size(key); on any error out
 * is untouched; in and out may alias (the result goes through a scratch
 * buffer).  The key is only read: safe from many threads.
 */
#include <stdlib.h>
#include <string.h>

#include "rsa_internal.h"

int rsa_public_raw(const rsa_key *key, uint8_t *out, const uint8_t *in,
		   size_t len)
{
	if (key == NULL || out == NULL || in == NULL)
		return RSA_ERR_ARGS;
	if (len != key->size)
		return RSA_ERR_LENGTH;
	if (memcmp(in, key->n_bytes, len) >= 0)
		return RSA_ERR_RANGE;

	BIGNUM m, c;
	uint8_t *result = malloc(len);
	if (result == NULL)
		return RSA_ERR_NO_MEM;
	int rc = RSA_ERR_NO_MEM;
	if (big_init(&m, key->n.len) == BIG_OK) {
		if (big_init(&c, key->n.len) == BIG_OK) {
			BIG_ERR_CODE err = bytestring2bignum(&m, in, len);
			if (err == BIG_OK)
				err = big_modexp(&c, &m, &key->e, &key->n, &key->n_rr);
			if (err == BIG_OK)
				err = bignum2bytestring(result, &c, len);
			rc = rsa_status_from_big(err, RSA_ERR_ARGS);
			big_finish(&c);
		}
		big_finish(&m);
	}
	if (rc == RSA_OK)
		memcpy(out, result, len);
	free(result);
	return rc;
}
