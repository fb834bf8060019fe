/*
 * RSA encryption (OSSL_OP_ASYM_CIPHER): no padding, PKCS #1 v1.5, OAEP
 * (digest, MGF1 digest, label) and the TLS premaster decryption.
 *
 * The arithmetic is bigmont's (rsa_public_raw; rsa_private_raw with its
 * blinding and fault check), the encodings and their checks libcrypto's
 * (provider/padding.c).  The behaviour follows the default provider's: the
 * same defaults (PKCS #1 v1.5; OAEP with SHA-1, MGF1 with the OAEP
 * digest), the same buffer-size rules, and a padding failure leaves the
 * error libcrypto's check raised and nothing else -- the verdict reaches
 * the caller through masks, not through a branch of ours.
 */
#include <limits.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "prov.h"

#define PREMASTER_LEN 48

struct cipher_ctx {
	struct bm_opctx op; /* op.md: the OAEP digest, NULL: SHA-1 */
	uint8_t *label;
	size_t label_len;
	unsigned int client_version, alt_version; /* TLS padding only */
};

static void *cipher_newctx(void *provctx)
{
	struct cipher_ctx *ctx = bm_opctx_new(provctx, sizeof(*ctx), "cipher");
	if (ctx != NULL)
		ctx->op.pad_mode = RSA_PKCS1_PADDING;
	return ctx;
}

static void cipher_freectx(void *vctx)
{
	struct cipher_ctx *ctx = vctx;
	if (ctx != NULL)
		OPENSSL_clear_free(ctx->label, ctx->label_len);
	bm_opctx_free(ctx);
}

/* The label is the context's own: a duplicate copies it. */
static int cipher_copy_own(void *vctx)
{
	struct cipher_ctx *ctx = vctx;
	if (ctx->label == NULL)
		return 1;
	ctx->label = OPENSSL_memdup(ctx->label, ctx->label_len);
	return ctx->label != NULL;
}

static void *cipher_dupctx(void *vctx)
{
	return bm_opctx_dup(vctx, sizeof(struct cipher_ctx), cipher_copy_own, cipher_freectx);
}

static int cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int cipher_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
	struct cipher_ctx *ctx = vctx;
	if (!bm_key_attach(ctx->op.prov, &ctx->op.key, provkey))
		return 0;
	ctx->op.pad_mode = RSA_PKCS1_PADDING;
	return cipher_set_ctx_params(ctx, params);
}

static int cipher_encrypt(void *vctx, unsigned char *out, size_t *outlen,
			  size_t outsize, const unsigned char *in, size_t inlen)
{
	struct cipher_ctx *ctx = vctx;
	const struct bm_key *key = ctx->op.key;
	if (!bm_key_ready(ctx->op.prov, key, "encrypt"))
		return 0;
	const int k = (int)key->size;
	if (out == NULL) {
		*outlen = key->size;
		return 1;
	}
	if (!bm_out_fits(ctx->op.prov, outsize, key->size, "output"))
		return 0;
	/* Whether inlen fits the padding is the padding routine's to say. */
	if (inlen > INT_MAX) {
		BM_ERR(ctx->op.prov, BM_R_BAD_LENGTH, "%zu bytes cannot be encrypted", inlen);
		return 0;
	}
	uint8_t *em = bm_key_block(key);
	if (em == NULL)
		return 0;
	int ok;
	switch (ctx->op.pad_mode) {
	case RSA_NO_PADDING:
		ok = bm_pad_none(em, k, in, (int)inlen) > 0;
		break;
	case RSA_PKCS1_PADDING:
		ok = bm_pad_pkcs1_type2(em, k, in, (int)inlen) > 0;
		break;
	case RSA_PKCS1_OAEP_PADDING:
		ok = bm_pad_oaep(em, k, in, (int)inlen, ctx->label, (int)ctx->label_len,
				 ctx->op.md, ctx->op.mgf1_md) > 0;
		break;
	default:
		BM_ERR(ctx->op.prov, BM_R_UNSUPPORTED, "padding mode %d cannot encrypt",
		       ctx->op.pad_mode);
		ok = 0;
	}
	ok = ok && bm_key_public(key, out, em, key->size);
	OPENSSL_clear_free(em, key->size);
	if (ok)
		*outlen = key->size;
	return ok;
}

