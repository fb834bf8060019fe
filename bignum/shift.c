/*
 * big_shiftleft: result = aa << offs;  big_shiftright: result = aa >> offs
 * (the magnitude shifted, the sign kept; a zero result has sign 1).
 *
 * Any offs >= 0 (BIG_INVALID_ARGS for offs < 0; BIG_NO_MEM if the left
 * shift would not fit an int chunk count).  result may be aa: the left
 * shift writes from the top down and the right shift from the bottom up,
 * so each source chunk is read before it is overwritten.  Not constant
 * time in offs.
 */
#include "internal.h"

#include <limits.h>

static int sig_len(const BIGNUM *a)
{
	if (a->len < 1)
		return 0;
	const int len = big_trimmed_len(a);
	return (len == 1 && a->value[0] == 0) ? 0 : len;
}

static BIG_ERR_CODE set_zero(BIGNUM *result)
{
	BIG_ERR_CODE err = big_extend(result, 1);
	if (err != BIG_OK)
		return err;
	result->value[0] = 0;
	result->len = 1;
	result->sign = 1;
	return BIG_OK;
}

static void normalise(BIGNUM *r, int len)
{
	while (len > 1 && r->value[len - 1] == 0)
		len--;
	r->len = len;
	if (len == 1 && r->value[0] == 0)
		r->sign = 1;
}

BIG_ERR_CODE big_shiftleft(BIGNUM *result, const BIGNUM *aa, int offs)
{
	if (offs < 0)
		return BIG_INVALID_ARGS;
	const int alen = sig_len(aa);
	if (alen == 0)
		return set_zero(result);
	const int words = offs / BIG_CHUNK_SIZE;
	const int bits = offs % BIG_CHUNK_SIZE;
	if (words > INT_MAX - 1 - alen)
		return BIG_NO_MEM;
	const int rlen = alen + words + 1;
	const int sign = aa->sign < 0 ? -1 : 1;
	BIG_ERR_CODE err = big_extend(result, rlen);
	if (err != BIG_OK)
		return err;
	const chunk_t *a = aa->value;
	chunk_t *r = result->value;

	if (bits == 0) {
		r[rlen - 1] = 0;
		for (int i = alen - 1; i >= 0; i--)
			r[i + words] = a[i];
	} else {
		r[rlen - 1] = a[alen - 1] >> (BIG_CHUNK_SIZE - bits);
		for (int i = alen - 1; i > 0; i--)
			r[i + words] = (a[i] << bits) |
				       (a[i - 1] >> (BIG_CHUNK_SIZE - bits));
		r[words] = a[0] << bits;
	}
	for (int i = 0; i < words; i++)
		r[i] = 0;
	result->sign = sign;
	normalise(result, rlen);
	return BIG_OK;
}

BIG_ERR_CODE big_shiftright(BIGNUM *result, const BIGNUM *aa, int offs)
{
	if (offs < 0)
		return BIG_INVALID_ARGS;
	const int alen = sig_len(aa);
	const int words = offs / BIG_CHUNK_SIZE;
	const int bits = offs % BIG_CHUNK_SIZE;
	if (alen == 0 || words >= alen)
		return set_zero(result);
	const int rlen = alen - words;
	const int sign = aa->sign < 0 ? -1 : 1;
	BIG_ERR_CODE err = big_extend(result, rlen);
	if (err != BIG_OK)
		return err;
	const chunk_t *a = aa->value;
	chunk_t *r = result->value;

	if (bits == 0) {
		for (int i = 0; i < rlen; i++)
			r[i] = a[i + words];
	} else {
		for (int i = 0; i < rlen - 1; i++)
			r[i] = (a[i + words] >> bits) |
			       (a[i + words + 1] << (BIG_CHUNK_SIZE - bits));
		r[rlen - 1] = a[alen - 1] >> bits;
	}
	result->sign = sign;
	normalise(result, rlen);
	return BIG_OK;
}
