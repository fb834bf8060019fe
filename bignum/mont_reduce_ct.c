/*
 * big_mont_reduce_ct: out[0..len) = x * R^k mod n (k = 1: Montgomery form,
 * k = 0: plain), x of any length, in constant time -- the reduction the
 * private key operations use instead of the variable-time division.
 *
 * x is read as blocks of len chunks, x = sum x_i R^i (the top block
 * zero-padded), and taken in by Horner's rule in Montgomery form:
 *
 *   acc = x_top * R,   then for each lower block   acc = acc * R + x_i * R,
 *
 * each "* R" one Montgomery product by R^2 (rr), each sum a masked
 * subtraction of n; acc ends as x * R mod n.  A block may be >= n (up to
 * R - 1): the kernels take b < R when a < n (internal.h), so it goes in as
 * b with rr (< n) as a.  k = 0 takes one more product, by 1.
 * Cost: 2 * blocks - 1 + (1 - k) products: whole-block products, not
 * one-chunk REDC rounds (docs/design-notes.md).
 *
 * Constant time: the number of products and sums depends on xlen and len
 * only; every sum's reduction is a mask.
 */
#include "internal.h"

/* blk[0..len) = chunks [from, from + len) of x[0..xlen), zero-padded. */
static void load_block(chunk_t *blk, const chunk_t *x, int xlen, int from,
		       int len)
{
	const int avail = xlen - from;
	big_copy_pad_vec(blk, len, x + from, avail < len ? avail : len);
}

void big_mont_reduce_ct(chunk_t *out, const chunk_t *x, int xlen,
			const chunk_t *n, chunk_t n0, const chunk_t *rr,
			int len, int to_mont)
{
	chunk_t blk[BIG_MAX_MODULUS_CHUNKS], term[BIG_MAX_MODULUS_CHUNKS];
	const int blocks = xlen < 1 ? 1 : (xlen + len - 1) / len;

	if (len < 1)
		return;
	load_block(blk, x, xlen, (blocks - 1) * len, len);
	big_mont_mul_vec(out, rr, blk, n, n0, len);
	for (int i = blocks - 2; i >= 0; i--) {
		big_mont_mul_vec(out, rr, out, n, n0, len);
		load_block(blk, x, xlen, i * len, len);
		big_mont_mul_vec(term, rr, blk, n, n0, len);
		/* out + term < 2n: one masked subtraction. */
		const chunk_t carry = big_add_vec(out, out, len, term, len);
		big_sub_if_ge_vec(out, out, carry, n, len);
	}
	if (!to_mont) {
		for (int j = 0; j < len; j++)
			blk[j] = j == 0;
		big_mont_mul_vec(out, out, blk, n, n0, len);
	}
	big_wipe(blk, sizeof(chunk_t) * (size_t)len);
	big_wipe(term, sizeof(chunk_t) * (size_t)len);
}
