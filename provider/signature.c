/*
 * RSA signatures (OSSL_OP_SIGNATURE): PKCS #1 v1.5 with a DigestInfo or
 * over the raw input, PSS (digest, MGF1 digest, salt length), no padding;
 * sign, verify, verify-recover, and digest-sign / digest-verify (what TLS
 * 1.2 and 1.3 use).
 *
 * The arithmetic is bigmont's (rsa_private_raw with its blinding and fault
 * check; rsa_public_raw), the encodings libcrypto's (provider/padding.c,
 * provider/digest_info.c).  Defaults and refusals follow the default
 * provider: PKCS #1 v1.5; PSS with SHA-1 unless a digest is set, MGF1 with
 * the signature's digest, salt length "auto" (the longest when signing,
 * recovered when verifying); with a digest set, the input must be a
 * digest of its length.
 */
#include <limits.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "signature.h"

static void *sig_newctx(void *provctx, const char *propq)
{
	(void)propq; /* see sig_set_md */
	return bm_opctx_new(provctx, sizeof(struct sig_ctx), "signature");
}

static void sig_freectx(void *vctx)
{
	struct sig_ctx *ctx = vctx;
	if (ctx != NULL)
		EVP_MD_CTX_free(ctx->mdctx);
	bm_opctx_free(ctx);
}

/* EVP_DigestSignFinal signs on a copy, so a duplicate copies the running
 * hash. */
static int sig_copy_own(void *vctx)
{
	struct sig_ctx *ctx = vctx;
	const EVP_MD_CTX *running = ctx->mdctx;
	if (running == NULL)
		return 1;
	ctx->mdctx = EVP_MD_CTX_new();
	return ctx->mdctx != NULL && EVP_MD_CTX_copy_ex(ctx->mdctx, running);
}

static void *sig_dupctx(void *vctx)
{
	return bm_opctx_dup(vctx, sizeof(struct sig_ctx), sig_copy_own, sig_freectx);
}

static int sig_init(void *vctx, void *provkey, const OSSL_PARAM params[], int operation)
{
	struct sig_ctx *ctx = vctx;
	/* No key restarts the context with the key it has, as libcrypto asks
	 * when a program re-initialises a digest-sign context or resets an md
	 * BIO. */
	if ((provkey != NULL || ctx->op.key == NULL) &&
	    !bm_key_attach(ctx->op.prov, &ctx->op.key, provkey))
		return 0;
	ctx->operation = operation;
	ctx->op.pad_mode = RSA_PKCS1_PADDING;
	ctx->saltlen = RSA_PSS_SALTLEN_AUTO;
	ctx->md_locked = 0;
	EVP_MD_free(ctx->op.md);
	EVP_MD_free(ctx->op.mgf1_md);
	ctx->op.md = ctx->op.mgf1_md = NULL;
	EVP_MD_CTX_free(ctx->mdctx);
	ctx->mdctx = NULL;
	return sig_set_ctx_params(ctx, params);
}

static int sig_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
	return sig_init(vctx, provkey, params, EVP_PKEY_OP_SIGN);
}

static int sig_verify_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
	return sig_init(vctx, provkey, params, EVP_PKEY_OP_VERIFY);
}

static int sig_verify_recover_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
	return sig_init(vctx, provkey, params, EVP_PKEY_OP_VERIFYRECOVER);
}

/* With a digest set the input is that digest: its length is checked. */
static int check_digest_length(const struct sig_ctx *ctx, size_t tbslen)
{
	if (ctx->op.md != NULL && tbslen != (size_t)EVP_MD_get_size(ctx->op.md)) {
		BM_ERR(ctx->op.prov, BM_R_BAD_LENGTH, "a %zu-byte input is not a %s digest", tbslen,
		       EVP_MD_get0_name(ctx->op.md));
		return 0;
	}
	return 1;
}

