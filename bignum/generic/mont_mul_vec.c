/*
 * big_mont_mul_vec_c: r = a * b * B^-len mod n (CIOS: coarsely integrated
 * operand scanning), fully reduced with a masked final subtraction.
 *
 * Bound: with a, b < n the running value t stays < 2n < 2 B^len, so it fits
 * in len chunks plus one carry bit (t[len] in {0, 1}).  Each outer step adds
 * a*b[i] and m*n (m = t[0]*n0 makes the low chunk vanish) and shifts down
 * one chunk.
 *
 * Constant time: the loops depend on len only; the final "t >= n" choice is
 * a mask applied to every chunk.
 */
#include "internal.h"

/* r = (top:t) - n if (top:t) >= n else (top:t), with (top:t) < 2n; masked. */
static void reduce_tail(chunk_t *r, chunk_t *t, chunk_t top,
			    const chunk_t *n, int len)
{
	chunk_t borrow = 0;
	chunk_t d[BIG_MAX_MODULUS_CHUNKS];
	for (int j = 0; j < len; j++) {
		dchunk_t diff = (dchunk_t)t[j] - n[j] - borrow;
		d[j] = (chunk_t)diff;
		borrow = (chunk_t)(diff >> BIG_CHUNK_SIZE) & 1;
	}
	/* Keep t when the subtraction borrowed past the top chunk. */
	chunk_t keep_t = big_ct_mask_nonzero(borrow & (top ^ 1));
	for (int j = 0; j < len; j++)
		r[j] = (t[j] & keep_t) | (d[j] & ~keep_t);
	big_wipe(d, sizeof(chunk_t) * (size_t)len);
}

void big_mont_mul_vec_c(chunk_t *r, const chunk_t *a, const chunk_t *b,
			const chunk_t *n, chunk_t n0, int len)
{
	chunk_t t[BIG_MAX_MODULUS_CHUNKS + 2];
	chunk_t top = 0;

	for (int j = 0; j < len; j++)
		t[j] = 0;
	for (int i = 0; i < len; i++) {
		/* t += a * b[i] */
		chunk_t c = big_mul_add_vec_c(t, a, len, b[i]);
		dchunk_t s = (dchunk_t)top + c;
		chunk_t t_hi = (chunk_t)s;
		chunk_t t_hi2 = (chunk_t)(s >> BIG_CHUNK_SIZE);
		/* t += m * n, then shift down one chunk */
		chunk_t m = t[0] * n0;
		c = big_mul_add_vec_c(t, n, len, m);
		s = (dchunk_t)t_hi + c;
		for (int j = 0; j < len - 1; j++)
			t[j] = t[j + 1];
		t[len - 1] = (chunk_t)s;
		top = t_hi2 + (chunk_t)(s >> BIG_CHUNK_SIZE);
	}
	reduce_tail(r, t, top, n, len);
	big_wipe(t, sizeof(chunk_t) * (size_t)len);
}
