/*
 * bignum/radix52/dual_ifma.c against the software model of its
 * intrinsics (intrin_emu.h), with the choices the IFMA build makes only
 * on some CPU models taken everywhere: the product and table read on zmm
 * pair groups (r52_mul_pairs, r52_select_pairs) at every size above the
 * fixed window, and the exponentiation's squaring at 30 digits by the
 * dedicated squaring (bignum/tuning.h).  big_r52_dual_{mul,sqr,pow}_
 * emu_pairs (tests/test_radix52.cpp, tests/ct/ct_memcheck.cpp).
 */
#include "intrin_emu.h"

#define R52_INTRINSICS_EMULATED 1

/* The template's steps as ordinary static functions, which GCC may
 * inline or not: forced inlining of every step made this the longest
 * compile of each build, for code only the tests run this hot. */
#define R52_INLINE static inline
#define R52_EMULATED_PAIRS 1
#define R52_SFX emu_pairs
#define R52_MUL_PAIRS_WANTED(k) 1
#define R52_POW_SQR30_DEDICATED() 1
#include "radix52/dual_ifma.c"
