/*
 * rsa/blinding.h -- base blinding of the RSA private operation
 * (rsa/blinding.c).
 *
 *   blinded   = in * r^e mod n        (r random, 1 <= r < n, gcd(r, n) = 1)
 *   unblinder = r^-1 mod n
 *   private op on blinded gives (in * r^e)^d = in^d * r, and
 *   out       = that * unblinder mod n = in^d
 *
 * so the exponentiation never sees `in` itself: a timing or power
 * measurement of it is decorrelated from the input the attacker chose.
 *
 * r comes from getrandom() on every call: no RNG state, nothing shared
 * between threads or stored in the key.  r^-1 is computed without running
 * the variable-time inversion on r: with a second random b, t = r*b mod n
 * is inverted (t is uniform and independent of r), then r^-1 = t^-1 * b.
 *
 * Both functions take n's Montgomery constants (n0 = big_n0(n->value[0]),
 * n_rr = R^2 mod n), need n odd > 1, inputs < n, and wipe every scratch
 * value they make.  Outputs must not alias inputs.
 */
#ifndef BIGMONT_RSA_BLINDING_H
#define BIGMONT_RSA_BLINDING_H

#include <bigmont/bignum.h>

#ifdef __cplusplus
extern "C" {
#endif

/* blinded = in * r^e mod n, unblinder = r^-1 mod n for a fresh random r.
 * RSA_OK, RSA_ERR_RANDOM (getrandom failed, or never gave a usable r),
 * RSA_ERR_NO_MEM, RSA_ERR_ARGS.  Not constant time in e and n (public);
 * constant time in in and r except for the inversion of t (see above). */
int rsa_blind(BIGNUM *blinded, BIGNUM *unblinder, const BIGNUM *in,
	      const BIGNUM *e, const BIGNUM *n, BIG_CHUNK_TYPE n0,
	      const BIGNUM *n_rr);

/* out = x * unblinder mod n (x, unblinder < n; big_mod_mul).  Constant
 * time. */
int rsa_unblind(BIGNUM *out, const BIGNUM *x, const BIGNUM *unblinder,
		const BIGNUM *n, BIG_CHUNK_TYPE n0, const BIGNUM *n_rr);

/* Fill out[0..len) from getrandom(), retrying on EINTR and short reads;
 * 0 on success, -1 if the kernel cannot give randomness. */
int rsa_random_bytes(uint8_t *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
