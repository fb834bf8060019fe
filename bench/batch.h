/*
 * bench/batch.h -- `bigmont speed --batch`: batched private-key operations
 * (rsa_private_batch: eight operations a call, four in the vector lanes
 * of each exponentiation) beside our single operation and OpenSSL's, per key.
 *
 * For each key: every implementation's answers on BENCH_BATCH_OPS random
 * inputs are checked against GMP's before anything is timed (a wrong one
 * fails the run); then rounds, interleaved, each timing calls of
 * BENCH_BATCH_OPS operations of each implementation in turn, as many
 * calls as last BENCH_BATCH_MIN_SPAN_NS (ours single through
 * rsa_private_raw, the batch with the IFMA and the AVX2 builds where the
 * CPU has them and with the portable C build, OpenSSL's
 * RSA_private_decrypt, ipp-crypto's mb8 where it is there), until the
 * time asked and at least BENCH_BATCH_MIN_ROUNDS rounds.  Blinding is off
 * on every side, the fault check on in ours (single and batch alike).
 * Printed: the median and minimum wall-clock ns per operation over the
 * rounds, and the median and minimum of this thread's CPU time per
 * operation (CLOCK_THREAD_CPUTIME_ID: on a shared, loaded machine the
 * time slices other processes take are not counted); operations per
 * second per core and the ratios to our single operation and to
 * OpenSSL's are of the CPU-time medians, all from the same run.
 *
 * With thread counts above 1: our single operation and the batch (the
 * lanes the library takes: IFMA, else AVX2, else C) in T threads sharing the
 * key (its rsa_key and the key array only read; each thread's inputs,
 * outputs, statuses and batch scratch its own), by threads.h's windows
 * and rounds, T = 1 included: operations per second in all and per core
 * of min(T, cores), the amortised ns per operation on a core, the
 * efficiency against min(T, cores) x one thread, and single/batch at the
 * same T.  The threads' buffers are checked against GMP's answers first.
 */
#ifndef BIGMONT_BENCH_BATCH_H
#define BIGMONT_BENCH_BATCH_H

#include <stddef.h>
#include <stdio.h>

#include "speed.h"

#define BENCH_BATCH_OPS 8
#define BENCH_BATCH_MIN_ROUNDS 5
/* The least a row's timed span in a round lasts, in ns: a lone call of an
 * AVX-512 batch is slower than one among others (one 8-operation call a
 * round read about 14 % above the thread table's steady state at
 * RSA-1024 on Intel family 6 model 207, ten calls level with it), and
 * a server running batches runs them back to back. */
#define BENCH_BATCH_MIN_SPAN_NS 1e6

struct bench_batch_options {
	const struct bench_speed_key *keys;
	int nkeys;
	double seconds;   /* of rounds per key; of windows per row and T */
	const int *threads; /* the thread table's T values; none > 1: no table */
	int nthreads;
	const char *build; /* NULL: from the configuration */
	FILE *out;        /* the report */
	FILE *json;       /* the JSON document, or NULL */
};

/* 0, or 1 with the reason in err (a key that does not load, a wrong
 * answer, a failed operation, a write error). */
int bench_batch_run(const struct bench_batch_options *o, char *err, size_t errlen);

#endif
