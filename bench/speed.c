/*
 * bench/speed.c -- the run of `bigmont speed` (contract in speed.h): the
 * header, the kernel tables, each key's steps, the JSON document.
 */
#include "speed.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipp.h"
#include "kernels.h"
#include "key.h"
#include "lineup.h"
#include "machine.h"
#include "progress.h"
#include "records.h"
#include "report.h"
#include "threads.h"
#include "timing.h"
#include "verify.h"
#include "wheel.h"
#include "worker.h"

struct speed {
	const struct bench_speed_options *o;
	/* o->compare, and BENCH_COMPARE_WHEEL where the wheel was found,
	 * BENCH_COMPARE_IPP where ipp-crypto's libippcp loaded */
	int compare;
	struct bench_wheel_info wheel; /* the header points into it */
	struct bench_ipp_info ipp;     /* and into this */
	struct bench_thread_plan plan;
	struct bench_records records;
	struct bench_kernels kernels;  /* --kernels' tables */
	int have_kernels;              /* measured, for the JSON */
	char *err;
	size_t errlen;
};

/* Whatever was printed reached out; else the reason in err. */
static int report_written(struct speed *s)
{
	errno = 0;
	if (fflush(s->o->out) == 0 && !ferror(s->o->out))
		return 0;
	snprintf(s->err, s->errlen, "cannot write the report: %s",
		 errno ? strerror(errno) : "write error");
	return -1;
}

/* Every key loads (OpenSSL, GMP, ours) before anything is printed; the
 * first one's settings of ours go into the header. */
static int check_keys(struct speed *s, char *security, size_t cap)
{
	const struct bench_speed_options *o = s->o;
	for (int i = 0; i < o->nkeys; i++) {
		bench_progress(o->progress, "loading key %d of %d", i + 1, o->nkeys);
		struct bench_key k;
		if (bench_key_open(&k, o->keys[i].label, o->keys[i].pem, o->keys[i].len,
				   s->err, s->errlen) != 0)
			return -1;
		char why[256];
		void *ours = bench_ours_ops.open(&k.input, 0, why, sizeof(why));
		if (ours == NULL) {
			snprintf(s->err, s->errlen, "the key %s: %s", k.label, why);
			bench_key_close(&k);
			return -1;
		}
		if (i == 0)
			snprintf(security, cap, "fault check %s, blinding %s; ours-blinded: "
				 "blinding on", bench_ours_ops.fault_check(ours) ? "on" : "off",
				 bench_ours_ops.blinding(ours) ? "on" : "off");
		bench_ours_ops.close(ours);
		bench_key_close(&k);
	}
	bench_progress_clear(o->progress); /* the header follows */
	return 0;
}

static void print_settings(struct speed *s)
{
	const struct bench_speed_options *o = s->o;
	FILE *out = o->out;
	fprintf(out, "  timing    %.2f s of batches per implementation and key, interleaved, "
		"after a warm-up;\n            at least %d batches of at least one operation "
		"each (a slow operation takes longer)\n", o->seconds, BENCH_MIN_SAMPLES);
	int table = 0;
	for (int i = 0; i < o->nthreads; i++)
		table |= o->threads[i] > 1;
	if (table) {
		fprintf(out, "  threads   T =");
		for (int i = 0; i < o->nthreads; i++)
			fprintf(out, "%s%d", i ? "," : " ", o->threads[i]);
		fprintf(out, " on one shared key, %d rounds with 1 thread interleaved; "
			"efficiency against min(T, %d cores) x 1 thread\n", BENCH_THREAD_ROUNDS,
			s->plan.cores);
	}
	fprintf(out, "  locks     %s\n", o->read_locks
		? "pthread mutex and rwlock acquisitions per operation, counted in this process"
		: "not counted (this executable does not interpose the pthread locks)");
}

/* The progress line (progress.h) at a step of a key; 0, so that it can
 * stand in a chain of steps. */
static int key_step(const struct speed *s, const struct bench_speed_key *key,
		    const struct bench_key *k, const char *step)
{
	bench_progress(s->o->progress, "RSA-%d, key %d of %d: %s", k->bits,
		       (int)(key - s->o->keys) + 1, s->o->nkeys, step);
	return 0;
}

