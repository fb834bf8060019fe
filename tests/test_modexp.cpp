/*
 * big_modexp (sliding window, variable time) and big_modexp_ct (fixed
 * window, constant time) against mpz_powm: every modulus bit length from 3
 * to 4096 at least once (full-length exponents up to 320 bits, short
 * exponents above to keep the run short; full RSA-size exponents at 512,
 * 1024, 1536, 2048 and 4096 bits), moduli past 4096 bits to 16384 (short
 * exponents), random-density bases (shorter than n,
 * longer than n, with high zero chunks) and exponents (with high zero
 * chunks, which big_modexp_ct must still process), n_rr given or NULL, and
 * the edge cases: exponent 0 and 1, base 0, 1, n-1, n, base >= n, n = 3,
 * moduli of all-ones chunks and of exactly a chunk multiple of bits, the
 * result aliasing the base, and the refusals (even n, n <= 1).
 * big_modexp_ct_base (a secret base, a public exponent) runs in every one
 * of those checks where the base is below R, and on its own with bases up
 * to R - 1, even and odd exponents (0, 1, 2, 3, 4, 17, 65537, 2^100 +- 1,
 * long), moduli up to 8192 bits; each call also with the result aliasing
 * the base, the exponent, n or n_rr, checking its untrimmed length; its
 * refusals.
 */
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "operand.h"
#include "testutil.h"

namespace {

using bt::Big;
using bt::chunk;
using bt::kChunkBits;
using bt::Mpz;
using bt::pad_len;

typedef BIG_ERR_CODE modexp_fn(BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *,
			       const BIGNUM *);

struct Impl {
	const char *name;
	modexp_fn *fn;
};
const Impl kImpls[] = { { "big_modexp", big_modexp }, { "big_modexp_ct", big_modexp_ct } };

/* Check big_modexp_ct_base(a, e, n) against mpz_powm: the value, the
 * untrimmed length (n's trimmed length), sign 1, inputs unchanged, and the
 * result aliasing a, e, n, then n_rr.  a may be >= n (below R).  false on
 * a mismatch. */
bool check_ct_base(const mpz_t a, const mpz_t e, const mpz_t n, int a_pad = 0, int e_pad = 0)
{
	Mpz want;
	mpz_powm(want, a, e, n);
	Big ba(a), be(e), bn(n), rr(1);
	EXPECT_EQ(big_mont_rr(&rr.b, &bn.b), BIG_OK);
	const int nlen = bn.b.len;
	if (a_pad)
		pad_len(&ba.b, a_pad);
	if (e_pad)
		pad_len(&be.b, e_pad);
	const chunk n0 = big_n0(bn.b.value[0]);
	const std::vector<chunk> a_before(ba.b.value, ba.b.value + ba.b.len);
	const std::vector<chunk> e_before(be.b.value, be.b.value + be.b.len);
	const std::string ctx = "\n n " + bt::hex(n) + "\n a " + bt::hex(a) + "\n e " + bt::hex(e) +
				"\n want " + bt::hex(want);
	Big out(1);
	BIG_ERR_CODE err = big_modexp_ct_base(&out.b, &ba.b, &be.b, &bn.b, n0, &rr.b);
	Mpz got;
	bt::to_mpz(got, &out.b);
	bool ok = err == BIG_OK && mpz_cmp(got, want) == 0;
	EXPECT_TRUE(ok) << "err " << err << ctx << "\n got  " << bt::hex(got);
	EXPECT_EQ(out.b.len, nlen) << "the result is not trimmed" << ctx;
	EXPECT_EQ(out.b.sign, 1);
	EXPECT_TRUE(std::equal(a_before.begin(), a_before.end(), ba.b.value)) << "a modified";
	EXPECT_TRUE(std::equal(e_before.begin(), e_before.end(), be.b.value)) << "e modified";

	/* The contract: result may alias any input. */
	for (const char *alias : { "a", "e", "n", "n_rr" }) {
		Big a2(a), e2(e), n2(n), rr2(1);
		EXPECT_EQ(big_mont_rr(&rr2.b, &n2.b), BIG_OK);
		BIGNUM *res = *alias == 'a' ? &a2.b : *alias == 'e' ? &e2.b : alias[1] == '\0' ? &n2.b : &rr2.b;
		EXPECT_EQ(big_modexp_ct_base(res, &a2.b, &e2.b, &n2.b, n0, &rr2.b), BIG_OK);
		bt::to_mpz(got, res);
		if (mpz_cmp(got, want) != 0) {
			ADD_FAILURE() << "result == " << alias << ctx;
			ok = false;
		}
	}
	return ok;
}

/* Run big_modexp and big_modexp_ct on (a, e, n) with and without n_rr, and
 * big_modexp_ct_base where a fits its contract (a < R); false on a
 * mismatch (the EXPECTs say what). */
bool check(const mpz_t a, const mpz_t e, const mpz_t n, int a_pad = 0, int e_pad = 0)
{
	Mpz want;
	mpz_powm(want, a, e, n);
	Big ba(a), be(e), bn(n), rr(1);
	if (a_pad)
		pad_len(&ba.b, a_pad);
	if (e_pad)
		pad_len(&be.b, e_pad);
	EXPECT_EQ(big_mont_rr(&rr.b, &bn.b), BIG_OK);
	const std::vector<chunk> a_before(ba.b.value, ba.b.value + ba.b.len);
	bool ok = true;
	for (const Impl &im : kImpls) {
		for (int with_rr = 0; with_rr < 2; with_rr++) {
			Big out(1);
			BIG_ERR_CODE err = im.fn(&out.b, &ba.b, &be.b, &bn.b, with_rr ? &rr.b : nullptr);
			Mpz got;
			bt::to_mpz(got, &out.b);
			if (err != BIG_OK || mpz_cmp(got, want) != 0) {
				ADD_FAILURE() << im.name << (with_rr ? " (n_rr)" : " (n_rr NULL)")
					      << " err " << err << "\n n " << bt::hex(n) << "\n a "
					      << bt::hex(a) << "\n e " << bt::hex(e) << "\n want "
					      << bt::hex(want) << "\n got  " << bt::hex(got);
				ok = false;
			}
			EXPECT_EQ(out.b.sign, 1);
		}
	}
	EXPECT_TRUE(std::equal(a_before.begin(), a_before.end(), ba.b.value)) << "input modified";
	const size_t r_bits = static_cast<size_t>(kChunkBits) * static_cast<size_t>(bn.b.len);
	if (mpz_sizeinbase(a, 2) <= r_bits)
		ok = check_ct_base(a, e, n, a_pad, e_pad) && ok;
	return ok;
}

void random_odd_modulus(bt::Rng &rng, mpz_t n, int bits)
{
	rng.mpz_bits(n, bits);
	mpz_setbit(n, 0);
	if (mpz_cmp_ui(n, 3) < 0)
		mpz_set_ui(n, 3);
}

/* A base: often an edge value, else random of random length around n's. */
void random_base(bt::Rng &rng, mpz_t a, const mpz_t n, int bits)
{
	switch (rng.below(10)) {
	case 0: mpz_set_ui(a, 0); break;
	case 1: mpz_set_ui(a, 1); break;
	case 2: mpz_sub_ui(a, n, 1); break;
	case 3: mpz_set(a, n); break;
	case 4: rng.mpz_bits(a, bits + 1 + static_cast<int>(rng.below(200))); break; /* >= n */
	default:
		rng.mpz_bits(a, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(bits))));
		break;
	}
}

