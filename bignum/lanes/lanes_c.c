/*
 * The twin: the lane product, squaring and exponentiation (lanes.h) with
 * the vector API in portable C (vec_c.h).  The same steps and words as the
 * AVX2 build, in every build: the tests compare it with GMP and the AVX2
 * build with it, and the batch path runs it where AVX2 is absent.
 */
#include "vec_c.h"

#define LN_SFX c
#include "lanes_impl.h"
