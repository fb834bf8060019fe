// bigmont-test: once
/*
 * big_cmp_abs, big_add, big_sub, big_add_abs, big_sub_pos, big_shiftleft,
 * big_shiftright against GMP: random-density operands of every length from
 * 1 to 80 chunks and some to 140, negative signs, len 0 and high zero
 * chunks inside len on input, every aliasing the contract allows (result
 * == aa, == bb, aa == bb == result), results that are exactly zero, the
 * |aa| < |bb| refusal of big_sub_pos, shifts by 0, by whole chunks and past
 * the length.  Every call: the result equals GMP's and is normalised, the
 * inputs are unchanged.  (Plain C, no dispatched kernel: runs once.)
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "operand.h"
#include "testutil.h"

namespace {

using bt::Big;
using bt::Mpz;
using bt::Operand;
using bt::chunk;

/* A length for the second operand: the same, near it, or anything. */
int partner_length(bt::Rng &rng, int alen)
{
	switch (rng.below(4)) {
	case 0: return alen;
	case 1: return std::max(1, alen + static_cast<int>(rng.below(5)) - 2);
	default: return 1 + static_cast<int>(rng.below(140));
	}
}

enum class Op { add, sub, add_abs, sub_pos };

BIG_ERR_CODE run(Op op, BIGNUM *r, const BIGNUM *a, const BIGNUM *b)
{
	switch (op) {
	case Op::add: return big_add(r, a, b);
	case Op::sub: return big_sub(r, a, b);
	case Op::add_abs: return big_add_abs(r, a, b);
	default: return big_sub_pos(r, a, b);
	}
}

/* GMP's answer; false when the op must refuse (sub_pos with |a| < |b|). */
bool expected(Op op, mpz_t want, const mpz_t a, const mpz_t b)
{
	Mpz aa, ab;
	mpz_abs(aa, a);
	mpz_abs(ab, b);
	switch (op) {
	case Op::add: mpz_add(want, a, b); return true;
	case Op::sub: mpz_sub(want, a, b); return true;
	case Op::add_abs: mpz_add(want, aa, ab); return true;
	default:
		if (mpz_cmp(aa, ab) < 0)
			return false;
		mpz_sub(want, aa, ab);
		return true;
	}
}

const char *name(Op op)
{
	static const char *const names[] = {"big_add", "big_sub", "big_add_abs", "big_sub_pos"};
	return names[static_cast<int>(op)];
}

/* One call of op on (a, b) with a random aliasing; true if all is well. */
bool check_addsub(bt::Rng &rng, Op op, Operand &a, Operand &b)
{
	Mpz want;
	const bool ok = expected(op, want, a.m, b.m);
	const int alias = static_cast<int>(rng.below(4));
	bt::Snapshot sa(&a), sb(&b);
	Big out(1);
	BIGNUM *r = &out.b;
	BIG_ERR_CODE err;
	const char *how;
	switch (alias) {
	case 0: /* separate result */
		bt::scramble(rng, r);
		err = run(op, r, &a, &b);
		how = "r separate";
		break;
	case 1: /* result == aa */
		r = &a;
		err = run(op, r, r, &b);
		how = "r == aa";
		break;
	case 2: /* result == bb */
		r = &b;
		err = run(op, r, &a, r);
		how = "r == bb";
		break;
	default: { /* aa == bb (== result half the time) */
		expected(op, want, a.m, a.m);
		if (rng.below(2)) {
			r = &a;
			err = run(op, r, r, r);
			how = "r == aa == bb";
		} else {
			bt::scramble(rng, r);
			err = run(op, r, &a, &a);
			how = "aa == bb";
		}
		EXPECT_EQ(err, BIG_OK) << name(op) << " " << how;
		EXPECT_TRUE(bt::equals(r, want)) << name(op) << " " << how << " a=" << bt::hex(a.m);
		if (r != &a.b) {
			EXPECT_TRUE(sa.same(&a)) << name(op) << " changed its input";
		}
		return err == BIG_OK && bt::equals(r, want);
	}
	}
	if (!ok) {
		/* Refusal: result untouched (not even when it aliases). */
		EXPECT_EQ(err, BIG_INVALID_ARGS) << name(op) << " " << how << " |a| < |b|";
		EXPECT_TRUE(sa.same(&a) && sb.same(&b)) << name(op) << " refused but wrote";
		return err == BIG_INVALID_ARGS;
	}
	EXPECT_EQ(err, BIG_OK) << name(op) << " " << how;
	::testing::AssertionResult res = bt::equals(r, want);
	EXPECT_TRUE(res) << name(op) << " " << how << "\n a=" << bt::hex(a.m)
			 << " (len " << sa.len << ")\n b=" << bt::hex(b.m) << " (len " << sb.len << ")";
	if (r != &a.b) {
		EXPECT_TRUE(sa.same(&a)) << name(op) << " changed aa";
	}
	if (r != &b.b) {
		EXPECT_TRUE(sb.same(&b)) << name(op) << " changed bb";
	}
	return err == BIG_OK && res;
}

