/*
 * big_r52_dual_mod_prepare: the per-key copies of m that the 20-digit
 * assembly adds at absolute positions (contract: radix52.h, m_up).
 * Positions are public; the values are only copied.
 */
#include <stddef.h>
#include <string.h>

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
