/*
 * bench/emsa.c -- EMSA-PKCS1-v1_5 with SHA-256 (contract in emsa.h).
 */
#include "emsa.h"

#include <string.h>

static const uint8_t digest_info[19] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
	0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
};

int bench_emsa_sha256(uint8_t *em, size_t size, const uint8_t *digest)
{
	if (size < BENCH_EMSA_MIN_SIZE)
		return -1;
	size_t tail = sizeof(digest_info) + BENCH_SHA256_LEN;
	em[0] = 0x00;
	em[1] = 0x01;
	memset(em + 2, 0xff, size - tail - 3);
	em[size - tail - 1] = 0x00;
	memcpy(em + size - tail, digest_info, sizeof(digest_info));
	memcpy(em + size - BENCH_SHA256_LEN, digest, BENCH_SHA256_LEN);
	return 0;
}

const uint8_t *bench_emsa_sha256_digest(const uint8_t *em, size_t size)
{
	if (size < BENCH_EMSA_MIN_SIZE)
		return NULL;
	size_t tail = sizeof(digest_info) + BENCH_SHA256_LEN;
	if (em[0] != 0x00 || em[1] != 0x01 || em[size - tail - 1] != 0x00 ||
	    memcmp(em + size - tail, digest_info, sizeof(digest_info)) != 0)
		return NULL;
	for (size_t i = 2; i < size - tail - 1; i++)
		if (em[i] != 0xff)
			return NULL;
	return em + size - BENCH_SHA256_LEN;
}
