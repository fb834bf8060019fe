/*
 * bench/lanes_kernels.h -- rdtsc ticks and core cycles per call of the
 * lane product and squaring (eight lanes, bignum/lanes/lanes.h) at the
 * RSA digit counts, each build the CPU runs, and the AVX2 rows against
 * the ymm vpmuludq peak, the AVX-512F rows against the zmm one (peak.h):
 * one table of `bigmont speed --kernels`.
 */
#ifndef BIGMONT_BENCH_LANES_KERNELS_H
#define BIGMONT_BENCH_LANES_KERNELS_H

#include <stdint.h>
#include <stdio.h>

#include "cycles.h"
#include "json.h"
#include "peak.h"

#define BENCH_LANES_SIZES 4 /* 19, 37, 55, 74 digits: RSA-1024 .. 4096 */
#define BENCH_LANES_TRIALS 100 /* a figure's trials at --seconds 1 (cycles.h) */

struct bench_lanes_table {
	int trials; /* of every figure: the best of them */
	/* mul and sqr of c, and where AVX2 runs: of avx2 (the entry points,
	 * as the tuning binds them), intrin (the intrinsics at every size)
	 * and asm (the NASM kernels at 19, 37, 55, 74 digits): the two sides
	 * of LANES<k>_ASM (bignum/tuning.h); then, where AVX-512F runs, of
	 * avx512 (the zmm build): the last nzmm rows. */
	int nrows, nzmm;
	struct bench_kernel_row row[10]; /* "avx2", "mul" */
};

/* Each figure the best of bench_kernel_trials(BENCH_LANES_TRIALS,
 * trial_scale) runs (trial_scale: --seconds); the table headed by them. */
void bench_lanes_kernels_measure(struct bench_lanes_table *t, double trial_scale,
				 struct bench_cycle_clock *clock);
void bench_lanes_kernels_print(FILE *out, const struct bench_lanes_table *t,
			       double ticks_per_cycle, const struct bench_peak *peak);
/* Operands of the lane kernel tables, the same in every run: in each of
 * the eight lanes (lanes.h's layout) a random odd modulus of
 * k digit_bits - 4 bits and x, b below it, digits of digit_bits bits;
 * k0[l] = k0_of(lane l's lowest digit). */
void bench_lane_operands(uint64_t *m, uint64_t *k0, uint64_t *x, uint64_t *b, int k,
			 int digit_bits, uint64_t (*k0_of)(uint64_t), uint64_t *seed);
void bench_lanes_kernels_json(struct json_writer *w, const struct bench_lanes_table *t,
			      double ticks_per_cycle, const struct bench_peak *peak);

#endif
