/*
 * big_modexp_ct_base: result = a^e mod n, constant time in the value of a,
 * variable time in the public exponent e (contract in bignum.h).
 *
 * Left-to-right square and multiply in Montgomery form on fixed-length
 * vectors: the sequence of products follows the bits of e, which is
 * public, and never the value of a; every product is a fused constant-time
 * kernel with a masked final subtraction, and nothing trims, compares or
 * divides a.
 *
 * The first product, R^2 * a, takes R^2 (< n) as its reduced factor, so a
 * may be any len-chunk value, even >= n.  The product for e's last bit
 * takes a itself, not a*R: (a^(e-1) R) * a / R is a^e mod n already out of
 * Montgomery form, so no conversion product follows (for an even e that
 * product is by 1 instead).
 *
 * Scratch: four vectors of BIG_MAX_MODULUS_CHUNKS chunks on the stack, the
 * ones that held a value derived from a wiped before the return.
 */
#include "internal.h"

#include <string.h>

static int bit_at(const BIGNUM *e, int i)
{
	return (int)((e->value[i / BIG_CHUNK_SIZE] >> (i % BIG_CHUNK_SIZE)) & 1);
}

BIG_ERR_CODE big_modexp_ct_base(BIGNUM *result, const BIGNUM *a,
				const BIGNUM *e, const BIGNUM *n,
				BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	chunk_t x[BIG_MAX_MODULUS_CHUNKS], xm[BIG_MAX_MODULUS_CHUNKS];
	chunk_t acc[BIG_MAX_MODULUS_CHUNKS], rr[BIG_MAX_MODULUS_CHUNKS];
	int len;
	BIG_ERR_CODE err = big_load_mod_vecs(&len, n, 2, (chunk_t *[]){ x, rr },
					     (const BIGNUM *[]){ a, n_rr });
	if (err == BIG_OK) {
		const chunk_t *nv = n->value;
		const int ebits = big_bitlength(e);
		if (ebits == 0) {
			for (int j = 0; j < len; j++)
				acc[j] = j == 0;
		} else {
			big_mont_mul_vec(xm, rr, x, nv, n0, len); /* a*R mod n */
			chunk_t *one = rr; /* R^2 served the first product only */
			for (int j = 0; j < len; j++)
				one[j] = j == 0;
			memcpy(acc, xm, sizeof(chunk_t) * (size_t)len);
			for (int bit = ebits - 2; bit >= 1; bit--) {
				big_mont_sqr_vec(acc, acc, nv, n0, len);
				if (bit_at(e, bit))
					big_mont_mul_vec(acc, acc, xm, nv, n0, len);
			}
			const chunk_t *last = one; /* e == 1: a*R times 1 */
			if (ebits >= 2) {
				big_mont_sqr_vec(acc, acc, nv, n0, len);
				last = bit_at(e, 0) ? x : one;
			}
			big_mont_mul_vec(acc, acc, last, nv, n0, len);
		}
		/* Every input is consumed: result may be grown even if it
		 * aliases one. */
		err = big_store_vec(result, acc, len);
	}
	big_wipe(x, sizeof(chunk_t) * (size_t)len);
	big_wipe(xm, sizeof(chunk_t) * (size_t)len);
	big_wipe(acc, sizeof(chunk_t) * (size_t)len);
	return err;
}
