/*
 * rsa_key_from_numbers: a key from its integers as big-endian byte strings
 * (contract in <bigmont/rsa.h>).  The integers are brought to the shape the
 * DER reader gives (rsa/rsa_internal.h, struct rsa_key_parts: minimal, no
 * leading zero bytes), held to the same size limits, then built, checked
 * and precomputed by rsa_key_from_parts like a decoded key.
 *
 * Not constant time (leading-zero stripping, length checks): it runs once
 * per key, like the DER reader.
 */
#include "rsa_internal.h"

static struct rsa_bytes minimal(const rsa_number *num)
{
	struct rsa_bytes b = { num->bytes, num->bytes ? num->len : 0 };
	while (b.len > 0 && b.p[0] == 0) {
		b.p++;
		b.len--;
	}
	return b;
}

static int bit_length(struct rsa_bytes b)
{
	int bits = b.len ? (int)(b.len - 1) * 8 : 0;
	for (uint8_t top = b.len ? b.p[0] : 0; top; top >>= 1)
		bits++;
	return bits;
}

int rsa_key_from_numbers(rsa_key **key, const rsa_key_numbers *numbers,
			 char *err, size_t errlen)
{
	if (key != NULL)
		*key = NULL;
	if (key == NULL || numbers == NULL) {
		rsa_set_error(err, errlen, "invalid arguments");
		return RSA_ERR_ARGS;
	}
	const rsa_number *in[] = { &numbers->n, &numbers->e, &numbers->d, &numbers->p,
				   &numbers->q, &numbers->dp, &numbers->dq, &numbers->qinv };
	/* Characters, not pointers: a pointer table would be writable
	 * (relocated) data in position-independent code. */
	static const char names[][5] = { "n", "e", "d", "p", "q", "dp", "dq", "qinv" };
	struct rsa_key_parts parts = { .format = RSA_FORMAT_PKCS1_PUBLIC };
	struct rsa_bytes *out[] = { &parts.n, &parts.e, &parts.d, &parts.p,
				    &parts.q, &parts.dp, &parts.dq, &parts.qinv };
	for (int i = 0; i < 8; i++) {
		/* A length with no bytes is misuse, not an absent number (a d
		 * so read would make a public key of what was meant private). */
		if (in[i]->bytes == NULL && in[i]->len != 0) {
			rsa_set_error(err, errlen, "%s has a length of %zu bytes and no bytes (NULL)",
				      names[i], in[i]->len);
			return RSA_ERR_ARGS;
		}
		*out[i] = minimal(in[i]);
	}

	int bits = bit_length(parts.n);
	if (bits < RSA_KEY_MIN_BITS || bits > RSA_KEY_MAX_BITS) {
		rsa_set_error(err, errlen, "the modulus has %d bits; only %d to %d bits are supported",
			      bits, RSA_KEY_MIN_BITS, RSA_KEY_MAX_BITS);
		return RSA_ERR_FORMAT;
	}
	if (parts.e.len == 0) {
		rsa_set_error(err, errlen, "the public exponent e is missing or zero");
		return RSA_ERR_FORMAT;
	}
	/* What was given, not what it is worth: a zero d or CRT numbers
	 * without d would otherwise make a public key of what the caller
	 * meant as a private one. */
	const int d_given = numbers->d.bytes != NULL && numbers->d.len > 0;
	if (d_given && parts.d.len == 0) {
		rsa_set_error(err, errlen, "the private exponent d is zero");
		return RSA_ERR_FORMAT;
	}
	for (int i = 3; i < 8 && !d_given; i++) {
		if (in[i]->bytes != NULL && in[i]->len > 0) {
			rsa_set_error(err, errlen, "%s given without the private exponent d", names[i]);
			return RSA_ERR_FORMAT;
		}
	}
	int is_private = parts.d.len > 0;
	int crt_given = 0;
	for (int i = 3; i < 8; i++) {
		const int given = in[i]->bytes != NULL && in[i]->len > 0;
		if (is_private && given && out[i]->len == 0) {
			rsa_set_error(err, errlen, "the private key's %s is zero", names[i]);
			return RSA_ERR_FORMAT;
		}
		crt_given += given;
	}
	for (int i = 1; i < 8; i++) {
		if (out[i]->len > parts.n.len) {
			rsa_set_error(err, errlen, "%s is longer than the modulus", names[i]);
			return RSA_ERR_FORMAT;
		}
		/* All five or none (then recovered from n, e and d): a partial
		 * set is more likely a caller's mistake than a key. */
		if (is_private && i > 2 && out[i]->len == 0 && crt_given > 0) {
			rsa_set_error(err, errlen,
				      "private key without %s: give all of the CRT numbers p, q, dp, "
				      "dq, qinv or none",
				      names[i]);
			return RSA_ERR_FORMAT;
		}
	}
	if (is_private) {
		parts.format = RSA_FORMAT_PKCS1_PRIVATE;
		parts.recover_crt = crt_given == 0;
	}
	return rsa_key_from_parts(key, &parts, 1, err, errlen);
}
