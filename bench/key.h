/*
 * bench/key.h -- one benchmark key as every step sees it: its PEM text and
 * numbers, GMP opened on it as the reference, and the input every
 * implementation is timed on with GMP's answer to it (verified by
 * re-encryption before anything is compared with it).
 */
#ifndef BIGMONT_BENCH_KEY_H
#define BIGMONT_BENCH_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "impl.h"

struct bench_key {
	const char *label;            /* "embedded:rsa2048.pem" or a path */
	struct bench_key_input input; /* input.parts points at parts below */
	struct bench_rsa_parts parts;
	struct bench_gmp *ref;
	size_t size;                  /* modulus bytes */
	int bits;                     /* modulus bits */
	const char *crt_path;         /* big_modexp_crt_path of its primes */
	uint8_t *in, *want;           /* the timed input; GMP's answer */
	/* The same for implementations that sign (impl.h, BENCH_INPUT_EMSA):
	 * an EMSA-PKCS1-v1_5 SHA-256 encoding; NULL if the key is too small. */
	uint8_t *sig_in, *sig_want;
	/* For those that decrypt OAEP (BENCH_INPUT_OAEP): a ciphertext and its
	 * message, right-aligned in zeros; NULL if the key is too small. */
	uint8_t *oaep_in, *oaep_want;
};

/* Read the key (OpenSSL parses it), open the reference and compute the
 * answer to the timed input.  0, or -1 with a reason in err. */
int bench_key_open(struct bench_key *k, const char *label, const char *pem,
		   size_t len, char *err, size_t errlen);
void bench_key_close(struct bench_key *k);

/* A deterministic input below n, the same bytes in every run and build
 * for a given seed (the timed input is seed 0). */
void bench_key_make_input(const struct bench_key *k, uint8_t *in,
			  uint64_t seed);
/* An input of the kind (enum bench_input) for seed, and the answer to it:
 * GMP's, verified by re-encryption (for OAEP, the message, which GMP's
 * answer must decode to).  0, or -1 with the reason in err. */
int bench_key_make_kind_input(const struct bench_key *k, int kind, uint8_t *in,
			      uint8_t *want, uint64_t seed, char *err, size_t errlen);
/* The input an implementation of that kind is timed on, and the answer
 * to it (want may be NULL); NULL when the key is too small for the kind. */
void bench_key_timed(const struct bench_key *k, int kind, const uint8_t **in,
		     const uint8_t **want);

#endif
