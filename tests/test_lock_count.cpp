// bigmont-test: once
/*
 * The lock counter of `bigmont speed` (bench/lock_count.c), linked into
 * this test as into the bigmont command: exact counts for routines that
 * take a known number of locks, called from this executable and from a
 * shared library (tests/support/lock_probe.c, as libcrypto calls them);
 * counts per thread; and, end to end, no lock in our private-key operation
 * while OpenSSL's EVP_PKEY_decrypt takes some.
 */
#include <gtest/gtest.h>

#include <pthread.h>

#include <cmath>
#include <thread>
#include <vector>

extern "C" {
#include "impl.h"
#include "keys.h"
#include "lock_count.h"
int lock_probe_take(int mutexes, int reads, int writes, int onces);
}

namespace {

bench_lock_counts since(const bench_lock_counts &before)
{
	bench_lock_counts now, d = {};
	bench_lock_count_read(&now);
	bench_lock_counts_add(&d, &before, &now);
	return d;
}

void expect_counts(const bench_lock_counts &d, uint64_t mutex, uint64_t rd, uint64_t wr,
		   uint64_t once)
{
	EXPECT_EQ(d.mutex, mutex);
	EXPECT_EQ(d.rdlock, rd);
	EXPECT_EQ(d.wrlock, wr);
	EXPECT_EQ(d.once, once);
}

TEST(LockCount, SharedLibrariesBindToTheCounters)
{
	EXPECT_EQ(bench_lock_count_active(), 1);
}

void nothing() {}

TEST(LockCount, CallsFromThisExecutable)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
	pthread_once_t once = PTHREAD_ONCE_INIT;
	bench_lock_counts before;
	bench_lock_count_read(&before);
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
	}
	pthread_rwlock_rdlock(&l);
	pthread_rwlock_rdlock(&l);
	pthread_rwlock_unlock(&l);
	pthread_rwlock_unlock(&l);
	pthread_rwlock_wrlock(&l);
	pthread_rwlock_unlock(&l);
	pthread_once(&once, nothing);
	pthread_once(&once, nothing);
	bench_lock_counts d = since(before);
	expect_counts(d, 3, 2, 1, 2);
}

TEST(LockCount, CallsFromASharedLibrary)
{
	bench_lock_counts before;
	bench_lock_count_read(&before);
	int rc = lock_probe_take(5, 4, 3, 2);
	bench_lock_counts d = since(before);
	EXPECT_EQ(rc, 0);
	expect_counts(d, 5, 4, 3, 2);
	EXPECT_EQ(bench_locks_per_op(&d, 4), 3.0);
	EXPECT_EQ(bench_once_per_op(&d, 4), 0.5);
	EXPECT_TRUE(std::isnan(bench_locks_per_op(&d, 0)));
}

TEST(LockCount, EachThreadCountsItsOwn)
{
	bench_lock_counts before, other = {};
	bench_lock_count_read(&before);
	std::thread t([&other] {
		bench_lock_counts start;
		bench_lock_count_read(&start);
		lock_probe_take(100, 0, 7, 0);
		other = since(start);
	});
	t.join();
	bench_lock_counts d = since(before);
	expect_counts(other, 100, 0, 7, 0);
	/* std::thread's own start and join may lock in this thread, but never
	 * a hundred times. */
	EXPECT_LT(d.mutex, 100u);
	EXPECT_EQ(d.wrlock, 0u);
}

/* Locks per operation of an implementation after two warm-up operations
 * (first-use initialisation is not the steady state). */
double locks_per_decrypt(const bench_impl_ops *ops, int mode, const bench_key_blob &blob)
{
	bench_rsa_parts parts;
	char err[256];
	EXPECT_EQ(bench_ossl_parts(&parts, blob.pem, blob.len, err, sizeof(err)), 0) << err;
	bench_key_input key = { blob.pem, blob.len, &parts };
	void *h = ops->open(&key, mode, err, sizeof(err));
	EXPECT_NE(h, nullptr) << err;
	if (h == nullptr) {
		bench_rsa_parts_free(&parts);
		return -1;
	}
	std::vector<uint8_t> in(parts.len[RSA_PART_N], 0), out(in.size());
	in.back() = 2;
	for (int i = 0; i < 2; i++)
		EXPECT_EQ(ops->decrypt(h, out.data(), in.data()), 0);
	const int ops_counted = 64;
	bench_lock_counts before;
	bench_lock_count_read(&before);
	for (int i = 0; i < ops_counted; i++)
		ops->decrypt(h, out.data(), in.data());
	bench_lock_counts d = since(before);
	ops->close(h);
	bench_rsa_parts_free(&parts);
	return bench_locks_per_op(&d, ops_counted);
}

TEST(LockCount, OursTakesNoneOpenSSLSome)
{
	const bench_key_blob &blob = bench_embedded_keys[0];
	EXPECT_EQ(locks_per_decrypt(&bench_ours_ops, 0, blob), 0.0);
	EXPECT_EQ(locks_per_decrypt(&bench_ours_ops, 1, blob), 0.0) << "blinded";
	EXPECT_GT(locks_per_decrypt(&bench_ossl_ops, BENCH_OSSL_EVP, blob), 0.0);
}

} // namespace
