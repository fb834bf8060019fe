// bigmont-test: once
/*
 * Blinding of the RSA private operation (rsa/blinding.c), against GMP.
 *
 *  - rsa_blind's two outputs satisfy blinded * unblinder^e == in (mod n):
 *    blinded = in * r^e and unblinder = r^-1 for the same r, whatever r
 *    was; unblinder is invertible; two calls on the same input differ (a
 *    fresh r each time: equal outputs would mean r repeated).
 *  - rsa_unblind is x*unblinder mod n (big_mod_mul: tests/test_mont.cpp).
 *  - Through the API: blinding is on by default, can be switched per key,
 *    and rsa_private_raw gives GMP's in^d mod n with it on and off, for
 *    every test key size and exponent.
 * The moduli are RSA moduli (from the test keys, read by OpenSSL) and
 * random odd numbers (the code must not assume primes).
 */
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <bigmont/rsa.h>

#include "../rsa/blinding.h"

#include "ossl_key.h"
#include "testutil.h"

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
	bt::Rng rng(mpz_get_ui(n));
	std::set<std::string> seen;
	for (int i = 0; i < rounds; i++) {
		Mpz in;
		rng.mpz_bits(in, 1 + static_cast<int>(rng.below(mpz_sizeinbase(n, 2) - 1)));
		if (i == 0)
			mpz_set_ui(in, 0);
		if (i == 1)
			mpz_set_ui(in, 1);
		Big bin(in), blinded(1), unb(1);
		ASSERT_EQ(rsa_blind(&blinded.b, &unb.b, &bin.b, &be.b, &bn.b, n0, &rr.b), RSA_OK);
		Mpz zb, zu, check, g;
		bt::to_mpz(zb, &blinded.b);
		bt::to_mpz(zu, &unb.b);
		EXPECT_LT(mpz_cmp(zb, n), 0);
		EXPECT_LT(mpz_cmp(zu, n), 0);
		EXPECT_GT(mpz_sgn(zu.v), 0);
		mpz_gcd(g, zu, n);
		EXPECT_EQ(mpz_cmp_ui(g.v, 1), 0) << "unblinder not invertible";
		/* blinded * (r^-1)^e == in * r^e * r^-e == in. */
		mpz_powm(check, zu, e, n);
		mpz_mul(check, check, zb);
		mpz_mod(check, check, n);
		EXPECT_EQ(mpz_cmp(check, in), 0)
			<< "blinded * unblinder^e != in, n=" << bt::hex(n) << " in=" << bt::hex(in);
		/* A repeat among a few draws below a >= 64-bit n means r is not
		 * fresh (tiny moduli repeat by chance). */
		if (mpz_sizeinbase(n, 2) >= 64) {
			EXPECT_TRUE(seen.insert(bt::hex(zu)).second) << "the same r came twice";
		}

		/* Unblinding: x * unblinder mod n. */
		Mpz x, want, got;
		rng.mpz_bits(x, static_cast<int>(mpz_sizeinbase(n, 2)) - 1);
		Big bx(x), out(1);
		ASSERT_EQ(rsa_unblind(&out.b, &bx.b, &unb.b, &bn.b, n0, &rr.b), RSA_OK);
		mpz_mul(want, x, zu);
		mpz_mod(want, want, n);
		bt::to_mpz(got, &out.b);
		EXPECT_EQ(mpz_cmp(got, want), 0) << "rsa_unblind";
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

} // namespace
