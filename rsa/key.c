/*
 * Loading, accessors, options and freeing of an rsa_key (rsa/rsa_internal.h).
 *
 * Load = decode (PEM or DER) -> parse the structure -> copy the integers
 * into BIGNUMs -> check them -> precompute what every operation needs once:
 * n's Montgomery constants (the range check and the public operation), and
 * R^2 mod p, R^2 mod q for big_modexp_crt; a private key also draws its
 * blind_id.  Nothing in the key changes after that except the two option
 * flags, which are set before the key is shared.  Every BIGNUM is released
 * with big_finish, which wipes it.
 */
#include <stdlib.h>
#include <string.h>

#include "blinding.h"
#include "rsa_internal.h"

void rsa_key_free(rsa_key *key)
{
	if (key == NULL)
		return;
	BIGNUM *all[] = { &key->n, &key->e, &key->n_rr, &key->d, &key->p,
			  &key->q, &key->dp, &key->dq, &key->qinv, &key->p_rr,
			  &key->q_rr };
	rsa_blinding_forget(key);
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i]->value != NULL)
			big_finish(all[i]);
	free(key->n_bytes);
	big_wipe(key, sizeof(*key));
	free(key);
}

static int load_int(BIGNUM *bn, const struct rsa_bytes *b)
{
	BIG_ERR_CODE err = big_init(bn, (int)CHARLEN2BIGNUMLEN(b->len ? b->len : 1));
	if (err == BIG_OK)
		err = bytestring2bignum(bn, b->p, b->len);
	return rsa_status_from_big(err, RSA_ERR_FORMAT);
}

static int precompute(rsa_key *key)
{
	BIG_ERR_CODE err = big_init(&key->n_rr, key->n.len);
	if (err == BIG_OK)
		err = big_mont_rr(&key->n_rr, &key->n);
	key->n0 = big_n0(key->n.value[0]);
	key->n_bytes = malloc(key->size);
	if (err == BIG_OK && key->n_bytes == NULL)
		err = BIG_NO_MEM;
	if (err == BIG_OK)
		err = bignum2bytestring(key->n_bytes, &key->n, key->size);
	if (err == BIG_OK && key->is_private) {
		/* The stored lengths of p and q are the radices big_modexp_crt
		 * uses; bytestring2bignum left them normalised. */
		err = big_init(&key->p_rr, key->p.len);
		if (err == BIG_OK)
			err = big_mont_rr(&key->p_rr, &key->p);
		if (err == BIG_OK)
			err = big_init(&key->q_rr, key->q.len);
		if (err == BIG_OK)
			err = big_mont_rr(&key->q_rr, &key->q);
	}
	return rsa_status_from_big(err, RSA_ERR_KEY_CHECK);
}

int rsa_key_from_parts(rsa_key **out, const struct rsa_key_parts *parts,
		       int check, char *err, size_t errlen)
{
	*out = NULL;
	rsa_key *key = calloc(1, sizeof(*key));
	if (key == NULL) {
		rsa_set_error(err, errlen, "out of memory");
		return RSA_ERR_NO_MEM;
	}
	key->format = parts->format;
	key->is_private = parts->format == RSA_FORMAT_PKCS1_PRIVATE ||
			  parts->format == RSA_FORMAT_PKCS8_PRIVATE;
	key->fault_check = 1;
	key->blinding = 1; /* on by default: rsa/blinding.c */
	int rc = load_int(&key->n, &parts->n);
	if (rc == RSA_OK)
		rc = load_int(&key->e, &parts->e);
	if (rc == RSA_OK && key->is_private &&
	    big_random_bytes((uint8_t *)&key->blind_id, sizeof(key->blind_id)) != BIG_OK)
		rc = RSA_ERR_RANDOM;
	key->blind_id |= 1; /* 0 marks an empty blinding slot */
	if (rc == RSA_OK && key->is_private) {
		const struct rsa_bytes *src[] = { &parts->d, &parts->p, &parts->q,
						  &parts->dp, &parts->dq, &parts->qinv };
		BIGNUM *dst[] = { &key->d, &key->p, &key->q, &key->dp, &key->dq,
				  &key->qinv };
		for (size_t i = 0; rc == RSA_OK && i < 6; i++)
			rc = load_int(dst[i], src[i]);
	}
	if (rc != RSA_OK) {
		rsa_set_error(err, errlen, "%s", rsa_strerror(rc));
		rsa_key_free(key);
		return rc;
	}
	if (key->is_private && parts->recover_crt) {
		rc = rsa_key_recover_crt(key, err, errlen);
		if (rc != RSA_OK) {
			rsa_key_free(key);
			return rc;
		}
	}
	key->bits = big_bitlength(&key->n);
	key->size = (size_t)(key->bits + 7) / 8;
	if (check)
		rc = rsa_key_check(key, err, errlen);
	if (rc == RSA_OK) {
		rc = precompute(key);
		if (rc != RSA_OK)
			rsa_set_error(err, errlen, "key precomputation failed: %s",
				      rsa_strerror(rc));
	}
	if (rc != RSA_OK) {
		rsa_key_free(key);
		return rc;
	}
	*out = key;
	return RSA_OK;
}

