/*
 * big_mul_add_vec_c: r[0..len) += a[0..len) * digit, returns the carry.
 *
 * Carry bound: a[i]*digit + r[i] + carry <= (B-1)^2 + 2(B-1) = B^2 - 1,
 * so the double-chunk sum never overflows.
 */
#include "internal.h"

chunk_t big_mul_add_vec_c(chunk_t *r, const chunk_t *a, int len, chunk_t digit)
{
	chunk_t carry = 0;
	for (int i = 0; i < len; i++) {
		dchunk_t p = (dchunk_t)a[i] * digit + r[i] + carry;
		r[i] = (chunk_t)p;
		carry = (chunk_t)(p >> BIG_CHUNK_SIZE);
	}
	return carry;
}
