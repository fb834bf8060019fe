/*
 * big_modexp_ct: result = a^e mod n, constant time in the values of a and
 * e (their chunk lengths a->len, e->len and the modulus n may leak; an a
 * shorter than n is zero-padded to n's length, so trimming does not show).
 *
 * n is public: it is validated and trimmed, and R^2 mod n is computed by
 * division when the caller passes none.  a (any length, may be >= n) is
 * brought into Montgomery form by big_mont_reduce_ct (Montgomery products
 * block by block, no division), raised by big_mont_pow_ct (fixed window over all of e's
 * chunks, masked table scan), and converted out by a product with 1.
 *
 * The result is NOT trimmed: result->len is n's trimmed length, possibly
 * with high zero chunks, since trimming would branch on the secret result.
 * Scratch is allocated once per call (big_modexp_open) and wiped before it
 * is freed.
 */
#include "internal.h"

BIG_ERR_CODE big_modexp_ct(BIGNUM *result, const BIGNUM *a, const BIGNUM *e,
			   const BIGNUM *n, const BIGNUM *n_rr)
{
	static const chunk_t zero_chunk = 0;
	const int alen = a->len > 0 ? a->len : 0;
	const chunk_t *ev = e->len > 0 ? e->value : &zero_chunk;
	const int elen = e->len > 0 ? e->len : 1;

	/* rr, one, one_m, base_m, acc, a_x and big_mont_pow_ct's scratch (its
	 * chunks per modulus chunk); a is read as at least len chunks: a
	 * trimmed a (top chunk zero) runs the same operations as any other
	 * a < n. */
	struct big_modexp_frame f;
	BIG_ERR_CODE err = big_modexp_open(&f, n, n_rr, 6 + (int)big_mont_pow_ct_scratch(1, elen),
					   alen);
	if (err != BIG_OK)
		return err;
	const int len = f.len, ax = alen > len ? alen : len;
	chunk_t *rr = f.scratch, *one = rr + len, *one_m = one + len;
	chunk_t *base_m = one_m + len, *acc = base_m + len, *a_x = acc + len;
	chunk_t *pow = a_x + ax;
	big_copy_pad_vec(a_x, ax, a->value, alen);
	const chunk_t n0 = f.n0;
	big_mont_mul_vec(one_m, rr, one, n->value, n0, len);
	big_mont_reduce_ct(base_m, a_x, ax, n->value, n0, rr, len, 1);
	big_mont_pow_ct(acc, base_m, ev, elen, n->value, n0, one_m, len, pow);
	big_mont_mul_vec(base_m, acc, one, n->value, n0, len);

	/* Inputs are consumed: result may now be grown even if it aliases. */
	err = big_store_vec(result, base_m, len);
	big_modexp_close(&f);
	return err;
}
