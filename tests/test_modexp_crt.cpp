/*
 * big_modexp_crt against GMP: random primes from mpz_nextprime of many
 * sizes, equal and unequal bit and chunk lengths (p longer than q and
 * shorter), random-density a (0, 1, pq-1, below p, random) and exponents
 * (full, short, zero, with high zero chunks), p_rr/q_rr given or NULL;
 * checked by result mod p == a^dp mod p, result mod q == a^dq mod q and
 * result < pq; and at every prime length in chunks to 2048-bit primes,
 * every 1024 bits to 8192, with big_crt_check there too.  Then every
 * committed key tests/data/keys/rsa*.pem, read by OpenSSL
 * (tests/support/ossl_key), compared with mpz_powm(a, d, n), in both
 * orientations (p, q, p^-1 mod q) and (q, p, qInv).
 * The vertical AVX2 path (big_modexp_crt_vertical, bignum/vertical/) at
 * RSA-3072 and 4096 sizes (random primes, edge and random a, exponents of
 * the primes' length and one chunk longer, zero): its result equals
 * big_modexp_crt's (whichever path this entry binds; tests/tuning.cmake
 * forces each side) and GMP's; big_modexp_crt_path names the path taken.
 * The same for the vertical path on zmm (big_modexp_crt_vertical_zmm) where
 * the CPU has AVX-512F, and the paired path (big_modexp_crt_paired, the
 * exponentiations side by side) from one chunk to RSA-3072's halves.
 */
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lanes/lanes.h"
#include "ossl_key.h"
#include "vertical/vertical.h"
#include "operand.h"
#include "testutil.h"

