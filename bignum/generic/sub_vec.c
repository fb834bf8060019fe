/*
 * big_sub_vec: r[0..alen) = a[0..alen) - b[0..blen) mod B^alen, returns
 * the borrow (contract in bignum/internal.h).
 *
 * The difference a[i] - b[i] - borrow lies in [-B, B-1]: computed in a
 * double chunk it wraps, and the low bit of its high chunk is the borrow.
 * r may equal a or b: chunk i of both is read before r[i] is written.
 */
#include "internal.h"

chunk_t big_sub_vec(chunk_t *r, const chunk_t *a, int alen, const chunk_t *b,
		    int blen)
{
	chunk_t borrow = 0;
	int i = 0;
	for (; i < blen; i++) {
		const dchunk_t d = (dchunk_t)a[i] - b[i] - borrow;
		r[i] = (chunk_t)d;
		borrow = (chunk_t)(d >> BIG_CHUNK_SIZE) & 1;
	}
	for (; i < alen; i++) {
		const dchunk_t d = (dchunk_t)a[i] - borrow;
		r[i] = (chunk_t)d;
		borrow = (chunk_t)(d >> BIG_CHUNK_SIZE) & 1;
	}
	return borrow;
}
