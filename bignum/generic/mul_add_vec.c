/*
 * big_mul_add_vec_c: r[0..len) += a[0..len) * digit, returns the carry:
 * the row big_mul_add_row (bignum/internal.h, with its carry bound).
 */
#include "internal.h"

chunk_t big_mul_add_vec_c(chunk_t *r, const chunk_t *a, int len, chunk_t digit)
{
	return big_mul_add_row(r, a, len, digit);
}
