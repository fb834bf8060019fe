/*
 * bench/impl.h -- the implementations `bigmont speed` times, each behind
 * plain bytes so that GMP, OpenSSL and our library never meet in one
 * translation unit (OpenSSL's BIGNUM and ours share a name).
 *
 * Every decrypt is the raw RSA private operation, out = in^d mod n, with
 * in and out the modulus length in bytes, big-endian.  All return 0 on
 * success; the *_open functions return NULL and a one-line reason in err.
 */
#ifndef BIGMONT_BENCH_IMPL_H
#define BIGMONT_BENCH_IMPL_H

#include <stddef.h>
#include <stdint.h>

/* The numbers of a private key, big-endian, as the PKCS #1 structure
 * holds them. */
enum { RSA_PART_N, RSA_PART_E, RSA_PART_D, RSA_PART_P, RSA_PART_Q,
       RSA_PART_DP, RSA_PART_DQ, RSA_PART_QINV, RSA_PART_COUNT };
struct bench_rsa_parts {
	uint8_t *v[RSA_PART_COUNT]; /* malloc'd */
	size_t len[RSA_PART_COUNT];
};
void bench_rsa_parts_free(struct bench_rsa_parts *parts);

/* ---- OpenSSL (impl_openssl.c) ------------------------------------------ */
enum bench_ossl_mode {
	BENCH_OSSL_EVP = 0,     /* EVP_PKEY_decrypt, RSA_NO_PADDING, its default
				 * blinding; one context reused */
	BENCH_OSSL_NOBLIND = 1, /* RSA_private_decrypt on the key with
				 * RSA_blinding_off */
};
struct bench_ossl;
/* Parse a private key (any PEM OpenSSL reads) into its numbers. */
int bench_ossl_parts(struct bench_rsa_parts *parts, const char *pem,
		     size_t len, char *err, size_t errlen);
struct bench_ossl *bench_ossl_open(const char *pem, size_t len,
				   enum bench_ossl_mode mode, char *err,
				   size_t errlen);
size_t bench_ossl_size(const struct bench_ossl *k);
int bench_ossl_decrypt(struct bench_ossl *k, uint8_t *out, const uint8_t *in);
/* The way applications share a key between threads: one EVP_PKEY, a
 * fresh EVP_PKEY_CTX per operation.  Thread-safe (EVP mode only). */
int bench_ossl_decrypt_shared(const struct bench_ossl *k, uint8_t *out,
			      const uint8_t *in);
void bench_ossl_close(struct bench_ossl *k);
/* "OpenSSL 3.0.19 27 Jan 2026" */
const char *bench_ossl_version(void);

/* ---- GMP (impl_gmp.c) --------------------------------------------------- */
struct bench_gmp;
struct bench_gmp *bench_gmp_open(const struct bench_rsa_parts *parts,
				 char *err, size_t errlen);
size_t bench_gmp_size(const struct bench_gmp *g);
/* CRT with mpz_powm and Garner, as gmpbench's rsa does. */
int bench_gmp_decrypt(struct bench_gmp *g, uint8_t *out, const uint8_t *in);
/* 0 if out^e mod n == in and out < n: proves GMP's own answer. */
int bench_gmp_verify(struct bench_gmp *g, const uint8_t *out,
		     const uint8_t *in);
void bench_gmp_close(struct bench_gmp *g);
const char *bench_gmp_version(void);

/* ---- ours (impl_ours.c) ------------------------------------------------- */
struct bench_ours;
/* blinding: 0 off, 1 on.  Fails (NULL, reason in err) if the key does not
 * load or the library refuses the blinding setting; *refused is then set
 * to 1 when only the option was refused (report "n/a", not an error). */
struct bench_ours *bench_ours_open(const char *pem, size_t len, int blinding,
				   int *refused, char *err, size_t errlen);
size_t bench_ours_size(const struct bench_ours *o);
int bench_ours_bits(const struct bench_ours *o);
int bench_ours_decrypt(const struct bench_ours *o, uint8_t *out,
		       const uint8_t *in);
int bench_ours_fault_check(const struct bench_ours *o);
int bench_ours_blinding(const struct bench_ours *o);
const char *bench_ours_strerror(int status);
void bench_ours_close(struct bench_ours *o);

#endif
