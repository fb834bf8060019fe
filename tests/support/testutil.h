/*
 * Shared test helpers: a seeded generator (the seed is printed once per
 * process; BIGMONT_TEST_SEED=<n> replays it), random-density operands, and
 * conversions between BIGNUM / chunk vectors and GMP.
 */
#ifndef BIGMONT_TESTUTIL_H
#define BIGMONT_TESTUTIL_H

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <gmp.h>

#include "internal.h"

namespace bt {

using chunk = BIG_CHUNK_TYPE;
constexpr int kChunkBits = BIG_CHUNK_SIZE;

/* The process-wide seed: BIGMONT_TEST_SEED or a fresh one, printed once. */
uint64_t seed();

/* Random case count scaled by BIGMONT_TEST_SCALE (at least 1). */
long scaled(long n);

/* The lengths a test walks: every one from 1 to up_to, then each of more. */
std::vector<int> lengths(int up_to, std::initializer_list<int> more);

/* xoshiro256** seeded from seed() mixed with a per-test salt, so every test
 * replays on its own from the printed seed. */
class Rng {
public:
	explicit Rng(uint64_t salt = 0);
	uint64_t next();
	uint64_t below(uint64_t n); /* uniform in [0, n), n > 0 */
	chunk chunk_any() { return static_cast<chunk>(next()); }
	/* Random density: long runs of 0s and 1s, or plain random bits, or
	 * all-zeros / all-ones chunks, chosen per call. */
	void fill(chunk *v, int len);
	std::vector<chunk> vec(int len);
	/* A "special" digit: 0, 1, 2, MAX-1, MAX or random. */
	chunk digit();
	/* A random number of exactly `bits` bits (top bit set), random density. */
	void mpz_bits(mpz_t out, int bits);
	/* A random prime of exactly `bits` bits (bits >= 2). */
	void mpz_prime(mpz_t out, int bits);
	/* Random primes p of pbits and q of qbits bits, q != p. */
	void mpz_prime_pair(mpz_t p, mpz_t q, int pbits, int qbits);

private:
	uint64_t s_[4];
};

/* Conversions.  from_mpz sizes the BIGNUM to fit (big_init'ed by the
 * caller or not: it calls big_init itself when init is true). */
void to_mpz(mpz_t out, const BIGNUM *bn);
void to_mpz(mpz_t out, const chunk *v, int len);
void from_mpz(BIGNUM *bn, const mpz_t in); /* bn already initialised */
std::vector<chunk> chunks_of(const mpz_t in, int len); /* zero-padded */
std::string hex(const mpz_t v);
std::string hex(const BIGNUM *bn);
std::string hex(const std::vector<chunk> &v);

/* RAII BIGNUM for tests. */
struct Big {
	BIGNUM b;
	explicit Big(int size = 1);
	explicit Big(const mpz_t v);
	~Big();
	Big(const Big &) = delete;
	Big &operator=(const Big &) = delete;
	BIGNUM *operator&() { return &b; }
	BIGNUM *get() { return &b; }
};

/* RAII mpz_t. */
struct Mpz {
	mpz_t v;
	Mpz() { mpz_init(v); }
	~Mpz() { mpz_clear(v); }
	Mpz(const Mpz &) = delete;
	Mpz &operator=(const Mpz &) = delete;
	operator mpz_ptr() { return v; }
	operator mpz_srcptr() const { return v; }
};

/* Contents of a file under tests/data (empty string and ADD_FAILURE if
 * unreadable). */
std::string read_data_file(const std::string &relative);
std::string data_path(const std::string &relative);

} // namespace bt

#endif
