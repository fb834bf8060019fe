/*
 * The radix-2^52 lane layer's sizes, conversions and moduli (contracts:
 * lanes52.h).  Every loop runs over public lengths; no branch or address
 * depends on a digit, a chunk or a modulus.
 */
#include <string.h>

#include "lanes52.h"

#define CHUNK_BITS BIG_CHUNK_SIZE
#define DIGIT_BITS BIG_LANES52_DIGIT_BITS

int big_lanes52_digits(int bits)
{
	const int k = (bits + 2 + DIGIT_BITS - 1) / DIGIT_BITS;
	return k >= BIG_LANES52_MIN_DIGITS && k <= BIG_LANES52_MAX_DIGITS ? k : 0;
}

int big_lanes52_len_ok(int len)
{
	if (len < 1 || len > BIG_MAX_MODULUS_CHUNKS)
		return 0;
	const long bits = (long)len * CHUNK_BITS;
	const int k = big_lanes52_digits((int)bits);
	const long e = 208L * k - 4L * bits;
	return k != 0 && e >= 0 && e < (long)DIGIT_BITS * k;
}

/* A digit of 52 bits at bit 52 j spans the chunk it starts in and the
 * next one with 64-bit chunks, up to two more with 32-bit ones. */
void big_lanes52_from_chunks(uint64_t *x, int l, int k,
			     const BIG_CHUNK_TYPE *w, int len)
{
	for (int j = 0; j < k; j++) {
		const int bit = DIGIT_BITS * j;
		const int idx = bit / CHUNK_BITS, off = bit % CHUNK_BITS;
		uint64_t v = idx < len ? (uint64_t)w[idx] >> off : 0;
		for (int t = 1; t * CHUNK_BITS < off + DIGIT_BITS; t++)
			if (idx + t < len)
				v |= (uint64_t)w[idx + t] << (t * CHUNK_BITS - off);
		x[BIG_LANES_AT(j, l)] = v & BIG_LANES52_DIGIT_MASK;
	}
}

void big_lanes52_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x,
			   int l, int k)
{
	for (int i = 0; i < len; i++)
		w[i] = 0;
	for (int j = 0; j < k; j++) {
		const uint64_t d = x[BIG_LANES_AT(j, l)];
		const int bit = DIGIT_BITS * j;
		const int idx = bit / CHUNK_BITS, off = bit % CHUNK_BITS;
		if (idx < len)
			w[idx] |= (BIG_CHUNK_TYPE)(d << off);
		for (int t = 1; t * CHUNK_BITS < off + DIGIT_BITS; t++)
			if (idx + t < len)
				w[idx + t] |= (BIG_CHUNK_TYPE)(d >> (t * CHUNK_BITS - off));
	}
}

uint64_t big_lanes52_k0(uint64_t m0)
{
	return big_lanes_neg_inverse64(m0) & BIG_LANES52_DIGIT_MASK;
}

int big_lanes52_mod_init(struct big_lanes52_mod *mod, int digits,
			 const BIG_CHUNK_TYPE *const m[BIG_LANES],
			 const BIG_CHUNK_TYPE *const rr[BIG_LANES], int len,
			 const struct big_lanes52_ops *ops, uint64_t *x,
			 uint64_t *y)
{
	const int k = digits;
	const long e = 208L * k - 4L * len * CHUNK_BITS;
	if (k < BIG_LANES52_MIN_DIGITS || k > BIG_LANES52_MAX_DIGITS || e < 0 ||
	    e >= (long)DIGIT_BITS * k)
		return -1;
	const size_t words = BIG_LANES_WORDS(k);
	memset(mod->m, 0, sizeof(mod->m));
	memset(mod->rr, 0, sizeof(mod->rr));
	mod->digits = k;
	for (int l = 0; l < BIG_LANES; l++) {
		big_lanes52_from_chunks(mod->m, l, k, m[l], len);
		big_lanes52_from_chunks(x, l, k, rr[l], len);
		/* -m^-1 mod 2^52 needs only the low 52 bits of m: digit 0. */
		mod->k0[l] = big_lanes52_k0(mod->m[BIG_LANES_AT(0, l)]);
	}
	/* T1 = AMM(rr, rr) = 2^(4B - 52k); RR = AMM(T1, 2^e) = 2^(104k). */
	ops->mul(x, x, x, mod);
	for (size_t j = 0; j < words; j++)
		y[j] = 0;
	for (int l = 0; l < BIG_LANES; l++)
		y[BIG_LANES_AT(e / DIGIT_BITS, l)] = UINT64_C(1) << (e % DIGIT_BITS);
	ops->mul(mod->rr, x, y, mod);
	return 0;
}
