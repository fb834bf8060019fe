/*
 * The lane product, squaring and exponentiation (lanes.h) on AVX-512F:
 * the algorithm of lanes_impl.h with the vector API as intrinsics on zmm
 * registers (vec_avx512.h), one zmm per digit position of all eight
 * lanes: one stream where the AVX2 build has two.
 *
 * Prototypes (lanes.h):
 *   void big_lanes_mul_avx512(uint64_t *r, const uint64_t *a,
 *                             const uint64_t *b,
 *                             const struct big_lanes_mod *mod);
 *   void big_lanes_sqr_avx512(uint64_t *r, const uint64_t *a,
 *                             const struct big_lanes_mod *mod);
 *   void big_lanes_pow_avx512(uint64_t *out, const uint64_t *base,
 *                             const uint64_t *e, int ewords,
 *                             const struct big_lanes_mod *mod,
 *                             uint64_t *scratch);
 * Preconditions: the CPU has AVX-512F and the OS saves the ZMM state
 * (big_lanes_cpu_has_avx512(); big_lanes_ops_choose checks it);
 * BIG_LANES_MIN_DIGITS <= mod->digits <= BIG_LANES_MAX_DIGITS; operands
 * normalised, each lane below 2 m_l.  Constant time.
 *
 * Why: where a zmm vpmuludq issues as often as a ymm one (two zmm ports),
 * it does eight lane products where the ymm one does four; the same
 * steps then cost half the vector instructions.  The words are the AVX2
 * build's and the twin's.  One level of Karatsuba (lanes_impl.h:
 * LN_KARATSUBA) in the squaring from 55 digits (0.97-0.98 of the
 * schoolbook's time at 55 and 74 digits on Intel family 6 model 207, 1.03
 * at 37) and in the product from 37 (0.99, 0.96, 0.93 at 37, 55, 74).
 * big_lanes_pow_avx512 leaves no secret behind: its columns live in its
 * own frame and the kernels' (21 KB for the product's entry point, 19 KB
 * for the squaring's), and zmm0-31; it zeroes BIG_LANES_AVX512_WIPE_BYTES
 * below its return address and every vector register before returning
 * (big_r52_stack_wipe_ifma, which runs on AVX-512F alone).  A caller of
 * _mul or _sqr by name wipes likewise.
 */
#if defined(__x86_64__) && BIGMONT_HAVE_ASM

#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx512f")
#endif
#include "vec_avx512.h"

#include "lanes52.h" /* big_r52_stack_wipe_ifma */

#define LN_SFX avx512
#define LN_FIXED_SIZES 1
#define LN_KARATSUBA 1
#define LN_SQR_KARATSUBA_MIN 55
#define LN_MUL_KARATSUBA_MIN 37
#define LN_WIPE_FRAMES() big_r52_stack_wipe_ifma(BIG_LANES_AVX512_WIPE_BYTES)
#include "lanes_impl.h"

#endif