static int cipher_decrypt(void *vctx, unsigned char *out, size_t *outlen,
			  size_t outsize, const unsigned char *in, size_t inlen)
{
	struct cipher_ctx *ctx = vctx;
	const struct bm_key *key = ctx->op.key;
	if (!bm_key_ready(ctx->op.prov, key, "decrypt"))
		return 0;
	const int k = (int)key->size;
	const int tls = ctx->op.pad_mode == RSA_PKCS1_WITH_TLS_PADDING;
	const size_t need = tls ? PREMASTER_LEN : key->size;
	if (out == NULL) {
		*outlen = need;
		return 1;
	}
	if (!bm_out_fits(ctx->op.prov, outsize, need, "output"))
		return 0;
	if (tls && ctx->client_version == 0) {
		BM_ERR(ctx->op.prov, BM_R_INVALID_PARAM,
		       "TLS padding needs the client's version (tls-client-version)");
		return 0;
	}
	if (ctx->op.pad_mode != RSA_NO_PADDING && ctx->op.pad_mode != RSA_PKCS1_PADDING &&
	    ctx->op.pad_mode != RSA_PKCS1_OAEP_PADDING && !tls) {
		BM_ERR(ctx->op.prov, BM_R_UNSUPPORTED, "padding mode %d cannot decrypt",
		       ctx->op.pad_mode);
		return 0;
	}
	if (inlen > key->size) {
		BM_ERR(ctx->op.prov, BM_R_BAD_LENGTH, "a %zu-byte ciphertext for a %d-byte key",
		       inlen, k);
		return 0;
	}
	/* A shorter ciphertext is the same number with leading zeros. */
	uint8_t *em = bm_key_block(key);
	if (em == NULL)
		return 0;
	memcpy(em + key->size - inlen, in, inlen);
	int ok = bm_key_private(key, em, em);
	int r = -1;
	/* The unpadders take an int: a larger buffer holds any message. */
	const int room = outsize < key->size ? (int)outsize : k;
	if (ok) {
		switch (ctx->op.pad_mode) {
		case RSA_NO_PADDING:
			memcpy(out, em, key->size);
			r = k;
			break;
		case RSA_PKCS1_PADDING:
			r = bm_unpad_pkcs1_type2(out, room, em, k);
			break;
		case RSA_PKCS1_OAEP_PADDING:
			r = bm_unpad_oaep(out, room, em, k, ctx->label,
					  (int)ctx->label_len, ctx->op.md, ctx->op.mgf1_md);
			break;
		default: /* TLS: always "succeeds", see tls_premaster.c */
			ok = bm_tls_premaster(ctx->op.prov, out, outsize, em, key->size,
					      ctx->client_version, ctx->alt_version);
			r = PREMASTER_LEN;
		}
	}
	OPENSSL_clear_free(em, key->size);
	/* r < 0 is a padding failure, secret: no branch on it. */
	size_t fail = (size_t)0 - (size_t)((unsigned int)r >> 31);
	*outlen = (*outlen & fail) | ((size_t)(unsigned int)r & ~fail);
	return ok & (int)(1 & ~fail);
}

static int cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct cipher_ctx *ctx = vctx;
	const OSSL_PARAM *p;
	if (params == NULL)
		return 1;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST)) != NULL &&
	    !bm_param_fetch_md(ctx->op.prov, &ctx->op.md, p,
			       OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS),
			       "OAEP digest"))
		return 0;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE)) != NULL &&
	    !bm_param_get_pad_mode(ctx->op.prov, p,
				   BM_PAD(RSA_NO_PADDING) | BM_PAD(RSA_PKCS1_PADDING) |
				   BM_PAD(RSA_PKCS1_OAEP_PADDING) | BM_PAD(RSA_PKCS1_WITH_TLS_PADDING),
				   "encryption", &ctx->op.pad_mode))
		return 0;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST)) != NULL &&
	    !bm_param_fetch_md(ctx->op.prov, &ctx->op.mgf1_md, p,
			       OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST_PROPS),
			       "MGF1 digest"))
		return 0;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL)) != NULL) {
		void *label = NULL;
		size_t len = 0;
		if (!OSSL_PARAM_get_octet_string(p, &label, 0, &len)) {
			BM_ERR(ctx->op.prov, BM_R_INVALID_PARAM, "the OAEP label must be an octet string");
			return 0;
		}
		OPENSSL_clear_free(ctx->label, ctx->label_len);
		ctx->label = label;
		ctx->label_len = len;
	}
	return BM_PARAM_GET(ctx->op.prov, p, params, OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION,
			    OSSL_PARAM_get_uint, &ctx->client_version,
			    "tls-client-version must be an integer") &&
	       BM_PARAM_GET(ctx->op.prov, p, params, OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION,
			    OSSL_PARAM_get_uint, &ctx->alt_version,
			    "tls-negotiated-version must be an integer");
}

