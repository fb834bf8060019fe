/*
 * The lane layer's sizes, conversions and moduli (contracts: lanes.h).
 * Every loop runs over public lengths; no branch or address depends on a
 * digit, a chunk or a modulus.
 */
#include <string.h>

#include "lanes.h"

#define CHUNK_BITS BIG_CHUNK_SIZE

int big_lanes_digits(int bits)
{
	const int k = (bits + 2 + BIG_LANES_DIGIT_BITS - 1) / BIG_LANES_DIGIT_BITS;
	return k >= BIG_LANES_MIN_DIGITS && k <= BIG_LANES_MAX_DIGITS ? k : 0;
}

/* Digit j is the `bits` bits at bit bits * j of w: one unaligned 64-bit
 * load at byte bits * j / 8 (w in memory is the number's little-endian
 * bytes, whatever the chunk size), shifted by the bit offset (below 8:
 * 7 + bits <= 64 bits, as bits <= 57), the digits independent of one
 * another (twice as fast as gathering each from its chunks); near the
 * end of w the load takes what bytes remain. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the lane conversions read chunks as little-endian bytes"
#endif
void big_lanes_digits_from_chunks(uint64_t *x, int l, int k, int bits,
				  const BIG_CHUNK_TYPE *w, int len)
{
	const uint64_t mask = (UINT64_C(1) << bits) - 1;
	const unsigned char *bytes = (const unsigned char *)w;
	const long nbytes = (long)len * (long)sizeof(BIG_CHUNK_TYPE);
	for (int j = 0; j < k; j++) {
		const long bit = (long)bits * j, at = bit / 8;
		uint64_t v = 0;
		if (at + 8 <= nbytes)
			memcpy(&v, bytes + at, 8);
		else if (at < nbytes)
			memcpy(&v, bytes + at, (size_t)(nbytes - at));
		x[BIG_LANES_AT(j, l)] = (v >> (bit % 8)) & mask;
	}
}

/* The digits in order into a 128-bit window, a chunk out whenever it
 * holds one: at most CHUNK_BITS - 1 + bits < 128 bits wait. */
void big_lanes_digits_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x,
				int l, int k, int bits)
{
	const uint64_t mask = (UINT64_C(1) << bits) - 1;
	unsigned __int128 acc = 0;
	int have = 0, i = 0;
	for (int j = 0; j < k && i < len; j++) {
		acc |= (unsigned __int128)(x[BIG_LANES_AT(j, l)] & mask) << have;
		have += bits;
		while (have >= CHUNK_BITS && i < len) {
			w[i++] = (BIG_CHUNK_TYPE)acc;
			acc >>= CHUNK_BITS;
			have -= CHUNK_BITS;
		}
	}
	for (; i < len; i++) {
		w[i] = (BIG_CHUNK_TYPE)acc;
		acc >>= CHUNK_BITS;
	}
}

void big_lanes_set_pow2(uint64_t *y, int k, long e, int bits)
{
	for (size_t j = 0; j < BIG_LANES_WORDS(k); j++)
		y[j] = 0;
	for (int l = 0; l < BIG_LANES; l++)
		y[BIG_LANES_AT(e / bits, l)] = UINT64_C(1) << (e % bits);
}

void big_lanes_from_chunks(uint64_t *x, int l, int k, const BIG_CHUNK_TYPE *w,
			   int len)
{
	big_lanes_digits_from_chunks(x, l, k, BIG_LANES_DIGIT_BITS, w, len);
}

void big_lanes_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x, int l,
			 int k)
{
	big_lanes_digits_to_chunks(w, len, x, l, k, BIG_LANES_DIGIT_BITS);
}

uint64_t big_lanes_k0(uint64_t m0)
{
	return big_lanes_neg_inverse64(m0) & BIG_LANES_DIGIT_MASK;
}

int big_lanes_mod_init(struct big_lanes_mod *mod, int digits,
		       const BIG_CHUNK_TYPE *const m[BIG_LANES],
		       const BIG_CHUNK_TYPE *const rr[BIG_LANES], int len,
		       const struct big_lanes_ops *ops, uint64_t *x,
		       uint64_t *y)
{
	const int k = digits;
	const long e = 112L * k - 4L * len * CHUNK_BITS;
	if (k < BIG_LANES_MIN_DIGITS || k > BIG_LANES_MAX_DIGITS || e < 0 ||
	    e >= (long)BIG_LANES_DIGIT_BITS * k)
		return -1;
	memset(mod->m, 0, sizeof(mod->m));
	memset(mod->rr, 0, sizeof(mod->rr));
	mod->digits = k;
	for (int l = 0; l < BIG_LANES; l++) {
		big_lanes_from_chunks(mod->m, l, k, m[l], len);
		big_lanes_from_chunks(x, l, k, rr[l], len);
		/* -m^-1 mod 2^28 needs only the low 28 bits of m. */
		mod->k0[l] = big_lanes_k0((uint64_t)m[l][0]);
	}
	/* T1 = AMM(rr, rr) = 2^(4B - 28k); RR = AMM(T1, 2^e) = 2^(56k). */
	ops->mul(x, x, x, mod);
	big_lanes_set_pow2(y, k, e, BIG_LANES_DIGIT_BITS);
	ops->mul(mod->rr, x, y, mod);
	return 0;
}
