/*
 * The twin: the lane product, squaring and exponentiation (lanes.h) with
 * the vector API in portable C (vec_c.h).  The same steps and words as the
 * AVX2 build, in every build: the tests compare it with GMP and the AVX2
 * build with it, and the batch path runs it where AVX2 is absent.
 */
#include "vec_c.h"

/* The template's steps as ordinary static functions, which GCC may
 * inline or not: forced inlining of every step made this the longest
 * compile of each build, for code only the tests run this hot. */
#define LN_INLINE static inline

#define LN_SFX c
#include "lanes_impl.h"
