/*
 * bench/speed.h -- the benchmark behind `bigmont speed`, as a library:
 * options in, exit status out.  The command (cli/speed.c) parses the
 * options, reads the key files, says where the report and the JSON go and
 * prints the error; this library measures and reports.
 *
 * For each key: every key is loaded by OpenSSL, GMP and ours before
 * anything is printed; then the implementations are opened (lineup.h),
 * their answers checked against GMP's (verify.h), timed interleaved with
 * their locks counted (timing.h), checked again, recorded (records.h),
 * run in threads sharing the key (threads.h), and the key's tables
 * printed (report.h).  The JSON document is written last, only when every
 * key succeeded.
 */
#ifndef BIGMONT_BENCH_SPEED_H
#define BIGMONT_BENCH_SPEED_H

#include <stddef.h>
#include <stdio.h>

#include "lineup.h"     /* BENCH_COMPARE_GMP, BENCH_COMPARE_OPENSSL */
#include "lock_count.h" /* bench_lock_reader */

/* --seconds: at least this, at most that.  Every implementation also runs
 * a warm-up and at least BENCH_MIN_SAMPLES batches of at least one
 * operation, so a key whose operation is slow takes longer than asked. */
#define BENCH_SPEED_MIN_SECONDS 0.01
#define BENCH_SPEED_MAX_SECONDS 3600.0

struct bench_speed_key {
	const char *label; /* "embedded:rsa2048.pem" or the path */
	const char *pem;   /* the key file's bytes (PEM) */
	size_t len;
};

struct bench_speed_options {
	const struct bench_speed_key *keys;
	int nkeys;               /* 0: the kernel tables only */
	double seconds;          /* per implementation and key */
	const int *threads;      /* the thread table's T values; none > 1: no table */
	int nthreads;
	int compare;             /* BENCH_COMPARE_GMP | BENCH_COMPARE_OPENSSL, or 0 */
	const char *compare_text; /* as given, for the JSON */
	const char *build;       /* NULL: the name from the configuration */
	int kernels;             /* print the kernel tables (kernels.h) first */
	FILE *out;               /* the report */
	FILE *json;              /* the JSON document, or NULL */
	FILE *progress;          /* the progress line (progress.h), or NULL */
	bench_lock_reader *read_locks; /* NULL: locks are not counted */
};

/* 0, or 1 with the reason in err (one line, without a "bigmont:"
 * prefix): a key that does not load, a wrong answer, a failed
 * implementation, a write error on out or json, a build that cannot
 * time its kernels. */
int bench_speed_run(const struct bench_speed_options *o, char *err, size_t errlen);

/* The child process of the OpenSSL runs without IFMA: worker.c starts
 * "/proc/self/exe --worker" (bigmont-speed), which must route here.
 * Serves standard input and output; the exit status. */
int bench_speed_worker(void);

#endif
