/*
 * Parameter helpers the asymmetric cipher and the signature share
 * (contracts in prov.h): the padding mode, which OpenSSL passes as an
 * integer (EVP_PKEY_CTX_set_rsa_padding) or as a name (-pkeyopt
 * rsa_padding_mode:oaep), digests named by a parameter, and the tables
 * of named integers both read.
 */
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "prov.h"

static const struct bm_named_int pad_names[] = {
	{ RSA_NO_PADDING, OSSL_PKEY_RSA_PAD_MODE_NONE },
	{ RSA_PKCS1_PADDING, OSSL_PKEY_RSA_PAD_MODE_PKCSV15 },
	{ RSA_PKCS1_OAEP_PADDING, OSSL_PKEY_RSA_PAD_MODE_OAEP },
	/* OpenSSL's own misspelling, which its default provider still takes
	 * (after "oaep": bm_named_name gives the first). */
	{ RSA_PKCS1_OAEP_PADDING, "oeap" },
	{ RSA_X931_PADDING, OSSL_PKEY_RSA_PAD_MODE_X931 },
	{ RSA_PKCS1_PSS_PADDING, OSSL_PKEY_RSA_PAD_MODE_PSS },
};

int bm_param_get_pad_mode(const struct bm_prov *prov, const OSSL_PARAM *p,
			  unsigned int allowed, const char *use, int *mode)
{
	int m, known;
	if (p->data_type != OSSL_PARAM_UTF8_STRING)
		known = OSSL_PARAM_get_int(p, &m);
	else
		known = p->data != NULL && bm_named_value(pad_names, BM_COUNT(pad_names), p->data, &m);
	if (!known) {
		BM_ERR(prov, BM_R_INVALID_PARAM, "unknown padding mode");
		return 0;
	}
	if (m < 0 || m >= 32 || (allowed & BM_PAD(m)) == 0) {
		const char *name = bm_named_name(pad_names, BM_COUNT(pad_names), m);
		if (name != NULL)
			BM_ERR(prov, BM_R_UNSUPPORTED, "padding mode %d (%s) is not offered for %s", m,
			       name, use);
		else
			BM_ERR(prov, BM_R_UNSUPPORTED, "padding mode %d is not offered for %s", m, use);
		return 0;
	}
	*mode = m;
	return 1;
}

int bm_param_set_pad_mode(OSSL_PARAM *p, int mode)
{
	if (p->data_type != OSSL_PARAM_UTF8_STRING)
		return OSSL_PARAM_set_int(p, mode);
	const char *name = bm_named_name(pad_names, BM_COUNT(pad_names), mode);
	return name != NULL && OSSL_PARAM_set_utf8_string(p, name);
}

int bm_named_value(const struct bm_named_int *table, size_t n, const char *name, int *value)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(name, table[i].name) == 0) {
			*value = table[i].value;
			return 1;
		}
	return 0;
}

const char *bm_named_name(const struct bm_named_int *table, size_t n, int value)
{
	for (size_t i = 0; i < n; i++)
		if (table[i].value == value)
			return table[i].name;
	return NULL;
}

int bm_param_get_md_name(const struct bm_prov *prov, const OSSL_PARAM *p,
			 const OSSL_PARAM *props_param, const char *what,
			 const char **name, const char **props)
{
	*name = *props = NULL;
	if (!OSSL_PARAM_get_utf8_string_ptr(p, name) ||
	    (props_param != NULL && !OSSL_PARAM_get_utf8_string_ptr(props_param, props))) {
		BM_ERR(prov, BM_R_INVALID_PARAM, "the %s must be a name", what);
		return 0;
	}
	return 1;
}

int bm_md_fixed_size(const EVP_MD *md)
{
	return (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) == 0 && EVP_MD_get_size(md) > 0;
}

int bm_md_rsa_sign_allowed(const EVP_MD *md)
{
	/* The default provider's list (ossl_digest_rsa_sign_get_md_nid):
	 * a signature under another digest (BLAKE2, SM3, ...) is one that
	 * its peers refuse to check. */
	static const char *const allowed[] = {
		"SHA1",	    "SHA2-224", "SHA2-256", "SHA2-384",	 "SHA2-512", "SHA2-512/224",
		"SHA2-512/256", "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512", "MD5",
		"MD5-SHA1", "MD2",	"MD4",	    "MDC2",	 "RIPEMD160",
	};
	for (size_t i = 0; i < BM_COUNT(allowed); i++)
		if (EVP_MD_is_a(md, allowed[i]))
			return 1;
	return 0;
}

int bm_param_fetch_md(const struct bm_prov *prov, EVP_MD **md,
		      const OSSL_PARAM *p, const OSSL_PARAM *props_param,
		      const char *what)
{
	const char *name, *props;
	if (!bm_param_get_md_name(prov, p, props_param, what, &name, &props))
		return 0;
	EVP_MD *fetched = EVP_MD_fetch(prov->libctx, name, props);
	if (fetched == NULL) {
		BM_ERR(prov, BM_R_DIGEST, "%s '%s' is not available", what, name);
		return 0;
	}
	/* An XOF at its default length is taken, as the default provider's
	 * OAEP takes SHAKE (the signatures' lists leave XOFs out); the NULL
	 * digest, of no output, is not: libcrypto's MGF1 would loop on it. */
	if (EVP_MD_get_size(fetched) <= 0) {
		BM_ERR(prov, BM_R_DIGEST, "%s '%s' is not allowed here", what,
		       EVP_MD_get0_name(fetched));
		EVP_MD_free(fetched);
		return 0;
	}
	EVP_MD_free(*md);
	*md = fetched;
	return 1;
}

int bm_param_set_md_name(OSSL_PARAM *p, const EVP_MD *md)
{
	return OSSL_PARAM_set_utf8_string(p, md != NULL ? EVP_MD_get0_name(md) : "");
}
