/*
 * Which lane build the batch path runs (lanes.h: big_lanes_ops_choose).
 * The choice is public (the CPU and the environment) and made at each
 * call: a getenv beside a batch of RSA exponentiations costs nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lanes.h"

int big_lanes_cpu_has_avx2(void)
{
	return big_ct_select_uses_avx2();
}

int big_lanes_ops_choose(struct big_lanes_ops *ops)
{
	const struct big_lanes_ops c = BIG_LANES_OPS_INIT(c);
	const char *want = getenv("BIGMONT_BATCH");
	const int forced_c = want != NULL && strcmp(want, "c") == 0;
	*ops = c;
#if BIG_LANES_HAVE_AVX2_BUILD
	if (!forced_c && big_lanes_cpu_has_avx2()) {
		const struct big_lanes_ops avx2 = BIG_LANES_OPS_INIT(avx2);
		*ops = avx2;
		return 1;
	}
#endif
	return forced_c;
}
