// bigmont-test: once
/*
 * rsa_private_batch (rsa/private_batch.c) against rsa_private_raw on the
 * same keys and inputs, with each lane build forced in turn
 * (BIGMONT_BATCH=c, =avx2 where the CPU has AVX2, =avx512 where it has
 * AVX-512F, =fma where it has AVX2 and FMA and =ifma where it has AVX-512
 * IFMA: radix 2^52, bignum/lanes/lanes52.h) and unset (the
 * library's own choice by CPU and key size): the batch path's own
 * code does not depend on the chunk-kernel variant, so the suite runs once.
 *
 * - Every RSA size the test keys have (512 .. 4096, and 1025 and 2047
 *   bits, whose unequal primes run singly), counts 1 .. 9 (full batches,
 *   partial ones, remainders run singly), inputs 0, 1, n-1, random and
 *   the same input in several lanes; blinding on and off; in == out.
 *   Scaled down by BIGMONT_TEST_SCALE: fewer counts and in-place repeats,
 *   every size and every count at 1024 bits kept.
 * - How a count splits into big_modexp_crt_batch calls (eight a call, a
 *   remainder's operations past four only where they reach partial_min),
 *   seen through the linker's --wrap of that entry.
 * - Several keys of one size in one batch.
 * - Bad input: count 0, NULL pointers, scratch too small, len 0; per
 *   operation a NULL key, a public key, a key of another size and an input
 *   not below n get their status, keep their output untouched and leave
 *   the others correct.
 * - A faulty lane: a key with a wrong dp (tests/data/bad/wrong-dp.pem,
 *   loaded past the checks) in each of two batches of good ones (whose
 *   fault checks run together in eight lanes on IFMA) fails alone with
 *   RSA_ERR_FAULT, its output untouched.
 * - With the caller's scratch and blinding off, nothing is allocated, the
 *   operations run singly included (rsa.h); malloc counted by the
 *   linker's --wrap (tests/CMakeLists.txt), whose positive control is
 *   rsa_private_raw's one allocation.
 */
#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bigmont/bignum.h>
#include <bigmont/rsa.h>

#include "../rsa/rsa_internal.h"
#include "scoped_env.h"
#include "testutil.h"

/* Every malloc of this executable's objects and static libraries (the
 * linker's --wrap=malloc): counted, then passed on, or refused while
 * malloc_fails is set (around one call of the library). */
static std::atomic<long> mallocs{ 0 };
static std::atomic<bool> malloc_fails{ false };
extern "C" void *__real_malloc(size_t size);
extern "C" void *__wrap_malloc(size_t size)
{
	mallocs.fetch_add(1, std::memory_order_relaxed);
	if (malloc_fails.load(std::memory_order_relaxed))
		return nullptr;
	return __real_malloc(size);
}

/* The operations of each big_modexp_crt_batch call, recorded while
 * g_recording (one test sets it on its own thread: others run batches
 * in several threads at once). */
static std::atomic<bool> g_recording{ false };
static std::vector<int> g_batch_counts;
extern "C" BIG_ERR_CODE __real_big_modexp_crt_batch(const big_crt_batch_op *ops, int count,
						    void *scratch, size_t scratch_size);
extern "C" BIG_ERR_CODE __wrap_big_modexp_crt_batch(const big_crt_batch_op *ops, int count,
						    void *scratch, size_t scratch_size)
{
	if (g_recording)
		g_batch_counts.push_back(count);
	return __real_big_modexp_crt_batch(ops, count, scratch, scratch_size);
}

