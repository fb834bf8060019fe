/*
 * provider/signature.h -- the RSA signature context, shared by
 * signature.c (the operations) and signature_params.c (its parameters).
 */
#ifndef BIGMONT_PROVIDER_SIGNATURE_H
#define BIGMONT_PROVIDER_SIGNATURE_H

#include "prov.h"

struct sig_ctx {
	/* op.pad_mode: RSA_PKCS1_PADDING (default), _PSS_, _NO_.  op.md: the
	 * digest the input was made with; NULL: PKCS #1 v1.5 and no padding
	 * sign the input as it is (what `openssl speed rsa` does). */
	struct bm_opctx op;
	int operation;        /* EVP_PKEY_OP_SIGN, _VERIFY or _VERIFYRECOVER */
	int saltlen;          /* PSS: a length or RSA_PSS_SALTLEN_* */
	int md_locked;        /* digest-sign/verify: md fixed at init */
	EVP_MD_CTX *mdctx;    /* digest-sign/verify: the running hash */
};

/* Set md from a digest name, fetched with props (NULL: the application's
 * default properties -- not the properties this signature was fetched
 * with, which name bigmont, which has no digests).  Refuses XOFs and, for
 * a locked context, another digest. */
int sig_set_md(struct sig_ctx *ctx, const char *name, const char *props);

int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
int sig_get_ctx_params(void *vctx, OSSL_PARAM params[]);
const OSSL_PARAM *sig_settable_ctx_params(void *vctx, void *provctx);
const OSSL_PARAM *sig_gettable_ctx_params(void *vctx, void *provctx);

#endif
