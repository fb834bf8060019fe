/*
 * big_sub_if_ge_vec: r = (top:t) - n if (top:t) >= n, else (top:t), for
 * (top:t) < 2n (contract in bignum/internal.h): the final reduction of a
 * Montgomery product in C (bignum/generic/mont_mul_vec.c, mont_sqr_vec.c)
 * and of a modular sum (bignum/mont_reduce_ct.c).
 *
 * Both candidates are formed and one is kept under a mask, so the time and
 * the addresses are the same whichever it is: (top:t) >= n exactly when
 * the subtraction does not borrow past the top chunk, i.e. when it does
 * not borrow or top is 1.  The subtraction is written out here rather than
 * a call to big_sub_vec: this runs once per Montgomery product in the C
 * kernels, where the call and its general two-length loop cost about 1%
 * of an RSA-1024 private operation (callgrind instruction count).
 */
#include "internal.h"

void big_sub_if_ge_vec(chunk_t *r, const chunk_t *t, chunk_t top,
		       const chunk_t *n, int len)
{
	chunk_t d[BIG_MAX_MODULUS_CHUNKS];
	chunk_t borrow = 0;
	for (int j = 0; j < len; j++) {
		const dchunk_t diff = (dchunk_t)t[j] - n[j] - borrow;
		d[j] = (chunk_t)diff;
		borrow = (chunk_t)(diff >> BIG_CHUNK_SIZE) & 1;
	}
	const chunk_t keep_t = big_ct_mask_nonzero(borrow & (top ^ 1));
	for (int j = 0; j < len; j++)
		r[j] = (t[j] & keep_t) | (d[j] & ~keep_t);
	big_wipe(d, sizeof(chunk_t) * (size_t)len);
}
