/*
 * The provider's key object (contracts in prov.h): a bigmont rsa_key built
 * once, at import, by rsa_key_from_numbers -- which runs the key checks and
 * the precomputation -- plus what OpenSSL asks of a key without using it
 * for arithmetic (the numbers for export and match, the size, the security
 * strength).  The private and public operations go to rsa_private_raw and
 * rsa_public_raw, nothing else.
 */
#include <string.h>

#include <openssl/crypto.h>

#include "prov.h"

struct bm_key *bm_key_new(struct bm_prov *prov)
{
	struct bm_key *key = OPENSSL_zalloc(sizeof(*key));
	if (key == NULL) {
		BM_ERR(prov, BM_R_NO_MEMORY, "allocating a key");
		return NULL;
	}
	key->prov = prov;
	atomic_init(&key->refs, 1);
	return key;
}

void bm_key_up_ref(struct bm_key *key)
{
	atomic_fetch_add_explicit(&key->refs, 1, memory_order_relaxed);
}

void bm_key_free(struct bm_key *key)
{
	/* acq_rel: the last owner sees every other owner's accesses done. */
	if (key == NULL || atomic_fetch_sub_explicit(&key->refs, 1, memory_order_acq_rel) != 1)
		return;
	rsa_key_free(key->rsa);
	bm_pad_rsa_free(key->pad_rsa);
	for (int i = 0; i < BM_NUM_COUNT; i++)
		BN_clear_free(key->num[i]);
	OPENSSL_free(key);
}

int bm_key_is_private(const struct bm_key *key)
{
	return key != NULL && key->rsa != NULL && rsa_key_is_private(key->rsa);
}

int bm_key_attach(struct bm_prov *prov, struct bm_key **slot, struct bm_key *key)
{
	if (key == NULL || key->rsa == NULL) {
		BM_ERR(prov, BM_R_KEY_INCOMPLETE, "no key");
		return 0;
	}
	bm_key_up_ref(key);
	bm_key_free(*slot);
	*slot = key;
	return 1;
}

int bm_key_ready(const struct bm_prov *prov, const struct bm_key *key, const char *op)
{
	if (key == NULL) {
		BM_ERR(prov, BM_R_KEY_INCOMPLETE, "%s without init", op);
		return 0;
	}
	return 1;
}

uint8_t *bm_key_block(const struct bm_key *key)
{
	uint8_t *block = OPENSSL_zalloc(key->size);
	if (block == NULL)
		BM_ERR(key->prov, BM_R_NO_MEMORY, "allocating a block");
	return block;
}

