/*
 * big_mul: result = aa * bb, sign the product of the signs (zero has sign
 * 1).  Schoolbook through the dispatched kernels: big_sqr_vec when both
 * operands are the same number (aa == bb), else big_mul_vec.
 *
 * result must not alias aa or bb (BIG_INVALID_ARGS if it is the same
 * BIGNUM or shares their chunks).  Inputs with len 0 or high zero chunks
 * are read as their value.  The kernels take time that depends on the
 * lengths only; the final trim of the result branches on its top chunk.
 */
#include "internal.h"

BIG_ERR_CODE big_mul(BIGNUM *result, const BIGNUM *aa, const BIGNUM *bb)
{
	if (result == aa || result == bb ||
	    (result->value != NULL &&
	     (result->value == aa->value || result->value == bb->value)))
		return BIG_INVALID_ARGS;
	const int alen = big_sig_len(aa), blen = big_sig_len(bb);
	if (alen == 0 || blen == 0)
		return big_set_chunk(result, 0);
	const int sign = (aa->sign < 0) != (bb->sign < 0) ? -1 : 1;
	const int rlen = alen + blen;
	BIG_ERR_CODE err = big_extend(result, rlen);
	if (err != BIG_OK)
		return err;

	if (aa == bb || (aa->value == bb->value && alen == blen))
		big_sqr_vec(result->value, aa->value, alen);
	else
		big_mul_vec(result->value, aa->value, alen, bb->value, blen);

	/* Both operands are non-zero, so only the top chunk can be zero. */
	result->len = result->value[rlen - 1] == 0 ? rlen - 1 : rlen;
	result->sign = sign;
	return BIG_OK;
}
