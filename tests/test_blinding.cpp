// bigmont-test: once
/*
 * Blinding of the RSA private operation (rsa/blinding.h), against GMP.
 *
 *  - rsa_blind_pair's two outputs satisfy r^e * (r^-1)^e == 1 (mod n):
 *    the same r, whatever r was; r^-1 is invertible; two calls differ (a
 *    fresh r each time: equal outputs would mean r repeated).
 *  - Through the API: blinding is on by default, can be switched per key,
 *    and rsa_private_raw gives GMP's in^d mod n with it on and off, for
 *    every test key size and exponent.
 *  - The per-thread cache (rsa/blinding_cache.c), seen through the test
 *    hook rsa_blinding_pair_for_test: every use gets a new, matching pair
 *    (the square of the last, a fresh one every RSA_BLIND_REFRESH uses);
 *    keys interleaved on one thread keep their own slots; more keys than
 *    slots evict; a reloaded key does not find the old key's slot; threads
 *    and a forked child never share a factor; an operation from a pthread
 *    key destructor keeps no pair (after the cache's own release, or
 *    after rsa_thread_stop in a thread that had none).  8 threads sharing keys
 *    under ThreadSanitizer: tests/test_threads.cpp.
 *  - No call is a cancellation point: a thread with a cancel pending
 *    loads a key and runs a blinded operation and a batch, each drawing
 *    from getrandom(), and returns from each.
 * The moduli are RSA moduli (from the test keys, read by OpenSSL) and
 * random odd numbers (the code must not assume primes).
 */
#include <gtest/gtest.h>

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <bigmont/rsa.h>

#include "../rsa/blinding.h"
#include "../rsa/rsa_internal.h"

#include "blind_probe.h"
#include "ossl_key.h"
#include "testutil.h"

/* The bases rsa/ hands the CRT exponentiations, as hex, in call order
 * (linked with --wrap: tests/CMakeLists.txt), recorded only while
 * g_recording, which the one test that reads them sets around its calls
 * on its own thread: other tests run operations in eight threads at
 * once, whose appends to the vector raced (ASan saw its buffer leak). */
static std::atomic<bool> g_recording{ false };
static std::vector<std::string> g_crt_bases;

static std::string hex_of(const BIGNUM *b)
{
	bt::Mpz v;
	bt::to_mpz(v, b);
	return bt::hex(v);
}

extern "C" {
BIG_ERR_CODE __real_big_modexp_crt_ws(BIGNUM *result, const BIGNUM *a, const BIGNUM *dp,
				      const BIGNUM *dq, const BIGNUM *p, const BIGNUM *q,
				      const BIGNUM *pinv, const BIGNUM *p_rr, const BIGNUM *q_rr,
				      BIG_CHUNK_TYPE *ws, size_t ws_chunks);
BIG_ERR_CODE __wrap_big_modexp_crt_ws(BIGNUM *result, const BIGNUM *a, const BIGNUM *dp,
				      const BIGNUM *dq, const BIGNUM *p, const BIGNUM *q,
				      const BIGNUM *pinv, const BIGNUM *p_rr, const BIGNUM *q_rr,
				      BIG_CHUNK_TYPE *ws, size_t ws_chunks)
{
	if (g_recording)
		g_crt_bases.push_back(hex_of(a));
	return __real_big_modexp_crt_ws(result, a, dp, dq, p, q, pinv, p_rr, q_rr, ws, ws_chunks);
}
BIG_ERR_CODE __real_big_modexp_crt_batch(const big_crt_batch_op *ops, int count, void *scratch,
					 size_t scratch_size);
BIG_ERR_CODE __wrap_big_modexp_crt_batch(const big_crt_batch_op *ops, int count, void *scratch,
					 size_t scratch_size)
{
	for (int i = 0; g_recording && i < count; i++)
		g_crt_bases.push_back(hex_of(ops[i].a));
	return __real_big_modexp_crt_batch(ops, count, scratch, scratch_size);
}
}

