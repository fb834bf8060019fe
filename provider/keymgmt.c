/*
 * RSA key management (OSSL_OP_KEYMGMT): new/free, import and export of n,
 * e, d, p, q, dP, dQ, qInv, has, match, validate and the gettable key
 * parameters.
 *
 * Keys arrive by import: a key the default provider decoded (PEM, DER, a
 * certificate's public key) is exported from it and imported here the
 * first time an operation of this provider uses it; OpenSSL caches the
 * imported key in the EVP_PKEY, so the checks and the precomputation run
 * once per key, not per operation.  A key bigmont's checks refuse is
 * refused here, with the check's reason in the error.  Generation is
 * delegated (provider/keygen.c) and ends in the same import.  Two-prime
 * keys only.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

#include "prov.h"

static const char *const number_names[BM_NUM_COUNT] = {
	OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
	OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
	OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
	OSSL_PKEY_PARAM_RSA_COEFFICIENT1
};

#define NUMBER_PARAMS(private_list)                                   \
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),                \
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),                \
	private_list
#define PRIVATE_NUMBER_PARAMS                                         \
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_D, NULL, 0),                \
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR1, NULL, 0),          \
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_FACTOR2, NULL, 0),          \
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT1, NULL, 0),        \
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_EXPONENT2, NULL, 0),        \
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, NULL, 0),

static const OSSL_PARAM keypair_types[] = { NUMBER_PARAMS(PRIVATE_NUMBER_PARAMS) OSSL_PARAM_END };
static const OSSL_PARAM public_types[] = { NUMBER_PARAMS() OSSL_PARAM_END };
static const OSSL_PARAM no_types[] = { OSSL_PARAM_END };

static const OSSL_PARAM *key_types(int selection)
{
	if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
		return keypair_types;
	if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
		return public_types;
	return no_types;
}

static void *km_new(void *provctx) { return bm_key_new(provctx); }
static void km_free(void *keydata) { bm_key_free(keydata); }

static int km_has(const void *keydata, int selection)
{
	const struct bm_key *key = keydata;
	if (key == NULL)
		return 0;
	int ok = 1;
	if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
		ok = ok && key->rsa != NULL;
	if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
		ok = ok && bm_key_is_private(key);
	return ok;
}

/* Whether n = r^k for some integer r.  r = floor(n^(1/k)) by Newton's
 * steps x <- ((k - 1) x + n / x^(k-1)) / k from x = 2^ceil(b/k) (b the bits
 * of n), which decrease until they reach r. */
static int is_kth_power(const BIGNUM *n, int k, BN_CTX *ctx)
{
	const int bits = BN_num_bits(n);
	BN_CTX_start(ctx);
	BIGNUM *x = BN_CTX_get(ctx), *next = BN_CTX_get(ctx), *t = BN_CTX_get(ctx),
	       *exp = BN_CTX_get(ctx);
	int rc = -1;
	if (exp == NULL)
		goto out;
	BN_zero(x);
	if (!BN_set_bit(x, (bits + k - 1) / k) || !BN_set_word(exp, (BN_ULONG)k - 1))
		goto out;
	for (;;) {
		if (!BN_exp(t, x, exp, ctx) || !BN_div(next, NULL, n, t, ctx) || !BN_copy(t, x) ||
		    !BN_mul_word(t, (BN_ULONG)k - 1) || !BN_add(next, next, t) ||
		    BN_div_word(next, (BN_ULONG)k) == (BN_ULONG)-1)
			goto out;
		if (BN_cmp(next, x) >= 0)
			break;
		if (!BN_copy(x, next))
			goto out;
	}
	if (!BN_set_word(exp, (BN_ULONG)k) || !BN_exp(t, x, exp, ctx))
		goto out;
	rc = BN_cmp(t, n) == 0;
out:
	BN_CTX_end(ctx);
	return rc;
}

/* Trial division, for the few small numbers the check below needs. */
static int is_small_prime(unsigned v)
{
	if (v < 2)
		return 0;
	for (unsigned d = 2; d * d <= v; d++)
		if (v % d == 0)
			return 0;
	return 1;
}

