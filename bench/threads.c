/*
 * bench/threads.c -- windows of T threads and the thread table (method
 * and contract in threads.h).
 */
#include "threads.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"
#include "progress.h"

enum phase { WAITING, STARTED, COUNTING, COUNTED, STOPPING };

/* What every thread of a window reads; written only by the main thread
 * to move the phase, or by a thread whose operation failed. */
struct window {
	const struct bench_thread_job *job;
	bench_lock_reader *read_locks;
	atomic_int phase, failed, wrong;
};

/* A thread's operations and CPU time when it first saw a phase. */
struct snapshot {
	long ops;
	double cpu;
};

/* One thread's, alone on its cache lines: `done` (operations completed)
 * and `seen` (the last phase it took a snapshot in) are written by its
 * thread only and read by the main thread. */
struct slot {
	_Alignas(64) atomic_long done;
	atomic_int seen;
	struct snapshot at[STOPPING];
	struct window *w;
	pthread_t tid;
	struct bench_lock_counts locks;
};

static double thread_cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *thread_main(void *arg)
{
	struct slot *s = arg;
	struct window *w = s->w;
	const struct bench_thread_job *job = w->job;
	uint8_t *in = malloc(2 * job->size), *out = in + job->size;
	struct bench_lock_counts before = { 0 }, after = { 0 };
	if (in != NULL)
		memcpy(in, job->in, job->size);
	if (w->read_locks != NULL)
		w->read_locks(&before);
	while (atomic_load(&w->phase) == WAITING)
		sched_yield();
	if (in == NULL) {
		atomic_store(&w->failed, 1);
		return NULL;
	}
	long n = 0;
	for (int seen = STARTED;;) {
		int phase = atomic_load_explicit(&w->phase, memory_order_acquire);
		if (phase == STOPPING)
			break;
		if (phase != seen) {
			/* The first completion after each instant: the operations
			 * between two snapshots are those completed between the
			 * instants, and the CPU time between them is theirs. */
			s->at[phase] = (struct snapshot){ n, thread_cpu_seconds() };
			if (seen == STARTED && phase == COUNTED)
				s->at[COUNTING] = s->at[COUNTED]; /* none in the window */
			seen = phase;
			atomic_store_explicit(&s->seen, seen, memory_order_release);
		}
		if (job->op(job->shared, out, in) != 0) {
			atomic_store(&w->failed, 1);
			break;
		}
		/* Some hundred bytes against an RSA operation: every answer is
		 * checked, not a sample. */
		if (memcmp(out, job->want, job->want_len) != 0) {
			atomic_store(&w->wrong, 1);
			atomic_store(&w->failed, 1);
			break;
		}
		memset(out, 0, job->want_len);
		atomic_store_explicit(&s->done, ++n, memory_order_relaxed);
	}
	if (w->read_locks != NULL) {
		w->read_locks(&after);
		bench_lock_counts_add(&s->locks, &before, &after);
	}
	free(in);
	return NULL;
}

static void sleep_ns(double ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1e9) };
	ts.tv_nsec = (long)(ns - (double)ts.tv_sec * 1e9);
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Operations completed by all threads; whether every thread has reached
 * the phase `at_least` (seen) or completed one (done). */
static long total_done(struct slot *s, int n, int at_least, int *all)
{
	long sum = 0;
	*all = 1;
	for (int i = 0; i < n; i++) {
		long d = atomic_load_explicit(&s[i].done, memory_order_relaxed);
		*all &= at_least ? atomic_load_explicit(&s[i].seen, memory_order_acquire) >= at_least
				 : d > 0;
		sum += d;
	}
	return sum;
}

/* Poll until `all` (see total_done) or a failure. */
static void wait_for_all(struct window *w, struct slot *s, int n, int at_least)
{
	int all = 0;
	while (!atomic_load(&w->failed) && (total_done(s, n, at_least, &all), !all))
		sleep_ns(1e6);
}

/* Once every thread has completed an operation: the operations completed
 * in at least `seconds` and until there are at least min_ops of them (a
 * window the scheduler starved is lengthened, not believed). */
