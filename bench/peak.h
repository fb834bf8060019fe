/*
 * bench/peak.h -- this CPU's multiplier, measured once by `bigmont speed
 * --kernels` (bench/kernels.h), and the bounds it puts on the Montgomery
 * and radix-2^52 kernels.
 *
 * The peak: loops of independent multiplies in NASM
 * (asm/x86_64/peak_mulx.asm, peak_ifma.asm), timed with the kernel
 * tables' clock (cycles.h) and turned into multiplies per core cycle at
 * the tables' one calibration of ticks per core cycle.  Each rate is the
 * difference of the best of PEAK_TRIALS runs of two loop lengths, so the
 * call and the fences around it cancel.
 *
 * Units, chosen so that one sane range holds for every rate:
 *   mulx  64 x 64 -> 128-bit multiplies (instructions) per cycle;
 *   IFMA  8-lane multiply-adds per cycle: vpmadd52luq instructions on zmm
 *         (8 lanes), and on ymm (4 lanes) halved, so that both count the
 *         lane products a cycle and compare;
 *   vpmuludq  ymm instructions (4 lane products of 32 x 32 -> 64 bits)
 *         per cycle (asm/x86_64/peak_vpmuludq.asm): the lane kernels';
 *         and, from the same file, vpmuludq + vpaddq pairs per cycle: a
 *         lane kernel's every product with its sum (AVX2 has no
 *         multiply-add), so what those kernels can reach where the adds
 *         share the multiplies' ports; both again on zmm (8 lane products
 *         an instruction, counted in zmm instructions), the multiplier of
 *         the lanes on AVX-512F;
 *   vfmadd231pd  ymm instructions (4 lane FMAs in double precision) per
 *         cycle (asm/x86_64/peak_fma.asm): the FMA lanes' multiplier;
 *         and the same FMAs as those kernels issue them, two a digit
 *         product with its subtraction and two 64-bit adds (their halves),
 *         counted in FMAs.  The same two on zmm with the rounding in each FMA
 *         ({rd-sae}): the zmm FMA lanes' (lanes52_fma512.c).
 * A rate outside [BENCH_PEAK_MIN, BENCH_PEAK_MAX] is taken for a failed
 * measurement (a wrong calibration, a loop that did not run as written)
 * and fails the run: a percentage of it would mislead.
 *
 * The bounds, per call (kernels of n chunks, k digits per half), count
 * the multiplies the kernel timed does:
 *   Montgomery product   n^2 + n^2 + n mulx (the product a b, the
 *                        reduction's q n, the n digits q); where the
 *                        product is Karatsuba's (the adx kernel at 16
 *                        chunks), 3 (n/2)^2 + n^2 + n = 464
 *   Montgomery squaring  n(n+1)/2 + n^2 + n (the n(n-1)/2 cross products
 *                        and n squares, the reduction, q)
 *   radix-2^52 dual product   2 halves x 2 (lo, hi) x 2k^2 lane products
 *                        (a b and Y m) / 8 lanes = k^2 zmm vpmadd52
 *   radix-2^52 dual squaring  2 x 2 x (k(k+1)/2 + k^2) / 8 = (3k^2 + k)/4
 * and what the kernels issue (zmm vpmadd52, or ymm ones halved; G =
 * ceil(k/4) groups of a half, the padding lanes included):
 *   the C intrinsics' product, on ymm halves or zmm pair groups: 4kG;
 *                        where the IFMA build squares by the pair product
 *                        (bignum/tuning.h) its squaring is that too
 *   their squaring       about kG + 2G + 2kG (dual_ifma.c): 3kG + 2G
 *   the 20-digit NASM kernels, both tunings: 435 (product), 349
 *                        (squaring), counted in their code
 * The "bound" rows print the first four (what the algorithm needs); each
 * kernel row's share is against what that kernel issues.
 *   lane product (bignum/lanes/, k digits, 8 lanes in 2 ymm streams)
 *                        2 x (2k^2 + k) ymm vpmuludq (a b, q m, the q)
 *   lane squaring        2 x (k(k+1)/2 + k^2 + k)
 *   the same on zmm (one stream of 8 lanes): half those, zmm vpmuludq
 * bound cycles = that / the peak rate; % of peak = bound / measured
 * cycles, which cannot pass 100: a share above it is a measurement error
 * (a disturbed calibration or run), flagged in the table and the JSON.
 * The radix-2^52 bounds leave out the scalar multiplies of the y digits
 * (k per half), which run beside the vector ones.
 */
