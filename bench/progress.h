/*
 * bench/progress.h -- the progress line of `bigmont speed` on a terminal:
 * one line on standard error, "bigmont speed: <what>", rewritten in place
 * (carriage return, then erase to the end of the line) as the run moves to
 * the next key, step or round, and erased before a report is printed, so
 * that the report on the same terminal is left as it would be without it.
 * The command asks for it only when standard error is a terminal and the
 * JSON does not take standard output (cli/speed.c).
 */
#ifndef BIGMONT_BENCH_PROGRESS_H
#define BIGMONT_BENCH_PROGRESS_H

#include <stdio.h>

/* Rewrite the line (to NULL: nothing). */
void bench_progress(FILE *to, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Erase it (to NULL: nothing). */
void bench_progress_clear(FILE *to);

#endif