/* The default provider's public-key check (SP 800-56B, 6.4.2.1) on n: no
 * prime factor below 752, not a prime, not a prime power (a prime power
 * with no factor below 752 has an exponent below bits / 9.5).  bigmont's
 * import checked n odd, e odd and above 1, and the size.  1 if n passes,
 * 0 if not, -1 on an error. */
static int public_modulus_passes(const struct bm_key *key)
{
	const BIGNUM *n = key->num[BM_N];
	BN_CTX *ctx = BN_CTX_new_ex(key->prov->libctx);
	if (ctx == NULL)
		return -1;
	BN_CTX_start(ctx);
	BIGNUM *small = BN_CTX_get(ctx), *gcd = BN_CTX_get(ctx);
	int rc = gcd != NULL && BN_one(small) ? 1 : -1;
	for (unsigned p = 3; rc == 1 && p < 752; p += 2)
		if (is_small_prime(p) && !BN_mul_word(small, p))
			rc = -1;
	if (rc == 1 && !BN_gcd(gcd, n, small, ctx))
		rc = -1;
	if (rc == 1 && !BN_is_one(gcd))
		rc = 0;
	if (rc == 1) {
		int prime = BN_check_prime(n, ctx, NULL);
		rc = prime < 0 ? -1 : !prime;
	}
	for (int k = 2; rc == 1 && k * 19 / 2 < BN_num_bits(n); k++) {
		int power = is_small_prime((unsigned)k) ? is_kth_power(n, k, ctx) : 0;
		rc = power < 0 ? -1 : !power;
	}
	BN_CTX_end(ctx);
	BN_CTX_free(ctx);
	return rc;
}

/* bigmont checked the key at import and refused it there if it was
 * inconsistent: a private key has passed its checks (p and q distinct
 * primes, p q = n, ...).  A public key passed only n and e odd and the
 * size, so its modulus gets the rest of the default provider's check. */
static int km_validate(const void *keydata, int selection, int checktype)
{
	(void)checktype;
	const struct bm_key *key = keydata;
	if (!km_has(keydata, selection))
		return 0;
	if (!(selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) || bm_key_is_private(key))
		return 1;
	int rc = public_modulus_passes(key);
	if (rc == 0)
		BM_ERR(key->prov, BM_R_INVALID_PARAM,
		       "the modulus is a prime, a prime power or has a factor below 752");
	else if (rc < 0)
		BM_ERR(key->prov, BM_R_INTERNAL, "checking the modulus");
	return rc == 1;
}

/* The default provider's rule: the public key (n, e) when asked for, else
 * d when both keys have one. */
/* As the default provider matches RSA keys: e always (RSA keys have no
 * domain parameters, so a parameters-only selection compares e and
 * matches a key with itself); with a key-pair selection, n where the
 * public key is asked for, else d, and one of them must be compared. */
static int km_match(const void *keydata1, const void *keydata2, int selection)
{
	const struct bm_key *a = keydata1, *b = keydata2;
	if (a->rsa == NULL || b->rsa == NULL)
		return 0;
	if (BN_cmp(a->num[BM_E], b->num[BM_E]) != 0)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
		return 1;
	if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
		return BN_cmp(a->num[BM_N], b->num[BM_N]) == 0;
	if (a->num[BM_D] != NULL && b->num[BM_D] != NULL)
		return BN_cmp(a->num[BM_D], b->num[BM_D]) == 0;
	return 0;
}

int bm_key_import(struct bm_key *key, int selection, const OSSL_PARAM params[])
{
	if (key == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
		return 1; /* RSA keys have no domain parameters */
	if (OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_FACTOR3) != NULL) {
		BM_ERR(key->prov, BM_R_KEY_REFUSED,
		       "multi-prime RSA keys are not supported by bigmont");
		return 0;
	}
	BIGNUM *num[BM_NUM_COUNT] = { NULL };
	int ok = 1;
	int last = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) ? BM_NUM_COUNT : BM_D;
	for (int i = 0; ok && i < last; i++) {
		const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, number_names[i]);
		if (p == NULL)
			continue;
		if (i >= BM_D)
			num[i] = BN_secure_new();
		if ((i >= BM_D && num[i] == NULL) || !OSSL_PARAM_get_BN(p, &num[i])) {
			BM_ERR(key->prov, BM_R_INVALID_PARAM, "cannot read the key number '%s'",
			       number_names[i]);
			ok = 0;
		}
	}
	if (ok)
		ok = bm_key_set_numbers(key, (const BIGNUM *const *)num);
	for (int i = 0; i < BM_NUM_COUNT; i++)
		BN_clear_free(num[i]);
	return ok;
}

