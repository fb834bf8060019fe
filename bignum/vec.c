/*
 * BIGNUM <-> fixed-length chunk vectors, the form the Montgomery code and
 * the exponentiations work in: big_load_vec, big_store_vec (contracts in
 * bignum/internal.h).  Time depends on the lengths only; neither trims or
 * compares a value (a refusal of big_load_vec aside).
 */
#include "internal.h"

#include <string.h>

BIG_ERR_CODE big_load_vec(chunk_t *r, int len, const BIGNUM *x)
{
	const int xlen = x->len < 0 ? 0 : x->len;
	for (int i = len; i < xlen; i++)
		if (x->value[i] != 0)
			return BIG_INVALID_ARGS;
	big_copy_pad_vec(r, len, x->value, xlen < len ? xlen : len);
	return BIG_OK;
}

BIG_ERR_CODE big_store_vec(BIGNUM *r, const chunk_t *v, int len)
{
	BIG_ERR_CODE err = big_extend(r, len);
	if (err != BIG_OK)
		return err;
	memcpy(r->value, v, sizeof(chunk_t) * (size_t)len);
	r->len = len;
	r->sign = 1;
	return BIG_OK;
}
