/*
 * OSSL_provider_init and the provider's own functions: which operations it
 * offers (RSA key management, asymmetric cipher, signature), its gettable
 * parameters (name, version, status, and the private-operation counter
 * BM_PARAM_PRIVATE_OPS), its error reasons, and teardown.
 *
 * Everything the provider holds lives in its context (struct bm_prov), made
 * at load and freed at unload: the module has no writable global data, so
 * one process may load it into several library contexts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "prov.h"

#define BM_VERSION "0.1.0"

static const OSSL_ITEM reason_strings[] = {
	{ BM_R_KEY_REFUSED, "bigmont refused the key at import" },
	{ BM_R_KEY_INCOMPLETE, "the key lacks what the operation needs" },
	{ BM_R_PRIVATE_OP, "bigmont private-key operation failed" },
	{ BM_R_PUBLIC_OP, "bigmont public-key operation failed" },
	{ BM_R_UNSUPPORTED, "not supported by the bigmont provider" },
	{ BM_R_INVALID_PARAM, "invalid parameter" },
	{ BM_R_BAD_LENGTH, "wrong input or output length" },
	{ BM_R_DIGEST, "digest not available for this operation" },
	{ BM_R_BAD_SIGNATURE, "bad signature" },
	{ BM_R_NO_MEMORY, "out of memory" },
	{ BM_R_INTERNAL, "internal error" },
	{ 0, NULL }
};

void bm_raise(const struct bm_prov *prov, uint32_t reason, const char *file,
	      int line, const char *func, const char *fmt, ...)
{
	if (prov == NULL || prov->new_error == NULL)
		return;
	va_list ap;
	va_start(ap, fmt);
	prov->new_error(prov->handle);
	prov->set_error_debug(prov->handle, file, line, func);
	prov->vset_error(prov->handle, reason, fmt, ap);
	va_end(ap);
}

static const OSSL_ALGORITHM keymgmt_algorithms[] = {
	{ BM_RSA_NAMES, BM_PROPERTIES, bm_keymgmt_functions,
	  "RSA keys held by bigmont (checked and precomputed at import)" },
	{ NULL, NULL, NULL, NULL }
};
static const OSSL_ALGORITHM asym_cipher_algorithms[] = {
	{ BM_RSA_NAMES, BM_PROPERTIES, bm_asym_cipher_functions,
	  "RSA encryption: no padding, PKCS #1 v1.5, OAEP" },
	{ NULL, NULL, NULL, NULL }
};
static const OSSL_ALGORITHM signature_algorithms[] = {
	{ BM_RSA_NAMES, BM_PROPERTIES, bm_signature_functions,
	  "RSA signatures: PKCS #1 v1.5, PSS" },
	{ NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM *query_operation(void *provctx, int operation_id,
					     int *no_cache)
{
	(void)provctx;
	*no_cache = 0;
	switch (operation_id) {
	case OSSL_OP_KEYMGMT: return keymgmt_algorithms;
	case OSSL_OP_ASYM_CIPHER: return asym_cipher_algorithms;
	case OSSL_OP_SIGNATURE: return signature_algorithms;
	default: return NULL;
	}
}

static const OSSL_PARAM *gettable_params(void *provctx)
{
	static const OSSL_PARAM params[] = {
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
		OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
		OSSL_PARAM_uint64(BM_PARAM_PRIVATE_OPS, NULL),
		OSSL_PARAM_END
	};
	(void)provctx;
	return params;
}

static int get_params(void *provctx, OSSL_PARAM params[])
{
	struct bm_prov *prov = provctx;
	const uint64_t private_ops = atomic_load_explicit(&prov->private_ops,
							  memory_order_relaxed);
	OSSL_PARAM *p;
	return BM_PARAM_SET(p, params, OSSL_PROV_PARAM_NAME, OSSL_PARAM_set_utf8_ptr,
			    "bigmont RSA provider") &&
	       BM_PARAM_SET(p, params, OSSL_PROV_PARAM_VERSION, OSSL_PARAM_set_utf8_ptr,
			    BM_VERSION) &&
	       BM_PARAM_SET(p, params, OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_set_utf8_ptr,
			    "bigmont " BM_VERSION " for " OPENSSL_VERSION_TEXT) &&
	       BM_PARAM_SET(p, params, OSSL_PROV_PARAM_STATUS, OSSL_PARAM_set_int, 1) &&
	       BM_PARAM_SET(p, params, BM_PARAM_PRIVATE_OPS, OSSL_PARAM_set_uint64, private_ops);
}

static const OSSL_ITEM *get_reason_strings(void *provctx)
{
	(void)provctx;
	return reason_strings;
}

static void teardown(void *provctx)
{
	struct bm_prov *prov = provctx;
	if (prov == NULL)
		return;
	if (prov->report_path != NULL) {
		FILE *f = fopen(prov->report_path, "a");
		if (f != NULL) {
			fprintf(f, "%s=%llu\n", BM_PARAM_PRIVATE_OPS,
				(unsigned long long)atomic_load(&prov->private_ops));
			fclose(f);
		}
		free(prov->report_path);
	}
	OSSL_LIB_CTX_free(prov->libctx);
	free(prov);
}

static const OSSL_DISPATCH provider_functions[] = {
	{ OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))teardown },
	{ OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))gettable_params },
	{ OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))get_params },
	{ OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query_operation },
	{ OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))get_reason_strings },
	{ 0, NULL }
};

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
		       const OSSL_DISPATCH **out, void **provctx)
{
	/* aligned_alloc: the counter's cache line (prov.h) is 64-byte aligned,
	 * and sizeof is a multiple of it. */
	struct bm_prov *prov = aligned_alloc(_Alignof(struct bm_prov), sizeof(*prov));
	if (prov == NULL)
		return 0;
	memset(prov, 0, sizeof(*prov));
	prov->handle = handle;
	atomic_init(&prov->private_ops, 0);
	for (const OSSL_DISPATCH *f = in; f->function_id != 0; f++) {
		switch (f->function_id) {
		case OSSL_FUNC_CORE_NEW_ERROR:
			prov->new_error = OSSL_FUNC_core_new_error(f);
			break;
		case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
			prov->set_error_debug = OSSL_FUNC_core_set_error_debug(f);
			break;
		case OSSL_FUNC_CORE_VSET_ERROR:
			prov->vset_error = OSSL_FUNC_core_vset_error(f);
			break;
		default:
			break;
		}
	}
	if (prov->new_error == NULL || prov->set_error_debug == NULL ||
	    prov->vset_error == NULL) {
		free(prov);
		return 0;
	}
	prov->libctx = OSSL_LIB_CTX_new_child(handle, in);
	const char *report = getenv("BIGMONT_PROVIDER_REPORT");
	if (prov->libctx == NULL || (report != NULL && *report != '\0' &&
				     (prov->report_path = strdup(report)) == NULL)) {
		OSSL_LIB_CTX_free(prov->libctx);
		free(prov);
		return 0;
	}
	*out = provider_functions;
	*provctx = prov;
	return 1;
}
