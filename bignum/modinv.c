/*
 * big_mod_inverse: result = a^-1 mod n for odd n > 1 (contract in
 * bignum.h).
 *
 * Binary extended Euclid on a and n, keeping u * |a| == a' and
 * v * |a| == b' (mod n) for the running pair (a', b'); when a' reaches 0,
 * b' is gcd(a, n), and v is the inverse when that gcd is 1.  a is never
 * reduced mod n first, so no division is needed and a may have any length.
 *
 * Two forms: inverse_batched (Pornin's optimised binary GCD: K1 steps per
 * pass over the numbers) does the work, because it is several times faster
 * than one bit per step (docs/design-notes.md); inverse_bitwise (one bit
 * per step, the textbook algorithm) runs only if the batched one exceeds
 * its round bound, which the analysis says cannot happen.
 *
 * NOT constant time: the branches follow the bits of a and n.  Use it only
 * on values that reveal nothing, e.g. a blinded t = r*b mod n whose
 * factors are both secret and random (rsa/blinding.c).
 *
 * Scratch: one malloc of 6 * (max(alen, nlen) + 2) + nlen chunks, wiped.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The batched algorithm's round bound; tests/modinv/bitwise.c compiles this
 * file again with 0, so that its suite runs the fallback too. */
#ifndef MODINV_BATCHED_ROUNDS
#define MODINV_BATCHED_ROUNDS(len) (4L * ((len) * BIG_CHUNK_SIZE) / (K1 - 2) + 16)
#endif

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
		x[nlen] = big_add_vec(x, x, nlen, n, nlen);
	else
		x[nlen] = 0;
	half(x, nlen + 1);
}

/* ---- the plain binary algorithm: one bit per step (the fallback) ------ */
/* Returns 1 and the inverse of |a| in x (nlen chunks) if gcd(a, n) == 1,
 * else 0.  u, v: len chunks, x1, x2: nlen + 1 chunks, zeroed. */
static int inverse_bitwise(chunk_t *x, const BIGNUM *a, const chunk_t *n,
			   int nlen, int len, chunk_t *u, chunk_t *v,
			   chunk_t *x1, chunk_t *x2)
{
	const int alen = a->len < 1 ? 1 : big_trimmed_len(a);
	memset(u, 0, (size_t)len * sizeof(chunk_t));
	memset(v, 0, (size_t)len * sizeof(chunk_t));
	memset(x1, 0, ((size_t)nlen + 1) * sizeof(chunk_t));
	memset(x2, 0, ((size_t)nlen + 1) * sizeof(chunk_t));
	if (a->len >= 1)
		memcpy(u, a->value, (size_t)alen * sizeof(chunk_t));
	memcpy(v, n, (size_t)nlen * sizeof(chunk_t));
	x1[0] = 1;
	/* Each pass takes a bit off u or v: a pass more than their bits
	 * could only come of a broken step, refused rather than looping. */
	for (long passes = 2L * len * BIG_CHUNK_SIZE + 2; passes > 0; passes--) {
		if (is_zero(u, len)) {
			if (!is_one(v, len))
				return 0;
			memcpy(x, x2, (size_t)nlen * sizeof(chunk_t));
			return 1;
		}
		if (is_zero(v, len)) {
			if (!is_one(u, len))
				return 0;
			memcpy(x, x1, (size_t)nlen * sizeof(chunk_t));
			return 1;
		}
		while ((u[0] & 1) == 0) {
			half(u, len);
			half_mod(x1, n, nlen);
		}
		while ((v[0] & 1) == 0) {
			half(v, len);
			half_mod(x2, n, nlen);
		}
		if (cmp_n(u, v, len) >= 0) {
			big_sub_vec(u, u, len, v, len);
			big_sub_mod_vec(x1, x1, x2, n, nlen);
		} else {
			big_sub_vec(v, v, len, u, len);
			big_sub_mod_vec(x2, x2, x1, n, nlen);
		}
	}
	return 0;
}

/* ---- the batched algorithm (Pornin, "Optimized Binary GCD for Modular
 * Inversion", 2020, algorithm 2, variable-time form) ---------------------
 *
 * K1 steps of the bitwise algorithm are run on one-word approximations of
 * a and b (their K1 exact low bits and their top K1 + 2 bits), collecting
 * the steps into a matrix [f0 g0; f1 g1] with |entries| <= 2^K1; the
 * matrix is then applied to the full a, b (the division by 2^K1 is exact:
 * the low bits were exact) and to u, v mod n (the division by 2^K1 is a
 * Montgomery step).  A wrong comparison from the approximation can only
 * make a or b negative, which is undone by negating it with its row.
 *
 * K1 keeps every product sum inside a signed double chunk:
 * |x_i*f + y_i*g + n_i*j| < 3 * 2^(CHUNK + K1).
 */
#if BIG_CHUNK_SIZE == 64
#define K1 31
typedef __int128 sdchunk_t;
#else
#define K1 29
typedef int64_t sdchunk_t;
#endif

