/*
 * RSA key generation for the key manager, delegated: libcrypto's default
 * provider generates the key (prime generation is not bigmont's work), and
 * the result is imported like any other key -- checked and precomputed by
 * rsa_key_from_numbers.  Without it, a configuration that prefers bigmont
 * (provider/bigmont.cnf) could not run `openssl genpkey` or `req -newkey`:
 * OpenSSL asks the preferred key manager to generate.
 *
 * Parameters: bits (default 2048), primes (2 only), e (default 65537).
 * The caller's progress callback sees the default provider's progress
 * (potential and iteration, as OpenSSL's own generation reports them), so
 * `openssl genpkey` prints its dots, and a callback returning 0 stops the
 * generation.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "prov.h"

struct gen_ctx {
	struct bm_prov *prov;
	int selection;
	size_t bits;
	BIGNUM *e; /* NULL: 65537 */
};

int bm_gen_set_params(void *vctx, const OSSL_PARAM params[])
{
	struct gen_ctx *ctx = vctx;
	const OSSL_PARAM *p;
	size_t primes;
	if (params == NULL)
		return 1;
	size_t bits = ctx->bits;
	if (!BM_PARAM_GET(ctx->prov, p, params, OSSL_PKEY_PARAM_RSA_BITS, OSSL_PARAM_get_size_t,
			  &bits, "bits must be an integer"))
		return 0;
	/* Refused here, where the default provider refuses too small a size,
	 * rather than after the generation. */
	if (bits < RSA_KEY_MIN_BITS || bits > RSA_KEY_MAX_BITS) {
		BM_ERR(ctx->prov, BM_R_INVALID_PARAM, "a %zu-bit key: bigmont keys have %d to %d bits",
		       bits, RSA_KEY_MIN_BITS, RSA_KEY_MAX_BITS);
		return 0;
	}
	ctx->bits = bits;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PRIMES)) != NULL &&
	    (!OSSL_PARAM_get_size_t(p, &primes) || primes != 2)) {
		BM_ERR(ctx->prov, BM_R_UNSUPPORTED, "bigmont keys have two primes");
		return 0;
	}
	return BM_PARAM_GET(ctx->prov, p, params, OSSL_PKEY_PARAM_RSA_E, OSSL_PARAM_get_BN,
			    &ctx->e, "e must be an integer");
}

void bm_gen_cleanup(void *vctx)
{
	struct gen_ctx *ctx = vctx;
	if (ctx == NULL)
		return;
	BN_free(ctx->e);
	OPENSSL_free(ctx);
}

void *bm_gen_init(void *provctx, int selection, const OSSL_PARAM params[])
{
	struct gen_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));
	if (ctx == NULL) {
		BM_ERR(provctx, BM_R_NO_MEMORY, "allocating a key generation context");
		return NULL;
	}
	ctx->prov = provctx;
	ctx->selection = selection;
	ctx->bits = 2048;
	if (!bm_gen_set_params(ctx, params)) {
		bm_gen_cleanup(ctx);
		return NULL;
	}
	return ctx;
}

const OSSL_PARAM *bm_gen_settable_params(void *vctx, void *provctx)
{
	static const OSSL_PARAM params[] = {
		OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_BITS, NULL),
		OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_PRIMES, NULL),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
		OSSL_PARAM_END
	};
	(void)vctx;
	(void)provctx;
	return params;
}

struct progress {
	OSSL_CALLBACK *cb;
	void *cbarg;
};

/* The generating context's progress, handed on in the provider form. */
static int forward_progress(EVP_PKEY_CTX *g)
{
	const struct progress *to = EVP_PKEY_CTX_get_app_data(g);
	int potential = EVP_PKEY_CTX_get_keygen_info(g, 0);
	int iteration = EVP_PKEY_CTX_get_keygen_info(g, 1);
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_int(OSSL_GEN_PARAM_POTENTIAL, &potential),
		OSSL_PARAM_construct_int(OSSL_GEN_PARAM_ITERATION, &iteration),
		OSSL_PARAM_END
	};
	return to->cb(params, to->cbarg);
}

void *bm_gen(void *vctx, OSSL_CALLBACK *cb, void *cbarg)
{
	struct gen_ctx *ctx = vctx;
	struct progress progress = { cb, cbarg };
	/* Any provider but this one (which would come back here). */
	EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(ctx->prov->libctx, "RSA", "provider!=bigmont");
	EVP_PKEY *pkey = NULL;
	OSSL_PARAM *numbers = NULL;
	struct bm_key *key = NULL;
	OSSL_PARAM params[3] = { OSSL_PARAM_END, OSSL_PARAM_END, OSSL_PARAM_END };
	params[0] = OSSL_PARAM_construct_size_t(OSSL_PKEY_PARAM_RSA_BITS, &ctx->bits);
	if (g != NULL && cb != NULL) {
		EVP_PKEY_CTX_set_app_data(g, &progress);
		EVP_PKEY_CTX_set_cb(g, forward_progress);
	}
	int ok = g != NULL && EVP_PKEY_keygen_init(g) > 0 && EVP_PKEY_CTX_set_params(g, params) &&
		 (ctx->e == NULL || EVP_PKEY_CTX_set1_rsa_keygen_pubexp(g, ctx->e) > 0) &&
		 EVP_PKEY_generate(g, &pkey) > 0 &&
		 EVP_PKEY_todata(pkey, EVP_PKEY_KEYPAIR, &numbers) > 0;
	if (!ok) {
		/* Its own reason (a bad public exponent, say) is queued before this. */
		char *e = ctx->e != NULL ? BN_bn2dec(ctx->e) : NULL;
		BM_ERR(ctx->prov, BM_R_INVALID_PARAM,
		       "the default provider did not generate a key of %zu bits and e = %s",
		       ctx->bits, e != NULL ? e : ctx->e != NULL ? "?" : "65537");
		OPENSSL_free(e);
	} else if ((key = bm_key_new(ctx->prov)) != NULL &&
		   !bm_key_import(key, ctx->selection, numbers)) {
		bm_key_free(key);
		key = NULL;
	}
	OSSL_PARAM_free(numbers);
	EVP_PKEY_free(pkey);
	EVP_PKEY_CTX_free(g);
	return key;
}
