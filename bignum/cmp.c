/*
 * Comparisons of magnitudes.
 *
 * big_is_zero: 1 if a is zero.  Not constant time (it branches on the
 * top chunk).
 *
 * big_cmp_abs: -1, 0, 1 as |aa| <, ==, > |bb|.  Not constant time: it
 * stops at the first differing chunk from the top.
 *
 * big_equal_ct: 1 if |aa| == |bb|.  Constant time: it ORs together the
 * XOR of every chunk pair both hold and every chunk only the longer one
 * holds (those must be zero), and tests the total once.
 *
 * Either input may have high zero chunks in its len, or len 0 (zero); they
 * are read as their value, never trimmed in place.
 */
#include "internal.h"

int big_is_zero(const BIGNUM *a)
{
	return big_sig_len(a) == 0;
}

int big_cmp_abs(const BIGNUM *aa, const BIGNUM *bb)
{
	const int alen = big_sig_len(aa), blen = big_sig_len(bb);
	if (alen != blen)
		return alen > blen ? 1 : -1;
	for (int i = alen - 1; i >= 0; i--) {
		if (aa->value[i] != bb->value[i])
			return aa->value[i] > bb->value[i] ? 1 : -1;
	}
	return 0;
}

int big_equal_ct(const BIGNUM *aa, const BIGNUM *bb)
{
	const int alen = aa->len > 0 ? aa->len : 0;
	const int blen = bb->len > 0 ? bb->len : 0;
	const BIGNUM *longer = alen > blen ? aa : bb;
	const int common = alen < blen ? alen : blen;
	const int len = alen > blen ? alen : blen;
	chunk_t diff = 0;
	int i = 0;
	for (; i < common; i++)
		diff |= aa->value[i] ^ bb->value[i];
	for (; i < len; i++)
		diff |= longer->value[i];
	return diff == 0;
}