namespace {

using bt::Big;
using bt::Mpz;

struct Modulus {
	Mpz n, e;
};

void check_blind_math(const mpz_t n, const mpz_t e, int rounds)
{
	Big bn(n), be(e), rr(1);
	ASSERT_EQ(big_mont_rr(&rr.b, &bn.b), BIG_OK);
	const BIG_CHUNK_TYPE n0 = big_n0(bn.b.value[0]);
	std::set<std::string> seen;
	for (int i = 0; i < rounds; i++) {
		Big r_e(1), r_inv(1);
		ASSERT_EQ(rsa_blind_pair(&r_e.b, &r_inv.b, &be.b, &bn.b, n0, &rr.b), RSA_OK);
		Mpz za, zu, check, g;
		bt::to_mpz(za, &r_e.b);
		bt::to_mpz(zu, &r_inv.b);
		EXPECT_LT(mpz_cmp(za, n), 0);
		EXPECT_LT(mpz_cmp(zu, n), 0);
		EXPECT_GT(mpz_sgn(zu.v), 0);
		mpz_gcd(g, zu, n);
		EXPECT_EQ(mpz_cmp_ui(g.v, 1), 0) << "r^-1 not invertible";
		/* r^e * (r^-1)^e == 1: the two halves belong to one r. */
		mpz_powm(check, zu, e, n);
		mpz_mul(check, check, za);
		mpz_mod(check, check, n);
		EXPECT_EQ(mpz_cmp_ui(check.v, 1), 0)
			<< "r^e * (r^-1)^e != 1, n=" << bt::hex(n) << " r^-1=" << bt::hex(zu);
		/* A repeat among a few draws below a >= 64-bit n means r is not
		 * fresh (tiny moduli repeat by chance). */
		if (mpz_sizeinbase(n, 2) >= 64) {
			EXPECT_TRUE(seen.insert(bt::hex(zu)).second) << "the same r came twice";
		}
	}
}

TEST(Blinding, MathOnRsaModuli)
{
	for (const char *k : {"rsa512-e3.pem", "rsa1025-e65537.pem", "rsa2048-ebig.pem",
			      "rsa4096-e65537.pem"}) {
		bt::OsslKey key;
		std::string error;
		ASSERT_TRUE(bt::ossl_read_key(bt::read_data_file(std::string("keys/") + k), &key, &error))
			<< error;
		Mpz n, e;
		mpz_set_str(n, key.n.c_str(), 16);
		mpz_set_str(e, key.e.c_str(), 16);
		SCOPED_TRACE(k);
		check_blind_math(n, e, static_cast<int>(bt::scaled(20)));
	}
}

TEST(Blinding, MathOnRandomOddModuli)
{
	bt::Rng rng(11);
	for (int bits : {3, 64, 65, 130, 700, 2049}) {
		Mpz n, e;
		rng.mpz_bits(n, bits);
		mpz_setbit(n, 0);
		mpz_set_ui(e, 65537);
		SCOPED_TRACE(bits);
		check_blind_math(n, e, static_cast<int>(bt::scaled(10)));
	}
}

TEST(Blinding, RandomBytesFillTheBuffer)
{
	/* 4 KiB of getrandom output: every byte value shows up (a buffer
	 * left partly unfilled would be stuck at its 0 fill). */
	std::vector<uint8_t> buf(4096, 0);
	ASSERT_EQ(rsa_random_bytes(buf.data(), buf.size()), 0);
	std::set<uint8_t> values(buf.begin(), buf.end());
	EXPECT_EQ(values.size(), 256u);
	size_t zeros = 0;
	for (size_t i = buf.size() - 64; i < buf.size(); i++)
		zeros += buf[i] == 0;
	EXPECT_LT(zeros, 8u) << "the tail of the buffer was not filled";
}

std::vector<uint8_t> to_bytes(const mpz_t v, size_t size)
{
	std::vector<uint8_t> out(size, 0);
	size_t need = (mpz_sizeinbase(v, 2) + 7) / 8;
	if (mpz_sgn(v) != 0)
		mpz_export(out.data() + (size - need), nullptr, 1, 1, 1, 0, v);
	return out;
}

TEST(Blinding, PrivateOperationWithAndWithoutBlinding)
{
	bt::Rng rng(13);
	for (int bits : {512, 1024, 1025, 1536, 2047, 2048, 3072, 4096}) {
		for (const char *e : {"3", "65537", "big"}) {
			std::string file = "keys/rsa" + std::to_string(bits) + "-e" + e + ".pem";
			SCOPED_TRACE(file);
			std::string pem = bt::read_data_file(file);
			bt::OsslKey ref;
			std::string error;
			ASSERT_TRUE(bt::ossl_read_key(pem, &ref, &error)) << error;
			Mpz n, d;
			mpz_set_str(n, ref.n.c_str(), 16);
			mpz_set_str(d, ref.d.c_str(), 16);

			rsa_key *key = nullptr;
			char err[256] = "";
			ASSERT_EQ(rsa_key_load_pem(&key, pem.data(), pem.size(), err, sizeof(err)), RSA_OK) << err;
			EXPECT_EQ(rsa_key_blinding(key), 1) << "blinding must be on by default";
			const size_t size = rsa_key_size(key);
			const int rounds = static_cast<int>(bt::scaled(bits >= 3072 ? 2 : 4));
			for (int on = 1; on >= 0; on--) {
				ASSERT_EQ(rsa_key_set_blinding(key, on), RSA_OK);
				ASSERT_EQ(rsa_key_blinding(key), on);
				for (int i = 0; i < rounds; i++) {
					Mpz c, m;
					rng.mpz_bits(c, bits - 1 - static_cast<int>(rng.below(8)));
					mpz_powm(m, c, d, n);
					std::vector<uint8_t> in = to_bytes(c, size), out(size);
					ASSERT_EQ(rsa_private_raw(key, out.data(), in.data(), size), RSA_OK);
					EXPECT_EQ(out, to_bytes(m, size)) << "blinding " << on;
				}
			}
			rsa_key_free(key);
		}
	}
}

/* Loads keys/<file> into k or fails the test. */
#define LOAD_REF_KEY(k, file)                                              \
	do {                                                               \
		std::string error_;                                        \
		ASSERT_TRUE(bt::load_ref_key(file, &(k), &error_)) << error_; \
	} while (0)

/* One checked private operation, then the thread's pair: it matches, and
 * its factor is returned. */
std::string op_and_factor(const bt::RefKey &k, bt::Rng &rng)
{
	bool correct = false, pair_ok = false;
	EXPECT_EQ(bt::checked_private_op(k, rng, &correct), RSA_OK);
	EXPECT_TRUE(correct) << "result differs from GMP";
	std::string f = bt::blind_factor(k, &pair_ok);
	EXPECT_FALSE(f.empty()) << "no pair after a blinded operation";
	EXPECT_TRUE(pair_ok) << "r^e and r^-1 do not belong together";
	return f;
}

TEST(BlindingCache, SquaresThenRefreshes)
{
	bt::Rng rng(17);
	for (const char *file : {"rsa1024-e65537.pem", "rsa2048-e3.pem", "rsa1025-ebig.pem"}) {
		SCOPED_TRACE(file);
		bt::RefKey k;
		LOAD_REF_KEY(k, file);
		bool pair_ok;
		EXPECT_EQ(bt::blind_factor(k, &pair_ok), "") << "a pair before any operation";
		std::set<std::string> seen;
		Mpz prev, sq, cur;
		const int ops = 2 * RSA_BLIND_REFRESH + 3;
		for (int i = 0; i < ops; i++) {
			const std::string f = op_and_factor(k, rng);
			EXPECT_TRUE(seen.insert(f).second) << "factor repeated at op " << i;
			mpz_set_str(cur, f.c_str(), 16);
			if (i > 0) {
				mpz_mul(sq, prev, prev);
				mpz_mod(sq, sq, k.n);
				/* Within a pair each use squares the last; every
				 * RSA_BLIND_REFRESH uses a fresh r replaces it. */
				const bool fresh = i % RSA_BLIND_REFRESH == 0;
				EXPECT_EQ(mpz_cmp(cur, sq) == 0, !fresh) << "op " << i;
			}
			mpz_set(prev, cur);
		}
	}
}

TEST(BlindingCache, TwoKeysInterleavedOnOneThread)
{
	bt::Rng rng(19);
	bt::RefKey a, b;
	LOAD_REF_KEY(a, "rsa1024-e3.pem");
	LOAD_REF_KEY(b, "rsa1024-e65537.pem");
	Mpz prev_a, cur, sq;
	for (int i = 0; i < RSA_BLIND_REFRESH + 4; i++) {
		mpz_set_str(cur, op_and_factor(a, rng).c_str(), 16);
		if (i % RSA_BLIND_REFRESH != 0) {
			/* b's operation in between left a's slot alone. */
			mpz_mul(sq, prev_a, prev_a);
			mpz_mod(sq, sq, a.n);
			EXPECT_EQ(mpz_cmp(cur, sq), 0) << "op " << i;
		}
		mpz_set(prev_a, cur);
		op_and_factor(b, rng);
	}
}

TEST(BlindingCache, MoreKeysThanSlotsEvicts)
{
	bt::Rng rng(23);
	const char *kinds[] = {"rsa512-e3.pem", "rsa512-e65537.pem", "rsa1024-e3.pem",
			       "rsa1024-e65537.pem", "rsa1025-e3.pem", "rsa1025-e65537.pem"};
	/* Two more keys than slots; a file loaded again is another key (its
	 * own blind_id: AReloadedKeyGetsItsOwnSlot). */
	std::vector<const char *> files;
	for (size_t i = 0; i < RSA_BLIND_SLOTS + 2; i++)
		files.push_back(kinds[i % (sizeof(kinds) / sizeof(kinds[0]))]);
	std::vector<std::unique_ptr<bt::RefKey>> keys;
	for (const char *f : files) {
		keys.emplace_back(new bt::RefKey);
		LOAD_REF_KEY(*keys.back(), f);
	}
	for (int round = 0; round < 3; round++)
		for (auto &k : keys)
			op_and_factor(*k, rng);
	/* Round-robin over more keys than slots: the least recently used
	 * ones were evicted, the last RSA_BLIND_SLOTS are held. */
	bool pair_ok;
	for (size_t i = 0; i < keys.size(); i++)
		EXPECT_EQ(bt::blind_factor(*keys[i], &pair_ok).empty(),
			  i < keys.size() - RSA_BLIND_SLOTS) << files[i];
}

TEST(BlindingCache, AReloadedKeyGetsItsOwnSlot)
{
	bt::Rng rng(29);
	auto first = std::make_unique<bt::RefKey>();
	LOAD_REF_KEY(*first, "rsa1024-e65537.pem");
	const std::string old = op_and_factor(*first, rng);
	first.reset(); /* rsa_key_free wipes this thread's slot */
	bt::RefKey again;
	LOAD_REF_KEY(again, "rsa1024-e65537.pem");
	bool pair_ok;
	EXPECT_EQ(bt::blind_factor(again, &pair_ok), "") << "the new key found the old key's slot";
	EXPECT_NE(op_and_factor(again, rng), old);
}

/* rsa_key_free wipes the calling thread's pair for the key: the slot's
 * words (the thread's cache stays mapped) are zero after it, where they
 * held the pair before.  Read through the pointers rsa_blinding_next gave,
 * past their contract's end on purpose. */
TEST(BlindingCache, FreeingTheKeyWipesThisThreadsPair)
{
	rsa_key *key = nullptr;
	const std::string pem = bt::read_data_file("keys/rsa1024-e65537.pem");
	char err[128];
	ASSERT_EQ(rsa_key_load_pem(&key, pem.data(), pem.size(), err, sizeof err),
		  RSA_OK)
		<< err;
	const BIG_CHUNK_TYPE *a = nullptr, *b = nullptr;
	ASSERT_EQ(rsa_blinding_next(key, &a, &b), RSA_OK);
	const int len = static_cast<int>((rsa_key_bits(key) + BIG_CHUNK_SIZE - 1) / BIG_CHUNK_SIZE);
	auto nonzero = [len](const BIG_CHUNK_TYPE *v) {
		int n = 0;
		for (int j = 0; j < len; j++)
			n += v[j] != 0;
		return n;
	};
	ASSERT_GT(nonzero(a), len / 2);
	ASSERT_GT(nonzero(b), len / 2);
	rsa_key_free(key);
	EXPECT_EQ(nonzero(a), 0) << "r^e R left in the thread's cache";
	EXPECT_EQ(nonzero(b), 0) << "r^-1 R left in the thread's cache";
}

TEST(BlindingCache, ThreadsNeverShareAFactor)
{
	bt::RefKey k;
	LOAD_REF_KEY(k, "rsa1024-e65537.pem");
	constexpr int kThreads = 8, kOps = 3;
	std::vector<std::vector<std::string>> factors(kThreads);
	std::vector<std::thread> threads;
	for (int t = 0; t < kThreads; t++)
		threads.emplace_back([&, t] {
			bt::Rng rng(31 + t);
			for (int i = 0; i < kOps; i++)
				factors[t].push_back(op_and_factor(k, rng));
		});
	for (auto &th : threads)
		th.join();
	std::set<std::string> seen;
	for (auto &list : factors)
		for (auto &f : list)
			EXPECT_TRUE(seen.insert(f).second) << "two operations used one factor";
	EXPECT_EQ(seen.size(), static_cast<size_t>(kThreads * kOps));
}

TEST(BlindingCache, ForkedChildDoesNotReuseTheParentsPair)
{
	bt::Rng rng(37);
	bt::RefKey k;
	LOAD_REF_KEY(k, "rsa1024-e65537.pem");
	op_and_factor(k, rng); /* the parent holds a pair */
	int fds[2];
	ASSERT_EQ(pipe(fds), 0);
	const pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		/* Child: no pair until its own operation, then a fresh one
		 * (its parent's squared would be what the parent uses next). */
		close(fds[0]);
		bool pair_ok = false, correct = false;
		std::string msg = bt::blind_factor(k, &pair_ok).empty() ? "" : "inherited";
		if (msg.empty()) {
			const int rc = bt::checked_private_op(k, rng, &correct);
			const std::string f = bt::blind_factor(k, &pair_ok);
			msg = rc != RSA_OK || !correct || !pair_ok ? "bad" : f;
		}
		ssize_t w = write(fds[1], msg.data(), msg.size());
		_exit(w == static_cast<ssize_t>(msg.size()) ? 0 : 1);
	}
	close(fds[1]);
	const std::string parent = op_and_factor(k, rng);
	std::string child;
	char buf[512];
	for (ssize_t got; (got = read(fds[0], buf, sizeof(buf))) > 0;)
		child.append(buf, static_cast<size_t>(got));
	close(fds[0]);
	int status = 0;
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_NE(child, "inherited") << "the child found the parent's pair";
	ASSERT_NE(child, "bad") << "the child's operation failed";
	EXPECT_NE(child, parent) << "parent and child used the same blinding factor";
}

