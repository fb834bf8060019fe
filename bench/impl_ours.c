/*
 * bench/impl_ours.c -- our RSA private operation (rsa_private_raw) behind
 * the benchmark's plain-bytes interface.  The fault check stays at the
 * library's default (on); blinding is set as asked, and a library that
 * refuses the setting is reported as such, not as a failure.
 */
#include "impl.h"

#include <stdio.h>
#include <stdlib.h>

#include <bigmont/rsa.h>

struct bench_ours {
	rsa_key *key;
};

struct bench_ours *bench_ours_open(const char *pem, size_t len, int blinding,
				   int *refused, char *err, size_t errlen)
{
	*refused = 0;
	struct bench_ours *o = calloc(1, sizeof(*o));
	if (o == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	char why[200] = "";
	int rc = rsa_key_load_pem(&o->key, pem, len, why, sizeof(why));
	if (rc != RSA_OK) {
		snprintf(err, errlen, "bigmont: cannot load the key: %s (%s)",
			 why[0] ? why : "no detail", rsa_strerror(rc));
		free(o);
		return NULL;
	}
	if (!rsa_key_is_private(o->key)) {
		snprintf(err, errlen, "the key is public; a private key is needed");
		bench_ours_close(o);
		return NULL;
	}
	rc = rsa_key_set_blinding(o->key, blinding);
	if (rc != RSA_OK) {
		*refused = 1;
		snprintf(err, errlen, "rsa_key_set_blinding(key, %d): %s",
			 blinding, rsa_strerror(rc));
		bench_ours_close(o);
		return NULL;
	}
	return o;
}

size_t bench_ours_size(const struct bench_ours *o) { return rsa_key_size(o->key); }
int bench_ours_bits(const struct bench_ours *o) { return rsa_key_bits(o->key); }

int bench_ours_decrypt(const struct bench_ours *o, uint8_t *out,
		       const uint8_t *in)
{
	return rsa_private_raw(o->key, out, in, rsa_key_size(o->key));
}

int bench_ours_fault_check(const struct bench_ours *o)
{
	return rsa_key_fault_check(o->key);
}

int bench_ours_blinding(const struct bench_ours *o)
{
	return rsa_key_blinding(o->key);
}

const char *bench_ours_strerror(int status) { return rsa_strerror(status); }

void bench_ours_close(struct bench_ours *o)
{
	if (o == NULL)
		return;
	rsa_key_free(o->key);
	free(o);
}