/* One key: open, verify, time, verify again, record, threads, report. */
static int speed_key(struct speed *s, const struct bench_speed_key *key)
{
	const struct bench_speed_options *o = s->o;
	struct bench_key k;
	struct bench_lineup l;
	if (bench_key_open(&k, key->label, key->pem, key->len, s->err, s->errlen) != 0)
		return -1;
	int rc = -1;
	/* This key's records, from here on: two keys may have one label (a
	 * file named embedded:rsa1024.pem beside the embedded key). */
	const int first = s->records.n;
	if (bench_lineup_open(&l, &k, s->compare, s->err, s->errlen) == 0) {
		if (key_step(s, key, &k, "checking the answers") == 0 &&
		    bench_verify_before(&l, &k, s->err, s->errlen) == 0 &&
		    key_step(s, key, &k, "timing, interleaved") == 0 &&
		    bench_time_lineup(&l, &k, o->seconds, o->read_locks, s->err, s->errlen) == 0 &&
		    bench_verify_after(&l, &k, s->err, s->errlen) == 0) {
			if (bench_records_add_lineup(&s->records, &l, &k) != 0)
				snprintf(s->err, s->errlen, "out of memory");
			else
				rc = bench_threads_key(&s->records, &l, &k, &s->plan, s->err,
						       s->errlen);
		}
		bench_lineup_close(&l);
	}
	if (rc == 0) {
		bench_progress_clear(o->progress);
		bench_report_key(o->out, s->records.r + first, s->records.n - first, k.label,
				 o->seconds);
		bench_report_threads(o->out, s->records.r + first, s->records.n - first,
				     k.label, s->plan.cores);
		rc = report_written(s);
	}
	bench_key_close(&k);
	return rc;
}

static int write_json(struct speed *s, const struct bench_machine *m)
{
	const struct bench_speed_options *o = s->o;
	const char *claimed[BENCH_MAX_IMPLS];
	struct bench_settings settings = {
		.seconds = o->seconds, .threads = o->threads, .nthreads = o->nthreads,
		.cores = s->plan.cores, .locks_counted = o->read_locks != NULL,
		.compare = o->compare_text, .claimed = claimed,
		/* --kernels alone times no implementation */
		.nclaimed = o->nkeys > 0 ? bench_lineup_names(claimed, BENCH_MAX_IMPLS, s->compare)
					 : 0,
		.kernels = s->have_kernels ? &s->kernels : NULL,
	};
	if (bench_report_json(o->json, m, &settings, s->records.r, s->records.n) != 0) {
		snprintf(s->err, s->errlen, "cannot write the JSON document: %s",
			 errno ? strerror(errno) : "write error");
		return -1;
	}
	return 0;
}

static int speed_run(struct speed *sp)
{
	const struct bench_speed_options *o = sp->o;
	char *err = sp->err;
	const size_t errlen = sp->errlen;
	char security[160] = "";
	if (check_keys(sp, security, sizeof(security)) != 0)
		return 1;

	/* Before the header, which names the wheel's OpenSSL and ipp-crypto
	 * or says why they are not measured. */
	if (o->nkeys > 0 && (o->compare & BENCH_COMPARE_OPENSSL)) {
		bench_wheel_probe(&sp->wheel);
		if (sp->wheel.available)
			sp->compare |= BENCH_COMPARE_WHEEL;
		bench_ipp_probe(&sp->ipp);
		if (sp->ipp.available)
			sp->compare |= BENCH_COMPARE_IPP;
	}
	struct bench_machine m;
	bench_machine_probe(&m, o->build, &sp->wheel);
	m.ipp = sp->ipp.probed ? &sp->ipp : NULL;
	sp->plan = (struct bench_thread_plan){ .threads = o->threads, .nthreads = o->nthreads,
					     .seconds = o->seconds, .cores = m.usable_cores,
					     .read_locks = o->read_locks, .progress = o->progress };
	bench_machine_print(o->out, &m, security[0] ? security : NULL);
	if (o->nkeys > 0)
		print_settings(sp);
	if (report_written(sp) != 0)
		return 1;

	if (o->kernels) {
		int failed = bench_kernels_report(o->out, &sp->kernels, o->seconds, err, errlen);
		if (report_written(sp) != 0 || failed)
			return 1;
		sp->have_kernels = 1;
	}

	int rc = 1;
	for (int i = 0; i < o->nkeys; i++)
		if (speed_key(sp, &o->keys[i]) != 0)
			goto out;
	if (o->nkeys > 0) {
		fprintf(o->out, "\nours: %s; ratios are time per operation, ours/other\n",
			security);
		if (report_written(sp) != 0)
			goto out;
	}
	if (o->json != NULL && write_json(sp, &m) != 0)
		goto out;
	rc = 0;
out:
	bench_records_free(&sp->records);
	return rc;
}

/* The report's state (with the kernel tables, some kilobytes) on the heap:
 * the timed operations run below this frame, and perf's 32 KiB stack
 * copies must reach main from inside a kernel (profiles/record). */
int bench_speed_run(const struct bench_speed_options *o, char *err, size_t errlen)
{
	struct speed *sp = calloc(1, sizeof(*sp));
	if (sp == NULL) {
		snprintf(err, errlen, "out of memory for the report");
		return 1;
	}
	*sp = (struct speed){ .o = o, .compare = o->compare, .err = err, .errlen = errlen };
	const int rc = speed_run(sp);
	free(sp);
	return rc;
}

int bench_speed_worker(void)
{
	return bench_worker_serve(stdin, stdout);
}
