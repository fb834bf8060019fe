/*
 * Montgomery arithmetic on BIGNUMs: n0, R^2 mod n, conversion into
 * Montgomery form, the Montgomery product and the modular product built on
 * it (big_mod_mul); and the pieces the exponentiations share: the modulus
 * check, the loads that follow it (big_load_mod_vecs) and R^2 as a chunk
 * vector (contracts in bignum.h and internal.h).
 *
 * R = 2^(BIG_CHUNK_SIZE * len) where len is n's trimmed length (n->len
 * without high zero chunks), so the fused kernels run on exactly the
 * modulus' chunks.  Inputs shorter than that are zero-padded into scratch,
 * never extended in place.
 *
 * big_n0, big_mont_mul and big_mod_mul are constant time (no branch or
 * index on the values of a, b); big_mont_rr divides (variable time in n,
 * which is public or a once-per-key precomputation).  big_mont_conv,
 * big_mont_mul and big_mod_mul trim their result (the public API returns
 * normalised values); the constant-time exponentiations work below this
 * layer, on fixed-length chunk vectors.
 */
#include "internal.h"

#include <string.h>

BIG_CHUNK_TYPE big_n0(BIG_CHUNK_TYPE n)
{
	/* n * n == 1 mod 8 for odd n, so x = n is n^-1 to 3 bits; each
	 * Newton step x *= 2 - n*x doubles the correct bits: 6, 12, 24, 48, 96. */
	chunk_t x = n;
	for (int bits = 3; bits < BIG_CHUNK_SIZE; bits *= 2)
		x *= (chunk_t)2 - n * x;
	return (chunk_t)0 - x;
}

BIG_ERR_CODE big_check_modulus(const BIGNUM *n, int *len)
{
	if (n->len < 1 || n->sign < 0)
		return BIG_INVALID_ARGS;
	const int nlen = big_trimmed_len(n);
	if (nlen > BIG_MAX_MODULUS_CHUNKS || (n->value[0] & 1) == 0 ||
	    (nlen == 1 && n->value[0] <= 1))
		return BIG_INVALID_ARGS;
	*len = nlen;
	return BIG_OK;
}

/* Time depends on n and the lengths only, as big_check_modulus's and
 * big_load_vec's do. */
BIG_ERR_CODE big_load_mod_vecs(int *len, const BIGNUM *n, int count,
			       chunk_t *const vecs[], const BIGNUM *const nums[])
{
	*len = 0;
	BIG_ERR_CODE err = big_check_modulus(n, len);
	for (int i = 0; i < count && err == BIG_OK; i++)
		err = big_load_vec(vecs[i], *len, nums[i]);
	return err;
}

/* len may exceed n's trimmed length: the CRT code uses the prime's stored
 * length. */
BIG_ERR_CODE big_mont_rr_len(BIGNUM *result, const BIGNUM *n, int len)
{
	int nlen;
	if (big_check_modulus(n, &nlen) != BIG_OK || len < nlen ||
	    len > BIG_MAX_MODULUS_CHUNKS)
		return BIG_INVALID_ARGS;

	BIGNUM power;
	BIG_ERR_CODE err = big_init(&power, 2 * len + 1);
	if (err != BIG_OK)
		return err;
	memset(power.value, 0, sizeof(chunk_t) * (size_t)(2 * len + 1));
	power.value[2 * len] = 1;
	power.len = 2 * len + 1;
	err = big_div_pos(NULL, result, &power, n);
	big_finish(&power);
	return err;
}

BIG_ERR_CODE big_mont_rr(BIGNUM *result, const BIGNUM *n)
{
	int len;
	BIG_ERR_CODE err = big_check_modulus(n, &len);
	return err != BIG_OK ? err : big_mont_rr_len(result, n, len);
}

BIG_ERR_CODE big_mont_rr_vec(chunk_t *rr, const BIGNUM *given, const BIGNUM *n,
			     int len)
{
	if (given != NULL)
		return big_load_vec(rr, len, given);
	BIGNUM own;
	BIG_ERR_CODE err = big_init(&own, len);
	if (err != BIG_OK)
		return err;
	err = big_mont_rr_len(&own, n, len);
	if (err == BIG_OK)
		err = big_load_vec(rr, len, &own);
	big_finish(&own);
	return err;
}

/* ret = v[0..len), sign 1, trimmed. */
static BIG_ERR_CODE store_trimmed(BIGNUM *ret, const chunk_t *v, int len)
{
	BIG_ERR_CODE err = big_store_vec(ret, v, len);
	if (err == BIG_OK)
		ret->len = big_trimmed_len(ret);
	return err;
}

BIG_ERR_CODE big_mont_mul(BIGNUM *ret, const BIGNUM *a, const BIGNUM *b,
			  const BIGNUM *n, BIG_CHUNK_TYPE n0)
{
	chunk_t av[BIG_MAX_MODULUS_CHUNKS], bv[BIG_MAX_MODULUS_CHUNKS];
	int len;
	BIG_ERR_CODE err = big_load_mod_vecs(&len, n, b == a ? 1 : 2, (chunk_t *[]){ av, bv },
					     (const BIGNUM *[]){ a, b });
	if (err != BIG_OK)
		return err;
	if (b == a)
		big_mont_sqr_vec(av, av, n->value, n0, len);
	else
		big_mont_mul_vec(av, av, bv, n->value, n0, len);
	err = store_trimmed(ret, av, len);
	big_wipe(av, sizeof(chunk_t) * (size_t)len);
	big_wipe(bv, sizeof(chunk_t) * (size_t)len);
	return err;
}

BIG_ERR_CODE big_mont_conv(BIGNUM *result, const BIGNUM *a, const BIGNUM *n,
			   BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	return big_mont_mul(result, a, n_rr, n, n0);
}

BIG_ERR_CODE big_mod_mul(BIGNUM *result, const BIGNUM *a, const BIGNUM *b,
			 const BIGNUM *n, BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	chunk_t av[BIG_MAX_MODULUS_CHUNKS], bv[BIG_MAX_MODULUS_CHUNKS];
	chunk_t rr[BIG_MAX_MODULUS_CHUNKS];
	int len;
	BIG_ERR_CODE err = big_load_mod_vecs(&len, n, 3, (chunk_t *[]){ av, bv, rr },
					     (const BIGNUM *[]){ a, b, n_rr });
	if (err == BIG_OK) {
		/* a*b*R^-1, then times R^2 * R^-1 */
		big_mont_mul_vec(av, av, bv, n->value, n0, len);
		big_mont_mul_vec(av, av, rr, n->value, n0, len);
		err = store_trimmed(result, av, len);
	}
	big_wipe(av, sizeof(chunk_t) * (size_t)len);
	big_wipe(bv, sizeof(chunk_t) * (size_t)len);
	return err;
}