namespace {

using Bytes = std::vector<uint8_t>;

struct KeyHolder {
	rsa_key *key = nullptr;
	KeyHolder() = default;
	KeyHolder(const KeyHolder &) = delete;
	KeyHolder &operator=(const KeyHolder &) = delete;
	~KeyHolder() { rsa_key_free(key); }
};

void load(KeyHolder &h, const std::string &relative, bool checked = true)
{
	const std::string pem = bt::read_data_file(relative);
	ASSERT_FALSE(pem.empty()) << relative;
	char err[256] = "";
	const int rc = checked ? rsa_key_load_pem(&h.key, pem.data(), pem.size(), err, sizeof(err))
			       : rsa_key_load_unchecked_for_test(
					 &h.key, reinterpret_cast<const uint8_t *>(pem.data()),
					 pem.size(), err, sizeof(err));
	ASSERT_EQ(rc, RSA_OK) << relative << ": " << err;
}

/* A random input below n (big-endian, len bytes), or 0, 1, n-1. */
Bytes input(const rsa_key *key, bt::Rng &rng, int kind)
{
	const size_t len = rsa_key_size(key);
	Bytes n(len);
	Bytes x(len, 0);
	memcpy(n.data(), key->n_bytes, len);
	if (kind == 0)
		return x;
	if (kind == 1) {
		x[len - 1] = 1;
		return x;
	}
	if (kind == 2) {
		x = n;
		for (size_t i = len; i-- > 0;)
			if (x[i]-- != 0)
				break;
		return x;
	}
	for (size_t i = 0; i < len; i++)
		x[i] = static_cast<uint8_t>(rng.next());
	x[0] = static_cast<uint8_t>(x[0] % (n[0] == 0 ? 1 : n[0]));
	return x;
}

using bt::BatchEnv;

const char *kernel_name(const char *kernel)
{
	return kernel != nullptr ? kernel : "default";
}

std::vector<const char *> kernels()
{
	std::vector<const char *> v{ "c" };
	BatchEnv env("avx2");
	if (std::string(big_crt_batch_kernel()) == "avx2")
		v.push_back("avx2");
	BatchEnv avx512("avx512");
	if (std::string(big_crt_batch_kernel()) == "avx512")
		v.push_back("avx512");
	BatchEnv fma("fma");
	if (std::string(big_crt_batch_kernel()) == "fma")
		v.push_back("fma");
	BatchEnv fma512("fma512");
	if (std::string(big_crt_batch_kernel()) == "fma512")
		v.push_back("fma512");
	BatchEnv ifma("ifma");
	if (std::string(big_crt_batch_kernel()) == "ifma")
		v.push_back("ifma");
	return v;
}

/* Each operation's output and status against rsa_private_raw's. */
void expect_matches_raw(const std::vector<const rsa_key *> &keys, const Bytes &in, const Bytes &out,
			const std::vector<int> &status, size_t len, const std::string &what)
{
	for (size_t i = 0; i < keys.size(); i++) {
		Bytes want(len, 0);
		ASSERT_EQ(rsa_private_raw(keys[i], want.data(), in.data() + i * len, len), RSA_OK);
		EXPECT_EQ(status[i], RSA_OK) << what << " op " << i;
		EXPECT_EQ(Bytes(out.begin() + static_cast<long>(i * len),
				out.begin() + static_cast<long>((i + 1) * len)),
			  want)
			<< what << " op " << i;
	}
}

/* rsa_private_batch of in's blocks, all on one key, into out (as big as
 * in) with the caller's scratch; each result checked against
 * rsa_private_raw. */
void batch_on_one_key(const rsa_key *key, const Bytes &in, size_t len, Bytes &out,
		      std::vector<uint8_t> &scratch, const std::string &what)
{
	const size_t count = in.size() / len;
	std::vector<const rsa_key *> keys(count, key);
	std::vector<int> status(count, 99);
	ASSERT_EQ(rsa_private_batch(keys.data(), out.data(), in.data(), len, count, status.data(),
				    scratch.data(), scratch.size()),
		  RSA_OK)
		<< what;
	expect_matches_raw(keys, in, out, status, len, what);
}

TEST(RsaBatch, MatchesPrivateRawAtEverySize)
{
	bt::Rng rng(0xba7c4001);
	/* BIGMONT_TEST_SCALE below 1 (the sanitizer build's 0.05): every
	 * size, and every count at 1024 bits, with fewer repetitions: count
	 * 7 alone at the other sizes (a full batch, a partial one, every
	 * input kind), and the in-place repeat once a size, up to 2048 bits
	 * (the same code at every size). */
	const bool reduced = bt::scaled(100) < 100;
	std::vector<const char *> choices = kernels();
	choices.push_back(nullptr); /* what the library takes unasked, by size */
	for (const char *kernel : choices) {
		BatchEnv env(kernel);
		for (int bits : { 512, 1024, 1025, 1536, 2047, 2048, 3072, 4096 }) {
			/* The library's own choice changes at RSA-1024 only (the
			 * lanes' smallest key size); above, it is the forced
			 * builds' path. */
			if (kernel == nullptr && bits > 2048)
				continue;
			KeyHolder h;
			load(h, "keys/rsa" + std::to_string(bits) + "-e65537.pem");
			const size_t len = rsa_key_size(h.key);
			/* Equal prime lengths take the batch path; 1025 and 2047
			 * bits (primes of unequal chunk lengths, or not) may not. */
			if (bits % 512 == 0) {
				EXPECT_NE(big_crt_batch_len(&h.key->q, &h.key->p), 0) << bits;
			}
			std::vector<size_t> counts{ 4, 7 };
			if (reduced)
				counts = { 7 };
			if (bits == 1024)
				counts = { 1, 2, 3, 4, 5, 6, 8, 9 };
			/* The C lanes are slow: one partial batch at the big sizes. */
			if (bits >= 3072 && std::string(kernel_name(kernel)) == "c")
				counts = { 3 };
			std::vector<uint8_t> scratch(rsa_private_batch_scratch_size(len));
			for (size_t count : counts) {
				const std::string what = std::string(kernel_name(kernel)) + " RSA-" +
							 std::to_string(bits) +
							 " count " + std::to_string(count);
				Bytes in;
				for (size_t i = 0; i < count; i++) {
					const Bytes x = i == 5 ? Bytes(in.begin(), in.begin() + static_cast<long>(len))
							       : input(h.key, rng, static_cast<int>(i % 4 == 3 ? 3 : i % 4));
					in.insert(in.end(), x.begin(), x.end());
				}
				Bytes out(in.size(), 0x5c);
				batch_on_one_key(h.key, in, len, out, scratch, what);
				if (reduced && (count != counts.back() || bits > 2048))
					continue;
				/* in == out, unblinded, scratch allocated by the call. */
				std::vector<const rsa_key *> keys(count, h.key);
				std::vector<int> status(count, 99);
				ASSERT_EQ(rsa_key_set_blinding(h.key, 0), RSA_OK);
				Bytes io = in;
				ASSERT_EQ(rsa_private_batch(keys.data(), io.data(), io.data(), len, count,
							    status.data(), nullptr, 0),
					  RSA_OK)
					<< what;
				ASSERT_EQ(rsa_key_set_blinding(h.key, 1), RSA_OK);
				EXPECT_EQ(io, out) << what << ": in place, unblinded";
			}
		}
	}
}

/* Where a remainder runs, seen in the caller's scratch: the lanes work
 * in all of it and wipe it (zero bytes); single operations work and wipe
 * only at its start, in at most big_modexp_crt_scratch_chunks(n's chunks)
 * past its 64-byte alignment, and leave the rest as it was.
 * One operation always runs singly; two run in lanes only on the IFMA
 * lanes, and there not at RSA-3072 and 4096, whose single operation is
 * faster (rsa/private_batch.c: partial_min); three run in
 * lanes wherever lanes run unasked, below RSA-1024 only on the IFMA lanes
 * (lanes_min_bits) or where BIGMONT_BATCH names a build. */
TEST(RsaBatch, RemaindersRunInLanesWhereThatCostsLess)
{
	bt::Rng rng(0xba7c4005);
	const std::string lanes = big_crt_batch_kernel();
	const bool forced = big_crt_batch_forced() != nullptr;
	for (int bits : { 512, 1024, 1536, 2048, 3072 }) {
		KeyHolder h;
		load(h, "keys/rsa" + std::to_string(bits) + "-e65537.pem");
		const size_t len = rsa_key_size(h.key);
		for (size_t count : { 1, 2, 3 }) {
			const std::string what = lanes + " RSA-" + std::to_string(bits) + " count " +
						 std::to_string(count);
			std::vector<uint8_t> scratch(rsa_private_batch_scratch_size(len), 0xa5);
			Bytes in;
			for (size_t i = 0; i < count; i++) {
				const Bytes x = input(h.key, rng, 3);
				in.insert(in.end(), x.begin(), x.end());
			}
			Bytes out(in.size(), 0);
			batch_on_one_key(h.key, in, len, out, scratch, what);
			const size_t nch = (8 * len + BIG_CHUNK_SIZE - 1) / BIG_CHUNK_SIZE;
			const size_t singles_end =
				64 + sizeof(BIG_CHUNK_TYPE) *
					     big_modexp_crt_scratch_chunks(static_cast<int>(nch));
			ASSERT_LT(singles_end, scratch.size()) << what;
			size_t zero = 0;
			for (size_t i = singles_end; i < scratch.size(); i++)
				zero += scratch[i] == 0;
			const bool size_ok = bits >= 1024 || lanes == "ifma" || forced;
			const bool in_lanes =
				lanes != "none" && size_ok &&
				(count >= 3 || (count == 2 && lanes == "ifma" && bits < 3072));
			if (in_lanes)
				EXPECT_GE(zero, 8 * len) << what << ": not in lanes";
			else
				EXPECT_EQ(zero, 0u) << what << ": not singly";
		}
	}
}

/* How rsa_private_batch splits a count into batch calls: eight a call,
 * then the remainder in one call where it reaches partial_min, but its
 * operations past a first group of four only where those reach it too
 * (a group costs the same for one to four), the rest singly: at RSA-1024
 * partial_min is 2 on the IFMA lanes and 3 on the others; the results
 * checked against rsa_private_raw. */
TEST(RsaBatch, RemaindersPastFourJoinWherePartialMinAllows)
{
	bt::Rng rng(0xba7c4006);
	const std::string lanes = big_crt_batch_kernel();
	if (lanes == "none")
		GTEST_SKIP() << "skipped: no lane build runs unasked here";
	const int pmin = lanes == "ifma" ? 2 : 3;
	KeyHolder h;
	load(h, "keys/rsa1024-e65537.pem");
	const size_t len = rsa_key_size(h.key);
	struct Recording {
		Recording() { g_recording = true; }
		~Recording() { g_recording = false; }
	} recording;
	for (int count = 1; count <= 2 * BIG_CRT_BATCH_MAX + 1; count++) {
		const std::string what = lanes + " count " + std::to_string(count);
		std::vector<int> want(static_cast<size_t>(count / BIG_CRT_BATCH_MAX),
				      BIG_CRT_BATCH_MAX);
		const int rest = count % BIG_CRT_BATCH_MAX;
		const int run = rest > BIG_CRT_BATCH_GROUP && rest - BIG_CRT_BATCH_GROUP < pmin
					? BIG_CRT_BATCH_GROUP
					: rest;
		if (run >= pmin)
			want.push_back(run);
		Bytes in;
		for (int i = 0; i < count; i++) {
			const Bytes x = input(h.key, rng, 3);
			in.insert(in.end(), x.begin(), x.end());
		}
		Bytes out(in.size(), 0);
		std::vector<uint8_t> scratch(rsa_private_batch_scratch_size(len));
		g_batch_counts.clear();
		batch_on_one_key(h.key, in, len, out, scratch, what);
		EXPECT_EQ(g_batch_counts, want) << what;
	}
}

TEST(RsaBatch, SeveralKeysInOneBatch)
{
	bt::Rng rng(0xba7c4002);
	KeyHolder a, b, c;
	load(a, "keys/rsa2048-e65537.pem");
	load(b, "keys/rsa2048-e3.pem");
	load(c, "keys/rsa2048-ebig.pem");
	for (const char *kernel : kernels()) {
		BatchEnv env(kernel);
		std::vector<const rsa_key *> keys{ a.key, b.key, c.key, a.key, c.key, b.key, b.key };
		const size_t len = 256;
		Bytes in;
		for (size_t i = 0; i < keys.size(); i++) {
			const Bytes x = input(keys[i], rng, 3);
			in.insert(in.end(), x.begin(), x.end());
		}
		Bytes out(in.size());
		std::vector<int> status(keys.size());
		ASSERT_EQ(rsa_private_batch(keys.data(), out.data(), in.data(), len, keys.size(),
					    status.data(), nullptr, 0),
			  RSA_OK);
		expect_matches_raw(keys, in, out, status, len, kernel);
	}
}

TEST(RsaBatch, BadInputGetsItsStatusAndNothingElse)
{
	bt::Rng rng(0xba7c4003);
	KeyHolder k2048, k1024, pub;
	load(k2048, "keys/rsa2048-e65537.pem");
	load(k1024, "keys/rsa1024-e65537.pem");
	load(pub, "keys/rsa2048-e65537.pub.pem");
	const size_t len = 256;
	std::vector<uint8_t> scratch(rsa_private_batch_scratch_size(len));
	Bytes in(len * 8), out(len * 8, 0x77);
	std::vector<int> status(8, 99);
	const rsa_key *one[1] = { k2048.key };

	/* Whole-call refusals write no status. */
	EXPECT_EQ(rsa_private_batch(one, out.data(), in.data(), len, 0, status.data(), nullptr, 0),
		  RSA_ERR_ARGS);
	EXPECT_EQ(rsa_private_batch(nullptr, out.data(), in.data(), len, 1, status.data(), nullptr, 0),
		  RSA_ERR_ARGS);
	EXPECT_EQ(rsa_private_batch(one, nullptr, in.data(), len, 1, status.data(), nullptr, 0),
		  RSA_ERR_ARGS);
	EXPECT_EQ(rsa_private_batch(one, out.data(), nullptr, len, 1, status.data(), nullptr, 0),
		  RSA_ERR_ARGS);
	EXPECT_EQ(rsa_private_batch(one, out.data(), in.data(), len, 1, nullptr, nullptr, 0),
		  RSA_ERR_ARGS);
	EXPECT_EQ(rsa_private_batch(one, out.data(), in.data(), len, 1, status.data(),
				    scratch.data(), scratch.size() - 1),
		  RSA_ERR_ARGS);
	EXPECT_EQ(rsa_private_batch(one, out.data(), in.data(), 0, 1, status.data(), nullptr, 0),
		  RSA_ERR_LENGTH);
	/* count * len past SIZE_MAX: refused before any byte is read. */
	EXPECT_EQ(rsa_private_batch(one, out.data(), in.data(), len, SIZE_MAX / len + 1,
				    status.data(), scratch.data(), scratch.size()),
		  RSA_ERR_ARGS);
	/* No scratch given and none to allocate. */
	malloc_fails = true;
	const int no_mem = rsa_private_batch(one, out.data(), in.data(), len, 1, status.data(),
					     nullptr, 0);
	malloc_fails = false;
	EXPECT_EQ(no_mem, RSA_ERR_NO_MEM);
	EXPECT_EQ(rsa_private_batch_scratch_size(0), 0u);
	EXPECT_EQ(status[0], 99) << "a refused call writes no status";
	EXPECT_EQ(out, Bytes(len * 8, 0x77));

	for (const char *kernel : kernels()) {
		BatchEnv env(kernel);
		/* ops 1..4 fail, the other four form a batch around them. */
		std::vector<const rsa_key *> keys{ k2048.key, nullptr,   pub.key,   k1024.key,
						   k2048.key, k2048.key, k2048.key, k2048.key };
		for (size_t i = 0; i < keys.size(); i++) {
			const Bytes x = input(k2048.key, rng, 3);
			std::copy(x.begin(), x.end(), in.begin() + static_cast<long>(i * len));
		}
		memcpy(in.data() + 4 * len, k2048.key->n_bytes, len); /* in == n */
		const Bytes untouched(len * 8, 0x77);
		out = untouched;
		std::fill(status.begin(), status.end(), 99);
		EXPECT_EQ(rsa_private_batch(keys.data(), out.data(), in.data(), len, keys.size(),
					    status.data(), scratch.data(), scratch.size()),
			  RSA_ERR_ARGS)
			<< "the first failed operation's status";
		EXPECT_EQ(status[1], RSA_ERR_ARGS);
		EXPECT_EQ(status[2], RSA_ERR_NOT_PRIVATE);
		EXPECT_EQ(status[3], RSA_ERR_LENGTH);
		EXPECT_EQ(status[4], RSA_ERR_RANGE);
		for (size_t i = 1; i <= 4; i++)
			EXPECT_EQ(Bytes(out.begin() + static_cast<long>(i * len),
					out.begin() + static_cast<long>((i + 1) * len)),
				  Bytes(len, 0x77))
				<< kernel << " op " << i << " output touched";
		for (size_t i : { 0, 5, 6, 7 }) {
			Bytes want(len);
			ASSERT_EQ(rsa_private_raw(k2048.key, want.data(), in.data() + i * len, len), RSA_OK);
			EXPECT_EQ(status[i], RSA_OK) << kernel << " op " << i;
			EXPECT_EQ(Bytes(out.begin() + static_cast<long>(i * len),
					out.begin() + static_cast<long>((i + 1) * len)),
				  want)
				<< kernel << " op " << i;
		}
	}
}

TEST(RsaBatch, FaultyLaneFailsAlone)
{
	bt::Rng rng(0xba7c4004);
	KeyHolder good, bad;
	load(good, "keys/rsa1024-e65537.pem");
	load(bad, "bad/wrong-dp.pem", false);
	const size_t len = 128;
	ASSERT_EQ(rsa_key_size(bad.key), len);
	for (const char *kernel : kernels()) {
		BatchEnv env(kernel);
		for (int blinding : { 1, 0 }) {
			ASSERT_EQ(rsa_key_set_blinding(good.key, blinding), RSA_OK);
			ASSERT_EQ(rsa_key_set_blinding(bad.key, blinding), RSA_OK);
			/* Two groups of four (their checks together where the
			 * lanes take them), then one operation singly. */
			std::vector<const rsa_key *> keys{ good.key, good.key, bad.key,  good.key, good.key,
							   good.key, bad.key,  good.key, good.key };
			Bytes in;
			for (size_t i = 0; i < keys.size(); i++) {
				const Bytes x = input(good.key, rng, 3);
				in.insert(in.end(), x.begin(), x.end());
			}
			const Bytes untouched(in.size(), 0x33);
			Bytes out = untouched;
			std::vector<int> status(keys.size(), 99);
			EXPECT_EQ(rsa_private_batch(keys.data(), out.data(), in.data(), len, keys.size(),
						    status.data(), nullptr, 0),
				  RSA_ERR_FAULT);
			for (size_t i : { 2, 6 }) {
				EXPECT_EQ(status[i], RSA_ERR_FAULT) << kernel << " op " << i;
				EXPECT_EQ(Bytes(out.begin() + static_cast<long>(i * len),
						out.begin() + static_cast<long>((i + 1) * len)),
					  Bytes(len, 0x33))
					<< kernel << ": the faulty lane " << i << " released its output";
			}
			for (size_t i : { 0, 1, 3, 4, 5, 7, 8 }) {
				Bytes want(len);
				ASSERT_EQ(rsa_private_raw(good.key, want.data(), in.data() + i * len, len),
					  RSA_OK);
				EXPECT_EQ(status[i], RSA_OK) << kernel << " op " << i;
				EXPECT_EQ(Bytes(out.begin() + static_cast<long>(i * len),
						out.begin() + static_cast<long>((i + 1) * len)),
					  want)
					<< kernel << " op " << i;
			}
		}
	}
}

} // namespace