namespace {

using bt::Big;
using bt::chunk;
using bt::Mpz;

/* big_modexp_crt's operands other than the base, as BIGNUMs: the primes
 * in the order given, the exponents for each, p^-1 mod q, and R^2 mod p
 * and mod q. */
struct CrtKey {
	Big p, q, dp, dq, pinv, prr, qrr;
	CrtKey(const mpz_t p_, const mpz_t q_, const mpz_t dp_, const mpz_t dq_, const mpz_t pinv_)
	    : p(p_), q(q_), dp(dp_), dq(dq_), pinv(pinv_), prr(1), qrr(1)
	{
		EXPECT_EQ(big_mont_rr(&prr.b, &p.b), BIG_OK);
		EXPECT_EQ(big_mont_rr(&qrr.b, &q.b), BIG_OK);
	}
	/* out = a^d mod pq, with R^2 mod p and q given or left to compute. */
	BIG_ERR_CODE exp(BIGNUM *out, const BIGNUM *a, bool give_rr) const
	{
		return big_modexp_crt(out, a, &dp.b, &dq.b, &p.b, &q.b, &pinv.b,
				      give_rr ? &prr.b : nullptr, give_rr ? &qrr.b : nullptr);
	}
};

/* big_modexp_crt(a, dp, dq, p, q, pinv) vs GMP; false on a mismatch. */
bool check_crt(const mpz_t a, const mpz_t dp, const mpz_t dq, const mpz_t p, const mpz_t q,
	       bool give_rr, int a_pad = 0, int d_pad = 0)
{
	Mpz pinv, wp, wq, n;
	EXPECT_NE(mpz_invert(pinv, p, q), 0);
	mpz_powm(wp, a, dp, p);
	mpz_powm(wq, a, dq, q);
	mpz_mul(n, p, q);
	CrtKey key(p, q, dp, dq, pinv);
	Big ba(a), out(1);
	if (a_pad)
		bt::pad_len(&ba.b, a_pad);
	if (d_pad) {
		bt::pad_len(&key.dp.b, d_pad);
		bt::pad_len(&key.dq.b, d_pad);
	}
	BIG_ERR_CODE err = key.exp(&out.b, &ba.b, give_rr);
	Mpz got, gp, gq;
	bt::to_mpz(got, &out.b);
	mpz_mod(gp, got, p);
	mpz_mod(gq, got, q);
	const bool ok = err == BIG_OK && mpz_cmp(gp, wp) == 0 && mpz_cmp(gq, wq) == 0 &&
			mpz_cmp(got, n) < 0 && out.b.sign == 1 &&
			out.b.len == key.p.b.len + key.q.b.len;
	EXPECT_TRUE(ok) << "err " << err << "\n p " << bt::hex(p) << "\n q " << bt::hex(q)
			<< "\n a " << bt::hex(a) << "\n dp " << bt::hex(dp) << "\n dq "
			<< bt::hex(dq) << "\n got " << bt::hex(got) << " (len " << out.b.len << ")";
	return ok;
}

TEST(ModexpCrt, RandomPrimesOfManySizes)
{
	bt::Rng rng(31);
	struct Sizes {
		int pbits, qbits;
	};
	std::vector<Sizes> sizes = { { 3, 5 },	     { 5, 3 },	     { 17, 19 },    { 31, 33 },
				     { 32, 32 },     { 33, 31 },     { 63, 65 },    { 64, 64 },
				     { 65, 64 },     { 64, 65 },     { 100, 300 },  { 300, 100 },
				     { 127, 129 },   { 256, 256 },   { 257, 256 },  { 256, 257 },
				     { 512, 513 },   { 513, 512 },   { 500, 524 },  { 768, 768 },
				     { 1024, 1024 }, { 1025, 1023 }, { 1023, 1025 } };
	for (const Sizes &s : sizes) {
		const long reps = s.pbits >= 700 ? 1 : bt::scaled(4);
		for (long r = 0; r < reps; r++) {
			Mpz p, q, n, a, dp, dq;
			rng.mpz_prime_pair(p, q, s.pbits, s.qbits);
			mpz_mul(n, p, q);
			switch (rng.below(6)) {
			case 0: mpz_set_ui(a, 0); break;
			case 1: mpz_set_ui(a, 1); break;
			case 2: mpz_sub_ui(a, n, 1); break;
			case 3: mpz_set(a, p); break;
			default:
				rng.mpz_bits(a, 1 + static_cast<int>(rng.below(
							    static_cast<uint64_t>(s.pbits + s.qbits))));
				mpz_mod(a, a, n);
			}
			Mpz pm1, qm1;
			mpz_sub_ui(pm1, p, 1);
			mpz_sub_ui(qm1, q, 1);
			rng.mpz_bits(dp, s.pbits + 8);
			mpz_mod(dp, dp, pm1);
			rng.mpz_bits(dq, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(s.qbits))));
			if (r == 1)
				mpz_set_ui(dq, 0);
			ASSERT_TRUE(check_crt(a, dp, dq, p, q, r % 2 == 0,
					      static_cast<int>(rng.below(2)),
					      static_cast<int>(rng.below(2))))
				<< s.pbits << "/" << s.qbits;
		}
	}
}

/* Every prime length in chunks to 2048 bits, then every 1024 bits to 8192
 * (an RSA-16384 key's halves), the primes of one length and one chunk
 * apart in turn, p and q in either order: the CRT's paths and kernels are
 * chosen by length, so each length is one case (odd coprime moduli:
 * primality is not what the arithmetic reads; the exponentiation runs
 * over the primes' length whatever the exponent's, so the time grows as
 * the cube of the length).  The fault check (big_crt_check) at each
 * length too: the right s^e and one off. */
