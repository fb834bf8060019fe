/*
 * bench/lock_count.c -- the counting definitions of pthread_mutex_lock,
 * pthread_rwlock_rdlock, pthread_rwlock_wrlock and pthread_once (contract
 * in lock_count.h).
 *
 * The next definition is looked up on first use and kept in a static
 * atomic pointer: every thread that races to fill it stores the same
 * value, so no lock (which would recurse) is needed.
 */
#define _GNU_SOURCE
#include "lock_count.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>

static _Thread_local struct bench_lock_counts counts;

void bench_lock_count_read(struct bench_lock_counts *c)
{
	*c = counts;
}

/* The definition after this executable's, resolved once. */
static void *next_definition(void *_Atomic *slot, const char *name)
{
	void *f = atomic_load_explicit(slot, memory_order_relaxed);
	if (f == NULL) {
		f = dlsym(RTLD_NEXT, name);
		atomic_store_explicit(slot, f, memory_order_relaxed);
	}
	return f;
}

typedef int mutex_fn(pthread_mutex_t *);
typedef int rwlock_fn(pthread_rwlock_t *);
typedef int once_fn(pthread_once_t *, void (*)(void));

int pthread_mutex_lock(pthread_mutex_t *m)
{
	static void *_Atomic next;
	counts.mutex++;
	return ((mutex_fn *)next_definition(&next, "pthread_mutex_lock"))(m);
}

int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	static void *_Atomic next;
	counts.rdlock++;
	return ((rwlock_fn *)next_definition(&next, "pthread_rwlock_rdlock"))(l);
}

int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	static void *_Atomic next;
	counts.wrlock++;
	return ((rwlock_fn *)next_definition(&next, "pthread_rwlock_wrlock"))(l);
}

int pthread_once(pthread_once_t *once, void (*init)(void))
{
	static void *_Atomic next;
	counts.once++;
	return ((once_fn *)next_definition(&next, "pthread_once"))(once, init);
}

int bench_lock_count_active(void)
{
	return dlsym(RTLD_DEFAULT, "pthread_mutex_lock") == (void *)pthread_mutex_lock &&
	       dlsym(RTLD_DEFAULT, "pthread_rwlock_rdlock") == (void *)pthread_rwlock_rdlock &&
	       dlsym(RTLD_DEFAULT, "pthread_rwlock_wrlock") == (void *)pthread_rwlock_wrlock &&
	       dlsym(RTLD_DEFAULT, "pthread_once") == (void *)pthread_once;
}