/* rsa.h: "scratch: ... of the caller's ... Nothing else is allocated, but
 * a fresh blinding pair every 32 uses."  The operations a batch runs
 * singly (remainders, primes of different lengths) too. */
/* With the caller's scratch, no allocation, and no result left in it. */
TEST(RsaBatch, CallersScratchMeansNoAllocation)
{
	for (const char *name : { "keys/rsa2048-e65537.pem", "keys/rsa1024-e65537.pem",
				  "keys/rsa1025-e3.pem", "keys/rsa4096-e65537.pem" }) {
		SCOPED_TRACE(name);
		KeyHolder h;
		load(h, name);
		ASSERT_EQ(rsa_key_set_blinding(h.key, 0), RSA_OK);
		const size_t len = rsa_key_size(h.key);
		bt::Rng rng(0xa110c0);
		Bytes x = input(h.key, rng, 3), y(len);
		long before = mallocs.load();
		ASSERT_EQ(rsa_private_raw(h.key, y.data(), x.data(), len), RSA_OK);
		ASSERT_GE(mallocs.load() - before, 1) << "the control: malloc is not counted";
		std::vector<uint8_t> scratch(rsa_private_batch_scratch_size(len));
		for (size_t count = 1; count <= 9; count++) {
			Bytes in(count * len), out(count * len);
			for (size_t i = 0; i < count; i++) {
				const Bytes one = input(h.key, rng, 3);
				std::copy(one.begin(), one.end(), in.begin() + static_cast<long>(i * len));
			}
			std::vector<const rsa_key *> keys(count, h.key);
			std::vector<int> status(count, 99);
			before = mallocs.load();
			ASSERT_EQ(rsa_private_batch(keys.data(), out.data(), in.data(), len, count,
						    status.data(), scratch.data(), scratch.size()),
				  RSA_OK);
			EXPECT_EQ(mallocs.load() - before, 0) << count << " operations";
			expect_matches_raw(keys, in, out, status, len,
					   std::to_string(count) + " operations");
			/* No result left in the caller's scratch, as bytes or in
			 * chunks (little-endian: the bytes reversed). */
			for (size_t i = 0; i < count; i++) {
				const uint8_t *mid = out.data() + i * len + len / 2 - 16;
				Bytes be(mid, mid + 32), le(be.rbegin(), be.rend());
				for (const Bytes *w : { &be, &le })
					EXPECT_EQ(memmem(scratch.data(), scratch.size(), w->data(),
							 w->size()),
						  nullptr)
						<< "operation " << i << " of " << count
						<< "'s result in the scratch";
			}
		}
	}
}

