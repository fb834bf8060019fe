/*
 * tests/lanes/lane_check.h -- what test_lanes.cpp (radix 2^28, lanes.h)
 * and test_lanes52.cpp (radix 2^52, lanes52.h) check the same way, once:
 * lane numbers through GMP's export and import with nail bits, the
 * conversions' round trip, random
 * moduli, edge operands, the exact almost-Montgomery value, and the check
 * of a product and squaring pair; a batch CRT case.  A layer is named by its traits
 * (Radix28, Radix52): digit width, modulus type, kernel types, k0.
 */
#ifndef BIGMONT_TESTS_LANE_CHECK_H
#define BIGMONT_TESTS_LANE_CHECK_H

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "internal.h"
#include "lanes/lanes.h"
#include "lanes/lanes52.h"
#include "testutil.h"

namespace lane_check {

using bt::Mpz;

struct Radix28 {
	typedef big_lanes_mod mod_type;
	typedef big_lanes_mul_fn mul_fn;
	typedef big_lanes_sqr_fn sqr_fn;
	static constexpr int bits = 28;
	/* The products' words are exact digits. */
	static constexpr bool carry_above = false;
	static uint64_t k0(uint64_t m0) { return big_lanes_k0(m0); }
};

struct Radix52 {
	typedef big_lanes52_mod mod_type;
	typedef big_lanes52_mul_fn mul_fn;
	typedef big_lanes52_sqr_fn sqr_fn;
	static constexpr int bits = 52;
	/* The products leave the carry they passed up above each digit
	 * (lanes52.h's digit form). */
	static constexpr bool carry_above = true;
	static uint64_t k0(uint64_t m0) { return big_lanes52_k0(m0); }
};

/* A build of a layer's kernels, the parameter of its suite's tests;
 * runnable: the CPU can run it. */
template <class Ops> struct Build {
	const char *name;
	Ops ops;
	bool runnable;
};

template <class Ops> void PrintTo(const Build<Ops> &b, std::ostream *os)
{
	*os << b.name;
}

/* A lane number of k digits of `bits` bits each (lanes.h's layout). */
struct LaneNum {
	int k, bits;
	std::vector<uint64_t> w;
	LaneNum(int k_, int bits_) : k(k_), bits(bits_), w(BIG_LANES_WORDS(k_), 0) {}
	uint64_t *x() { return w.data(); }
	void set(int l, const mpz_t v)
	{
		std::vector<uint64_t> d(static_cast<size_t>(k) + 80, 0);
		size_t count = 0;
		EXPECT_LE(mpz_sizeinbase(v, 2), static_cast<size_t>(bits * k));
		if (mpz_sgn(v) != 0)
			mpz_export(d.data(), &count, -1, sizeof(uint64_t), 0,
				   static_cast<size_t>(64 - bits), v);
		for (int j = 0; j < k; j++)
			w[BIG_LANES_AT(j, l)] = d[static_cast<size_t>(j)];
	}
	/* The same words masked to their digits (their low `bits` bits). */
	LaneNum digits() const
	{
		LaneNum d = *this;
		for (uint64_t &v : d.w)
			v &= (UINT64_C(1) << bits) - 1;
		return d;
	}
	/* Lane l as a number; false if a digit is not normalised (a word has
	 * bits above its digit), unless low_bits: then each word's low `bits`
	 * bits are its digit, whatever is above. */
	bool get(int l, mpz_t out, bool low_bits = false) const
	{
		std::vector<uint64_t> d(static_cast<size_t>(k));
		bool ok = true;
		for (int j = 0; j < k; j++) {
			d[static_cast<size_t>(j)] = w[BIG_LANES_AT(j, l)];
			if (low_bits)
				d[static_cast<size_t>(j)] &= (UINT64_C(1) << bits) - 1;
			ok = ok && d[static_cast<size_t>(j)] >> bits == 0;
		}
		mpz_import(out, static_cast<size_t>(k), -1, sizeof(uint64_t), 0,
			   static_cast<size_t>(64 - bits), d.data());
		return ok;
	}
};

/* A layer's conversions against GMP at k = kmin .. kmax digits: in each
 * lane a random number of random length goes in by `from` (the layer's
 * big_lanes*_from_chunks), reads back by LaneNum::get and by `to` (its
 * _to_chunks) as the same chunks, and leaves the later lanes' words
 * untouched. */
template <class From, class To>
void round_trips_against_gmp(bt::Rng &rng, int kmin, int kmax, int bits, From from, To to)
{
	const uint64_t untouched = 0x0badbeefULL;
	for (int k = kmin; k <= kmax; k++) {
		const int nbits = bits * k;
		const int len = (nbits + BIG_CHUNK_SIZE - 1) / BIG_CHUNK_SIZE;
		LaneNum x(k, bits);
		for (uint64_t &v : x.w)
			v = untouched;
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz v, back;
			rng.mpz_bits(v, 1 + static_cast<int>(rng.below(static_cast<uint64_t>(nbits))));
			std::vector<bt::chunk> w = bt::chunks_of(v, len);
			from(x.x(), l, k, w.data(), len);
			ASSERT_TRUE(x.get(l, back)) << "k " << k << " lane " << l;
			ASSERT_EQ(mpz_cmp(v, back), 0) << "k " << k << " lane " << l;
			for (int later = l + 1; later < BIG_LANES; later++)
				for (int j = 0; j < k; j++)
					ASSERT_EQ(x.w[BIG_LANES_AT(j, later)], untouched)
						<< "k " << k << " lane " << l << " wrote lane " << later;
			std::vector<bt::chunk> out(static_cast<size_t>(len), 7);
			to(out.data(), len, x.x(), l, k);
			ASSERT_EQ(out, w) << "k " << k << " lane " << l;
		}
	}
}

