/*
 * <bigmont/rsa.h> -- RSA keys from PEM/DER, and the raw RSA primitives
 * (PKCS #1 v2.2 section 5.1: RSAEP, RSADP/RSASP1 through the CRT), built on
 * <bigmont/bignum.h>.
 *
 * A loaded key is immutable once its options are set: rsa_private_raw and
 * rsa_public_raw may be called on one key from many threads at once.  Set
 * options right after loading, before the key is shared.
 *
 * Stack: the private operations (rsa_private_raw, rsa_private_batch) use
 * at most RSA_STACK_BYTES of the calling thread's stack, whatever the
 * key's size (their buffers are sized for the largest key), in a GCC
 * build optimised as the presets build (-O2; a clang -O2 or GCC -O0 build
 * takes up to some 70 KB: its frames are larger, and the wipes after the
 * vector kernels reach deeper to cover them); a thread or coroutine with
 * a small stack must allow for it.  The rest of their
 * memory is the heap's or the caller's scratch.
 *
 * Every function returns 0 (RSA_OK) on success or a negative rsa_status.
 */
#ifndef BIGMONT_RSA_H
#define BIGMONT_RSA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsa_key rsa_key;

typedef enum {
	RSA_OK = 0,
	RSA_ERR_FORMAT = -1,      /* malformed PEM/DER, unsupported key type */
	RSA_ERR_KEY_CHECK = -2,   /* key parsed but is inconsistent */
	RSA_ERR_NO_MEM = -3,
	RSA_ERR_LENGTH = -4,      /* in/out length is not rsa_key_size() */
	RSA_ERR_RANGE = -5,       /* input >= n */
	RSA_ERR_NOT_PRIVATE = -6, /* private operation on a public key */
	RSA_ERR_FAULT = -7,       /* fault check failed: result withheld */
	RSA_ERR_RANDOM = -8,      /* no randomness for blinding */
	RSA_ERR_ARGS = -9         /* NULL pointer or other misuse */
} rsa_status;

/* Short English text for a status (never NULL). */
const char *rsa_strerror(int status);

/* The most stack a private operation takes (above). */
#define RSA_STACK_BYTES (48 * 1024)

/* The modulus sizes a key may have, in bits. */
#define RSA_KEY_MIN_BITS 512
#define RSA_KEY_MAX_BITS 16384

/* Key formats rsa_key_format() reports. */
typedef enum {
	RSA_FORMAT_PKCS1_PRIVATE = 1, /* RSA PRIVATE KEY (RSAPrivateKey) */
	RSA_FORMAT_PKCS8_PRIVATE = 2, /* PRIVATE KEY (PrivateKeyInfo) */
	RSA_FORMAT_PKCS1_PUBLIC = 3,  /* RSA PUBLIC KEY (RSAPublicKey) */
	RSA_FORMAT_SPKI_PUBLIC = 4    /* PUBLIC KEY (SubjectPublicKeyInfo) */
} rsa_key_format_t;

/*
 * Load a key from PEM text or from DER bytes.  PEM text holds exactly one
 * key block of one of the four formats; other blocks (certificates,
 * parameters) and text between them are skipped, two key blocks are
 * refused.  DER that is another kind of key or not a key (an EC key,
 * an encrypted PKCS #8 key, a certificate, an RSA-PSS key) is refused by
 * name.  The key is checked (for private keys: p*q == n, dp == d mod
 * (p-1), dq == d mod (q-1), qInv*q == 1 mod p, e*dp == 1 mod (p-1), e*dq
 * == 1 mod (q-1), p and q probable primes by Miller-Rabin with random
 * bases; for every key: e odd and > 1, n odd) and everything the private
 * operation needs is precomputed.  A failed check is RSA_ERR_KEY_CHECK;
 * a modulus outside 512 to 16384 bits (or another integer longer than n)
 * is refused as it is read, RSA_ERR_FORMAT.  len is the
 * text's length without a terminating NUL (a NUL inside is not text: the
 * PEM is refused).  On failure *key is NULL and err (if errlen > 0) holds
 * a one-line reason.
 */
int rsa_key_load_pem(rsa_key **key, const char *pem, size_t len, char *err,
		     size_t errlen);
int rsa_key_load_der(rsa_key **key, const uint8_t *der, size_t len, char *err,
		     size_t errlen);

