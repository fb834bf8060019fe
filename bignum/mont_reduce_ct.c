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
 *
 * big_mont_reduce_below_ct: the CRT's reduction of its input a < pq
 * modulo p, where q has no more chunks than p, so a < p R: one
 * Montgomery reduction of the whole double-length a (x R^-1, below 2p)
 * and one product by R^2, about 1.5 products against the 4 above.
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

void big_mont_reduce_below_ct(chunk_t *out, const chunk_t *x, const chunk_t *n,
			      chunk_t n0, const chunk_t *rr, int len)
{
	chunk_t t[2 * BIG_MAX_MODULUS_CHUNKS];
	chunk_t top = 0; /* the carry into chunk i + len, 0 or 1 */

	if (len < 1)
		return;
	for (int j = 0; j < 2 * len; j++)
		t[j] = x[j];
	/* Row i clears chunk i: t += (t[i] n0 mod B) n B^i.  Its carry chunk
	 * and the carry left at i + len by the row before go into chunk
	 * i + len; what overflows there is the next row's top. */
	for (int i = 0; i < len; i++) {
		const chunk_t c = big_mul_add_vec(t + i, n, len, t[i] * n0);
		const chunk_t s = t[i + len] + c;
		const chunk_t c1 = s < c;
		t[i + len] = s + top;
		top = c1 + (t[i + len] < top);
	}
	/* (top:t[len..2 len)) = (x + Q n) / R < (n R + R n) / R = 2n. */
	big_sub_if_ge_vec(out, t + len, top, n, len);
	/* x R^-1 * R^2 / R = x mod n. */
	big_mont_mul_vec(out, out, rr, n, n0, len);
	big_wipe(t, sizeof(chunk_t) * (size_t)(2 * len));
}

void big_mont_reduce_crt_ct(chunk_t *out, const chunk_t *x, int xlen, const chunk_t *n,
			    chunk_t n0, const chunk_t *rr, int len)
{
	if (xlen == 2 * len)
		big_mont_reduce_below_ct(out, x, n, n0, rr, len);
	else
		big_mont_reduce_ct(out, x, xlen, n, n0, rr, len, 0);
}
