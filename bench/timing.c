/*
 * bench/timing.c -- the time step (contract in timing.h).
 */
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

struct timed {
	struct bench_impl *im;
	bench_lock_reader *read_locks;
};

static int impl_op(void *ctx)
{
	struct bench_impl *im = ctx;
	return im->ops->decrypt(im->h, im->out, im->in);
}

static int run_batch(struct bench_impl *im, long iters, struct bench_batch *b)
{
	if (im->ops->batch != NULL)
		return im->ops->batch(im->h, iters, b);
	return bench_time_ops(impl_op, im, iters, b);
}

static int impl_batch(void *ctx, long iters, struct bench_batch *b)
{
	const struct timed *t = ctx;
	struct bench_impl *im = t->im;
	if (t->read_locks == NULL || im->ops->other_process)
		return run_batch(im, iters, b);
	struct bench_lock_counts before, after;
	t->read_locks(&before);
	int rc = run_batch(im, iters, b);
	t->read_locks(&after);
	if (rc == 0) {
		bench_lock_counts_add(&im->locks, &before, &after);
		im->locked_ops += iters;
	}
	return rc;
}

int bench_time_lineup(struct bench_lineup *l, const struct bench_key *k,
		      double seconds, bench_lock_reader *read_locks, char *err,
		      size_t errlen)
{
	struct bench_runner runners[BENCH_MAX_IMPLS];
	struct timed timed[BENCH_MAX_IMPLS];
	for (int i = 0; i < l->n; i++) {
		struct bench_impl *im = &l->impl[i];
		bench_key_timed(k, im->ops->input, &im->in, NULL);
		im->out = malloc(k->size);
		if (im->out == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		timed[i] = (struct timed){ .im = im, .read_locks = read_locks };
		runners[i] = (struct bench_runner){ .name = im->name, .batch = impl_batch,
						    .ctx = &timed[i] };
	}
	if (bench_measure(runners, l->n, seconds) != 0) {
		char names[BENCH_MAX_IMPLS * 24] = "";
		for (int i = 0; i < l->n; i++)
			if (runners[i].failed) {
				if (names[0] != '\0')
					strcat(names, ", ");
				strcat(names, runners[i].name);
			}
		snprintf(err, errlen, "%s failed while being timed on the key %s", names,
			 k->label);
		return -1;
	}
	for (int i = 0; i < l->n; i++)
		l->impl[i].st = runners[i].stats;
	return 0;
}
