/*
 * rsa/rsa_internal.h -- the RSA layer's internal contracts: struct rsa_key,
 * the PEM/DER readers' outputs, and the test hooks.
 *
 * A key is immutable once loaded and its options set: the private and
 * public operations only read it, and every scratch value belongs to the
 * call or to the calling thread (its blinding cache), so one key serves
 * many threads at once without locks.
 */
#ifndef BIGMONT_RSA_INTERNAL_H
#define BIGMONT_RSA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <bigmont/bignum.h>
#include <bigmont/rsa.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __cplusplus /* as in bignum/internal.h */
#pragma GCC visibility push(hidden)
#endif

struct rsa_key {
	rsa_key_format_t format;
	int is_private;
	int bits;          /* bit length of n */
	size_t size;       /* byte length of n */
	int fault_check;   /* verify out^e == in after each private op */
	int blinding;      /* blind each private op (rsa/blinding.h) */
	/* Random, non-zero, drawn at load for a private key: names the key
	 * in the per-thread blinding caches (rsa/blinding.h). */
	uint64_t blind_id;
	BIGNUM n, e;
	BIGNUM n_rr;       /* R^2 mod n for n's Montgomery radix */
	BIG_CHUNK_TYPE n0; /* -n^-1 mod 2^BIG_CHUNK_SIZE */
	uint8_t *n_bytes;  /* n big-endian, size bytes: the range check */
	/* Private keys only (zero-size otherwise); every one is wiped by
	 * rsa_key_free. */
	BIGNUM d, p, q, dp, dq, qinv;
	BIGNUM p_rr, q_rr; /* R^2 mod p, R^2 mod q */
};

/* A byte range inside the caller's buffer (no copy). */
struct rsa_bytes {
	const uint8_t *p;
	size_t len;
};

/* The integers of a key as the DER reader found them: big-endian, minimal,
 * positive (the leading 0x00 of a positive integer with its top bit set is
 * stripped).  Private fields have len 0 for a public key. */
struct rsa_key_parts {
	rsa_key_format_t format;
	struct rsa_bytes n, e, d, p, q, dp, dq, qinv;
	/* A private key of n, e and d alone (rsa_key_from_numbers only):
	 * p, q and the CRT numbers are recovered (rsa_key_recover_crt). */
	int recover_crt;
};

/*
 * Read one DER-encoded key of the given format (rsa/key_parse.c).  The
 * whole of der[0..len) must be that structure: no trailing bytes.
 * RSA_OK, or RSA_ERR_FORMAT with a one-line reason in err.
 */
int rsa_parse_der(struct rsa_key_parts *parts, rsa_key_format_t format,
		  const uint8_t *der, size_t len, char *err, size_t errlen);
/* Try the four formats in turn (private PKCS#1, PKCS#8, public PKCS#1,
 * SPKI), choosing by the structure's shape; the reason names the format
 * that came closest. */
int rsa_parse_der_any(struct rsa_key_parts *parts, const uint8_t *der,
		      size_t len, char *err, size_t errlen);

/*
 * Decode the one key block of text[0..len) (rsa/pem.c), skipping other
 * blocks (certificates, parameters) and the text around them: matching
 * BEGIN and END labels on every block, strict base64 in the key's.  *der is
 * malloc'ed (*derlen bytes; the caller wipes and frees it), *format is set
 * from the label.  RSA_ERR_FORMAT with a reason for no key block, two key
 * blocks, a label that is not an RSA key's, a malformed or mismatched
 * block, an encrypted key, bad base64; RSA_ERR_NO_MEM.
 */
int rsa_pem_decode(uint8_t **der, size_t *derlen, rsa_key_format_t *format,
		   const char *text, size_t len, char *err, size_t errlen);

/* Strict base64 of in[0..len) into out (at least len/4*3 bytes): whitespace
 * (space, tab, CR, LF) anywhere, other characters rejected, '=' padding only
 * at the end with zero unused bits, a multiple of 4 characters.  Returns the
 * byte count, or -1 with a reason.  text is where the file that holds in
 * starts (in itself for a bare body): an error names its line and column. */
