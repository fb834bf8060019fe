/*
 * bench/timing.h -- the time step of `bigmont speed`: every implementation
 * of a lineup timed on the key's input, interleaved (bench_measure in
 * measure.c), with the locks each takes per operation counted around its
 * batches (never inside the timed region).
 */
#ifndef BIGMONT_BENCH_TIMING_H
#define BIGMONT_BENCH_TIMING_H

#include <stddef.h>

#include "key.h"
#include "lineup.h"
#include "lock_count.h"

/* `seconds` of batches per implementation; stats into each impl's st, lock
 * counts into its locks and locked_ops when read_locks is not NULL (never
 * for an implementation that times itself in another process).  0, or -1
 * with the failed implementations named in err. */
int bench_time_lineup(struct bench_lineup *l, const struct bench_key *k,
		      double seconds, bench_lock_reader *read_locks, char *err,
		      size_t errlen);

#endif
