/*
 * bench/threads.h -- T threads sharing one loaded key, run for the same
 * time: total operations per second.
 *
 * op(shared, out, in) is one private-key operation; it must be safe to
 * call from many threads on the same `shared` (our rsa_key is immutable
 * once loaded; OpenSSL is used with one EVP_PKEY and a context per
 * operation, as applications do).  Each thread has its own output buffer;
 * all read the same input.
 */
#ifndef BIGMONT_BENCH_THREADS_H
#define BIGMONT_BENCH_THREADS_H

#include <stddef.h>
#include <stdint.h>

typedef int (*bench_shared_op)(const void *shared, uint8_t *out,
			       const uint8_t *in);

struct bench_threads_result {
	double ops_per_s; /* sum over the threads of their ops / their time */
	long ops;
};

/* 0, or -1 if a thread could not start or an operation failed. */
int bench_threads_run(bench_shared_op op, const void *shared,
		      const uint8_t *in, size_t size, int nthreads,
		      double seconds, struct bench_threads_result *res);

#endif