/* One integer of a key: big-endian bytes, leading zero bytes allowed;
 * absent as len 0 (bytes then may be NULL); NULL bytes with a len is
 * RSA_ERR_ARGS. */
typedef struct {
	const uint8_t *bytes;
	size_t len;
} rsa_number;

/* The integers of an RSA key (RFC 8017 A.1.1, A.1.2).  n and e always; a
 * private key has d and either all of p, q, dp = d mod (p-1), dq = d mod
 * (q-1), qinv = q^-1 mod p or none of them (len 0: rsa_key_from_numbers
 * recovers them); a public key leaves those six at len 0. */
typedef struct {
	rsa_number n, e, d, p, q, dp, dq, qinv;
} rsa_key_numbers;

/*
 * Build a key from its integers (as a key store or an OpenSSL provider
 * hands them over): the same size limits as the DER reader (n of 512 to
 * 16384 bits, every other integer no longer than n), the same checks and
 * the same precomputation as rsa_key_load_der.  d given makes the key
 * private, and then p, q, dp, dq and qinv are given all or none: given
 * none, p and q are recovered from n, e and d (NIST SP 800-56B rev. 2,
 * Appendix C.2; p the larger; variable time, once per load, as the checks)
 * and the key is refused if d does not invert e or n is not the product of
 * two primes.  Some of the five and not all, a zero d, or CRT numbers
 * without d are refused, not read as a public key.
 * rsa_key_format() reports RSA_FORMAT_PKCS1_PRIVATE or _PUBLIC.  The
 * numbers are copied; the caller keeps (and wipes) its buffers.  On failure
 * *key is NULL and err (if errlen > 0) holds a one-line reason.
 */
int rsa_key_from_numbers(rsa_key **key, const rsa_key_numbers *numbers,
			 char *err, size_t errlen);

/* Wipe the key's secrets and free it (NULL is a no-op). */
void rsa_key_free(rsa_key *key);

/* These four give 0 for a NULL key. */
size_t rsa_key_size(const rsa_key *key); /* modulus length in bytes */
int rsa_key_bits(const rsa_key *key);    /* modulus length in bits */
int rsa_key_is_private(const rsa_key *key);
rsa_key_format_t rsa_key_format(const rsa_key *key);
/* "PKCS#1 RSA PRIVATE KEY", ... */
const char *rsa_key_format_name(rsa_key_format_t format);
/* Copy the public exponent, big-endian without leading zeros, into out;
 * returns its length in bytes, or 0 if outlen is too small. */
size_t rsa_key_public_exponent(const rsa_key *key, uint8_t *out,
			       size_t outlen);

/* Options: set right after loading, before the key is shared. */
/* Verify out^e mod n == in after each private operation (default on). */
int rsa_key_set_fault_check(rsa_key *key, int on);
int rsa_key_fault_check(const rsa_key *key);
/* Blind each private operation with a random r (default on): a pair
 * (r^e, r^-1) per key in each calling thread's own cache, squared on each
 * use and drawn afresh from getrandom() every 32 uses, after a fork and for
 * a new key; no lock.  A thread's cache holds the pairs of its 16 most
 * recently used keys: one that goes round more keys makes a fresh pair
 * (a getrandom() call, an inversion, some allocations) every operation.  rsa_key_free wipes the calling thread's pair for the
 * key, and a thread's cache is wiped when the thread exits (rsa/blinding.h).
 * A thread's first blinded operation makes its cache and has the C
 * library release it at the thread's exit; glibc ends the process when it
 * has no memory to record that release (its __cxa_thread_atexit_impl
 * aborts rather than fail), so out of memory there is not RSA_ERR_NO_MEM.
 * glibc runs that release before pthread key destructors and atexit()
 * handlers: a blinded operation there, in a thread whose cache was already
 * released, makes a fresh pair and wipes it before it returns.  In a
 * thread that had no cache yet, call rsa_thread_stop first.
 * No call in this header is a thread cancellation point. */
int rsa_key_set_blinding(rsa_key *key, int on);
int rsa_key_blinding(const rsa_key *key);
/* Wipe and release the calling thread's blinding cache now; from then on
 * each blinded operation in this thread makes a fresh pair (a getrandom()
 * call, an inversion) and wipes it before it returns.  For a thread that
 * is ending: call it before private operations in a pthread key
 * destructor, or to have the thread's pairs gone before it exits. */
void rsa_thread_stop(void);