/* What a pthread key destructor saw; the thread's key value. */
struct DtorProbe {
	const bt::RefKey *key;
	bool stop = false;     /* call rsa_thread_stop after the operation */
	bool correct = false;  /* the operation gave GMP's result */
	bool pair_after = true; /* a pair was left in the thread's cache */
	bool unmapped = false; /* rsa_thread_stop unmapped the cache */
};

/* Whether p lies in one of the process's mappings (/proc/self/maps: no
 * system call on the address, which Valgrind would report). */
bool mapped(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	if (f == nullptr)
		return true;
	const uintptr_t at = reinterpret_cast<uintptr_t>(p);
	unsigned long lo, hi;
	bool in = false;
	char line[512];
	while (!in && fgets(line, sizeof(line), f) != nullptr)
		in = sscanf(line, "%lx-%lx", &lo, &hi) == 2 && at >= lo && at < hi;
	fclose(f);
	return in;
}

void run_in_dtor(void *arg)
{
	DtorProbe *p = static_cast<DtorProbe *>(arg);
	bt::Rng rng(41);
	if (p->stop)
		rsa_thread_stop();
	p->correct = bt::checked_private_op(*p->key, rng, &p->correct) == RSA_OK && p->correct;
	bool pair_ok = false;
	p->pair_after = !bt::blind_factor(*p->key, &pair_ok).empty();
	if (p->stop) {
		/* The block made for one use is unmapped at its end. */
		const BIG_CHUNK_TYPE *a = nullptr, *b = nullptr;
		if (rsa_blinding_next(p->key->key, &a, &b) != RSA_OK)
			return;
		rsa_blinding_done();
		p->unmapped = !mapped(a);
	}
}