/* The scratch queries answer 0 for a length no key has, at either end of
 * int's range too, without overflowing (the asan preset runs this under
 * UBSan), and a size that grows with the length for the lengths keys have. */
/* big_modexp_crt_batch grows a result BIGNUM on the caller's buffer
 * before any work; where that allocation fails the call is BIG_NO_MEM
 * and no result's value changes (bignum.h), the other result included. */
TEST(RsaBatch, AResultThatCannotGrowFailsTheBatchWhole)
{
	KeyHolder k;
	load(k, "keys/rsa1024-e65537.pem");
	if (HasFatalFailure())
		return;
	const rsa_key *key = k.key;
	/* The key's (q, p, qInv) are big_modexp_crt's (p, q, pinv), as
	 * rsa/private.c passes them. */
	const int len = big_crt_batch_len(&key->q, &key->p);
	ASSERT_GT(len, 0);
	std::vector<uint8_t> scratch(big_crt_batch_scratch(len));
	BIGNUM a, whole, single;
	ASSERT_EQ(big_init(&a, 1), BIG_OK);
	ASSERT_EQ(big_init(&whole, 2 * len), BIG_OK);
	ASSERT_EQ(big_init(&single, 2 * len), BIG_OK);
	ASSERT_EQ(big_set_chunk(&a, 12345), BIG_OK);
	ASSERT_EQ(big_modexp_crt(&single, &a, &key->dq, &key->dp, &key->q, &key->p, &key->qinv,
				 &key->q_rr, &key->p_rr),
		  BIG_OK);
	for (const char *kernel : kernels()) {
		SCOPED_TRACE(kernel);
		BatchEnv env(kernel);
		BIG_CHUNK_TYPE buf[2];
		BIGNUM small;
		ASSERT_EQ(big_init1(&small, 2, buf, 2), BIG_OK);
		ASSERT_EQ(big_set_chunk(&small, 7), BIG_OK);
		ASSERT_EQ(big_set_chunk(&whole, 5), BIG_OK);
		big_crt_batch_op ops[2];
		for (int i = 0; i < 2; i++)
			ops[i] = { i ? &small : &whole, &a,	   &key->dq,   &key->dp,  &key->q,
				   &key->p,		&key->qinv, &key->q_rr, &key->p_rr, nullptr, nullptr, nullptr };
		malloc_fails = true;
		const BIG_ERR_CODE no_mem =
			big_modexp_crt_batch(ops, 2, scratch.data(), scratch.size());
		malloc_fails = false;
		EXPECT_EQ(no_mem, BIG_NO_MEM);
		EXPECT_EQ(small.value, buf);
		EXPECT_EQ(small.len, 1);
		EXPECT_EQ(small.value[0], (BIG_CHUNK_TYPE)7);
		EXPECT_EQ(whole.len, 1);
		EXPECT_EQ(whole.value[0], (BIG_CHUNK_TYPE)5);
		ASSERT_EQ(big_modexp_crt_batch(ops, 2, scratch.data(), scratch.size()), BIG_OK);
		EXPECT_EQ(small.malloced, 1);
		EXPECT_EQ(big_cmp_abs(&small, &single), 0);
		EXPECT_EQ(big_cmp_abs(&whole, &single), 0);
		big_finish(&small);
	}
	big_finish(&a);
	big_finish(&whole);
	big_finish(&single);
}

