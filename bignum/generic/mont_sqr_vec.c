/*
 * big_mont_sqr_vec_c: r = a^2 * B^-len mod n.  The C version is the
 * multiplication with b == a; the assembly variants have a dedicated
 * squaring.
 */
#include "internal.h"

void big_mont_sqr_vec_c(chunk_t *r, const chunk_t *a, const chunk_t *n,
			chunk_t n0, int len)
{
	big_mont_mul_vec_c(r, a, a, n, n0, len);
}