/* A random odd modulus of at most `top` bits, > 1, by kind: 0 all ones,
 * 1 small, else within 3 bits of full size. */
inline void random_modulus(bt::Rng &rng, mpz_t m, int top, int kind)
{
	if (kind == 0) {
		mpz_set_ui(m, 1);
		mpz_mul_2exp(m, m, static_cast<mp_bitcnt_t>(top));
		mpz_sub_ui(m, m, 1);
		return;
	}
	if (kind == 1)
		rng.mpz_bits(m, 2 + static_cast<int>(rng.below(static_cast<uint64_t>(top - 1))));
	else
		rng.mpz_bits(m, top - static_cast<int>(rng.below(3)));
	mpz_setbit(m, 0);
	if (mpz_cmp_ui(m, 1) == 0)
		mpz_set_ui(m, 3);
}

/* R^2 mod m for R = 2^rbits. */
inline void r_squared(mpz_t out, const mpz_t m, int rbits)
{
	mpz_set_ui(out, 1);
	mpz_mul_2exp(out, out, static_cast<mp_bitcnt_t>(2 * rbits));
	mpz_mod(out, out, m);
}

/* (x + Y m) / R with Y = -x m^-1 mod R, R = 2^rbits: the exact
 * almost-Montgomery value. */
inline void amm(mpz_t out, const mpz_t x, const mpz_t m, int rbits)
{
	Mpz R, y, inv;
	mpz_set_ui(R, 1);
	mpz_mul_2exp(R, R, static_cast<mp_bitcnt_t>(rbits));
	mpz_invert(inv, m, R);
	mpz_mul(y, x, inv);
	mpz_neg(y, y);
	mpz_mod(y, y, R);
	mpz_mul(y, y, m);
	mpz_add(out, x, y);
	mpz_tdiv_q_2exp(out, out, static_cast<mp_bitcnt_t>(rbits));
}

/* The edge kinds of operand() below 2m: 0, 1, m-1, 2m-1, the most
 * all-ones digits below 2m; larger kinds are random below 2m. */
constexpr int kEdgeOperands = 5;

inline void operand(bt::Rng &rng, mpz_t v, const mpz_t m, int kind, int bits)
{
	Mpz two_m;
	mpz_mul_2exp(two_m, m, 1);
	switch (kind) {
	case 0:
		mpz_set_ui(v, 0);
		break;
	case 1:
		mpz_set_ui(v, 1);
		break;
	case 2:
		mpz_sub_ui(v, m, 1);
		break;
	case 3:
		mpz_sub_ui(v, two_m, 1);
		break;
	case 4: { /* 2^(bits j) - 1 for the largest j with it below 2m */
		const size_t top = mpz_sizeinbase(two_m, 2) - 1;
		mpz_set_ui(v, 1);
		mpz_mul_2exp(v, v, static_cast<mp_bitcnt_t>(top / static_cast<size_t>(bits) *
							    static_cast<size_t>(bits)));
		mpz_sub_ui(v, v, 1);
		break;
	}
	default:
		rng.mpz_bits(v, static_cast<int>(mpz_sizeinbase(two_m, 2)));
		mpz_mod(v, v, two_m);
	}
}

