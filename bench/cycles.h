/*
 * bench/cycles.h -- the clock of the kernel tables (`bigmont speed
 * --kernels`): rdtsc fenced by lfence on both sides (so a reading neither
 * starts early nor waits for nothing), the best of many samples, and one
 * calibration of TSC ticks per core cycle for every table.
 *
 * rdtsc ticks at the TSC rate, not the core clock (they differ under boost
 * or when the other core is busy).  A chain of 4096 dependent adds takes
 * 4096 core cycles; its best time in ticks, over samples taken all through
 * the run, gives the ticks of one cycle at the highest clock the run saw,
 * the clock the kernels' best samples ran at too.
 *
 * x86-64 only; elsewhere (aarch64) the ticks are nanoseconds of the clock
 * (which the vDSO reads from the generic timer, cntvct_el0, itself not a
 * core clock): the tables print them as "ns" and no core-cycle rows.
 */
#ifndef BIGMONT_BENCH_CYCLES_H
#define BIGMONT_BENCH_CYCLES_H

#include <stdint.h>
#include <stdio.h>

#if defined(__x86_64__)
#define BENCH_HAVE_CORE_CYCLES 1
#define BENCH_TICKS_UNIT "ticks"      /* a table row's unit */
#define BENCH_TICKS_NAME "rdtsc ticks" /* in a table's title */
#include <x86intrin.h>
static inline uint64_t bench_ticks(void)
{
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}
#else
#define BENCH_HAVE_CORE_CYCLES 0
#define BENCH_TICKS_UNIT "ns"
#define BENCH_TICKS_NAME "ns"
#include "measure.h"
static inline uint64_t bench_ticks(void) { return bench_now_ns(); }
#endif

/* The calibration: the best chain of dependent adds seen so far. */
struct bench_cycle_clock {
	uint64_t best_ticks; /* 0: no sample yet */
	int samples;
};

/* Time one chain and keep it if it is the best; call it between the
 * kernels' samples, all through the run. */
void bench_cycle_clock_sample(struct bench_cycle_clock *c);
/* TSC ticks per core cycle (1 without a TSC or a sample). */
double bench_ticks_per_cycle(const struct bench_cycle_clock *c);

/* The lowest of `trials` values of sample(ctx), each the ticks of one run
 * of calls; the clock is sampled every 16 trials. */
uint64_t bench_best_ticks(uint64_t (*sample)(void *ctx), void *ctx, int trials,
			  struct bench_cycle_clock *clock);

/* best[i] for each of `sides` sides: the lowest of `trials` values of
 * sample(ctx), each taken after side(ctx, i) made side i current; the
 * sides take turns trial by trial, so that a change in the machine's speed
 * during the measurement reaches them alike.  The clock is sampled every
 * 16 trials. */
void bench_best_ticks_alternating(uint64_t *best, int sides, void (*side)(void *ctx, int i),
				  uint64_t (*sample)(void *ctx), void *ctx, int trials,
				  struct bench_cycle_clock *clock);

/* One table row: for each column i < n, setup(ctx, i) makes its operands,
 * then ticks[i] = bench_best_ticks(sample, ctx, trials, clock) / calls
 * (calls: the calls one sample makes). */
void bench_best_ticks_each(double *ticks, int n, void (*setup)(void *ctx, int i),
			   uint64_t (*sample)(void *ctx), void *ctx, int trials,
			   int calls, struct bench_cycle_clock *clock);

/* The numbers of one table row after its label: each ticks[i] / scale as
 * %8.0f, then the unit and a newline. */
void bench_print_ticks(FILE *out, const double *ticks, int n, double scale,
		       const char *unit);

/* A row of a per-call kernel table (mont_kernels.h, r52_kernels.h): its
 * labels, the build or variant and the operation ("adx", "mul"; op NULL:
 * the name fills both label columns), and the ticks per call by column. */
#define BENCH_KERNEL_COLUMNS 5 /* the widest table's */
struct bench_kernel_row {
	const char *name, *op;
	double ticks[BENCH_KERNEL_COLUMNS];
};
/* A kernel table's heading line: the label columns' headings first and
 * "op", heads[0..n) as %8d, then "   (note)". */
void bench_print_kernel_head(FILE *out, const char *first, const int *heads, int n,
			     const char *note);
/* rows[0..nrows) of n columns: the labels, then bench_print_ticks. */
void bench_print_kernel_rows(FILE *out, const struct bench_kernel_row *rows, int nrows,
			     int n, double scale, const char *unit);
/* The mul and sqr rows of each build, two at a time: both in ticks, then
 * both in core cycles at ticks_per_cycle. */
void bench_print_kernel_pairs(FILE *out, const struct bench_kernel_row *rows, int nrows,
			      int n, double ticks_per_cycle);

/* splitmix64: the tables' operands, the same in every run. */
uint64_t bench_splitmix64(uint64_t *state);

/*
 * Trials of a --kernels table (the best of them is its figure), for a
 * table that takes the best of n at --seconds 1: round(n * scale), scale
 * being --seconds, so that the default gives the full tables and a small
 * --seconds a quick look (tests/bench_smoke.py); then a tenth of that in a
 * sanitizer build, whose figures time the instrumentation, not the
 * kernels, and where the tables only have to be complete; and never fewer
 * than BENCH_KERNEL_MIN_TRIALS, so that every figure is still a best of
 * several.  Each table keeps the count it ran and prints it ("best of
 * N"), in the JSON too.  The peak (BENCH_PEAK_TRIALS) keeps its trials:
 * its bounds are checked.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BENCH_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BENCH_SANITIZED 1
#endif
#define BENCH_KERNEL_MIN_TRIALS 3
int bench_kernel_trials(int n, double scale);

#endif
