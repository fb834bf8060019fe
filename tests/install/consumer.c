/*
 * A program written against the installed package only: <bigmont/bignum.h>
 * and <bigmont/rsa.h>, linked through pkg-config or find_package(bigmont).
 * Usage: consumer KEY.pem — prints "ok" after private/public round trips,
 * one operation and a batch of five (rsa_private_batch, scratch of its
 * own size).
 */
#include <bigmont/bignum.h>
#include <bigmont/rsa.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what)
{
	fprintf(stderr, "consumer: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	/* The header carries the chunk size: no -D needed. */
	if (sizeof(BIG_CHUNK_TYPE) * 8 != BIG_CHUNK_SIZE)
		return fail("chunk type does not match BIG_CHUNK_SIZE");

	BIGNUM a, e, n, r;
	big_init(&a, 1), big_init(&e, 1), big_init(&n, 1), big_init(&r, 1);
	big_set_chunk(&a, 3), big_set_chunk(&e, 5), big_set_chunk(&n, 7);
	if (big_modexp(&r, &a, &e, &n, NULL) != BIG_OK || r.value[0] != 5)
		return fail("3^5 mod 7 != 5");
	big_finish(&a), big_finish(&e), big_finish(&n), big_finish(&r);

	if (argc != 2)
		return fail("usage: consumer KEY.pem");
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return fail("cannot open key");
	static char pem[65536];
	size_t len = fread(pem, 1, sizeof(pem), f);
	fclose(f);

	rsa_key *key;
	char err[256];
	if (rsa_key_load_pem(&key, pem, len, err, sizeof(err)) != 0)
		return fail(err);
	size_t k = rsa_key_size(key);
	uint8_t *m = calloc(k, 1), *c = calloc(k, 1), *back = calloc(k, 1);
	m[k - 1] = 42;
	if (rsa_public_raw(key, c, m, k) != 0 || rsa_private_raw(key, back, c, k) != 0 ||
	    memcmp(m, back, k) != 0)
		return fail("RSA round trip failed");

	enum { BATCH = 5 };
	const rsa_key *keys[BATCH];
	int status[BATCH];
	uint8_t *ms = calloc(BATCH, k), *cs = calloc(BATCH, k), *backs = calloc(BATCH, k);
	size_t scratch_size = rsa_private_batch_scratch_size(k);
	void *scratch = malloc(scratch_size);
	if (ms == NULL || cs == NULL || backs == NULL || scratch == NULL)
		return fail("out of memory");
	for (int i = 0; i < BATCH; i++) {
		keys[i] = key;
		ms[i * k + k - 1] = (uint8_t)(i + 2);
		ms[i * k + 1] = (uint8_t)(0x51 * i);
		if (rsa_public_raw(key, cs + i * k, ms + i * k, k) != 0)
			return fail("public operation failed");
	}
	if (rsa_private_batch(keys, backs, cs, k, BATCH, status, scratch, scratch_size) != 0 ||
	    memcmp(ms, backs, (size_t)BATCH * k) != 0)
		return fail("RSA batch round trip failed");
	rsa_key_free(key);
	free(m), free(c), free(back);
	free(ms), free(cs), free(backs), free(scratch);
	printf("ok: %s kernels, %d-bit chunks\n", big_cpu_variant_name(), BIG_CHUNK_SIZE);
	return 0;
}