/* Eight moduli as lanes of k digits, k0 and R^2 mod m from GMP: random
 * ones of at most `top` bits (kinds as random_modulus), or given. */
template <class Layer> struct Moduli {
	typename Layer::mod_type mod;
	Mpz m[BIG_LANES];
	Moduli(bt::Rng &rng, int k, int top)
	{
		for (int l = 0; l < BIG_LANES; l++)
			random_modulus(rng, m[l], top, static_cast<int>(rng.below(6)));
		make(k);
	}
	Moduli(const Mpz *mods, int k)
	{
		for (int l = 0; l < BIG_LANES; l++)
			mpz_set(m[l], mods[l].v);
		make(k);
	}
	void make(int k)
	{
		memset(&mod, 0, sizeof(mod));
		mod.digits = k;
		LaneNum mm(k, Layer::bits), rr(k, Layer::bits);
		Mpz r2;
		for (int l = 0; l < BIG_LANES; l++) {
			mm.set(l, m[l]);
			mod.k0[l] = Layer::k0(mpz_getlimbn(m[l], 0));
			r_squared(r2, m[l], Layer::bits * k);
			rr.set(l, r2);
		}
		memcpy(mod.m, mm.w.data(), mm.w.size() * 8);
		memcpy(mod.rr, rr.w.data(), rr.w.size() * 8);
	}
};

/*
 * mul and sqr of a layer at M's digit count against GMP, `rounds` rounds
 * (at least two): round 0 gives lane l the operand kinds l and l + 3
 * modulo kEdgeOperands + 1 (every edge in a and in b), the last the same
 * operand in every lane, the others random kinds.  Each result must be
 * the exact almost-Montgomery value with normalised digits (radix 2^28:
 * exact words, so equal to every other build's; radix 2^52: the digits
 * in the words' low 52 bits, the carries passed up above them, which the
 * next products must not read), and the same words come back with r
 * aliasing a, b and the squaring in place (the product of a by itself:
 * the same value).  `what` names the kernels in a failure.
 */
