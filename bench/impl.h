/*
 * bench/impl.h -- the implementations `bigmont speed` times, each behind
 * plain bytes so that GMP, OpenSSL and our library never meet in one
 * translation unit (OpenSSL's BIGNUM and ours share a name).
 *
 * Every implementation file exports one ops table (struct bench_impl_ops);
 * the benchmark sees nothing else of it.  Every decrypt is the raw RSA
 * private operation, out = in^d mod n, with in and out the modulus length
 * in bytes, big-endian; it returns 0 on success.  open returns NULL and a
 * one-line reason in err (no "bigmont:" prefix: the command adds it).
 */
#ifndef BIGMONT_BENCH_IMPL_H
#define BIGMONT_BENCH_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "measure.h"

/* The numbers of a private key, big-endian, as the PKCS #1 structure
 * holds them. */
enum { RSA_PART_N, RSA_PART_E, RSA_PART_D, RSA_PART_P, RSA_PART_Q,
       RSA_PART_DP, RSA_PART_DQ, RSA_PART_QINV, RSA_PART_COUNT };
struct bench_rsa_parts {
	uint8_t *v[RSA_PART_COUNT]; /* malloc'd */
	size_t len[RSA_PART_COUNT];
};
void bench_rsa_parts_free(struct bench_rsa_parts *parts);

/* What an implementation opens: the key as PEM text and as numbers. */
struct bench_key_input {
	const char *pem;
	size_t len;
	const struct bench_rsa_parts *parts;
};

enum bench_input {
	BENCH_INPUT_RAW = 0, /* any value below n; the answer is in^d mod n */
	BENCH_INPUT_EMSA,    /* EMSA-PKCS1-v1_5 SHA-256 encodings (emsa.h): the
			      * answer, a signature, is still in^d mod n */
	BENCH_INPUT_OAEP,    /* RSAES-OAEP SHA-256 ciphertexts (oaep.h): the
			      * answer is the message, right-aligned in
			      * zeros */
	BENCH_INPUTS
};

struct bench_impl_ops {
	/* mode: what the implementation's table entry asks for (ours: 1 for
	 * blinding; OpenSSL: enum bench_ossl_mode; others: 0). */
	void *(*open)(const struct bench_key_input *key, int mode, char *err,
		      size_t errlen);
	int (*decrypt)(void *h, uint8_t *out, const uint8_t *in);
	/* Optional: `iters` operations on the input of the last decrypt, timed
	 * by the implementation itself (a child process, or its own call in
	 * this one); NULL: the benchmark times decrypt in this process. */
	int (*batch)(void *h, long iters, struct bench_batch *out);
	/* 1: the operations run in another process, whose locks this one
	 * cannot count; 0: counted around each batch. */
	int other_process;
	/* Optional: the operation as threads sharing one opened key run it
	 * (thread-safe on h); NULL: not in the thread table. */
	int (*decrypt_shared)(const void *h, uint8_t *out, const uint8_t *in);
	int (*blinding)(const void *h);    /* 1 on, 0 off */
	int (*fault_check)(const void *h); /* 1 on, 0 off */
	/* Optional: why the last decrypt on h failed, given its status (a
	 * child's own message where a status cannot carry it); NULL: "error". */
	const char *(*strerror)(const void *h, int status);
	/* What decrypt takes, and is checked and timed on (enum bench_input):
	 * any input below n, or -- for an API that signs or decrypts OAEP
	 * rather than exponentiates -- only those encodings. */
	int input;
	/* Optional: ns per call of the layer around the operation that a
	 * batch also times (the wheel's Python loop), measured on h; NULL: none. */
	double (*call_overhead_ns)(void *h);
	void (*close)(void *h); /* NULL is a no-op */
};

/* rsa_private_raw of this build; mode 1: blinding on (the fault check
 * stays at the library's default, on). */
extern const struct bench_impl_ops bench_ours_ops;
/* GMP as gmpbench's rsa does it (impl_gmp.c). */
extern const struct bench_impl_ops bench_gmp_ops;
/* OpenSSL in this process (impl_openssl.c); mode: */
enum bench_ossl_mode {
	BENCH_OSSL_EVP = 0,     /* EVP_PKEY_decrypt, RSA_NO_PADDING, its default
				 * blinding; one context reused.  Shared by
				 * threads: one EVP_PKEY, a context per
				 * operation, as applications do. */
	BENCH_OSSL_NOBLIND = 1, /* RSA_private_decrypt on the key with
				 * RSA_blinding_off */
};
extern const struct bench_impl_ops bench_ossl_ops;
/* OpenSSL's EVP mode in a child process without AVX-512 IFMA (worker.c). */
extern const struct bench_impl_ops bench_worker_ops;
/* The OpenSSL of PyPI's cryptography wheel through its Python API in a
 * child process (impl_wheel.c, wheel.h): PKCS #1 v1.5 signatures, and
 * OAEP decryption. */
extern const struct bench_impl_ops bench_wheel_ops, bench_wheel_oaep_ops;
/* Intel's ipp-crypto, loaded at run time (impl_ipp.c, ipp.h): libippcp's
 * ippsRSA_Decrypt, and libcrypto_mb's eight-lane mbx_rsa_private_crt_mb8. */
extern const struct bench_impl_ops bench_ipp_ops, bench_ipp_mb8_ops;

/* ---- beyond the ops: the key's numbers, the reference, versions -------- */
/* Parse a private key (any PEM OpenSSL reads) into its numbers. */
int bench_ossl_parts(struct bench_rsa_parts *parts, const char *pem,
		     size_t len, char *err, size_t errlen);
/* The modulus length in bytes of an opened bench_ossl_ops key. */
size_t bench_ossl_size(const void *h);
/* "OpenSSL 3.0.19 27 Jan 2026" */
const char *bench_ossl_version(void);

/* GMP is also the reference every answer is checked against. */
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

#endif
