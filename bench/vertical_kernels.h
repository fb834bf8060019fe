/*
 * bench/vertical_kernels.h -- rdtsc ticks and core cycles of the CRT's two
 * exponentiations at RSA-3072 and 4096 (24- and 32-chunk halves) by the
 * two sides of the tuning choice VERTICAL (bignum/tuning.h): "radix64"
 * (per half: big_mont_reduce_ct into Montgomery form, big_mont_pow_ct on
 * the bound kernels, the product out, as modexp_crt.c does) and
 * "vertical" (a mod p and a mod q by big_mont_reduce_ct, one
 * big_vert_pow2_avx2): one table of `bigmont speed --kernels`, where the
 * CPU has AVX2.
 */
#ifndef BIGMONT_BENCH_VERTICAL_KERNELS_H
#define BIGMONT_BENCH_VERTICAL_KERNELS_H

#include <stdio.h>

#include "cycles.h"
#include "json.h"
#include "peak.h"

#define BENCH_VERTICAL_SIZES 2 /* 24, 32 chunks a half */
#define BENCH_VERTICAL_TRIALS 30 /* a figure's trials at --seconds 1 (cycles.h) */

struct bench_vertical_table {
	int trials; /* of every figure: the best of them */
	int nrows; /* 0 where the build or the CPU has no vertical layer */
	struct bench_kernel_row row[2]; /* "radix64", "pow"; "vertical", "pow" */
};

/* Each figure the best of bench_kernel_trials(BENCH_VERTICAL_TRIALS,
 * trial_scale) pairs (trial_scale: --seconds); the table headed by them. */
void bench_vertical_kernels_measure(struct bench_vertical_table *t, double trial_scale,
				    struct bench_cycle_clock *clock);
void bench_vertical_kernels_print(FILE *out, const struct bench_vertical_table *t,
				  double ticks_per_cycle);
/* The rows as JSON objects (side, op, chunks, ticks, cycles; no count or
 * bound: the exponentiations are not one kernel), inside an array. */
void bench_vertical_kernels_json(struct json_writer *w, const struct bench_vertical_table *t,
				 double ticks_per_cycle);

#endif