void random_addsub(Op op, uint64_t salt)
{
	bt::for_each_random_operand(salt, 25000, [op](bt::Rng &rng, Operand &a, int alen) {
		Operand b;
		switch (rng.below(8)) {
		case 0: /* b == a in value: exact zero for sub, sub_pos */
			b.set_mpz(a.m, static_cast<int>(rng.below(2)));
			if (rng.below(2) && mpz_sgn(a.m.v) != 0) {
				b.b.b.sign = -b.b.b.sign;
				mpz_neg(b.m, b.m);
			}
			break;
		case 1: { /* b == -a: zero for add */
			Mpz n;
			mpz_neg(n, a.m);
			b.set_mpz(n);
			break;
		}
		case 2: { /* b a little away from a: long borrow/carry chains */
			Mpz n;
			mpz_add_ui(n, a.m, rng.below(3));
			mpz_sub_ui(n, n, 1);
			b.set_mpz(n, static_cast<int>(rng.below(2)));
			break;
		}
		default:
			b.random(rng, partner_length(rng, alen), true);
			break;
		}
		if (rng.below(2))
			a.swap(b);
		check_addsub(rng, op, a, b);
	});
}

TEST(AddSub, AddRandom) { random_addsub(Op::add, 101); }
TEST(AddSub, SubRandom) { random_addsub(Op::sub, 102); }
TEST(AddSub, AddAbsRandom) { random_addsub(Op::add_abs, 103); }
TEST(AddSub, SubPosRandom) { random_addsub(Op::sub_pos, 104); }

TEST(AddSub, EdgeValues)
{
	bt::Rng rng(105);
	/* zero, one, all-ones chunks of several lengths, B^k, their negatives */
	const std::vector<std::vector<chunk>> values = bt::edge_values();
	for (const auto &va : values)
		for (const auto &vb : values)
			for (int sa : {1, -1})
				for (int sb : {1, -1})
					for (Op op : {Op::add, Op::sub, Op::add_abs, Op::sub_pos})
						for (int rep = 0; rep < 4; rep++) {
							Operand a, b;
							a.set(va, 0, sa);
							b.set(vb, 0, sb);
							ASSERT_TRUE(check_addsub(rng, op, a, b));
						}
}

TEST(AddSub, SubPosRefusesSmaller)
{
	bt::for_each_random_operand(106, 20000, [](bt::Rng &rng, Operand &a, int) {
		Operand b;
		Mpz bigger;
		mpz_abs(bigger, a.m);
		mpz_add_ui(bigger, bigger, 1 + rng.below(3));
		if (rng.below(2))
			mpz_mul_2exp(bigger, bigger, rng.below(200));
		b.set_mpz(bigger, static_cast<int>(rng.below(2)));
		Big r(1);
		bt::scramble(rng, &r.b);
		bt::Snapshot sr(&r.b), sa(&a), sb(&b);
		ASSERT_EQ(big_sub_pos(&r.b, &a, &b), BIG_INVALID_ARGS);
		ASSERT_TRUE(sr.same(&r.b) && sa.same(&a) && sb.same(&b));
		ASSERT_EQ(big_sub_pos(&a, &a, &b), BIG_INVALID_ARGS);
		ASSERT_TRUE(sa.same(&a));
	});
}

TEST(Cmp, RandomAgainstGmp)
{
	bt::for_each_random_operand(107, 25000, [](bt::Rng &rng, Operand &a, int alen) {
		Operand b;
		if (rng.below(3) == 0) { /* equal or one apart in magnitude */
			Mpz n;
			mpz_abs(n, a.m);
			if (rng.below(2))
				mpz_add_ui(n, n, 1);
			if (rng.below(2))
				mpz_neg(n, n);
			b.set_mpz(n, static_cast<int>(rng.below(3)));
		} else if (rng.below(2)) { /* same length, differ low down */
			std::vector<chunk> v(a.b.b.value, a.b.b.value + std::max(a.b.b.len, 0));
			if (!v.empty())
				v[rng.below(v.size())] ^= static_cast<chunk>(1) << rng.below(bt::kChunkBits);
			b.set(v, static_cast<int>(rng.below(2)), rng.below(2) ? 1 : -1);
		} else {
			b.random(rng, partner_length(rng, alen), true);
		}
		bt::Snapshot sa(&a), sb(&b);
		const int want = mpz_cmpabs(a.m, b.m);
		const int got = big_cmp_abs(&a, &b);
		ASSERT_EQ(got, want > 0 ? 1 : (want < 0 ? -1 : 0))
			<< "a=" << bt::hex(a.m) << " b=" << bt::hex(b.m);
		ASSERT_EQ(big_cmp_abs(&a, &a), 0);
		ASSERT_TRUE(sa.same(&a) && sb.same(&b));
	});
}

