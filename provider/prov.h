/*
 * provider/prov.h -- the bigmont OpenSSL 3 provider's internal contracts:
 * the provider context, the key object, error raising, and the libcrypto
 * padding routines the operations call.
 *
 * OpenSSL's headers define their own BIGNUM, so no file here includes
 * <bigmont/bignum.h>: the provider talks to bigmont through <bigmont/rsa.h>
 * (opaque keys, big-endian bytes) only.
 *
 * Threads: a key is immutable once imported and may serve many operation
 * contexts at once; an operation context belongs to one thread at a time
 * (OpenSSL's rule).  The only state shared across threads on the hot path
 * is the provider's private-operation counter, one relaxed atomic add per
 * private operation, on a cache line of its own.
 */
#ifndef BIGMONT_PROVIDER_PROV_H
#define BIGMONT_PROVIDER_PROV_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include <bigmont/rsa.h>

/* The names OpenSSL knows RSA by, and this provider's property. */
#define BM_RSA_NAMES "RSA:rsaEncryption:1.2.840.113549.1.1.1"
#define BM_PROPERTIES "provider=bigmont"

/* Provider parameter: successful private-key operations (sign, decrypt)
 * since the provider was loaded, a uint64. */
#define BM_PARAM_PRIVATE_OPS "bigmont-private-ops"

struct bm_prov {
	const OSSL_CORE_HANDLE *handle;
	/* A child of the application's library context: digests for OAEP,
	 * MGF1, PSS and DigestInfo are fetched here, from whichever provider
	 * the application loaded. */
	OSSL_LIB_CTX *libctx;
	OSSL_FUNC_core_new_error_fn *new_error;
	OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
	OSSL_FUNC_core_vset_error_fn *vset_error;
	/* BIGMONT_PROVIDER_REPORT at load, or NULL: at unload the count is
	 * appended to this file, so a test can see what a separate process
	 * (openssl s_server) did. */
	char *report_path;
	/* On a cache line of its own: the fields above, which every thread
	 * reads (the error hooks, libctx), do not move with each add. */
	_Alignas(64) _Atomic uint64_t private_ops;
};

/* Reason codes of this provider's errors (strings in provider.c). */
enum {
	BM_R_KEY_REFUSED = 1,    /* the key failed bigmont's import checks */
	BM_R_KEY_INCOMPLETE,     /* no key, or a public key where a private is needed */
	BM_R_PRIVATE_OP,         /* rsa_private_raw failed (fault check, range...) */
	BM_R_PUBLIC_OP,          /* rsa_public_raw failed */
	BM_R_UNSUPPORTED,        /* a padding mode or combination bigmont does not offer */
	BM_R_INVALID_PARAM,      /* a parameter of the wrong type or value */
	BM_R_BAD_LENGTH,         /* an input or output buffer of the wrong length */
	BM_R_DIGEST,             /* a digest that cannot be fetched or used */
	BM_R_BAD_SIGNATURE,      /* verification failed */
	BM_R_NO_MEMORY,
	BM_R_INTERNAL            /* a libcrypto call that should not fail did */
};

/* Raise an error through the core's error functions: the reason's string
 * and a formatted detail ("key check failed: p*q != n"). */
