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
 * A batch test: threads each run rsa_private_batch (eight operations a
 * call, four in the vector lanes of each exponentiation) on one shared key with their own
 * scratch, the lanes forced on (BIGMONT_BATCH, set before the threads
 * start: the C lanes where the build has no AVX2 code, as under TSan).
 *
 * A second test shares two keys between the threads for more than a
 * blinding refresh interval each (rsa/blinding.h: per-thread pairs, no
 * lock), checking results and that no two operations used one factor.
 *
 * A third runs rsa_private_batch from 4 threads on one shared key (blinding
 * and the fault check on): eight inputs a call, one of them not below n,
 * so each call is a full batch of four in the lanes and a partial one of
 * three; each thread its own scratch but one, which passes NULL (the
 * call's own allocation).  Results against GMP, statuses, and the
 * refused input's output bytes untouched.  Under TSan (the tsan preset:
 * no assembly) the lanes run the portable C build.
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

/* 4 threads run batches on one shared key. */
TEST(Threads, SharedKeyBatchesFrom4Threads)
{
	constexpr int kBatchThreads = 4, kInputs = 8, kRefused = 5;
	const char *keyfile = "rsa2048-e65537.pem";
	std::string pem = bt::read_data_file(std::string("keys/") + keyfile);
	ASSERT_FALSE(pem.empty());
	bt::Mpz n, e;
	openssl_public(pem, n, e);
	rsa_key *key = nullptr;
	char err[256] = "";
	ASSERT_EQ(rsa_key_load_pem(&key, pem.data(), pem.size(), err, sizeof(err)), RSA_OK)
		<< keyfile << ": " << err;
	ASSERT_EQ(rsa_key_blinding(key), 1);
	ASSERT_EQ(rsa_key_fault_check(key), 1);
	const size_t size = rsa_key_size(key);
	const int calls = static_cast<int>(bt::scaled(2));

	/* Per thread and call: kInputs ciphertexts (input kRefused is n
	 * itself, refused) and the messages they decrypt to. */
	bt::Rng rng(0x6261746368657321ULL);
	struct Call {
		std::vector<uint8_t> c, m;
	};
	std::vector<std::vector<Call>> work(kBatchThreads);
	const std::vector<uint8_t> n_bytes = to_bytes(n, size);
	for (auto &thread_calls : work) {
		for (int k = 0; k < calls; k++) {
			Call call;
			for (int i = 0; i < kInputs; i++) {
				bt::Mpz m, c;
				switch (rng.below(6)) {
				case 0: mpz_set_ui(m, 1); break;
				case 1: mpz_sub_ui(m, n, 1); break;
				default:
					rng.mpz_bits(m, 1 + static_cast<int>(rng.below(mpz_sizeinbase(n, 2) - 1)));
					break;
				}
				mpz_powm(c, m, e, n);
				std::vector<uint8_t> cb = to_bytes(c, size), mb = to_bytes(m, size);
				if (i == kRefused)
					cb = n_bytes;
				call.c.insert(call.c.end(), cb.begin(), cb.end());
				call.m.insert(call.m.end(), mb.begin(), mb.end());
			}
			thread_calls.push_back(call);
		}
	}

	const rsa_key *keys[kInputs];
	for (auto &k : keys)
		k = key;
	const size_t scratch_size = rsa_private_batch_scratch_size(size);
	ASSERT_GT(scratch_size, 0u);
	std::atomic<int> ready{0};
	std::vector<std::thread> threads;
	std::vector<int> wrong(kBatchThreads, 0), bad_status(kBatchThreads, 0);
	for (int t = 0; t < kBatchThreads; t++) {
		threads.emplace_back([&, t] {
			std::vector<uint8_t> scratch(scratch_size);
			void *mine = t == 0 ? nullptr : scratch.data();
			ready.fetch_add(1);
			while (ready.load() < kBatchThreads)
				std::this_thread::yield();
			for (size_t k = 0; k < work[t].size(); k++) {
				const Call &call = work[t][k];
				std::vector<uint8_t> out(kInputs * size, 0xa5);
				int status[kInputs];
				int rc;
				const bool in_place = (k + t) % 2; /* in and out one buffer */
				if (in_place) {
					out = call.c;
					rc = rsa_private_batch(keys, out.data(), out.data(), size, kInputs,
							       status, mine, scratch_size);
				} else {
					rc = rsa_private_batch(keys, out.data(), call.c.data(), size,
							       kInputs, status, mine, scratch_size);
				}
				if (rc != RSA_ERR_RANGE)
					bad_status[t]++;
				for (int i = 0; i < kInputs; i++) {
					const size_t at = static_cast<size_t>(i) * size;
					if (status[i] != (i == kRefused ? RSA_ERR_RANGE : RSA_OK))
						bad_status[t]++;
					const std::vector<uint8_t> got(out.begin() + at, out.begin() + at + size);
					const std::vector<uint8_t> want =
						i != kRefused ? std::vector<uint8_t>(call.m.begin() + at,
										     call.m.begin() + at + size)
						: in_place ? n_bytes
							: std::vector<uint8_t>(size, 0xa5);
					if (got != want)
						wrong[t]++;
				}
			}
		});
	}
	for (auto &th : threads)
		th.join();
	for (int t = 0; t < kBatchThreads; t++) {
		EXPECT_EQ(bad_status[t], 0) << "thread " << t << ": unexpected status";
		EXPECT_EQ(wrong[t], 0) << "thread " << t
				       << ": results differ from GMP, or a refused output was written";
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
