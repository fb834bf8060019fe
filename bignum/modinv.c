/*
 * big_mod_inverse: result = a^-1 mod n for odd n > 1 (contract in
 * internal.h).
 *
 * Binary extended Euclid on u = |a|, v = n, keeping x1 * |a| == u and
 * x2 * |a| == v (mod n): halve whichever of u, v is even (and its x, as
 * (x + n) / 2 when x is odd, which is exact because n is odd), subtract the
 * smaller odd one from the larger (and its x from the other's, mod n).
 * When one of u, v reaches 0 the other is gcd(a, n), and its x is the
 * inverse when that gcd is 1.  a is never reduced mod n first, so no
 * division is needed and a may have any length.
 *
 * NOT constant time: the branches follow the bits of a and n.  Use it only
 * on values that reveal nothing, e.g. a blinded t = r*b mod n whose
 * factors are both secret and random (rsa/blinding.c).
 *
 * Sizes: u, v have max(alen, nlen) chunks; x1, x2 have nlen + 1 (the extra
 * chunk holds the carry of x + n).  All scratch is one malloc, wiped.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static int is_zero(const chunk_t *x, int len)
{
	chunk_t acc = 0;
	for (int i = 0; i < len; i++)
		acc |= x[i];
	return acc == 0;
}

static int is_one(const chunk_t *x, int len)
{
	if (x[0] != 1)
		return 0;
	return len == 1 || is_zero(x + 1, len - 1);
}

/* x >>= 1 over len chunks. */
static void half(chunk_t *x, int len)
{
	for (int i = 0; i < len - 1; i++)
		x[i] = (x[i] >> 1) | (x[i + 1] << (BIG_CHUNK_SIZE - 1));
	x[len - 1] >>= 1;
}

/* x = x + y over len chunks; returns the carry. */
static chunk_t add_n(chunk_t *x, const chunk_t *y, int len)
{
	chunk_t carry = 0;
	for (int i = 0; i < len; i++) {
		dchunk_t s = (dchunk_t)x[i] + y[i] + carry;
		x[i] = (chunk_t)s;
		carry = (chunk_t)(s >> BIG_CHUNK_SIZE);
	}
	return carry;
}

/* x = x - y over len chunks; returns the borrow (0 or 1). */
static chunk_t sub_n(chunk_t *x, const chunk_t *y, int len)
{
	chunk_t borrow = 0;
	for (int i = 0; i < len; i++) {
		dchunk_t d = (dchunk_t)x[i] - y[i] - borrow;
		x[i] = (chunk_t)d;
		borrow = (chunk_t)(d >> BIG_CHUNK_SIZE) & 1;
	}
	return borrow;
}

/* -1, 0, 1 as x <, ==, > y over len chunks. */
static int cmp_n(const chunk_t *x, const chunk_t *y, int len)
{
	for (int i = len - 1; i >= 0; i--)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* x = x / 2 mod n for x < n (nlen chunks, x has one spare chunk). */
static void half_mod(chunk_t *x, const chunk_t *n, int nlen)
{
	if (x[0] & 1)
		x[nlen] = add_n(x, n, nlen);
	else
		x[nlen] = 0;
	half(x, nlen + 1);
}

/* x = x - y mod n, x, y < n. */
static void sub_mod(chunk_t *x, const chunk_t *y, const chunk_t *n, int nlen)
{
	if (sub_n(x, y, nlen))
		add_n(x, n, nlen);
}

BIG_ERR_CODE big_mod_inverse(BIGNUM *result, const BIGNUM *a, const BIGNUM *n)
{
	if (result == NULL || a == NULL || n == NULL || n->len < 1 ||
	    (n->value[0] & 1) == 0 || n->sign < 0)
		return BIG_INVALID_ARGS;
	const int nlen = big_trimmed_len(n);
	if (nlen == 1 && n->value[0] == 1)
		return BIG_INVALID_ARGS;
	const int alen = a->len < 1 ? 1 : big_trimmed_len(a);
	const int len = alen > nlen ? alen : nlen;

	const size_t chunks = 2 * (size_t)len + 2 * ((size_t)nlen + 1);
	chunk_t *mem = malloc(chunks * sizeof(chunk_t));
	if (mem == NULL)
		return BIG_NO_MEM;
	memset(mem, 0, chunks * sizeof(chunk_t));
	chunk_t *u = mem, *v = u + len, *x1 = v + len, *x2 = x1 + nlen + 1;
	if (a->len >= 1)
		memcpy(u, a->value, (size_t)alen * sizeof(chunk_t));
	memcpy(v, n->value, (size_t)nlen * sizeof(chunk_t));
	x1[0] = 1;

	BIG_ERR_CODE err = BIG_INVALID_ARGS; /* gcd(a, n) != 1 */
	const chunk_t *inverse = NULL;
	for (;;) {
		if (is_zero(u, len)) {
			if (is_one(v, len))
				inverse = x2;
			break;
		}
		if (is_zero(v, len)) {
			if (is_one(u, len))
				inverse = x1;
			break;
		}
		while ((u[0] & 1) == 0) {
			half(u, len);
			half_mod(x1, n->value, nlen);
		}
		while ((v[0] & 1) == 0) {
			half(v, len);
			half_mod(x2, n->value, nlen);
		}
		if (cmp_n(u, v, len) >= 0) {
			sub_n(u, v, len);
			sub_mod(x1, x2, n->value, nlen);
		} else {
			sub_n(v, u, len);
			sub_mod(x2, x1, n->value, nlen);
		}
	}

	if (inverse != NULL) {
		/* (-|a|)^-1 == -(|a|^-1); the inverse is never 0 here. */
		chunk_t *x = (chunk_t *)inverse;
		if (a->sign < 0) {
			chunk_t *neg = u; /* u is free now, and len >= nlen */
			memcpy(neg, n->value, (size_t)nlen * sizeof(chunk_t));
			sub_n(neg, x, nlen);
			x = neg;
		}
		/* result may alias a or n: both are no longer read. */
		err = big_extend(result, nlen);
		if (err == BIG_OK) {
			memcpy(result->value, x, (size_t)nlen * sizeof(chunk_t));
			int rlen = nlen;
			while (rlen > 1 && result->value[rlen - 1] == 0)
				rlen--;
			result->len = rlen;
			result->sign = 1;
		}
	}
	big_wipe(mem, chunks * sizeof(chunk_t));
	free(mem);
	return err;
}
