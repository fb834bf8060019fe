/*
 * big_bitlength: the bit length of |a| (contract in bignum.h).  A len of 0
 * reads as zero; high zero chunks within len are skipped, never trimmed in
 * place.  Not constant time (it branches on the top chunk).
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
