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

/* A digit of 28 or 52 bits at bit `bits` j spans the chunk it starts in
 * and up to two more (52-bit digits over 32-bit chunks). */
void big_lanes_digits_from_chunks(uint64_t *x, int l, int k, int bits,
				  const BIG_CHUNK_TYPE *w, int len)
{
	const uint64_t mask = (UINT64_C(1) << bits) - 1;
	for (int j = 0; j < k; j++) {
		const int bit = bits * j;
		const int idx = bit / CHUNK_BITS, off = bit % CHUNK_BITS;
		uint64_t v = idx < len ? (uint64_t)w[idx] >> off : 0;
		for (int t = 1; t * CHUNK_BITS < off + bits; t++)
			if (idx + t < len)
				v |= (uint64_t)w[idx + t] << (t * CHUNK_BITS - off);
		x[BIG_LANES_AT(j, l)] = v & mask;
	}
}

void big_lanes_digits_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x,
				int l, int k, int bits)
{
	for (int i = 0; i < len; i++)
		w[i] = 0;
	for (int j = 0; j < k; j++) {
		const uint64_t d = x[BIG_LANES_AT(j, l)] & ((UINT64_C(1) << bits) - 1);
		const int bit = bits * j;
		const int idx = bit / CHUNK_BITS, off = bit % CHUNK_BITS;
		if (idx < len)
			w[idx] |= (BIG_CHUNK_TYPE)(d << off);
		for (int t = 1; t * CHUNK_BITS < off + bits; t++)
			if (idx + t < len)
				w[idx + t] |= (BIG_CHUNK_TYPE)(d >> (t * CHUNK_BITS - off));
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
