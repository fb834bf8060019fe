/*
 * The RSA signature context's parameters: digest, padding mode, PSS salt
 * length, MGF1 digest (settable and gettable), and the X.509
 * AlgorithmIdentifier of PKCS #1 v1.5 and PSS signatures (gettable:
 * certificates, requests and CMS take it from here).  Names and
 * value forms are the default provider's: a padding mode as a number or a
 * name, a salt length as a number (-1, -2, -3 included) or "digest",
 * "max", "auto".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "signature.h"

static const struct bm_named_int saltlen_names[] = {
	{ RSA_PSS_SALTLEN_DIGEST, OSSL_PKEY_RSA_PSS_SALT_LEN_DIGEST },
	{ RSA_PSS_SALTLEN_MAX, OSSL_PKEY_RSA_PSS_SALT_LEN_MAX },
	{ RSA_PSS_SALTLEN_AUTO, OSSL_PKEY_RSA_PSS_SALT_LEN_AUTO },
};

int sig_set_md(struct sig_ctx *ctx, const char *name, const char *props)
{
	EVP_MD *md = EVP_MD_fetch(ctx->op.prov->libctx, name, props);
	if (md == NULL) {
		BM_ERR(ctx->op.prov, BM_R_DIGEST, "digest '%s' is not available", name);
		return 0;
	}
	if (!bm_md_fixed_size(md) || !bm_md_rsa_sign_allowed(md) ||
	    (ctx->md_locked && ctx->op.md != NULL && !EVP_MD_is_a(ctx->op.md, EVP_MD_get0_name(md)))) {
		BM_ERR(ctx->op.prov, BM_R_DIGEST, "digest '%s' is not allowed here", name);
		EVP_MD_free(md);
		return 0;
	}
	EVP_MD_free(ctx->op.md);
	ctx->op.md = md;
	return 1;
}

static int get_saltlen(const OSSL_PARAM *p, int *len)
{
	if (p->data_type != OSSL_PARAM_UTF8_STRING)
		return OSSL_PARAM_get_int(p, len);
	if (bm_named_value(saltlen_names, BM_COUNT(saltlen_names), p->data, len))
		return 1;
	/* Numbers too, as the default provider takes them: -1, -2 and -3 are
	 * the old spellings of digest, auto and max. */
	char *end;
	long v = strtol(p->data, &end, 10);
	if (end == (char *)p->data || *end != '\0' || v < RSA_PSS_SALTLEN_MAX || v > 0xffff)
		return 0;
	*len = (int)v;
	return 1;
}

static int set_saltlen(OSSL_PARAM *p, int len)
{
	if (p->data_type != OSSL_PARAM_UTF8_STRING)
		return OSSL_PARAM_set_int(p, len);
	const char *name = bm_named_name(saltlen_names, BM_COUNT(saltlen_names), len);
	if (name != NULL)
		return OSSL_PARAM_set_utf8_string(p, name);
	char text[16];
	snprintf(text, sizeof(text), "%d", len);
	return OSSL_PARAM_set_utf8_string(p, text);
}

static int set_pad_mode(struct sig_ctx *ctx, const OSSL_PARAM *p)
{
	int mode;
	if (!bm_param_get_pad_mode(ctx->op.prov, p,
				   BM_PAD(RSA_PKCS1_PADDING) | BM_PAD(RSA_NO_PADDING) |
				   BM_PAD(RSA_PKCS1_PSS_PADDING), "signatures", &mode))
		return 0;
	if (mode == RSA_PKCS1_PSS_PADDING) {
		if (ctx->operation == EVP_PKEY_OP_VERIFYRECOVER) {
			BM_ERR(ctx->op.prov, BM_R_UNSUPPORTED, "PSS signatures cannot be recovered");
			return 0;
		}
		if (ctx->op.md == NULL && !sig_set_md(ctx, "SHA1", NULL))
			return 0;
	}
	ctx->op.pad_mode = mode;
	return 1;
}

