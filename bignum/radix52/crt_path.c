/*
 * Which path big_modexp_crt and big_modexp_ct_base take for a size
 * (contracts: radix52.h): what the radix-2^52 code can do
 * (big_r52_crt_digits, big_r52_ct_base_digits), nothing (the _never
 * functions, the other variants), and the CRT path's name for reports
 * (big_modexp_crt_path).  The choices themselves are bound at load time
 * in bignum/dispatch.c.
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

int big_r52_crt_digits_never(int lp, int lq)
{
	(void)lp;
	(void)lq;
	return 0;
}

int big_r52_ct_base_digits(int len)
{
	return len == 16 ? 20 : len == 32 ? 40 : 0;
}

int big_r52_ct_base_digits_never(int len)
{
	(void)len;
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