/*
 * RSADP / RSASP1: out = in^d mod n through the CRT.  in and out are len ==
 * rsa_key_size(key) bytes, big-endian; in < n (else RSA_ERR_RANGE).  On any
 * error out is left untouched.  in and out may be the same buffer.
 * Constant time in the values of the secret key.  in is taken as public,
 * as a ciphertext or a padded message is: the check in < n and its
 * conversion may take time that depends on its leading bytes; the
 * exponentiation does not depend on its value.  The exponentiation's
 * scratch is allocated once a call (a malloc and a free, outside the
 * exponentiations; glibc serves them from the thread's arena):
 * rsa_private_batch with the caller's scratch, a count of 1 included,
 * allocates only for a fresh blinding pair (every 32 uses).
 */
int rsa_private_raw(const rsa_key *key, uint8_t *out, const uint8_t *in,
		    size_t len);

/*
 * A batch of RSADP / RSASP1 operations: for i < count,
 *   out[i*len .. i*len + len) = in[i*len .. i*len + len) ^ d mod n  of keys[i],
 * with rsa_private_raw's guarantees per operation (constant time in every
 * key's secrets, blinding and the fault check as each key's options say; a
 * failed fault check fails that operation alone and writes nothing of it;
 * in the radix-2^52 lanes (ifma, fma512, fma) the check is made in the
 * lanes before unblinding: the exponentiation's result s against its
 * blinded input c, s^e = c modulo p and modulo q, and p q = n, the same
 * congruence as out^e = in mod n but for the unblinding product),
 * four at a time in the vector lanes of one exponentiation (AVX-512 IFMA
 * where the CPU has it, else AVX-512F, else AVX2 (with FMA where it has
 * that): big_crt_batch_kernel() names it; without any of them every
 * operation runs singly and it says "none").  BIGMONT_BATCH=ifma, fma512,
 * avx512, fma, avx2 or c in the environment asks
 * for that build (c: the portable one, slower than single operations and
 * otherwise not used; any other value is ignored).  keys[i] may be
 * the same key for every i (the common case, no extra cost) or different
 * keys; each must be len bytes (rsa_key_size).  A remainder of one
 * operation (or of two, but on the IFMA lanes where two in lanes cost
 * less than two single operations: primes of any length but 1536 and
 * 2048 bits rounded up to whole chunks, so not at RSA-3072 and 4096, nor
 * at 3000 bits), keys whose primes differ in length,
 * and keys below 1024 bits but on the IFMA lanes (BIGMONT_BATCH naming a
 * build forces the lanes there too) run singly.
 *
 * status[i] gets operation i's status: RSA_OK, or RSA_ERR_ARGS (keys[i]
 * NULL), RSA_ERR_NOT_PRIVATE, RSA_ERR_LENGTH (the key is not len bytes:
 * keys of another size), RSA_ERR_RANGE (input not below that key's n),
 * RSA_ERR_FAULT, RSA_ERR_RANDOM, RSA_ERR_NO_MEM; an operation that fails
 * leaves its out bytes untouched and the others unaffected.  in and out
 * may be the same buffer.
 *
 * scratch: rsa_private_batch_scratch_size(len) bytes of the caller's
 * (one buffer per thread; any alignment), or NULL to have the call
 * allocate it once (outside the exponentiations).  Nothing else is
 * allocated, but a fresh blinding pair every 32 uses.
 *
 * Returns RSA_OK if every operation succeeded, else the first failed
 * operation's status; with no status written: RSA_ERR_ARGS for count 0,
 * count * len beyond SIZE_MAX, a NULL keys, out, in or status, or scratch
 * smaller than the size asked; RSA_ERR_LENGTH for len 0 or above
 * RSA_KEY_MAX_BITS / 8; RSA_ERR_NO_MEM when scratch is NULL and its
 * allocation fails.
 */
size_t rsa_private_batch_scratch_size(size_t len);
int rsa_private_batch(const rsa_key *const *keys, uint8_t *out,
		      const uint8_t *in, size_t len, size_t count, int *status,
		      void *scratch, size_t scratch_size);

/* RSAEP: out = in^e mod n; the key may be public or private. */
int rsa_public_raw(const rsa_key *key, uint8_t *out, const uint8_t *in,
		   size_t len);

#ifdef __cplusplus
}
#endif

#endif /* BIGMONT_RSA_H */
