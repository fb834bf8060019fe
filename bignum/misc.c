/*
 * Small helpers: big_bitlength, big_is_zero, big_set_chunk.
 *
 * A len of 0 reads as zero; high zero chunks within len are skipped, never
 * trimmed in place.  Not constant time (they branch on the top chunk).
 */
#include "internal.h"

int big_bitlength(const BIGNUM *a)
{
	if (a->len < 1)
		return 0;
	const int len = big_trimmed_len(a);
	chunk_t top = a->value[len - 1];
	int bits = 0;
	while (top != 0) {
		bits++;
		top >>= 1;
	}
	if (bits == 0)
		return 0; /* len == 1 and the value is zero */
	return (len - 1) * BIG_CHUNK_SIZE + bits;
}

int big_is_zero(const BIGNUM *a)
{
	return big_sig_len(a) == 0;
}

BIG_ERR_CODE big_set_chunk(BIGNUM *result, BIG_CHUNK_TYPE v)
{
	BIG_ERR_CODE err = big_extend(result, 1);
	if (err != BIG_OK)
		return err;
	result->value[0] = v;
	result->len = 1;
	result->sign = 1;
	return BIG_OK;
}
