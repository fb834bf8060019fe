/*
 * The numbers of an RSA key file as OpenSSL reads them: an independent
 * reference for tests that must not trust bigmont's own parser.  Kept in
 * its own file because OpenSSL's BIGNUM and bigmont's BIGNUM cannot meet
 * in one translation unit.
 */
#ifndef BIGMONT_OSSL_KEY_H
#define BIGMONT_OSSL_KEY_H

#include <string>

namespace bt {

/* Hex (no prefix) of each component OpenSSL finds in a PEM or DER key;
 * private components are empty for a public key.  False (and `error`) if
 * OpenSSL cannot read it. */
struct OsslKey {
	std::string n, e, d, p, q, dp, dq, qinv;
};
bool ossl_read_key(const std::string &pem_or_der, OsslKey *out, std::string *error);

} // namespace bt

#endif