template <class Layer>
void check_products(bt::Rng &rng, typename Layer::mul_fn *mul, typename Layer::sqr_fn *sqr,
		    const Moduli<Layer> &M, int rounds, const std::string &what)
{
	const int k = M.mod.digits, rbits = Layer::bits * k, kinds = kEdgeOperands + 1;
	for (int round = 0; round < rounds; round++) {
		LaneNum a(k, Layer::bits), b(k, Layer::bits), r(k, Layer::bits),
			s(k, Layer::bits), alias(k, Layer::bits);
		Mpz av[BIG_LANES], bv[BIG_LANES];
		const bool same = round == rounds - 1;
		for (int l = 0; l < BIG_LANES; l++) {
			operand(rng, av[l], M.m[l],
				same ? kEdgeOperands :
				round == 0 ? l % kinds : static_cast<int>(rng.below(kinds + 3)),
				Layer::bits);
			operand(rng, bv[l], M.m[l],
				round == 0 ? (l + 3) % kinds : static_cast<int>(rng.below(kinds + 3)),
				Layer::bits);
			if (same && l > 0 && mpz_cmp(av[0], M.m[l]) < 0)
				mpz_set(av[l], av[0]);
			a.set(l, av[l]);
			b.set(l, bv[l]);
		}
		const std::string at = what + ", k " + std::to_string(k) + ", round " +
				       std::to_string(round);
		mul(r.x(), a.x(), b.x(), &M.mod);
		sqr(s.x(), a.x(), &M.mod);
		for (int l = 0; l < BIG_LANES; l++) {
			Mpz want, got, x;
			mpz_mul(x, av[l], bv[l]);
			amm(want, x, M.m[l], rbits);
			ASSERT_TRUE(r.get(l, got, Layer::carry_above))
				<< at << ", lane " << l << ": not normalised";
			ASSERT_EQ(mpz_cmp(want, got), 0)
				<< "mul " << at << ", lane " << l << " a " << bt::hex(av[l]) << " b "
				<< bt::hex(bv[l]) << " m " << bt::hex(M.m[l]);
			mpz_mul(x, av[l], av[l]);
			amm(want, x, M.m[l], rbits);
			ASSERT_TRUE(s.get(l, got, Layer::carry_above))
				<< at << ", lane " << l << ": not normalised";
			ASSERT_EQ(mpz_cmp(want, got), 0) << "sqr " << at << ", lane " << l << " a "
							 << bt::hex(av[l]) << " m " << bt::hex(M.m[l]);
		}
		alias = a;
		mul(alias.x(), alias.x(), b.x(), &M.mod);
		EXPECT_EQ(alias.w, r.w) << at << ": r aliasing a";
		alias = b;
		mul(alias.x(), a.x(), alias.x(), &M.mod);
		EXPECT_EQ(alias.w, r.w) << at << ": r aliasing b";
		alias = a;
		mul(alias.x(), alias.x(), alias.x(), &M.mod);
		/* The squaring's value; in radix 2^52 the carries above the
		 * digits may differ (the squaring splits its columns another
		 * way). */
		if (Layer::carry_above)
			EXPECT_EQ(alias.digits().w, s.digits().w) << at << ": r, a and b one";
		else
			EXPECT_EQ(alias.w, s.w) << at << ": r, a and b one";
		alias = a;
		sqr(alias.x(), alias.x(), &M.mod);
		EXPECT_EQ(alias.w, s.w) << at << ": sqr in place";
		if (Layer::carry_above) {
			/* The bits above the digits are what the next products
			 * must not read: the results as they are and masked to
			 * their digits give the same words. */
			LaneNum rd = r.digits(), sd = s.digits(), x(k, Layer::bits),
				y(k, Layer::bits);
			mul(x.x(), r.x(), s.x(), &M.mod);
			mul(y.x(), rd.x(), sd.x(), &M.mod);
			EXPECT_EQ(x.w, y.w) << at << ": mul read the bits above a digit";
			sqr(x.x(), s.x(), &M.mod);
			sqr(y.x(), sd.x(), &M.mod);
			EXPECT_EQ(x.w, y.w) << at << ": sqr read the bits above a digit";
		}
	}
}

/*
 * A batch CRT case: `count` operations (1 .. BIG_CRT_BATCH_MAX) with
 * random odd coprime primes p, q of `bits` bits stored at len chunks (q
 * of fewer bits, still len chunks, in operation 0 of an even count),
 * random dp, dq, inputs random below pq but 0 and pq - 1 in operations
 * 1 and 2; operation 3 with p near R, q just above R/2, dp = dq = 1 and
 * a = p - 1 mod p, 0 mod q; ops[] points at them (results len * 2 + 1 chunks), want[]
 * holds big_modexp_crt's answers.  make() asserts; check it with
 * HasFatalFailure().
 */
class CrtBatchCase {
public:
	big_crt_batch_op ops[BIG_CRT_BATCH_MAX];
	int count = 0, len = 0;

	CrtBatchCase() = default;
	CrtBatchCase(const CrtBatchCase &) = delete;
	CrtBatchCase &operator=(const CrtBatchCase &) = delete;
	~CrtBatchCase()
	{
		for (int i = 0; i < made_; i++)
			big_finish(&want_[i]);
		for (bt::Big *x : hold_)
			delete x;
	}

