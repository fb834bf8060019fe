/*
 * bench/measure.h -- the timing loop: clocks, batches, interleaving, stats.
 *
 * A runner is one implementation under test (ours, GMP, OpenSSL, ...),
 * reduced to "do `iters` private-key operations and say how long they
 * took".  bench_measure() warms every runner up, sizes each runner's batch
 * so that one batch lasts about `seconds / BENCH_TARGET_SAMPLES`, then runs
 * batches round-robin (A B C A B C ...) until every runner has spent
 * `seconds` in batches.  Because the runners alternate at a fine grain, a
 * drift of the machine's speed (frequency, a neighbour's load) hits them
 * all alike, and their ratios hold.
 *
 * Each batch gives one sample, ns/op = batch ns / iters; the stats are
 * median, min and max of the samples.  Cycles are TSC ticks (rdtsc, the
 * reference clock, not the core clock) where the CPU has one, else NaN.
 */
#ifndef BIGMONT_BENCH_MEASURE_H
#define BIGMONT_BENCH_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_TARGET_SAMPLES 15
#define BENCH_MIN_SAMPLES 5

/* Monotonic nanoseconds. */
uint64_t bench_now_ns(void);
/* TSC ticks; bench_have_tsc() says whether they mean anything here. */
uint64_t bench_tsc(void);
int bench_have_tsc(void);

struct bench_batch {
	uint64_t ns;     /* wall time of the batch */
	uint64_t cycles; /* TSC ticks of the batch, 0 when unknown */
};

/* Time `iters` calls of op(ctx) in this process; stops at the first
 * failing call (returns its nonzero status). */
int bench_time_ops(int (*op)(void *ctx), void *ctx, long iters,
		   struct bench_batch *out);

struct bench_stats {
	double median_ns, min_ns, max_ns; /* per operation */
	double ops_per_s;                 /* 1e9 / median_ns */
	double cycles_per_op;             /* median, NaN without a TSC */
	int samples;
	long ops;                         /* operations timed in all */
};

struct bench_runner {
	const char *name; /* for messages */
	/* Run `iters` operations, fill *out; 0 or nonzero on failure. */
	int (*batch)(void *ctx, long iters, struct bench_batch *out);
	void *ctx;
	/* Filled by bench_measure. */
	struct bench_stats stats;
	int failed;
};

/* Measure every runner, interleaved; 0, or -1 if a runner failed (its
 * `failed` is set; the others are still valid). */
int bench_measure(struct bench_runner *runners, int n, double seconds);

/* The median of v (sorted in place); NaN for n == 0. */
double bench_median(double *v, int n);

/* Stats of ns-per-op samples (sorted in place) and matching cycles. */
void bench_stats_of(struct bench_stats *st, double *ns, double *cyc, int n,
		    long ops);

#endif
