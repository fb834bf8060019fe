/*
 * The RSA layer against OpenSSL and GMP, for every committed key
 * (tests/data/keys: 512 to 4096 bits, e = 3, 65537 and a 128-bit e):
 *
 *  - every format loads (PKCS #1 and PKCS #8 private in PEM and DER, SPKI
 *    and PKCS #1 public in PEM) with n, e, size, bits and format as OpenSSL
 *    reads them;
 *  - rsa_private_raw on 0, 1, n-1 and random inputs (random density) equals
 *    mpz_powm(c, d, n) and OpenSSL's EVP_PKEY_decrypt with RSA_NO_PADDING;
 *    rsa_public_raw equals mpz_powm(m, e, n), from private and public keys;
 *    in == out aliasing; with blinding on (the default) and off (.der
 *    forms and a test of its own);
 *  - input >= n and wrong lengths are refused with out untouched;
 *  - the fault check: a key with a wrong dp, loaded through the unchecked
 *    test hook, gives RSA_ERR_FAULT and leaves out untouched (and a wrong
 *    result when the check is switched off, proving the hook bites);
 *  - the private operations' stack stays within RSA_STACK_BYTES.
 */
#include <gtest/gtest.h>

#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <bigmont/rsa.h>

#include "../rsa/rsa_internal.h"
#include "ossl_key.h"
#include "testutil.h"

