/*
 * big_r52_dual_mod_prepare: the per-key copies of m that the 20-digit
 * assembly adds at absolute positions (contract: radix52.h, m_up).
 * Positions are public; the values are only copied.
 */
#include <stddef.h>

#include "radix52.h"

/* The assembly reads these fields at fixed offsets (r52_dual20.inc). */
_Static_assert(offsetof(struct big_r52_dual_mod, k0) == 1408,
	       "R52_MOD_K0 in asm/x86_64/r52_dual20.inc");
_Static_assert(offsetof(struct big_r52_dual_mod, m_up) == 1472,
	       "R52_MOD_M_UP in asm/x86_64/r52_dual20.inc");

#define M_UP_MAX_DIGITS 20

void big_r52_dual_mod_prepare(struct big_r52_dual_mod *mod)
{
	const int k = mod->digits;
	for (int s = 0; s < BIG_R52_LANES; s++)
		for (int g = 0; g < BIG_R52_M_UP_GROUPS; g++)
			for (int h = 0; h < 2; h++)
				for (int l = 0; l < BIG_R52_LANES; l++) {
					const int j = BIG_R52_LANES * (g - 1) + l - s;
					uint64_t d = 0;
					if (k <= M_UP_MAX_DIGITS && j >= 0 && j < k)
						d = mod->m[BIG_R52_AT(h, j)];
					mod->m_up[((s * BIG_R52_M_UP_GROUPS + g) * 2 + h) *
							  BIG_R52_LANES + l] = d;
				}
}
