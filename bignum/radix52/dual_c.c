/*
 * The twin: the radix-2^52 dual product, squaring and exponentiation
 * (radix52.h) with the vector API in portable C (vec_c.h).  The same
 * steps and the same words as the AVX-512 IFMA build, on every machine:
 * the tests compare it with GMP, the IFMA build with it.  Not fast, and
 * not meant to be: nothing outside the tests and the benchmark runs it.
 */
/* GCC cannot follow the group ranges of a run-time digit count and
 * warns of reads it cannot match to writes; every group read is written
 * (dual_fixed_impl.h, dual_sqr_impl.h), which memcheck checks on the twin. */
#ifdef __clang__
/* clang has no -Wmaybe-uninitialized; it reads '#pragma GCC unroll' as a
 * request and warns where a run-time count leaves a loop rolled, which
 * GCC does quietly. */
#pragma clang diagnostic ignored "-Wpass-failed"
#else
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "vec_c.h"

/* The template's steps as ordinary static functions, which GCC may
 * inline or not: forced inlining made this one of the longest compiles
 * of each build, for code only the tests and the benchmark's twin row
 * run. */
#define R52_INLINE static inline
#define R52_SFX c
#include "dual_step_impl.h"
#include "dual_mul_impl.h"
#include "dual_sqr_impl.h"
#include "dual_fixed_impl.h"
#include "dual_pow_impl.h"