struct DtorThread {
	pthread_key_t tkey;
	DtorProbe *probe;
	bool op_before;
};

void *dtor_thread(void *arg)
{
	DtorThread *t = static_cast<DtorThread *>(arg);
	if (t->op_before) {
		bt::Rng rng(43);
		bool correct = false;
		(void)bt::checked_private_op(*t->probe->key, rng, &correct);
	}
	pthread_setspecific(t->tkey, t->probe);
	return nullptr;
}

/* glibc runs the cache's release (__cxa_thread_atexit_impl) before pthread
 * key destructors: an operation in one made a cache that nothing released,
 * its pairs left in memory for the life of the process. */
TEST(BlindingCache, OperationInAKeyDestructorKeepsNoPair)
{
	bt::RefKey k;
	LOAD_REF_KEY(k, "rsa1024-e65537.pem");
	pthread_key_t tkey;
	ASSERT_EQ(pthread_key_create(&tkey, run_in_dtor), 0);
	for (bool stop : { false, true }) {
		SCOPED_TRACE(stop ? "no operation before, rsa_thread_stop first"
				  : "an operation before, the cache released at exit");
		DtorProbe probe;
		probe.key = &k;
		probe.stop = stop;
		DtorThread t = { tkey, &probe, !stop };
		pthread_t th;
		ASSERT_EQ(pthread_create(&th, nullptr, dtor_thread, &t), 0);
		ASSERT_EQ(pthread_join(th, nullptr), 0);
		EXPECT_TRUE(probe.correct) << "the operation in the destructor failed";
		EXPECT_FALSE(probe.pair_after) << "a pair left behind in an exited thread";
		if (stop) {
			EXPECT_TRUE(probe.unmapped) << "a block after rsa_thread_stop left mapped";
		}
	}
	pthread_key_delete(tkey);
}

