/*
 * The radix-2^52 dual product, squaring and exponentiation on AVX-512
 * IFMA: the algorithm of dual_step_impl.h .. dual_pow_impl.h with the vector API as
 * intrinsics on ymm registers (vec_ifma.h).  A 1024-bit half is 20 digits
 * in 5 ymm registers; the two halves' steps alternate in one stream.
 *
 * Math (radix52.h, dual_mul_impl.h, dual_sqr_impl.h), in each half h of the pair
 * layout, with R = 2^(52k), m odd < R/4, Y = -a b m^-1 mod R:
 *   mul: r = (a b + Y m) / R < 2m          (operand scanning)
 *   sqr: r = (a a + Y m) / R < 2m          (cross products once, doubled)
 *   pow: out = base^e mod m, fully reduced (window 5, masked table scan)
 *
 * Prototypes (radix52.h):
 *   void big_r52_dual_mul_ifma(uint64_t *r, const uint64_t *a,
 *                              const uint64_t *b,
 *                              const struct big_r52_dual_mod *mod);
 *   void big_r52_dual_sqr_ifma(uint64_t *r, const uint64_t *a,
 *                              const struct big_r52_dual_mod *mod);
 *   void big_r52_dual_pow_ifma(uint64_t *out, const uint64_t *base,
 *                              const uint64_t *e_p, const uint64_t *e_q,
 *                              int ewords,
 *                              const struct big_r52_dual_mod *mod,
 *                              uint64_t *scratch);
 *
 * Preconditions: the CPU has AVX512F, VL, IFMA, DQ and BW and the OS
 * saves their state (big_r52_cpu_has_ifma(); the dispatch checks it before
 * anything here runs); 1 <= mod->digits <= BIG_R52_MAX_DIGITS; operands
 * normalised with zero padding, each half below 2m; scratch of
 * big_r52_dual_pow_scratch(k) words; aliasing as in radix52.h.  Constant
 * time: no branch or address depends on a digit or an exponent bit.
 * 10, 20, 30 and 40 digits are compiled with k constant (R52_FIXED_SIZES).
 *
 * Work per product and half (k digits, G = k/4 ymm groups):
 *   mul: 4kG vpmadd52[lh]uq, kG valignq, 3k scalar products
 *   sqr: about kG + 2G vpmadd52[lh]uq for the square, 2kG for the
 *        reduction, kG + 4G valignq
 *
 * Core cycles per call, both halves (`bigmont speed --kernels`; how it
 * times them: docs/design-notes.md, "Benchmark"):
 *
 *   AMD EPYC family 25 model 17 (Zen 4; the build without NASM, 2026-11-26)
 *   digits   dual mul   dual sqr   the exponentiation squares by
 *     10        256        240     sqr (window fixed, dual_fixed_impl.h)
 *     20        659        594     sqr
 *     30       1311       1567     mul
 *     40       2019       3318     mul
 *
 *   Intel Xeon family 6 model 207 (results/intel-r-xeon-r-processor-
 *   family6-model207/2026-11-27-1838-kernels.txt)
 *   digits   dual mul   dual sqr   the exponentiation squares by
 *     10        273        255     sqr (window fixed, dual_fixed_impl.h)
 *     30       1423       1257     sqr (R52_POW_SQR30_DEDICATED)
 *     40       2173       4125     mul
 *
 *   Intel Xeon family 6 model 106 (Ice Lake; 3 runs of `bigmont speed
 *   --kernels`, 2026-11-28, the same in each to 1 %)
 *   digits   dual mul   dual sqr   the exponentiation squares by
 *     10        301        276     sqr (window fixed, dual_fixed_impl.h)
 *     30       1594       1831     mul
 *     40       2434       3503     mul
 *
 * Only the builds with the assembly kernels have this build (radix52.h:
 * their ifma variant runs it), and they run their NASM product and
 * squaring at 20 digits instead; their cycles are in their banners
 * (asm/x86_64/r52_dual_{mul,sqr}20_ifma.asm).  One half alone
 * (mod->halves == 1, the fault check) is timed in docs/design-notes.md
 * ("The fault check in radix 2^52").
 *
 * The tests compile this file once more against an exact software model
 * of the intrinsics (tests/radix52/), so the mapping in vec_ifma.h runs
 * on every machine; the build here runs only on IFMA CPUs.
 */
