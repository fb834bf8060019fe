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

/* Significant chunks of |a|; 0 for zero. */
static int sig_len(const BIGNUM *a)
{
	if (a->len < 1)
		return 0;
	const int len = big_trimmed_len(a);
	return (len == 1 && a->value[0] == 0) ? 0 : len;
}

static void normalise(BIGNUM *r, int len)
{
	while (len > 1 && r->value[len - 1] == 0)
		len--;
	if (len < 1) {
		r->value[0] = 0;
		len = 1;
	}
	r->len = len;
	if (len == 1 && r->value[0] == 0)
		r->sign = 1;
}

/* result = |aa| + |bb| with the sign given. */
static BIG_ERR_CODE add_magnitudes(BIGNUM *result, const BIGNUM *aa,
				   const BIGNUM *bb, int sign)
{
	int alen = sig_len(aa), blen = sig_len(bb);
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
	const chunk_t *a = aa->value, *b = bb->value;
	chunk_t *r = result->value;

	chunk_t carry = 0;
	int i = 0;
	for (; i < blen; i++) {
		chunk_t s = a[i] + carry;
		chunk_t c1 = s < carry;
		chunk_t t = s + b[i];
		carry = c1 | (t < s);
		r[i] = t;
	}
	for (; i < alen; i++) {
		chunk_t s = a[i] + carry;
		carry = s < carry;
		r[i] = s;
	}
	r[alen] = carry;
	result->sign = sign;
	normalise(result, alen + 1);
	return BIG_OK;
}

/* result = |aa| - |bb|, the caller having checked |aa| >= |bb|. */
static BIG_ERR_CODE sub_magnitudes(BIGNUM *result, const BIGNUM *aa,
				   const BIGNUM *bb, int sign)
{
	const int alen = sig_len(aa), blen = sig_len(bb);
	BIG_ERR_CODE err = big_extend(result, alen < 1 ? 1 : alen);
	if (err != BIG_OK)
		return err;
	const chunk_t *a = aa->value, *b = bb->value;
	chunk_t *r = result->value;

	chunk_t borrow = 0;
	int i = 0;
	for (; i < blen; i++) {
		chunk_t d = a[i] - b[i];
		chunk_t b1 = a[i] < b[i];
		chunk_t e = d - borrow;
		borrow = b1 | (d < borrow);
		r[i] = e;
	}
	for (; i < alen; i++) {
		chunk_t d = a[i] - borrow;
		borrow = a[i] < borrow;
		r[i] = d;
	}
	result->sign = sign;
	normalise(result, alen);
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
