// bigmont-test: once
/*
 * rsa_key_from_numbers (rsa/key_numbers.c): a key built from its integers
 * behaves as the same key loaded from PEM, for every committed key
 * (tests/data/keys: 512 to 4096 bits, e = 3, 65537 and a 128-bit e), with
 * the numbers as OpenSSL reads them (an independent parser): size, bits,
 * public exponent, and rsa_private_raw / rsa_public_raw give the same
 * bytes on random inputs; leading zero bytes are accepted; a public key
 * from n and e alone; and the refusals -- a modulus out of range, a number
 * longer than n, e missing, a private key with some of its CRT numbers
 * and not all, and a key the checks refuse (the check's reason in err).
 * A private key of n, e and d alone gets its p and q recovered: the same
 * key, for every committed key; refused where d does not invert e or n is
 * no product of two primes.
 */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <bigmont/rsa.h>

#include "ossl_key.h"
#include "testutil.h"

namespace {

using Bytes = std::vector<uint8_t>;
using bt::Mpz;

Bytes from_hex(const std::string &hex)
{
	Bytes out;
	std::string h = hex.size() % 2 ? "0" + hex : hex;
	for (size_t i = 0; i < h.size(); i += 2)
		out.push_back((uint8_t)std::stoi(h.substr(i, 2), nullptr, 16));
	return out;
}

/* The numbers of a key file, as OpenSSL reads them. */
struct Numbers {
	Bytes n, e, d, p, q, dp, dq, qinv;
	rsa_key_numbers view() const
	{
		auto num = [](const Bytes &b) { return rsa_number{ b.empty() ? nullptr : b.data(), b.size() }; };
		return { num(n), num(e), num(d), num(p), num(q), num(dp), num(dq), num(qinv) };
	}
};

Numbers read_numbers(const std::string &pem)
{
	bt::OsslKey o;
	std::string error;
	EXPECT_TRUE(bt::ossl_read_key(pem, &o, &error)) << error;
	return { from_hex(o.n), from_hex(o.e), from_hex(o.d), from_hex(o.p),
		 from_hex(o.q), from_hex(o.dp), from_hex(o.dq), from_hex(o.qinv) };
}

struct Key {
	rsa_key *key = nullptr;
	int rc = 0;
	char err[256] = "";
	~Key() { rsa_key_free(key); }
};

void build(Key *k, const rsa_key_numbers &num)
{
	k->rc = rsa_key_from_numbers(&k->key, &num, k->err, sizeof(k->err));
}

class AllKeys : public ::testing::TestWithParam<int> {};

/* k random bytes, the first zero: below any modulus of k bytes. */
Bytes below_n(bt::Rng &rng, size_t k)
{
	Bytes in(k);
	for (auto &x : in)
		x = (uint8_t)rng.next();
	in[0] = 0;
	return in;
}

void check_same_key(const std::string &name)
{
	SCOPED_TRACE(name);
	std::string pem = bt::read_data_file("keys/" + name + ".pem");
	Key loaded, built, pub;
	ASSERT_EQ(rsa_key_load_pem(&loaded.key, pem.data(), pem.size(), loaded.err,
				   sizeof(loaded.err)), RSA_OK) << loaded.err;
	Numbers num = read_numbers(pem);
	build(&built, num.view());
	ASSERT_EQ(built.rc, RSA_OK) << built.err;
	ASSERT_NE(built.key, nullptr);
	EXPECT_TRUE(rsa_key_is_private(built.key));
	EXPECT_EQ(rsa_key_format(built.key), RSA_FORMAT_PKCS1_PRIVATE);
	EXPECT_EQ(rsa_key_size(built.key), rsa_key_size(loaded.key));
	EXPECT_EQ(rsa_key_bits(built.key), rsa_key_bits(loaded.key));
	uint8_t e1[64], e2[64];
	size_t l1 = rsa_key_public_exponent(built.key, e1, sizeof(e1));
	ASSERT_EQ(l1, rsa_key_public_exponent(loaded.key, e2, sizeof(e2)));
	EXPECT_EQ(Bytes(e1, e1 + l1), Bytes(e2, e2 + l1));

	Numbers public_only = num;
	public_only.d = public_only.p = public_only.q = Bytes();
	public_only.dp = public_only.dq = public_only.qinv = Bytes();
	/* and with leading zero bytes, which are allowed */
	public_only.n.insert(public_only.n.begin(), 3, 0);
	public_only.e.insert(public_only.e.begin(), 0);
	build(&pub, public_only.view());
	ASSERT_EQ(pub.rc, RSA_OK) << pub.err;
	EXPECT_FALSE(rsa_key_is_private(pub.key));
	EXPECT_EQ(rsa_key_format(pub.key), RSA_FORMAT_PKCS1_PUBLIC);

	const size_t k = rsa_key_size(loaded.key);
	bt::Rng rng(k);
	/* A few inputs: the arithmetic is test_rsa's; this is about the key. */
	for (long i = 0; i < bt::scaled(3); i++) {
		Bytes in = below_n(rng, k), a(k), b(k), c(k);
		ASSERT_EQ(rsa_private_raw(loaded.key, a.data(), in.data(), k), RSA_OK);
		ASSERT_EQ(rsa_private_raw(built.key, b.data(), in.data(), k), RSA_OK);
		EXPECT_EQ(a, b) << "private, input " << i;
		ASSERT_EQ(rsa_public_raw(loaded.key, a.data(), in.data(), k), RSA_OK);
		ASSERT_EQ(rsa_public_raw(pub.key, c.data(), in.data(), k), RSA_OK);
		EXPECT_EQ(a, c) << "public, input " << i;
		EXPECT_EQ(rsa_private_raw(pub.key, c.data(), in.data(), k), RSA_ERR_NOT_PRIVATE);
	}
}

TEST_P(AllKeys, SameAsLoadedFromPem)
{
	for (const char *e : { "e3", "e65537", "ebig" })
		check_same_key("rsa" + std::to_string(GetParam()) + "-" + e);
}

/* Big-endian bytes of a non-negative mpz, no leading zeros. */
Bytes bytes_of(const mpz_t v)
{
	Bytes out((mpz_sizeinbase(v, 2) + 7) / 8);
	size_t written = 0;
	mpz_export(out.data(), &written, 1, 1, 1, 0, v);
	out.resize(written);
	return out;
}

/* A private key of n, e and d alone: p, q and the CRT numbers recovered
 * (rsa/key_recover.c), the same key as the PEM's; with d + lambda(n) or
 * d - lambda(n) (another inverse of e) too.  Every size, every e up to
 * 2048 bits. */
TEST_P(AllKeys, FromNEAndDAlone)
{
	for (const char *e : { "e3", "e65537", "ebig" }) {
		/* The exponents' variety up to 2048 bits: a recovery of a
		 * 4096-bit key takes half a second in chunk32. */
		if (GetParam() > 2048 && std::string(e) != "e65537")
			continue;
		std::string name = "rsa" + std::to_string(GetParam()) + "-" + e;
		SCOPED_TRACE(name);
		std::string pem = bt::read_data_file("keys/" + name + ".pem");
		Key loaded;
		ASSERT_EQ(rsa_key_load_pem(&loaded.key, pem.data(), pem.size(), loaded.err,
					   sizeof(loaded.err)), RSA_OK) << loaded.err;
		Numbers num = read_numbers(pem);
		Numbers ned = num;
		ned.p = ned.q = ned.dp = ned.dq = ned.qinv = Bytes();
		Key built;
		build(&built, ned.view());
		ASSERT_EQ(built.rc, RSA_OK) << built.err;
		EXPECT_TRUE(rsa_key_is_private(built.key));
		EXPECT_EQ(rsa_key_format(built.key), RSA_FORMAT_PKCS1_PRIVATE);

		mpz_t p, q, d, lambda, t;
		mpz_inits(p, q, d, lambda, t, nullptr);
		mpz_import(p, num.p.size(), 1, 1, 1, 0, num.p.data());
		mpz_import(q, num.q.size(), 1, 1, 1, 0, num.q.data());
		mpz_import(d, num.d.size(), 1, 1, 1, 0, num.d.data());
		mpz_sub_ui(lambda, p, 1);
		mpz_sub_ui(t, q, 1);
		mpz_lcm(lambda, lambda, t);
		mpz_add(t, d, lambda);
		if (bytes_of(t).size() > num.n.size())
			mpz_sub(t, d, lambda);
		Numbers other = ned;
		other.d = bytes_of(t);
		mpz_clears(p, q, d, lambda, t, nullptr);
		Key other_d;
		build(&other_d, other.view());
		ASSERT_EQ(other_d.rc, RSA_OK) << other_d.err;

		const size_t k = rsa_key_size(loaded.key);
		bt::Rng rng(k);
		for (long i = 0; i < bt::scaled(2); i++) {
			Bytes in = below_n(rng, k), a(k), b(k), c(k);
			ASSERT_EQ(rsa_private_raw(loaded.key, a.data(), in.data(), k), RSA_OK);
			ASSERT_EQ(rsa_private_raw(built.key, b.data(), in.data(), k), RSA_OK);
			ASSERT_EQ(rsa_private_raw(other_d.key, c.data(), in.data(), k), RSA_OK);
			EXPECT_EQ(a, b) << "input " << i;
			EXPECT_EQ(a, c) << "input " << i << ", d +- lambda(n)";
		}
	}
}

INSTANTIATE_TEST_SUITE_P(Sizes, AllKeys, ::testing::Values(512, 1024, 1025, 1536, 2047, 2048, 3072, 4096));

TEST(KeyNumbers, Refusals)
{
	Numbers good = read_numbers(bt::read_data_file("keys/rsa1024-e65537.pem"));
	struct Case {
		const char *what;
		Numbers num;
		int rc;
		const char *reason;
	};
	std::vector<Case> cases;
	auto with = [&](const char *what, int rc, const char *reason, auto change) {
		Numbers n = good;
		change(n);
		cases.push_back({ what, n, rc, reason });
	};
	with("n of 256 bits", RSA_ERR_FORMAT, "256 bits", [](Numbers &n) { n.n.resize(32); });
	with("n of zero", RSA_ERR_FORMAT, "0 bits", [](Numbers &n) { n.n.assign(128, 0); });
	with("no e", RSA_ERR_FORMAT, "public exponent e is missing", [](Numbers &n) { n.e.clear(); });
	with("d longer than n", RSA_ERR_FORMAT, "d is longer than the modulus",
	     [](Numbers &n) { n.d.insert(n.d.begin(), 1); });
	with("no qinv", RSA_ERR_FORMAT, "without qinv", [](Numbers &n) { n.qinv.clear(); });
	with("no p", RSA_ERR_FORMAT, "without p", [](Numbers &n) { n.p.clear(); });
	with("wrong dp", RSA_ERR_KEY_CHECK, "dp != d mod (p-1)", [](Numbers &n) { n.dp.back() ^= 2; });
	with("wrong qinv", RSA_ERR_KEY_CHECK, "qInv", [](Numbers &n) { n.qinv.back() ^= 2; });
	with("p*q != n", RSA_ERR_KEY_CHECK, "p*q != n", [](Numbers &n) { n.n.back() ^= 2; });
	with("even e", RSA_ERR_KEY_CHECK, "e is even", [](Numbers &n) { n.e.back() ^= 1; });
	with("d of zero", RSA_ERR_FORMAT, "the private exponent d is zero",
	     [](Numbers &n) { n.d.assign(4, 0); });
	with("CRT numbers without d", RSA_ERR_FORMAT, "p given without the private exponent d",
	     [](Numbers &n) { n.d.clear(); });
	/* Each of rsa_key_check's refusals, by its message. */
	auto mpz_of = [](Mpz &z, const Bytes &b) { mpz_import(z, b.size(), 1, 1, 1, 0, b.data()); };
	with("qinv + p", RSA_ERR_KEY_CHECK, "(qInv >= p)", [&](Numbers &n) {
		Mpz qinv, p;
		mpz_of(qinv, n.qinv);
		mpz_of(p, n.p);
		mpz_add(qinv, qinv, p);
		n.qinv = bytes_of(qinv);
	});
	with("d + p - 1: dp still d mod (p-1), e d no longer 1 mod q-1", RSA_ERR_KEY_CHECK,
	     "e*dq != 1 (mod q-1)", [&](Numbers &n) {
		     Mpz d, p, q;
		     mpz_of(d, n.d);
		     mpz_of(p, n.p);
		     mpz_of(q, n.q);
		     mpz_add(d, d, p);
		     mpz_sub_ui(d, d, 1);
		     mpz_sub_ui(q, q, 1);
		     n.d = bytes_of(d);
		     mpz_mod(d, d, q);
		     n.dq = bytes_of(d);
	     });
	with("e = n + 2", RSA_ERR_KEY_CHECK, "e is not less than n", [&](Numbers &n) {
		Mpz e;
		mpz_of(e, n.n);
		mpz_add_ui(e, e, 2);
		n.e = bytes_of(e);
	});
	with("p = 1, q = n", RSA_ERR_KEY_CHECK, "a prime factor (p or q) is 1", [](Numbers &n) {
		n.q = n.n;
		n.p = Bytes{ 1 };
	});
	with("q = p, n = p^2", RSA_ERR_KEY_CHECK, "p == q", [&](Numbers &n) {
		Mpz p;
		mpz_of(p, n.p);
		mpz_mul(p, p, p);
		n.n = bytes_of(p);
		n.q = n.p;
	});
	with("a public key with n even", RSA_ERR_KEY_CHECK, "the modulus n is even",
	     [](Numbers &n) {
		     n.d = n.p = n.q = n.dp = n.dq = n.qinv = Bytes();
		     n.n.back() ^= 1;
	     });
	auto crt_cleared = [](Numbers &n) { n.p = n.q = n.dp = n.dq = n.qinv = Bytes(); };
	with("n, e and an even d", RSA_ERR_KEY_CHECK, "d does not invert e (d e - 1 is odd)",
	     [&](Numbers &n) {
		     crt_cleared(n);
		     n.d.back() ^= 1;
	     });
	with("n, e and a wrong odd d", RSA_ERR_KEY_CHECK, "d does not invert e (g^(d e - 1)",
	     [&](Numbers &n) {
		     crt_cleared(n);
		     n.d.back() ^= 2;
	     });
	with("n, e and d, n even", RSA_ERR_KEY_CHECK, "the modulus n is even", [&](Numbers &n) {
		crt_cleared(n);
		n.n.back() ^= 1;
	});
	with("n, e and d, e even", RSA_ERR_KEY_CHECK, "the public exponent e is even",
	     [&](Numbers &n) {
		     crt_cleared(n);
		     n.e.back() ^= 1;
	     });
	with("CRT numbers given as zero bytes", RSA_ERR_FORMAT, "the private key's p is zero",
	     [](Numbers &n) { n.p = n.q = n.dp = n.dq = n.qinv = Bytes{ 0 }; });
	with("n, e, d and p alone", RSA_ERR_FORMAT, "without q: give all of the CRT numbers",
	     [](Numbers &n) { n.q = n.dp = n.dq = n.qinv = Bytes(); });
	{
		/* n a prime (d e = 1 mod n - 1) and n a product of three primes
		 * (d e = 1 mod lambda(n)): d inverts e, yet no two primes. */
		bt::Rng rng(77);
		mpz_t n, e, d, t, f;
		mpz_inits(n, e, d, t, f, nullptr);
		mpz_set_ui(e, 65537);
		for (int primes : { 1, 3 }) {
			do {
				mpz_set_ui(n, 1);
				mpz_set_ui(t, 1);
				for (int i = 0; i < primes; i++) {
					rng.mpz_prime(f, 1024 / primes);
					mpz_mul(n, n, f);
					mpz_sub_ui(f, f, 1);
					mpz_lcm(t, t, f);
				}
			} while (mpz_sizeinbase(n, 2) < 1000 || !mpz_invert(d, e, t));
			Numbers bad;
			bad.n = bytes_of(n);
			bad.e = bytes_of(e);
			bad.d = bytes_of(d);
			cases.push_back({ primes == 1 ? "n prime" : "n of three primes", bad,
					  RSA_ERR_KEY_CHECK,
					  primes == 1 ? "(n is prime)" : "is not prime" });
		}
		/* n = p^2 and p^3, d e = 1 mod lambda(n) = p^(j-1) (p - 1): no
		 * base splits them; told apart before the bases are tried, so
		 * refused at once, not after every base. */
		for (int j : { 2, 3 }) {
			rng.mpz_prime(f, 1024 / j);
			mpz_pow_ui(n, f, (unsigned long)j);
			mpz_pow_ui(t, f, (unsigned long)j - 1);
			mpz_sub_ui(f, f, 1);
			mpz_mul(t, t, f);
			if (!mpz_invert(d, e, t))
				continue;
			Numbers bad;
			bad.n = bytes_of(n);
			bad.e = bytes_of(e);
			bad.d = bytes_of(d);
			cases.push_back({ j == 2 ? "n = p^2" : "n = p^3", bad, RSA_ERR_KEY_CHECK,
					  j == 2 ? "p and q share a factor" : "is not prime" });
		}
		mpz_clears(n, e, d, t, f, nullptr);
	}
	for (const Case &c : cases) {
		SCOPED_TRACE(c.what);
		Key k;
		build(&k, c.num.view());
		EXPECT_EQ(k.rc, c.rc) << k.err;
		EXPECT_EQ(k.key, nullptr);
		EXPECT_NE(std::string(k.err).find(c.reason), std::string::npos) << k.err;
	}
	rsa_key *key = reinterpret_cast<rsa_key *>(1);
	EXPECT_EQ(rsa_key_from_numbers(&key, nullptr, nullptr, 0), RSA_ERR_ARGS);
	EXPECT_EQ(key, nullptr) << "on failure *key is NULL, the argument checks included";
	EXPECT_EQ(rsa_key_from_numbers(nullptr, nullptr, nullptr, 0), RSA_ERR_ARGS);
	key = reinterpret_cast<rsa_key *>(1);
	EXPECT_EQ(rsa_key_load_pem(&key, nullptr, 5, nullptr, 0), RSA_ERR_ARGS);
	EXPECT_EQ(key, nullptr);
	key = reinterpret_cast<rsa_key *>(1);
	EXPECT_EQ(rsa_key_load_der(&key, nullptr, 5, nullptr, 0), RSA_ERR_ARGS);
	EXPECT_EQ(key, nullptr);
	EXPECT_EQ(rsa_key_format(nullptr), 0);
	EXPECT_EQ(rsa_key_size(nullptr), 0u);
}

/* A number with a length and NULL bytes is misuse: a d so given is not
 * read as absent (which would make a public key of a private one). */
TEST(KeyNumbers, NullBytesWithALengthRefused)
{
	Numbers good = read_numbers(bt::read_data_file("keys/rsa1024-e65537.pem"));
	for (int field = 0; field < 8; field++) {
		rsa_key_numbers num = good.view();
		rsa_number *const f[] = { &num.n, &num.e, &num.d, &num.p,
					  &num.q, &num.dp, &num.dq, &num.qinv };
		f[field]->bytes = nullptr;
		Key k;
		build(&k, num);
		EXPECT_EQ(k.rc, RSA_ERR_ARGS) << "field " << field << ": " << k.err;
		EXPECT_EQ(k.key, nullptr);
		EXPECT_NE(std::string(k.err).find("and no bytes (NULL)"), std::string::npos) << k.err;
	}
	/* len 0 is absent, NULL or not: n, e, d alone still make a key. */
	rsa_key_numbers num = good.view();
	num.p = num.q = num.dp = num.dq = num.qinv = rsa_number{ nullptr, 0 };
	Key k;
	build(&k, num);
	EXPECT_EQ(k.rc, RSA_OK) << k.err;
	EXPECT_EQ(rsa_key_is_private(k.key), 1);
}

} // namespace
