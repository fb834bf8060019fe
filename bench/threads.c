/*
 * bench/threads.c -- the thread-scaling run (contract in threads.h).
 *
 * The threads start together when the main thread raises `go` (a flag,
 * not a barrier, so a failed pthread_create cannot strand the others) and
 * stop when it raises `stop` after `seconds`; each thread times itself, so a thread
 * that started late is not charged for it.
 */
#include "threads.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "measure.h"

struct run_shared {
	bench_shared_op op;
	const void *shared;
	const uint8_t *in;
	size_t size;
	atomic_int go;
	atomic_int stop;
	atomic_int failed;
};

struct run_thread {
	pthread_t tid;
	struct run_shared *run;
	long ops;
	uint64_t ns;
};

static void *thread_main(void *arg)
{
	struct run_thread *t = arg;
	struct run_shared *r = t->run;
	uint8_t *out = malloc(r->size);
	while (!atomic_load(&r->go))
		sched_yield();
	if (out == NULL) {
		atomic_store(&r->failed, 1);
		return NULL;
	}
	uint64_t t0 = bench_now_ns();
	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		if (r->op(r->shared, out, r->in) != 0) {
			atomic_store(&r->failed, 1);
			break;
		}
		t->ops++;
	}
	t->ns = bench_now_ns() - t0;
	free(out);
	return NULL;
}

int bench_threads_run(bench_shared_op op, const void *shared,
		      const uint8_t *in, size_t size, int nthreads,
		      double seconds, struct bench_threads_result *res)
{
	res->ops_per_s = 0;
	res->ops = 0;
	if (nthreads < 1)
		return -1;
	struct run_shared r = { .op = op, .shared = shared, .in = in, .size = size };
	atomic_init(&r.stop, 0);
	atomic_init(&r.failed, 0);
	atomic_init(&r.go, 0);
	struct run_thread *th = calloc(nthreads, sizeof(*th));
	if (th == NULL)
		return -1;
	int started = 0;
	for (; started < nthreads; started++) {
		th[started].run = &r;
		if (pthread_create(&th[started].tid, NULL, thread_main, &th[started]) != 0)
			break;
	}
	if (started < nthreads) {
		atomic_store(&r.stop, 1);
		atomic_store(&r.failed, 1);
		atomic_store(&r.go, 1);
	} else {
		atomic_store(&r.go, 1);
		struct timespec ts;
		ts.tv_sec = (time_t)seconds;
		ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) != 0)
			;
		atomic_store(&r.stop, 1);
	}
	for (int i = 0; i < started; i++) {
		pthread_join(th[i].tid, NULL);
		if (th[i].ns > 0)
			res->ops_per_s += (double)th[i].ops * 1e9 / (double)th[i].ns;
		res->ops += th[i].ops;
	}
	free(th);
	return atomic_load(&r.failed) ? -1 : 0;
}
