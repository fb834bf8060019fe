/*
 * big_sub_mod_vec: r = (a - b) mod n for a, b < n (contract in
 * bignum/internal.h).
 *
 * a - b lies in (-n, n): when the subtraction borrows, adding n brings it
 * into [0, n) and the carry out of that addition cancels the borrow.  The
 * addition always runs, with n under the borrow's mask, so the time does
 * not tell whether a < b.
 */
#include "internal.h"

void big_sub_mod_vec(chunk_t *r, const chunk_t *a, const chunk_t *b,
		     const chunk_t *n, int len)
{
	const chunk_t add_n = (chunk_t)0 - big_sub_vec(r, a, len, b, len);
	chunk_t carry = 0;
	for (int j = 0; j < len; j++) {
		const dchunk_t s = (dchunk_t)r[j] + (n[j] & add_n) + carry;
		r[j] = (chunk_t)s;
		carry = (chunk_t)(s >> BIG_CHUNK_SIZE);
	}
}
