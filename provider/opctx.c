/*
 * What the cipher's and the signature's operation contexts share
 * (contracts in prov.h): allocation, freeing, duplication with references
 * of their own to the key and the digests, and the output-size check.
 */
#include <openssl/crypto.h>

#include "prov.h"

void *bm_opctx_new(void *provctx, size_t size, const char *what)
{
	struct bm_opctx *op = OPENSSL_zalloc(size);
	if (op == NULL) {
		BM_ERR(provctx, BM_R_NO_MEMORY, "allocating a %s context", what);
		return NULL;
	}
	op->prov = provctx;
	return op;
}

void bm_opctx_free(void *ctx)
{
	struct bm_opctx *op = ctx;
	if (op != NULL) {
		bm_key_free(op->key);
		EVP_MD_free(op->md);
		EVP_MD_free(op->mgf1_md);
	}
	OPENSSL_free(op);
}

void *bm_opctx_dup(const void *src, size_t size, int (*copy_own)(void *dst),
		   void (*freectx)(void *ctx))
{
	struct bm_opctx *op = OPENSSL_memdup(src, size);
	if (op == NULL)
		return NULL;
	/* Until copy_own has run, op's other pointers are src's: a failure
	 * before it frees op alone. */
	if (op->md != NULL && !EVP_MD_up_ref(op->md)) {
		OPENSSL_free(op);
		return NULL;
	}
	if (op->mgf1_md != NULL && !EVP_MD_up_ref(op->mgf1_md)) {
		EVP_MD_free(op->md);
		OPENSSL_free(op);
		return NULL;
	}
	if (op->key != NULL)
		bm_key_up_ref(op->key);
	if (!copy_own(op)) {
		freectx(op);
		return NULL;
	}
	return op;
}

int bm_out_fits(const struct bm_prov *prov, size_t outsize, size_t need, const char *what)
{
	if (outsize < need) {
		BM_ERR(prov, BM_R_BAD_LENGTH, "%s buffer of %zu byte%s, %zu needed", what, outsize,
		       outsize == 1 ? "" : "s", need);
		return 0;
	}
	return 1;
}
