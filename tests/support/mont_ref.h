/*
 * GMP's side of the Montgomery checks, with R = 2^(BIG_CHUNK_SIZE * len)
 * for a modulus of len chunks.  Header-only and free of GoogleTest, so the
 * libFuzzer targets use it too.
 */
#ifndef BIGMONT_MONT_REF_H
#define BIGMONT_MONT_REF_H

#include <gmp.h>

#include <bigmont/bignum.h>

namespace bt {

/* r = R = 2^(BIG_CHUNK_SIZE * len). */
inline void mont_R(mpz_t r, int len)
{
	mpz_set_ui(r, 0);
	mpz_setbit(r, static_cast<mp_bitcnt_t>(BIG_CHUNK_SIZE) * static_cast<mp_bitcnt_t>(len));
}

/* out = a * b * R^-1 mod n, the Montgomery product, given rinv = R^-1 mod
 * n.  out may be any of the inputs. */
inline void mont_product(mpz_t out, const mpz_t a, const mpz_t b, const mpz_t rinv, const mpz_t n)
{
	mpz_mul(out, a, b);
	mpz_mul(out, out, rinv);
	mpz_mod(out, out, n);
}

} // namespace bt

#endif