static void count_window(struct window *w, struct slot *s, int n, double seconds,
			 long min_ops, struct bench_window *res)
{
	int all;
	wait_for_all(w, s, n, 0);
	if (atomic_load(&w->failed))
		return;
	uint64_t t0 = bench_now_ns();
	long d0 = total_done(s, n, 0, &all);
	atomic_store_explicit(&w->phase, COUNTING, memory_order_release);
	sleep_ns(seconds * 1e9);
	while (total_done(s, n, 0, &all) - d0 < min_ops && !atomic_load(&w->failed))
		sleep_ns(1e6);
	uint64_t t1 = bench_now_ns();
	atomic_store_explicit(&w->phase, COUNTED, memory_order_release);
	wait_for_all(w, s, n, COUNTED);
	res->wall_seconds = 1e-9 * (double)(t1 - t0);
	for (int i = 0; i < n; i++) {
		res->ops += s[i].at[COUNTED].ops - s[i].at[COUNTING].ops;
		res->cpu_seconds += s[i].at[COUNTED].cpu - s[i].at[COUNTING].cpu;
	}
	res->ops_per_s = (double)res->ops / res->wall_seconds;
}

int bench_threads_window(const struct bench_thread_job *job, int nthreads,
			 double seconds, bench_lock_reader *read_locks,
			 struct bench_window *res, enum bench_window_fault *fault)
{
	memset(res, 0, sizeof(*res));
	*fault = BENCH_WINDOW_FAILED;
	if (nthreads < 1)
		return -1;
	struct window w = { .job = job, .read_locks = read_locks };
	atomic_init(&w.phase, WAITING);
	atomic_init(&w.failed, 0);
	atomic_init(&w.wrong, 0);
	struct slot *s = aligned_alloc(_Alignof(struct slot), nthreads * sizeof(*s));
	if (s == NULL)
		return -1;
	memset(s, 0, nthreads * sizeof(*s));
	int started = 0, start_error = 0;
	for (; started < nthreads; started++) {
		s[started].w = &w;
		atomic_init(&s[started].done, 0);
		atomic_init(&s[started].seen, STARTED);
		start_error = pthread_create(&s[started].tid, NULL, thread_main, &s[started]);
		if (start_error != 0)
			break;
	}
	if (started < nthreads) {
		atomic_store(&w.failed, 1);
	} else {
		atomic_store(&w.phase, STARTED);
		count_window(&w, s, nthreads, seconds, (long)BENCH_THREAD_MIN_OPS * nthreads, res);
	}
	atomic_store(&w.phase, STOPPING);
	for (int i = 0; i < started; i++) {
		pthread_join(s[i].tid, NULL);
		res->all_ops += atomic_load(&s[i].done);
		bench_lock_counts_sum(&res->locks, &s[i].locks);
	}
	free(s);
	res->started = started;
	res->start_error = start_error;
	if (!atomic_load(&w.failed)) {
		*fault = BENCH_WINDOW_OK;
		return 0;
	}
	*fault = started < nthreads	 ? BENCH_WINDOW_NO_THREAD
		 : atomic_load(&w.wrong) ? BENCH_WINDOW_WRONG
					 : BENCH_WINDOW_FAILED;
	return -1;
}

/* ---- the table ---------------------------------------------------------- */

int bench_threads_list(int list[BENCH_THREAD_MAX_T], const struct bench_thread_plan *p)
{
	int nt = 0;
	list[nt++] = 1;
	for (int i = 0; i < p->nthreads && nt < BENCH_THREAD_MAX_T; i++) {
		int seen = 0;
		for (int j = 0; j < nt; j++)
			seen |= list[j] == p->threads[i];
		if (!seen)
			list[nt++] = p->threads[i];
	}
	return nt;
}

/* Long enough for BENCH_THREAD_MIN_OPS calls of each thread when T
 * threads share `cores` CPUs, at the single-thread time per call. */
