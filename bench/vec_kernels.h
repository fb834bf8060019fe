/*
 * bench/vec_kernels.h -- core cycles per chunk of the vector primitives
 * next to GMP's, one table of `bigmont speed --kernels` (bench/kernels.h).
 */
#ifndef BIGMONT_BENCH_VEC_KERNELS_H
#define BIGMONT_BENCH_VEC_KERNELS_H

#include <stdio.h>

#include "cycles.h"

#define BENCH_VEC_SIZES 4       /* n = 8, 16, 32, 64 */
#define BENCH_VEC_MAX_KERNELS 12
#define BENCH_VEC_TRIALS 1000 /* a figure's samples at --seconds 1 (cycles.h) */

struct bench_vec_table {
	int trials; /* interleaved samples of every figure: the best of them */
	int n;
	struct {
		char name[24];   /* "mul_add_vec_adx", "mpn_addmul_1" */
		int family;      /* rows of one family print together */
		int squaring;    /* per chunk^2 rather than per chunk */
		double best[2 * BENCH_VEC_SIZES]; /* ticks per call at n, n/2 */
	} k[BENCH_VEC_MAX_KERNELS];
};

/* Measure every variant of big_mul_add_vec, big_mul_set_vec and
 * big_sqr_vec this build and CPU have, next to GMP's mpn_addmul_1,
 * mpn_mul_1 and mpn_sqr, interleaved, each figure the best of
 * bench_kernel_trials(BENCH_VEC_TRIALS, trial_scale) samples (trial_scale:
 * --seconds), sampling the clock as it goes.  Returns 0, or 1 if the
 * library's chunks are not 64-bit x86-64 limbs (nothing comparable with
 * GMP; the table stays empty). */
int bench_vec_kernels_measure(struct bench_vec_table *t, double trial_scale,
			      struct bench_cycle_clock *clock);
/* The table, headed by its trials, in core cycles at `ticks_per_cycle`, or why it is empty. */
void bench_vec_kernels_print(FILE *out, const struct bench_vec_table *t,
			     double ticks_per_cycle);

#endif