/* The encoded message (k bytes) for tbs. */
static int encode(const struct sig_ctx *ctx, uint8_t *em, const uint8_t *tbs, size_t tbslen)
{
	const struct bm_key *key = ctx->op.key;
	const int k = (int)key->size;
	if (tbslen > INT_MAX) {
		BM_ERR(ctx->op.prov, BM_R_BAD_LENGTH, "%zu bytes cannot be signed", tbslen);
		return 0;
	}
	switch (ctx->op.pad_mode) {
	case RSA_NO_PADDING:
		return bm_pad_none(em, k, tbs, (int)tbslen) > 0;
	case RSA_PKCS1_PADDING: {
		if (ctx->op.md == NULL)
			return bm_pad_pkcs1_type1(em, k, tbs, (int)tbslen) > 0;
		uint8_t *di;
		size_t dilen;
		if (!bm_digest_info(ctx->op.prov, &di, &dilen, ctx->op.md, tbs, tbslen))
			return 0;
		int ok = bm_pad_pkcs1_type1(em, k, di, (int)dilen) > 0;
		OPENSSL_free(di);
		return ok;
	}
	case RSA_PKCS1_PSS_PADDING:
		return bm_pad_pss(key, em, tbs, ctx->op.md, bm_opctx_mgf1(&ctx->op),
				  ctx->saltlen) > 0;
	default:
		BM_ERR(ctx->op.prov, BM_R_UNSUPPORTED, "padding mode %d cannot sign", ctx->op.pad_mode);
		return 0;
	}
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
		    const unsigned char *tbs, size_t tbslen)
{
	struct sig_ctx *ctx = vctx;
	const struct bm_key *key = ctx->op.key;
	if (!bm_key_ready(ctx->op.prov, key, "sign"))
		return 0;
	if (sig == NULL) {
		*siglen = key->size;
		return 1;
	}
	if (!bm_out_fits(ctx->op.prov, sigsize, key->size, "signature") ||
	    !check_digest_length(ctx, tbslen))
		return 0;
	uint8_t *em = bm_key_block(key);
	if (em == NULL)
		return 0;
	int ok = encode(ctx, em, tbs, tbslen) && bm_key_private(key, sig, em);
	OPENSSL_clear_free(em, key->size);
	if (ok)
		*siglen = key->size;
	return ok;
}

/*
 * The message a signature carries: em = sig^e mod n, then for PKCS #1
 * v1.5 the type 1 padding removed (out gets the DigestInfo, or the raw
 * input without a digest), for no padding em as it is.  PSS is not
 * recovered (its check needs the digest).  Returns the length, or -1.
 */
static int recover(const struct sig_ctx *ctx, uint8_t *out, size_t outsize,
		   const uint8_t *sig, size_t siglen)
{
	const struct bm_key *key = ctx->op.key;
	const int k = (int)key->size;
	uint8_t *em = bm_key_block(key);
	int r = -1;
	if (em == NULL)
		return -1;
	if (bm_key_public(key, em, sig, siglen)) {
		if (ctx->op.pad_mode == RSA_PKCS1_PADDING) {
			/* An int for the unpadder: a larger buffer holds any. */
			r = bm_unpad_pkcs1_type1(out, outsize < key->size ? (int)outsize : k, em, k);
		} else if (ctx->op.pad_mode == RSA_NO_PADDING) {
			if (bm_out_fits(ctx->op.prov, outsize, key->size, "output")) {
				memcpy(out, em, key->size);
				r = k;
			}
		} else {
			BM_ERR(ctx->op.prov, BM_R_UNSUPPORTED, "padding mode %d cannot be recovered",
			       ctx->op.pad_mode);
		}
	}
	OPENSSL_free(em);
	return r;
}

static int verify_pss(const struct sig_ctx *ctx, const uint8_t *sig, size_t siglen,
		      const uint8_t *tbs)
{
	const struct bm_key *key = ctx->op.key;
	uint8_t *em = bm_key_block(key);
	if (em == NULL)
		return 0;
	int ok = bm_key_public(key, em, sig, siglen) &&
		 bm_verify_pss(key, tbs, ctx->op.md, bm_opctx_mgf1(&ctx->op), em,
			       ctx->saltlen) > 0;
	OPENSSL_free(em);
	return ok;
}

