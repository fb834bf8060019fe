/*
 * bench/report.h -- the results of `bigmont speed` (bench/records.h) as
 * the text tables printed for people and the JSON written for bench/run
 * (schema in bench/README.md).
 */
#ifndef BIGMONT_BENCH_REPORT_H
#define BIGMONT_BENCH_REPORT_H

#include <stdio.h>

#include "machine.h"
#include "records.h"

#define BENCH_SCHEMA "bigmont-speed/1"

struct bench_kernels; /* kernels.h */

struct bench_settings {
	double seconds;
	const int *threads;
	int nthreads;
	int cores;           /* CPUs this process may run on: efficiency's bound */
	int locks_counted;   /* 1 if locks per operation were counted */
	const char *compare; /* "gmp,openssl" as given */
	const char *const *claimed; /* implementations this run measures */
	int nclaimed;
	const struct bench_kernels *kernels; /* --kernels' tables; NULL: none */
};

/* The table of one key (records with that key and threads == 1), with
 * locks per operation, and the ours/other ratios. */
void bench_report_key(FILE *out, const struct bench_record *r, int n,
		      const char *key, double seconds);
/* The thread table of one key (records with threads > 1), efficiency
 * against min(T, cores) x one thread. */
void bench_report_threads(FILE *out, const struct bench_record *r, int n,
			  const char *key, int cores);
/* The whole JSON document; 0 or -1 on a write error. */
int bench_report_json(FILE *out, const struct bench_machine *m,
		      const struct bench_settings *s,
		      const struct bench_record *r, int n);

/* "1,234,567" (rounded to an integer); "-" for NaN. */
void bench_format_count(char *buf, size_t cap, double v);

#endif