long rsa_base64_decode(uint8_t *out, const char *in, size_t len, const char *text, char *err,
		       size_t errlen);

/* Build a key from its parts (rsa/key.c): copy the integers, check them
 * (rsa/key_check.c) unless `check` is 0, precompute.  check == 0 exists for
 * the tests' fault-injection hook only. */
int rsa_key_from_parts(rsa_key **key, const struct rsa_key_parts *parts,
		       int check, char *err, size_t errlen);

/* p, q, dp, dq and qinv of a private key from its n, e and d
 * (rsa/key_recover.c): RSA_OK, RSA_ERR_KEY_CHECK naming what is wrong
 * (d does not invert e, n no product of two primes), RSA_ERR_NO_MEM.
 * Variable time: run once at load. */
int rsa_key_recover_crt(rsa_key *key, char *err, size_t errlen);

/* The consistency checks of a loaded key (rsa/key_check.c), primality of
 * p and q included; RSA_OK or RSA_ERR_KEY_CHECK naming the check that
 * failed (RSA_ERR_NO_MEM, RSA_ERR_RANDOM).  Variable time: run once at
 * load. */
int rsa_key_check(const rsa_key *key, char *err, size_t errlen);
/* Its checks of n and e alone (n odd, e odd, 1 < e < n). */
int rsa_key_check_public(const rsa_key *key, char *err, size_t errlen);
/* The Miller-Rabin rounds the check runs on a prime of `bits` bits
 * (rsa/key_check.c says where the counts come from). */
int rsa_prime_rounds(int bits);

/* Test hook: load like rsa_key_load_der/pem but skip rsa_key_check, so a
 * test can build a key with a wrong dp and watch the fault check catch the
 * bad CRT result.  Not part of the public API. */
int rsa_key_load_unchecked_for_test(rsa_key **key, const uint8_t *data,
				    size_t len, char *err, size_t errlen);

/* Test hook: the calling thread's current blinding pair for key
 * (rsa/blinding.h), out of Montgomery form: r_e = r^e mod n, r_inv = r^-1
 * mod n, key->size bytes each, big-endian.  RSA_ERR_ARGS if this thread
 * holds no pair for the key (none made yet, evicted, or a forked child
 * before its first blinded operation).  Not part of the public API. */
int rsa_blinding_pair_for_test(const rsa_key *key, uint8_t *r_e,
			       uint8_t *r_inv);

/* rsa/private.c: RSA_OK if out^e mod n == in, else RSA_ERR_FAULT (or a
 * bignum error as a status), checked modulo p and modulo q apart
 * (big_crt_check) or modulo n (big_crt_check_wanted); constant time in
 * out; allocates nothing.
 * rsa_private_raw's fault check, and rsa_private_batch's per operation. */
int rsa_fault_check(const rsa_key *k, const BIGNUM *out, const BIGNUM *in);
/* rsa/private.c: rsa_private_raw with the exponentiation's scratch in ws
 * (ws_chunks chunks: big_modexp_crt_ws), which rsa_private_batch gives
 * the operations it runs singly so that they allocate nothing. */
int rsa_private_raw_ws(const rsa_key *key, uint8_t *out, const uint8_t *in, size_t len,
		       BIG_CHUNK_TYPE *ws, size_t ws_chunks);
/* rsa/status.c.  snprintf into err when errlen > 0 (err may be NULL when
 * errlen == 0). */
void rsa_set_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* rsa/status.c.  A bignum result as a status: BIG_OK is RSA_OK, BIG_NO_MEM
 * is RSA_ERR_NO_MEM, any other error is `otherwise` (what a refusal means
 * where the call was made: RSA_ERR_ARGS, RSA_ERR_FORMAT, ...). */
int rsa_status_from_big(BIG_ERR_CODE err, int otherwise);

#ifndef __cplusplus
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