namespace {

using Bytes = std::vector<uint8_t>;

Bytes to_bytes(const mpz_t v, size_t size)
{
	Bytes out(size, 0);
	size_t count = 0, need = (mpz_sizeinbase(v, 2) + 7) / 8;
	if (mpz_sgn(v) != 0)
		mpz_export(out.data() + (size - need), &count, 1, 1, 1, 0, v);
	return out;
}

void from_bytes(mpz_t out, const Bytes &b)
{
	mpz_import(out, b.size(), 1, 1, 1, 0, b.data());
}

struct KeyRef {
	std::string name, pem;
	bt::Mpz n, e, d;
};

void read_ref(KeyRef &k, const std::string &name)
{
	k.name = name;
	k.pem = bt::read_data_file("keys/" + name + ".pem");
	ASSERT_FALSE(k.pem.empty());
	bt::OsslKey o;
	std::string error;
	ASSERT_TRUE(bt::ossl_read_key(k.pem, &o, &error)) << error;
	ASSERT_EQ(mpz_set_str(k.n, o.n.c_str(), 16), 0);
	ASSERT_EQ(mpz_set_str(k.e, o.e.c_str(), 16), 0);
	ASSERT_EQ(mpz_set_str(k.d, o.d.c_str(), 16), 0);
}

struct KeyHolder {
	rsa_key *key = nullptr;
	~KeyHolder() { rsa_key_free(key); }
};

/* Load tests/data/keys/<file> as PEM or DER by its suffix. */
rsa_key *load(const std::string &file, std::string *why)
{
	std::string data = bt::read_data_file("keys/" + file);
	char err[256] = "";
	rsa_key *key = nullptr;
	bool der = file.size() > 4 && file.compare(file.size() - 4, 4, ".der") == 0;
	int rc = der ? rsa_key_load_der(&key, reinterpret_cast<const uint8_t *>(data.data()),
					data.size(), err, sizeof(err))
		     : rsa_key_load_pem(&key, data.data(), data.size(), err, sizeof(err));
	if (rc != RSA_OK)
		*why = file + ": " + rsa_strerror(rc) + ": " + err;
	return key;
}

/* tests/data/keys/<name>.pem loaded into h, and OpenSSL's reading of it. */
void load_with_ref(const std::string &name, KeyRef &ref, KeyHolder &h)
{
	read_ref(ref, name);
	std::string why;
	h.key = load(name + ".pem", &why);
	ASSERT_NE(h.key, nullptr) << why;
}

void expect_public_matches(const rsa_key *key, const KeyRef &ref, const std::string &file)
{
	SCOPED_TRACE(file);
	size_t k = (mpz_sizeinbase(ref.n, 2) + 7) / 8;
	EXPECT_EQ(rsa_key_size(key), k);
	EXPECT_EQ(rsa_key_bits(key), static_cast<int>(mpz_sizeinbase(ref.n, 2)));
	uint8_t e[64];
	size_t elen = rsa_key_public_exponent(key, e, sizeof(e));
	ASSERT_GT(elen, 0u);
	bt::Mpz got;
	from_bytes(got, Bytes(e, e + elen));
	EXPECT_EQ(mpz_cmp(got, ref.e), 0);
	EXPECT_EQ(rsa_key_public_exponent(key, e, elen - 1), 0u) << "short buffer must give 0";
	EXPECT_EQ(rsa_key_fault_check(key), 1);
	EXPECT_EQ(rsa_key_blinding(key), 1); /* on by default */
}

/* Inputs: 0, 1, n-1, then random ones below n. */
void input_at(mpz_t m, int i, const KeyRef &ref, bt::Rng &rng)
{
	if (i == 0)
		mpz_set_ui(m, 0);
	else if (i == 1)
		mpz_set_ui(m, 1);
	else if (i == 2)
		mpz_sub_ui(m, ref.n, 1);
	else {
		rng.mpz_bits(m, 1 + static_cast<int>(rng.below(mpz_sizeinbase(ref.n, 2))));
		mpz_mod(m, m, ref.n);
	}
}

void check_key(int bits, const char *e)
{
	KeyRef ref;
	const std::string name = "rsa" + std::to_string(bits) + "-e" + e;
	SCOPED_TRACE(name);
	read_ref(ref, name);
	const size_t k = (mpz_sizeinbase(ref.n, 2) + 7) / 8;
	bt::Rng rng(static_cast<uint64_t>(bits) * 7919 + e[0]);

	struct Format {
		const char *suffix;
		bool priv;
		int format;
	} formats[] = {
		{ ".pem", true, RSA_FORMAT_PKCS1_PRIVATE },
		{ ".p8.pem", true, RSA_FORMAT_PKCS8_PRIVATE },
		{ ".der", true, RSA_FORMAT_PKCS1_PRIVATE },
		{ ".p8.der", true, RSA_FORMAT_PKCS8_PRIVATE },
		{ ".pub.pem", false, RSA_FORMAT_SPKI_PUBLIC },
		{ ".rsapub.pem", false, RSA_FORMAT_PKCS1_PUBLIC },
	};
	const long randoms = bt::scaled(bits > 2048 ? 2 : 4);
	for (const Format &f : formats) {
		std::string why;
		KeyHolder h;
		h.key = load(name + f.suffix, &why);
		ASSERT_NE(h.key, nullptr) << why;
		expect_public_matches(h.key, ref, name + f.suffix);
		EXPECT_EQ(rsa_key_is_private(h.key), f.priv ? 1 : 0);
		if (!strcmp(f.suffix, ".der")) { /* the unblinded path too */
			ASSERT_EQ(rsa_key_set_blinding(h.key, 0), RSA_OK);
		}
		EXPECT_EQ(rsa_key_format(h.key), f.format) << f.suffix;

		/* The full set of inputs on the first private and first public
		 * form, one random input on the others. */
		const bool full = !strcmp(f.suffix, ".pem") || !strcmp(f.suffix, ".pub.pem");
		const long count = full ? 3 + randoms : 1;
		for (long i = 0; i < count; i++) {
			bt::Mpz m, c;
			input_at(m, full ? static_cast<int>(i) : 3, ref, rng);
			mpz_powm(c, m, ref.e, ref.n);
			const Bytes mb = to_bytes(m, k), cb = to_bytes(c, k);
			Bytes out(k, 0xa5);
			ASSERT_EQ(rsa_public_raw(h.key, out.data(), mb.data(), k), RSA_OK);
			EXPECT_EQ(out, cb) << "public op, input " << i;
			if (!f.priv) {
				EXPECT_EQ(rsa_private_raw(h.key, out.data(), cb.data(), k),
					  RSA_ERR_NOT_PRIVATE);
				continue;
			}
			/* Private op vs GMP's c^d mod n (an independent path to m). */
			bt::Mpz want;
			mpz_powm(want, c, ref.d, ref.n);
			ASSERT_EQ(mpz_cmp(want, m), 0);
			ASSERT_EQ(rsa_private_raw(h.key, out.data(), cb.data(), k), RSA_OK);
			EXPECT_EQ(out, mb) << "private op, input " << i;
			/* ... and vs OpenSSL on the first few. */
			if (full && i < 4) {
				Bytes ossl;
				std::string error;
				ASSERT_TRUE(bt::ossl_rsa_decrypt_raw(ref.pem, cb, &ossl, &error)) << error;
				EXPECT_EQ(out, ossl) << "OpenSSL differs, input " << i;
			}
			/* in == out. */
			Bytes io = cb;
			ASSERT_EQ(rsa_private_raw(h.key, io.data(), io.data(), k), RSA_OK);
			EXPECT_EQ(io, mb);
		}
	}
}

class AllKeys : public ::testing::TestWithParam<int> {};

/* Where BIGMONT_TEST_SCALE is below 1 (the sanitizer, chunk64 and
 * emulated aarch64 presets), e = 3 and the big e run up to RSA-2048 only:
 * what e changes (the fault check's exponent, the key's numbers) does
 * not depend on the size, and above it these took a third of test_rsa
 * under ASan (chunk64-asm's entries run every one). */
bool e_at_every_size(int bits)
{
	return bits <= 2048 || bt::scaled(100) >= 100;
}

TEST_P(AllKeys, E3)
{
	if (!e_at_every_size(GetParam()))
		GTEST_SKIP() << "BIGMONT_TEST_SCALE below 1: e = 65537 alone above RSA-2048";
	check_key(GetParam(), "3");
}
TEST_P(AllKeys, E65537) { check_key(GetParam(), "65537"); }
TEST_P(AllKeys, EBig)
{
	if (!e_at_every_size(GetParam()))
		GTEST_SKIP() << "BIGMONT_TEST_SCALE below 1: e = 65537 alone above RSA-2048";
	check_key(GetParam(), "big");
}

INSTANTIATE_TEST_SUITE_P(Rsa, AllKeys,
			 ::testing::Values(512, 1024, 1025, 1536, 2047, 2048, 3072, 4096));

TEST(Rsa, RangeAndLengthRefusedOutUntouched)
{
	KeyRef ref;
	KeyHolder h;
	ASSERT_NO_FATAL_FAILURE(load_with_ref("rsa1025-e65537", ref, h));
	const size_t k = rsa_key_size(h.key);
	ASSERT_EQ(k, 129u);
	bt::Mpz v;
	const Bytes untouched(k + 1, 0x5c);
	auto refused = [&](const Bytes &in, size_t len, int want) {
		Bytes out = untouched;
		EXPECT_EQ(rsa_private_raw(h.key, out.data(), in.data(), len), want);
		EXPECT_EQ(out, untouched);
		EXPECT_EQ(rsa_public_raw(h.key, out.data(), in.data(), len), want);
		EXPECT_EQ(out, untouched);
	};
	refused(to_bytes(ref.n, k), k, RSA_ERR_RANGE); /* n itself */
	mpz_add_ui(v, ref.n, 1);
	refused(to_bytes(v, k), k, RSA_ERR_RANGE);
	refused(Bytes(k, 0xff), k, RSA_ERR_RANGE);
	Bytes small(k + 1, 0);
	small[k] = 1;
	refused(small, k - 1, RSA_ERR_LENGTH);
	refused(small, k + 1, RSA_ERR_LENGTH);
	refused(small, 0, RSA_ERR_LENGTH);
	EXPECT_EQ(rsa_private_raw(nullptr, small.data(), small.data(), k), RSA_ERR_ARGS);
	EXPECT_EQ(rsa_public_raw(h.key, nullptr, small.data(), k), RSA_ERR_ARGS);
}

TEST(Rsa, UnblindedGivesTheSameResults)
{
	KeyRef ref;
	KeyHolder h;
	ASSERT_NO_FATAL_FAILURE(load_with_ref("rsa2048-e65537", ref, h));
	ASSERT_EQ(rsa_key_set_blinding(h.key, 0), RSA_OK);
	ASSERT_EQ(rsa_key_blinding(h.key), 0);
	bt::Rng rng(42);
	for (int i = 0; i < 3 + bt::scaled(3); i++) {
		bt::Mpz m, c;
		input_at(m, i, ref, rng);
		mpz_powm(c, m, ref.e, ref.n);
		Bytes out(256);
		ASSERT_EQ(rsa_private_raw(h.key, out.data(), to_bytes(c, 256).data(), 256), RSA_OK);
		EXPECT_EQ(out, to_bytes(m, 256)) << i;
	}
}

/* A key of tests/data/bad that the checks refuse: loaded checked, it must
 * fail with RSA_ERR_KEY_CHECK and the reason is returned; loaded past the
 * checks into h, it must load. */
std::string refused_then_loaded_unchecked(const std::string &file, KeyHolder &h)
{
	const std::string bad = bt::read_data_file("bad/" + file);
	EXPECT_FALSE(bad.empty());
	char err[256] = "";
	rsa_key *checked = nullptr;
	EXPECT_EQ(rsa_key_load_pem(&checked, bad.data(), bad.size(), err, sizeof(err)),
		  RSA_ERR_KEY_CHECK);
	EXPECT_EQ(checked, nullptr);
	const std::string reason = err;
	EXPECT_EQ(rsa_key_load_unchecked_for_test(&h.key, reinterpret_cast<const uint8_t *>(bad.data()),
						  bad.size(), err, sizeof(err)),
		  RSA_OK)
		<< err;
	return reason;
}

/* A key whose dp is wrong (make-bad.sh's wrong-dp.pem: dp ^ 2), loaded past
 * the checks: the CRT half mod p is wrong, out^e != in, so RSA_ERR_FAULT. */
TEST(Rsa, FaultCheckCatchesWrongCrtHalf)
{
	KeyRef ref;
	read_ref(ref, "rsa1024-e65537");
	KeyHolder h;
	const std::string reason = refused_then_loaded_unchecked("wrong-dp.pem", h);
	EXPECT_NE(reason.find("dp"), std::string::npos) << reason;
	ASSERT_NE(h.key, nullptr);
	bt::Rng rng(7);
	for (int i = 3; i < 3 + bt::scaled(4); i++) {
		bt::Mpz m, c;
		input_at(m, i, ref, rng);
		mpz_powm(c, m, ref.e, ref.n);
		const Bytes cb = to_bytes(c, 128), untouched(128, 0x33);
		Bytes out = untouched;
		EXPECT_EQ(rsa_private_raw(h.key, out.data(), cb.data(), 128), RSA_ERR_FAULT);
		EXPECT_EQ(out, untouched);
		Bytes io = cb;
		EXPECT_EQ(rsa_private_raw(h.key, io.data(), io.data(), 128), RSA_ERR_FAULT);
		EXPECT_EQ(io, cb);
		/* Without the check the faulty value comes out. */
		ASSERT_EQ(rsa_key_set_fault_check(h.key, 0), RSA_OK);
		EXPECT_EQ(rsa_private_raw(h.key, out.data(), cb.data(), 128), RSA_OK);
		EXPECT_NE(out, to_bytes(m, 128));
		ASSERT_EQ(rsa_key_set_fault_check(h.key, 1), RSA_OK);
	}
}

/* A prime factor that is a product of two primes, with d, dp, dq and qInv
 * consistent with it (make-bad.sh's composite-p.pem and composite-q.pem):
 * only the primality test refuses it.  Loaded past the checks, every
 * private operation fails the fault check, whose message names the key as
 * a possible cause. */
TEST(Rsa, CompositePrimeRefusedAtLoad)
{
	for (const char *factor : { "p", "q" }) {
		SCOPED_TRACE(factor);
		KeyHolder h;
		EXPECT_EQ(refused_then_loaded_unchecked(std::string("composite-") + factor + ".pem", h),
			  std::string("key check failed: ") + factor + " is not prime");
		ASSERT_NE(h.key, nullptr);
		Bytes in(128, 0x21), out(128, 0);
		in[0] = 0; /* below n */
		EXPECT_EQ(rsa_private_raw(h.key, out.data(), in.data(), 128), RSA_ERR_FAULT);
	}
	EXPECT_NE(std::string(rsa_strerror(RSA_ERR_FAULT)).find("the key or the hardware may be at fault"),
		  std::string::npos);
}

TEST(Rsa, PemWithSurroundingTextAndFreeNull)
{
	std::string pem = "Some text before\n" + bt::read_data_file("keys/rsa512-e3.pem") +
			  "and after\n";
	rsa_key *key = nullptr;
	char err[256] = "";
	ASSERT_EQ(rsa_key_load_pem(&key, pem.data(), pem.size(), err, sizeof(err)), RSA_OK)
		<< err;
	EXPECT_EQ(rsa_key_bits(key), 512);
	rsa_key_free(key);
	rsa_key_free(nullptr);
	EXPECT_STREQ(rsa_key_format_name(RSA_FORMAT_SPKI_PUBLIC),
		     "SubjectPublicKeyInfo PUBLIC KEY");
}

} // namespace

