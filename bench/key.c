/*
 * bench/key.c -- a benchmark key and its reference answer (contract in
 * key.h).
 */
#include "key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bigmont/bignum.h>

#include "emsa.h"
#include "oaep.h"

void bench_key_make_input(const struct bench_key *k, uint8_t *in, uint64_t seed)
{
	uint64_t x = 0x9e3779b97f4a7c15u ^ seed;
	for (size_t i = 0; i < k->size; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		in[i] = (uint8_t)(x >> 24);
	}
	/* n's top byte is not zero (n has exactly size bytes). */
	in[0] = (uint8_t)(in[0] % k->parts.v[RSA_PART_N][0]);
}

/* The encoding of a digest: the tail of an input of the same seed (any
 * 32 bytes are a prehashed SHA-256 digest to the signer). */
static int make_emsa(const struct bench_key *k, uint8_t *in, uint64_t seed)
{
	if (k->size < BENCH_EMSA_MIN_SIZE)
		return -1;
	bench_key_make_input(k, in, seed);
	uint8_t digest[BENCH_SHA256_LEN];
	memcpy(digest, in + k->size - BENCH_SHA256_LEN, BENCH_SHA256_LEN);
	return bench_emsa_sha256(in, k->size, digest);
}

int bench_key_make_kind_input(const struct bench_key *k, int kind, uint8_t *in,
			      uint8_t *want, uint64_t seed, char *err, size_t errlen)
{
	const size_t size = k->size;
	uint8_t *em = malloc(size);
	int rc = -1;
	if (em == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (kind == BENCH_INPUT_EMSA) {
		if (make_emsa(k, in, seed) != 0) {
			snprintf(err, errlen, "the key %s is too small for a PKCS #1 v1.5 "
				 "SHA-256 signature", k->label);
			goto out;
		}
		if (bench_gmp_decrypt(k->ref, want, in) != 0 ||
		    bench_gmp_verify(k->ref, want, in) != 0) {
			snprintf(err, errlen, "GMP's signature on the key %s does not verify",
				 k->label);
			goto out;
		}
	} else if (kind == BENCH_INPUT_OAEP) {
		if (size < BENCH_OAEP_MIN_SIZE) {
			snprintf(err, errlen, "the key %s is too small for an OAEP SHA-256 "
				 "ciphertext of %d bytes", k->label, BENCH_OAEP_MSG_LEN);
			goto out;
		}
		bench_key_make_input(k, want, seed);
		memset(want, 0, size - BENCH_OAEP_MSG_LEN);
		const uint8_t *m = want + size - BENCH_OAEP_MSG_LEN;
		if (bench_oaep_encrypt(k->input.pem, k->input.len, m, in, size, err,
				       errlen) != 0)
			goto out;
		/* GMP vouches for the ciphertext: its raw answer decodes to m. */
		if (bench_gmp_decrypt(k->ref, em, in) != 0 ||
		    bench_gmp_verify(k->ref, em, in) != 0 ||
		    bench_oaep_decodes_to(em, size, m) != 0) {
			snprintf(err, errlen, "GMP's decryption of the OAEP ciphertext on the "
				 "key %s does not give its message", k->label);
			goto out;
		}
	} else {
		bench_key_make_input(k, in, seed);
		bench_gmp_decrypt(k->ref, want, in);
	}
	rc = 0;
out:
	free(em);
	return rc;
}

void bench_key_timed(const struct bench_key *k, int kind, const uint8_t **in,
		     const uint8_t **want)
{
	*in = kind == BENCH_INPUT_EMSA ? k->sig_in : kind == BENCH_INPUT_OAEP ? k->oaep_in : k->in;
	if (want != NULL)
		*want = kind == BENCH_INPUT_EMSA   ? k->sig_want
			: kind == BENCH_INPUT_OAEP ? k->oaep_want
						   : k->want;
}

void bench_key_close(struct bench_key *k)
{
	bench_gmp_close(k->ref);
	bench_rsa_parts_free(&k->parts);
	free(k->in);
	free(k->want);
	free(k->sig_in);
	free(k->sig_want);
	free(k->oaep_in);
	free(k->oaep_want);
	memset(k, 0, sizeof(*k));
}

/* Bit length of a big-endian key part (0 for zero). */
static int part_bits(const struct bench_rsa_parts *parts, int which)
{
	const uint8_t *v = parts->v[which];
	size_t len = parts->len[which], i = 0;
	while (i < len && v[i] == 0)
		i++;
	if (i == len)
		return 0;
	int bits = 8 * (int)(len - i);
	for (uint8_t top = v[i]; !(top & 0x80); top <<= 1)
		bits--;
	return bits;
}

int bench_key_open(struct bench_key *k, const char *label, const char *pem,
		   size_t len, char *err, size_t errlen)
{
	memset(k, 0, sizeof(*k));
	k->label = label;
	k->input = (struct bench_key_input){ .pem = pem, .len = len, .parts = &k->parts };
	char why[256];
	if (bench_ossl_parts(&k->parts, pem, len, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "cannot read the key %s: %s", label, why);
		return -1;
	}
	k->ref = bench_gmp_open(&k->parts, why, sizeof(why));
	if (k->ref == NULL) {
		snprintf(err, errlen, "the key %s: %s", label, why);
		bench_key_close(k);
		return -1;
	}
	k->size = bench_gmp_size(k->ref);
	k->bits = part_bits(&k->parts, RSA_PART_N);
	k->crt_path = big_modexp_crt_path(part_bits(&k->parts, RSA_PART_P),
					  part_bits(&k->parts, RSA_PART_Q));
	k->in = malloc(k->size);
	k->want = malloc(k->size);
	if (k->in == NULL || k->want == NULL) {
		snprintf(err, errlen, "out of memory");
		bench_key_close(k);
		return -1;
	}
	bench_key_make_input(k, k->in, 0);
	if (bench_gmp_decrypt(k->ref, k->want, k->in) != 0 ||
	    bench_gmp_verify(k->ref, k->want, k->in) != 0) {
		snprintf(err, errlen, "GMP's own result on the key %s does not verify",
			 label);
		bench_key_close(k);
		return -1;
	}
	/* The timed inputs of the implementations that sign or decrypt OAEP,
	 * where the key can hold them. */
	const struct { int kind; size_t min; uint8_t **in, **want; } kinds[] = {
		{ BENCH_INPUT_EMSA, BENCH_EMSA_MIN_SIZE, &k->sig_in, &k->sig_want },
		{ BENCH_INPUT_OAEP, BENCH_OAEP_MIN_SIZE, &k->oaep_in, &k->oaep_want },
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (k->size < kinds[i].min)
			continue;
		*kinds[i].in = malloc(k->size);
		*kinds[i].want = malloc(k->size);
		if (*kinds[i].in == NULL || *kinds[i].want == NULL) {
			snprintf(err, errlen, "out of memory");
			bench_key_close(k);
			return -1;
		}
		if (bench_key_make_kind_input(k, kinds[i].kind, *kinds[i].in, *kinds[i].want,
					      0, err, errlen) != 0) {
			bench_key_close(k);
			return -1;
		}
	}
	return 0;
}