enum class Dir { left, right };

bool check_shift(bt::Rng &rng, Dir dir, Operand &a, int offs)
{
	Mpz want;
	if (dir == Dir::left) {
		mpz_mul_2exp(want, a.m, static_cast<mp_bitcnt_t>(offs));
	} else {
		/* magnitude shifted, sign kept */
		mpz_abs(want, a.m);
		mpz_fdiv_q_2exp(want, want, static_cast<mp_bitcnt_t>(offs));
		if (mpz_sgn(a.m.v) < 0)
			mpz_neg(want, want);
	}
	bt::Snapshot sa(&a);
	const bool in_place = rng.below(3) == 0;
	Big out(1);
	BIGNUM *r = in_place ? &a.b.b : &out.b;
	if (!in_place)
		bt::scramble(rng, r);
	BIG_ERR_CODE err = dir == Dir::left ? big_shiftleft(r, &a, offs)
					    : big_shiftright(r, &a, offs);
	const char *what = dir == Dir::left ? "big_shiftleft" : "big_shiftright";
	EXPECT_EQ(err, BIG_OK) << what;
	::testing::AssertionResult res = bt::equals(r, want);
	EXPECT_TRUE(res) << what << " by " << offs << (in_place ? " in place" : "")
			 << "\n a=" << bt::hex(a.m) << " (len " << sa.len << ")";
	if (!in_place) {
		EXPECT_TRUE(sa.same(&a)) << what << " changed its input";
	}
	return err == BIG_OK && res;
}

void random_shift(Dir dir, uint64_t salt)
{
	bt::for_each_random_operand(salt, 25000, [dir](bt::Rng &rng, Operand &a, int alen) {
		int offs;
		switch (rng.below(4)) {
		case 0: offs = static_cast<int>(rng.below(bt::kChunkBits + 1)); break;
		case 1: offs = bt::kChunkBits * static_cast<int>(rng.below(static_cast<uint64_t>(alen) + 3)); break;
		default: offs = static_cast<int>(rng.below(static_cast<uint64_t>(alen + 2) * bt::kChunkBits)); break;
		}
		check_shift(rng, dir, a, offs);
	});
}

TEST(Shift, LeftRandom) { random_shift(Dir::left, 108); }
TEST(Shift, RightRandom) { random_shift(Dir::right, 109); }

TEST(Shift, EdgeCases)
{
	bt::Rng rng(110);
	for (Dir dir : {Dir::left, Dir::right}) {
		for (int len : {0, 1, 2, 5, 80, 140}) {
			for (chunk fillv : {static_cast<chunk>(0), static_cast<chunk>(1), BIG_CHUNK_ALLBITS}) {
				for (int offs : {0, 1, bt::kChunkBits - 1, bt::kChunkBits, bt::kChunkBits + 1,
						 len * bt::kChunkBits - 1, len * bt::kChunkBits,
						 len * bt::kChunkBits + 1, 10000}) {
					if (offs < 0)
						continue;
					for (int rep = 0; rep < 3; rep++) {
						Operand a;
						a.set(std::vector<chunk>(static_cast<size_t>(len), fillv),
						      rep, rep == 1 ? -1 : 1);
						ASSERT_TRUE(check_shift(rng, dir, a, offs));
					}
				}
			}
		}
	}
	/* A negative offset is refused, the result untouched. */
	Operand a;
	a.random(rng, 3, false);
	Big r(1);
	bt::scramble(rng, &r.b);
	bt::Snapshot sr(&r.b);
	EXPECT_EQ(big_shiftleft(&r.b, &a, -1), BIG_INVALID_ARGS);
	EXPECT_EQ(big_shiftright(&r.b, &a, -1), BIG_INVALID_ARGS);
	EXPECT_TRUE(sr.same(&r.b));
}

} // namespace
