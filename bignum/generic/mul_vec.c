/*
 * big_mul_vec_c: r[0..alen+blen) = a * b, schoolbook, one row per chunk of
 * b through the C row kernels: the c variant is C all through, and calls
 * its own kernels by their names, not back through the dispatch.
 */
#include "internal.h"

void big_mul_vec_c(chunk_t *r, const chunk_t *a, int alen, const chunk_t *b,
		   int blen)
{
	r[alen] = big_mul_set_vec_c(r, a, alen, b[0]);
	for (int j = 1; j < blen; j++)
		r[alen + j] = big_mul_add_vec_c(r + j, a, alen, b[j]);
}
