/*
 * bench/verify.c -- answers checked against GMP's before and after timing
 * (contract in verify.h).
 */
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECKS 4 /* 1, n - 1, a random value, the timed input */

static const char *const check_names[CHECKS] = { "1", "n-1", "random", "the timed one" };
/* For an implementation that signs or decrypts OAEP (impl.h, enum
 * bench_input): inputs of its kind for two seeds, then the timed one. */
#define KIND_CHECKS 3
static const char *const kind_check_names[KIND_CHECKS] = { "encoding 1", "encoding 2",
							    "the timed one" };

/* One implementation on one input: 0, or -1 with the reason in err. */
static int check_one(const struct bench_impl *im, const struct bench_key *k,
		     const uint8_t *in, const uint8_t *want, uint8_t *got,
		     const char *input_name, char *err, size_t errlen)
{
	memset(got, 0xa5, k->size);
	int st = im->ops->decrypt(im->h, got, in);
	if (st != 0) {
		const char *why = im->ops->strerror ? im->ops->strerror(im->h, st) : "error";
		snprintf(err, errlen, "%s failed on the key %s (%s); no numbers reported",
			 im->name, k->label, why);
		return -1;
	}
	if (memcmp(got, want, k->size) != 0) {
		snprintf(err, errlen, "%s gives a wrong result on the key %s (input %s; "
			 "it differs from GMP's%s); no numbers reported", im->name,
			 k->label, input_name,
			 im->ops->input == BENCH_INPUT_OAEP ? ", OAEP-decoded" : "");
		return -1;
	}
	return 0;
}

/* An implementation of another kind than raw against the answers of its
 * kind (key.h); in and want have room for KIND_CHECKS inputs. */
static int check_kind(const struct bench_impl *im, const struct bench_key *k,
		      uint8_t *in, uint8_t *want, uint8_t *got, char *err, size_t errlen)
{
	const size_t size = k->size;
	const int kind = im->ops->input;
	const uint8_t *timed_in, *timed_want;
	bench_key_timed(k, kind, &timed_in, &timed_want);
	if (timed_in == NULL) {
		snprintf(err, errlen, "%s: the key %s is too small for its input", im->name,
			 k->label);
		return -1;
	}
	char why[256];
	for (int c = 0; c < KIND_CHECKS - 1; c++)
		if (bench_key_make_kind_input(k, kind, in + c * size, want + c * size,
					      (uint64_t)c + 1, why, sizeof(why)) != 0) {
			snprintf(err, errlen, "%s: %s", im->name, why);
			return -1;
		}
	memcpy(in + (KIND_CHECKS - 1) * size, timed_in, size);
	memcpy(want + (KIND_CHECKS - 1) * size, timed_want, size);
	for (int c = 0; c < KIND_CHECKS; c++)
		if (check_one(im, k, in + c * size, want + c * size, got,
			      kind_check_names[c], err, errlen) != 0)
			return -1;
	return 0;
}

int bench_verify_before(const struct bench_lineup *l, const struct bench_key *k,
			char *err, size_t errlen)
{
	const size_t size = k->size;
	uint8_t *in = malloc(CHECKS * size), *want = malloc(CHECKS * size);
	uint8_t *got = malloc(size);
	int rc = -1;
	if (in == NULL || want == NULL || got == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memset(in, 0, size);
	in[size - 1] = 1;
	memcpy(in + size, k->parts.v[RSA_PART_N], size);
	in[2 * size - 1] -= 1; /* n is odd: no borrow */
	bench_key_make_input(k, in + 2 * size, 1);
	for (int c = 0; c < CHECKS - 1; c++)
		bench_gmp_decrypt(k->ref, want + c * size, in + c * size);
	memcpy(in + (CHECKS - 1) * size, k->in, size);
	memcpy(want + (CHECKS - 1) * size, k->want, size);
	for (int i = 0; i < l->n; i++) {
		if (l->impl[i].ops->input != BENCH_INPUT_RAW)
			continue;
		for (int c = 0; c < CHECKS; c++)
			if (check_one(&l->impl[i], k, in + c * size, want + c * size, got,
				      check_names[c], err, errlen) != 0)
				goto out;
	}
	for (int i = 0; i < l->n; i++)
		if (l->impl[i].ops->input != BENCH_INPUT_RAW &&
		    check_kind(&l->impl[i], k, in, want, got, err, errlen) != 0)
			goto out;
	rc = 0;
out:
	free(in);
	free(want);
	free(got);
	return rc;
}

int bench_verify_after(const struct bench_lineup *l, const struct bench_key *k,
		       char *err, size_t errlen)
{
	uint8_t *got = malloc(k->size);
	if (got == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < l->n && rc == 0; i++) {
		const uint8_t *in, *want;
		bench_key_timed(k, l->impl[i].ops->input, &in, &want);
		if (in == NULL || check_one(&l->impl[i], k, in, want, got, "the timed one",
					    err, errlen) != 0) {
			snprintf(err, errlen, "%s gave a wrong result after timing on the key %s",
				 l->impl[i].name, k->label);
			rc = -1;
		}
	}
	free(got);
	return rc;
}
