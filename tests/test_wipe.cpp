// bigmont-test: once
/*
 * Secrets are wiped when memory is released.
 *
 *  - big_finish on a number living in a caller-owned buffer (big_init1)
 *    leaves every chunk the number used zero: the caller's memory is what
 *    we can look at after the fact, honestly, without reading freed heap.
 *  - Growing such a number out of the caller's buffer (big_extend past
 *    bufsize) must not leave the secret behind in that buffer.
 *  - rsa_key_free wipes every number of the key.  Freed heap cannot be
 *    read honestly, so the test moves each of the key's BIGNUMs into a
 *    test-owned buffer first (value = buffer, malloced = 0: exactly what
 *    big_init1 makes, which big_finish wipes but does not free), then calls
 *    the real rsa_key_free and reads the buffers.  A field rsa_key_free
 *    forgot, or finished without wiping, stays non-zero.  The secrets are
 *    also checked to be what OpenSSL reads from the same file (d, p, q,
 *    dp, dq, qinv: so the buffers held real secrets), and non-zero.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include <bigmont/rsa.h>

#include "../rsa/rsa_internal.h"
#include "internal.h"
#include "ossl_key.h"
#include "stack_scan.h"
#include "testutil.h"

namespace {

constexpr bt::chunk kPoison = static_cast<bt::chunk>(0xa5a5a5a5a5a5a5a5ULL);

bool all_zero(const bt::chunk *p, int n)
{
	return std::all_of(p, p + n, [](bt::chunk c) { return c == 0; });
}

TEST(Wipe, BigFinishZeroesCallerBuffer)
{
	bt::Rng rng(21);
	for (int size : {1, 2, 7, 32, 64}) {
		std::vector<bt::chunk> buf(static_cast<size_t>(size) + 4, kPoison);
		BIGNUM x;
		ASSERT_EQ(big_init1(&x, size, buf.data(), size), BIG_OK);
		ASSERT_EQ(x.value, buf.data()) << "big_init1 did not use the caller's buffer";
		ASSERT_EQ(x.malloced, 0);
		/* A secret value filling the number. */
		std::vector<uint8_t> secret(static_cast<size_t>(size) * BIG_CHUNK_BYTES);
		for (auto &b : secret)
			b = static_cast<uint8_t>(rng.next() | 1);
		ASSERT_EQ(bytestring2bignum(&x, secret.data(), secret.size()), BIG_OK);
		ASSERT_EQ(x.value, buf.data());
		ASSERT_FALSE(all_zero(buf.data(), size));
		const int used = x.size;
		big_finish(&x);
		EXPECT_TRUE(all_zero(buf.data(), used))
			<< "big_finish left secret chunks in the caller's buffer (size " << size << ")";
		/* Past what the number owned: untouched. */
		for (size_t i = static_cast<size_t>(used); i < buf.size(); i++)
			EXPECT_EQ(buf[i], kPoison) << "big_finish wrote past the number's buffer";
	}
}

TEST(Wipe, GrowingOutOfCallerBufferLeavesNothingBehind)
{
	bt::Rng rng(22);
	for (int size : {1, 3, 8}) {
		std::vector<bt::chunk> buf(static_cast<size_t>(size), kPoison);
		BIGNUM x;
		ASSERT_EQ(big_init1(&x, size, buf.data(), size), BIG_OK);
		std::vector<uint8_t> secret(static_cast<size_t>(size) * BIG_CHUNK_BYTES);
		for (auto &b : secret)
			b = static_cast<uint8_t>(rng.next() | 1);
		ASSERT_EQ(bytestring2bignum(&x, secret.data(), secret.size()), BIG_OK);
		/* Outgrow the buffer: the value moves to the heap. */
		ASSERT_EQ(big_extend(&x, 4 * size + 8), BIG_OK);
		EXPECT_NE(x.value, buf.data());
		EXPECT_TRUE(all_zero(buf.data(), size))
			<< "big_extend moved the value to the heap but left it in the caller's buffer";
		/* The value itself survived the move. */
		std::vector<uint8_t> back(secret.size());
		ASSERT_EQ(bignum2bytestring(back.data(), &x, back.size()), BIG_OK);
		EXPECT_EQ(back, secret);
		big_finish(&x);
	}
}

