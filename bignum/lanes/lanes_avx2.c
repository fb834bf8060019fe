/*
 * The lane product, squaring and exponentiation (lanes.h) on AVX2: the
 * algorithm of lanes_impl.h with the vector API as intrinsics on ymm
 * registers (vec_avx2.h), one ymm per digit position of four lanes.
 *
 * Prototypes (lanes.h):
 *   void big_lanes_mul_avx2(uint64_t *r, const uint64_t *a,
 *                           const uint64_t *b,
 *                           const struct big_lanes_mod *mod);
 *   void big_lanes_sqr_avx2(uint64_t *r, const uint64_t *a,
 *                           const struct big_lanes_mod *mod);
 *   void big_lanes_pow_avx2(uint64_t *out, const uint64_t *base,
 *                           const uint64_t *e, int ewords,
 *                           const struct big_lanes_mod *mod,
 *                           uint64_t *scratch);
 * Preconditions: the CPU has AVX2 and the OS saves the YMM state
 * (big_lanes_cpu_has_avx2(); big_lanes_ops_choose checks it);
 * BIG_LANES_MIN_DIGITS <= mod->digits <= BIG_LANES_MAX_DIGITS; operands
 * normalised, each lane below 2 m_l.  Constant time.
 *
 * Work per product, 8 lanes of k digits: 2k^2 vpmuludq per stream, 4k^2
 * in all (the squaring: about 3k^2); a column of a six-row pass is one
 * load, six vpmuludq (three with a memory operand), six vpaddq and one
 * read-modify-write of the column.
 * Cycles: `bigmont speed --kernels` (bench/lanes_kernels.c).
 *
 * At 19, 37, 55 and 74 digits (RSA-1024 .. 4096's halves) the NASM
 * kernels asm/x86_64/lanes_{mul,sqr}<k>_avx2.asm compute the same words
 * with a hand-made schedule; the entry points run them where the tuning
 * table (bignum/tuning.h, LANES19_ASM .. LANES74_ASM) or BIGMONT_TUNE
 * binds them, through big_lanes<k>_asm().  The _intrin and
 * _asm entries below take one side whatever the binding, for the tests
 * and the benchmark.
 */
#if defined(__x86_64__) && BIGMONT_HAVE_ASM

#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx2")
#endif
#include "vec_avx2.h"

#include <stddef.h>

#define LN_SFX avx2
#define LN_FIXED_SIZES 1
#define LN_PICK(op, K, ...)                                                  \
	(big_lanes##K##_asm() ? big_lanes_##op##K##_avx2_asm(__VA_ARGS__)     \
			      : ln_##op##_##K(__VA_ARGS__))
#define LN_WIPE_FRAMES() big_lanes_avx2_wipe()
#include "lanes_impl.h"

/* The NASM kernels read mod->m at offset 0 and mod->k0 at this one
 * (lanes_avx2.inc: LN_MOD_K0). */
_Static_assert(offsetof(struct big_lanes_mod, m) == 0, "m first");
_Static_assert(offsetof(struct big_lanes_mod, k0) == 2 * 8 * BIG_LANES_MAX_WORDS,
	       "k0 where the NASM kernels read it");

void big_lanes_mul_avx2_intrin(uint64_t *r, const uint64_t *a, const uint64_t *b,
			       const struct big_lanes_mod *mod)
{
	switch (mod->digits) {
	case 19:
		ln_mul_19(r, a, b, mod);
		return;
	case 37:
		ln_mul_37(r, a, b, mod);
		return;
	case 55:
		ln_mul_55(r, a, b, mod);
		return;
	case 74:
		ln_mul_74(r, a, b, mod);
		return;
	default:
		big_lanes_mul_avx2(r, a, b, mod);
	}
}

void big_lanes_sqr_avx2_intrin(uint64_t *r, const uint64_t *a,
			       const struct big_lanes_mod *mod)
{
	switch (mod->digits) {
	case 19:
		ln_sqr_19(r, a, mod);
		return;
	case 37:
		ln_sqr_37(r, a, mod);
		return;
	case 55:
		ln_sqr_55(r, a, mod);
		return;
	case 74:
		ln_sqr_74(r, a, mod);
		return;
	default:
		big_lanes_sqr_avx2(r, a, mod);
	}
}

void big_lanes_mul_avx2_asm(uint64_t *r, const uint64_t *a, const uint64_t *b,
			    const struct big_lanes_mod *mod)
{
	switch (mod->digits) {
	case 19:
		big_lanes_mul19_avx2_asm(r, a, b, mod);
		return;
	case 37:
		big_lanes_mul37_avx2_asm(r, a, b, mod);
		return;
	case 55:
		big_lanes_mul55_avx2_asm(r, a, b, mod);
		return;
	case 74:
		big_lanes_mul74_avx2_asm(r, a, b, mod);
		return;
	default:
		big_lanes_mul_avx2(r, a, b, mod);
	}
}

void big_lanes_sqr_avx2_asm(uint64_t *r, const uint64_t *a,
			    const struct big_lanes_mod *mod)
{
	switch (mod->digits) {
	case 19:
		big_lanes_sqr19_avx2_asm(r, a, mod);
		return;
	case 37:
		big_lanes_sqr37_avx2_asm(r, a, mod);
		return;
	case 55:
		big_lanes_sqr55_avx2_asm(r, a, mod);
		return;
	case 74:
		big_lanes_sqr74_avx2_asm(r, a, mod);
		return;
	default:
		big_lanes_sqr_avx2(r, a, mod);
	}
}

#endif
