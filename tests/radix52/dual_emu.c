/*
 * bignum/radix52/dual_ifma.c once more, against the software model of its
 * intrinsics (intrin_emu.h): big_r52_dual_{mul,sqr,pow}_emu run the IFMA
 * build's exact instruction semantics on any CPU (tests/test_radix52.cpp).
 */
#include "intrin_emu.h"

#define R52_INTRINSICS_EMULATED 1

/* The template's steps as ordinary static functions, which GCC may
 * inline or not: forced inlining of every step made this the longest
 * compile of each build, for code only the tests run this hot. */
#define R52_INLINE static inline
#define R52_SFX emu
#include "radix52/dual_ifma.c"