/* PKCS #1 v1.5 with a digest takes a signature of exactly the key's
 * length, as the default provider's RSA_verify does ("wrong signature
 * length"); without a digest a shorter one is a number like any other. */
static int pkcs1_siglen_ok(const struct sig_ctx *ctx, size_t siglen)
{
	const struct bm_key *key = ctx->op.key;
	if (ctx->op.pad_mode == RSA_PKCS1_PADDING && ctx->op.md != NULL && siglen != key->size) {
		BM_ERR(ctx->op.prov, BM_R_BAD_SIGNATURE, "a %zu-byte signature for a %zu-byte key",
		       siglen, key->size);
		return 0;
	}
	return 1;
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
		      const unsigned char *tbs, size_t tbslen)
{
	struct sig_ctx *ctx = vctx;
	const struct bm_key *key = ctx->op.key;
	if (!bm_key_ready(ctx->op.prov, key, "verify"))
		return 0;
	if (!check_digest_length(ctx, tbslen))
		return 0;
	if (ctx->op.pad_mode == RSA_PKCS1_PSS_PADDING)
		return verify_pss(ctx, sig, siglen, tbs);
	if (!pkcs1_siglen_ok(ctx, siglen))
		return 0;
	uint8_t *expect = (uint8_t *)tbs, *got = OPENSSL_malloc(key->size);
	size_t expectlen = tbslen;
	int ok = got != NULL;
	if (ok && ctx->op.md != NULL && ctx->op.pad_mode == RSA_PKCS1_PADDING)
		ok = bm_digest_info(ctx->op.prov, &expect, &expectlen, ctx->op.md, tbs, tbslen);
	int r = ok ? recover(ctx, got, key->size, sig, siglen) : -1;
	/* An empty message is refused, as the default provider refuses it
	 * (its RSA_public_decrypt reports 0 bytes as a failure). */
	ok = r > 0 && (size_t)r == expectlen && memcmp(got, expect, expectlen) == 0;
	if (r >= 0 && !ok)
		BM_ERR(ctx->op.prov, BM_R_BAD_SIGNATURE, "the signature does not match the input");
	if (expect != tbs)
		OPENSSL_free(expect);
	OPENSSL_free(got);
	return ok;
}

static int sig_verify_recover(void *vctx, unsigned char *rout, size_t *routlen,
			      size_t routsize, const unsigned char *sig, size_t siglen)
{
	struct sig_ctx *ctx = vctx;
	const struct bm_key *key = ctx->op.key;
	if (!bm_key_ready(ctx->op.prov, key, "verify-recover"))
		return 0;
	if (rout == NULL) {
		*routlen = key->size;
		return 1;
	}
	if (ctx->op.md == NULL) {
		int r = recover(ctx, rout, routsize, sig, siglen);
		if (r < 0)
			return 0;
		*routlen = (size_t)r;
		return 1;
	}
	/* PKCS #1 v1.5 with a digest: the digest, once the DigestInfo around
	 * it is the one for md. */
	if (!pkcs1_siglen_ok(ctx, siglen))
		return 0;
	const size_t mdsize = (size_t)EVP_MD_get_size(ctx->op.md);
	if (!bm_out_fits(ctx->op.prov, routsize, mdsize, "output"))
		return 0;
	uint8_t zero[EVP_MAX_MD_SIZE] = { 0 }, *di = NULL, *got = OPENSSL_malloc(key->size);
	size_t dilen = 0;
	int r = -1, ok = 0;
	if (got != NULL && bm_digest_info(ctx->op.prov, &di, &dilen, ctx->op.md, zero, mdsize))
		r = recover(ctx, got, key->size, sig, siglen);
	if (r >= 0) {
		ok = (size_t)r == dilen && memcmp(got, di, dilen - mdsize) == 0;
		if (ok) {
			memcpy(rout, got + dilen - mdsize, mdsize);
			*routlen = mdsize;
		} else {
			BM_ERR(ctx->op.prov, BM_R_BAD_SIGNATURE, "no %s DigestInfo in the signature",
			       EVP_MD_get0_name(ctx->op.md));
		}
	}
	OPENSSL_free(di);
	OPENSSL_free(got);
	return ok;
}

