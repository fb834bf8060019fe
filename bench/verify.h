/*
 * bench/verify.h -- the verify step of `bigmont speed`: no implementation
 * is timed, and no number printed, unless its answers are GMP's.
 */
#ifndef BIGMONT_BENCH_VERIFY_H
#define BIGMONT_BENCH_VERIFY_H

#include <stddef.h>

#include "key.h"
#include "lineup.h"

/* Before timing: every implementation's answer equals GMP's on 1, n - 1,
 * another deterministic value, and last the timed input (the child
 * process times the input it saw last).  0, or -1 with the first wrong or
 * failed implementation named in err. */
int bench_verify_before(const struct bench_lineup *l, const struct bench_key *k,
			char *err, size_t errlen);

/* After timing: still GMP's answer on the timed input (a fault under
 * load, a child process that lost its state). */
int bench_verify_after(const struct bench_lineup *l, const struct bench_key *k,
		       char *err, size_t errlen);

#endif