#if (defined(__x86_64__) && BIGMONT_HAVE_ASM) || defined(R52_INTRINSICS_EMULATED)

#ifndef R52_INTRINSICS_EMULATED
#pragma GCC target("avx512f,avx512vl,avx512ifma")
#define R52_SFX ifma
/* The emulated build leaves these out: unrolled over emulated lanes they
 * take minutes to compile, and every size's steps are the same as k's
 * run-time form (dual_pow_impl.h). */
#define R52_FIXED_SIZES 1
/* The 20-digit product and squaring in NASM (asm/x86_64/r52_dual_*20_
 * ifma.asm). */
#define R52_KERNELS20 1
#define R52_MUL20_KERNEL big_r52_dual_mul20_ifma_asm
#define R52_SQR20_KERNEL big_r52_dual_sqr20_ifma_asm
#define R52_WIPE20 big_r52_dual20_ifma_wipe
/* Where it measured faster than the product, the exponentiation squares
 * by the dedicated squaring at 30 digits too (the cycle tables above). */
#define R52_POW_SQR30_DEDICATED big_r52_pow_sqr30_dedicated
#endif

/* GCC cannot follow the group ranges of a run-time digit count and
 * warns of reads it cannot match to writes; every group read is written
 * (dual_fixed_impl.h, dual_sqr_impl.h), which memcheck checks on the twin. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "vec_ifma.h"

#include "dual_step_impl.h"
#include "dual_mul_impl.h"
#include "dual_sqr_impl.h"
#include "dual_fixed_impl.h"

#ifndef R52_INTRINSICS_EMULATED
/* The table read (dual_pow_impl.h) on whole pair groups: a zmm register holds
 * the same four digit positions of both halves, so an entry takes one
 * compare against (want_p x 4, want_q x 4) and G zmm blends, where the
 * ymm API takes two compares and 2G blends: fewer operations for the
 * vector ports that Intel's cores share between the blends and the
 * multiply-adds (measured: docs/design-notes.md, the intel tuning).  The
 * same words as r52_select_k. */
#define R52_SELECT_PAIRS r52_select_pairs
R52_INLINE void r52_select_pairs(uint64_t *out, const uint64_t *table, uint64_t want_p,
				 uint64_t want_q, const int k)
{
	const int G = BIG_R52_GROUPS(k), words = BIG_R52_PAIR_WORDS(k);
	const __m512i want = _mm512_mask_set1_epi64(_mm512_set1_epi64((long long)want_p),
						    0xf0, (long long)want_q);
	const __m512i one = _mm512_set1_epi64(1);
	__m512i acc[BIG_R52_MAX_GROUPS];
	__m512i at = _mm512_setzero_si512();

	R52_UNROLL
	for (int g = 0; g < G; g++)
		acc[g] = _mm512_setzero_si512();
	for (int e = 0; e < BIG_R52_TABLE_ENTRIES; e++) {
		const uint64_t *entry = table + (size_t)e * (size_t)words;
		const __mmask8 take = _mm512_cmpeq_epu64_mask(at, want);
		R52_UNROLL
		for (int g = 0; g < G; g++)
			acc[g] = _mm512_mask_blend_epi64(take, acc[g],
							 _mm512_loadu_si512(entry + 8 * g));
		at = _mm512_add_epi64(at, one);
	}
	R52_UNROLL
	for (int g = 0; g < G; g++)
		_mm512_storeu_si512(out + 8 * g, acc[g]);
}
#endif

#include "dual_pow_impl.h"

#endif
