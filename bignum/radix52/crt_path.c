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
 * RSA-1024 (two 8-chunk primes, 10 digits in 3 ymm groups of which the
 * last is half padding) is expected to gain least and may lose to the adx
 * kernels: it stays on the adx path until an IFMA CPU measures the
 * radix-2^52 path faster there (issue 15).  Set to 1 with that
 * measurement in the commit message.
 */
#define R52_RSA1024_MEASURED_FASTER 0

int big_r52_crt_digits_measured(int lp, int lq)
{
	const int digits = big_r52_crt_digits(lp, lq);
	if (digits == 10 && !R52_RSA1024_MEASURED_FASTER)
		return 0;
	return digits;
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