void bm_raise(const struct bm_prov *prov, uint32_t reason, const char *file,
	      int line, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
#define BM_ERR(prov, reason, ...) \
	bm_raise((prov), (reason), __FILE__, __LINE__, __func__, __VA_ARGS__)

/* The key object of the RSA key management (provider/key.c). */
struct bm_key {
	struct bm_prov *prov;
	_Atomic int refs;  /* the key manager's reference and each context's */
	rsa_key *rsa;      /* bigmont's key; NULL until imported */
	/* libcrypto's RSA holding n and e only: the PSS routines read the
	 * modulus from it.  Never used for an RSA operation. */
	RSA *pad_rsa;
	/* n, e, d, p, q, dp, dq, qinv as imported (the private ones NULL for a
	 * public key): what export, match and get_params hand back. */
	BIGNUM *num[8];
	int bits, security_bits;
	size_t size;       /* modulus length in bytes */
};
enum { BM_N, BM_E, BM_D, BM_P, BM_Q, BM_DP, BM_DQ, BM_QINV, BM_NUM_COUNT };

struct bm_key *bm_key_new(struct bm_prov *prov);
void bm_key_up_ref(struct bm_key *key);
void bm_key_free(struct bm_key *key); /* drops one reference; NULL is a no-op */
/* Build the key from the numbers (index BM_N...; the private ones NULL for
 * a public key) through rsa_key_from_numbers: checks and precomputation
 * happen here, once.  1, or 0 with an error raised. */
int bm_key_set_numbers(struct bm_key *key, const BIGNUM *const num[BM_NUM_COUNT]);
int bm_key_is_private(const struct bm_key *key);
/* An operation context takes the key it is initialised with: *slot gets a
 * reference to key (its previous key released).  1, or 0 with an error
 * raised when key holds no numbers. */
int bm_key_attach(struct bm_prov *prov, struct bm_key **slot, struct bm_key *key);
/* out = in^d mod n (blinded, fault-checked: rsa_private_raw) for in of
 * key->size bytes; counts the operation.  1, or 0 with an error raised. */
int bm_key_private(const struct bm_key *key, uint8_t *out, const uint8_t *in);
/* out = in^e mod n, out key->size bytes; in of at most key->size bytes
 * (a shorter one is read with leading zeros, as libcrypto reads it).  1,
 * or 0 with an error raised. */
int bm_key_public(const struct bm_key *key, uint8_t *out, const uint8_t *in,
		  size_t inlen);
/* An operation's key check: 1 when the context has a key, else 0 with
 * "<op> without init" raised. */
int bm_key_ready(const struct bm_prov *prov, const struct bm_key *key, const char *op);
/* A zeroed key->size-byte block for an encoded message, or NULL with the
 * error raised; the caller frees it (OPENSSL_clear_free when secret). */
uint8_t *bm_key_block(const struct bm_key *key);

/* What the cipher's and the signature's operation contexts begin with
 * (provider/opctx.c): each is a struct with a struct bm_opctx as its first
 * member. */
struct bm_opctx {
	struct bm_prov *prov;
	struct bm_key *key;   /* from bm_key_attach at init */
	int pad_mode;         /* RSA_*_PADDING */
	/* The padding's digest: the cipher's OAEP digest (NULL: SHA-1), the
	 * signature's digest (NULL: the input is signed as it is). */
	EVP_MD *md;
	EVP_MD *mgf1_md;      /* NULL: md */
};
/* A zeroed context of size bytes, prov set; NULL with "allocating a <what>
 * context" raised. */
void *bm_opctx_new(void *provctx, size_t size, const char *what);
/* Drop the key and digest references of ctx (a context from bm_opctx_new
 * or _dup, what else it owns already freed) and free it; NULL is a no-op. */
void bm_opctx_free(void *ctx);
/* The duplicate of the size-byte context src: a byte copy with its own
 * references to the key and the digests, then copy_own(dst) replaces what
 * else dst shares with src by copies of its own (1, or 0 leaving NULL
 * where a copy failed).  NULL when anything fails, the partial copy freed
 * with freectx (the context's own free, which ends in bm_opctx_free). */
void *bm_opctx_dup(const void *src, size_t size, int (*copy_own)(void *dst),
		   void (*freectx)(void *ctx));
/* The MGF1 digest an operation uses: mgf1_md, else md. */
static inline const EVP_MD *bm_opctx_mgf1(const struct bm_opctx *op)
{
	return op->mgf1_md != NULL ? op->mgf1_md : op->md;
}
/* 1 when outsize >= need, else 0 with "<what> buffer of <outsize> bytes,
 * <need> needed" raised. */
int bm_out_fits(const struct bm_prov *prov, size_t outsize, size_t need, const char *what);

/* The key manager's import (provider/keymgmt.c): n, e and, when selection
 * has the private key, d and the CRT numbers, from params. */
int bm_key_import(struct bm_key *key, int selection, const OSSL_PARAM params[]);

/* Key generation, delegated to another provider (provider/keygen.c). */
void *bm_gen_init(void *provctx, int selection, const OSSL_PARAM params[]);
int bm_gen_set_params(void *genctx, const OSSL_PARAM params[]);
const OSSL_PARAM *bm_gen_settable_params(void *genctx, void *provctx);
void *bm_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg);
void bm_gen_cleanup(void *genctx);

/* Parameter helpers shared by the cipher and the signature (provider/params.c). */
/* The names an integer parameter may also be given by (a padding mode, a
 * salt length). */
struct bm_named_int {
	int value;
	const char *name;
};
#define BM_COUNT(array) (sizeof(array) / sizeof((array)[0]))
/* *value for name, looked up case-insensitively: 1, or 0 when unknown. */
int bm_named_value(const struct bm_named_int *table, size_t n, const char *name, int *value);
/* The name of value, or NULL. */
const char *bm_named_name(const struct bm_named_int *table, size_t n, int value);
/* The padding mode p gives, as an integer (RSA_*_PADDING) or a name
 * ("pkcs1", "oaep", "pss", "none", "x931"), into *mode when allowed (a
 * mask of BM_PAD(mode)) has it: 1, or 0 with "unknown padding mode" or
 * "padding mode <m> (<name>) is not offered for <use>" raised and *mode unchanged. */
#define BM_PAD(mode) (1u << (mode))
int bm_param_get_pad_mode(const struct bm_prov *prov, const OSSL_PARAM *p,
			  unsigned int allowed, const char *use, int *mode);
int bm_param_set_pad_mode(OSSL_PARAM *p, int mode);
/* The digest name the UTF-8 parameter p gives, and the properties
 * props_param gives (props_param may be NULL: *props = NULL): 1, or 0 with
 * "the <what> must be a name" raised. */