/* Move bn's value into a test-owned buffer (the original heap block is
 * wiped and freed here), so it can be read after big_finish. */
void adopt(BIGNUM *bn, std::vector<bt::chunk> &owned)
{
	ASSERT_NE(bn->value, nullptr);
	const std::vector<bt::chunk> saved(bn->value, bn->value + bn->size);
	const int len = bn->len, sign = bn->sign;
	big_finish(bn); /* the library's own copy: wiped and freed */
	owned = saved;
	ASSERT_EQ(big_init1(bn, static_cast<int>(owned.size()), owned.data(),
			    static_cast<int>(owned.size())), BIG_OK);
	ASSERT_EQ(bn->value, owned.data());
	ASSERT_EQ(bn->malloced, 0);
	/* big_init1 set the value to zero: put the key's chunks back. */
	std::copy(saved.begin(), saved.end(), owned.begin());
	bn->len = len;
	bn->sign = sign;
}

TEST(Wipe, KeyFreeWipesEveryNumber)
{
	for (const char *file : {"keys/rsa2048-e65537.pem", "keys/rsa1025-e3.p8.der",
				 "keys/rsa1024-ebig.pub.pem"}) {
		SCOPED_TRACE(file);
		std::string data = bt::read_data_file(file);
		bt::OsslKey ref;
		std::string error;
		ASSERT_TRUE(bt::ossl_read_key(data, &ref, &error)) << error;
		rsa_key *key = nullptr;
		char err[256] = "";
		int rc = data[0] == '-' ? rsa_key_load_pem(&key, data.data(), data.size(), err, sizeof(err))
				      : rsa_key_load_der(&key, reinterpret_cast<const uint8_t *>(data.data()),
							 data.size(), err, sizeof(err));
		ASSERT_EQ(rc, RSA_OK) << err;
		/* One decryption first, so nothing is wiped "because unused". */
		if (key->is_private) {
			std::vector<uint8_t> in(key->size, 0), out(key->size);
			in[key->size - 1] = 2;
			ASSERT_EQ(rsa_private_raw(key, out.data(), in.data(), key->size), RSA_OK);
		}

		struct Field {
			const char *name;
			BIGNUM *bn;
			const std::string *ref; /* OpenSSL's hex, or null */
		} fields[] = {
			{"n", &key->n, &ref.n},       {"e", &key->e, &ref.e},
			{"n_rr", &key->n_rr, nullptr}, {"d", &key->d, &ref.d},
			{"p", &key->p, &ref.p},       {"q", &key->q, &ref.q},
			{"dp", &key->dp, &ref.dp},    {"dq", &key->dq, &ref.dq},
			{"qinv", &key->qinv, &ref.qinv}, {"p_rr", &key->p_rr, nullptr},
			{"q_rr", &key->q_rr, nullptr},
		};
		std::vector<std::vector<bt::chunk>> owned(sizeof(fields) / sizeof(fields[0]));
		int secrets = 0;
		for (size_t i = 0; i < owned.size(); i++) {
			const Field &f = fields[i];
			if (f.bn->value == nullptr)
				continue; /* public key: no private fields */
			if (f.ref && !f.ref->empty()) {
				bt::Mpz got, want;
				bt::to_mpz(got, f.bn);
				mpz_set_str(want, f.ref->c_str(), 16);
				EXPECT_EQ(mpz_cmp(got, want), 0) << f.name << " differs from OpenSSL's";
			}
			adopt(f.bn, owned[i]);
			EXPECT_FALSE(all_zero(owned[i].data(), static_cast<int>(owned[i].size())))
				<< f.name << " is zero before the free";
			secrets += i >= 3;
		}
		EXPECT_EQ(secrets, key->is_private ? 8 : 0);
		rsa_key_free(key);
		for (size_t i = 0; i < owned.size(); i++)
			EXPECT_TRUE(all_zero(owned[i].data(), static_cast<int>(owned[i].size())))
				<< "rsa_key_free left " << fields[i].name << " in memory";
	}
}

