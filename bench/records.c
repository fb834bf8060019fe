/*
 * bench/records.c -- the record step (contract in records.h).
 */
#include "records.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "key.h"
#include "lineup.h"

void bench_record_init(struct bench_record *r)
{
	memset(r, 0, sizeof(*r));
	r->blinding = r->fault_check = -1;
	bench_stats_of(&r->st, NULL, NULL, 0, 0);
	r->locks_per_op = r->once_per_op = NAN;
	r->efficiency = r->efficiency_min = r->efficiency_max = NAN;
	r->single_ops_per_s = r->cpu_share = NAN;
	r->call_overhead_ns = NAN;
}

struct bench_record *bench_records_add(struct bench_records *rs, const char *impl,
				       const struct bench_key *k, int threads)
{
	if (rs->n == rs->cap) {
		int cap = rs->cap ? 2 * rs->cap : 32;
		struct bench_record *r = realloc(rs->r, cap * sizeof(*r));
		if (r == NULL)
			return NULL;
		rs->r = r;
		rs->cap = cap;
	}
	struct bench_record *r = &rs->r[rs->n++];
	bench_record_init(r);
	snprintf(r->impl, sizeof(r->impl), "%s", impl);
	r->key = k->label;
	r->bits = k->bits;
	r->threads = threads;
	if (strncmp(impl, "ours", 4) == 0)
		snprintf(r->crt_path, sizeof(r->crt_path), "%s", k->crt_path);
	return r;
}

int bench_records_add_lineup(struct bench_records *rs, const struct bench_lineup *l,
			     const struct bench_key *k)
{
	for (int i = 0; i < l->n; i++) {
		const struct bench_impl *im = &l->impl[i];
		struct bench_record *r = bench_records_add(rs, im->name, k, 1);
		if (r == NULL)
			return -1;
		r->blinding = im->blinding;
		r->fault_check = im->fault_check;
		r->st = im->st;
		r->locks_per_op = bench_locks_per_op(&im->locks, im->locked_ops);
		r->once_per_op = bench_once_per_op(&im->locks, im->locked_ops);
		if (im->ops->call_overhead_ns != NULL)
			r->call_overhead_ns = im->ops->call_overhead_ns(im->h);
	}
	for (int i = 0; i < l->nskipped; i++) {
		struct bench_record *r = bench_records_add(rs, l->skipped[i], k, 1);
		if (r == NULL)
			return -1;
		if (l->skipped_note[i] != NULL)
			snprintf(r->note, sizeof(r->note), "not measured: %s", l->skipped_note[i]);
		else
			snprintf(r->note, sizeof(r->note), "not measured: a %d-bit key cannot hold %s",
				 k->bits, l->skipped_input[i] == BENCH_INPUT_OAEP
						  ? "an OAEP SHA-256 message of 32 bytes"
						  : "a PKCS #1 v1.5 SHA-256 signature");
	}
	return 0;
}

void bench_records_free(struct bench_records *rs)
{
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}
