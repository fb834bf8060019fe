/*
 * rsa/blinding.h -- base blinding of the RSA private operation
 * (rsa/blinding.c: a fresh pair; rsa/blinding_cache.c: the per-thread
 * cache of pairs and their use).
 *
 *   blinded   = in * r^e mod n        (r random, 1 <= r < n, gcd(r, n) = 1)
 *   private op on blinded gives (in * r^e)^d = in^d * r, and
 *   out       = that * r^-1 mod n = in^d
 *
 * so the exponentiation never sees `in` itself: a timing or power
 * measurement of it is decorrelated from the input the attacker chose.
 *
 * A pair (r^e, r^-1) is made from a fresh r (getrandom(), no RNG state),
 * then kept in the calling thread's cache, one slot per key, and squared
 * before each later use: (r^e)^2 = (r^2)^e and (r^-1)^2 = (r^2)^-1 are a
 * pair again.  After RSA_BLIND_REFRESH uses a slot gets a fresh pair.
 * Nothing is shared between threads or written into the key: a key is
 * told apart by its blind_id (rsa/rsa_internal.h), drawn when it is
 * loaded, so a new key at a freed key's address never matches an old slot.
 *
 * Cache lifetime: a thread's cache is wiped and unmapped when the thread
 * exits (the main thread's at exit()); it is mapped MADV_WIPEONFORK and
 * checked against getpid() (for a kernel or emulator that lacks that), so
 * a forked child never reuses its parent's pair.  rsa_key_free wipes the calling
 * thread's slot for the key; other threads' slots for it can no longer
 * match (the id is gone with the key) and are wiped when evicted or at
 * their thread's exit.
 */
#ifndef BIGMONT_RSA_BLINDING_H
#define BIGMONT_RSA_BLINDING_H

#include <bigmont/bignum.h>
#include <bigmont/rsa.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __cplusplus /* as in bignum/internal.h */
#pragma GCC visibility push(hidden)
#endif

/* Uses of a pair before a fresh one is made (OpenSSL's BN_BLINDING_COUNTER),
 * and keys a thread's cache holds (least recently used is evicted).  A
 * thread that goes round more keys than that makes a fresh pair every
 * operation: with 4 slots, one thread over 5 RSA-2048 keys in turn took 9
 * mallocs an operation and 27 % more time (model 207).  16 slots of
 * 4 KB, the pages touched only as slots are used, serve a server's
 * certificates by SNI. */
#define RSA_BLIND_REFRESH 32
#define RSA_BLIND_SLOTS 16

/*
 * A fresh pair: r_e = r^e mod n, r_inv = r^-1 mod n for a random r in
 * [1, n) with gcd(r, n) = 1, drawn with r's partner b (below) from one
 * getrandom() call.  r^-1 is computed without running the variable-time
 * inversion on r: t = r*b mod n is inverted (t is uniform and independent
 * of r), then r^-1 = t^-1 * b.  n odd > 1, n0 = big_n0(n->value[0]), n_rr =
 * R^2 mod n.  RSA_OK, RSA_ERR_RANDOM (getrandom failed, or never gave a
 * usable r), RSA_ERR_NO_MEM, RSA_ERR_ARGS.  Not constant time in e and n
 * (public); constant time in r except for the inversion of t.  Outputs
 * must not alias inputs; every scratch value is wiped.
 */
int rsa_blind_pair(BIGNUM *r_e, BIGNUM *r_inv, const BIGNUM *e,
		   const BIGNUM *n, BIG_CHUNK_TYPE n0, const BIGNUM *n_rr);

/*
 * The calling thread's pair for key, advanced for one private operation
 * (squared, or fresh from rsa_blind_pair on the first use, after
 * RSA_BLIND_REFRESH uses or after a fork): *a = r^e * R mod n, *b = r^-1 *
 * R mod n (Montgomery form, R = B^(key->n.len)), key->n.len chunks each.
 * The pointers stay valid until this thread's next call into this header
 * or its exit.  key is a private key.  RSA_OK, or rsa_blind_pair's errors
 * (RSA_ERR_NO_MEM also if the thread's cache cannot be mapped; glibc
 * aborts the process instead of failing when it cannot record the cache's
 * release at the thread's exit, rsa.h).  Allocates
 * only when it makes a fresh pair.  No lock; writes only the thread's own
 * cache.
 */
int rsa_blinding_next(const rsa_key *key, const BIG_CHUNK_TYPE **a,
		      const BIG_CHUNK_TYPE **b);

/*
 * out = x * f * R^-1 mod n with f one of rsa_blinding_next's vectors: x *
 * r^e (blinding, f = a) or x * r^-1 (unblinding, f = b).  x < n (high zero
 * chunks allowed).  out gets key->n.len chunks, NOT trimmed; out must not
 * alias x; no allocation unless out must grow.  Constant time in x and f.
 */
int rsa_blinding_mul(BIGNUM *out, const BIGNUM *x, const BIG_CHUNK_TYPE *f,
		     const rsa_key *key);

/* At the end of a public call that used rsa_blinding_next: where this
 * thread's exit destructors have already run, the cache made for the call
 * is wiped and unmapped (nothing would release it later).  A thread-local
 * read otherwise. */
void rsa_blinding_done(void);

/* Wipe the calling thread's slot for key, if any (rsa_key_free). */
void rsa_blinding_forget(const rsa_key *key);

/* dst[0..len) = |x| zero-padded, x's chunks past len ignored (they are
 * zero for x < n).  Time depends on the lengths only. */
static inline void rsa_load_padded(BIG_CHUNK_TYPE *dst, int len, const BIGNUM *x)
{
	const int xlen = x->len < len ? x->len : len;
	int i = 0;
	for (; i < xlen; i++)
		dst[i] = x->value[i];
	for (; i < len; i++)
		dst[i] = 0;
}

/* Fill out[0..len) from getrandom(), retrying on EINTR and short reads;
 * 0 on success, -1 if the kernel cannot give randomness. */
int rsa_random_bytes(uint8_t *out, size_t len);

#ifndef __cplusplus
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
