/*
 * A shared library that takes a known number of locks, for
 * tests/test_lock_count.cpp: the calls leave it through its PLT, as
 * libcrypto's do, so they show whether the executable's counting
 * definitions (bench/lock_count.c) catch calls from shared libraries.
 */
#include <pthread.h>

static void nothing(void) {}

/* Takes each kind the number of times asked, releasing every lock. */
int lock_probe_take(int mutexes, int reads, int writes, int onces)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
	pthread_once_t once = PTHREAD_ONCE_INIT;
	int rc = 0;
	for (int i = 0; i < mutexes; i++)
		rc |= pthread_mutex_lock(&m) | pthread_mutex_unlock(&m);
	for (int i = 0; i < reads; i++)
		rc |= pthread_rwlock_rdlock(&l) | pthread_rwlock_unlock(&l);
	for (int i = 0; i < writes; i++)
		rc |= pthread_rwlock_wrlock(&l) | pthread_rwlock_unlock(&l);
	for (int i = 0; i < onces; i++)
		rc |= pthread_once(&once, nothing);
	return rc;
}
