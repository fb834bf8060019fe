/*
 * bench/kernels.c -- the kernel tables of `bigmont speed --kernels`
 * (contract in kernels.h).
 */
#include "kernels.h"

#include "cycles.h"
#include "mont_kernels.h"
#include "r52_kernels.h"
#include "vec_kernels.h"

int bench_kernels_report(FILE *out)
{
	struct bench_vec_table vec;
	struct bench_mont_table mont;
	struct bench_r52_table r52;
	struct bench_cycle_clock clock = { 0, 0 };
	int rc = bench_vec_kernels_measure(&vec, &clock);
	rc |= bench_mont_kernels_measure(&mont, &clock);
	rc |= bench_r52_kernels_measure(&r52, &clock);
	const double tpc = bench_ticks_per_cycle(&clock);
	if (clock.best_ticks != 0)
		fprintf(out, "\nrdtsc ticks per core cycle: %.3f (the best of %d chains of 4096 "
			"dependent adds, taken all through both tables)\n", tpc, clock.samples);
	fprintf(out, "\n");
	bench_vec_kernels_print(out, &vec, tpc);
	fprintf(out, "\n");
	bench_mont_kernels_print(out, &mont, tpc);
	fprintf(out, "\n");
	bench_r52_kernels_print(out, &r52, tpc);
	return rc;
}
