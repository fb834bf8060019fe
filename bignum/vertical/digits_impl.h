/*
 * bignum/vertical/digits_impl.h -- the scalar chain of the vertical
 * reduction, shared by the AVX2 and AVX-512 kernels (dual_avx2.c,
 * dual_avx512.c): the four Montgomery digits of a block of columns.
 * Included by those files only.
 */
#ifndef BIGMONT_VERTICAL_DIGITS_IMPL_H
#define BIGMONT_VERTICAL_DIGITS_IMPL_H

#include "vertical.h"

/* m_{4g..4g+3} from the block's lanes u and the carry into column 4g;
 * digits at N and above are 0 (no column to clear). */
static inline __attribute__((always_inline)) void big_vert_mont_digits(uint64_t m[4], uint64_t *carry, const uint64_t u_in[4],
			       const struct big_vert_mod *mod, int g, int N)
{
	const uint64_t w1 = mod->w1, w2 = mod->w2, w3 = mod->w3;
	const uint64_t u0 = u_in[0] + *carry;
	const uint64_t m0 = u0 & BIG_VERT_DIGIT_MASK;
	uint64_t c = (u0 >> BIG_VERT_RADIX_BITS) + m0;
	m[0] = m0;
	m[1] = m[2] = m[3] = 0;
	if (4 * g + 1 >= N) {
		*carry = c;
		return;
	}
	const uint64_t u1 = u_in[1] + m0 * w1 + c;
	const uint64_t m1 = u1 & BIG_VERT_DIGIT_MASK;
	c = (u1 >> BIG_VERT_RADIX_BITS) + m1;
	m[1] = m1;
	if (4 * g + 2 >= N) {
		*carry = c;
		return;
	}
	const uint64_t u2 = u_in[2] + m0 * w2 + m1 * w1 + c;
	const uint64_t m2 = u2 & BIG_VERT_DIGIT_MASK;
	c = (u2 >> BIG_VERT_RADIX_BITS) + m2;
	m[2] = m2;
	if (4 * g + 3 >= N) {
		*carry = c;
		return;
	}
	const uint64_t u3 = u_in[3] + m0 * w3 + m1 * w2 + m2 * w1 + c;
	const uint64_t m3 = u3 & BIG_VERT_DIGIT_MASK;
	m[3] = m3;
	*carry = (u3 >> BIG_VERT_RADIX_BITS) + m3;
}

#endif
