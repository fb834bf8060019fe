/*
 * big_sqr_vec_c: r[0..2*len) = a * a.
 *
 * The off-diagonal products a[i]*a[j], i < j, are summed once, doubled by a
 * one-bit shift, and the squares a[i]^2 added on the diagonal: about half
 * the multiplications of big_mul_vec.  Correct for every len >= 1 (len == 1
 * has no off-diagonal part).  Its rows are the C row kernels, called by
 * name (the c variant is C all through).
 */
#include "internal.h"

void big_sqr_vec_c(chunk_t *r, const chunk_t *a, int len)
{
	const int n2 = 2 * len;

	/* Off-diagonal triangle into r[1..2*len-1). */
	r[0] = 0;
	r[n2 - 1] = 0;
	if (len > 1) {
		r[len] = big_mul_set_vec_c(r + 1, a + 1, len - 1, a[0]);
		for (int i = 1; i < len - 1; i++)
			r[len + i] = big_mul_add_vec_c(r + 2 * i + 1, a + i + 1,
						     len - 1 - i, a[i]);
	} else {
		r[1] = 0;
	}

	/* Double it and add the squares on the diagonal. */
	big_sqr_diag_vec(r, a, len);
}
