// bigmont-test: once
/*
 * One loaded key shared by 8 threads: every thread decrypts its own
 * ciphertexts with rsa_private_raw (fault check on, blinding on) at the
 * same time as the others, and every result is compared with the message
 * GMP encrypted.  Built and run under ThreadSanitizer by the `tsan` preset
 * (./tests/run), where a data race anywhere in the library (a shared
 * scratch buffer, a cached value written during an operation, a shared
 * RNG) aborts the test; in the other presets it checks the same results
 * without TSan.
 *
 * A batch test: threads each run rsa_private_batch (four operations in the
 * vector lanes of one exponentiation) on one shared key with their own
 * scratch, the lanes forced on (BIGMONT_BATCH, set before the threads
 * start: the C lanes where the build has no AVX2 code, as under TSan).
 *
 * A second test shares two keys between the threads for more than a
 * blinding refresh interval each (rsa/blinding.h: per-thread pairs, no
 * lock), checking results and that no two operations used one factor.
 *
 * The reference: n and e read by OpenSSL from the same PEM file, messages m
 * drawn by the seeded Rng, c = m^e mod n by GMP.
 */
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <bigmont/rsa.h>

#include "../rsa/blinding.h"
#include "blind_probe.h"
#include "ossl_key.h"
#include "testutil.h"

