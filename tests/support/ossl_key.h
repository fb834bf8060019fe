/*
 * OpenSSL as the independent reference for RSA keys: the numbers of a key
 * file as OpenSSL reads them, and OpenSSL's raw private operation, for
 * tests that must not trust bigmont's own parser or arithmetic.  Kept in
 * its own file because OpenSSL's BIGNUM and bigmont's BIGNUM cannot meet
 * in one translation unit.
 */
#ifndef BIGMONT_OSSL_KEY_H
#define BIGMONT_OSSL_KEY_H

#include <cstdint>
#include <string>
#include <vector>

namespace bt {

/* Hex (no prefix) of each component OpenSSL finds in a PEM or DER key;
 * private components are empty for a public key.  False (and `error`) if
 * OpenSSL cannot read it. */
struct OsslKey {
	std::string n, e, d, p, q, dp, dq, qinv;
};
bool ossl_read_key(const std::string &pem_or_der, OsslKey *out, std::string *error);

/* out = in^d mod n as OpenSSL computes it (EVP_PKEY_decrypt with
 * RSA_NO_PADDING) for the PEM or DER private key `key` (in is k bytes).
 * False with `error` if OpenSSL refuses. */
bool ossl_rsa_decrypt_raw(const std::string &key, const std::vector<uint8_t> &in,
			  std::vector<uint8_t> *out, std::string *error);

} // namespace bt

#endif
