/*
 * big_r52_ct_base_pow: a^e mod n for one modulus and a public exponent
 * in radix 2^52, the path big_modexp_ct_base takes for the fault check of
 * RSA-1024 and RSA-2048 on AVX-512 IFMA, and big_r52_ct_base_digits, the
 * sizes it serves (contracts: radix52.h).
 *
 * n goes into half 0 of a big_r52_dual_mod with halves = 1
 * (big_r52_mod_init), so every product works on that half alone; a goes
 * in as it is: it is below 2^(64 len) <= R/2^16, within
 * big_r52_pow_public's bound of R/4, so no reduction comes first.
 */
#include "internal.h"
#include "radix52.h"

#if BIG_CHUNK_SIZE == 64

int big_r52_ct_base_digits(int len)
{
	return len == 16 ? 20 : len == 32 ? 40 : 0;
}

size_t big_r52_ct_base_scratch(int digits)
{
	return 3 * (size_t)BIG_R52_PAIR_WORDS(digits) +
	       big_r52_pow_public_scratch(digits);
}
_Static_assert(3 * BIG_R52_PAIR_MAX_WORDS + 3 * BIG_R52_PAIR_MAX_WORDS <=
		       BIG_R52_CT_BASE_SCRATCH_MAX,
	       "big_r52_ct_base_scratch fits BIG_R52_CT_BASE_SCRATCH_MAX");

void big_r52_ct_base_pow(uint64_t *out, const uint64_t *a,
			 const uint64_t *e, int ebits, const uint64_t *n,
			 const uint64_t *n_rr, int len, int digits,
			 const struct big_r52_ops *ops, uint64_t *scratch)
{
	const int words = BIG_R52_PAIR_WORDS(digits);
	uint64_t *x = scratch, *y = x + words, *base = y + words;
	uint64_t *pow_scratch = base + words;
	struct big_r52_dual_mod mod;

	big_r52_mod_init(&mod, digits, 1, (const uint64_t *const[2]){ n, NULL },
			 (const uint64_t *const[2]){ n_rr, NULL }, len, ops, x, y);
	for (int w = 0; w < words; w++)
		base[w] = 0;
	big_r52_from_words(base, 0, digits, a, len);
	ops->pow_public(x, base, e, ebits, &mod, pow_scratch);
	big_r52_to_words(out, len, x, 0, digits);
	big_wipe(&mod, sizeof(mod));
}

#endif