TEST(ModexpCrt, EveryPrimeLength)
{
	bt::Rng rng(35);
	const int step = bt::scaled(100) < 100 ? 7 : 1;
	for (int len = 1; len * BIG_CHUNK_SIZE <= 8192;
	     len += len * BIG_CHUNK_SIZE < 2048 ? step : 1024 / BIG_CHUNK_SIZE) {
		const int pbits = len * BIG_CHUNK_SIZE - static_cast<int>(rng.below(8));
		const int qbits = len % 2 ? pbits : pbits - BIG_CHUNK_SIZE;
		if (qbits < 3)
			continue;
		SCOPED_TRACE(testing::Message() << pbits << "/" << qbits << " bits");
		Mpz p, q, pinv, n, a, dp, dq;
		do {
			rng.mpz_bits(p, pbits);
			mpz_setbit(p, 0);
			mpz_setbit(p, static_cast<mp_bitcnt_t>(pbits - 1));
			rng.mpz_bits(q, qbits);
			mpz_setbit(q, 0);
			mpz_setbit(q, static_cast<mp_bitcnt_t>(qbits - 1));
		} while (mpz_cmp(p, q) == 0 || mpz_invert(pinv, p, q) == 0);
		mpz_mul(n, p, q);
		rng.mpz_bits(a, pbits + qbits);
		mpz_mod(a, a, n);
		const int ebits = pbits <= 1024 ? pbits : 96;
		rng.mpz_bits(dp, ebits);
		rng.mpz_bits(dq, ebits - 1);
		if (len % 4 < 2)
			ASSERT_TRUE(check_crt(a, dp, dq, p, q, len % 2 == 0));
		else
			ASSERT_TRUE(check_crt(a, dp, dq, q, p, len % 2 == 0));

		const CrtKey key(p, q, p, q, p); /* only p, q and their R^2 are read */
		Mpz e, want, wrong;
		mpz_set_ui(e, len % 2 ? 65537 : 3);
		mpz_powm(want, a, e, n);
		mpz_add_ui(wrong, want, 1);
		mpz_mod(wrong, wrong, n);
		Big bs(a), be(e), bn(n);
		for (const Mpz *x : { &want, &wrong }) {
			Big bx(*x);
			int equal = -1;
			ASSERT_EQ(big_crt_check(&equal, &bs.b, &bx.b, &be.b, &bn.b, &key.p.b, &key.q.b,
						&key.prr.b, &key.qrr.b),
				  BIG_OK);
			EXPECT_EQ(equal, x == &want);
		}
	}
}

std::vector<std::string> key_names()
{
	std::vector<std::string> v;
	for (int bits : { 512, 1024, 1025, 1536, 2047, 2048, 3072, 4096 })
		for (const char *e : { "e3", "e65537", "ebig" })
			v.push_back("rsa" + std::to_string(bits) + "-" + e + ".pem");
	return v;
}

void set_hex(mpz_t z, const std::string &h)
{
	ASSERT_EQ(mpz_set_str(z, h.c_str(), 16), 0) << h;
}

TEST(ModexpCrt, CommittedKeysAgainstPowm)
{
	bt::Rng rng(32);
	for (const std::string &name : key_names()) {
		const std::string pem = bt::read_data_file("keys/" + name);
		bt::OsslKey k;
		std::string error;
		ASSERT_TRUE(bt::ossl_read_key(pem, &k, &error)) << name << ": " << error;
		Mpz n, d, p, q, dp, dq, qinv, pinv;
		set_hex(n, k.n);
		set_hex(d, k.d);
		set_hex(p, k.p);
		set_hex(q, k.q);
		set_hex(dp, k.dp);
		set_hex(dq, k.dq);
		set_hex(qinv, k.qinv);
		ASSERT_NE(mpz_invert(pinv, p, q), 0);
		/* Garner with p^-1 mod q, as the API names it, and the PKCS #1
		 * orientation: qInv = q^-1 mod p, primes swapped. */
		const CrtKey key(p, q, dp, dq, pinv), swapped(q, p, dq, dp, qinv);
		const int bits = static_cast<int>(mpz_sizeinbase(n, 2));
		const long reps = bits > 2048 ? 1 : bt::scaled(3);
		for (long r = 0; r < reps + 1; r++) {
			Mpz a, want, got;
			if (r == 0)
				mpz_sub_ui(a, n, 1);
			else if (r == 1 && reps > 1)
				mpz_set_ui(a, 2);
			else {
				rng.mpz_bits(a, bits);
				mpz_mod(a, a, n);
			}
			mpz_powm(want, a, d, n);
			Big ba(a), out(1);
			for (const CrtKey *k : { &key, &swapped }) {
				ASSERT_EQ(k->exp(&out.b, &ba.b, true), BIG_OK) << name;
				bt::to_mpz(got, &out.b);
				ASSERT_EQ(mpz_cmp(got, want), 0)
					<< name << (k == &swapped ? " (swapped)" : "") << " a " << bt::hex(a);
			}
		}
		/* The _rr computed inside, once per key. */
		Mpz a, want, got;
		rng.mpz_bits(a, bits - 1);
		mpz_powm(want, a, d, n);
		Big ba(a), out(1);
		ASSERT_EQ(key.exp(&out.b, &ba.b, false), BIG_OK);
		bt::to_mpz(got, &out.b);
		ASSERT_EQ(mpz_cmp(got, want), 0) << name << " (rr NULL)";
	}
}