	void make(bt::Rng &rng, int bits, int count_)
	{
		count = count_;
		len = bits / BIG_CHUNK_SIZE;
		for (int i = 0; i < count; i++) {
			Mpz p, q, a, dp, dq, pinv, prr, qrr, n;
			/* Operation 0 of an even count: q of len chunks with its
			 * top bit clear. */
			const int qbits = i == 0 && count % 2 == 0
						  ? bits - 1 - (int)rng.below(BIG_CHUNK_SIZE - 1)
						  : bits;
			/* Operation 3: p near R, q just above R/2, dp = dq = 1 and
			 * a = p - 1 mod p, 0 mod q, so m_p - m_q = p - 1 > q:
			 * Garner's m_p is not below q. */
			const bool far = i == 3;
			do {
				rng.mpz_bits(p, bits);
				mpz_setbit(p, 0);
				rng.mpz_bits(q, qbits);
				mpz_setbit(q, 0);
				if (far) {
					for (int b = bits - 8; b < bits; b++)
						mpz_setbit(p, b);
					for (int b = bits - 8; b < bits - 1; b++)
						mpz_clrbit(q, b);
				}
			} while (mpz_invert(pinv, p, q) == 0);
			mpz_mul(n, p, q);
			rng.mpz_bits(a, 2 * bits);
			mpz_mod(a, a, n);
			if (i == 1)
				mpz_set_ui(a, 0);
			if (i == 2)
				mpz_sub_ui(a, n, 1);
			rng.mpz_bits(dp, bits - 1);
			rng.mpz_bits(dq, bits - 3);
			if (far) {
				/* a = (p - 1) + p (((0 - (p - 1)) pinv) mod q) */
				Mpz h;
				mpz_sub_ui(a, p, 1);
				mpz_neg(h, a);
				mpz_mul(h, h, pinv);
				mpz_mod(h, h, q);
				mpz_addmul(a, p, h);
				mpz_set_ui(dp, 1);
				mpz_set_ui(dq, 1);
			}
			r_squared(prr, p, len * BIG_CHUNK_SIZE);
			r_squared(qrr, q, len * BIG_CHUNK_SIZE);
			bt::Big *b[8] = { new bt::Big(a),    new bt::Big(dp), new bt::Big(dq),
					  new bt::Big(p),    new bt::Big(q),  new bt::Big(pinv),
					  new bt::Big(prr), new bt::Big(qrr) };
			for (bt::Big *x : b)
				hold_.push_back(x);
			/* p and q at their full stored length (the key's). */
			for (int j = 3; j < 5; j++)
				ASSERT_EQ(b[j]->b.len, len);
			bt::Big *res = new bt::Big(2 * len + 1);
			hold_.push_back(res);
			ops[i] = { res->get(), &b[0]->b, &b[1]->b, &b[2]->b, &b[3]->b,
				   &b[4]->b, &b[5]->b, &b[6]->b, &b[7]->b, nullptr, nullptr, nullptr };
			ASSERT_EQ(big_init(&want_[i], 2 * len + 1), BIG_OK);
			made_++;
			ASSERT_EQ(big_modexp_crt(&want_[i], &b[0]->b, &b[1]->b, &b[2]->b, &b[3]->b,
						 &b[4]->b, &b[5]->b, &b[6]->b, &b[7]->b),
				  BIG_OK);
		}
	}

	/* Every result equal to big_modexp_crt's. */
	void expect_results(int bits) const
	{
		for (int i = 0; i < count; i++) {
			Mpz w, g;
			bt::to_mpz(w, &want_[i]);
			bt::to_mpz(g, ops[i].result);
			EXPECT_EQ(mpz_cmp(w, g), 0) << bits << " bits, op " << i << " of " << count;
		}
	}

private:
	BIGNUM want_[BIG_CRT_BATCH_MAX];
	int made_ = 0;
	std::vector<bt::Big *> hold_;
};

/*
 * One batch CRT case at every prime length 1 .. BIG_MAX_MODULUS_CHUNKS
 * that big_crt_batch_len and serves(len) accept, every step-th, the
 * count going round 1 .. BIG_CRT_BATCH_MAX: run(ops, count, len) runs it,
 * its status must be BIG_OK and its results big_modexp_crt's.  Returns
 * the lengths run.
 */
template <typename Serves, typename Run>
int crt_batch_at_every_length(bt::Rng &rng, int step, Serves serves, Run run)
{
	int lengths = 0;
	for (int len = step; len <= BIG_MAX_MODULUS_CHUNKS; len += step) {
		BIGNUM p;
		p.len = len;
		if (big_crt_batch_len(&p, &p) == 0 || !serves(len))
			continue;
		const int count = 1 + lengths++ % BIG_CRT_BATCH_MAX;
		SCOPED_TRACE(::testing::Message() << len << " chunks, " << count << " operations");
		CrtBatchCase c;
		c.make(rng, len * BIG_CHUNK_SIZE, count);
		if (::testing::Test::HasFatalFailure())
			return lengths;
		EXPECT_EQ(run(c.ops, count, len), BIG_OK);
		c.expect_results(len * BIG_CHUNK_SIZE);
	}
	return lengths;
}

} // namespace lane_check

#endif
