/*
 * bench/threads.h -- the thread table of `bigmont speed`: T threads
 * sharing one opened key (ours: one rsa_key; OpenSSL: one EVP_PKEY and a
 * context per operation, as applications share a key), total operations
 * per second, and efficiency against min(T, cores) x one thread.
 *
 * Method.  A window starts T threads, each with its own buffers and its
 * own counter of completed operations (on its own cache line; no lock, no
 * shared write while timing), waits until every thread has completed one
 * operation, then counts the operations completed between two instants
 * `window` apart.  An operation in flight at either instant is counted at
 * the end it completes, which is as likely at one instant as at the
 * other, so the count is unbiased however many threads share a core; a
 * thread that starts late is not credited with a time it did not run.
 * A window lasts long enough for BENCH_THREAD_MIN_OPS operations of each
 * thread at the single-thread speed, and is lengthened until it holds
 * that many.
 *
 * The one-thread rate is operations per second of the thread's CPU time,
 * so that a core lent to another process while it ran does not lower it
 * (which would lift the efficiency of T threads, who compete for cores as
 * T processes would, above 100 %); on an idle machine it is the rate per
 * wall second.  The T-thread rate is per wall second, and the share of
 * min(T, cores) cores the process had in the window is reported beside
 * it: below 100 % the machine was busy or the threads waited (a lock).
 * One-thread and T-thread windows of every implementation are interleaved
 * in BENCH_THREAD_ROUNDS rounds (T ascending, then descending), and each
 * round's efficiency compares its T-thread window with its own one-thread
 * window, so a drift of the machine's speed hits both alike; the median
 * over rounds is reported with the lowest and highest round.
 */
#ifndef BIGMONT_BENCH_THREADS_H
#define BIGMONT_BENCH_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "key.h"
#include "lineup.h"
#include "lock_count.h"
#include "records.h"

#define BENCH_THREAD_ROUNDS 3
#define BENCH_THREAD_MIN_OPS 10

typedef int bench_shared_op(const void *shared, uint8_t *out, const uint8_t *in);

struct bench_window {
	double ops_per_s;               /* completed between the two instants */
	long ops;                       /* of those */
	double wall_seconds;            /* between the two instants */
	double cpu_seconds;             /* the process's CPU time between them */
	struct bench_lock_counts locks; /* taken by every operation of the window */
	long all_ops;                   /* every operation, warm-up included */
	int started;                    /* threads started (NO_THREAD: fewer than asked) */
	int start_error;                /* pthread_create's error where one failed */
};

/* What a window's threads run: op(shared, out, in) on their own copies
 * of in (size bytes); out is the thread's own size bytes too, so an op may
 * keep its scratch in what it does not write as output (bench/batch.c:
 * statuses and the batch's scratch).  Every call's first want_len bytes
 * of out are compared with want, GMP's answer. */
struct bench_thread_job {
	bench_shared_op *op;
	const void *shared;
	const uint8_t *in;
	size_t size;
	const uint8_t *want;
	size_t want_len;
};

/* Why a window failed. */
enum bench_window_fault {
	BENCH_WINDOW_OK,
	BENCH_WINDOW_FAILED,
	BENCH_WINDOW_WRONG,
	BENCH_WINDOW_NO_THREAD
};

/* One window: `nthreads` threads run the job for `seconds` after all have
 * started.  0, or -1 with the reason in *fault (an operation failed:
 * FAILED; an answer was not want: WRONG; a thread could not be started:
 * NO_THREAD, with res->started and res->start_error). */
int bench_threads_window(const struct bench_thread_job *job, int nthreads,
			 double seconds, bench_lock_reader *read_locks,
			 struct bench_window *res, enum bench_window_fault *fault);

struct bench_thread_plan {
	const int *threads; /* the T values asked for; 1 is the baseline */
	int nthreads;
	double seconds;     /* per implementation and T, over all rounds */
	int cores;          /* CPUs this process may run on */
	bench_lock_reader *read_locks; /* NULL: locks not counted */
	FILE *progress;     /* a progress line per round (progress.h), or NULL */
};

#define BENCH_THREAD_MAX_T 33 /* the baseline and up to 32 values asked for */

/* The T values a plan measures, the baseline 1 first and each once; how
 * many (at most BENCH_THREAD_MAX_T). */
int bench_threads_list(int list[BENCH_THREAD_MAX_T], const struct bench_thread_plan *p);

/* What the thread windows run, and what they measured: one per
 * implementation, all interleaved in the same rounds. */
struct bench_thread_series {
	const char *name;  /* for an error */
	struct bench_thread_job job;
	int ops_per_call;  /* operations one call of op completes (counted) */
	double call_ns;    /* one thread's time per call, sizes the windows */
	/* Optional: called by the main thread before and after each of this
	 * series' windows, when none of the window's threads runs (the batch
	 * rows choose their lane build in the environment there). */
	void (*before)(const void *shared);
	void (*after)(const void *shared);
	/* Per T of the list and round: */
	double rate[BENCH_THREAD_MAX_T][BENCH_THREAD_ROUNDS];  /* ops per wall s */
	double share[BENCH_THREAD_MAX_T][BENCH_THREAD_ROUNDS]; /* of min(T, cores) */
	double one_cpu[BENCH_THREAD_ROUNDS]; /* T = 1: ops per second of CPU time */
	long ops[BENCH_THREAD_MAX_T];
	struct bench_lock_counts locks[BENCH_THREAD_MAX_T];
	long all_ops[BENCH_THREAD_MAX_T];
};

/* The rounds of windows (the method above) of every series at every T
 * of list[0..nt), list[0] = 1; progress lines name RSA-bits.  0, or -1
 * with the reason in err (`label`: the key's). */
int bench_threads_measure(struct bench_thread_series *s, int ns, const int *list, int nt,
			  const struct bench_thread_plan *p, int bits, const char *label,
			  char *err, size_t errlen);

/* Series s's result at list[ti] = t threads into r: ops/s median and
 * spread, efficiency (judged), the one-thread rate, CPU share, locks.
 * Blinding and fault check are left to the caller. */
void bench_threads_record(struct bench_record *r, const struct bench_thread_series *s,
			  int ti, int t, const struct bench_thread_plan *p);

/* The verdict on a thread record's efficiency, from its median and its
 * lowest and highest round (r->efficiency, _min, _max): above 100 % in
 * every round it is a measurement error, withheld (NAN) with a note; a
 * median above 100 % (some round's one-thread window was slowed, by
 * another process or a frequency change, which lifts that round's
 * efficiency) is kept, with a note that the one-thread windows were
 * disturbed and the run should be repeated.  Otherwise the note is left
 * as it is. */
void bench_threads_judge_efficiency(struct bench_record *r);

/* The thread table of one timed lineup (its single-thread stats size the
 * windows): one record per implementation and T > 1.  Nothing when no T
 * > 1 is asked for.  0, or -1 with the reason in err. */
int bench_threads_key(struct bench_records *rs, const struct bench_lineup *l,
		      const struct bench_key *k, const struct bench_thread_plan *p,
		      char *err, size_t errlen);

#endif
