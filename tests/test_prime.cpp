/*
 * big_is_probable_prime against GMP's mpz_probab_prime_p: every value up
 * to 3000; random odd values and composites of every length from 1 chunk
 * to 4096 bits, with random primes to 1024 bits; the primes of the
 * committed RSA keys (to 2048 bits); primes and composites whose n - 1 has
 * a long run of zero bits (many squarings); Carmichael numbers; strong
 * pseudoprimes to base 2 and to every base up to 37; products of two
 * primes (random ones, and (2x+1)(4x+1), whose liars reach the 1/4
 * bound); Mersenne and Fermat numbers; untrimmed and negative inputs; the
 * refusals.  A prime must pass every time (Miller-Rabin has no false
 * negatives); a composite is tested with 32 rounds, so a wrong "prime"
 * has probability at most 2^-64 even at the 1/4 bound. */
#include <gtest/gtest.h>

#include "ossl_key.h"
#include "testutil.h"

namespace {

using bt::Big;
using bt::Mpz;

constexpr int kCompositeRounds = 32;

/* Compare with GMP (25 rounds after its trial division and BPSW test);
 * returns false on a mismatch. */
bool agrees_with_gmp(const mpz_t n, int rounds = kCompositeRounds)
{
	Big bn(n);
	const std::vector<bt::chunk> before(bn.b.value, bn.b.value + bn.b.len);
	const int len = bn.b.len;
	int got = -1;
	EXPECT_EQ(big_is_probable_prime(&got, &bn.b, rounds), BIG_OK) << bt::hex(n);
	EXPECT_EQ(bn.b.len, len);
	EXPECT_TRUE(std::equal(before.begin(), before.end(), bn.b.value)) << "input modified";
	const int want = mpz_probab_prime_p(n, 25) > 0;
	EXPECT_EQ(got, want) << "n = 0x" << bt::hex(n) << " (" << mpz_sizeinbase(n, 2) << " bits)";
	return got == want;
}

bool agrees_with_gmp(unsigned long v)
{
	Mpz n;
	mpz_set_ui(n, v);
	return agrees_with_gmp(n);
}

TEST(Prime, EveryValueUpTo3000)
{
	for (unsigned long v = 0; v <= 3000; v++)
		if (!agrees_with_gmp(v))
			return;
}

/* Random odd values (nearly all composite) and the next composite after a
 * random prime, every length to 4096 bits; random primes by mpz_nextprime
 * to 1024 bits (longer ones cost GMP seconds each: RsaKeyPrimes and the
 * Mersenne primes cover them). */
TEST(Prime, RandomPrimesAndCompositesEveryLength)
{
	bt::Rng rng(1);
	const int max_chunks = 4096 / bt::kChunkBits;
	for (int len = 1; len <= max_chunks; len++) {
		const bool find_prime = len * bt::kChunkBits <= 1024;
		/* Above 1024 bits one random odd value a length: each is a full
		 * Miller-Rabin exponentiation of up to 4096 bits, where the code
		 * paths depend on the length alone. */
		const long cases = bt::scaled(len <= 4 ? 40 : find_prime ? 4 : 1);
		for (long k = 0; k < cases; k++) {
			Mpz n, p;
			int bits = (len - 1) * bt::kChunkBits + 1 + static_cast<int>(rng.below(bt::kChunkBits));
			rng.mpz_bits(n, bits < 3 ? 3 : bits);
			mpz_setbit(n, 0);
			if (!agrees_with_gmp(n))
				return;
			if (!find_prime)
				continue;
			mpz_nextprime(p, n);
			/* A prime passes with any number of rounds. */
			if (!agrees_with_gmp(p, 1 + static_cast<int>(rng.below(3))))
				return;
			do /* the next odd composite */
				mpz_add_ui(p, p, 2);
			while (mpz_probab_prime_p(p, 25));
			if (!agrees_with_gmp(p))
				return;
		}
	}
}

/* The primes of the committed RSA keys (256 to 2048 bits, as OpenSSL reads
 * them), each one times the other. */
TEST(Prime, RsaKeyPrimes)
{
	for (const char *key : { "rsa512-e3", "rsa1025-e65537", "rsa1536-ebig", "rsa2047-e3",
				 "rsa2048-e65537", "rsa3072-e3", "rsa4096-e65537" }) {
		bt::OsslKey k;
		std::string error;
		ASSERT_TRUE(bt::ossl_read_key(bt::read_data_file(std::string("keys/") + key + ".pem"),
					      &k, &error))
			<< key << ": " << error;
		Mpz p, q, pq;
		mpz_set_str(p, k.p.c_str(), 16);
		mpz_set_str(q, k.q.c_str(), 16);
		mpz_mul(pq, p, q);
		SCOPED_TRACE(key);
		if (!agrees_with_gmp(p, 1) || !agrees_with_gmp(q, 1) || !agrees_with_gmp(pq))
			return;
	}
}

/* n - 1 = k * 2^t: the test squares t - 1 times after the powering. */
TEST(Prime, LongRunOfZerosInNMinusOne)
{
	bt::Rng rng(2);
	for (int t : { 1, 2, 31, 32, 33, 63, 64, 65, 200, 1000 }) {
		int primes = 0, composites = 0;
		Mpz k;
		rng.mpz_bits(k, 48);
		mpz_setbit(k, 0);
		while (primes < 2 || composites < 2) {
			Mpz n;
			mpz_mul_2exp(n, k, static_cast<mp_bitcnt_t>(t));
			mpz_add_ui(n, n, 1);
			const bool prime = mpz_probab_prime_p(n, 25) > 0;
			if ((prime && primes < 2) || (!prime && composites < 2)) {
				(prime ? primes : composites)++;
				SCOPED_TRACE("t = " + std::to_string(t));
				if (!agrees_with_gmp(n))
					return;
			}
			mpz_add_ui(k, k, 2);
		}
	}
}

TEST(Prime, CarmichaelNumbers)
{
	for (unsigned long v : { 561ul, 1105ul, 1729ul, 2465ul, 2821ul, 6601ul, 8911ul, 10585ul,
				 15841ul, 29341ul, 41041ul, 46657ul, 52633ul, 62745ul, 63973ul,
				 75361ul, 101101ul, 115921ul, 126217ul, 162401ul, 172081ul,
				 188461ul, 252601ul, 278545ul, 294409ul, 314821ul, 334153ul,
				 340561ul, 399001ul, 410041ul, 449065ul, 488881ul, 512461ul })
		if (!agrees_with_gmp(v))
			return;
	/* Chernick's (6k+1)(12k+1)(18k+1), a Carmichael number when all three
	 * factors are prime, of 64, 128 and 256 bits. */
	bt::Rng rng(3);
	for (int kbits : { 19, 40, 83 }) {
		Mpz k, f1, f2, f3, n;
		rng.mpz_bits(k, kbits);
		for (;; mpz_add_ui(k, k, 1)) {
			mpz_mul_ui(f1, k, 6);
			mpz_add_ui(f1, f1, 1);
			mpz_mul_ui(f2, k, 12);
			mpz_add_ui(f2, f2, 1);
			mpz_mul_ui(f3, k, 18);
			mpz_add_ui(f3, f3, 1);
			if (mpz_probab_prime_p(f1, 25) && mpz_probab_prime_p(f2, 25) &&
			    mpz_probab_prime_p(f3, 25))
				break;
		}
		mpz_mul(n, f1, f2);
		mpz_mul(n, n, f3);
		SCOPED_TRACE("Chernick k = 0x" + bt::hex(k));
		if (!agrees_with_gmp(n))
			return;
	}
}

TEST(Prime, StrongPseudoprimes)
{
	/* Strong pseudoprimes to base 2. */
	for (unsigned long v : { 2047ul, 3277ul, 4033ul, 4681ul, 8321ul, 15841ul, 29341ul, 42799ul,
				 49141ul, 52633ul, 65281ul, 74665ul, 80581ul, 85489ul, 88357ul,
				 90751ul })
		if (!agrees_with_gmp(v))
			return;
	/* Strong pseudoprimes to every prime base up to 23 and up to 37. */
	for (const char *dec : { "3825123056546413051", "318665857834031151167461" }) {
		Mpz n;
		mpz_set_str(n, dec, 10);
		if (!agrees_with_gmp(n))
			return;
	}
}

TEST(Prime, ProductsOfTwoPrimes)
{
	bt::Rng rng(4);
	for (int bits : { 3, 8, 17, 32, 33, 64, 65, 128, 256, 512, 1024 }) {
		Mpz a, b, p, q, n;
		rng.mpz_bits(a, bits);
		rng.mpz_bits(b, bits + static_cast<int>(rng.below(3)));
		mpz_nextprime(p, a);
		mpz_nextprime(q, b);
		mpz_mul(n, p, q);
		SCOPED_TRACE("factors of " + std::to_string(bits) + " bits");
		if (!agrees_with_gmp(n))
			return;
		mpz_mul(n, p, p); /* a square */
		if (!agrees_with_gmp(n))
			return;
	}
	/* (2x+1)(4x+1) with x odd and both factors prime: strong liars make up
	 * a quarter of the bases, the most any composite has. */
	for (int xbits : { 8, 32, 64, 128 }) {
		Mpz x, f1, f2, n;
		rng.mpz_bits(x, xbits);
		mpz_setbit(x, 0);
		for (;; mpz_add_ui(x, x, 2)) {
			mpz_mul_2exp(f1, x, 1);
			mpz_add_ui(f1, f1, 1);
			mpz_mul_2exp(f2, x, 2);
			mpz_add_ui(f2, f2, 1);
			if (mpz_probab_prime_p(f1, 25) && mpz_probab_prime_p(f2, 25))
				break;
		}
		mpz_mul(n, f1, f2);
		SCOPED_TRACE("(2x+1)(4x+1), x = 0x" + bt::hex(x));
		if (!agrees_with_gmp(n))
			return;
	}
}

TEST(Prime, MersenneAndFermatNumbers)
{
	/* 2^e - 1 is prime for these e and composite for the others. */
	for (int e : { 2, 3, 5, 7, 13, 31, 61, 89, 107, 127, 521, 607, 1279, 2203, 2281, 3217, 11,
		       23, 67, 257, 1024, 2048, 4096 }) {
		Mpz n;
		mpz_ui_pow_ui(n, 2, static_cast<unsigned long>(e));
		mpz_sub_ui(n, n, 1);
		SCOPED_TRACE("2^" + std::to_string(e) + " - 1");
		/* The longest ones are all prime: they run every round. */
		if (!agrees_with_gmp(n, e > 2000 && e < 4096 ? 2 : kCompositeRounds))
			return;
	}
	for (int e : { 1, 2, 4, 8, 16, 32, 64, 128 }) { /* 2^e + 1: F0..F4 prime, F5..F7 not */
		Mpz n;
		mpz_ui_pow_ui(n, 2, static_cast<unsigned long>(e));
		mpz_add_ui(n, n, 1);
		SCOPED_TRACE("2^" + std::to_string(e) + " + 1");
		if (!agrees_with_gmp(n))
			return;
	}
}

TEST(Prime, UntrimmedNegativeAndEmptyInputs)
{
	Mpz p;
	mpz_set_str(p, "170141183460469231731687303715884105727", 10); /* 2^127 - 1 */
	Big bp(p);
	const int len = bp.b.len;
	ASSERT_EQ(big_extend(&bp.b, len + 3), BIG_OK);
	for (int i = len; i < len + 3; i++)
		bp.b.value[i] = 0;
	bp.b.len = len + 3;
	int got = -1;
	EXPECT_EQ(big_is_probable_prime(&got, &bp.b, 4), BIG_OK);
	EXPECT_EQ(got, 1);
	EXPECT_EQ(bp.b.len, len + 3);
	bp.b.sign = -1;
	EXPECT_EQ(big_is_probable_prime(&got, &bp.b, 4), BIG_OK);
	EXPECT_EQ(got, 1) << "the sign is ignored";
	EXPECT_EQ(bp.b.sign, -1);
	BIGNUM empty = { 0, 0, 1, 0, nullptr };
	EXPECT_EQ(big_is_probable_prime(&got, &empty, 4), BIG_OK);
	EXPECT_EQ(got, 0) << "len 0 reads as zero";
}

TEST(Prime, Refusals)
{
	Big n(1);
	ASSERT_EQ(big_set_chunk(&n.b, 7), BIG_OK);
	int got = -1;
	EXPECT_EQ(big_is_probable_prime(&got, &n.b, 0), BIG_INVALID_ARGS);
	EXPECT_EQ(big_is_probable_prime(nullptr, &n.b, 4), BIG_INVALID_ARGS);
	Mpz big;
	mpz_ui_pow_ui(big, 2, BIG_MAX_MODULUS_BITS);
	mpz_add_ui(big, big, 1);
	Big too_long(big);
	EXPECT_EQ(big_is_probable_prime(&got, &too_long.b, 4), BIG_INVALID_ARGS);
	/* The longest accepted: BIG_MAX_MODULUS_BITS bits (even, so it is
	 * answered without a powering). */
	mpz_ui_pow_ui(big, 2, BIG_MAX_MODULUS_BITS - 1);
	Big longest(big);
	EXPECT_EQ(big_is_probable_prime(&got, &longest.b, 1), BIG_OK);
	EXPECT_EQ(got, 0);
}

} // namespace