static int sig_digest_init(void *vctx, const char *mdname, void *provkey,
			   const OSSL_PARAM params[], int operation)
{
	struct sig_ctx *ctx = vctx;
	if (!sig_init(ctx, provkey, params, operation))
		return 0;
	if (!sig_set_md(ctx, mdname != NULL && *mdname ? mdname : "SHA256", NULL))
		return 0;
	ctx->md_locked = 1;
	if ((ctx->mdctx = EVP_MD_CTX_new()) == NULL ||
	    !EVP_DigestInit_ex2(ctx->mdctx, ctx->op.md, NULL)) {
		BM_ERR(ctx->op.prov, BM_R_DIGEST, "cannot start the %s digest", EVP_MD_get0_name(ctx->op.md));
		return 0;
	}
	return 1;
}

static int sig_digest_sign_init(void *vctx, const char *mdname, void *provkey,
				const OSSL_PARAM params[])
{
	return sig_digest_init(vctx, mdname, provkey, params, EVP_PKEY_OP_SIGN);
}

static int sig_digest_verify_init(void *vctx, const char *mdname, void *provkey,
				  const OSSL_PARAM params[])
{
	return sig_digest_init(vctx, mdname, provkey, params, EVP_PKEY_OP_VERIFY);
}

static int sig_digest_update(void *vctx, const unsigned char *data, size_t datalen)
{
	struct sig_ctx *ctx = vctx;
	if (ctx->mdctx == NULL) {
		BM_ERR(ctx->op.prov, BM_R_KEY_INCOMPLETE, "digest update without digest init");
		return 0;
	}
	return EVP_DigestUpdate(ctx->mdctx, data, datalen);
}

static int finish_digest(struct sig_ctx *ctx, uint8_t *digest, unsigned int *len)
{
	if (ctx->mdctx == NULL || !EVP_DigestFinal_ex(ctx->mdctx, digest, len)) {
		BM_ERR(ctx->op.prov, BM_R_DIGEST, "cannot finish the digest");
		return 0;
	}
	return 1;
}

static int sig_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen,
				 size_t sigsize)
{
	struct sig_ctx *ctx = vctx;
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	/* A size query must leave the running hash alone. */
	if (sig != NULL && !finish_digest(ctx, digest, &len))
		return 0;
	return sig_sign(ctx, sig, siglen, sigsize, digest, len);
}

static int sig_digest_verify_final(void *vctx, const unsigned char *sig, size_t siglen)
{
	struct sig_ctx *ctx = vctx;
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	return finish_digest(ctx, digest, &len) && sig_verify(ctx, sig, siglen, digest, len);
}

const OSSL_DISPATCH bm_signature_functions[] = {
	{ OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx },
	{ OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init },
	{ OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign },
	{ OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init },
	{ OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify },
	{ OSSL_FUNC_SIGNATURE_VERIFY_RECOVER_INIT, (void (*)(void))sig_verify_recover_init },
	{ OSSL_FUNC_SIGNATURE_VERIFY_RECOVER, (void (*)(void))sig_verify_recover },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_digest_sign_init },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))sig_digest_update },
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))sig_digest_sign_final },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))sig_digest_verify_init },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))sig_digest_update },
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))sig_digest_verify_final },
	{ OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx },
	{ OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx },
	{ OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))sig_get_ctx_params },
	{ OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))sig_gettable_ctx_params },
	{ OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))sig_set_ctx_params },
	{ OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))sig_settable_ctx_params },
	{ 0, NULL }
};
