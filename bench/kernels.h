/*
 * bench/kernels.h -- `bigmont speed --kernels`: the vector primitives next
 * to GMP's (vec_kernels.h) and the Montgomery kernels and table reads
 * (mont_kernels.h), measured with one clock and one calibration of ticks
 * per core cycle (cycles.h), printed after both are measured.
 */
#ifndef BIGMONT_BENCH_KERNELS_H
#define BIGMONT_BENCH_KERNELS_H

#include <stdio.h>

/* Returns 0, or 1 if this build cannot time its kernels (32-bit chunks:
 * the tables say so and stay empty). */
int bench_kernels_report(FILE *out);

#endif