TEST(ModexpCrt, ResultMayAliasBase)
{
	bt::Rng rng(33);
	Mpz p, q, n, a, dp, dq, pinv, want, got;
	rng.mpz_prime(p, 200);
	rng.mpz_prime(q, 190);
	mpz_mul(n, p, q);
	rng.mpz_bits(a, 380);
	rng.mpz_bits(dp, 150);
	rng.mpz_bits(dq, 150);
	mpz_invert(pinv, p, q);
	Mpz wp, wq;
	mpz_powm(wp, a, dp, p);
	mpz_powm(wq, a, dq, q);
	const CrtKey key(p, q, dp, dq, pinv);
	Big ba(a);
	ASSERT_EQ(key.exp(&ba.b, &ba.b, false), BIG_OK);
	bt::to_mpz(got, &ba.b);
	Mpz gp, gq;
	mpz_mod(gp, got, p);
	mpz_mod(gq, got, q);
	EXPECT_EQ(mpz_cmp(gp, wp), 0);
	EXPECT_EQ(mpz_cmp(gq, wq), 0);
}

/* big_modexp_crt_ws wipes the caller's ws before it returns (bignum.h):
 * every chunk of a poisoned ws that the call wrote is zero after it, at
 * RSA-1024 to 4096 sizes, whichever path this entry binds. */
TEST(ModexpCrt, CallersScratchIsWipedBeforeReturn)
{
	bt::Rng rng(35);
	for (int bits : { 512, 1024, 1536, 2048 }) {
		SCOPED_TRACE(bits);
		Mpz p, q, n, a, dp, dq, pinv, want, got;
		rng.mpz_prime_pair(p, q, bits, bits);
		mpz_mul(n, p, q);
		rng.mpz_bits(a, 2 * bits - 1);
		rng.mpz_bits(dp, bits - 1);
		rng.mpz_bits(dq, bits - 1);
		mpz_invert(pinv, p, q);
		const CrtKey key(p, q, dp, dq, pinv);
		const int nlen = key.p.b.len + key.q.b.len;
		const size_t chunks = big_modexp_crt_scratch_chunks(nlen);
		ASSERT_GT(chunks, 0u);
		const BIG_CHUNK_TYPE poison = (BIG_CHUNK_TYPE)0xa5a5a5a5a5a5a5a5ULL;
		std::vector<BIG_CHUNK_TYPE> ws(chunks, poison);
		Big ba(a), out(1);
		ASSERT_EQ(big_modexp_crt_ws(&out.b, &ba.b, &key.dp.b, &key.dq.b, &key.p.b, &key.q.b,
					    &key.pinv.b, &key.prr.b, &key.qrr.b, ws.data(), chunks),
			  BIG_OK);
		/* What the call wrote is zero again; what it never used keeps
		 * the poison. */
		size_t left = 0, written = 0;
		for (BIG_CHUNK_TYPE c : ws) {
			left += c != 0 && c != poison;
			written += c != poison;
		}
		EXPECT_GT(written, 0u) << "the call used none of ws";
		EXPECT_EQ(left, 0u) << "chunks of ws left as the call wrote them, of " << chunks;
		Mpz wp, gp;
		mpz_powm(wp, a, dp, p);
		bt::to_mpz(got, &out.b);
		mpz_mod(gp, got, p);
		EXPECT_EQ(mpz_cmp(gp, wp), 0);
	}
}

