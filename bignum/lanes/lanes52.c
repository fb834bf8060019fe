/*
 * The radix-2^52 lane layer's sizes, conversions and moduli (contracts:
 * lanes52.h).  Every loop runs over public lengths; no branch or address
 * depends on a digit, a chunk or a modulus.
 */

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

void big_lanes52_from_chunks(uint64_t *x, int l, int k,
			     const BIG_CHUNK_TYPE *w, int len)
{
	big_lanes_digits_from_chunks(x, l, k, DIGIT_BITS, w, len);
}

void big_lanes52_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x,
			   int l, int k)
{
	big_lanes_digits_to_chunks(w, len, x, l, k, DIGIT_BITS);
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
	mod->digits = k;
	for (int l = 0; l < BIG_LANES; l++) {
		/* A lane whose m and rr are an earlier lane's (the same key: the
		 * batch's common case; which lanes share one is public) copies
		 * that lane's digits. */
		int from = l;
		for (int p = 0; p < l && from == l; p++)
			if (m[p] == m[l] && rr[p] == rr[l])
				from = p;
		if (from != l) {
			for (int j = 0; j < k; j++) {
				mod->m[BIG_LANES_AT(j, l)] = mod->m[BIG_LANES_AT(j, from)];
				x[BIG_LANES_AT(j, l)] = x[BIG_LANES_AT(j, from)];
			}
			mod->k0[l] = mod->k0[from];
			continue;
		}
		big_lanes52_from_chunks(mod->m, l, k, m[l], len);
		big_lanes52_from_chunks(x, l, k, rr[l], len);
		/* -m^-1 mod 2^52 needs only the low 52 bits of m: digit 0. */
		mod->k0[l] = big_lanes52_k0(mod->m[BIG_LANES_AT(0, l)]);
	}
	/* T1 = AMM(rr, rr) = 2^(4B - 52k); RR = AMM(T1, 2^e) = 2^(104k). */
	ops->mul(x, x, x, mod);
	big_lanes_set_pow2(y, k, e, DIGIT_BITS);
	ops->mul(mod->rr, x, y, mod);
	return 0;
}
