/*
 * fuzz_key: libFuzzer target for the key reader (rsa_key_load_pem and
 * rsa_key_load_der on the same bytes).
 *
 * What must hold for every input: no crash, no leak, no out-of-bounds read
 * (ASan/UBSan abort on those); a rejected key leaves *key NULL with a
 * non-empty one-line reason; an accepted key is self-consistent.  For an
 * accepted private key that is proved by a round trip through the private
 * operation (fault check on): m -> m^e -> (m^e)^d must give m back and
 * report RSA_OK.  An accepted key's size, bits and format must agree.
 *
 * Keys above 4096 bits only get the cheap checks, so a mutation that grows
 * the modulus cannot stall the run.
 */
#include <bigmont/rsa.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUND_TRIP_MAX_BITS 4096

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_key: %s\n", what);
	abort();
}

static void check_rejected(int rc, const rsa_key *key, const char *err)
{
	if (key != NULL)
		fail("rejected key but *key is not NULL");
	if (rc >= 0)
		fail("NULL key with a non-negative status");
	if (err[0] == '\0' || strchr(err, '\n') != NULL)
		fail("rejection reason is empty or not one line");
}

/* m: a value below n derived from the input, so the fuzzer steers it too. */
static void message_below_n(uint8_t *m, size_t size, const uint8_t *data,
			    size_t len)
{
	memset(m, 0, size);
	for (size_t i = 1; i < size; i++)
		m[i] = len ? data[i % len] ^ (uint8_t)i : (uint8_t)i;
	/* The top byte of n is nonzero, so m[0] == 0 keeps m < n. */
}

static void check_accepted(rsa_key *key, const uint8_t *data, size_t len)
{
	size_t size = rsa_key_size(key);
	int bits = rsa_key_bits(key);
	if (bits < 512 || bits > 16384 || size != (size_t)(bits + 7) / 8)
		fail("accepted key with inconsistent size/bits");
	rsa_key_format_t format = rsa_key_format(key);
	int is_private = rsa_key_is_private(key);
	if (is_private != (format == RSA_FORMAT_PKCS1_PRIVATE ||
			   format == RSA_FORMAT_PKCS8_PRIVATE))
		fail("format and is_private disagree");
	uint8_t e[2048];
	size_t elen = rsa_key_public_exponent(key, e, sizeof(e));
	if (elen == 0 || e[0] == 0 || (e[elen - 1] & 1) == 0)
		fail("accepted key with an even, zero or unprintable exponent");

	uint8_t *m = malloc(size), *c = malloc(size), *back = malloc(size);
	if (!m || !c || !back)
		fail("out of memory");
	message_below_n(m, size, data, len);
	if (rsa_public_raw(key, c, m, size) != RSA_OK)
		fail("public operation failed on an accepted key");
	if (is_private && bits <= ROUND_TRIP_MAX_BITS) {
		if (rsa_key_fault_check(key) != 1)
			fail("fault check is not on by default");
		int rc = rsa_private_raw(key, back, c, size);
		if (rc != RSA_OK) {
			fprintf(stderr, "private operation: %s\n", rsa_strerror(rc));
			fail("private operation failed on an accepted key");
		}
		if (memcmp(back, m, size) != 0)
			fail("round trip m^e^d != m on an accepted key");
	} else if (!is_private) {
		if (rsa_private_raw(key, back, c, size) != RSA_ERR_NOT_PRIVATE)
			fail("private operation on a public key did not refuse");
	}
	free(m);
	free(c);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char err[256];
	rsa_key *key;

	for (int der = 0; der <= 1; der++) {
		key = (rsa_key *)(uintptr_t)1; /* must be overwritten */
		memset(err, 0, sizeof(err));
		/* A copy of exactly len bytes, so ASan sees any read past it. */
		uint8_t *copy = malloc(len ? len : 1);
		if (!copy)
			fail("out of memory");
		memcpy(copy, data, len);
		int rc = der ? rsa_key_load_der(&key, copy, len, err, sizeof(err))
			     : rsa_key_load_pem(&key, (const char *)copy, len,
						err, sizeof(err));
		if (rc == RSA_OK) {
			if (key == NULL)
				fail("RSA_OK but *key is NULL");
			check_accepted(key, data, len);
			rsa_key_free(key);
		} else {
			check_rejected(rc, key, err);
		}
		free(copy);
	}
	return 0;
}
