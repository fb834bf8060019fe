/*
 * bench/impl_openssl.c -- OpenSSL's RSA private operation, behind plain
 * bytes (impl.h).  Its own translation unit: OpenSSL's BIGNUM type would
 * clash with ours.
 *
 * The default mode is the public, supported path (EVP_PKEY_decrypt with
 * RSA_NO_PADDING), blinded as OpenSSL always is by default.  OpenSSL 3 has
 * no provider parameter to turn blinding off, so the unblinded mode uses
 * the deprecated RSA API on the key's legacy RSA object with
 * RSA_blinding_off; both end in the same rsa_ossl_private_decrypt and
 * mod-exp code (including the AVX-512 IFMA path for 2048-bit keys).
 */
#define OPENSSL_SUPPRESS_DEPRECATED 1 /* RSA_blinding_off, by choice */
#include "impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

struct bench_ossl {
	EVP_PKEY *pkey;
	EVP_PKEY_CTX *ctx; /* EVP mode: reused by bench_ossl_decrypt */
	RSA *rsa;          /* NOBLIND mode */
	size_t size;
};

static void ossl_reason(char *err, size_t errlen, const char *what)
{
	char buf[256];
	unsigned long e = ERR_get_error();
	if (e != 0)
		ERR_error_string_n(e, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "no detail");
	if (errlen > 0)
		snprintf(err, errlen, "OpenSSL: %s: %s", what, buf);
	ERR_clear_error();
}

/* Never a prompt: an encrypted key is an error, not a question. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf, (void)size, (void)rwflag, (void)u;
	return -1;
}

static EVP_PKEY *load_pkey(const char *pem, size_t len, char *err,
			   size_t errlen)
{
	BIO *bio = BIO_new_mem_buf(pem, (int)len);
	if (bio == NULL) {
		ossl_reason(err, errlen, "BIO_new_mem_buf");
		return NULL;
	}
	EVP_PKEY *pkey = PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL);
	BIO_free(bio);
	if (pkey == NULL) {
		ossl_reason(err, errlen, "cannot read the private key");
		return NULL;
	}
	if (EVP_PKEY_get_base_id(pkey) != EVP_PKEY_RSA) {
		EVP_PKEY_free(pkey);
		if (errlen > 0)
			snprintf(err, errlen, "OpenSSL: not an RSA key");
		return NULL;
	}
	return pkey;
}

int bench_ossl_parts(struct bench_rsa_parts *parts, const char *pem,
		     size_t len, char *err, size_t errlen)
{
	static const char *const names[RSA_PART_COUNT] = {
		[RSA_PART_N] = OSSL_PKEY_PARAM_RSA_N,
		[RSA_PART_E] = OSSL_PKEY_PARAM_RSA_E,
		[RSA_PART_D] = OSSL_PKEY_PARAM_RSA_D,
		[RSA_PART_P] = OSSL_PKEY_PARAM_RSA_FACTOR1,
		[RSA_PART_Q] = OSSL_PKEY_PARAM_RSA_FACTOR2,
		[RSA_PART_DP] = OSSL_PKEY_PARAM_RSA_EXPONENT1,
		[RSA_PART_DQ] = OSSL_PKEY_PARAM_RSA_EXPONENT2,
		[RSA_PART_QINV] = OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
	};
	memset(parts, 0, sizeof(*parts));
	EVP_PKEY *pkey = load_pkey(pem, len, err, errlen);
	if (pkey == NULL)
		return -1;
	int rc = 0;
	for (int i = 0; i < RSA_PART_COUNT && rc == 0; i++) {
		BIGNUM *bn = NULL;
		if (!EVP_PKEY_get_bn_param(pkey, names[i], &bn)) {
			ossl_reason(err, errlen, "the key lacks a CRT component");
			rc = -1;
			break;
		}
		int n = BN_num_bytes(bn);
		parts->len[i] = n > 0 ? (size_t)n : 1;
		parts->v[i] = calloc(1, parts->len[i]);
		if (parts->v[i] == NULL) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		} else {
			BN_bn2bin(bn, parts->v[i]);
		}
		BN_clear_free(bn);
	}
	EVP_PKEY_free(pkey);
	if (rc != 0)
		bench_rsa_parts_free(parts);
	return rc;
}

static int evp_ctx_ready(EVP_PKEY_CTX *ctx)
{
	return EVP_PKEY_decrypt_init(ctx) == 1 &&
	       EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) == 1;
}

static void ossl_close(void *h)
{
	struct bench_ossl *k = h;
	if (k == NULL)
		return;
	EVP_PKEY_CTX_free(k->ctx);
	RSA_free(k->rsa);
	EVP_PKEY_free(k->pkey);
	free(k);
}

static void *ossl_open(const struct bench_key_input *key, int mode, char *err,
		       size_t errlen)
{
	struct bench_ossl *k = calloc(1, sizeof(*k));
	if (k == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	k->pkey = load_pkey(key->pem, key->len, err, errlen);
	if (k->pkey == NULL)
		goto fail;
	k->size = (size_t)EVP_PKEY_get_size(k->pkey);
	if (mode == BENCH_OSSL_EVP) {
		k->ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
		if (k->ctx == NULL || !evp_ctx_ready(k->ctx)) {
			ossl_reason(err, errlen, "EVP_PKEY_decrypt_init");
			goto fail;
		}
	} else {
		k->rsa = EVP_PKEY_get1_RSA(k->pkey);
		if (k->rsa == NULL) {
			ossl_reason(err, errlen, "EVP_PKEY_get1_RSA");
			goto fail;
		}
		RSA_blinding_off(k->rsa);
	}
	return k;
fail:
	ossl_close(k);
	return NULL;
}

size_t bench_ossl_size(const void *h)
{
	const struct bench_ossl *k = h;
	return k->size;
}

static int ossl_decrypt(void *h, uint8_t *out, const uint8_t *in)
{
	struct bench_ossl *k = h;
	if (k->rsa != NULL) {
		int n = RSA_private_decrypt((int)k->size, in, out, k->rsa,
					    RSA_NO_PADDING);
		return n == (int)k->size ? 0 : -1;
	}
	size_t outlen = k->size;
	if (EVP_PKEY_decrypt(k->ctx, out, &outlen, in, k->size) != 1 ||
	    outlen != k->size)
		return -1;
	return 0;
}

/* The way applications share a key between threads: one EVP_PKEY, a
 * fresh EVP_PKEY_CTX per operation. */
static int ossl_decrypt_shared(const void *h, uint8_t *out, const uint8_t *in)
{
	const struct bench_ossl *k = h;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
	if (ctx == NULL)
		return -1;
	size_t outlen = k->size;
	int ok = evp_ctx_ready(ctx) &&
		 EVP_PKEY_decrypt(ctx, out, &outlen, in, k->size) == 1 &&
		 outlen == k->size;
	EVP_PKEY_CTX_free(ctx);
	return ok ? 0 : -1;
}

static int ossl_blinding(const void *h)
{
	const struct bench_ossl *k = h;
	return k->rsa == NULL;
}

/* OpenSSL checks a CRT result with the public exponent (rsa_ossl_mod_exp)
 * in both modes. */
static int ossl_fault_check(const void *h)
{
	(void)h;
	return 1;
}

const struct bench_impl_ops bench_ossl_ops = {
	.open = ossl_open, .decrypt = ossl_decrypt, .decrypt_shared = ossl_decrypt_shared,
	.blinding = ossl_blinding, .fault_check = ossl_fault_check, .close = ossl_close,
};

const char *bench_ossl_version(void)
{
	return OpenSSL_version(OPENSSL_VERSION);
}
