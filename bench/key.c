/*
 * bench/key.c -- a benchmark key and its reference answer (contract in
 * key.h).
 */
#include "key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bigmont/bignum.h>

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

void bench_key_close(struct bench_key *k)
{
	bench_gmp_close(k->ref);
	bench_rsa_parts_free(&k->parts);
	free(k->in);
	free(k->want);
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
	return 0;
}
