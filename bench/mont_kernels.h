/*
 * bench/mont_kernels.h -- rdtsc ticks and core cycles per call of the
 * fused Montgomery kernels, the constant-time table read and the squaring
 * with the table read, at the RSA lengths: one table of `bigmont speed
 * --kernels` (bench/kernels.h).
 */
#ifndef BIGMONT_BENCH_MONT_KERNELS_H
#define BIGMONT_BENCH_MONT_KERNELS_H

#include <assert.h> /* static_assert, which C++ tests can read too */
#include <stdio.h>

#include "cycles.h"
#include "json.h"
#include "peak.h"

#define BENCH_MONT_LENS 5 /* 8, 12, 16, 24, 32 chunks */
#define BENCH_MONT_TRIALS 300 /* a figure's trials at --seconds 1 (cycles.h) */
static_assert(BENCH_MONT_LENS <= BENCH_KERNEL_COLUMNS, "a row holds every column");

/* Rows: "adx", "mul"; "avx2", "sel"; "one call", NULL. */
struct bench_mont_table {
	int trials;                         /* of every figure: the best of them */
	int nkernels;                       /* mul and sqr of each variant */
	struct bench_kernel_row kernel[6];
	int nselect[2];                     /* table reads of 32 and 64 entries */
	struct bench_kernel_row select[2][3];
	const char *select_bound;           /* big_ct_select's build */
	struct bench_kernel_row sqr_select[2];
	const char *sqr_select_bound;       /* big_mont_sqr_select_vec's */
	/* The adx product at 16 chunks each way ("kara16", "rows16"), where
	 * the CPU runs adx: column 0 only (16 chunks). */
	int nmul16;
	struct bench_kernel_row mul16[2];
	const char *mul16_bound;            /* the side the dispatch binds */
	/* The window exponentiation (big_mont_pow_ct, an exponent of len
	 * chunks) with each table read, the two sides of SELECT_VL ("avx2",
	 * "vl"), where the CPU runs both: columns 8, 16, 24, 32 chunks
	 * (BENCH_POW_LENS). */
	int npow, pow_trials;
	struct bench_kernel_row pow[2];
	const char *pow_bound;
};
#define BENCH_POW_LENS 4
#define BENCH_POW_TRIALS 30 /* a pow figure's trials at --seconds 1 */

/* Measure every kernel variant this build and CPU have, each figure the
 * best of bench_kernel_trials(BENCH_MONT_TRIALS, trial_scale) runs
 * (trial_scale: --seconds), sampling the clock as it goes.  Returns 0, or
 * 1 if the library has 32-bit chunks (nothing measured at these lengths'
 * meaning). */
int bench_mont_kernels_measure(struct bench_mont_table *t, double trial_scale,
			       struct bench_cycle_clock *clock);
/* The tables, headed by their trials, the kernels also in core cycles at `ticks_per_cycle` and
 * against the mulx peak (peak.h), where it was measured. */
void bench_mont_kernels_print(FILE *out, const struct bench_mont_table *t,
			      double ticks_per_cycle, const struct bench_peak *peak);
/* The kernels' rows as JSON objects, one per row and length, with their
 * bounds (peak.h), inside an array. */
void bench_mont_kernels_json(struct json_writer *w, const struct bench_mont_table *t,
			     double ticks_per_cycle, const struct bench_peak *peak);

#endif
