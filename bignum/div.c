/*
 * big_div_pos: quotient = |aa| / |bb|, remainder = |aa| mod |bb| (both
 * sign 1, normalised); either output may be NULL.  BIG_DIV_BY_0 if bb is
 * zero.  Outputs must not alias the inputs or each other
 * (BIG_INVALID_ARGS when they are the same BIGNUM).
 *
 * Knuth, TAOCP vol. 2, 4.3.1, algorithm D: the divisor is shifted so its
 * top bit is set, each quotient chunk is estimated from the top two chunks
 * of the running remainder and the top chunk of the divisor, refined with
 * the second divisor chunk (so it is at most one too large), and fixed by
 * one add-back when the multiply-subtract borrows.  The row products run
 * through the dispatched big_mul_set_vec.  A one-chunk divisor takes a
 * plain chunk-by-chunk division.  All scratch is one allocation per call,
 * wiped before it is freed (the operands may be secrets, e.g. reduction
 * mod a prime); outputs are grown before any work, so an error leaves
 * them untouched.  NOT constant time: the quotient estimates and the
 * add-back branch on values.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Store v[0..len) into out, normalised, sign 1 (out may be NULL). */
static void store(BIGNUM *out, const chunk_t *v, int len)
{
	if (out == NULL)
		return;
	while (len > 1 && v[len - 1] == 0)
		len--;
	if (len < 1) {
		out->value[0] = 0;
		len = 1;
	} else if (v != out->value) {
		memcpy(out->value, v, (size_t)len * sizeof(chunk_t));
	}
	out->len = len;
	out->sign = 1;
}

static int leading_zeros(chunk_t x)
{
	int n = 0;
	while (!(x & BIG_CHUNK_HIGHBIT)) {
		x <<= 1;
		n++;
	}
	return n;
}

/* q[0..alen) = a / d, returns a mod d; d != 0.  q may be NULL. */
static chunk_t div_by_chunk(chunk_t *q, const chunk_t *a, int alen, chunk_t d)
{
	dchunk_t rem = 0;
	for (int i = alen - 1; i >= 0; i--) {
		dchunk_t num = (rem << BIG_CHUNK_SIZE) | a[i];
		if (q != NULL)
			q[i] = (chunk_t)(num / d);
		rem = num % d;
	}
	return (chunk_t)rem;
}

/*
 * Algorithm D on normalised operands: u[0..m+n] (u[m+n] may be 0) divided
 * by v[0..n), n >= 2, top bit of v[n-1] set.  Writes q[0..m] and leaves
 * the remainder in u[0..n).  t is n+1 chunks of scratch.
 */
static void divide_normalised(chunk_t *q, chunk_t *u, int m, const chunk_t *v,
			      int n, chunk_t *t)
{
	const chunk_t vtop = v[n - 1], vnext = v[n - 2];
	for (int j = m; j >= 0; j--) {
		chunk_t *uj = u + j;
		chunk_t qhat, rhat;
		int rhat_overflow = 0;
		/* uj[n] <= vtop always (the running remainder is < v). */
		if (uj[n] >= vtop) {
			qhat = BIG_CHUNK_ALLBITS;
			/* rhat = uj[n]*B + uj[n-1] - qhat*vtop = uj[n-1] + vtop */
			rhat = uj[n - 1] + vtop;
			rhat_overflow = rhat < vtop;
		} else {
			dchunk_t num = ((dchunk_t)uj[n] << BIG_CHUNK_SIZE) | uj[n - 1];
			qhat = (chunk_t)(num / vtop);
			rhat = (chunk_t)(num % vtop);
		}
		/* Refine with the second divisor chunk: afterwards qhat is the
		 * true quotient chunk or one more. */
		while (!rhat_overflow &&
		       (dchunk_t)qhat * vnext >
			       (((dchunk_t)rhat << BIG_CHUNK_SIZE) | uj[n - 2])) {
			qhat--;
			rhat += vtop;
			rhat_overflow = rhat < vtop;
		}

		/* uj[0..n] -= qhat * v */
		t[n] = big_mul_set_vec(t, v, n, qhat);
		if (big_sub_vec(uj, uj, n + 1, t, n + 1)) {
			/* qhat was one too large (rare: probability ~2/B). */
			qhat--;
			big_add_vec(uj, uj, n, v, n);
			/* The carry out of uj[n-1] cancels the borrow out of
			 * uj[n]; uj[n] is never read again, so it is left. */
		}
		q[j] = qhat;
	}
}

