/*
 * bench/lanes52_kernels.h -- rdtsc ticks and core cycles per call of the
 * radix-2^52 lane product and squaring (eight lanes on AVX-512 IFMA,
 * bignum/lanes/lanes52.h) at the RSA halves' digit counts, and their share
 * of the vpmadd52luq peak (peak.h): one table of `bigmont speed
 * --kernels`, empty where the build or the CPU has no IFMA lanes.
 *
 * The count of a call, in zmm vpmadd52 (8 lane products, lo or hi), the
 * same in every form of the kernels (lanes52_impl.h):
 *   product    4k^2 + k   (a b and q m, lo and hi, and the k digits q)
 *   squaring   3k^2 + 2k  (the k^2 + k halves of the square, 2k^2 + k for
 *              the reduction)
 * and a second table of the same kernels in the FMA build (AVX2 and FMA,
 * bignum/lanes/lanes52_fma.c) against the vfmadd231pd peak, empty where
 * the CPU has no AVX2 and FMA: ymm FMAs a call 8k^2 + 2k and 6k^2 + 4k
 * (peak.h: bench_peak_lanes52_fma), with the zmm form's rows
 * (lanes52_fma512.c, where the CPU has AVX-512F) beside them, against
 * the zmm FMA peak (half those counts: one stream).
 */
#ifndef BIGMONT_BENCH_LANES52_KERNELS_H
#define BIGMONT_BENCH_LANES52_KERNELS_H

#include <stdio.h>

#include "cycles.h"
#include "json.h"
#include "peak.h"

#define BENCH_LANES52_SIZES 4   /* 10, 20, 30, 40 digits: RSA-1024 .. 4096 */
#define BENCH_LANES52_TRIALS 100 /* a figure's trials at --seconds 1 (cycles.h) */

struct bench_lanes52_table {
	int trials;
	const char *why; /* NULL: measured; else why the table is empty */
	int nrows;       /* 0 or 2: ifma mul, sqr */
	struct bench_kernel_row row[2];
	/* The two sides of LANES52_SQR20_ASM (bignum/tuning.h) at 20 digits,
	 * alternating: the squaring (nasm, c) and the exponentiation by a
	 * 1024-bit exponent in every lane (nasm: the entry read ahead of
	 * the NASM squarings; scan: in slices within the C ones); 0 or 4. */
	int nsides;
	struct bench_kernel_row side[4];
	const char *sides_why; /* set where the sides' words differ: not timed */
	/* The FMA build's mul and sqr (0 or 2 rows), or why not. */
	int fma_nrows;
	struct bench_kernel_row fma_row[2];
	const char *fma_why;
	/* Its zmm form's (lanes52_fma512.c), or why not. */
	int fma512_nrows;
	struct bench_kernel_row fma512_row[2];
	const char *fma512_why;
};

void bench_lanes52_kernels_measure(struct bench_lanes52_table *t, double trial_scale,
				   struct bench_cycle_clock *clock);
void bench_lanes52_kernels_print(FILE *out, const struct bench_lanes52_table *t,
				 double ticks_per_cycle, const struct bench_peak *peak);
/* The rows as bench_peak_json_rows gives them (none where not measured):
 * the IFMA build's, the FMA build's (_fma_json) and its zmm form's
 * (_fma512_json). */
void bench_lanes52_kernels_json(struct json_writer *w, const struct bench_lanes52_table *t,
				double ticks_per_cycle, const struct bench_peak *peak);
void bench_lanes52_kernels_fma_json(struct json_writer *w, const struct bench_lanes52_table *t,
				    double ticks_per_cycle, const struct bench_peak *peak);
void bench_lanes52_kernels_fma512_json(struct json_writer *w,
				       const struct bench_lanes52_table *t, double ticks_per_cycle,
				       const struct bench_peak *peak);

#endif
