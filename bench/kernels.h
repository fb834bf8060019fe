/*
 * bench/kernels.h -- `bigmont speed --kernels`: the vector primitives next
 * to GMP's (vec_kernels.h), the Montgomery kernels and table reads
 * (mont_kernels.h) and the radix-2^52 dual kernels (r52_kernels.h),
 * measured with one clock and one calibration of ticks per core cycle
 * (cycles.h), with this CPU's multiplier (peak.h) and each Montgomery
 * and radix-2^52 kernel's bound and share of it, the batch's lane kernels
 * in radix 2^28 and 2^52 (lanes_kernels.h, lanes52_kernels.h), and the CRT's two
 * exponentiations by each side of the paired and vertical choices
 * (VERTICAL, VERTICAL_ZMM)
 * (crt_pow_kernels.h), printed after all are
 * measured; the same in the JSON document's "kernels" (bench/README.md).
 * --seconds scales every table's trials (bench_kernel_trials, cycles.h):
 * the default, 1, gives the full tables; the peak keeps its trials.
 */
#ifndef BIGMONT_BENCH_KERNELS_H
#define BIGMONT_BENCH_KERNELS_H

#include <stddef.h>
#include <stdio.h>

#include "cycles.h"
#include "json.h"
#include "lanes52_kernels.h"
#include "lanes_kernels.h"
#include "mont_kernels.h"
#include "peak.h"
#include "r52_kernels.h"
#include "vec_kernels.h"
#include "crt_pow_kernels.h"

struct bench_kernels {
	double trial_scale; /* --seconds: the tables' trials over their default */
	struct bench_cycle_clock clock;
	double ticks_per_cycle;
	struct bench_peak peak;
	struct bench_vec_table vec;
	struct bench_mont_table mont;
	struct bench_r52_table r52;
	struct bench_lanes_table lanes;
	struct bench_lanes52_table lanes52;
	struct bench_crt_pow_table paired, vertical, vertical_zmm;
};

/* Measure, each table at its trials at --seconds 1 times trial_scale
 * (--seconds: BENCH_SPEED_MIN_SECONDS to _MAX_SECONDS, speed.h), and print.
 * Returns 0, or 1 with the reason in err: this build cannot time its
 * kernels (32-bit chunks: the tables say so and stay empty), or the peak
 * is outside its sane range (nothing printed). */
int bench_kernels_report(FILE *out, struct bench_kernels *k, double trial_scale, char *err,
			 size_t errlen);

/* The "kernels" object's members (after its key and '{'), the trials
 * each table ran among them. */
void bench_kernels_json(struct json_writer *w, const struct bench_kernels *k);

#endif