BIG_ERR_CODE big_div_pos(BIGNUM *quotient, BIGNUM *remainder,
			 const BIGNUM *aa, const BIGNUM *bb)
{
	if (quotient != NULL &&
	    (quotient == aa || quotient == bb || quotient == remainder))
		return BIG_INVALID_ARGS;
	if (remainder != NULL && (remainder == aa || remainder == bb))
		return BIG_INVALID_ARGS;
	const int blen = big_sig_len(bb);
	if (blen == 0)
		return BIG_DIV_BY_0;
	const int alen = big_sig_len(aa);

	/* Grow the outputs first: after this point nothing can fail but
	 * the scratch allocation, which comes before any output is written. */
	const int qlen = alen >= blen ? alen - blen + 1 : 1;
	BIG_ERR_CODE err;
	if (quotient != NULL && (err = big_extend(quotient, qlen)) != BIG_OK)
		return err;
	if (remainder != NULL &&
	    (err = big_extend(remainder, alen > blen ? blen : (alen < 1 ? 1 : alen))) != BIG_OK)
		return err;

	if (big_cmp_abs(aa, bb) < 0) {
		store(remainder, aa->value, alen);
		store(quotient, NULL, 0);
		return BIG_OK;
	}

	if (blen == 1) {
		chunk_t r = div_by_chunk(quotient != NULL ? quotient->value : NULL,
					 aa->value, alen, bb->value[0]);
		if (quotient != NULL)
			store(quotient, quotient->value, alen);
		store(remainder, &r, 1);
		return BIG_OK;
	}

	/* Scratch: u (alen+1), v (blen), t (blen+1), q (qlen). */
	const size_t chunks = (size_t)(alen + 1) + (size_t)blen +
			      (size_t)(blen + 1) + (size_t)qlen;
	chunk_t *mem = malloc(chunks * sizeof(chunk_t));
	if (mem == NULL)
		return BIG_NO_MEM;
	chunk_t *u = mem, *v = u + alen + 1, *t = v + blen, *q = t + blen + 1;

	const int s = leading_zeros(bb->value[blen - 1]);
	const chunk_t *a = aa->value, *b = bb->value;
	if (s == 0) {
		memcpy(v, b, (size_t)blen * sizeof(chunk_t));
		memcpy(u, a, (size_t)alen * sizeof(chunk_t));
		u[alen] = 0;
	} else {
		for (int i = blen - 1; i > 0; i--)
			v[i] = (b[i] << s) | (b[i - 1] >> (BIG_CHUNK_SIZE - s));
		v[0] = b[0] << s;
		u[alen] = a[alen - 1] >> (BIG_CHUNK_SIZE - s);
		for (int i = alen - 1; i > 0; i--)
			u[i] = (a[i] << s) | (a[i - 1] >> (BIG_CHUNK_SIZE - s));
		u[0] = a[0] << s;
	}

	divide_normalised(q, u, alen - blen, v, blen, t);

	if (remainder != NULL) {
		/* Undo the normalising shift: remainder = u[0..blen) >> s. */
		if (s != 0) {
			for (int i = 0; i < blen - 1; i++)
				u[i] = (u[i] >> s) | (u[i + 1] << (BIG_CHUNK_SIZE - s));
			u[blen - 1] >>= s;
		}
		store(remainder, u, blen);
	}
	store(quotient, q, qlen);

	big_wipe(mem, chunks * sizeof(chunk_t));
	free(mem);
	return BIG_OK;
}
