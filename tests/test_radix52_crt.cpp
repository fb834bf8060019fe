/*
 * The radix-2^52 CRT path against GMP, once per kernel variant (the
 * reduction of the base into each prime runs on the variant's kernels):
 * big_modexp_crt_r52 through the twin and, where the CPU has AVX-512 IFMA,
 * the IFMA build (the emulated IFMA build is checked at every RSA size by
 * tests/test_radix52.cpp).
 *
 * - The committed keys of 1024..4096 bits with e = 3 and 65537, in both
 *   orientations (p > q and p < q), inputs 0 mod p, 0 mod q, 0, 1, n-1 and
 *   random, vs mpz_powm; R^2 given and computed inside.
 * - Random primes of equal chunk length, some of unequal bit length, at
 *   the RSA sizes and at sizes between (the run-time-k bodies).
 * - big_r52_ct_base_pow (big_modexp_ct_base's path, one modulus) at 16
 *   and 32 chunks: the committed keys' n and random odd moduli of those
 *   lengths, full and shorter; bases 0, 1, n-1, n, all-ones and random up
 *   to 2^(64 len) - 1; exponents 0, 1, 2, 3, 65537 and random, vs
 *   mpz_powm; out == a.
 * - Unequal chunk lengths are refused; big_modexp_crt_path follows the
 *   variant (radix52-ifma only in the ifma variant, for equal primes of
 *   7 to 32 chunks).
 */
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "ossl_key.h"
#include "radix52/builds.h"
#include "testutil.h"