static int cipher_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct cipher_ctx *ctx = vctx;
	const char *oaep_name = ctx->op.md ? EVP_MD_get0_name(ctx->op.md) : "SHA1";
	/* MGF1 follows the OAEP digest, SHA-1 when neither is set. */
	const EVP_MD *mgf1 = bm_opctx_mgf1(&ctx->op);
	const char *mgf1_name = mgf1 ? EVP_MD_get0_name(mgf1) : oaep_name;
	OSSL_PARAM *p;
	return BM_PARAM_SET(p, params, OSSL_ASYM_CIPHER_PARAM_PAD_MODE, bm_param_set_pad_mode,
			    ctx->op.pad_mode) &&
	       BM_PARAM_SET(p, params, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST,
			    OSSL_PARAM_set_utf8_string, oaep_name) &&
	       BM_PARAM_SET(p, params, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST,
			    OSSL_PARAM_set_utf8_string, mgf1_name) &&
	       BM_PARAM_SET(p, params, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, OSSL_PARAM_set_octet_ptr,
			    ctx->label, ctx->label_len) &&
	       BM_PARAM_SET(p, params, OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION,
			    OSSL_PARAM_set_uint, ctx->client_version) &&
	       BM_PARAM_SET(p, params, OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION,
			    OSSL_PARAM_set_uint, ctx->alt_version);
}

static const OSSL_PARAM cipher_params[] = {
	OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST_PROPS, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_PAD_MODE, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST_PROPS, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, NULL, 0),
	OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, NULL),
	OSSL_PARAM_uint(OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, NULL),
	OSSL_PARAM_END
};

/* Every parameter is both settable and gettable. */
static const OSSL_PARAM *cipher_ctx_params(void *vctx, void *provctx)
{
	(void)vctx;
	(void)provctx;
	return cipher_params;
}

const OSSL_DISPATCH bm_asym_cipher_functions[] = {
	{ OSSL_FUNC_ASYM_CIPHER_NEWCTX, (void (*)(void))cipher_newctx },
	{ OSSL_FUNC_ASYM_CIPHER_ENCRYPT_INIT, (void (*)(void))cipher_init },
	{ OSSL_FUNC_ASYM_CIPHER_ENCRYPT, (void (*)(void))cipher_encrypt },
	{ OSSL_FUNC_ASYM_CIPHER_DECRYPT_INIT, (void (*)(void))cipher_init },
	{ OSSL_FUNC_ASYM_CIPHER_DECRYPT, (void (*)(void))cipher_decrypt },
	{ OSSL_FUNC_ASYM_CIPHER_FREECTX, (void (*)(void))cipher_freectx },
	{ OSSL_FUNC_ASYM_CIPHER_DUPCTX, (void (*)(void))cipher_dupctx },
	{ OSSL_FUNC_ASYM_CIPHER_GET_CTX_PARAMS, (void (*)(void))cipher_get_ctx_params },
	{ OSSL_FUNC_ASYM_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))cipher_ctx_params },
	{ OSSL_FUNC_ASYM_CIPHER_SET_CTX_PARAMS, (void (*)(void))cipher_set_ctx_params },
	{ OSSL_FUNC_ASYM_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))cipher_ctx_params },
	{ 0, NULL }
};
