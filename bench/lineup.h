/*
 * bench/lineup.h -- the implementations one run measures, opened on one
 * key: the open step of `bigmont speed`.
 *
 * The lineup is a table (bench/lineup.c): ours without and with blinding
 * always; GMP when compared with GMP; OpenSSL's EVP path, its unblinded
 * RSA path and, on x86-64, its EVP path without AVX-512 IFMA (in a child
 * process) when compared with OpenSSL, and then the OpenSSL of PyPI's
 * cryptography wheel (wheel.h), signing and decrypting OAEP, where its
 * environment was found; then ipp-crypto (ipp.h), single and eight at a
 * time, where libippcp loaded (x86-64 only).  Ours and OpenSSL's EVP path
 * also run in the thread table.
 */
#ifndef BIGMONT_BENCH_LINEUP_H
#define BIGMONT_BENCH_LINEUP_H

#include <stdint.h>

#include "impl.h"
#include "key.h"
#include "lock_count.h"
#include "measure.h"

#define BENCH_MAX_IMPLS 12

/* Which of the lineup a run compares ours with. */
#define BENCH_COMPARE_GMP 1
#define BENCH_COMPARE_OPENSSL 2
/* Not an option: the run adds it to BENCH_COMPARE_OPENSSL where the
 * wheel's probe found it (wheel.h), since a missing wheel is no error. */
#define BENCH_COMPARE_WHEEL 4
/* Likewise where ipp-crypto's libippcp loaded (ipp.h). */
#define BENCH_COMPARE_IPP 8

struct bench_impl {
	const char *name; /* "ours", "openssl-noifma", ... */
	const struct bench_impl_ops *ops;
	void *h;
	int blinding, fault_check;
	int in_thread_table;
	/* Filled by the time step (timing.c). */
	struct bench_stats st;
	struct bench_lock_counts locks; /* taken by `locked_ops` operations */
	long locked_ops;                /* 0: not counted */
	uint8_t *out;
	const uint8_t *in;
};

struct bench_lineup {
	struct bench_impl impl[BENCH_MAX_IMPLS];
	int n;
	/* Asked for but not opened: the key is too small for what the
	 * implementation takes (impl.h, enum bench_input), or an optional
	 * one's open said why not (skipped_note, malloc'd; NULL otherwise: on
	 * the heap, since the lineup lives on a stack that perf's profiles
	 * copy 32 KiB of). */
	const char *skipped[BENCH_MAX_IMPLS];
	int skipped_input[BENCH_MAX_IMPLS];
	char *skipped_note[BENCH_MAX_IMPLS];
	int nskipped;
};

/* The names of the implementations a run with `compare` measures, in
 * report order; returns how many (at most cap). */
int bench_lineup_names(const char **names, int cap, int compare);

/* Open every implementation `compare` asks for on the key: all of them
 * (but those skipped, above: an optional one, ipp-crypto mb8, is skipped
 * with its reason where it does not open), or none (-1 and the first
 * failure's reason in err). */
int bench_lineup_open(struct bench_lineup *l, const struct bench_key *k,
		      int compare, char *err, size_t errlen);
void bench_lineup_close(struct bench_lineup *l);

/* The implementation of that name, or NULL. */
const struct bench_impl *bench_lineup_find(const struct bench_lineup *l,
					   const char *name);

#endif
