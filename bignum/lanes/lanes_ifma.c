/*
 * The radix-2^52 lane product, squaring and exponentiation (lanes52.h) on
 * AVX-512 IFMA: the algorithm of lanes52_impl.h with the vector API as
 * intrinsics on zmm registers (vec52_ifma.h), one zmm per digit position
 * of the eight lanes.
 *
 * Prototypes (lanes52.h):
 *   void big_lanes52_mul_ifma(uint64_t *r, const uint64_t *a,
 *                             const uint64_t *b,
 *                             const struct big_lanes52_mod *mod);
 *   void big_lanes52_sqr_ifma(uint64_t *r, const uint64_t *a,
 *                             const struct big_lanes52_mod *mod);
 *   void big_lanes52_pow_ifma(uint64_t *out, const uint64_t *base,
 *                             const uint64_t *e, int ewords,
 *                             const struct big_lanes52_mod *mod,
 *                             uint64_t *scratch);
 * Preconditions: the CPU has AVX-512 F and IFMA and the OS saves the
 * opmask and ZMM state (big_lanes52_cpu_has_ifma(); big_lanes52_ops_choose
 * checks it); BIG_LANES52_MIN_DIGITS <= mod->digits <=
 * BIG_LANES52_MAX_DIGITS; operands normalised, each lane below 2 m_l.
 * Constant time.
 *
 * Work per call, 8 lanes of k digits (k = 10, 20, 30, 40 for RSA-1024 ..
 * 4096's halves, compiled with k constant):
 *   mul: 4k^2 + k vpmadd52[lh]uq on zmm (two halves of the k^2 digit
 *        products of a b and of q m each, and the k q digits); 4k^2 in
 *        the tiles at 30 and 40 digits and the window at 10, which never
 *        form lo(q m_0)
 *   sqr: 3k^2 + 2k vpmadd52[lh]uq (k^2 + k for the square, 2k^2 + k
 *        for the reduction), and 3k - 5 by 2 for the window's doubled
 *        digits (10 and 20 digits; 2k - 3 as GCC compiles the squaring
 *        without the scan: bench/peak.c); 3k^2 + k in the tiles and at
 *        10 (and the doubled digits)
 * against the AVX2 build's 4k'^2 vpmuludq on ymm at its k' digits of 28
 * bits (lanes_avx2.c): for a 1024-bit half 1600 against 5476.
 * Core cycles per call (`bigmont speed --kernels`, best of 100 x 16
 * dependent calls; results/<cpu>/<date>-kernels.txt), on CPUs with two
 * zmm IFMA ports:
 *   k:                                    10     20     30     40
 *   Intel 6/207, 2026-12-01-0549 mul     241    926   2137   3694
 *                                sqr     239    771   1776   2991
 *   Intel 6/167, 2026-12-02-0154 mul     278   1151   2511   4319
 *                                sqr     263    945   2100   3527
 * (the exponentiation's squarings also merge a slice of the table scan,
 * which these do not: lanes52_impl.h, struct ln52_scan)
 * At 20 digits, where LANES52_SQR20_ASM binds them (lanes52.h), the
 * squaring is asm/x86_64/lanes52_sqr20_ifma.asm (1257 madds; 862 core
 * cycles against the C's 921 on 6/167), the product
 * lanes52_mul20_ifma.asm (1600 madds; 980-1067 against the C's
 * 1098-1163), and the exponentiation reads each window's entry ahead of
 * its squarings.
 * (`bigmont speed --kernels` prints them against the vpmadd52luq peak).
 *
 * The tests compile this file once more against an exact software model
 * of the intrinsics (tests/lanes/), so the same source runs on every
 * machine; the build here runs only on IFMA CPUs.
 */
#if (defined(__x86_64__) && BIGMONT_HAVE_ASM) || defined(LANES52_INTRINSICS_EMULATED)

#ifndef LANES52_INTRINSICS_EMULATED
#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx512f,avx512ifma")
#endif
#define LN52_SFX ifma
#define LN52_FIXED_SIZES 1
#define LN52_SQR20_BOUND() big_lanes52_sqr20_asm()
#define LN52_SQR20_NASM(r, a, mod) big_lanes52_sqr20_ifma_asm(r, a, mod)
#define LN52_MUL20_NASM(r, a, b, mod) big_lanes52_mul20_ifma_asm(r, a, b, mod)
#endif

#include "vec52_ifma.h"
#include "lanes52_impl.h"

#ifndef LANES52_INTRINSICS_EMULATED
#include <stddef.h>

/* The NASM squaring and product read mod->m at offset 0 and mod->k0 at
 * this one (lanes52_rows20.inc: LN52_MOD_K0). */
_Static_assert(offsetof(struct big_lanes52_mod, m) == 0, "m first");
_Static_assert(offsetof(struct big_lanes52_mod, k0) == 2 * 8 * BIG_LANES52_MAX_WORDS,
	       "k0 where the NASM kernels read it");

void big_lanes52_sqr_ifma_side(uint64_t *r, const uint64_t *a,
			       const struct big_lanes52_mod *mod, int nasm20)
{
	ln52_sqr_side(r, a, mod, nasm20);
}

void big_lanes52_mul_ifma_side(uint64_t *r, const uint64_t *a, const uint64_t *b,
			       const struct big_lanes52_mod *mod, int nasm20)
{
	ln52_mul_side(r, a, b, mod, nasm20);
}

void big_lanes52_pow_ifma_side(uint64_t *out, const uint64_t *base, const uint64_t *e,
			       int ewords, const struct big_lanes52_mod *mod, uint64_t *scratch,
			       int nasm20)
{
	ln52_pow(out, base, e, ewords, mod, scratch, nasm20);
}
#endif

#endif