int bm_key_set_numbers(struct bm_key *key, const BIGNUM *const num[BM_NUM_COUNT])
{
	struct bm_prov *prov = key->prov;
	if (key->rsa != NULL) {
		BM_ERR(prov, BM_R_INVALID_PARAM, "the key already holds numbers");
		return 0;
	}
	if (num[BM_N] == NULL || num[BM_E] == NULL) {
		BM_ERR(prov, BM_R_KEY_REFUSED, "an RSA key needs n and e");
		return 0;
	}
	int is_private = num[BM_D] != NULL;
	/* rsa_key_from_numbers reads an empty number as one not given: a zero
	 * d would make a private key public without a word. */
	static const char *const private_names[] = { "d", "p", "q", "dP", "dQ", "qInv" };
	for (int i = BM_D; is_private && i < BM_NUM_COUNT; i++)
		if (num[i] != NULL && BN_is_zero(num[i])) {
			BM_ERR(prov, BM_R_KEY_REFUSED, "the private key's %s is 0",
			       private_names[i - BM_D]);
			return 0;
		}
	size_t total = 0;
	for (int i = 0; i < BM_NUM_COUNT; i++)
		if (num[i] != NULL && (i < BM_D || is_private))
			total += (size_t)BN_num_bytes(num[i]);
	uint8_t *bytes = OPENSSL_secure_malloc(total ? total : 1);
	if (bytes == NULL) {
		BM_ERR(prov, BM_R_NO_MEMORY, "allocating the key's numbers");
		return 0;
	}
	rsa_key_numbers numbers;
	rsa_number *dst[BM_NUM_COUNT] = { &numbers.n, &numbers.e, &numbers.d, &numbers.p,
					  &numbers.q, &numbers.dp, &numbers.dq, &numbers.qinv };
	size_t at = 0;
	for (int i = 0; i < BM_NUM_COUNT; i++) {
		dst[i]->bytes = bytes + at;
		dst[i]->len = 0;
		if (num[i] != NULL && (i < BM_D || is_private)) {
			dst[i]->len = (size_t)BN_bn2bin(num[i], bytes + at);
			at += dst[i]->len;
		}
	}
	/* Some of p, q, dP, dQ, qInv and not all (OpenSSL's default provider
	 * takes n, e, d, p, q and signs with them): the library takes all or
	 * none, so none, and it recovers p and q from n, e and d.  What was
	 * given is still what the key exports. */
	rsa_number *const crt[] = { &numbers.p, &numbers.q, &numbers.dp, &numbers.dq,
				    &numbers.qinv };
	int crt_given = 0;
	for (size_t i = 0; i < BM_COUNT(crt); i++)
		crt_given += crt[i]->len != 0;
	if (crt_given != 0 && crt_given != (int)BM_COUNT(crt))
		for (size_t i = 0; i < BM_COUNT(crt); i++)
			crt[i]->len = 0;
	char why[160] = "";
	int rc = rsa_key_from_numbers(&key->rsa, &numbers, why, sizeof(why));
	OPENSSL_secure_clear_free(bytes, total ? total : 1);
	if (rc != RSA_OK) {
		BM_ERR(prov, rc == RSA_ERR_NO_MEM ? BM_R_NO_MEMORY : BM_R_KEY_REFUSED, "%s",
		       why[0] ? why : rsa_strerror(rc));
		return 0;
	}
	for (int i = 0; i < BM_NUM_COUNT; i++) {
		if (num[i] == NULL || (i >= BM_D && !is_private))
			continue;
		key->num[i] = i < BM_D ? BN_dup(num[i]) : BN_secure_new();
		if (key->num[i] != NULL && i >= BM_D && BN_copy(key->num[i], num[i]) == NULL) {
			BN_clear_free(key->num[i]);
			key->num[i] = NULL;
		}
		if (key->num[i] == NULL)
			goto nomem;
	}
	key->pad_rsa = bm_pad_rsa_new(num[BM_N], num[BM_E]);
	if (key->pad_rsa == NULL)
		goto nomem;
	key->bits = rsa_key_bits(key->rsa);
	key->size = rsa_key_size(key->rsa);
	key->security_bits = bm_pad_security_bits(key->pad_rsa);
	return 1;
nomem:
	BM_ERR(prov, BM_R_NO_MEMORY, "copying the key's numbers");
	for (int i = 0; i < BM_NUM_COUNT; i++) {
		BN_clear_free(key->num[i]);
		key->num[i] = NULL;
	}
	bm_pad_rsa_free(key->pad_rsa);
	key->pad_rsa = NULL;
	rsa_key_free(key->rsa);
	key->rsa = NULL;
	return 0;
}

int bm_key_private(const struct bm_key *key, uint8_t *out, const uint8_t *in)
{
	if (!bm_key_is_private(key)) {
		BM_ERR(key ? key->prov : NULL, BM_R_KEY_INCOMPLETE,
		       "a private key is needed for this operation");
		return 0;
	}
	int rc = rsa_private_raw(key->rsa, out, in, key->size);
	if (rc != RSA_OK) {
		BM_ERR(key->prov, BM_R_PRIVATE_OP, "%s", rsa_strerror(rc));
		return 0;
	}
	atomic_fetch_add_explicit(&key->prov->private_ops, 1, memory_order_relaxed);
	return 1;
}

int bm_key_public(const struct bm_key *key, uint8_t *out, const uint8_t *in,
		  size_t inlen)
{
	if (key == NULL || key->rsa == NULL) {
		BM_ERR(key ? key->prov : NULL, BM_R_KEY_INCOMPLETE, "no key");
		return 0;
	}
	if (inlen > key->size) {
		BM_ERR(key->prov, BM_R_BAD_LENGTH, "input of %zu bytes for a %zu-byte modulus",
		       inlen, key->size);
		return 0;
	}
	uint8_t *block = bm_key_block(key);
	if (block == NULL)
		return 0;
	memcpy(block + key->size - inlen, in, inlen);
	int rc = rsa_public_raw(key->rsa, out, block, key->size);
	OPENSSL_free(block);
	if (rc != RSA_OK) {
		BM_ERR(key->prov, BM_R_PUBLIC_OP, "%s", rsa_strerror(rc));
		return 0;
	}
	return 1;
}