/* Every bit length of n to 600 bits: n's top bit at every position of
 * its top chunk, for 1 to 9 chunks of 64 bits (18 of 32).  Above, every
 * chunk length to 4096 bits with the top bit at the chunk's first
 * position, its last and one drawn at random: the code paths depend on
 * the length in chunks and on the top chunk, which every bit length
 * there went through again and again, at most of the suite's time. */
std::vector<int> modulus_bit_lengths(bt::Rng &rng)
{
	std::vector<int> lengths;
	for (int bits = 3; bits <= 600; bits++)
		lengths.push_back(bits);
	for (int chunks = 600 / bt::kChunkBits + 1; chunks * bt::kChunkBits <= 4096; chunks++) {
		const int first = (chunks - 1) * bt::kChunkBits + 1;
		for (int bits : { first, first + 1 + static_cast<int>(rng.below(bt::kChunkBits - 2)),
				  chunks * bt::kChunkBits })
			if (bits > 600)
				lengths.push_back(bits);
	}
	return lengths;
}

TEST(Modexp, EveryModulusBitLength)
{
	bt::Rng rng(21);
	for (int bits : modulus_bit_lengths(rng)) {
		Mpz n, a, e;
		random_odd_modulus(rng, n, bits);
		random_base(rng, a, n, bits);
		const int ebits_max = bits <= 320 ? bits + 8 : 64;
		switch (rng.below(8)) {
		case 0: mpz_set_ui(e, 0); break;
		case 1: mpz_set_ui(e, 1); break;
		case 2: mpz_set_ui(e, 65537); break;
		default: rng.mpz_bits(e, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(ebits_max))));
		}
		ASSERT_TRUE(check(a, e, n, static_cast<int>(rng.below(3)),
				  static_cast<int>(rng.below(2))))
			<< "bits " << bits;
	}
}

