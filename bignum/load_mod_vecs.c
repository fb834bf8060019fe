/*
 * big_load_mod_vecs: the modulus check and the operands' loads that every
 * fixed-length product or power on BIGNUMs starts with (contract in
 * bignum/internal.h).  Time depends on n and the lengths only, as
 * big_check_modulus's and big_load_vec's do.
 */
#include "internal.h"

BIG_ERR_CODE big_load_mod_vecs(int *len, const BIGNUM *n, int count,
			       chunk_t *const vecs[], const BIGNUM *const nums[])
{
	*len = 0;
	BIG_ERR_CODE err = big_check_modulus(n, len);
	for (int i = 0; i < count && err == BIG_OK; i++)
		err = big_load_vec(vecs[i], *len, nums[i]);
	return err;
}
