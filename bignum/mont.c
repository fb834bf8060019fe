/*
 * Montgomery arithmetic on BIGNUMs: n0, R^2 mod n, conversion into
 * Montgomery form, and the Montgomery product.
 *
 * R = 2^(BIG_CHUNK_SIZE * len) where len is n's trimmed length (n->len
 * without high zero chunks), so the fused kernels run on exactly the
 * modulus' chunks.  Inputs shorter than that are zero-padded into scratch,
 * never extended in place.
 *
 * big_n0 and big_mont_mul are constant time (no branch or index on the
 * values of a, b); big_mont_rr divides (variable time in n, which is public
 * or a once-per-key precomputation).  big_mont_conv and big_mont_mul trim
 * their result (the public API returns normalised values); the
 * constant-time exponentiations work below this layer, on fixed-length
 * chunk vectors.
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

/* B^(2*len) mod n for the Montgomery radix of `len` chunks (len may exceed
 * n's trimmed length: the CRT code uses the prime's stored length). */
BIG_ERR_CODE big_mont_rr_len(BIGNUM *result, const BIGNUM *n, int len)
{
	const int nlen = big_trimmed_len(n);
	if (len < nlen || len > BIG_MAX_MODULUS_CHUNKS || (n->value[0] & 1) == 0 ||
	    (nlen == 1 && n->value[0] <= 1))
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
	if (n->len < 1)
		return BIG_INVALID_ARGS;
	return big_mont_rr_len(result, n, big_trimmed_len(n));
}

/* Copy x into dst[0..len), zero-padded; BIG_INVALID_ARGS if x has a
 * non-zero chunk at or past len (so it cannot be < n). */
static BIG_ERR_CODE pad_operand(chunk_t *dst, const BIGNUM *x, int len)
{
	const int xlen = x->len < 0 ? 0 : x->len;
	for (int i = len; i < xlen; i++)
		if (x->value[i] != 0)
			return BIG_INVALID_ARGS;
	const int copy = xlen < len ? xlen : len;
	if (copy > 0)
		memcpy(dst, x->value, sizeof(chunk_t) * (size_t)copy);
	for (int i = copy; i < len; i++)
		dst[i] = 0;
	return BIG_OK;
}

static BIG_ERR_CODE store_result(BIGNUM *ret, const chunk_t *v, int len)
{
	BIG_ERR_CODE err = big_extend(ret, len);
	if (err != BIG_OK)
		return err;
	memcpy(ret->value, v, sizeof(chunk_t) * (size_t)len);
	ret->len = len;
	ret->sign = 1;
	ret->len = big_trimmed_len(ret);
	return BIG_OK;
}

static BIG_ERR_CODE check_modulus(const BIGNUM *n, int *nlen)
{
	if (n->len < 1)
		return BIG_INVALID_ARGS;
	*nlen = big_trimmed_len(n);
	if (*nlen > BIG_MAX_MODULUS_CHUNKS || (n->value[0] & 1) == 0 ||
	    (*nlen == 1 && n->value[0] <= 1))
		return BIG_INVALID_ARGS;
	return BIG_OK;
}

BIG_ERR_CODE big_mont_mul(BIGNUM *ret, const BIGNUM *a, const BIGNUM *b,
			  const BIGNUM *n, BIG_CHUNK_TYPE n0)
{
	chunk_t av[BIG_MAX_MODULUS_CHUNKS], bv[BIG_MAX_MODULUS_CHUNKS];
	int len;
	BIG_ERR_CODE err = check_modulus(n, &len);
	if (err == BIG_OK)
		err = pad_operand(av, a, len);
	if (err == BIG_OK && b != a)
		err = pad_operand(bv, b, len);
	if (err != BIG_OK)
		return err;
	if (b == a)
		big_mont_sqr_vec(av, av, n->value, n0, len);
	else
		big_mont_mul_vec(av, av, bv, n->value, n0, len);
	err = store_result(ret, av, len);
	big_wipe(av, sizeof(chunk_t) * (size_t)len);
	big_wipe(bv, sizeof(chunk_t) * (size_t)len);
	return err;
}

BIG_ERR_CODE big_mont_conv(BIGNUM *result, const BIGNUM *a, const BIGNUM *n,
			   BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	return big_mont_mul(result, a, n_rr, n, n0);
}
