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
#include <string.h>

BIG_ERR_CODE big_modexp_ct(BIGNUM *result, const BIGNUM *a, const BIGNUM *e,
			   const BIGNUM *n, const BIGNUM *n_rr)
{
	if (n->len < 1)
		return BIG_INVALID_ARGS;
	const int len = big_trimmed_len(n);
	if (len > BIG_MAX_MODULUS_CHUNKS || (n->value[0] & 1) == 0 ||
	    (len == 1 && n->value[0] <= 1))
		return BIG_INVALID_ARGS;
	if (n_rr != NULL && n_rr->len > 0 && big_trimmed_len(n_rr) > len)
		return BIG_INVALID_ARGS;

	static const chunk_t zero_chunk = 0;
	const chunk_t *av = a->len > 0 ? a->value : &zero_chunk;
	const int alen = a->len > 0 ? a->len : 1;
	const chunk_t *ev = e->len > 0 ? e->value : &zero_chunk;
	const int elen = e->len > 0 ? e->len : 1;

	BIGNUM rr_own;
	const BIGNUM *rr_src = n_rr;
	BIG_ERR_CODE err;
	if (n_rr == NULL) {
		err = big_init(&rr_own, len);
		if (err != BIG_OK)
			return err;
		err = big_mont_rr(&rr_own, n);
		if (err != BIG_OK) {
			big_finish(&rr_own);
			return err;
		}
		rr_src = &rr_own;
	}

	/* a is read as at least len chunks: a trimmed a (top chunk zero) runs
	 * the same operations as any other a < n. */
	const int ax = alen > len ? alen : len;
	const size_t pow_chunks = big_mont_pow_ct_scratch(len, elen);
	const size_t total = 5 * (size_t)len + (size_t)ax + pow_chunks;
	chunk_t *scratch = malloc(sizeof(chunk_t) * total);
	if (scratch == NULL) {
		if (n_rr == NULL)
			big_finish(&rr_own);
		return BIG_NO_MEM;
	}
	chunk_t *rr = scratch, *one = rr + len, *one_m = one + len;
	chunk_t *base_m = one_m + len, *acc = base_m + len, *a_x = acc + len;
	chunk_t *pow = a_x + ax;
	for (int j = 0; j < ax; j++)
		a_x[j] = j < alen ? av[j] : 0;

	const int rr_copy = rr_src->len < len ? rr_src->len : len;
	for (int j = 0; j < len; j++) {
		rr[j] = j < rr_copy ? rr_src->value[j] : 0;
		one[j] = j == 0;
	}
	if (n_rr == NULL)
		big_finish(&rr_own);

	const chunk_t n0 = big_n0(n->value[0]);
	big_mont_mul_vec(one_m, rr, one, n->value, n0, len);
	big_mont_reduce_ct(base_m, a_x, ax, n->value, n0, rr, len, 1);
	big_mont_pow_ct(acc, base_m, ev, elen, n->value, n0, one_m, len, pow);
	big_mont_mul_vec(base_m, acc, one, n->value, n0, len);

	/* Inputs are consumed: result may now be grown even if it aliases. */
	err = big_extend(result, len);
	if (err == BIG_OK) {
		memcpy(result->value, base_m, sizeof(chunk_t) * (size_t)len);
		result->len = len;
		result->sign = 1;
	}
	big_wipe(scratch, sizeof(chunk_t) * total);
	free(scratch);
	return err;
}