TEST(RsaBatch, ScratchQueriesRefuseLengthsNoKeyHas)
{
	for (int len : { INT_MIN, -1, 0, BIG_MAX_MODULUS_CHUNKS + 1, INT_MAX }) {
		SCOPED_TRACE(len);
		EXPECT_EQ(big_crt_batch_scratch(len), 0u);
		EXPECT_EQ(big_modexp_crt_scratch_chunks(len), 0u);
		EXPECT_EQ(big_public_batch_scratch(len), 0u);
	}
	EXPECT_EQ(rsa_private_batch_scratch_size(0), 0u);
	EXPECT_EQ(rsa_private_batch_scratch_size(RSA_KEY_MAX_BITS / 8 + 1), 0u);
	size_t before = 0;
	for (int nlen = 1; nlen <= BIG_MAX_MODULUS_CHUNKS; nlen++) {
		const size_t now = big_modexp_crt_scratch_chunks(nlen);
		EXPECT_GE(now, before) << nlen;
		before = now;
	}
	EXPECT_GT(before, 0u);
	const int half2048 = 1024 / BIG_CHUNK_SIZE;
	BIGNUM p;
	ASSERT_EQ(big_init(&p, half2048), BIG_OK);
	p.len = half2048;
	EXPECT_EQ(big_crt_batch_len(&p, &p), half2048);
	EXPECT_GT(big_crt_batch_scratch(half2048), 0u);
	big_finish(&p);
}
