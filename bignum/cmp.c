/*
 * big_cmp_abs: -1, 0, 1 as |aa| <, ==, > |bb|.
 *
 * Either input may have high zero chunks in its len, or len 0 (zero); they
 * are skipped, not trimmed.  Not constant time: it stops at the first
 * differing chunk from the top.
 */
#include "internal.h"

int big_cmp_abs(const BIGNUM *aa, const BIGNUM *bb)
{
	int alen = aa->len < 1 ? 0 : big_trimmed_len(aa);
	int blen = bb->len < 1 ? 0 : big_trimmed_len(bb);
	if (alen == 1 && aa->value[0] == 0)
		alen = 0;
	if (blen == 1 && bb->value[0] == 0)
		blen = 0;

	if (alen != blen)
		return alen > blen ? 1 : -1;
	for (int i = alen - 1; i >= 0; i--) {
		if (aa->value[i] != bb->value[i])
			return aa->value[i] > bb->value[i] ? 1 : -1;
	}
	return 0;
}