/* big_crt_check (the fault check modulo p and q apart) against GMP:
 * equal is 1 exactly when s^e = a mod pq (n = pq given), for random
 * primes of equal and unequal lengths (the RSA sizes among them, so that
 * the ifma variant takes its dual radix-2^52 path at 512 to 2048-bit
 * primes), s of any value below B^(lp + lq) for unequal lengths and below
 * min(p, q) B^len for equal ones (the contract's bound, pq and above
 * too; trimmed and padded), e of 0, 1, 3, 65537 and random lengths, a the
 * true power, it plus pq (where within the bound), and off by one, by a
 * bit, by p alone (so right mod p, wrong mod q) and by q alone (right mod
 * q, wrong mod p). */
TEST(CrtCheck, AgainstPowmModPq)
{
	bt::Rng rng(34);
	const struct {
		int pbits, qbits;
	} sizes[] = { { 3, 5 },	    { 31, 33 },	  { 64, 64 },	{ 65, 63 },   { 100, 300 },
		      { 257, 256 }, { 512, 512 }, { 513, 511 }, { 768, 768 }, { 1024, 1024 },
		      { 1536, 1536 }, { 2048, 2048 } };
	for (const auto &sz : sizes) {
		const long reps = sz.pbits >= 1536 ? 2 : bt::scaled(6);
		for (long r = 0; r < reps; r++) {
			Mpz p, q, n, s, e, want, a, pinv;
			rng.mpz_prime_pair(p, q, sz.pbits, sz.qbits);
			mpz_mul(n, p, q);
			const CrtKey key(p, q, p, q, p); /* only p, q and their R^2 are read */
			const int lpq = key.p.b.len + key.q.b.len;
			/* Values the check takes: below B^lpq, and below min(p, q) R
			 * where the primes have one length. */
			Mpz bound;
			mpz_setbit(bound, static_cast<mp_bitcnt_t>(lpq * BIG_CHUNK_SIZE));
			if (key.p.b.len == key.q.b.len) {
				mpz_set(bound, mpz_cmp(p, q) < 0 ? p : q);
				mpz_mul_2exp(bound, bound,
					     static_cast<mp_bitcnt_t>(key.p.b.len * BIG_CHUNK_SIZE));
			}
			switch (r % 5) {
			case 0: mpz_set_ui(s, r % 2); break;
			case 1: mpz_sub_ui(s, n, 1); break;
			case 2: /* >= n about half the time */
				rng.mpz_bits(s, lpq * BIG_CHUNK_SIZE);
				mpz_mod(s, s, bound);
				break;
			default:
				rng.mpz_bits(s, 1 + static_cast<int>(rng.below(
							    static_cast<uint64_t>(sz.pbits + sz.qbits))));
			}
			switch (rng.below(5)) {
			case 0: mpz_set_ui(e, rng.below(2)); break;
			case 1: mpz_set_ui(e, 3); break;
			case 2: mpz_set_ui(e, 65537); break;
			default: rng.mpz_bits(e, 1 + static_cast<int>(rng.below(200)));
			}
			mpz_powm(want, s, e, n);
			Big bs(s), be(e), bn(n);
			if (rng.below(2) && bs.b.len < lpq)
				bt::pad_len(&bs.b, lpq - bs.b.len);
			for (int wrong = 0; wrong < 6; wrong++) {
				mpz_set(a, want);
				if (wrong == 1)
					mpz_add(a, a, n); /* still s^e mod pq */
				else if (wrong == 2)
					mpz_add_ui(a, a, 1);
				else if (wrong == 3)
					mpz_combit(a, static_cast<mp_bitcnt_t>(
							      rng.below(static_cast<uint64_t>(sz.pbits))));
				else if (wrong == 4)
					mpz_add(a, a, p);
				else if (wrong == 5)
					mpz_add(a, a, q);
				if (mpz_cmp(a, bound) >= 0)
					continue;
				Mpz am;
				mpz_mod(am, a, n);
				const int expect = mpz_cmp(am, want) == 0;
				Big ba(a);
				int equal = -1;
				ASSERT_EQ(big_crt_check(&equal, &bs.b, &ba.b, &be.b, &bn.b, &key.p.b,
							&key.q.b, &key.prr.b, &key.qrr.b),
					  BIG_OK);
				ASSERT_EQ(equal, expect)
					<< "seed " << bt::seed() << " " << sz.pbits << "/" << sz.qbits
					<< " wrong " << wrong << "\n p " << bt::hex(p) << "\n q "
					<< bt::hex(q) << "\n s " << bt::hex(s) << "\n e " << bt::hex(e);
			}
		}
	}
}