static double window_seconds(const struct bench_thread_plan *p, double call_ns, int t)
{
	double share = t > p->cores ? (double)t / p->cores : 1.0;
	double least = BENCH_THREAD_MIN_OPS * call_ns * 1e-9 * share;
	double asked = p->seconds / BENCH_THREAD_ROUNDS;
	return isfinite(least) && least > asked ? least : asked;
}

void bench_threads_judge_efficiency(struct bench_record *r)
{
	if (r->efficiency_min > 1.0) {
		snprintf(r->note, sizeof(r->note), "efficiency above 100 %% in every round "
			 "(%.0f-%.0f %%): a measurement error, not reported",
			 100 * r->efficiency_min, 100 * r->efficiency_max);
		r->efficiency = NAN;
	} else if (r->efficiency > 1.0) {
		snprintf(r->note, sizeof(r->note), "efficiency above 100 %% (rounds "
			 "%.0f-%.0f %%): the 1-thread row was disturbed (slowed); "
			 "rerun on a quiet machine", 100 * r->efficiency_min,
			 100 * r->efficiency_max);
	}
}

void bench_threads_record(struct bench_record *r, const struct bench_thread_series *s,
			  int ti, int t, const struct bench_thread_plan *p)
{
	double rate[BENCH_THREAD_ROUNDS], eff[BENCH_THREAD_ROUNDS], one[BENCH_THREAD_ROUNDS];
	double share[BENCH_THREAD_ROUNDS];
	int ideal = t < p->cores ? t : p->cores;
	for (int k = 0; k < BENCH_THREAD_ROUNDS; k++) {
		rate[k] = s->rate[ti][k];
		one[k] = s->one_cpu[k];
		share[k] = s->share[ti][k];
		eff[k] = s->rate[ti][k] / (ideal * s->one_cpu[k]);
	}
	r->st.samples = BENCH_THREAD_ROUNDS;
	r->st.ops = s->ops[ti];
	r->st.ops_per_s = bench_median(rate, BENCH_THREAD_ROUNDS);
	/* Wall time per operation at that throughput. */
	r->st.median_ns = 1e9 / r->st.ops_per_s;
	r->st.min_ns = 1e9 / rate[BENCH_THREAD_ROUNDS - 1];
	r->st.max_ns = 1e9 / rate[0];
	r->st.cycles_per_op = NAN;
	r->single_ops_per_s = bench_median(one, BENCH_THREAD_ROUNDS);
	r->cpu_share = bench_median(share, BENCH_THREAD_ROUNDS);
	r->efficiency = bench_median(eff, BENCH_THREAD_ROUNDS);
	r->efficiency_min = eff[0];
	r->efficiency_max = eff[BENCH_THREAD_ROUNDS - 1];
	bench_threads_judge_efficiency(r);
	r->locks_per_op = bench_locks_per_op(&s->locks[ti], s->all_ops[ti]);
	r->once_per_op = bench_once_per_op(&s->locks[ti], s->all_ops[ti]);
}

/* Far more threads than cores: a window starts once every thread has
 * completed an operation and ends once each has seen its end, and with
 * hundreds of threads a core the scheduler takes seconds to reach them all
 * (about 2 s at each end of a window for 200 threads on 2 cores, model
 * 207), so the table runs far past --seconds.  Said before it starts, so
 * the run does not seem to hang. */
#define BENCH_THREAD_WARN_PER_CORE 16

static void warn_crowded_cores(const int *list, int nt, const struct bench_thread_plan *p,
			       int bits)
{
	int most = 1;
	for (int ti = 0; ti < nt; ti++)
		most = list[ti] > most ? list[ti] : most;
	if (most <= BENCH_THREAD_WARN_PER_CORE * p->cores)
		return;
	fprintf(stderr, "bigmont speed: RSA-%d: %d threads on %d core%s: each thread window "
		"waits for every thread to be scheduled at its start and its end, so the thread "
		"table takes much longer than --seconds\n", bits, most, p->cores,
		p->cores == 1 ? "" : "s");
}

