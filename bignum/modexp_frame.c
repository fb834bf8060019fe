/*
 * big_modexp_open, big_modexp_close: the frame of big_modexp and
 * big_modexp_ct (contract in bignum/internal.h) -- the modulus check, the
 * one allocation of scratch, R^2 mod n and the vector 1 in front of it,
 * and the wipe before the free.  n is public: the time depends on it and
 * on the lengths only.
 */
#include "internal.h"

#include <stdlib.h>

BIG_ERR_CODE big_modexp_open(struct big_modexp_frame *f, const BIGNUM *n,
			     const BIGNUM *n_rr, int vectors, int alen)
{
	BIG_ERR_CODE err = big_check_modulus(n, &f->len);
	if (err != BIG_OK)
		return err;
	const int len = f->len;
	f->total = (size_t)vectors * (size_t)len + (size_t)(alen > len ? alen - len : 0);
	f->scratch = malloc(sizeof(chunk_t) * f->total);
	if (f->scratch == NULL)
		return BIG_NO_MEM;
	err = big_mont_rr_vec(f->scratch, n_rr, n, len);
	if (err != BIG_OK) {
		big_modexp_close(f);
		return err;
	}
	for (int j = 0; j < len; j++)
		f->scratch[len + j] = j == 0;
	f->n0 = big_n0(n->value[0]);
	return BIG_OK;
}

void big_modexp_close(struct big_modexp_frame *f)
{
	big_wipe(f->scratch, sizeof(chunk_t) * f->total);
	free(f->scratch);
}