/* out[0..len] (two's complement, len + 1 chunks) = x*f + y*g + m*j, then
 * shifted right by K1 (the caller guarantees exactness).  m may be NULL. */
static void lincomb_shift(chunk_t *out, const chunk_t *x, const chunk_t *y,
			  const chunk_t *m, int len, int64_t f, int64_t g,
			  int64_t j)
{
	sdchunk_t carry = 0;
	for (int i = 0; i < len; i++) {
		sdchunk_t acc = carry + (sdchunk_t)x[i] * f + (sdchunk_t)y[i] * g;
		if (m)
			acc += (sdchunk_t)m[i] * j;
		out[i] = (chunk_t)acc;
		carry = acc >> BIG_CHUNK_SIZE; /* arithmetic: GNU C */
	}
	out[len] = (chunk_t)carry;
	for (int i = 0; i < len; i++)
		out[i] = (out[i] >> K1) | (out[i + 1] << (BIG_CHUNK_SIZE - K1));
	/* The top chunk shifts in copies of the sign bit. */
	chunk_t sign = (chunk_t)0 - (out[len] >> (BIG_CHUNK_SIZE - 1));
	out[len] = (out[len] >> K1) | (sign << (BIG_CHUNK_SIZE - K1));
}

static int is_negative(const chunk_t *x, int len_plus_one)
{
	return (int)(x[len_plus_one - 1] >> (BIG_CHUNK_SIZE - 1));
}

/* x = -x over len chunks (two's complement). */
static void negate(chunk_t *x, int len)
{
	chunk_t carry = 1;
	for (int i = 0; i < len; i++) {
		dchunk_t s = (dchunk_t)(chunk_t)~x[i] + carry;
		x[i] = (chunk_t)s;
		carry = (chunk_t)(s >> BIG_CHUNK_SIZE);
	}
}

static int bitlen_n(const chunk_t *x, int len)
{
	for (int i = len - 1; i >= 0; i--)
		if (x[i]) {
			int b = 0;
			chunk_t w = x[i];
			while (w) {
				b++;
				w >>= 1;
			}
			return i * BIG_CHUNK_SIZE + b;
		}
	return 0;
}

/* Bits [pos, pos + count) of x (count <= 64; x has len chunks, zero above). */
static uint64_t bits_at(const chunk_t *x, int len, int pos, int count)
{
	uint64_t r = 0;
	for (int got = 0; got < count;) {
		int ci = (pos + got) / BIG_CHUNK_SIZE, bi = (pos + got) % BIG_CHUNK_SIZE;
		if (ci >= len)
			break;
		int take = BIG_CHUNK_SIZE - bi;
		if (take > count - got)
			take = count - got;
		uint64_t piece = (uint64_t)(x[ci] >> bi);
		if (take < 64)
			piece &= ((uint64_t)1 << take) - 1;
		r |= piece << got;
		got += take;
	}
	return r;
}

/* The approximation of x (Pornin's a-bar): low K1 bits exact, then the
 * top K1 + 2 bits of a number of `bits` bits. */
static uint64_t approx(const chunk_t *x, int len, int bits)
{
	uint64_t low = bits_at(x, len, 0, K1);
	uint64_t high = bits_at(x, len, bits - K1 - 2, K1 + 2);
	return low | (high << K1);
}

/* -n^-1 mod 2^64 for odd n (Newton: each step doubles the good bits). */
static uint64_t neg_inverse64(uint64_t n)
{
	uint64_t x = n; /* good to 3 bits */
	for (int i = 0; i < 5; i++)
		x *= 2 - n * x;
	return (uint64_t)0 - x;
}

/* Returns 1 and the inverse of |a| in x (nlen chunks) if gcd(a, n) == 1,
 * 0 if not, -1 if it gave up (the step bound; the caller falls back).
 * a_, b_: len + 2 chunks; u, v, t: nlen + 2 chunks. */
