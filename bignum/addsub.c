/*
 * Addition and subtraction: big_add_abs, big_sub_pos (magnitudes) and the
 * signed big_add, big_sub built on them.
 *
 *   big_add_abs:  result = |aa| + |bb|, sign 1.
 *   big_sub_pos:  result = |aa| - |bb|, sign 1; BIG_INVALID_ARGS (result
 *                 untouched) if |aa| < |bb|.
 *   big_add/sub:  signed result = aa + bb, aa - bb.
 *
 * result may be the same BIGNUM as aa and/or bb: every chunk i is read
 * before chunk i of the result is written, and the input pointers are read
 * again after big_extend (which may move result->value).  Inputs with len 0
 * or high zero chunks are read as their value; results are normalised and
 * zero has sign 1.  Not constant time (lengths, the comparison of |aa|
 * and |bb|, and the final trim branch on values).
 */
#include "internal.h"

/* result = |aa| + |bb| with the sign given. */
static BIG_ERR_CODE add_magnitudes(BIGNUM *result, const BIGNUM *aa,
				   const BIGNUM *bb, int sign)
{
	int alen = big_sig_len(aa), blen = big_sig_len(bb);
	if (alen < blen) {
		const BIGNUM *t = aa;
		aa = bb;
		bb = t;
		int tl = alen;
		alen = blen;
		blen = tl;
	}
	BIG_ERR_CODE err = big_extend(result, alen + 1);
	if (err != BIG_OK)
		return err;
	result->value[alen] = big_add_vec(result->value, aa->value, alen,
					  bb->value, blen);
	result->sign = sign;
	big_normalise(result, alen + 1);
	return BIG_OK;
}

/* result = |aa| - |bb|, the caller having checked |aa| >= |bb|. */
static BIG_ERR_CODE sub_magnitudes(BIGNUM *result, const BIGNUM *aa,
				   const BIGNUM *bb, int sign)
{
	const int alen = big_sig_len(aa), blen = big_sig_len(bb);
	BIG_ERR_CODE err = big_extend(result, alen < 1 ? 1 : alen);
	if (err != BIG_OK)
		return err;
	big_sub_vec(result->value, aa->value, alen, bb->value, blen);
	result->sign = sign;
	big_normalise(result, alen);
	return BIG_OK;
}

BIG_ERR_CODE big_add_abs(BIGNUM *result, const BIGNUM *aa, const BIGNUM *bb)
{
	return add_magnitudes(result, aa, bb, 1);
}

BIG_ERR_CODE big_sub_pos(BIGNUM *result, const BIGNUM *aa, const BIGNUM *bb)
{
	if (big_cmp_abs(aa, bb) < 0)
		return BIG_INVALID_ARGS;
	return sub_magnitudes(result, aa, bb, 1);
}

/* result = asign*|aa| + bsign*|bb|. */
static BIG_ERR_CODE add_signed(BIGNUM *result, const BIGNUM *aa, int asign,
			       const BIGNUM *bb, int bsign)
{
	if (asign == bsign)
		return add_magnitudes(result, aa, bb, asign);
	if (big_cmp_abs(aa, bb) >= 0)
		return sub_magnitudes(result, aa, bb, asign);
	return sub_magnitudes(result, bb, aa, bsign);
}

BIG_ERR_CODE big_add(BIGNUM *result, const BIGNUM *aa, const BIGNUM *bb)
{
	return add_signed(result, aa, aa->sign < 0 ? -1 : 1, bb,
			  bb->sign < 0 ? -1 : 1);
}

BIG_ERR_CODE big_sub(BIGNUM *result, const BIGNUM *aa, const BIGNUM *bb)
{
	return add_signed(result, aa, aa->sign < 0 ? -1 : 1, bb,
			  bb->sign < 0 ? 1 : -1);
}
