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

void big_lanes_from_chunks(uint64_t *x, int l, int k, const BIG_CHUNK_TYPE *w,
			   int len)
{
	for (int j = 0; j < k; j++) {
		const int bit = BIG_LANES_DIGIT_BITS * j;
		const int idx = bit / CHUNK_BITS, off = bit % CHUNK_BITS;
		uint64_t v = idx < len ? (uint64_t)w[idx] >> off : 0;
		if (off + BIG_LANES_DIGIT_BITS > CHUNK_BITS && idx + 1 < len)
			v |= (uint64_t)w[idx + 1] << (CHUNK_BITS - off);
		x[BIG_LANES_AT(j, l)] = v & BIG_LANES_DIGIT_MASK;
	}
}

void big_lanes_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x, int l,
			 int k)
{
	for (int i = 0; i < len; i++)
		w[i] = 0;
	for (int j = 0; j < k; j++) {
		const uint64_t d = x[BIG_LANES_AT(j, l)];
		const int bit = BIG_LANES_DIGIT_BITS * j;
		const int idx = bit / CHUNK_BITS, off = bit % CHUNK_BITS;
		if (idx < len)
			w[idx] |= (BIG_CHUNK_TYPE)(d << off);
		if (off + BIG_LANES_DIGIT_BITS > CHUNK_BITS && idx + 1 < len)
			w[idx + 1] |= (BIG_CHUNK_TYPE)(d >> (CHUNK_BITS - off));
	}
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
	const size_t words = BIG_LANES_WORDS(k);
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
	for (size_t j = 0; j < words; j++)
		y[j] = 0;
	for (int l = 0; l < BIG_LANES; l++)
		y[BIG_LANES_AT(e / BIG_LANES_DIGIT_BITS, l)] =
			UINT64_C(1) << (e % BIG_LANES_DIGIT_BITS);
	ops->mul(mod->rr, x, y, mod);
	return 0;
}
