/*
 * big_add_vec: r[0..alen) = a[0..alen) + b[0..blen), returns the carry
 * (contract in bignum/internal.h).
 *
 * Carry bound: a[i] + b[i] + carry <= 2(B-1) + 1 = 2B - 1 < B^2, so the
 * double-chunk sum never overflows and its high chunk is the carry (0 or
 * 1).  r may equal a or b: chunk i of both is read before r[i] is written.
 */
#include "internal.h"

chunk_t big_add_vec(chunk_t *r, const chunk_t *a, int alen, const chunk_t *b,
		    int blen)
{
	chunk_t carry = 0;
	int i = 0;
	for (; i < blen; i++) {
		const dchunk_t s = (dchunk_t)a[i] + b[i] + carry;
		r[i] = (chunk_t)s;
		carry = (chunk_t)(s >> BIG_CHUNK_SIZE);
	}
	for (; i < alen; i++) {
		const dchunk_t s = (dchunk_t)a[i] + carry;
		r[i] = (chunk_t)s;
		carry = (chunk_t)(s >> BIG_CHUNK_SIZE);
	}
	return carry;
}
