/*
 * A program written against the installed package only: <bigmont/bignum.h>
 * and <bigmont/rsa.h>, linked through pkg-config or find_package(bigmont).
 * Usage: consumer KEY.pem — prints "ok" after a private/public round trip.
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
	rsa_key_free(key);
	free(m), free(c), free(back);
	printf("ok: %s kernels, %d-bit chunks\n", big_cpu_variant_name(), BIG_CHUNK_SIZE);
	return 0;
}