#ifndef BIGMONT_BENCH_PEAK_H
#define BIGMONT_BENCH_PEAK_H

#include <stddef.h>
#include <stdio.h>

#include "cycles.h"

/* The peaks are x86-64's multipliers (mulx, AVX-512 IFMA, AVX2) and the
 * bounds are counted in their instructions: elsewhere --kernels measures
 * none of them and prints neither the peak lines nor the bound tables
 * (the JSON keeps its keys, null with the note BENCH_PEAK_NOT_X86). */
#if defined(__x86_64__)
#define BENCH_HAVE_X86_PEAKS 1
#else
#define BENCH_HAVE_X86_PEAKS 0
#endif
#define BENCH_PEAK_NOT_X86 "x86-64 only, not part of this build"

#include "json.h"

#define BENCH_PEAK_MIN 0.25
#define BENCH_PEAK_MAX 2.0
/* Accepted above BENCH_PEAK_MAX: the calibration's chains read about 1 %
 * high, so a CPU that truly does two a cycle (two zmm multiply ports) can
 * read 2.02; 2.1 and more is no multiplier's. */
#define BENCH_PEAK_SLACK 1.05
#define BENCH_PEAK_TRIALS 300
/* Timings at most: before the tables, after them, and while a rate reads
 * outside the range, again (each lowers the minima and the calibration's
 * best chain). */
#define BENCH_PEAK_TIMINGS 4
#define BENCH_PEAK_CHAINS 12

/* The best ticks of the short and the long runs of one loop. */
struct bench_peak_runs {
	double shorter, longer;
};

struct bench_peak {
	/* NULL: measured; else why not ("this build has no assembly"). */
	const char *mulx_why, *ifma_why, *vpmuludq_why, *zmm_vpmuludq_why, *fma_why, *fma512_why;
	/* Each loop's best run at the two lengths (NAN: not timed), kept
	 * apart so that later timings lower each minimum on its own. */
	struct bench_peak_runs mulx_runs, zmm_runs, ymm_runs, vpmuludq_runs, muladd_runs;
	struct bench_peak_runs zmm_vpmuludq_runs, zmm_muladd_runs, fma_runs, fma_halves_runs;
	struct bench_peak_runs fma512_runs, fma512_halves_runs;
	/* Ticks of the difference between the two lengths (longer minus
	 * shorter), and the multiplies (instructions) that difference holds. */
	double mulx_ticks, zmm_ticks, ymm_ticks, vpmuludq_ticks, muladd_ticks;
	double zmm_vpmuludq_ticks, zmm_muladd_ticks, fma_ticks, fma_halves_ticks;
	double fma512_ticks, fma512_halves_ticks;
	double ops;
	int timings; /* bench_peak_measure's calls merged in (keep_best) */
	/* Per core cycle, in the units above; NAN until bench_peak_finish. */
	double mulx, zmm, ymm;
	double ymm_instructions; /* ymm vpmadd52luq per cycle, not halved */
	double vpmuludq;         /* ymm vpmuludq per cycle */
	double muladd;           /* ymm vpmuludq + vpaddq pairs per cycle */
	double zmm_vpmuludq;     /* zmm vpmuludq per cycle */
	double zmm_muladd;       /* zmm vpmuludq + vpaddq pairs per cycle */
	double fma;              /* ymm vfmadd231pd per cycle */
	double fma_halves;       /* the same in the half products' mix */
	double fma512;           /* zmm vfmadd231pd {rd-sae} per cycle */
	double fma512_halves;    /* the same in the half products' mix */
};