/* A prime faulted in memory to another prime of its length, and s right
 * modulo that prime and q (so both halves of the check hold: the control
 * with the n they make passes): p q no longer matches the stored n, so
 * not equal. */
TEST(CrtCheck, FaultedPrimeDoesNotPass)
{
	bt::Rng rng(36);
	for (int bits : { 256, 512, 1024 }) {
		Mpz p, q, p2, n, n2, s, a, e, pinv;
		rng.mpz_prime_pair(p, q, bits, bits);
		do
			rng.mpz_prime(p2, bits);
		while (mpz_cmp(p2, p) == 0 || mpz_cmp(p2, q) == 0);
		mpz_mul(n, p, q);
		mpz_mul(n2, p2, q);
		mpz_set_ui(e, 65537);
		rng.mpz_bits(s, 2 * bits - 8);
		mpz_powm(a, s, e, n2); /* s^e = a mod p2 q */
		const CrtKey faulted(p2, q, p2, q, p2);
		Big bs(s), ba(a), be(e), bn(n), bn2(n2);
		int equal = -1;
		/* The control: with the n they make, the same primes pass. */
		ASSERT_EQ(big_crt_check(&equal, &bs.b, &ba.b, &be.b, &bn2.b, &faulted.p.b,
					&faulted.q.b, &faulted.prr.b, &faulted.qrr.b),
			  BIG_OK);
		EXPECT_EQ(equal, 1) << bits;
		ASSERT_EQ(big_crt_check(&equal, &bs.b, &ba.b, &be.b, &bn.b, &faulted.p.b,
					&faulted.q.b, &faulted.prr.b, &faulted.qrr.b),
			  BIG_OK);
		EXPECT_EQ(equal, 0) << bits;
	}
}

/* Bad arguments: an error and equal 0, never a crash. */
TEST(CrtCheck, RefusesWhatItCannotCheck)
{
	bt::Rng rng(35);
	Mpz p, q, s, e, n;
	rng.mpz_prime(p, 256);
	rng.mpz_prime(q, 256);
	mpz_mul(n, p, q);
	const CrtKey key(p, q, p, q, p);
	mpz_set_ui(e, 65537);
	rng.mpz_bits(s, 700); /* more than lp + lq chunks */
	Big bs(s), be(e), bn(n), one(1);
	int equal = 1;
	EXPECT_EQ(big_crt_check(&equal, &bs.b, &one.b, &be.b, &bn.b, &key.p.b, &key.q.b,
				&key.prr.b, &key.qrr.b),
		  BIG_INVALID_ARGS);
	EXPECT_EQ(equal, 0);
	equal = 1;
	EXPECT_EQ(big_crt_check(&equal, &one.b, &one.b, &be.b, &bs.b, &key.p.b, &key.q.b,
				&key.prr.b, &key.qrr.b),
		  BIG_INVALID_ARGS); /* n longer than p q can be */
	EXPECT_EQ(equal, 0);
	equal = 1;
	Big empty(1);
	empty.b.len = 0;
	EXPECT_EQ(big_crt_check(&equal, &one.b, &one.b, &be.b, &bn.b, &empty.b, &key.q.b, nullptr,
				&key.qrr.b),
		  BIG_INVALID_ARGS);
	EXPECT_EQ(equal, 0);
	EXPECT_EQ(big_crt_check(nullptr, &one.b, &one.b, &be.b, &bn.b, &key.p.b, &key.q.b,
				&key.prr.b, &key.qrr.b),
		  BIG_INVALID_ARGS);
	equal = 1;
	EXPECT_EQ(big_crt_check(&equal, &one.b, &one.b, nullptr, &bn.b, &key.p.b, &key.q.b,
				&key.prr.b, &key.qrr.b),
		  BIG_INVALID_ARGS);
	EXPECT_EQ(equal, 0);
	equal = 1;
	EXPECT_EQ(big_crt_check(&equal, &one.b, &one.b, &be.b, &bn.b, &key.p.b, &key.q.b, &bn.b,
				&key.qrr.b),
		  BIG_INVALID_ARGS); /* an R^2 longer than its prime */
	EXPECT_EQ(equal, 0);
	/* 1^e = 1 with R^2 computed inside. */
	EXPECT_EQ(big_crt_check(&equal, &one.b, &one.b, &be.b, &bn.b, &key.p.b, &key.q.b, nullptr,
				nullptr),
		  BIG_OK);
	EXPECT_EQ(equal, 1);
}

