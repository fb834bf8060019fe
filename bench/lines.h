/*
 * bench/lines.h -- the text-line protocol the benchmark's child processes
 * speak over pipes (worker.h, wheel.h): numbers in hex, one request or
 * reply per line, every line bounded so that no input makes a side grow
 * without limit.
 */
#ifndef BIGMONT_BENCH_LINES_H
#define BIGMONT_BENCH_LINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest line either side sends: a tag and a 16384-bit number in hex;
 * "err " and a reason of at most a few hundred bytes. */
#define BENCH_LINE_MAX 8192

void bench_hex_write(FILE *f, const uint8_t *b, size_t n);
/* Exactly n bytes of hex from s, then the end of the string or a newline;
 * 0, or -1 on anything else. */
int bench_hex_read(uint8_t *b, size_t n, const char *s);
/* One line with its newline (malloc'd), or NULL at the end of the input
 * and on a line longer than BENCH_LINE_MAX (then *too_long is 1). */
char *bench_read_line(FILE *f, int *too_long);

#endif