static int inverse_batched(chunk_t *x, const BIGNUM *a, const chunk_t *n,
			   int nlen, int len, chunk_t *a_, chunk_t *b_,
			   chunk_t *u, chunk_t *v, chunk_t *t1, chunk_t *t2)
{
	const int alen = a->len < 1 ? 1 : big_trimmed_len(a);
	const int wa = len + 2, wu = nlen + 2;
	memset(a_, 0, (size_t)wa * sizeof(chunk_t));
	memset(b_, 0, (size_t)wa * sizeof(chunk_t));
	memset(u, 0, (size_t)wu * sizeof(chunk_t));
	memset(v, 0, (size_t)wu * sizeof(chunk_t));
	if (a->len >= 1)
		memcpy(a_, a->value, (size_t)alen * sizeof(chunk_t));
	memcpy(b_, n, (size_t)nlen * sizeof(chunk_t));
	u[0] = 1;
	const uint64_t ninv = neg_inverse64(bits_at(n, nlen, 0, 64) | 1);
	const uint64_t kmask = ((uint64_t)1 << K1) - 1;

	/* Each round removes about K1 bits from len(a) + len(b). */
	long rounds_left = MODINV_BATCHED_ROUNDS(len);
	int active = len; /* chunks that may be nonzero in a_, b_ */
	while (!is_zero(a_, active)) {
		if (--rounds_left < 0)
			return -1;
		while (active > 1 && a_[active - 1] == 0 && b_[active - 1] == 0)
			active--;
		int la = bitlen_n(a_, active), lb = bitlen_n(b_, active);
		int bits = la > lb ? la : lb;
		if (bits < 2 * K1 + 2)
			bits = 2 * K1 + 2;
		uint64_t ab = approx(a_, active, bits), bb = approx(b_, active, bits);
		int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
		for (int i = 0; i < K1; i++) {
			if (ab & 1) {
				if (ab < bb) {
					uint64_t tt = ab;
					ab = bb;
					bb = tt;
					int64_t tf = f0, tg = g0;
					f0 = f1;
					g0 = g1;
					f1 = tf;
					g1 = tg;
				}
				ab = (ab - bb) >> 1;
				f0 -= f1;
				g0 -= g1;
			} else {
				ab >>= 1;
			}
			f1 *= 2;
			g1 *= 2;
		}
		/* a, b = (a f0 + b g0) / 2^K1, (a f1 + b g1) / 2^K1. */
		lincomb_shift(t1, a_, b_, NULL, active, f0, g0, 0);
		lincomb_shift(t2, a_, b_, NULL, active, f1, g1, 0);
		if (is_negative(t1, active + 1)) {
			negate(t1, active + 1);
			f0 = -f0;
			g0 = -g0;
		}
		if (is_negative(t2, active + 1)) {
			negate(t2, active + 1);
			f1 = -f1;
			g1 = -g1;
		}
		memcpy(a_, t1, ((size_t)active + 1) * sizeof(chunk_t));
		memcpy(b_, t2, ((size_t)active + 1) * sizeof(chunk_t));
		if (active + 1 <= len + 1 && a_[active] | b_[active])
			active++; /* grew (never past len + 1: see the bound) */

		/* u, v = (u f0 + v g0) / 2^K1 mod n, (u f1 + v g1) / 2^K1 mod
		 * n: add j*n so the low K1 bits vanish, then shift. */
		int64_t fs[2] = {f0, f1}, gs[2] = {g0, g1};
		chunk_t *outs[2] = {t1, t2};
		for (int r = 0; r < 2; r++) {
			uint64_t low = (uint64_t)(bits_at(u, nlen, 0, K1) * (uint64_t)fs[r] +
						  bits_at(v, nlen, 0, K1) * (uint64_t)gs[r]);
			int64_t j = (int64_t)((low * ninv) & kmask);
			lincomb_shift(outs[r], u, v, n, nlen, fs[r], gs[r], j);
			chunk_t *o = outs[r];
			/* |o| < 3n: bring it into [0, n). */
			while (is_negative(o, nlen + 1))
				o[nlen] += big_add_vec(o, o, nlen, n, nlen);
			while (o[nlen] != 0 || cmp_n(o, n, nlen) >= 0)
				o[nlen] -= big_sub_vec(o, o, nlen, n, nlen);
		}
		memcpy(u, t1, ((size_t)nlen + 1) * sizeof(chunk_t));
		memcpy(v, t2, ((size_t)nlen + 1) * sizeof(chunk_t));
	}
	/* a == 0: b is gcd(a, n). */
	if (!is_one(b_, len + 2))
		return 0;
	memcpy(x, v, (size_t)nlen * sizeof(chunk_t));
	return 1;
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

	/* a_, b_ (len + 2 each), u, v, t1, t2 (nlen + 2 each; t1, t2 also
	 * hold len + 2 for the a, b step), x (nlen).  The bitwise fallback
	 * reuses the same memory. */
	const int wide = (len > nlen ? len : nlen) + 2;
	const size_t chunks = 6 * (size_t)wide + (size_t)nlen;
	chunk_t *mem = malloc(chunks * sizeof(chunk_t));
	if (mem == NULL)
		return BIG_NO_MEM;
	chunk_t *a_ = mem, *b_ = a_ + wide, *u = b_ + wide, *v = u + wide,
		*t1 = v + wide, *t2 = t1 + wide, *x = t2 + wide;

	int found = inverse_batched(x, a, n->value, nlen, len, a_, b_, u, v, t1, t2);
	if (found < 0)
		found = inverse_bitwise(x, a, n->value, nlen, len, a_, b_, u, v);

	BIG_ERR_CODE err = BIG_INVALID_ARGS; /* gcd(a, n) != 1 */
	if (found == 1) {
		/* (-|a|)^-1 == -(|a|^-1); the inverse is never 0 here. */
		if (a->sign < 0) {
			big_sub_vec(x, n->value, nlen, x, nlen);
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
