/*
 * bench/records.h -- the record step of `bigmont speed`: one record per
 * (implementation, key, threads) of this build and kernel variant, what
 * the text tables and the JSON (bench/report.h) are made of.
 */
#ifndef BIGMONT_BENCH_RECORDS_H
#define BIGMONT_BENCH_RECORDS_H

#include "measure.h"

struct bench_key;
struct bench_lineup;

struct bench_record {
	char impl[24];   /* ours, ours-blinded, gmp, openssl, openssl-noblind,
			  * openssl-noifma, openssl-wheel, openssl-wheel-oaep,
			  * ipp-crypto, ipp-crypto-mb8 */
	int bits;
	const char *key; /* "embedded:rsa2048.pem" or the --key path: the key's
			  * label (bench_key.label), which outlives the records */
	int threads;
	int blinding;    /* 1 on, 0 off, -1 not applicable / unknown */
	int fault_check; /* 1 on, 0 off, -1 not applicable */
	char note[300];  /* what the reader must know, "" if nothing */
	char crt_path[16]; /* ours: big_modexp_crt_path for the key's primes
			    * ("radix52-ifma", "vertical-avx2", "radix64"); "" for others */
	struct bench_stats st;
	/* Per operation: mutex and rwlock acquisitions, pthread_once calls;
	 * NaN where not counted (another process). */
	double locks_per_op, once_per_op;
	/* threads > 1: total ops/s against min(T, cores) x one thread, the
	 * median over rounds and the lowest and highest round; NaN otherwise
	 * (and the median NaN when every round gave more than 100 %). */
	double efficiency, efficiency_min, efficiency_max;
	double single_ops_per_s; /* one thread per second of its CPU time, the
				  * same rounds (threads.h) */
	double cpu_share;        /* of min(T, cores) cores the process had */
	/* ns per call of the layer the batches also time (the wheel's Python
	 * loop, impl.h call_overhead_ns), included in st; NaN for others. */
	double call_overhead_ns;
};

struct bench_records {
	struct bench_record *r;
	int n, cap;
};

/* A blank record: nothing measured (NaN), blinding and fault check -1. */
void bench_record_init(struct bench_record *r);

/* A blank record for impl on key k with T threads appended; NULL when out
 * of memory.  The pointer lasts until the next add. */
struct bench_record *bench_records_add(struct bench_records *rs, const char *impl,
				       const struct bench_key *k, int threads);

/* One record per implementation of a timed lineup (threads = 1); 0 or -1
 * when out of memory. */
int bench_records_add_lineup(struct bench_records *rs, const struct bench_lineup *l,
			     const struct bench_key *k);

void bench_records_free(struct bench_records *rs);

#endif