int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct sig_ctx *ctx = vctx;
	const OSSL_PARAM *p;
	if (params == NULL)
		return 1;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DIGEST)) != NULL) {
		const char *name, *props;
		if (!bm_param_get_md_name(ctx->op.prov, p,
					  OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PROPERTIES),
					  "digest", &name, &props) ||
		    !sig_set_md(ctx, name, props))
			return 0;
	}
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PAD_MODE)) != NULL &&
	    !set_pad_mode(ctx, p))
		return 0;
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN)) != NULL) {
		int len;
		if (ctx->op.pad_mode != RSA_PKCS1_PSS_PADDING) {
			BM_ERR(ctx->op.prov, BM_R_INVALID_PARAM,
			       "a salt length needs PSS padding, set first");
			return 0;
		}
		if (!get_saltlen(p, &len) || len < RSA_PSS_SALTLEN_MAX) {
			BM_ERR(ctx->op.prov, BM_R_INVALID_PARAM, "invalid PSS salt length");
			return 0;
		}
		ctx->saltlen = len;
	}
	if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST)) != NULL) {
		if (ctx->op.pad_mode != RSA_PKCS1_PSS_PADDING) {
			BM_ERR(ctx->op.prov, BM_R_INVALID_PARAM,
			       "an MGF1 digest needs PSS padding, set first");
			return 0;
		}
		/* Fetched aside: an XOF or the NULL digest is refused, as for
		 * the digest, and the MGF1 digest set before stays. */
		EVP_MD *mgf1 = NULL;
		if (!bm_param_fetch_md(ctx->op.prov, &mgf1, p,
				       OSSL_PARAM_locate_const(params,
							       OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES),
				       "MGF1 digest"))
			return 0;
		if (!bm_md_rsa_sign_allowed(mgf1)) {
			BM_ERR(ctx->op.prov, BM_R_DIGEST, "MGF1 digest '%s' is not allowed here",
			       EVP_MD_get0_name(mgf1));
			EVP_MD_free(mgf1);
			return 0;
		}
		EVP_MD_free(ctx->op.mgf1_md);
		ctx->op.mgf1_md = mgf1;
	}
	return 1;
}

/* The salt length a PSS signature of this context has: "digest", "max"
 * and "auto" resolved as the signing code resolves them. */
static int pss_salt_length(const struct sig_ctx *ctx)
{
	const int hlen = EVP_MD_get_size(ctx->op.md);
	if (ctx->saltlen == RSA_PSS_SALTLEN_DIGEST)
		return hlen;
	if (ctx->saltlen >= 0)
		return ctx->saltlen;
	/* max: the encoded message is one byte shorter when the modulus has
	 * 8k + 1 bits (RFC 8017, 9.1.1) */
	return (int)ctx->op.key->size - hlen - 2 - ((ctx->op.key->bits & 7) == 1);
}

/* A digest's AlgorithmIdentifier into *alg, with NULL parameters as the
 * default provider writes it (RFC 4055 lets a reader take both forms);
 * left out for SHA-1, the DEFAULT of RSASSA-PSS-params, as DER requires. */
static int pss_md_algorithm(X509_ALGOR **alg, const EVP_MD *md)
{
	if (EVP_MD_is_a(md, "SHA1"))
		return 1;
	return (*alg = X509_ALGOR_new()) != NULL &&
	       X509_ALGOR_set0(*alg, OBJ_nid2obj(EVP_MD_get_type(md)), V_ASN1_NULL, NULL);
}

/* RSASSA-PSS-params (RFC 4055): hash, MGF1 and its hash, salt length; the
 * trailer field is always its default.  NULL on failure. */
static ASN1_STRING *pss_params(const struct sig_ctx *ctx)
{
	RSA_PSS_PARAMS *pss = RSA_PSS_PARAMS_new();
	X509_ALGOR *mgf1_hash = NULL;
	ASN1_STRING *der = NULL, *mgf1_der = NULL;
	const EVP_MD *mgf1 = bm_opctx_mgf1(&ctx->op);
	const int salt = pss_salt_length(ctx);
	if (pss == NULL || salt < 0 || !pss_md_algorithm(&pss->hashAlgorithm, ctx->op.md))
		goto out;
	if (salt != 20 && ((pss->saltLength = ASN1_INTEGER_new()) == NULL ||
			   !ASN1_INTEGER_set(pss->saltLength, salt)))
		goto out;
	if (!EVP_MD_is_a(mgf1, "SHA1")) {
		if (!pss_md_algorithm(&mgf1_hash, mgf1) ||
		    (mgf1_der = ASN1_item_pack(mgf1_hash, ASN1_ITEM_rptr(X509_ALGOR), NULL)) == NULL ||
		    (pss->maskGenAlgorithm = X509_ALGOR_new()) == NULL ||
		    !X509_ALGOR_set0(pss->maskGenAlgorithm, OBJ_nid2obj(NID_mgf1), V_ASN1_SEQUENCE,
				     mgf1_der))
			goto out;
		mgf1_der = NULL; /* owned by maskGenAlgorithm */
	}
	der = ASN1_item_pack(pss, ASN1_ITEM_rptr(RSA_PSS_PARAMS), NULL);
out:
	ASN1_STRING_free(mgf1_der);
	X509_ALGOR_free(mgf1_hash);
	RSA_PSS_PARAMS_free(pss);
	return der;
}

