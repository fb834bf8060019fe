/* Cycles per chunk of the vector primitives next to GMP (bench/kernels.c). */
#ifndef BIGMONT_BENCH_KERNELS_H
#define BIGMONT_BENCH_KERNELS_H

#include <stdio.h>

/* Print core cycles per chunk of every variant of big_mul_add_vec,
 * big_mul_set_vec and big_sqr_vec this build and CPU have, next to GMP's
 * mpn_addmul_1, mpn_mul_1 and mpn_sqr, at n = 8, 16, 32, 64, all measured
 * in one interleaved run.  Returns 0, or 1 if the library has 32-bit
 * chunks (not comparable with GMP's 64-bit limbs; nothing printed but a
 * note). */
int bench_kernels_report(FILE *out);

#endif
