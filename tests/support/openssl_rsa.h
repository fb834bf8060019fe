/*
 * OpenSSL's raw RSA private operation (EVP_PKEY_decrypt with
 * RSA_NO_PADDING) on a key file's bytes: the reference tests/test_rsa.cpp
 * compares rsa_private_raw with.  Its own translation unit because
 * OpenSSL's BIGNUM and bigmont's cannot meet in one.
 */
#ifndef BIGMONT_OPENSSL_RSA_H
#define BIGMONT_OPENSSL_RSA_H

#include <cstdint>
#include <string>
#include <vector>

namespace bt {

/* out = in^d mod n as OpenSSL computes it for the PEM or DER private key
 * `key` (in is k bytes).  False with `error` if OpenSSL refuses. */
bool ossl_rsa_decrypt_raw(const std::string &key, const std::vector<uint8_t> &in,
			  std::vector<uint8_t> *out, std::string *error);

} // namespace bt

#endif