static int km_import(void *keydata, int selection, const OSSL_PARAM params[])
{
	return bm_key_import(keydata, selection, params);
}

static const OSSL_PARAM *km_import_types(int selection) { return key_types(selection); }
static const OSSL_PARAM *km_export_types(int selection) { return key_types(selection); }

static int km_export(void *keydata, int selection, OSSL_CALLBACK *param_cb, void *cbarg)
{
	struct bm_key *key = keydata;
	if (key == NULL || key->rsa == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
		return 1;
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	int ok = bld != NULL;
	/* The public numbers go with any key-pair selection, as the default
	 * provider does: a private key is useless without them. */
	int last = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) ? BM_NUM_COUNT : BM_D;
	for (int i = 0; ok && i < last; i++)
		if (key->num[i] != NULL)
			ok = OSSL_PARAM_BLD_push_BN(bld, number_names[i], key->num[i]);
	OSSL_PARAM *params = ok ? OSSL_PARAM_BLD_to_param(bld) : NULL;
	ok = params != NULL && param_cb(params, cbarg);
	OSSL_PARAM_free(params); /* secret numbers sit in secure memory (BN_FLG_SECURE), wiped */
	OSSL_PARAM_BLD_free(bld);
	return ok;
}

static const OSSL_PARAM *km_gettable_params(void *provctx)
{
	static const OSSL_PARAM params[] = {
		OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
		NUMBER_PARAMS(PRIVATE_NUMBER_PARAMS)
		OSSL_PARAM_END
	};
	(void)provctx;
	return params;
}

static int km_get_params(void *keydata, OSSL_PARAM params[])
{
	struct bm_key *key = keydata;
	OSSL_PARAM *p;
	if (key == NULL || key->rsa == NULL)
		return 0;
	/* The default digest: what EVP_DigestSignInit uses when the caller
	 * names none. */
	if (!BM_PARAM_SET(p, params, OSSL_PKEY_PARAM_BITS, OSSL_PARAM_set_int, key->bits) ||
	    !BM_PARAM_SET(p, params, OSSL_PKEY_PARAM_SECURITY_BITS, OSSL_PARAM_set_int,
			  key->security_bits) ||
	    !BM_PARAM_SET(p, params, OSSL_PKEY_PARAM_MAX_SIZE, OSSL_PARAM_set_int, (int)key->size) ||
	    !BM_PARAM_SET(p, params, OSSL_PKEY_PARAM_DEFAULT_DIGEST, OSSL_PARAM_set_utf8_string,
			  "SHA256"))
		return 0;
	for (int i = 0; i < BM_NUM_COUNT; i++)
		if (key->num[i] != NULL &&
		    (p = OSSL_PARAM_locate(params, number_names[i])) != NULL &&
		    !OSSL_PARAM_set_BN(p, key->num[i]))
			return 0;
	return 1;
}

static const char *km_query_operation_name(int operation_id)
{
	(void)operation_id;
	return "RSA";
}

const OSSL_DISPATCH bm_keymgmt_functions[] = {
	{ OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))km_new },
	{ OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))km_free },
	{ OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))km_has },
	{ OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))km_validate },
	{ OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))km_match },
	{ OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))km_import },
	{ OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))km_import_types },
	{ OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))km_export },
	{ OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))km_export_types },
	{ OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))km_get_params },
	{ OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))km_gettable_params },
	{ OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))km_query_operation_name },
	{ OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))bm_gen_init },
	{ OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))bm_gen_set_params },
	{ OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))bm_gen_settable_params },
	{ OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))bm_gen },
	{ OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))bm_gen_cleanup },
	{ 0, NULL }
};