TEST(Modexp, FullExponentsAtRsaSizes)
{
	bt::Rng rng(22);
	for (int bits : { 512, 1024, 1536, 2048, 4096 }) {
		const long reps = bits >= 2048 ? 1 : bt::scaled(3);
		for (long r = 0; r < reps; r++) {
			Mpz n, a, e;
			random_odd_modulus(rng, n, bits);
			rng.mpz_bits(a, bits - 1);
			rng.mpz_bits(e, bits - static_cast<int>(rng.below(8)));
			ASSERT_TRUE(check(a, e, n)) << "bits " << bits;
		}
	}
}

/* Moduli above 4096 bits to BIG_MAX_MODULUS_BITS (an RSA-16384 key's n),
 * at chunk boundaries and between, with short exponents (the time is the
 * modulus's, squared, times the exponent's length). */
TEST(Modexp, ModuliPast4096BitsToTheMaximum)
{
	bt::Rng rng(23);
	for (int bits : { 4096 + kChunkBits, 6144 - 7, 8192, 12288 + 1, BIG_MAX_MODULUS_BITS - kChunkBits,
			  BIG_MAX_MODULUS_BITS }) {
		Mpz n, a, e;
		random_odd_modulus(rng, n, bits);
		mpz_setbit(n, static_cast<mp_bitcnt_t>(bits - 1));
		random_base(rng, a, n, bits);
		rng.mpz_bits(e, 1 + static_cast<int>(rng.below(48)));
		ASSERT_TRUE(check(a, e, n, static_cast<int>(rng.below(2)))) << "bits " << bits;
	}
}

TEST(Modexp, RandomSmallModuli)
{
	bt::Rng rng(23);
	for (long i = 0; i < bt::scaled(3000); i++) {
		Mpz n, a, e;
		const int bits = 2 + static_cast<int>(rng.below(200));
		random_odd_modulus(rng, n, bits);
		random_base(rng, a, n, bits);
		rng.mpz_bits(e, static_cast<int>(rng.below(300)));
		ASSERT_TRUE(check(a, e, n, static_cast<int>(rng.below(2)),
				  static_cast<int>(rng.below(2))));
	}
}

TEST(Modexp, EdgeCases)
{
	bt::Rng rng(24);
	std::vector<int> sizes = { 2, 3, kChunkBits - 1, kChunkBits, kChunkBits + 1,
				   2 * kChunkBits, 5 * kChunkBits, 1024, 2048 };
	for (int bits : sizes) {
		std::vector<std::string> moduli;
		Mpz n;
		if (bits == 2) {
			mpz_set_ui(n, 3);
		} else {
			mpz_set_ui(n, 0);
			mpz_setbit(n, static_cast<mp_bitcnt_t>(bits));
			mpz_sub_ui(n, n, 1); /* all-ones */
		}
		for (int kind = 0; kind < 2; kind++) {
			if (kind == 1) {
				if (bits == 2)
					break;
				random_odd_modulus(rng, n, bits); /* top bit set: exactly `bits` */
			}
			Mpz nm1, big;
			mpz_sub_ui(nm1, n, 1);
			mpz_mul(big, n, n);
			mpz_add_ui(big, big, 12345);
			std::vector<mpz_srcptr> bases;
			Mpz zero, one, two;
			mpz_set_ui(one, 1);
			mpz_set_ui(two, 2);
			bases = { zero, one, two, nm1, n, big };
			/* Full-length exponents for the small moduli; the large
			 * ones get theirs in FullExponentsAtRsaSizes. */
			Mpz eshort, elong, eedge;
			rng.mpz_bits(elong, bits <= 320 ? bits + 3 : 200);
			mpz_set_ui(eshort, 3);
			if (bits <= 320)
				mpz_set(eedge, nm1);
			else
				mpz_tdiv_q_2exp(eedge, nm1, static_cast<mp_bitcnt_t>(bits - 130));
			std::vector<mpz_srcptr> exps = { zero, one, two, eshort, elong, eedge };
			for (mpz_srcptr a : bases)
				for (mpz_srcptr e : exps)
					ASSERT_TRUE(check(a, e, n)) << "bits " << bits;
		}
	}
}