/* The PKCS #1 v1.5 signature algorithm for a digest: OpenSSL's table,
 * and where that lacks the pair (3.0 has no entry for SHA-512/224 and
 * SHA-512/256, which the default provider's own DER table has), the two
 * named here; NID_undef for none. */
static int pkcs1_sig_nid(int md_nid)
{
	int sig_nid = NID_undef;
	if (OBJ_find_sigid_by_algs(&sig_nid, md_nid, NID_rsaEncryption))
		return sig_nid;
	if (md_nid == NID_sha512_224)
		return NID_sha512_224WithRSAEncryption;
	if (md_nid == NID_sha512_256)
		return NID_sha512_256WithRSAEncryption;
	return NID_undef;
}

/* The signature's AlgorithmIdentifier: sha256WithRSAEncryption and kin
 * with NULL parameters for PKCS #1 v1.5 with a digest, RSASSA-PSS with
 * its parameters for PSS, and 0 bytes otherwise (which OpenSSL reads as
 * "none"). */
static int set_algorithm_id(OSSL_PARAM *p, const struct sig_ctx *ctx)
{
	int sig_nid = NID_undef;
	ASN1_STRING *params = NULL;
	if (ctx->op.md != NULL && ctx->op.key != NULL &&
	    ctx->op.pad_mode == RSA_PKCS1_PSS_PADDING) {
		if ((params = pss_params(ctx)) == NULL) {
			BM_ERR(ctx->op.prov, BM_R_INVALID_PARAM,
			       "cannot encode the RSASSA-PSS parameters");
			return 0;
		}
		sig_nid = NID_rsassaPss;
	} else if (ctx->op.md == NULL || ctx->op.pad_mode != RSA_PKCS1_PADDING ||
		   (sig_nid = pkcs1_sig_nid(EVP_MD_get_type(ctx->op.md))) == NID_undef) {
		return OSSL_PARAM_set_octet_string(p, "", 0);
	}
	X509_ALGOR *alg = X509_ALGOR_new();
	uint8_t *der = NULL;
	int len = -1;
	if (alg != NULL && X509_ALGOR_set0(alg, OBJ_nid2obj(sig_nid),
					   params != NULL ? V_ASN1_SEQUENCE : V_ASN1_NULL, params)) {
		params = NULL; /* owned by alg */
		len = i2d_X509_ALGOR(alg, &der);
	}
	ASN1_STRING_free(params);
	X509_ALGOR_free(alg);
	int ok = len > 0 && OSSL_PARAM_set_octet_string(p, der, (size_t)len);
	OPENSSL_free(der);
	return ok;
}

int sig_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct sig_ctx *ctx = vctx;
	OSSL_PARAM *p;
	return BM_PARAM_SET(p, params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID, set_algorithm_id, ctx) &&
	       BM_PARAM_SET(p, params, OSSL_SIGNATURE_PARAM_PAD_MODE, bm_param_set_pad_mode,
			    ctx->op.pad_mode) &&
	       BM_PARAM_SET(p, params, OSSL_SIGNATURE_PARAM_DIGEST, bm_param_set_md_name, ctx->op.md) &&
	       BM_PARAM_SET(p, params, OSSL_SIGNATURE_PARAM_MGF1_DIGEST, bm_param_set_md_name,
			    bm_opctx_mgf1(&ctx->op)) &&
	       BM_PARAM_SET(p, params, OSSL_SIGNATURE_PARAM_PSS_SALTLEN, set_saltlen, ctx->saltlen);
}

/* The parameters both settable and gettable. */
#define SIG_PARAMS                                                        \
	OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST, NULL, 0),      \
	OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, NULL, 0),    \
	OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, NULL, 0), \
	OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, NULL, 0)

const OSSL_PARAM *sig_settable_ctx_params(void *vctx, void *provctx)
{
	static const OSSL_PARAM params[] = {
		SIG_PARAMS,
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_PROPERTIES, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_PROPERTIES, NULL, 0),
		OSSL_PARAM_END
	};
	(void)vctx;
	(void)provctx;
	return params;
}

const OSSL_PARAM *sig_gettable_ctx_params(void *vctx, void *provctx)
{
	static const OSSL_PARAM params[] = {
		OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
		SIG_PARAMS,
		OSSL_PARAM_END
	};
	(void)vctx;
	(void)provctx;
	return params;
}
