/*
 * bench/r52_kernels.h -- rdtsc ticks and core cycles per call of the
 * radix-2^52 dual product and squaring (both CRT halves at once,
 * bignum/radix52/radix52.h) at the RSA digit counts: one table of
 * `bigmont speed --kernels` (bench/kernels.h).
 */
#ifndef BIGMONT_BENCH_R52_KERNELS_H
#define BIGMONT_BENCH_R52_KERNELS_H

#include <assert.h> /* static_assert, which C++ tests can read too */
#include <stdio.h>

#include "cycles.h"
#include "json.h"
#include "peak.h"

#define BENCH_R52_SIZES 4 /* 10, 20, 30, 40 digits: RSA-1024 .. 4096 */
#define BENCH_R52_TRIALS 300 /* a figure's trials at --seconds 1 (cycles.h) */
static_assert(BENCH_R52_SIZES <= BENCH_KERNEL_COLUMNS, "a row holds every column");

struct bench_r52_table {
	int trials; /* of every figure: the best of them */
	int nrows; /* mul and sqr of the twin, and of ifma where it runs */
	struct bench_kernel_row row[4]; /* "ifma", "mul" */
	/* The 20-digit NASM kernels in each tuning ("amd", "intel"), where
	 * the library has them and the CPU runs them: column 0 only. */
	int ntuned;
	struct bench_kernel_row tuned[4];
	const char *running; /* the tuning the ifma rows' 20 column ran */
	/* Each side of the IFMA choices at 10, 30 and 40 digits ("ymm" mul,
	 * "pairs" mul, "ymm" sqr: the dedicated squaring, "pairs" sqr: at 10
	 * digits the square by the pair product), where the CPU runs IFMA:
	 * columns 0, 1 and 2 (10, 30, 40 digits). */
	int nsides;
	struct bench_kernel_row side[4];
	char pairs_at[32]; /* what this CPU binds: "10, 30 and 40", "neither" */
	const char *sqr30_by;
};
#define BENCH_R52_SIDE_SIZES 3

/* Measure the builds this CPU can run, each figure the best of
 * bench_kernel_trials(BENCH_R52_TRIALS, trial_scale) runs (trial_scale:
 * --seconds); 1 if the library has no radix-2^52 code (32-bit chunks),
 * else 0. */
int bench_r52_kernels_measure(struct bench_r52_table *t, double trial_scale,
			      struct bench_cycle_clock *clock);
/* The table, headed by its trials, in ticks and core cycles, and the ifma rows against the
 * IFMA peak (peak.h), where it was measured. */
void bench_r52_kernels_print(FILE *out, const struct bench_r52_table *t,
			     double ticks_per_cycle, const struct bench_peak *peak);
/* Every row as JSON objects, one per row and digit count, inside an
 * array; the ifma rows and the tunings' with their bounds. */
void bench_r52_kernels_json(struct json_writer *w, const struct bench_r52_table *t,
			    double ticks_per_cycle, const struct bench_peak *peak);

#endif
