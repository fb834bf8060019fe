/*
 * bench/oaep.h -- RSAES-OAEP with SHA-256 and MGF1-SHA-256, empty label
 * (RFC 8017, 7.1), by the system's OpenSSL: the ciphertexts an
 * implementation whose API decrypts OAEP (the wheel's, wheel.h) is timed
 * on.  Its answer is the message, which OAEP's own check makes right only
 * if the private operation under it was; GMP's raw answer on the same
 * ciphertext must decode to the same message.
 */
#ifndef BIGMONT_BENCH_OAEP_H
#define BIGMONT_BENCH_OAEP_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_OAEP_MSG_LEN 32 /* an AES-256 key, what OAEP usually carries */
/* The smallest modulus that holds it: 2 hashes, 2 bytes, the message. */
#define BENCH_OAEP_MIN_SIZE (2 * 32 + 2 + BENCH_OAEP_MSG_LEN)

/* c (size bytes, the modulus length): m encrypted to the key in pem.  0,
 * or -1 with the reason in err. */
int bench_oaep_encrypt(const char *pem, size_t len, const uint8_t *m, uint8_t *c,
		       size_t size, char *err, size_t errlen);
/* 0 if em (size bytes, a raw private-key result) is the OAEP encoding of
 * the BENCH_OAEP_MSG_LEN bytes m; -1 otherwise. */
int bench_oaep_decodes_to(const uint8_t *em, size_t size, const uint8_t *m);

#endif