int bm_param_get_md_name(const struct bm_prov *prov, const OSSL_PARAM *p,
			 const OSSL_PARAM *props_param, const char *what,
			 const char **name, const char **props);
/* Whether md has a fixed, non-zero output size: not an XOF, not the "NULL"
 * digest, whose empty output would make MGF1 loop for ever (libcrypto's
 * PKCS1_MGF1).  Every digest the padding schemes take must be one. */
int bm_md_fixed_size(const EVP_MD *md);
/* 1 when the default provider takes md for an RSA signature (its digest or
 * PSS's MGF1 digest), else 0. */
int bm_md_rsa_sign_allowed(const EVP_MD *md);
/* Fetch the digest named by the UTF-8 parameter p, with properties from
 * props_param (may be NULL), and one with a non-zero output size (an XOF
 * at its default length, as the default provider's OAEP takes SHAKE; not
 * the "NULL" digest: else "<what> '<name>' is not allowed here"); replaces
 * *md.  1, or 0 with an error raised.  The signatures' callers filter
 * further (bm_md_fixed_size, bm_md_rsa_sign_allowed). */
int bm_param_fetch_md(const struct bm_prov *prov, EVP_MD **md,
		      const OSSL_PARAM *p, const OSSL_PARAM *props_param,
		      const char *what);
/* Set p (UTF-8) to the digest's name, or "" without one. */
int bm_param_set_md_name(OSSL_PARAM *p, const EVP_MD *md);
/* The step every get_params repeats: when the caller asks for key, set it
 * with set(p, ...).  False only when setting fails; p is the caller's
 * OSSL_PARAM * cursor, left at params[key]. */
#define BM_PARAM_SET(p, params, key, set, ...) \
	((((p) = OSSL_PARAM_locate((params), (key))) == NULL) || set((p), __VA_ARGS__))
/* The step every set_params repeats: when the caller gives key, read it
 * into dst with get(p, dst).  False only when reading fails, with msg
 * raised as BM_R_INVALID_PARAM; p is the caller's const OSSL_PARAM *
 * cursor, left at params[key]. */
#define BM_PARAM_GET(prov, p, params, key, get, dst, msg) \
	((((p) = OSSL_PARAM_locate_const((params), (key))) == NULL) || get((p), (dst)) || \
	 (BM_ERR((prov), BM_R_INVALID_PARAM, "%s", (msg)), 0))

/* libcrypto's RSA padding routines (provider/padding.c, the only file
 * that uses libcrypto's deprecated RSA API).  Each returns what the
 * routine it wraps returns, and leaves the error the routine raised. */
RSA *bm_pad_rsa_new(const BIGNUM *n, const BIGNUM *e);
void bm_pad_rsa_free(RSA *rsa);
int bm_pad_security_bits(const RSA *rsa);
int bm_pad_none(uint8_t *em, int k, const uint8_t *in, int inlen);
int bm_pad_pkcs1_type1(uint8_t *em, int k, const uint8_t *in, int inlen);
int bm_unpad_pkcs1_type1(uint8_t *out, int outsize, const uint8_t *em, int k);
int bm_pad_pkcs1_type2(uint8_t *em, int k, const uint8_t *in, int inlen);
int bm_unpad_pkcs1_type2(uint8_t *out, int outsize, const uint8_t *em, int k);
int bm_pad_oaep(uint8_t *em, int k, const uint8_t *in, int inlen,
		const uint8_t *label, int labellen, const EVP_MD *md,
		const EVP_MD *mgf1);
int bm_unpad_oaep(uint8_t *out, int outsize, const uint8_t *em, int k,
		  const uint8_t *label, int labellen, const EVP_MD *md,
		  const EVP_MD *mgf1);
int bm_pad_pss(const struct bm_key *key, uint8_t *em, const uint8_t *mhash,
	       const EVP_MD *md, const EVP_MD *mgf1, int saltlen);
int bm_verify_pss(const struct bm_key *key, const uint8_t *mhash,
		  const EVP_MD *md, const EVP_MD *mgf1, const uint8_t *em,
		  int saltlen);

/* The TLS premaster secret check of RSA_PKCS1_WITH_TLS_PADDING
 * (provider/tls_premaster.c). */
int bm_tls_premaster(const struct bm_prov *prov, uint8_t *out, size_t outsize,
		     const uint8_t *em, size_t k, unsigned int client_version,
		     unsigned int alt_version);

/* DigestInfo (RFC 8017 9.2 step 2) of a digest value (provider/digest_info.c):
 * *der is OPENSSL_malloc'ed, *derlen bytes.  For MD5-SHA1 (TLS 1.0/1.1)
 * the digest itself, as RSA_sign does.  1, or 0 with an error raised. */
int bm_digest_info(const struct bm_prov *prov, uint8_t **der, size_t *derlen,
		   const EVP_MD *md, const uint8_t *digest, size_t digestlen);

extern const OSSL_DISPATCH bm_keymgmt_functions[];
extern const OSSL_DISPATCH bm_asym_cipher_functions[];
extern const OSSL_DISPATCH bm_signature_functions[];

#endif
