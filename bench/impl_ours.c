/*
 * bench/impl_ours.c -- our RSA private operation (rsa_private_raw) behind
 * the benchmark's ops table.  The fault check stays at the library's
 * default (on); blinding is set as the mode asks.
 */
#include "impl.h"

#include <stdio.h>

#include <bigmont/rsa.h>

static void ours_close(void *h)
{
	rsa_key_free(h);
}

static void *ours_open(const struct bench_key_input *in, int blinding, char *err,
		       size_t errlen)
{
	rsa_key *key = NULL;
	char why[200] = "";
	int rc = rsa_key_load_pem(&key, in->pem, in->len, why, sizeof(why));
	if (rc != RSA_OK) {
		snprintf(err, errlen, "our library cannot load the key: %s (%s)",
			 why[0] ? why : "no detail", rsa_strerror(rc));
		return NULL;
	}
	if (!rsa_key_is_private(key)) {
		snprintf(err, errlen, "the key is public; a private key is needed");
		ours_close(key);
		return NULL;
	}
	rc = rsa_key_set_blinding(key, blinding);
	if (rc != RSA_OK) {
		snprintf(err, errlen, "rsa_key_set_blinding(key, %d): %s", blinding,
			 rsa_strerror(rc));
		ours_close(key);
		return NULL;
	}
	return key;
}

static int ours_decrypt_shared(const void *h, uint8_t *out, const uint8_t *in)
{
	return rsa_private_raw(h, out, in, rsa_key_size(h));
}

static int ours_decrypt(void *h, uint8_t *out, const uint8_t *in)
{
	return ours_decrypt_shared(h, out, in);
}

static int ours_blinding(const void *h) { return rsa_key_blinding(h); }
static const char *ours_strerror(const void *h, int status)
{
	(void)h;
	return rsa_strerror(status);
}
static int ours_fault_check(const void *h) { return rsa_key_fault_check(h); }

const struct bench_impl_ops bench_ours_ops = {
	.open = ours_open, .decrypt = ours_decrypt, .decrypt_shared = ours_decrypt_shared,
	.blinding = ours_blinding, .fault_check = ours_fault_check, .strerror = ours_strerror,
	.close = ours_close,
};
