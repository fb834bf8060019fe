/*
 * bignum/lanes/lanes_ifma.c once more, against the software model of its
 * intrinsics (intrin512_emu.h): big_lanes52_{mul,sqr,pow}_emu run the
 * IFMA build's exact instruction semantics on any CPU
 * (tests/test_lanes52.cpp).  The sizes are not fixed here (k a variable):
 * the same source at every k, the fixed-size copies being the compiler's.
 */
#include "intrin512_emu.h"

#define LANES52_INTRINSICS_EMULATED 1

/* The template's steps as ordinary static functions, which GCC may
 * inline or not: forced inlining of every step made this the longest
 * compile of each build, for code only the tests run this hot. */
#define LN52_INLINE static inline
/* The register-window product wherever the IFMA build takes it (k a
 * constant there, a variable here), its loops not unrolled: unrolled 24
 * times over the emulated intrinsics they took GCC two minutes. */
#define LN52_WINDOW_RUNTIME_K 1
#define LN52_UNROLL(n)
#define LN52_SFX emu
#include "lanes/lanes_ifma.c"