/* A path of big_modexp_crt by name (big_modexp_crt_vertical,
 * big_modexp_crt_paired): its signature. */
typedef BIG_ERR_CODE crt_path_fn(BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *,
				 const BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *,
				 const BIGNUM *);

/* The path `crt` against big_modexp_crt (whichever path this entry
 * binds) and GMP on odd coprime moduli of each size in `sizes` bits, reps
 * each: edge and random a, exponents of the primes' length and one chunk
 * longer, zero, R^2 given or not; then primes of unequal lengths give
 * BIG_INVALID_ARGS. */
void path_matches_bound_and_gmp(crt_path_fn *crt, std::initializer_list<int> sizes, int seed)
{
	bt::Rng rng(seed);
	const long reps = std::max(4L, bt::scaled(4));
	for (int bits : sizes)
		for (long r = 0; r < reps; r++) {
			/* Odd coprime moduli of full size stand for the primes (the
			 * CRT needs no more; mpz_nextprime would take seconds). */
			Mpz p, q, n, a, dp, dq, pinv, pm1, qm1, wp, wq;
			do {
				rng.mpz_bits(p, bits);
				rng.mpz_bits(q, bits);
				mpz_setbit(p, 0);
				mpz_setbit(q, 0);
			} while (mpz_invert(pinv, p, q) == 0);
			mpz_mul(n, p, q);
			switch (r % 4) {
			case 0: mpz_set_ui(a, 0); break;
			case 1: mpz_sub_ui(a, n, 1); break;
			default:
				rng.mpz_bits(a, 2 * bits);
				mpz_mod(a, a, n);
			}
			mpz_sub_ui(pm1, p, 1);
			mpz_sub_ui(qm1, q, 1);
			rng.mpz_bits(dp, bits + 8);
			mpz_mod(dp, dp, pm1);
			rng.mpz_bits(dq, bits + 8);
			mpz_mod(dq, dq, qm1);
			if (r == 1)
				mpz_set_ui(dq, 0);
			mpz_powm(wp, a, dp, p);
			mpz_powm(wq, a, dq, q);
			CrtKey key(p, q, dp, dq, pinv);
			if (r % 2)
				bt::pad_len(&key.dp.b, 1); /* exponents of different lengths */
			Big ba(a), got_path(1), bound(1);
			const bool give_rr = r % 3 != 2;
			const BIGNUM *prr = give_rr ? &key.prr.b : nullptr, *qrr = give_rr ? &key.qrr.b : nullptr;
			ASSERT_EQ(crt(&got_path.b, &ba.b, &key.dp.b, &key.dq.b, &key.p.b, &key.q.b,
				      &key.pinv.b, prr, qrr),
				  BIG_OK);
			ASSERT_EQ(key.exp(&bound.b, &ba.b, give_rr), BIG_OK);
			Mpz got, other, gp, gq;
			bt::to_mpz(got, &got_path.b);
			bt::to_mpz(other, &bound.b);
			mpz_mod(gp, got, p);
			mpz_mod(gq, got, q);
			ASSERT_TRUE(mpz_cmp(gp, wp) == 0 && mpz_cmp(gq, wq) == 0 && mpz_cmp(got, n) < 0)
				<< bits << " rep " << r << "\n p " << bt::hex(p) << "\n q " << bt::hex(q)
				<< "\n a " << bt::hex(a) << "\n dp " << bt::hex(dp) << "\n dq " << bt::hex(dq);
			ASSERT_EQ(mpz_cmp(got, other), 0) << bits << " rep " << r;
			ASSERT_EQ(got_path.b.len, key.p.b.len + key.q.b.len);
		}
	/* Only what it serves. */
	Mpz p, q, pinv;
	do {
		rng.mpz_bits(p, 1536);
		rng.mpz_bits(q, 1600);
		mpz_setbit(p, 0);
		mpz_setbit(q, 0);
	} while (mpz_invert(pinv, p, q) == 0);
	CrtKey key(p, q, p, q, pinv);
	Big ba(p), out(1);
	EXPECT_EQ(crt(&out.b, &ba.b, &key.dp.b, &key.dq.b, &key.p.b, &key.q.b, &key.pinv.b, nullptr,
		      nullptr),
		  BIG_INVALID_ARGS);
}