static int load_der(rsa_key **key, const uint8_t *der, size_t len, int check,
		    char *err, size_t errlen)
{
	struct rsa_key_parts parts;
	int rc = rsa_parse_der_any(&parts, der, len, err, errlen);
	if (rc == RSA_OK)
		rc = rsa_key_from_parts(key, &parts, check, err, errlen);
	return rc;
}

static int load_pem(rsa_key **key, const char *pem, size_t len, int check,
		    char *err, size_t errlen)
{
	uint8_t *der;
	size_t derlen;
	rsa_key_format_t format;
	struct rsa_key_parts parts;
	int rc = rsa_pem_decode(&der, &derlen, &format, pem, len, err, errlen);
	if (rc != RSA_OK)
		return rc;
	rc = rsa_parse_der(&parts, format, der, derlen, err, errlen);
	/* The label is held to what it names, never reinterpreted; when the
	 * body is a well-formed key of another format, the error says which,
	 * rather than the label's format's first DER complaint. */
	if (rc != RSA_OK) {
		char shape_err[8];
		struct rsa_key_parts by_shape;
		if (rsa_parse_der_any(&by_shape, der, derlen, shape_err, sizeof(shape_err)) ==
			    RSA_OK &&
		    by_shape.format != format)
			rsa_set_error(err, errlen, "PEM: a block labelled as a %s holds a %s",
				      rsa_key_format_name(format),
				      rsa_key_format_name(by_shape.format));
	}
	if (rc == RSA_OK)
		rc = rsa_key_from_parts(key, &parts, check, err, errlen);
	big_wipe(der, derlen);
	free(der);
	return rc;
}

/* The entry points' shared checks; check == 0 for the test hook only. */
static int load(rsa_key **key, const uint8_t *data, size_t len, int pem,
		int check, char *err, size_t errlen)
{
	if (key != NULL)
		*key = NULL;
	if (key == NULL || (data == NULL && len > 0)) {
		rsa_set_error(err, errlen, "invalid arguments");
		return RSA_ERR_ARGS;
	}
	if (pem)
		return load_pem(key, (const char *)data, len, check, err, errlen);
	return load_der(key, data, len, check, err, errlen);
}

int rsa_key_load_der(rsa_key **key, const uint8_t *der, size_t len, char *err,
		     size_t errlen)
{
	return load(key, der, len, 0, 1, err, errlen);
}

int rsa_key_load_pem(rsa_key **key, const char *pem, size_t len, char *err,
		     size_t errlen)
{
	return load(key, (const uint8_t *)pem, len, 1, 1, err, errlen);
}

int rsa_key_load_unchecked_for_test(rsa_key **key, const uint8_t *data,
				    size_t len, char *err, size_t errlen)
{
	const int der = len > 0 && data != NULL && data[0] == 0x30;
	return load(key, data, len, !der, 0, err, errlen);
}

size_t rsa_key_size(const rsa_key *key) { return key ? key->size : 0; }
int rsa_key_bits(const rsa_key *key) { return key ? key->bits : 0; }
int rsa_key_is_private(const rsa_key *key) { return key ? key->is_private : 0; }
rsa_key_format_t rsa_key_format(const rsa_key *key)
{
	return key ? key->format : (rsa_key_format_t)0;
}

const char *rsa_key_format_name(rsa_key_format_t format)
{
	switch (format) {
	case RSA_FORMAT_PKCS1_PRIVATE: return "PKCS#1 RSA PRIVATE KEY";
	case RSA_FORMAT_PKCS8_PRIVATE: return "PKCS#8 PRIVATE KEY";
	case RSA_FORMAT_PKCS1_PUBLIC: return "PKCS#1 RSA PUBLIC KEY";
	case RSA_FORMAT_SPKI_PUBLIC: return "SubjectPublicKeyInfo PUBLIC KEY";
	default: return "unknown format";
	}
}

size_t rsa_key_public_exponent(const rsa_key *key, uint8_t *out, size_t outlen)
{
	if (key == NULL || out == NULL)
		return 0;
	size_t need = (size_t)(big_bitlength(&key->e) + 7) / 8;
	if (need > outlen || bignum2bytestring(out, &key->e, need) != BIG_OK)
		return 0;
	return need;
}

/* A key's on/off switch (the fault check, blinding): *flag = on != 0;
 * flag NULL (no key) is RSA_ERR_ARGS. */
static int set_switch(int *flag, int on)
{
	if (flag == NULL)
		return RSA_ERR_ARGS;
	*flag = on != 0;
	return RSA_OK;
}

int rsa_key_set_fault_check(rsa_key *key, int on)
{
	return set_switch(key ? &key->fault_check : NULL, on);
}

int rsa_key_fault_check(const rsa_key *key) { return key ? key->fault_check : 0; }

int rsa_key_set_blinding(rsa_key *key, int on)
{
	return set_switch(key ? &key->blinding : NULL, on);
}

int rsa_key_blinding(const rsa_key *key) { return key ? key->blinding : 0; }
