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
 * Scratch is allocated once per call and wiped before it is freed.
 */
#include "internal.h"

#include <stdlib.h>

BIG_ERR_CODE big_modexp_ct(BIGNUM *result, const BIGNUM *a, const BIGNUM *e,
			   const BIGNUM *n, const BIGNUM *n_rr)
{
	int len;
	BIG_ERR_CODE err = big_check_modulus(n, &len);
	if (err != BIG_OK)
		return err;

	static const chunk_t zero_chunk = 0;
	const int alen = a->len > 0 ? a->len : 0;
	const chunk_t *ev = e->len > 0 ? e->value : &zero_chunk;
	const int elen = e->len > 0 ? e->len : 1;

	/* a is read as at least len chunks: a trimmed a (top chunk zero) runs
	 * the same operations as any other a < n. */
	const int ax = alen > len ? alen : len;
	const size_t pow_chunks = big_mont_pow_ct_scratch(len, elen);
	const size_t total = 5 * (size_t)len + (size_t)ax + pow_chunks;
	chunk_t *scratch = malloc(sizeof(chunk_t) * total);
	if (scratch == NULL)
		return BIG_NO_MEM;
	chunk_t *rr = scratch, *one = rr + len, *one_m = one + len;
	chunk_t *base_m = one_m + len, *acc = base_m + len, *a_x = acc + len;
	chunk_t *pow = a_x + ax;
	err = big_mont_rr_vec(rr, n_rr, n, len);
	if (err != BIG_OK)
		goto out;
	big_copy_pad_vec(a_x, ax, a->value, alen);
	for (int j = 0; j < len; j++)
		one[j] = j == 0;

	const chunk_t n0 = big_n0(n->value[0]);
	big_mont_mul_vec(one_m, rr, one, n->value, n0, len);
	big_mont_reduce_ct(base_m, a_x, ax, n->value, n0, rr, len, 1);
	big_mont_pow_ct(acc, base_m, ev, elen, n->value, n0, one_m, len, pow);
	big_mont_mul_vec(base_m, acc, one, n->value, n0, len);

	/* Inputs are consumed: result may now be grown even if it aliases. */
	err = big_store_vec(result, base_m, len);
out:
	big_wipe(scratch, sizeof(chunk_t) * total);
	free(scratch);
	return err;
}
