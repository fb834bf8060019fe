/* Cycle counts of the fused Montgomery kernels (bench/mont_kernels.c). */
#ifndef BIGMONT_BENCH_MONT_KERNELS_H
#define BIGMONT_BENCH_MONT_KERNELS_H

#include <stdio.h>

/* Print rdtsc ticks per big_mont_mul_vec / big_mont_sqr_vec call at the
 * RSA lengths (8, 12, 16, 24, 32 chunks) for every kernel variant this
 * build and CPU have.  Returns 0, or 1 if the library has 32-bit chunks
 * (nothing to measure at these lengths' meaning). */
int bench_mont_kernels_report(FILE *out);

#endif
