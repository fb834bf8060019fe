/*
 * bench/report.h -- the results of `bigmont speed`: one record per
 * (implementation, bits, threads) of this build and kernel variant, the
 * text tables printed for people and the JSON written for bench/run
 * (schema in bench/README.md).
 */
#ifndef BIGMONT_BENCH_REPORT_H
#define BIGMONT_BENCH_REPORT_H

#include <stdio.h>

#include "machine.h"
#include "measure.h"

#define BENCH_SCHEMA "bigmont-speed/1"

struct bench_record {
	char impl[24];   /* ours, ours-blinded, gmp, openssl, openssl-noblind,
			  * openssl-noifma */
	int bits;
	char key[160];   /* "embedded:rsa2048.pem" or the --key path */
	int threads;
	int blinding;    /* 1 on, 0 off, -1 not applicable / unknown */
	int fault_check; /* 1 on, 0 off, -1 not applicable */
	char note[160];  /* why it was not measured, "" if it was */
	struct bench_stats st;
	/* threads > 1: total ops/s against T x one thread (same method). */
	double efficiency;
	double single_ops_per_s;
};

struct bench_settings {
	double seconds;
	const int *threads;
	int nthreads;
	const char *compare; /* "gmp,openssl" as given */
	const char *const *claimed; /* implementations this run measures */
	int nclaimed;
};

/* The table of one key (records with that key and threads == 1) and the
 * ours/other ratios. */
void bench_report_key(FILE *out, const struct bench_record *r, int n,
		      const char *key, double seconds);
/* The thread-scaling table of one key (records with threads > 1). */
void bench_report_threads(FILE *out, const struct bench_record *r, int n,
			  const char *key);
/* The whole JSON document; 0 or -1 on a write error. */
int bench_report_json(FILE *out, const struct bench_machine *m,
		      const struct bench_settings *s,
		      const struct bench_record *r, int n);

/* "1,234,567" (rounded to an integer); "-" for NaN. */
void bench_format_count(char *buf, size_t cap, double v);

#endif
