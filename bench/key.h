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

#endif