namespace {

using bt::Mpz;
using r52t::Build;

#if BIG_CHUNK_SIZE == 64

using bt::Big;

class Radix52Crt : public ::testing::TestWithParam<Build> {
protected:
	const big_r52_ops &ops() const { return GetParam().ops; }
};

/* The twin, and the IFMA build only where it runs: the variant entries
 * must not pass over a skipped instance (the ifma variant's entry is
 * skipped visibly where the CPU lacks it). */
std::vector<Build> builds()
{
	std::vector<Build> v = { r52t::twin() };
	for (const Build &b : r52t::ifma())
		if (b.runnable)
			v.push_back(b);
	return v;
}

void set_hex(mpz_t z, const std::string &h)
{
	ASSERT_EQ(mpz_set_str(z, h.c_str(), 16), 0) << h;
}

/* big_modexp_crt_r52 vs GMP on (p, q, pinv = p^-1 mod q); false on a
 * mismatch. */
bool crt_matches(const big_r52_ops &ops, const mpz_t a, const mpz_t dp, const mpz_t dq,
		 const mpz_t p, const mpz_t q, const char *what)
{
	Mpz pinv, wp, wq, n, got, gp, gq;
	EXPECT_NE(mpz_invert(pinv, p, q), 0);
	mpz_powm(wp, a, dp, p);
	mpz_powm(wq, a, dq, q);
	mpz_mul(n, p, q);
	Big ba(a), bdp(dp), bdq(dq), bp(p), bq(q), bpinv(pinv), prr(1), qrr(1), out(1);
	EXPECT_EQ(big_mont_rr(&prr.b, &bp.b), BIG_OK);
	EXPECT_EQ(big_mont_rr(&qrr.b, &bq.b), BIG_OK);
	const BIG_ERR_CODE err = big_modexp_crt_r52(&out.b, &ba.b, &bdp.b, &bdq.b, &bp.b, &bq.b,
						    &bpinv.b, &prr.b, &qrr.b, &ops);
	bt::to_mpz(got, &out.b);
	mpz_mod(gp, got, p);
	mpz_mod(gq, got, q);
	const bool ok = err == BIG_OK && mpz_cmp(gp, wp) == 0 && mpz_cmp(gq, wq) == 0 &&
			mpz_cmp(got, n) < 0;
	EXPECT_TRUE(ok) << what << ": err " << err << "\n p " << bt::hex(p) << "\n q "
			<< bt::hex(q) << "\n a " << bt::hex(a) << "\n got " << bt::hex(got);
	return ok;
}

/* The committed key rsa<bits>-<e>.pem, read by OpenSSL; *name its file. */
void read_committed_key(int bits, const char *e, bt::OsslKey *key, std::string *name)
{
	*name = "rsa" + std::to_string(bits) + "-" + e + ".pem";
	std::string error;
	ASSERT_TRUE(bt::ossl_read_key(bt::read_data_file("keys/" + *name), key, &error))
		<< *name << ": " << error;
}

TEST_P(Radix52Crt, OnCommittedKeysMatchesPowm)
{
	bt::Rng rng(5205);
	/* Below BIGMONT_TEST_SCALE 1 (the sanitizer builds, where the twin
	 * is slowest) one key a size above RSA-2048: e does not reach the
	 * exponentiation, dp and dq do, and any key's are as random. */
	const bool reduced = bt::scaled(100) < 100;
	for (int bits : { 1024, 2048, 3072, 4096 }) {
		for (const char *e : { "e3", "e65537" }) {
			if (reduced && bits > 2048 && std::string(e) == "e3")
				continue;
			bt::OsslKey key;
			std::string name;
			ASSERT_NO_FATAL_FAILURE(read_committed_key(bits, e, &key, &name));
			Mpz n, d, p, q, dp, dq;
			for (auto [z, hex] : { std::pair<mpz_ptr, const std::string *>{ n, &key.n },
					       { d, &key.d },
					       { p, &key.p },
					       { q, &key.q },
					       { dp, &key.dp },
					       { dq, &key.dq } })
				set_hex(z, *hex);
			/* 0 mod p, 0 mod q, 0, n-1, 1 in both orientations (p > q and
			 * p < q), then random inputs in alternating ones; the larger
			 * keys (slow in the twin) 0 mod p both ways, and the random
			 * input below. */
			const int specials = bits >= 3072 ? 1 : 5;
			const long reps = specials + (bits >= 3072 ? 0 : bt::scaled(3));
			for (long r = 0; r < reps; r++) {
				Mpz a;
				switch (r < specials ? r : -1) {
				case 0: mpz_set(a, p); break;
				case 1: mpz_mul_ui(a, q, 2); break;
				case 2: mpz_set_ui(a, 0); break;
				case 3: mpz_sub_ui(a, n, 1); break;
				case 4: mpz_set_ui(a, 1); break;
				default:
					rng.mpz_bits(a, bits);
					mpz_mod(a, a, n);
				}
				if (r < specials || r % 2 == 0) {
					ASSERT_TRUE(crt_matches(ops(), a, dp, dq, p, q, name.c_str()));
				}
				if (r < specials || r % 2 == 1) {
					ASSERT_TRUE(crt_matches(ops(), a, dq, dp, q, p, name.c_str()));
				}
			}
			/* The R^2 computed inside, and the result against a^d mod n. */
			Mpz a, want, got, pinv;
			rng.mpz_bits(a, bits - 1);
			mpz_powm(want, a, d, n);
			mpz_invert(pinv, p, q);
			Big ba(a), bdp(dp), bdq(dq), bp(p), bq(q), bpinv(pinv), out(1);
			ASSERT_EQ(big_modexp_crt_r52(&out.b, &ba.b, &bdp.b, &bdq.b, &bp.b, &bq.b, &bpinv.b,
						     nullptr, nullptr, &ops()),
				  BIG_OK);
			bt::to_mpz(got, &out.b);
			ASSERT_EQ(mpz_cmp(got, want), 0) << name << " a " << bt::hex(a);
		}
	}
}

TEST_P(Radix52Crt, OnRandomPrimesOfEqualChunkLength)
{
	bt::Rng rng(5206);
	struct Sizes {
		int pbits, qbits;
	};
	/* equal chunk lengths, some with unequal bit lengths (the committed
	 * keys have the equal ones of the larger sizes) */
	for (Sizes sz : std::vector<Sizes>{ { 512, 512 },
					     { 449, 512 },
					     { 1024, 1024 },
					     { 1024, 961 },
					     { 1473, 1536 },
					     /* the run-time-k digit counts: 9, 12, 15, 25, 35 */
					     { 448, 448 },
					     { 576, 530 },
					     { 768, 768 },
					     { 1280, 1250 },
					     { 1792, 1792 } }) {
		const long reps = sz.pbits >= 1024 ? 1 : bt::scaled(2);
		for (long r = 0; r < reps; r++) {
			Mpz p, q, n, a, dp, dq, pm1, qm1;
			rng.mpz_prime_pair(p, q, sz.pbits, sz.qbits);
			mpz_mul(n, p, q);
			rng.mpz_bits(a, sz.pbits + sz.qbits);
			mpz_mod(a, a, n);
			mpz_sub_ui(pm1, p, 1);
			mpz_sub_ui(qm1, q, 1);
			rng.mpz_bits(dp, sz.pbits);
			mpz_mod(dp, dp, pm1);
			rng.mpz_bits(dq, sz.qbits);
			mpz_mod(dq, dq, qm1);
			ASSERT_TRUE(crt_matches(ops(), a, dp, dq, p, q, "random primes"))
				<< sz.pbits << "/" << sz.qbits;
		}
	}
}

/* Unequal chunk lengths are not the radix-2^52 path's: refused here, and
 * big_modexp_crt takes the radix-2^64 path for them (its own tests). */
TEST(Radix52CrtPath, UnequalLengthsAreRefused)
{
	bt::Rng rng(5207);
	Mpz p, q, a, pinv;
	rng.mpz_prime(p, 1024);
	rng.mpz_prime(q, 1088);
	rng.mpz_bits(a, 2000);
	mpz_invert(pinv, p, q);
	Big ba(a), bp(p), bq(q), bd(a), bpinv(pinv), out(1);
	const big_r52_ops twin = BIG_R52_OPS_INIT(c);
	EXPECT_EQ(big_modexp_crt_r52(&out.b, &ba.b, &bd.b, &bd.b, &bp.b, &bq.b, &bpinv.b, nullptr,
				     nullptr, &twin),
		  BIG_INVALID_ARGS);
	EXPECT_EQ(big_r52_crt_digits(16, 17), 0);
	EXPECT_EQ(big_r52_crt_digits(16, 16), 20);
	EXPECT_EQ(big_r52_crt_digits(8, 8), 10);
	EXPECT_EQ(big_r52_crt_digits(24, 24), 30);
	EXPECT_EQ(big_r52_crt_digits(32, 32), 40);
	/* Every equal length from 7 to 32 chunks, the least k with m < R/4
	 * (52 k >= 64 len + 2); none below 7 (adx as fast there) or above. */
	for (int len = 1; len <= 40; len++) {
		const int k = big_r52_crt_digits(len, len);
		if (len < 7 || len > 32) {
			EXPECT_EQ(k, 0) << len;
			continue;
		}
		EXPECT_GE(52 * k, 64 * len + 2) << len;
		EXPECT_LT(52 * (k - 1), 64 * len + 2) << len;
		EXPECT_LE(k, BIG_R52_MAX_DIGITS) << len;
	}
}

/* big_r52_ct_base_pow(a, e, n) vs mpz_powm, also in place (out == a). */
void expect_ct_base(const big_r52_ops &ops, const mpz_t a, const mpz_t e, const mpz_t n,
		    int len, const std::string &what)
{
	const int digits = big_r52_ct_base_digits(len);
	ASSERT_NE(digits, 0) << len;
	Big bn(n), ba(a), be(e), rr(1);
	ASSERT_EQ(big_mont_rr(&rr.b, &bn.b), BIG_OK);
	std::vector<uint64_t> nv(static_cast<size_t>(len), 0), rrv(nv), av(nv), out(nv);
	for (int i = 0; i < len; i++) {
		nv[static_cast<size_t>(i)] = i < bn.b.len ? bn.b.value[i] : 0;
		rrv[static_cast<size_t>(i)] = i < rr.b.len ? rr.b.value[i] : 0;
		av[static_cast<size_t>(i)] = i < ba.b.len ? ba.b.value[i] : 0;
	}
	const int ebits = static_cast<int>(mpz_size(e) == 0 ? 0 : mpz_sizeinbase(e, 2));
	std::vector<uint64_t> ew(static_cast<size_t>(ebits / 64 + 1), 0);
	for (int i = 0; i < be.b.len && i < static_cast<int>(ew.size()); i++)
		ew[static_cast<size_t>(i)] = be.b.value[i];
	std::vector<uint64_t> scratch(big_r52_ct_base_scratch(digits));
	Mpz want, got, got_in_place;
	mpz_powm(want, a, e, n);
	big_r52_ct_base_pow(out.data(), av.data(), ew.data(), ebits, nv.data(), rrv.data(), len,
			    digits, &ops, scratch.data());
	big_r52_ct_base_pow(av.data(), av.data(), ew.data(), ebits, nv.data(), rrv.data(), len,
			    digits, &ops, scratch.data());
	mpz_import(got, static_cast<size_t>(len), -1, sizeof(uint64_t), 0, 0, out.data());
	mpz_import(got_in_place, static_cast<size_t>(len), -1, sizeof(uint64_t), 0, 0, av.data());
	EXPECT_EQ(mpz_cmp(got, want), 0) << what << "\n n " << bt::hex(n) << "\n a " << bt::hex(a)
					 << "\n e " << bt::hex(e) << "\n got " << bt::hex(got);
	EXPECT_EQ(mpz_cmp(got_in_place, want), 0) << what << " in place";
}

TEST_P(Radix52Crt, CtBasePowMatchesPowm)
{
	bt::Rng rng(5208);
	std::vector<std::pair<std::string, std::string>> moduli; /* hex, name */
	for (int bits : { 1024, 2048 }) {
		for (const char *e : { "e3", "e65537" }) {
			bt::OsslKey key;
			std::string name;
			ASSERT_NO_FATAL_FAILURE(read_committed_key(bits, e, &key, &name));
			moduli.emplace_back(key.n, name);
		}
	}
	for (int len : { 16, 32 }) {
		for (long r = 0; r < bt::scaled(8); r++) {
			/* full length, or shorter within the same chunk count */
			const int bits = 64 * len - (r % 2 == 0 ? 0 : static_cast<int>(rng.below(63)));
			Mpz n;
			rng.mpz_bits(n, bits);
			mpz_setbit(n, static_cast<mp_bitcnt_t>(bits - 1));
			mpz_setbit(n, 0);
			moduli.emplace_back(bt::hex(n), "random " + std::to_string(bits) + " bits");
		}
	}
	for (const auto &[hex, what] : moduli) {
		Mpz n;
		set_hex(n, hex);
		const int len = static_cast<int>((mpz_sizeinbase(n, 2) + 63) / 64);
		for (int kind = 0; kind < 8; kind++) {
			Mpz a, e;
			switch (kind) {
			case 0: mpz_set_ui(a, 0); break;
			case 1: mpz_set_ui(a, 1); break;
			case 2: mpz_sub_ui(a, n, 1); break;
			case 3: mpz_set(a, n); break;
			case 4: /* all ones: above n */
				mpz_set_ui(a, 1);
				mpz_mul_2exp(a, a, static_cast<mp_bitcnt_t>(64 * len));
				mpz_sub_ui(a, a, 1);
				break;
			default: rng.mpz_bits(a, 64 * len); break;
			}
			const unsigned long small[] = { 0, 1, 2, 3, 65537 };
			if (kind < 5)
				mpz_set_ui(e, small[kind]);
			else
				rng.mpz_bits(e, 1 + static_cast<int>(rng.below(200)));
			expect_ct_base(ops(), a, e, n, len, what + " kind " + std::to_string(kind));
			if (HasFailure())
				return;
		}
	}
	EXPECT_EQ(big_r52_ct_base_digits(16), 20);
	EXPECT_EQ(big_r52_ct_base_digits(32), 40);
	EXPECT_EQ(big_r52_ct_base_digits(24), 0);
	EXPECT_EQ(big_r52_ct_base_digits(8), 0);
}

INSTANTIATE_TEST_SUITE_P(Builds, Radix52Crt, ::testing::ValuesIn(builds()),
			 [](const ::testing::TestParamInfo<Build> &info) {
				 return std::string(info.param.name);
			 });

#endif /* BIG_CHUNK_SIZE == 64 */

/* big_modexp_crt_path follows the variant: radix52-ifma only in the ifma
 * variant, for equal primes of 7 to 32 chunks (RSA-896 to 4096; each
 * measured faster than adx there, 384-bit ones not); at 1536 and 2048 bits in
 * the adx variant, vertical-avx2 or vertical-avx512 where that path is
 * bound, and at 512
 * radix64-paired where that one is (test_modexp_crt has their
 * conditions). */
TEST(Radix52CrtPath, FollowsTheVariant)
{
	const bool ifma = std::string(big_cpu_variant_name()) == "ifma";
	const std::string r52 = ifma ? "radix52-ifma" : "radix64";
	const bool vertical = std::string(big_modexp_crt_path(1536, 1536)).rfind("vertical-", 0) == 0;
	EXPECT_EQ(std::string(big_modexp_crt_path(2048, 2048)), std::string(big_modexp_crt_path(1536, 1536)));
	EXPECT_TRUE(!vertical || std::string(big_cpu_variant_name()) == "adx");
	EXPECT_EQ(big_modexp_crt_path(1024, 1024), r52);
	if (!vertical) {
		EXPECT_EQ(big_modexp_crt_path(1536, 1536), r52);
		EXPECT_EQ(big_modexp_crt_path(2048, 2048), r52);
	}
	EXPECT_EQ(big_modexp_crt_path(1000, 1024), r52); /* same chunk length */
	/* RSA-1024's halves side by side where CRT_PAIRED8 binds it. */
	EXPECT_EQ(big_modexp_crt_path(512, 512),
		  !ifma && big_crt_paired8_tuned() ? "radix64-paired" : r52);
	EXPECT_EQ(std::string(big_modexp_crt_path(1024, 1088)), "radix64");
	EXPECT_EQ(std::string(big_modexp_crt_path(513, 512)), "radix64");
	EXPECT_EQ(std::string(big_modexp_crt_path(384, 384)), "radix64");
	/* The sizes between: 7 to 32 equal chunks (RSA-896 to 4096). */
	EXPECT_EQ(big_modexp_crt_path(448, 448), r52);
	EXPECT_EQ(big_modexp_crt_path(1280, 1280), r52);
	EXPECT_EQ(big_modexp_crt_path(1792, 1792), r52);
	EXPECT_EQ(std::string(big_modexp_crt_path(2112, 2112)), "radix64");
	EXPECT_EQ(std::string(big_modexp_crt_path(0, 0)), "radix64");
	if (ifma) {
		EXPECT_TRUE(big_r52_cpu_has_ifma());
	}
}

} // namespace
