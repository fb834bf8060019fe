/*
 * bm_tls_premaster: the server side of TLS 1.0-1.2 RSA key exchange
 * (RSA_PKCS1_WITH_TLS_PADDING; RFC 5246 7.4.7.1).  em is the decrypted
 * block of k bytes: 0x00 0x02, at least eight non-zero bytes, 0x00, then a
 * 48-byte premaster secret whose first two bytes are the client's offered
 * version (or, when alt_version is non-zero, the negotiated one -- the
 * SSL_OP_TLS_ROLLBACK_BUG allowance).  out gets those 48 bytes when all of
 * that holds and 48 fresh random bytes otherwise, and the function
 * succeeds either way: a server that told the two apart would be
 * Bleichenbacher's padding oracle, and one that told a bad version apart
 * would be Klima, Pokorny and Rosa's version oracle.
 *
 * Why this check is written here and not called from libcrypto: libcrypto
 * 3.0 keeps it internal (ossl_rsa_padding_check_PKCS1_type_2_TLS, used by
 * the default provider only), and the public RSA_padding_check_PKCS1_type_2
 * returns its verdict, which the caller would then have to branch on.  This
 * is the same computation as libcrypto's.
 *
 * Constant time in the contents of em: every byte is read, the verdict is
 * a mask, and the copy selects by mask.  The only branches are on k,
 * outsize and the versions, which are public.
 */
#include <openssl/rand.h>

#include "prov.h"

#define PREMASTER_LEN 48

/* All ones if x == 0, else 0 (x a byte). */
static unsigned int ct_is_zero(unsigned int x) { return 0u - ((x - 1u) >> 31 & 1u); }
static unsigned int ct_eq(unsigned int a, unsigned int b) { return ct_is_zero(a ^ b); }

int bm_tls_premaster(const struct bm_prov *prov, uint8_t *out, size_t outsize,
		     const uint8_t *em, size_t k, unsigned int client_version,
		     unsigned int alt_version)
{
	uint8_t random[PREMASTER_LEN];
	if (outsize < PREMASTER_LEN) {
		BM_ERR(prov, BM_R_BAD_LENGTH, "the premaster buffer holds %zu bytes, not 48",
		       outsize);
		return 0;
	}
	if (k < RSA_PKCS1_PADDING_SIZE + PREMASTER_LEN) {
		BM_ERR(prov, BM_R_BAD_LENGTH, "a %zu-byte modulus cannot carry a premaster secret",
		       k);
		return 0;
	}
	if (RAND_priv_bytes_ex(prov->libctx, random, sizeof(random), 0) <= 0) {
		BM_ERR(prov, BM_R_INTERNAL, "no random bytes for the premaster secret");
		return 0;
	}
	const size_t msg = k - PREMASTER_LEN; /* where the premaster starts */
	unsigned int good = ct_is_zero(em[0]) & ct_eq(em[1], 2);
	for (size_t i = 2; i < msg - 1; i++)
		good &= ~ct_is_zero(em[i]);
	good &= ct_is_zero(em[msg - 1]);

	unsigned int version_good = ct_eq(em[msg], (client_version >> 8) & 0xff) &
				    ct_eq(em[msg + 1], client_version & 0xff);
	if (alt_version != 0)
		version_good |= ct_eq(em[msg], (alt_version >> 8) & 0xff) &
				ct_eq(em[msg + 1], alt_version & 0xff);
	good &= version_good;

	for (size_t i = 0; i < PREMASTER_LEN; i++)
		out[i] = (uint8_t)((em[msg + i] & good) | (random[i] & ~good));
	OPENSSL_cleanse(random, sizeof(random));
	return 1;
}