/* rsa.h promises the private operations at most RSA_STACK_BYTES of the
 * caller's stack at every key size.  Each runs on a thread whose stack is
 * painted first; the deepest byte changed is what it used (the thread's
 * own start-up included).  The sanitizers' instrumented frames and an
 * unoptimised build's are larger (rsa.h: the bound is an optimised
 * build's): there the figure is printed, not held to. */
struct StackRun {
	const rsa_key *key;
	bool batch;
	int rc;
};

void *stack_run(void *arg)
{
	auto *run = static_cast<StackRun *>(arg);
	const size_t k = rsa_key_size(run->key);
	constexpr int count = 8;
	std::vector<uint8_t> in(count * k, 0), out(count * k);
	for (int i = 0; i < count; i++)
		in[i * k + k - 1] = static_cast<uint8_t>(2 + i);
	if (run->batch) {
		const rsa_key *keys[count];
		int status[count];
		for (auto &key : keys)
			key = run->key;
		run->rc = rsa_private_batch(keys, out.data(), in.data(), k, count, status, nullptr, 0);
	} else {
		run->rc = rsa_private_raw(run->key, out.data(), in.data(), k);
	}
	return nullptr;
}

TEST(Rsa, PrivateOperationsStayWithinRsaStackBytes)
{
	constexpr size_t painted = 512 * 1024;
	constexpr unsigned char paint = 0xa5;
	std::vector<unsigned char> stack(painted + 4096);
	unsigned char *base = reinterpret_cast<unsigned char *>(
		(reinterpret_cast<uintptr_t>(stack.data()) + 4095) & ~uintptr_t(4095));
	size_t most = 0;
	for (const char *name : { "rsa512-e65537", "rsa1024-e65537", "rsa2047-e65537",
				  "rsa2048-e65537", "rsa3072-e65537", "rsa4096-e65537" }) {
		std::string why;
		KeyHolder h;
		h.key = load(std::string(name) + ".pem", &why);
		ASSERT_NE(h.key, nullptr) << why;
		for (bool batch : { false, true }) {
			SCOPED_TRACE(std::string(name) + (batch ? ", rsa_private_batch" : ", rsa_private_raw"));
			std::fill(base, base + painted, paint);
			pthread_attr_t attr;
			ASSERT_EQ(pthread_attr_init(&attr), 0);
			ASSERT_EQ(pthread_attr_setstack(&attr, base, painted), 0);
			StackRun run = { h.key, batch, -1 };
			pthread_t thread;
			ASSERT_EQ(pthread_create(&thread, &attr, stack_run, &run), 0);
			ASSERT_EQ(pthread_join(thread, nullptr), 0);
			pthread_attr_destroy(&attr);
			EXPECT_EQ(run.rc, RSA_OK);
			size_t untouched = 0;
			while (untouched < painted && base[untouched] == paint)
				untouched++;
			const size_t used = painted - untouched;
			most = std::max(most, used);
#if defined(BIGMONT_TEST_LIBRARY_OPTIMISED) /* tests/CMakeLists.txt */
			EXPECT_LE(used, size_t(RSA_STACK_BYTES));
#endif
		}
	}
	std::printf("the private operations used at most %zu bytes of stack (RSA_STACK_BYTES %d)\n",
		    most, RSA_STACK_BYTES);
}
