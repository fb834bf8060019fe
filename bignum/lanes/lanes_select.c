/*
 * Which lane build the batch path runs (lanes.h: big_lanes_ops_choose).
 * The choice is public (the CPU and the environment) and made at each
 * call: a getenv beside a batch of RSA exponentiations costs nothing.
 * BIGMONT_BATCH counts only where it names a build (big_crt_batch_forced):
 * a misspelt value is no request, rather than one for the default.  The
 * CPU tests it asks, big_lanes_cpu_has_avx2 and big_lanes52_cpu_has_ifma,
 * are bound once at load in bignum/dispatch.c (ifunc: cpuid, asked at
 * every call, traps to the hypervisor in a virtual machine).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lanes.h"
#include "lanes52.h"

const char *big_crt_batch_forced(void)
{
	static const char *const names[] = { "c", "avx2", "avx512", "fma", "fma512", "ifma" };
	const char *want = getenv("BIGMONT_BATCH");
	for (size_t i = 0; want != NULL && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(want, names[i]) == 0)
			return names[i];
	return NULL;
}

int big_lanes_ops_choose(struct big_lanes_ops *ops)
{
	const struct big_lanes_ops c = BIG_LANES_OPS_INIT(c);
	const char *want = big_crt_batch_forced();
	const int forced_c = want != NULL && strcmp(want, "c") == 0;
	*ops = c;
#if BIG_LANES_HAVE_AVX512_BUILD
	/* zmm before ymm where the CPU has both, unless avx2 is asked for:
	 * the same steps in half the vector instructions. */
	const int forced_avx2 = want != NULL && strcmp(want, "avx2") == 0;
	if (!forced_c && !forced_avx2 && big_lanes_cpu_has_avx512()) {
		const struct big_lanes_ops avx512 = BIG_LANES_OPS_INIT(avx512);
		*ops = avx512;
		return 1;
	}
#endif
#if BIG_LANES_HAVE_AVX2_BUILD
	if (!forced_c && big_lanes_cpu_has_avx2()) {
		const struct big_lanes_ops avx2 = BIG_LANES_OPS_INIT(avx2);
		*ops = avx2;
		return 1;
	}
#endif
	return forced_c;
}

int big_lanes52_cpu_has_fma(void)
{
#if BIG_LANES52_HAVE_FMA_BUILD
	return big_lanes52_cpu_can_fma() && big_lanes52_fma_rounds_down();
#else
	return 0;
#endif
}

/* Radix 2^52 on IFMA before the radix-2^28 builds where it can run: each
 * vpmadd52 takes eight 52-bit digit products (half products) where a
 * vpmuludq takes four of 28 bits.  Without IFMA, its FMA builds (two
 * double-precision multiply-adds a half-product pair): in zmm where the
 * CPU has AVX-512 F, before the radix-2^28 zmm build; in ymm after it,
 * before the radix-2^28 ymm one (lanes52.h). */
int big_lanes52_ops_choose(struct big_lanes52_ops *ops)
{
	const char *want = big_crt_batch_forced();
	const int asked_fma = want != NULL && strcmp(want, "fma") == 0;
	const int asked_fma512 = want != NULL && strcmp(want, "fma512") == 0;
	if (want != NULL && !asked_fma && !asked_fma512 && strcmp(want, "ifma") != 0)
		return 0;
#if BIG_LANES52_HAVE_IFMA_BUILD
	if (!asked_fma && !asked_fma512 && big_lanes52_cpu_has_ifma()) {
		const struct big_lanes52_ops ifma = BIG_LANES52_OPS_INIT_LOCKSTEP(ifma);
		*ops = ifma;
		return 1;
	}
#endif
#if BIG_LANES52_HAVE_FMA512_BUILD
	if (!asked_fma && big_lanes_cpu_has_avx512()) {
		const struct big_lanes52_ops fma512 = BIG_LANES52_OPS_INIT(fma512);
		*ops = fma512;
		return 1;
	}
#endif
#if BIG_LANES52_HAVE_FMA_BUILD
	if (!asked_fma512 && big_lanes52_cpu_has_fma()) {
		const struct big_lanes52_ops fma = BIG_LANES52_OPS_INIT(fma);
		*ops = fma;
		return 1;
	}
#endif
	(void)ops;
	return 0;
}
