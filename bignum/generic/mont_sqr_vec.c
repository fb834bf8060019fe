/*
 * big_mont_sqr_vec_c: r = a^2 * B^-len mod n, fully reduced with a masked
 * final subtraction.  Portable C, constant time; r may equal a.
 *
 * Square first, then reduce (SOS: separated operand scanning), because a
 * square needs only the off-diagonal products a[i]*a[j], i < j, once:
 * len(len-1)/2 products, doubled by a shift, plus len squares on the
 * diagonal (big_sqr_diag_vec); then len REDC rows of len products.  That
 * is about 1.5 len^2 multiplications against 2 len^2 for the product
 * (measured against big_mont_mul_vec_c: docs/design-notes.md).
 *
 * REDC bound: T = a^2 < n^2 < B^len n, so (T + M n) / B^len < 2n: len
 * chunks plus a top bit, carried row to row in `extra` (the carry out of
 * position i+len of row i lands at i+len+1, which row i+1 adds to).
 *
 * Constant time: every loop depends on len only; the final choice is the
 * masked subtraction big_sub_if_ge_vec.
 */
#include "internal.h"

void big_mont_sqr_vec_c(chunk_t *r, const chunk_t *a, const chunk_t *n,
			chunk_t n0, int len)
{
	chunk_t t[2 * BIG_MAX_MODULUS_CHUNKS];
	const int n2 = 2 * len;

	if (len < 1)
		return;
	/* Off-diagonal triangle: t = sum over i < j of a[i]*a[j] B^(i+j). */
	for (int i = 0; i < len; i++)
		t[i] = 0;
	for (int i = 0; i < len; i++)
		t[i + len] = big_mul_add_row(t + 2 * i + 1, a + i + 1, len - 1 - i, a[i]);

	/* Double it and add the squares: a^2 < B^(2 len), no carry out. */
	big_sqr_diag_vec(t, a, len);

	/* REDC: clear one low chunk per row. */
	chunk_t extra = 0;
	for (int i = 0; i < len; i++) {
		const chunk_t c = big_mul_add_row(t + i, n, len, t[i] * n0);
		dchunk_t s = (dchunk_t)t[i + len] + c + extra;
		t[i + len] = (chunk_t)s;
		extra = (chunk_t)(s >> BIG_CHUNK_SIZE);
	}
	big_sub_if_ge_vec(r, t + len, extra, n, len);
	big_wipe(t, sizeof(chunk_t) * (size_t)n2);
}