/* Time the loops this build and CPU have, sampling the clock as it goes. */
void bench_peak_measure(struct bench_peak *p, struct bench_cycle_clock *clock);
/* Each loop's runs in p: the fewer ticks of p's and again's (a second
 * bench_peak_measure) at each length, and its ticks their new difference.
 * --kernels times the loops before the tables and after them: a busy host
 * (the other hyperthread on the multiply ports) had put the zmm peak at
 * 1.53 a cycle in one window of a run whose quiet windows read 1.9 to
 * 2.0, and the kernels above 100 % of it.  The lengths are merged apart,
 * not the differences: the fewer of two differences favours the one whose
 * short runs were all disturbed, and read 2.44 zmm a cycle on a busy
 * host. */
void bench_peak_keep_best(struct bench_peak *p, const struct bench_peak *again);
/* Convert to rates at ticks_per_cycle and check each; 0, or -1 with the
 * reason in err (the first rate outside the range). */
int bench_peak_finish(struct bench_peak *p, double ticks_per_cycle, char *err,
		      size_t errlen);
/* 0 if rate is within [BENCH_PEAK_MIN, BENCH_PEAK_MAX x BENCH_PEAK_SLACK], else -1 with a
 * message naming `what` and the rate in err.  NaN is outside. */
int bench_peak_check(double rate, const char *what, char *err, size_t errlen);

/* The IFMA peak the radix-2^52 bounds divide by: the better of zmm and
 * ymm in 8-lane multiply-adds a cycle; NAN if not measured. */
double bench_peak_ifma(const struct bench_peak *p);

/* The multiplies one call needs (above): mulx of a Montgomery kernel of
 * n chunks by rows; zmm vpmadd52 (8 lanes) of a radix-2^52 dual kernel
 * of k digits per half on the ymm halves; those the pair product and
 * squaring issue (bignum/radix52/dual_ifma.c: rows and reduction steps
 * through copies of G or G + 1 groups, the steps' groups that have left
 * the window left out; the squaring's triangle of rows and its 2G
 * squares). */
double bench_peak_mont_mulx(int n, int squaring);
double bench_peak_r52_vpmadd52(int k, int squaring);
double bench_peak_r52_pairs_vpmadd52(int k, int squaring);
/* The same for the kernel a table row names (bench_peak_count_fn):
 * "adx" and "kara16" multiply by Karatsuba at 16 chunks; "ifma" runs
 * the NASM kernels at 20 digits, the C intrinsics elsewhere, squaring by
 * the pair product at the sizes the library binds it on this CPU
 * (big_r52_mul_pairs_wanted; at 10 digits the NASM pair product, which
 * squares too); "amd" and "intel" are the NASM kernels; "pairs" the pair
 * product and squaring at every size (the NASM product at 10), "ymm" the
 * product and the dedicated squaring on the ymm halves; NULL the
 * algorithm's need. */
#define BENCH_R52_NASM20_MUL 435
#define BENCH_R52_NASM20_SQR 349
/* The 10-digit NASM pair product (asm/x86_64/r52_dual_mul10_ifma.asm),
 * which squares too: 64 for the rows, 52 for the reduction's steps. */
#define BENCH_R52_NASM10 116
double bench_peak_mont_kernel_mulx(const char *kernel, int n, int squaring);
double bench_peak_r52_kernel_vpmadd52(const char *kernel, int k, int squaring);
/* ymm vpmuludq of a lane kernel of k digits (all 8 lanes): what the
 * algorithm needs; and what the kernel a row names issues: "asm", and
 * "avx2" where the tuning binds the NASM kernels, square by one level of
 * Karatsuba at 37, 55 and 74 digits, 2(h(h+1) + l(l+1)/2 + k^2 + k)
 * with h = (k + 1)/2, l = k - h. */
