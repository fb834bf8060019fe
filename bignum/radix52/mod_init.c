/*
 * big_r52_mod_init: a big_r52_dual_mod from 64-bit words, R^2 derived
 * from the radix-2^64 R^2 by two products (contract and arithmetic:
 * radix52.h).
 */
#include "internal.h"
#include "radix52.h"

#if BIG_CHUNK_SIZE == 64

void big_r52_mod_init(struct big_r52_dual_mod *mod, int digits, int halves,
		      const uint64_t *const m[2], const uint64_t *const rr64[2],
		      int len, const struct big_r52_ops *ops, uint64_t *x,
		      uint64_t *y)
{
	const int words = BIG_R52_PAIR_WORDS(digits);
	const int e = 208 * digits - 256 * len;

	for (int w = 0; w < words; w++)
		mod->m[w] = mod->rr[w] = x[w] = y[w] = 0;
	mod->digits = digits;
	mod->halves = halves;
	mod->k0[0] = mod->k0[1] = 0;
	for (int h = 0; h < halves; h++) {
		mod->k0[h] = big_n0(m[h][0]) & BIG_R52_DIGIT_MASK;
		big_r52_from_words(mod->m, h, digits, m[h], len);
		big_r52_from_words(x, h, digits, rr64[h], len);
		y[BIG_R52_AT(h, e / 52)] = (uint64_t)1 << (e % 52);
	}
	big_r52_dual_mod_prepare(mod);
	ops->mul(x, x, x, mod);
	ops->mul(mod->rr, x, y, mod);
}

#endif
