/*
 * bench/measure.c -- warm-up, batch sizing and the interleaved timing loop
 * (contract in measure.h).
 */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

uint64_t bench_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bench_tsc(void)
{
#if HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

int bench_have_tsc(void) { return HAVE_TSC; }

int bench_time_ops(int (*op)(void *ctx), void *ctx, long iters,
		   struct bench_batch *out)
{
	uint64_t c0 = bench_tsc();
	uint64_t t0 = bench_now_ns();
	for (long i = 0; i < iters; i++) {
		int rc = op(ctx);
		if (rc != 0)
			return rc;
	}
	uint64_t t1 = bench_now_ns();
	uint64_t c1 = bench_tsc();
	out->ns = t1 - t0;
	out->cycles = c1 - c0;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_sorted(const double *v, int n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double bench_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, n, sizeof(double), cmp_double);
	return median_sorted(v, n);
}

void bench_stats_of(struct bench_stats *st, double *ns, double *cyc, int n,
		    long ops)
{
	memset(st, 0, sizeof(*st));
	st->samples = n;
	st->ops = ops;
	if (n == 0) {
		st->median_ns = st->min_ns = st->max_ns = NAN;
		st->ops_per_s = st->cycles_per_op = NAN;
		return;
	}
	st->median_ns = bench_median(ns, n);
	st->min_ns = ns[0];
	st->max_ns = ns[n - 1];
	st->ops_per_s = 1e9 / st->median_ns;
	if (cyc != NULL && HAVE_TSC) {
		st->cycles_per_op = bench_median(cyc, n);
	} else {
		st->cycles_per_op = NAN;
	}
}

/* Per-runner bookkeeping while measuring. */
struct track {
	long iters;      /* batch size */
	double spent_ns; /* time in timed batches */
	long ops;
	int n, cap;
	double *ns, *cyc;
	int no_cycles;   /* a batch came without ticks (a child with no TSC
			  * reading): no cycles reported rather than 0 */
};

static int push_sample(struct track *t, const struct bench_batch *b)
{
	if (t->n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 64;
		double *ns = realloc(t->ns, cap * sizeof(double));
		if (ns == NULL)
			return -1;
		t->ns = ns;
		double *cyc = realloc(t->cyc, cap * sizeof(double));
		if (cyc == NULL)
			return -1;
		t->cyc = cyc;
		t->cap = cap;
	}
	t->ns[t->n] = (double)b->ns / (double)t->iters;
	t->cyc[t->n] = (double)b->cycles / (double)t->iters;
	t->no_cycles |= b->cycles == 0;
	t->n++;
	t->spent_ns += (double)b->ns;
	t->ops += t->iters;
	return 0;
}

/*
 * Warm up for about `warm_ns` (caches, branch predictors, the CPU's clock
 * ramping up), doubling the batch, and return the batch size that lasts
 * about `batch_ns`.  -1 on failure.
 */
static long calibrate(struct bench_runner *r, double warm_ns, double batch_ns)
{
	long iters = 1;
	double spent = 0, per_op = 0;
	for (;;) {
		struct bench_batch b;
		if (r->batch(r->ctx, iters, &b) != 0)
			return -1;
		spent += (double)b.ns;
		per_op = (double)b.ns / (double)iters;
		if (spent >= warm_ns && (double)b.ns >= batch_ns / 4)
			break;
		if (spent >= 4 * warm_ns)
			break; /* a slow op: enough warming */
		if ((double)b.ns < batch_ns)
			iters *= 2;
	}
	if (per_op <= 0)
		per_op = 1;
	long want = (long)(batch_ns / per_op);
	return want < 1 ? 1 : want;
}

int bench_measure(struct bench_runner *runners, int n, double seconds)
{
	double total_ns = seconds * 1e9;
	double batch_ns = total_ns / BENCH_TARGET_SAMPLES;
	double warm_ns = total_ns / 5 < 50e6 ? total_ns / 5 : 50e6;
	struct track *tr = calloc(n, sizeof(*tr));
	if (tr == NULL)
		return -1;
	int status = 0;

	for (int i = 0; i < n; i++) {
		runners[i].failed = 0;
		tr[i].iters = calibrate(&runners[i], warm_ns, batch_ns);
		if (tr[i].iters < 0) {
			runners[i].failed = 1;
			status = -1;
		}
	}
	/* Round-robin until every runner has its time and its samples. */
	for (;;) {
		int busy = 0;
		for (int i = 0; i < n; i++) {
			struct track *t = &tr[i];
			if (runners[i].failed)
				continue;
			if (t->spent_ns >= total_ns && t->n >= BENCH_MIN_SAMPLES)
				continue;
			busy = 1;
			struct bench_batch b;
			if (runners[i].batch(runners[i].ctx, t->iters, &b) != 0 ||
			    push_sample(t, &b) != 0) {
				runners[i].failed = 1;
				status = -1;
			}
		}
		if (!busy)
			break;
	}
	for (int i = 0; i < n; i++) {
		double *cyc = tr[i].no_cycles ? NULL : tr[i].cyc;
		bench_stats_of(&runners[i].stats, tr[i].ns, cyc, tr[i].n, tr[i].ops);
		free(tr[i].ns);
		free(tr[i].cyc);
	}
	free(tr);
	return status;
}
