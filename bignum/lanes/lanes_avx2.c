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
 */
#if defined(__x86_64__) && BIGMONT_HAVE_ASM

#pragma GCC target("avx2")
#include "vec_avx2.h"

#define LN_SFX avx2
#define LN_FIXED_SIZES 1
#include "lanes_impl.h"

#endif
