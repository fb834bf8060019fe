/*
 * bench/crt_pow_kernels.h -- rdtsc ticks and core cycles of the CRT's two
 * exponentiations (per half: big_mont_reduce_ct into Montgomery form,
 * the exponentiation, the product out, as bignum/modexp_crt.c does) by
 * the two sides of two tuning choices (bignum/tuning.h), two tables of
 * `bigmont speed --kernels`:
 *   CRT_PAIRED8, at 8 and 16 chunks a half (RSA-1024, 2048): "radix64",
 *     two big_mont_pow_ct one after the other, against "paired", the two
 *     side by side (big_mont_pow_ct_halves); every 64-bit-chunk build;
 *   VERTICAL, at 24 and 32 chunks (RSA-3072, 4096): "radix64" against
 *     "vertical" (a mod p and a mod q, one big_vert_pow2_avx2), where the
 *     CPU has AVX2;
 *   VERTICAL_ZMM, at 24 and 32 chunks: "radix64" against "zmm" (the same
 *     on the zmm kernels, big_vert_pow2_avx512), where the CPU has
 *     AVX-512F.
 */
#ifndef BIGMONT_BENCH_CRT_POW_KERNELS_H
#define BIGMONT_BENCH_CRT_POW_KERNELS_H

#include <stdio.h>

#include "cycles.h"
#include "json.h"
#include "peak.h"

#define BENCH_CRT_POW_SIZES 2 /* columns of each table, chunks a half */
#define BENCH_CRT_POW_TRIALS 30 /* a figure's trials at --seconds 1 (cycles.h) */

struct bench_crt_pow_table {
	int trials; /* of every figure: the best of them */
	int nrows; /* 0 where the build or the CPU cannot run the other side */
	const int *chunks; /* the columns' sizes */
	struct bench_kernel_row row[2]; /* "radix64", "pow"; the other side, "pow" */
};

/* Each figure the best of bench_kernel_trials(BENCH_CRT_POW_TRIALS,
 * trial_scale) pairs (trial_scale: --seconds); the tables headed by them. */
void bench_crt_pow_kernels_measure(struct bench_crt_pow_table *paired,
				   struct bench_crt_pow_table *vertical,
				   struct bench_crt_pow_table *zmm, double trial_scale,
				   struct bench_cycle_clock *clock);
void bench_crt_pow_kernels_print(FILE *out, const struct bench_crt_pow_table *paired,
				 const struct bench_crt_pow_table *vertical,
				 const struct bench_crt_pow_table *zmm, double ticks_per_cycle);
/* A table's rows as JSON objects (side, op, chunks, ticks, cycles;
 * count_key, the bound and the share null: the exponentiations are not
 * one kernel), inside an array. */
void bench_crt_pow_kernels_json(struct json_writer *w, const struct bench_crt_pow_table *t,
				const char *count_key, double ticks_per_cycle);

#endif