/* The 64-bit words of `bytes` (a multiple of 8 long) as the bytes lie in
 * memory and as the number's chunks lie there (little-endian: the bytes
 * reversed), masked for the stack scan. */
std::vector<uint64_t> words_both_ways(const std::vector<uint8_t> &bytes)
{
	std::vector<uint64_t> w;
	const std::vector<uint8_t> rev(bytes.rbegin(), bytes.rend());
	for (const std::vector<uint8_t> *b : { &bytes, &rev })
		for (size_t i = 0; i + 8 <= b->size(); i += 8) {
			uint64_t v;
			std::memcpy(&v, b->data() + i, 8);
			w.push_back(v);
		}
	bt::mask_secrets(w);
	return w;
}

/* rsa_private_raw leaves its result on the stack neither as the bytes it
 * made them into nor as chunks (out is on the heap: what the scan finds,
 * the call left). */
TEST(Wipe, PrivateOperationLeavesNoResultOnTheStack)
{
	const std::string pem = bt::read_data_file("keys/rsa2048-e65537.pem");
	rsa_key *key = nullptr;
	char err[256] = "";
	ASSERT_EQ(rsa_key_load_pem(&key, pem.data(), pem.size(), err, sizeof(err)), RSA_OK) << err;
	const size_t size = rsa_key_size(key);
	bt::Rng rng(23);
	for (int blinding : { 1, 0 }) {
		ASSERT_EQ(rsa_key_set_blinding(key, blinding), RSA_OK);
		std::vector<uint8_t> in(size), out(size);
		for (auto &b : in)
			b = static_cast<uint8_t>(rng.next());
		in[0] = 0;
		bt::scrub_stack_below();
		ASSERT_EQ(rsa_private_raw(key, out.data(), in.data(), size), RSA_OK);
		EXPECT_FALSE(bt::stack_below_holds(words_both_ways(out)))
			<< "a word of the result left on the stack, blinding " << blinding;
	}
	rsa_key_free(key);
}

/* The portable Montgomery product wipes its row buffer: the result's words
 * (the top half of that buffer before the final subtraction) are not left
 * on the stack. */
TEST(Wipe, PortableMontgomeryProductLeavesNoStackCopy)
{
	bt::Rng rng(24);
	const int len = 16;
	for (int i = 0; i < 4; i++) {
		std::vector<bt::chunk> n(len), a(len), b(len), r(len);
		for (int j = 0; j < len; j++) {
			n[j] = static_cast<bt::chunk>(rng.next());
			a[j] = static_cast<bt::chunk>(rng.next());
			b[j] = static_cast<bt::chunk>(rng.next());
		}
		n[0] |= 1;
		n[len - 1] |= (bt::chunk)1 << (BIG_CHUNK_SIZE - 1);
		a[len - 1] >>= 1; /* a, b < n */
		b[len - 1] >>= 1;
		bt::scrub_stack_below();
		big_mont_mul_vec_c(r.data(), a.data(), b.data(), n.data(), big_n0(n[0]), len);
		std::vector<uint8_t> bytes(sizeof(bt::chunk) * len);
		std::memcpy(bytes.data(), r.data(), bytes.size());
		std::vector<uint64_t> w;
		for (size_t k = 0; k + 8 <= bytes.size(); k += 8) {
			uint64_t v;
			std::memcpy(&v, bytes.data() + k, 8);
			w.push_back(v);
		}
		bt::mask_secrets(w);
		EXPECT_FALSE(bt::stack_below_holds(w)) << "product " << i;
	}
}

} // namespace
