/*
 * big_mont_mul_vec_c: r = a * b * B^-len mod n, fully reduced with a masked
 * final subtraction.  Portable C, constant time.
 *
 * CIOS, per chunk b[i]: one pass adds a*b[i], a second adds m*n (m =
 * t[0]*n0 clears the low chunk) and stores chunk j at j-1, so the division
 * by B costs nothing.  Every double-chunk sum is in range: t[j] + x*y + c
 * <= (B-1) + (B-1)^2 + (B-1) = B^2 - 1.
 *
 * Why two passes, not one fused loop with two carry chains: gcc 12 spills
 * the fused loop's state (two 128-bit sums, two carries, four pointers)
 * to the stack with 64-bit chunks (the measurements: docs/design-notes.md).
 *
 * Bound: with a < n (b any len-chunk value) the running value stays below
 * 2n < 2 B^len: (t + a b[i] + m n) / B < (2n + (B-1) n + (B-1) n) / B =
 * 2n.  So it fits in len chunks plus a top word in {0, 1} (t[len] holds
 * the top between the passes).
 *
 * Constant time: loops depend on len only; the final "t >= n" choice is a
 * mask applied to every chunk (big_sub_if_ge_vec).  r may equal a and/or
 * b: every chunk of a and b is read into t's rows before r is written, at
 * the very end.
 */
#include "internal.h"

void big_mont_mul_vec_c(chunk_t *r, const chunk_t *a, const chunk_t *b,
			const chunk_t *n, chunk_t n0, int len)
{
	chunk_t t[BIG_MAX_MODULUS_CHUNKS + 1];
	chunk_t top = 0;

	if (len < 1)
		return;
	for (int j = 0; j < len; j++)
		t[j] = 0;
	for (int i = 0; i < len; i++) {
		/* Two short passes rather than one fused loop: each keeps few
		 * values live, so the compiler holds them all in registers. */
		chunk_t c = big_mul_add_row(t, a, len, b[i]);
		dchunk_t s = (dchunk_t)top + c;
		t[len] = (chunk_t)s;
		top = (chunk_t)(s >> BIG_CHUNK_SIZE);

		const chunk_t m = t[0] * n0;
		s = (dchunk_t)m * n[0] + t[0]; /* low chunk becomes zero */
		c = (chunk_t)(s >> BIG_CHUNK_SIZE);
		for (int j = 1; j < len; j++) {
			s = (dchunk_t)m * n[j] + t[j] + c;
			t[j - 1] = (chunk_t)s;
			c = (chunk_t)(s >> BIG_CHUNK_SIZE);
		}
		s = (dchunk_t)t[len] + c;
		t[len - 1] = (chunk_t)s;
		top += (chunk_t)(s >> BIG_CHUNK_SIZE);
	}
	big_sub_if_ge_vec(r, t, top, n, len);
	big_wipe(t, sizeof(chunk_t) * (size_t)(len + 1));
}