struct CancelProbe {
	std::string pem;
	bool loaded = false, raw = false, batch = false;
};

void *cancelled_thread(void *arg)
{
	CancelProbe *p = static_cast<CancelProbe *>(arg);
	pthread_cancel(pthread_self()); /* deferred: acts at a cancellation point */
	rsa_key *key = nullptr;
	p->loaded = rsa_key_load_pem(&key, p->pem.data(), p->pem.size(), nullptr, 0) == RSA_OK;
	if (!p->loaded)
		return nullptr;
	const size_t size = rsa_key_size(key);
	std::vector<uint8_t> in(2 * size, 0x5a), out(2 * size);
	in[0] = in[size] = 0;
	p->raw = rsa_private_raw(key, out.data(), in.data(), size) == RSA_OK;
	const rsa_key *keys[2] = { key, key };
	int status[2];
	p->batch = rsa_private_batch(keys, out.data(), in.data(), size, 2, status, nullptr, 0) ==
		   RSA_OK;
	rsa_key_free(key);
	/* The cancel never acts: its unwinding leaves the stack poisoned
	 * for AddressSanitizer's own thread exit. */
	int old;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	return nullptr;
}

/* glibc's getrandom() is a cancellation point: a cancel acting there
 * unwound a private operation past its wipes and frees. */
