/*
 * The vertical layer's portable parts (contracts in vertical.h): the
 * modulus w = n k0 in digits and its shifted copies, the conversions
 * between 64-bit chunks and 28-bit digits, the exponentiations' scratch
 * sizes.
 */
#include "internal.h"
#include "lanes/lanes.h"
#include "vertical.h"

#include <string.h>

/* Digit i of c[0..clen) takes bits 28 i .. 28 i + 27: in one chunk, or
 * straddling two where the bit offset s is above 64 - 28. */
void big_vert_from_chunks(struct big_vert_num *x, const uint64_t *c, int clen, int digits)
{
	memset(x, 0, sizeof(*x));
	for (int i = 0; i < digits; i++) {
		const int bit = BIG_VERT_RADIX_BITS * i, w = bit / 64, s = bit % 64;
		uint64_t v = w < clen ? c[w] >> s : 0;
		if (s > 64 - BIG_VERT_RADIX_BITS && w + 1 < clen)
			v |= c[w + 1] << (64 - s);
		x->d[4 + i] = v & BIG_VERT_DIGIT_MASK;
	}
}

void big_vert_to_chunks(uint64_t *c, int clen, const struct big_vert_num *x, int digits)
{
	for (int j = 0; j < clen; j++)
		c[j] = 0;
	for (int i = 0; i < digits; i++) {
		const int bit = BIG_VERT_RADIX_BITS * i, w = bit / 64, s = bit % 64;
		const uint64_t d = x->d[4 + i];
		if (w < clen)
			c[w] |= d << s;
		if (s > 64 - BIG_VERT_RADIX_BITS && w + 1 < clen)
			c[w + 1] |= d >> (64 - s);
	}
}

void big_vert_mod_init(struct big_vert_mod *mod, const uint64_t *n, int len)
{
	const int digits = big_vert_digits(len);
	const uint64_t k0 = big_lanes_neg_inverse64(n[0]) & BIG_VERT_DIGIT_MASK;
	/* w = n k0 < 2^(64 len + 28): len + 1 chunks. */
	uint64_t w[BIG_VERT_MAX_CHUNKS + 1];
	uint64_t carry = 0;
	for (int i = 0; i < len; i++) {
		const unsigned __int128 t = (unsigned __int128)n[i] * k0 + carry;
		w[i] = (uint64_t)t;
		carry = (uint64_t)(t >> 64);
	}
	w[len] = carry;
	struct big_vert_num wd;
	big_vert_from_chunks(&wd, w, len + 1, digits);
	memset(mod, 0, sizeof(*mod));
	for (int r = 0; r < 4; r++)
		for (int j = 0; j < digits; j++)
			mod->nsh[r][j + r] = wd.d[4 + j];
	mod->w1 = wd.d[5];
	mod->w2 = wd.d[6];
	mod->w3 = wd.d[7];
	mod->digits = digits;
}

size_t big_vert_pow2_scratch(int len, int elen)
{
	const int digits = big_vert_digits(len);
	const size_t entries = (size_t)1 << big_mont_pow_ct_window(64 * elen);
	const size_t stride = 8 * (size_t)((((digits + 3) / 4) + 1) / 2);
	/* The frame (vertical.h's structs, a few KB) is bounded by this many
	 * words; pow_avx2.c checks it at compile time.  Then two tables of
	 * entries x stride 32-bit digits: entries x stride words. */
	const size_t frame_words = 4096;
	return frame_words + entries * stride + 8;
}

size_t big_vert_crt_pow2_scratch(int len, int elen)
{
	return 2 * (size_t)len + big_vert_pow2_scratch(len, elen);
}
