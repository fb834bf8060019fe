/*
 * Helpers for the blinding tests (tests/test_blinding.cpp,
 * tests/test_threads.cpp): a loaded private key with its numbers as
 * OpenSSL reads them, one private operation checked against GMP, and the
 * calling thread's current blinding pair through the internal test hook
 * (rsa_blinding_pair_for_test, rsa/rsa_internal.h).
 */
#ifndef BIGMONT_BLIND_PROBE_H
#define BIGMONT_BLIND_PROBE_H

#include <string>

#include <bigmont/rsa.h>

#include "testutil.h"

namespace bt {

/* keys/<file> loaded by bigmont (key) and read by OpenSSL (n, e, d). */
struct RefKey {
	rsa_key *key = nullptr;
	Mpz n, e, d;
	size_t size = 0;
	RefKey() = default;
	RefKey(const RefKey &) = delete;
	RefKey &operator=(const RefKey &) = delete;
	~RefKey() { rsa_key_free(key); }
};
/* False with `error` if either reader refuses the file. */
bool load_ref_key(const std::string &file, RefKey *k, std::string *error);

/* One rsa_private_raw on a random input below n; its status, and *correct
 * = the result equals GMP's c^d mod n. */
int checked_private_op(const RefKey &k, Rng &rng, bool *correct);

/* The calling thread's current blinding factor r^-1 mod n for k.key, as
 * hex, or "" if the thread holds no pair for it.  *pair_ok = the pair
 * matches: r^e * (r^-1)^e == 1 (mod n). */
std::string blind_factor(const RefKey &k, bool *pair_ok);

} // namespace bt

#endif