TEST(BlindingCache, NoCallIsACancellationPoint)
{
	CancelProbe probe;
	probe.pem = bt::read_data_file("keys/rsa1024-e65537.pem");
	pthread_t th;
	ASSERT_EQ(pthread_create(&th, nullptr, cancelled_thread, &probe), 0);
	void *ret = nullptr;
	ASSERT_EQ(pthread_join(th, &ret), 0);
	EXPECT_EQ(ret, nullptr) << "the thread was cancelled";
	EXPECT_TRUE(probe.loaded) << "cancelled inside rsa_key_load_pem (its primality test)";
	EXPECT_TRUE(probe.raw) << "cancelled inside rsa_private_raw (a fresh blinding pair)";
	EXPECT_TRUE(probe.batch) << "cancelled inside rsa_private_batch";
}

/* The exponentiation is given the blinded input, in r^e mod n for the
 * thread's pair, not the input itself (and the input itself with blinding
 * off), through rsa_private_raw and rsa_private_batch: a pair drawn and
 * not applied gives the same results, so only the base can tell. */
TEST(Blinding, TheExponentiationSeesTheBlindedInput)
{
	struct Recording {
		Recording() { g_recording = true; }
		~Recording() { g_recording = false; }
	} recording;
	bt::RefKey k;
	LOAD_REF_KEY(k, "rsa2048-e65537.pem");
	const size_t size = k.size;
	bt::Rng rng(47);
	auto random_input = [&] {
		std::vector<uint8_t> in(size);
		for (auto &x : in)
			x = (uint8_t)rng.next();
		in[0] = 0;
		return in;
	};
	auto hex_bytes = [](const std::vector<uint8_t> &b) {
		Mpz v;
		mpz_import(v, b.size(), 1, 1, 1, 0, b.data());
		return bt::hex(v);
	};
	for (int blinding : { 1, 0 }) {
		SCOPED_TRACE(blinding ? "blinding on" : "blinding off");
		ASSERT_EQ(rsa_key_set_blinding(k.key, blinding), RSA_OK);
		/* rsa_private_raw: the base is in * r^e mod n. */
		std::vector<uint8_t> in = random_input(), out(size);
		g_crt_bases.clear();
		ASSERT_EQ(rsa_private_raw(k.key, out.data(), in.data(), size), RSA_OK);
		ASSERT_EQ(g_crt_bases.size(), 1u);
		Mpz x, want;
		mpz_import(x, size, 1, 1, 1, 0, in.data());
		if (blinding) {
			std::vector<uint8_t> r_e(size), r_inv(size);
			ASSERT_EQ(rsa_blinding_pair_for_test(k.key, r_e.data(), r_inv.data()), RSA_OK);
			Mpz re;
			mpz_import(re, size, 1, 1, 1, 0, r_e.data());
			mpz_mul(want, x, re);
			mpz_mod(want, want, k.n);
		} else {
			mpz_set(want, x);
		}
		EXPECT_EQ(g_crt_bases[0], bt::hex(want)) << "rsa_private_raw's base";

		/* rsa_private_batch of eight: every base differs from its input
		 * with blinding, equals it without. */
		const int count = 8;
		std::vector<uint8_t> ins, outs(count * size);
		std::vector<std::string> in_hex;
		for (int i = 0; i < count; i++) {
			std::vector<uint8_t> one = random_input();
			in_hex.push_back(hex_bytes(one));
			ins.insert(ins.end(), one.begin(), one.end());
		}
		std::vector<const rsa_key *> keys(count, k.key);
		std::vector<int> status(count);
		g_crt_bases.clear();
		ASSERT_EQ(rsa_private_batch(keys.data(), outs.data(), ins.data(), size, count,
					    status.data(), nullptr, 0),
			  RSA_OK);
		ASSERT_EQ(g_crt_bases.size(), (size_t)count) << "one base per operation";
		for (int i = 0; i < count; i++) {
			const bool same = std::find(in_hex.begin(), in_hex.end(), g_crt_bases[i]) !=
					  in_hex.end();
			EXPECT_EQ(same, !blinding) << "operation " << i << "'s base";
		}
	}
	ASSERT_EQ(rsa_key_set_blinding(k.key, 1), RSA_OK);
}

} // namespace