namespace {

constexpr int kThreads = 8;

/* n and e of a PEM key, through OpenSSL (independent of our parser). */
void openssl_public(const std::string &pem, mpz_t n, mpz_t e)
{
	bt::OsslKey k;
	std::string error;
	ASSERT_TRUE(bt::ossl_read_key(pem, &k, &error)) << error;
	ASSERT_EQ(mpz_set_str(n, k.n.c_str(), 16), 0);
	ASSERT_EQ(mpz_set_str(e, k.e.c_str(), 16), 0);
}

std::vector<uint8_t> to_bytes(const mpz_t v, size_t size)
{
	std::vector<uint8_t> out(size, 0);
	size_t count = 0;
	size_t need = (mpz_sizeinbase(v, 2) + 7) / 8;
	if (mpz_sgn(v) != 0)
		mpz_export(out.data() + (size - need), &count, 1, 1, 1, 0, v);
	return out;
}

struct Case {
	std::vector<uint8_t> c, m;
};

void decrypt_from_threads(const char *keyfile, int per_thread)
{
	std::string pem = bt::read_data_file(std::string("keys/") + keyfile);
	ASSERT_FALSE(pem.empty());
	bt::Mpz n, e;
	openssl_public(pem, n, e);

	rsa_key *key = nullptr;
	char err[256] = "";
	ASSERT_EQ(rsa_key_load_pem(&key, pem.data(), pem.size(), err, sizeof(err)), RSA_OK)
		<< keyfile << ": " << err;
	/* Options set once, before the key is shared. */
	ASSERT_EQ(rsa_key_set_fault_check(key, 1), RSA_OK);
	ASSERT_EQ(rsa_key_set_blinding(key, 1), RSA_OK);
	ASSERT_EQ(rsa_key_fault_check(key), 1);
	ASSERT_EQ(rsa_key_blinding(key), 1);
	const size_t size = rsa_key_size(key);
	ASSERT_EQ(size, (mpz_sizeinbase(n, 2) + 7) / 8);

	/* Every thread's work, drawn up front from the seeded Rng. */
	bt::Rng rng(0x7468726561647321ULL);
	std::vector<std::vector<Case>> work(kThreads);
	for (auto &cases : work) {
		for (int i = 0; i < per_thread; i++) {
			bt::Mpz m, c;
			/* Random bits below n, random density; 0, 1 and n-1 too. */
			switch (rng.below(8)) {
			case 0: mpz_set_ui(m, 0); break;
			case 1: mpz_set_ui(m, 1); break;
			case 2: mpz_sub_ui(m, n, 1); break;
			default:
				rng.mpz_bits(m, 1 + static_cast<int>(rng.below(mpz_sizeinbase(n, 2) - 1)));
				break;
			}
			mpz_powm(c, m, e, n);
			cases.push_back({to_bytes(c, size), to_bytes(m, size)});
		}
	}

	std::atomic<int> ready{0};
	std::vector<std::thread> threads;
	std::vector<int> failures(kThreads, 0), statuses(kThreads, RSA_OK);
	for (int t = 0; t < kThreads; t++) {
		threads.emplace_back([&, t] {
			/* Start together, so the operations overlap. */
			ready.fetch_add(1);
			while (ready.load() < kThreads)
				std::this_thread::yield();
			for (size_t i = 0; i < work[t].size(); i++) {
				const Case &k = work[t][i];
				std::vector<uint8_t> out(size, 0xa5);
				int rc;
				if (i % 2) { /* in and out the same buffer */
					out = k.c;
					rc = rsa_private_raw(key, out.data(), out.data(), size);
				} else {
					rc = rsa_private_raw(key, out.data(), k.c.data(), size);
				}
				if (rc != RSA_OK)
					statuses[t] = rc;
				else if (out != k.m)
					failures[t]++;
				/* A public operation in between, on the same key. */
				std::vector<uint8_t> back(size);
				if (rsa_public_raw(key, back.data(), k.m.data(), size) != RSA_OK ||
				    back != k.c)
					failures[t]++;
			}
		});
	}
	for (auto &th : threads)
		th.join();
	for (int t = 0; t < kThreads; t++) {
		EXPECT_EQ(statuses[t], RSA_OK) << keyfile << " thread " << t << ": "
					       << rsa_strerror(statuses[t]);
		EXPECT_EQ(failures[t], 0) << keyfile << " thread " << t
					  << ": results differ from GMP";
	}
	rsa_key_free(key);
}

TEST(Threads, SharedKey2048DecryptsFrom8Threads)
{
	decrypt_from_threads("rsa2048-e65537.pem", static_cast<int>(bt::scaled(12)));
}

TEST(Threads, SharedOddSizeKeyDecryptsFrom8Threads)
{
	decrypt_from_threads("rsa1025-e3.pem", static_cast<int>(bt::scaled(12)));
}

TEST(Threads, SharedBigExponentKeyDecryptsFrom8Threads)
{
	decrypt_from_threads("rsa1024-ebig.pem", static_cast<int>(bt::scaled(8)));
}

/* Threads each running batches on one shared key (the lanes forced on, set
 * before the threads start), their own scratch, against GMP. */
TEST(Threads, SharedKeyBatchesFrom4Threads)
{
	constexpr int kBatchThreads = 4, kOps = 4;
	const std::string pem = bt::read_data_file("keys/rsa1024-e65537.pem");
	ASSERT_FALSE(pem.empty());
	bt::Mpz n, e;
	openssl_public(pem, n, e);
	rsa_key *key = nullptr;
	char err[256] = "";
	ASSERT_EQ(rsa_key_load_pem(&key, pem.data(), pem.size(), err, sizeof(err)), RSA_OK) << err;
	const size_t size = rsa_key_size(key);
	bt::Rng rng(0x6261746368746872ULL);
	std::vector<std::vector<uint8_t>> in(kBatchThreads), want(kBatchThreads);
	for (int t = 0; t < kBatchThreads; t++)
		for (int i = 0; i < kOps; i++) {
			bt::Mpz m, c;
			rng.mpz_bits(m, 1 + static_cast<int>(rng.below(mpz_sizeinbase(n, 2) - 1)));
			mpz_powm(c, m, e, n);
			const std::vector<uint8_t> cb = to_bytes(c, size), mb = to_bytes(m, size);
			in[t].insert(in[t].end(), cb.begin(), cb.end());
			want[t].insert(want[t].end(), mb.begin(), mb.end());
		}
	const char *had = getenv("BIGMONT_BATCH");
	if (!had)
		setenv("BIGMONT_BATCH", big_have_asm() ? "avx2" : "c", 1);
	std::atomic<int> ready{0};
	std::vector<std::thread> threads;
	std::vector<int> results(kBatchThreads, RSA_OK), wrong(kBatchThreads, 0);
	for (int t = 0; t < kBatchThreads; t++)
		threads.emplace_back([&, t] {
			std::vector<uint8_t> scratch(rsa_private_batch_scratch_size(size));
			std::vector<uint8_t> out(size * kOps, 0);
			std::vector<const rsa_key *> keys(kOps, key);
			int status[kOps];
			ready.fetch_add(1);
			while (ready.load() < kBatchThreads)
				std::this_thread::yield();
			results[t] = rsa_private_batch(keys.data(), out.data(), in[t].data(), size, kOps,
						       status, scratch.data(), scratch.size());
			wrong[t] = out != want[t];
		});
	for (auto &th : threads)
		th.join();
	if (!had)
		unsetenv("BIGMONT_BATCH");
	for (int t = 0; t < kBatchThreads; t++) {
		EXPECT_EQ(results[t], RSA_OK) << "thread " << t << ": " << rsa_strerror(results[t]);
		EXPECT_EQ(wrong[t], 0) << "thread " << t << ": results differ from GMP";
	}
	rsa_key_free(key);
}

/* 8 threads share two keys, each thread alternating between them for more
 * than RSA_BLIND_REFRESH operations per key, so every thread's cache makes
 * fresh pairs, squares them and switches slots while the others do the
 * same on the same keys.  Results against GMP; every factor any thread
 * used is distinct (a shared or repeated pair would show up here). */
TEST(Threads, BlindingCachePerThreadOnSharedKeys)
{
	bt::RefKey keys[2];
	for (int i = 0; i < 2; i++) {
		std::string error;
		ASSERT_TRUE(bt::load_ref_key(i ? "rsa1025-e65537.pem" : "rsa1024-e3.pem",
					     &keys[i], &error)) << error;
	}
	constexpr int kOps = RSA_BLIND_REFRESH + 4;
	std::atomic<int> ready{0};
	std::vector<std::thread> threads;
	std::vector<int> failures(kThreads, 0);
	std::vector<std::vector<std::string>> factors(kThreads);
	for (int t = 0; t < kThreads; t++) {
		threads.emplace_back([&, t] {
			bt::Rng rng(0x626c696e64ULL + t);
			ready.fetch_add(1);
			while (ready.load() < kThreads)
				std::this_thread::yield();
			for (int i = 0; i < 2 * kOps; i++) {
				const bt::RefKey &k = keys[i % 2];
				bool correct = false, pair_ok = false;
				if (bt::checked_private_op(k, rng, &correct) != RSA_OK || !correct)
					failures[t]++;
				factors[t].push_back(bt::blind_factor(k, &pair_ok));
				if (!pair_ok)
					failures[t]++;
			}
		});
	}
	for (auto &th : threads)
		th.join();
	std::set<std::string> seen;
	for (int t = 0; t < kThreads; t++) {
		EXPECT_EQ(failures[t], 0) << "thread " << t << ": wrong result or pair";
		for (const std::string &f : factors[t])
			EXPECT_TRUE(seen.insert(f).second) << "thread " << t << ": factor repeated";
	}
}

} // namespace