int bench_threads_measure(struct bench_thread_series *who, int nwho, const int *list, int nt,
			  const struct bench_thread_plan *p, int bits, const char *label,
			  char *err, size_t errlen)
{
	warn_crowded_cores(list, nt, p, bits);
	for (int round = 0; round < BENCH_THREAD_ROUNDS; round++)
		for (int step = 0; step < nt; step++) {
			int ti = round % 2 ? nt - 1 - step : step;
			if (step == 0)
				bench_progress(p->progress, "RSA-%d: threads, round %d of %d",
					       bits, round + 1, BENCH_THREAD_ROUNDS);
			for (int w = 0; w < nwho; w++) {
				struct bench_thread_series *s = &who[w];
				struct bench_window res;
				enum bench_window_fault fault;
				if (s->before != NULL)
					s->before(s->job.shared);
				int failed = bench_threads_window(&s->job, list[ti],
								  window_seconds(p, s->call_ns, list[ti]),
								  p->read_locks, &res, &fault);
				if (s->after != NULL)
					s->after(s->job.shared);
				if (failed && fault == BENCH_WINDOW_NO_THREAD) {
					snprintf(err, errlen, "%s with %d threads: could not start "
						 "thread %d of %d (%s); no numbers reported",
						 s->name, list[ti], res.started + 1, list[ti],
						 strerror(res.start_error));
					return -1;
				}
				if (failed) {
					snprintf(err, errlen, "%s with %d threads %s on the key %s; "
						 "no numbers reported", s->name, list[ti],
						 fault == BENCH_WINDOW_WRONG
							 ? "gave a wrong answer (not GMP's)"
							 : "failed",
						 label);
					return -1;
				}
				/* Calls counted, operations reported. */
				const long ops = res.ops * s->ops_per_call;
				int ideal = list[ti] < p->cores ? list[ti] : p->cores;
				s->rate[ti][round] = (double)ops / res.wall_seconds;
				s->share[ti][round] = res.cpu_seconds / (res.wall_seconds * ideal);
				if (ti == 0)
					s->one_cpu[round] = (double)ops / res.cpu_seconds;
				s->ops[ti] += ops;
				s->all_ops[ti] += res.all_ops * s->ops_per_call;
				bench_lock_counts_sum(&s->locks[ti], &res.locks);
			}
		}
	return 0;
}

int bench_threads_key(struct bench_records *rs, const struct bench_lineup *l,
		      const struct bench_key *k, const struct bench_thread_plan *p,
		      char *err, size_t errlen)
{
	int list[BENCH_THREAD_MAX_T];
	const int nt = bench_threads_list(list, p);
	if (nt == 1)
		return 0;
	struct bench_thread_series *who = calloc(BENCH_MAX_IMPLS, sizeof(*who));
	const struct bench_impl *im[BENCH_MAX_IMPLS];
	int nwho = 0, rc = -1;
	if (who == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < l->n; i++)
		if (l->impl[i].in_thread_table && l->impl[i].ops->decrypt_shared != NULL) {
			const struct bench_impl *x = &l->impl[i];
			im[nwho] = x;
			who[nwho++] = (struct bench_thread_series){
				.name = x->name,
				.job = { .op = x->ops->decrypt_shared, .shared = x->h, .in = k->in,
					 .size = k->size, .want = k->want, .want_len = k->size },
				.ops_per_call = 1, .call_ns = x->st.median_ns };
		}
	if (bench_threads_measure(who, nwho, list, nt, p, k->bits, k->label, err, errlen) != 0)
		goto out;
	for (int w = 0; w < nwho; w++)
		for (int ti = 1; ti < nt; ti++) {
			struct bench_record *r = bench_records_add(rs, im[w]->name, k, list[ti]);
			if (r == NULL) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			bench_threads_record(r, &who[w], ti, list[ti], p);
			r->blinding = im[w]->blinding;
			r->fault_check = im[w]->fault_check;
		}
	rc = 0;
out:
	free(who);
	return rc;
}
