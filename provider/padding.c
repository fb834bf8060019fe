/*
 * libcrypto's own RSA padding routines, wrapped (contracts in prov.h).
 *
 * The encodings and their checks (PKCS #1 v1.5 types 1 and 2, OAEP, PSS)
 * are libcrypto's, constant time where libcrypto made them so; the
 * provider does not write them again.  OpenSSL 3.0 marks these routines
 * deprecated (they take the legacy RSA type) but ships and maintains them;
 * this file is the only one that uses that API, so the deprecation
 * warnings are silenced here and nowhere else.
 *
 * The routines draw their random bytes (PKCS #1 v1.5 type 2 padding, OAEP
 * seeds, PSS salts) from the default library context's generator: the
 * public API takes no library context.
 */
#define OPENSSL_SUPPRESS_DEPRECATED

#include "prov.h"

RSA *bm_pad_rsa_new(const BIGNUM *n, const BIGNUM *e)
{
	RSA *rsa = RSA_new();
	BIGNUM *n2 = BN_dup(n), *e2 = BN_dup(e);
	if (rsa == NULL || n2 == NULL || e2 == NULL || !RSA_set0_key(rsa, n2, e2, NULL)) {
		BN_free(n2);
		BN_free(e2);
		RSA_free(rsa);
		return NULL;
	}
	return rsa;
}

void bm_pad_rsa_free(RSA *rsa) { RSA_free(rsa); }

int bm_pad_security_bits(const RSA *rsa) { return RSA_security_bits(rsa); }

int bm_pad_none(uint8_t *em, int k, const uint8_t *in, int inlen)
{
	return RSA_padding_add_none(em, k, in, inlen);
}

int bm_pad_pkcs1_type1(uint8_t *em, int k, const uint8_t *in, int inlen)
{
	return RSA_padding_add_PKCS1_type_1(em, k, in, inlen);
}

int bm_unpad_pkcs1_type1(uint8_t *out, int outsize, const uint8_t *em, int k)
{
	return RSA_padding_check_PKCS1_type_1(out, outsize, em, k, k);
}

int bm_pad_pkcs1_type2(uint8_t *em, int k, const uint8_t *in, int inlen)
{
	return RSA_padding_add_PKCS1_type_2(em, k, in, inlen);
}

int bm_unpad_pkcs1_type2(uint8_t *out, int outsize, const uint8_t *em, int k)
{
	return RSA_padding_check_PKCS1_type_2(out, outsize, em, k, k);
}

int bm_pad_oaep(uint8_t *em, int k, const uint8_t *in, int inlen,
		const uint8_t *label, int labellen, const EVP_MD *md,
		const EVP_MD *mgf1)
{
	return RSA_padding_add_PKCS1_OAEP_mgf1(em, k, in, inlen, label, labellen, md, mgf1);
}

int bm_unpad_oaep(uint8_t *out, int outsize, const uint8_t *em, int k,
		  const uint8_t *label, int labellen, const EVP_MD *md,
		  const EVP_MD *mgf1)
{
	return RSA_padding_check_PKCS1_OAEP_mgf1(out, outsize, em, k, k, label, labellen,
						 md, mgf1);
}

int bm_pad_pss(const struct bm_key *key, uint8_t *em, const uint8_t *mhash,
	       const EVP_MD *md, const EVP_MD *mgf1, int saltlen)
{
	return RSA_padding_add_PKCS1_PSS_mgf1(key->pad_rsa, em, mhash, md, mgf1, saltlen);
}

int bm_verify_pss(const struct bm_key *key, const uint8_t *mhash,
		  const EVP_MD *md, const EVP_MD *mgf1, const uint8_t *em,
		  int saltlen)
{
	return RSA_verify_PKCS1_PSS_mgf1(key->pad_rsa, mhash, md, mgf1, em, saltlen);
}
