/*
 * Which path big_modexp_crt takes for a key size (contracts: radix52.h):
 * what the radix-2^52 code can do (big_r52_crt_digits), what the ifma
 * variant chooses (big_r52_crt_digits_measured: the one place that says
 * which sizes are faster than adx), and its name for reports
 * (big_modexp_crt_path).  The choice itself, big_modexp_crt_r52_digits,
 * is bound at load time in bignum/dispatch.c.
 */
#include "internal.h"
#include "radix52.h"

int big_r52_crt_digits(int lp, int lq)
{
	if (lp != lq)
		return 0;
	switch (lp) {
	case 8:
		return 10;
	case 16:
		return 20;
	case 24:
		return 30;
	case 32:
		return 40;
	default:
		return 0;
	}
}

/*
 * Every RSA size the radix-2^52 code serves is faster there than on the
 * adx kernels where the ifma variant runs, RSA-1024 included (10 digits
 * in 3 groups, the last half padding): on AMD EPYC family 25 model 17,
 * `bigmont speed --compare none`, fault check on, 62.3-63.1 us against
 * 69.1-69.6 us (3 alternating runs).  Should a CPU measure a size slower,
 * this is the one place to leave it out.
 */
int big_r52_crt_digits_measured(int lp, int lq)
{
	return big_r52_crt_digits(lp, lq);
}

int big_r52_crt_digits_never(int lp, int lq)
{
	(void)lp;
	(void)lq;
	return 0;
}

const char *big_modexp_crt_path(int pbits, int qbits)
{
	if (pbits < 1 || qbits < 1)
		return "radix64";
	return big_modexp_crt_r52_digits(BITLEN2BIGNUMLEN(pbits),
					 BITLEN2BIGNUMLEN(qbits))
		       ? "radix52-ifma"
		       : "radix64";
}