double bench_peak_lanes_vpmuludq(int k, int squaring);
double bench_peak_lanes_kernel_vpmuludq(const char *kernel, int k, int squaring);
/* ymm vfmadd231pd of the FMA lane build's product and squaring of k
 * digits (all 8 lanes, bignum/lanes/lanes52_fma.c), as it issues them:
 * two a digit product (lo(q m_0) never formed), one a hi(q m_0), two a q
 * digit: 8k^2 + 2k and 6k^2 + 4k. */
double bench_peak_lanes52_fma(int k, int squaring);
/* zmm vpmadd52 of a radix-2^52 lane kernel of k digits: NULL the
 * algorithm's need, 4k^2 + k for the product and 3k^2 + 2k for the
 * squaring; "ifma" what the IFMA build issues, k fewer where it takes the
 * tiles, the window's early q or the NASM kernels at 20 digits
 * (BIG_LANES52_TILED, BIG_LANES52_EARLY_Q_DIGITS, bench_peak_lanes52_nasm20:
 * no lo(q m_0)), and in the window's squaring
 * 2k - 3 more (its doubled digits by madds with 2, as compiled: peak.c). */
double bench_peak_lanes52_kernel_vpmadd52(const char *kernel, int k, int squaring);
/* 1 where the IFMA lane build's squaring and product at k digits are the
 * NASM ones (k = 20 where LANES52_SQR20_ASM binds them:
 * bignum/lanes/lanes52.h). */
int bench_peak_lanes52_nasm20(int k);

/* bound cycles = multiplies / rate, and 100 * bound / cycles; NAN where
 * the rate or the cycles are not a measurement. */
double bench_peak_bound(double multiplies, double rate);
double bench_peak_pct(double bound, double cycles);

/* The report's peak lines. */
void bench_peak_print(FILE *out, const struct bench_peak *p);

/* The heading of a table against a peak: "<table> against the peak:
 * bound = the <multiply> a call needs / <rate> a cycle", or, where the
 * peak was not measured (why_not set), "... no bound (peak <peak> not
 * measured)".  1 if the table follows, 0 if not. */
int bench_peak_print_heading(FILE *out, const char *table, const char *peak_name,
			     const char *why_not, const char *multiply, double rate);

/* The multiplies a call of a kernel needs, by the kernel (a row's name;
 * NULL: the formula of the "bound" rows) and size (chunks or digits). */
typedef double bench_peak_count_fn(const char *kernel, int size, int squaring);

/* A kernel table against the peak (rows: cycles.h; a row is a squaring
 * if its op is "sqr"): a heading line, then "bound" rows for mul and sqr
 * in core cycles at `rate` (formula[0], formula[1] as their notes), then
 * each row's % of peak against its own kernel's count, a line under the
 * table for each count that is not the formula's, and a share above
 * 100 % marked '*' with a line saying it is a measurement error.  Rows
 * of n columns, sizes heads[0..n). */
void bench_peak_print_table(FILE *out, const char *first, const int *heads, int n,
			    const struct bench_kernel_row *rows, int nrows,
			    double ticks_per_cycle, double rate, bench_peak_count_fn *count,
			    const char *const formula[2]);

/* The JSON of the same: one object per row and column, { <name_key>: the
 * row's name (or `build`, the row's name then under "tuning"), "op",
 * <size_key>, "ticks", "cycles", <count_key>: the multiplies, "bound_cycles",
 * "above_peak": whether the share passed 100 % (a measurement error),
 * "pct_of_peak" }; count NULL: the row has no bound (all four null). */
struct bench_peak_json_table {
	const char *name_key, *size_key, *count_key, *build;
	const int *heads;
	int n;
	double rate;
	bench_peak_count_fn *count;
};
void bench_peak_json_rows(struct json_writer *w, const struct bench_peak_json_table *t,
			  const struct bench_kernel_row *rows, int nrows,
			  double ticks_per_cycle);

#endif
