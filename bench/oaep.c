/*
 * bench/oaep.c -- RSAES-OAEP SHA-256 by the system's OpenSSL (contract in
 * oaep.h).  Its own translation unit: OpenSSL's BIGNUM would clash with
 * ours.
 */
#define OPENSSL_SUPPRESS_DEPRECATED 1 /* RSA_padding_check_PKCS1_OAEP_mgf1:
				       * the decoding alone, on GMP's result */
#include "oaep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf, (void)size, (void)rwflag, (void)u;
	return -1;
}

int bench_oaep_encrypt(const char *pem, size_t len, const uint8_t *m, uint8_t *c,
		       size_t size, char *err, size_t errlen)
{
	BIO *bio = BIO_new_mem_buf(pem, (int)len);
	EVP_PKEY *pkey = bio ? PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL) : NULL;
	EVP_PKEY_CTX *ctx = pkey ? EVP_PKEY_CTX_new(pkey, NULL) : NULL;
	size_t clen = size;
	int ok = ctx != NULL && EVP_PKEY_encrypt_init(ctx) > 0 &&
		 EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) > 0 &&
		 EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) > 0 &&
		 EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) > 0 &&
		 EVP_PKEY_encrypt(ctx, c, &clen, m, BENCH_OAEP_MSG_LEN) > 0 && clen == size;
	if (!ok) {
		char buf[200] = "no detail";
		unsigned long e = ERR_get_error();
		if (e != 0)
			ERR_error_string_n(e, buf, sizeof(buf));
		snprintf(err, errlen, "OpenSSL: OAEP encryption failed: %s", buf);
		ERR_clear_error();
	}
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	BIO_free(bio);
	return ok ? 0 : -1;
}

int bench_oaep_decodes_to(const uint8_t *em, size_t size, const uint8_t *m)
{
	uint8_t got[BENCH_OAEP_MSG_LEN + 1];
	int n = RSA_padding_check_PKCS1_OAEP_mgf1(got, (int)sizeof(got), em, (int)size,
						  (int)size, NULL, 0, EVP_sha256(), EVP_sha256());
	ERR_clear_error();
	return n == BENCH_OAEP_MSG_LEN && memcmp(got, m, BENCH_OAEP_MSG_LEN) == 0 ? 0 : -1;
}
