/*
 * struct big_r52_dual_mod, made: big_r52_dual_mod_prepare, the per-key
 * copies of m that the 20-digit assembly adds at absolute positions
 * (m_up), and big_r52_mod_init, the whole struct from 64-bit words, R^2
 * derived from the radix-2^64 R^2 by two products (contracts and
 * arithmetic: radix52.h).  Positions are public; the values are only
 * copied or multiplied in constant time.
 */
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "radix52.h"

/* The assembly reads these fields at fixed offsets (r52_dual20.inc). */
_Static_assert(offsetof(struct big_r52_dual_mod, k0) == 1408,
	       "R52_MOD_K0 in asm/x86_64/r52_dual20.inc");
_Static_assert(offsetof(struct big_r52_dual_mod, m_up) == 1472,
	       "R52_MOD_M_UP in asm/x86_64/r52_dual20.inc");

#define M_UP_MAX_DIGITS 20

/* Zero everywhere, then digit j of half h at position j + s of copy s:
 * group (j + s) / 4 + 1, lane (j + s) % 4.  It runs once per
 * exponentiation and per fault check, so it writes each digit once
 * rather than testing every word. */
void big_r52_dual_mod_prepare(struct big_r52_dual_mod *mod)
{
	const int k = mod->digits;
	memset(mod->m_up, 0, sizeof(mod->m_up));
	if (k > M_UP_MAX_DIGITS || mod->halves == 1)
		return;
	for (int s = 0; s < BIG_R52_LANES; s++)
		for (int h = 0; h < 2; h++)
			for (int j = 0; j < k; j++) {
				const int p = j + s;
				const int g = p / BIG_R52_LANES + 1;
				mod->m_up[((s * BIG_R52_M_UP_GROUPS + g) * 2 + h) *
						  BIG_R52_LANES +
					  p % BIG_R52_LANES] = mod->m[BIG_R52_AT(h, j)];
			}
}

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
