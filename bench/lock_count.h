/*
 * bench/lock_count.h -- how many locks the calling thread has taken.
 *
 * bench/lock_count.c defines pthread_mutex_lock, pthread_rwlock_rdlock,
 * pthread_rwlock_wrlock and pthread_once in the executable it is linked
 * into (bigmont-speed, and the test of the counter): each adds one
 * to a counter of the calling thread and forwards to the next definition
 * (the C library's, or a sanitizer's) found with dlsym(RTLD_NEXT).  An
 * executable's definition comes first in the dynamic linker's search
 * order, so calls from shared libraries (OpenSSL's libcrypto) are counted
 * as well as calls from the static libraries linked into it.  It is
 * compiled into executables only, never into libbigmont_bench.a, so that
 * nothing else links it by accident.
 *
 * Counting costs a thread-local increment and an indirect call per lock;
 * it never takes a lock itself.
 */
#ifndef BIGMONT_BENCH_LOCK_COUNT_H
#define BIGMONT_BENCH_LOCK_COUNT_H

#include <math.h>
#include <stdint.h>

struct bench_lock_counts {
	uint64_t mutex;  /* pthread_mutex_lock */
	uint64_t rdlock; /* pthread_rwlock_rdlock */
	uint64_t wrlock; /* pthread_rwlock_wrlock */
	uint64_t once;   /* pthread_once (no lock once done, but a call) */
};

/* The calling thread's counts since it started.  The benchmark library
 * takes it as a bench_lock_reader from the executable that links
 * lock_count.c (NULL: locks are not counted). */
void bench_lock_count_read(struct bench_lock_counts *c);
typedef void bench_lock_reader(struct bench_lock_counts *c);

/* 1 if calls from shared libraries reach the counting definitions (the
 * dynamic linker binds these names to them), else 0: then the counts miss
 * what OpenSSL takes, and should not be reported. */
int bench_lock_count_active(void);

/* total += after - before */
static inline void bench_lock_counts_add(struct bench_lock_counts *total,
					 const struct bench_lock_counts *before,
					 const struct bench_lock_counts *after)
{
	total->mutex += after->mutex - before->mutex;
	total->rdlock += after->rdlock - before->rdlock;
	total->wrlock += after->wrlock - before->wrlock;
	total->once += after->once - before->once;
}

/* total += part */
static inline void bench_lock_counts_sum(struct bench_lock_counts *total,
					 const struct bench_lock_counts *part)
{
	const struct bench_lock_counts zero = { 0, 0, 0, 0 };
	bench_lock_counts_add(total, &zero, part);
}

/* Locks taken (mutex, read, write) per operation; NaN for no operations. */
static inline double bench_locks_per_op(const struct bench_lock_counts *c, long ops)
{
	return ops > 0 ? (double)(c->mutex + c->rdlock + c->wrlock) / (double)ops : NAN;
}

/* pthread_once calls per operation; NaN for no operations. */
static inline double bench_once_per_op(const struct bench_lock_counts *c, long ops)
{
	return ops > 0 ? (double)c->once / (double)ops : NAN;
}

#endif
