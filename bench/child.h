/*
 * bench/child.h -- the parent's end of a benchmark child process: a program
 * started with its standard input and output on two pipes and spoken to in
 * the text-line protocol of lines.h.  The OpenSSL worker (worker.h) and the
 * cryptography wheel's python (wheel.h) are both driven through it; what
 * their requests mean stays with them.
 *
 * Every reason a function here gives names the child (its `name`, e.g.
 * "the OpenSSL worker"), so that a failure says which child it was.  A
 * reply the parent did not expect is reported with the child's own "err"
 * text when it sent one, and the line it sent otherwise.
 *
 * Not thread-safe: one thread speaks to a child at a time (each request
 * waits for its reply).
 */
#ifndef BIGMONT_BENCH_CHILD_H
#define BIGMONT_BENCH_CHILD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "measure.h"

struct bench_child {
	const char *name; /* in messages; not copied */
	pid_t pid;        /* 0: not running */
	FILE *to, *from;  /* its standard input and output */
};

/* Run path with argv (argv[0] is what the child sees as its name), its
 * standard input and output on pipes, and env_name=env_value added to its
 * environment unless env_name is NULL.  0, or -1 with "cannot start
 * <name>: <why>" in err and nothing left running. */
int bench_child_start(struct bench_child *c, const char *name, const char *path,
		      char *const argv[], const char *env_name, const char *env_value,
		      char *err, size_t errlen);

/* Flush what was written to the child: 0, or -1 with the reason. */
int bench_child_send(struct bench_child *c, char *err, size_t errlen);

/* The next reply, which must be `tag` and a space: its line (malloc'd,
 * without the newline), or NULL with the reason. */
char *bench_child_expect(struct bench_child *c, const char *tag, char *err,
			 size_t errlen);

/* "key <len>" and the PEM; the child's "ok <size>": 0 and the size, or -1
 * with the reason. */
int bench_child_key(struct bench_child *c, const char *pem, size_t len, size_t *size,
		    char *err, size_t errlen);

/* "<word> <hex of b>"; the child's "out <hex>" line (malloc'd; the hex
 * starts at line + 4), or NULL with the reason. */
char *bench_child_hex_request(struct bench_child *c, const char *word, const uint8_t *b,
			      size_t n, char *err, size_t errlen);

/* "<word> <iters>"; the child's "ns <ns> <cycles>" timing of them into
 * *out: 0, or -1 with the reason. */
int bench_child_batch(struct bench_child *c, const char *word, long iters,
		      struct bench_batch *out, char *err, size_t errlen);

/* Close the pipes -- the end of the input tells the child to exit -- and
 * wait for it.  Also on a child whose start failed, and twice. */
void bench_child_stop(struct bench_child *c);
/* An implementation's close (impl.h) for a handle that is malloc'd and
 * begins with its struct bench_child: stop the child, free the handle.
 * NULL is a no-op. */
void bench_child_close(void *handle);

#endif