TEST(ModexpCrt, VerticalPathMatchesBoundPathAndGmp)
{
	const bool adx = big_cpu_bound() == BIG_CPU_ADX;
	/* In the ifma variant the RSA halves take radix 2^52 (test_radix52_crt
	 * has the sizes); the vertical path is the adx variant's. */
	const bool ifma = big_cpu_bound() == BIG_CPU_IFMA;
	const bool serves = BIG_VERT_HAVE_AVX2_BUILD && big_lanes_cpu_has_avx2();
	const bool zmm = serves && big_vert_zmm_tuned() && big_vert_cpu_has_avx512();
	for (int bits : { 1536, 2048 }) {
		const char *want_path = ifma			       ? "radix52-ifma" :
					adx && zmm		       ? "vertical-avx512" :
					adx && serves && big_vert_tuned() ? "vertical-avx2" :
									    "radix64";
		EXPECT_STREQ(big_modexp_crt_path(bits, bits), want_path) << bits;
	}
	EXPECT_STREQ(big_modexp_crt_path(1024, 1024), ifma ? "radix52-ifma" : "radix64");
	if (big_cpu_bound() != BIG_CPU_IFMA) {
		EXPECT_STREQ(big_modexp_crt_path(1536, 1600), "radix64");
	}
	if (!serves)
		GTEST_SKIP() << "no vertical path in this build or on this CPU";
	path_matches_bound_and_gmp(big_modexp_crt_vertical, { 1536, 2048 }, 34);
}

/* The vertical path on the zmm kernels, where the CPU has AVX-512F. */
TEST(ModexpCrt, VerticalZmmPathMatchesBoundPathAndGmp)
{
	if (!BIG_VERT_HAVE_AVX2_BUILD || !big_lanes_cpu_has_avx2() || !big_vert_cpu_has_avx512())
		GTEST_SKIP() << "no vertical zmm path in this build or on this CPU";
	path_matches_bound_and_gmp(big_modexp_crt_vertical_zmm, { 1536, 2048 }, 36);
}

/* The paired path (the two exponentiations side by side) at every size:
 * one chunk, RSA-1024's halves where the tuning table binds it, and
 * others around and above; its name where it is bound. */
TEST(ModexpCrt, PairedPathMatchesBoundPathAndGmp)
{
	const bool ifma = big_cpu_bound() == BIG_CPU_IFMA;
	const bool paired8 = BIG_CHUNK_SIZE == 64 && big_crt_paired8_tuned();
	EXPECT_STREQ(big_modexp_crt_path(512, 512),
		     ifma ? "radix52-ifma" : paired8 ? "radix64-paired" : "radix64");
	if (!ifma) {
		EXPECT_STREQ(big_modexp_crt_path(512, 448), "radix64") << "8 and 7 chunks: apart";
		EXPECT_STREQ(big_modexp_crt_path(1024, 1024), "radix64") << "16 chunks: apart";
	}
	path_matches_bound_and_gmp(big_modexp_crt_paired, { 60, 200, 511, 512, 576, 1024, 1536 },
				   35);
}

} // namespace