TEST(Modexp, ResultAliasesBase)
{
	bt::Rng rng(25);
	for (int bits : { 5, 64, 65, 300, 1024 }) {
		Mpz n, a, e, want, got;
		random_odd_modulus(rng, n, bits);
		rng.mpz_bits(a, bits + 10);
		rng.mpz_bits(e, 100);
		mpz_powm(want, a, e, n);
		for (const Impl &im : kImpls) {
			Big ba(a), be(e), bn(n);
			ASSERT_EQ(im.fn(&ba.b, &ba.b, &be.b, &bn.b, nullptr), BIG_OK);
			bt::to_mpz(got, &ba.b);
			ASSERT_EQ(mpz_cmp(got, want), 0) << im.name << " bits " << bits;
		}
	}
}

TEST(Modexp, RefusesEvenOrTrivialModulus)
{
	Mpz a, e;
	mpz_set_ui(a, 5);
	mpz_set_ui(e, 3);
	Big ba(a), be(e), out(1);
	for (unsigned v : { 0u, 1u, 2u, 100u }) {
		Mpz n;
		mpz_set_ui(n, v);
		Big bn(n);
		for (const Impl &im : kImpls)
			EXPECT_EQ(im.fn(&out.b, &ba.b, &be.b, &bn.b, nullptr), BIG_INVALID_ARGS)
				<< im.name << " n = " << v;
		EXPECT_EQ(big_modexp_ct_base(&out.b, &ba.b, &be.b, &bn.b, 1, &ba.b), BIG_INVALID_ARGS)
			<< "big_modexp_ct_base n = " << v;
	}
}

/* Bases from below n up to R - 1 (a < R is all the contract asks), with
 * small, even, long and 2^k +- 1 exponents, at chunk boundaries and RSA
 * sizes up to 8192 bits. */
TEST(ModexpCtBase, BasesUpToRAndEdgeExponents)
{
	bt::Rng rng(27);
	for (int bits : { 3, 5, kChunkBits - 1, kChunkBits, kChunkBits + 1, 2 * kChunkBits, 512,
			  1024, 1025, 2048, 3072, 4096, 8192 }) {
		Mpz n, r, above_n;
		random_odd_modulus(rng, n, bits);
		mpz_set_ui(r, 0);
		mpz_setbit(r, static_cast<mp_bitcnt_t>((bits + kChunkBits - 1) / kChunkBits * kChunkBits));
		std::vector<Mpz> bases(5), exps(10);
		rng.mpz_bits(bases[0], bits - 1);
		mpz_sub_ui(bases[1], n, 1);
		mpz_set(bases[2], n);
		mpz_sub_ui(bases[3], r, 1);
		rng.mpz_bits(above_n, bits + kChunkBits);
		mpz_sub(bases[4], r, n);
		mpz_mod(above_n, above_n, bases[4]);
		mpz_add(bases[4], n, above_n); /* in [n, R) */
		const unsigned long small[] = { 0, 1, 2, 3, 4, 17, 65537 };
		for (size_t i = 0; i < 7; i++)
			mpz_set_ui(exps[i], small[i]);
		rng.mpz_bits(exps[7], bits <= 2048 ? bits : 300);
		mpz_setbit(exps[8], 100);
		mpz_add_ui(exps[9], exps[8], 1);
		mpz_sub_ui(exps[8], exps[8], 1);
		for (const Mpz &a : bases)
			for (const Mpz &e : exps)
				ASSERT_TRUE(check_ct_base(a, e, n)) << "bits " << bits;
	}
}

/* A base or R^2 with a non-zero chunk at or past n's length (n of one
 * chunk); the same values with that chunk zero are accepted. */
TEST(ModexpCtBase, RefusesWideOperands)
{
	bt::Rng rng(29);
	Mpz n, a, e;
	random_odd_modulus(rng, n, kChunkBits);
	mpz_set_ui(a, 7);
	mpz_set_ui(e, 65537);
	Big bn(n), rr(1), be(e), out(1);
	ASSERT_EQ(big_mont_rr(&rr.b, &bn.b), BIG_OK);
	const chunk n0 = big_n0(bn.b.value[0]);
	for (bool in_rr : { true, false }) {
		Big ba(a), wide_rr(1);
		ASSERT_EQ(big_copy(&wide_rr.b, &rr.b), BIG_OK);
		BIGNUM *w = in_rr ? &wide_rr.b : &ba.b;
		pad_len(w, 1);
		EXPECT_EQ(big_modexp_ct_base(&out.b, &ba.b, &be.b, &bn.b, n0, &wide_rr.b), BIG_OK);
		w->value[1] = 1;
		EXPECT_EQ(big_modexp_ct_base(&out.b, &ba.b, &be.b, &bn.b, n0, &wide_rr.b),
			  BIG_INVALID_ARGS)
			<< (in_rr ? "R^2" : "base");
	}
}

} // namespace
