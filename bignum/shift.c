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

/* r[0..alen+words+1) = a[0..alen) << (words * BIG_CHUNK_SIZE + bits),
 * written from the top down (r may equal a). */
static void shift_left_vec(chunk_t *r, const chunk_t *a, int alen, int words,
			   int bits)
{
	const int rlen = alen + words + 1;
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
}

/* r[0..alen-words) = a[0..alen) >> (words * BIG_CHUNK_SIZE + bits),
 * words < alen, written from the bottom up (r may equal a). */
static void shift_right_vec(chunk_t *r, const chunk_t *a, int alen, int words,
			    int bits)
{
	const int rlen = alen - words;
	if (bits == 0) {
		for (int i = 0; i < rlen; i++)
			r[i] = a[i + words];
	} else {
		for (int i = 0; i < rlen - 1; i++)
			r[i] = (a[i + words] >> bits) |
			       (a[i + words + 1] << (BIG_CHUNK_SIZE - bits));
		r[rlen - 1] = a[alen - 1] >> bits;
	}
}

static BIG_ERR_CODE shift(BIGNUM *result, const BIGNUM *aa, int offs, int left)
{
	if (offs < 0)
		return BIG_INVALID_ARGS;
	const int alen = big_sig_len(aa);
	const int words = offs / BIG_CHUNK_SIZE;
	const int bits = offs % BIG_CHUNK_SIZE;
	if (alen == 0 || (!left && words >= alen))
		return big_set_chunk(result, 0);
	if (left && words > INT_MAX - 1 - alen)
		return BIG_NO_MEM;
	const int rlen = left ? alen + words + 1 : alen - words;
	const int sign = aa->sign < 0 ? -1 : 1;
	BIG_ERR_CODE err = big_extend(result, rlen);
	if (err != BIG_OK)
		return err;
	if (left)
		shift_left_vec(result->value, aa->value, alen, words, bits);
	else
		shift_right_vec(result->value, aa->value, alen, words, bits);
	result->sign = sign;
	big_normalise(result, rlen);
	return BIG_OK;
}

BIG_ERR_CODE big_shiftleft(BIGNUM *result, const BIGNUM *aa, int offs)
{
	return shift(result, aa, offs, 1);
}

BIG_ERR_CODE big_shiftright(BIGNUM *result, const BIGNUM *aa, int offs)
{
	return shift(result, aa, offs, 0);
}
