/*
 * big_mont_reduce_ct: out[0..len) = x * R^k mod n (k = 1: Montgomery form,
 * k = 0: plain), x of any length, in constant time -- the reduction the
 * private key operations use instead of the variable-time division.
 *
 * One-chunk REDC rounds, low chunk first: t <- (t + x[i] + m*n) / B with
 * m = (t + x[i]) * n0 mod B, for i over ceil(xlen/len)*len = j*len chunks
 * (x zero-padded), leaving t == x * B^(-j*len) = x * R^-j (mod n).
 * Bound: if t < 2n then t + x[i] + m*n < 2n + B + (B-1)n, and dividing by
 * B gives t' < n + 1 + 2n/B < 2n (n >= 3), so t stays below 2n and one
 * masked subtraction reduces it fully.  Then j + k Montgomery products
 * by R^2, each multiplying by R, give x * R^k.
 *
 * Constant time: the round count depends on xlen and len only; the final
 * subtraction is a mask; the products are the fixed-length kernels.
 */
#include "internal.h"

void big_mont_reduce_ct(chunk_t *out, const chunk_t *x, int xlen,
			const chunk_t *n, chunk_t n0, const chunk_t *rr,
			int len, int to_mont)
{
	chunk_t t[BIG_MAX_MODULUS_CHUNKS];
	dchunk_t top = 0; /* t's chunks at and above len */
	const int blocks = xlen < 1 ? 1 : (xlen + len - 1) / len;
	const int rounds = blocks * len;

	for (int j = 0; j < len; j++)
		t[j] = 0;
	for (int i = 0; i < rounds; i++) {
		chunk_t carry = i < xlen ? x[i] : 0;
		for (int j = 0; j < len; j++) {
			dchunk_t s = (dchunk_t)t[j] + carry;
			t[j] = (chunk_t)s;
			carry = (chunk_t)(s >> BIG_CHUNK_SIZE);
		}
		top += carry;
		const chunk_t m = t[0] * n0;
		top += big_mul_add_vec(t, n, len, m);
		/* t[0] is now zero: divide by B. */
		for (int j = 0; j < len - 1; j++)
			t[j] = t[j + 1];
		t[len - 1] = (chunk_t)top;
		top >>= BIG_CHUNK_SIZE;
	}

	/* t + top*B^len < 2n: subtract n unless that borrows past top. */
	chunk_t borrow = 0;
	for (int j = 0; j < len; j++) {
		dchunk_t d = (dchunk_t)t[j] - n[j] - borrow;
		out[j] = (chunk_t)d;
		borrow = (chunk_t)(d >> BIG_CHUNK_SIZE) & 1;
	}
	const chunk_t keep = big_ct_mask_nonzero(borrow & ((chunk_t)top ^ 1));
	for (int j = 0; j < len; j++)
		out[j] = (t[j] & keep) | (out[j] & ~keep);
	big_wipe(t, sizeof(chunk_t) * (size_t)len);

	/* out == x * R^-blocks: each product by R^2 multiplies by R. */
	const int fixups = blocks + (to_mont ? 1 : 0);
	for (int i = 0; i < fixups; i++)
		big_mont_mul_vec(out, out, rr, n, n0, len);
}
