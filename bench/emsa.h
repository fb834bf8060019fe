/*
 * bench/emsa.h -- EMSA-PKCS1-v1_5 with SHA-256 (RFC 8017, 9.2): what a
 * PKCS #1 v1.5 signature is the raw private operation of.  An
 * implementation whose API signs rather than exponentiates (the wheel's,
 * wheel.h) is given this encoding as its input, and its signature is
 * checked against GMP's raw answer on it.
 */
#ifndef BIGMONT_BENCH_EMSA_H
#define BIGMONT_BENCH_EMSA_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_SHA256_LEN 32
/* 00 01, at least 8 bytes FF, 00, DigestInfo (19 bytes), the digest. */
#define BENCH_EMSA_MIN_SIZE (3 + 8 + 19 + BENCH_SHA256_LEN)

/* The encoding of digest in size bytes; -1 if size is below
 * BENCH_EMSA_MIN_SIZE. */
int bench_emsa_sha256(uint8_t *em, size_t size, const uint8_t *digest);
/* The digest inside an encoding of size bytes, or NULL when em is not one. */
const uint8_t *bench_emsa_sha256_digest(const uint8_t *em, size_t size);

#endif
