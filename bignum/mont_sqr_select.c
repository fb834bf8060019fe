/*
 * big_mont_sqr_select_vec: a Montgomery squaring and a constant-time table
 * read in one call (contract in internal.h).  The window exponentiation
 * reads its table between a window's last squaring and its product; the
 * read's vector loads and blends can run beside the squaring's integer
 * columns, on pipes the squaring leaves idle, where a kernel interleaves
 * them (big_mont_sqr_select_vec_adx, asm/x86_64/mont_sqr_select_vec_adx.asm:
 * 8 chunks, 32 entries, the shape of RSA-1024's exponentiations).  Every
 * other shape, and every build without it, makes the two calls: here.
 */
#include "internal.h"

void big_mont_sqr_select_vec_separate(chunk_t *r, const chunk_t *a,
				      const chunk_t *n, chunk_t n0, int len,
				      chunk_t *sel, const chunk_t *table,
				      int entries, chunk_t index)
{
	big_mont_sqr_vec(r, a, n, n0, len);
	big_ct_select(sel, table, entries, index, len);
}
