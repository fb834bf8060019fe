// bigmont-test: once
/*
 * Memory (big_init, big_init1, big_extend, big_finish, big_copy,
 * big_strerror), bytes (bytestring2bignum, bignum2bytestring) and the small
 * helpers (big_bitlength, big_is_zero, big_set_chunk) against GMP and their
 * contracts: values kept across growth, caller buffers used when big enough
 * and wiped but never freed (ASan would catch a free), random-density
 * values of every length from 1 to 80 chunks and some to 140, leading zero
 * bytes, len 0 and high zero chunks on input, byte buffers that are too
 * short (refused, untouched) or longer than needed (zero padded).  (Plain
 * C, no dispatched kernel: runs once.)
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "operand.h"
#include "testutil.h"

namespace {

using bt::Big;
using bt::Mpz;
using bt::Operand;
using bt::chunk;

TEST(Alloc, InitIsZeroAndFinishEmpties)
{
	for (int size : {-3, 0, 1, 2, 17, 140, 5000}) {
		BIGNUM b;
		ASSERT_EQ(big_init(&b, size), BIG_OK);
		EXPECT_GE(b.size, std::max(size, 1));
		EXPECT_EQ(b.len, 1);
		EXPECT_EQ(b.sign, 1);
		EXPECT_EQ(b.value[0], 0u);
		EXPECT_EQ(b.malloced, 1);
		EXPECT_TRUE(big_is_zero(&b));
		big_finish(&b);
		EXPECT_EQ(b.value, nullptr);
		EXPECT_EQ(b.size, 0);
		big_finish(&b); /* twice is harmless */
	}
}

TEST(Alloc, Init1UsesLargeEnoughCallerBuffer)
{
	for (int bufsize : {1, 2, 8, 64}) {
		for (int size : {1, bufsize - 1, bufsize, bufsize + 1, 4 * bufsize}) {
			if (size < 1)
				continue;
			std::vector<chunk> buf(static_cast<size_t>(bufsize), static_cast<chunk>(0xa5a5a5a5u));
			BIGNUM b;
			ASSERT_EQ(big_init1(&b, size, buf.data(), bufsize), BIG_OK);
			EXPECT_EQ(b.len, 1);
			EXPECT_EQ(b.sign, 1);
			EXPECT_EQ(b.value[0], 0u);
			if (size <= bufsize) {
				EXPECT_EQ(b.value, buf.data()) << "size " << size << " fits " << bufsize;
				EXPECT_EQ(b.malloced, 0);
				EXPECT_EQ(b.size, bufsize);
				for (int i = 0; i < bufsize; i++)
					b.value[i] = static_cast<chunk>(i + 1);
				b.len = bufsize;
				big_finish(&b); /* wiped, not freed (ASan) */
				for (chunk c : buf)
					EXPECT_EQ(c, 0u) << "caller buffer not wiped";
			} else {
				EXPECT_NE(b.value, buf.data()) << "size " << size << " > " << bufsize;
				EXPECT_EQ(b.malloced, 1);
				EXPECT_GE(b.size, size);
				big_finish(&b);
				for (size_t i = 1; i < buf.size(); i++)
					EXPECT_EQ(buf[i], static_cast<chunk>(0xa5a5a5a5u)) << "buffer written";
			}
		}
	}
	/* No buffer at all: plain big_init. */
	BIGNUM b;
	ASSERT_EQ(big_init1(&b, 4, nullptr, 100), BIG_OK);
	EXPECT_EQ(b.malloced, 1);
	big_finish(&b);
}

TEST(Alloc, ExtendKeepsTheValue)
{
	bt::Rng rng(301);
	for (long k = 0; k < bt::scaled(25000); k++) {
		const int len = bt::length_for(rng, k);
		std::vector<chunk> v = rng.vec(len);
		const bool caller = rng.below(3) == 0;
		std::vector<chunk> buf(static_cast<size_t>(len + 2));
		BIGNUM b;
		if (caller)
			ASSERT_EQ(big_init1(&b, len, buf.data(), len + 2), BIG_OK);
		else
			ASSERT_EQ(big_init(&b, len), BIG_OK);
		std::copy(v.begin(), v.end(), b.value);
		b.len = len;
		b.sign = rng.below(2) ? 1 : -1;
		const int sign = b.sign;
		const chunk *before = b.value;
		const int want = 1 + static_cast<int>(rng.below(200));
		ASSERT_EQ(big_extend(&b, want), BIG_OK);
		ASSERT_GE(b.size, want);
		ASSERT_EQ(b.len, len);
		ASSERT_EQ(b.sign, sign);
		ASSERT_TRUE(std::equal(v.begin(), v.end(), b.value)) << "value lost growing to " << want;
		if (want <= (caller ? len + 2 : len)) {
			ASSERT_EQ(b.value, before) << "no growth needed, yet moved";
		} else if (caller) {
			ASSERT_EQ(b.malloced, 1);
			for (chunk c : buf)
				ASSERT_EQ(c, 0u) << "left caller buffer not wiped";
		}
		big_finish(&b);
	}
}

TEST(Alloc, CopyRandom)
{
	bt::for_each_random_operand(302, 25000, [](bt::Rng &rng, Operand &src, int) {
		bt::Snapshot ss(&src);
		Big dst(1);
		bt::scramble(rng, &dst.b);
		ASSERT_EQ(big_copy(&dst.b, &src), BIG_OK);
		ASSERT_TRUE(bt::equals(&dst.b, src.m)) << "len " << ss.len;
		ASSERT_TRUE(ss.same(&src));
		/* dest == src is a no-op */
		ASSERT_EQ(big_copy(&src, &src), BIG_OK);
		ASSERT_TRUE(ss.same(&src));
	});
}

TEST(Alloc, StrerrorNamesEveryCode)
{
	std::set<std::string> seen;
	for (BIG_ERR_CODE e : {BIG_OK, BIG_NO_MEM, BIG_NO_RANDOM, BIG_INVALID_ARGS, BIG_DIV_BY_0}) {
		const char *s = big_strerror(e);
		ASSERT_NE(s, nullptr);
		EXPECT_GT(std::strlen(s), 3u);
		EXPECT_TRUE(seen.insert(s).second) << "duplicate text " << s;
	}
	ASSERT_NE(big_strerror(static_cast<BIG_ERR_CODE>(-99)), nullptr);
}

/* Big-endian bytes of |m|, exactly len of them (len >= needed). */
std::vector<uint8_t> gmp_bytes(const mpz_t m, size_t len)
{
	std::vector<uint8_t> out(len, 0);
	size_t n = mpz_sgn(m) == 0 ? 0 : (mpz_sizeinbase(m, 2) + 7) / 8;
	if (n > 0 && n <= len) {
		size_t count = 0;
		mpz_export(out.data() + (len - n), &count, 1, 1, 1, 0, m);
	}
	return out;
}

TEST(Bytes, FromBytesRandom)
{
	bt::Rng rng(303);
	for (long k = 0; k < bt::scaled(25000); k++) {
		const int chunks = bt::length_for(rng, k);
		size_t len = static_cast<size_t>(chunks) * BIG_CHUNK_BYTES - rng.below(BIG_CHUNK_BYTES);
		if (rng.below(50) == 0)
			len = 0;
		std::vector<chunk> v = rng.vec(chunks);
		std::vector<uint8_t> bytes(len);
		for (size_t i = 0; i < len; i++) /* random density via the chunks */
			bytes[i] = static_cast<uint8_t>(v[i / BIG_CHUNK_BYTES] >> (8 * (i % BIG_CHUNK_BYTES)));
		if (len > 0 && rng.below(4) == 0) /* leading zero bytes */
			std::fill(bytes.begin(), bytes.begin() + static_cast<long>(rng.below(len + 1)), 0);
		const std::vector<uint8_t> copy = bytes;
		Mpz want;
		if (len > 0)
			mpz_import(want, len, 1, 1, 1, 0, bytes.data());
		Big bn(1);
		bt::scramble(rng, &bn.b);
		ASSERT_EQ(bytestring2bignum(&bn.b, bytes.data(), len), BIG_OK);
		ASSERT_TRUE(bt::equals(&bn.b, want)) << "len " << len;
		ASSERT_EQ(bn.b.sign, 1);
		ASSERT_TRUE(copy == bytes);
	}
}

TEST(Bytes, ToBytesRandom)
{
	bt::for_each_random_operand(304, 25000, [](bt::Rng &rng, Operand &a, int) {
		bt::Snapshot sa(&a);
		Mpz mag;
		mpz_abs(mag, a.m);
		const size_t need = mpz_sgn(mag.v) == 0 ? 0 : (mpz_sizeinbase(mag, 2) + 7) / 8;
		size_t len;
		switch (rng.below(4)) {
		case 0: len = need; break;
		case 1: len = need + 1 + rng.below(20); break;
		case 2: len = need == 0 ? 0 : need - 1 - rng.below(need); break; /* too short */
		default: len = need + rng.below(3); break;
		}
		std::vector<uint8_t> out(len + 1, 0xee); /* +1: sentinel past the end */
		BIG_ERR_CODE err = bignum2bytestring(out.data(), &a, len);
		ASSERT_TRUE(sa.same(&a)) << "input changed";
		ASSERT_EQ(out[len], 0xee) << "wrote past len";
		if (len < need) {
			ASSERT_EQ(err, BIG_INVALID_ARGS) << "need " << need << " got " << len;
			for (uint8_t c : out)
				ASSERT_EQ(c, 0xee) << "refused but wrote";
			return;
		}
		ASSERT_EQ(err, BIG_OK) << "need " << need << " len " << len;
		out.resize(len);
		ASSERT_TRUE(out == gmp_bytes(mag, len)) << "a=" << bt::hex(a.m) << " len " << len;
		/* and back */
		Big back(1);
		ASSERT_EQ(bytestring2bignum(&back.b, out.data(), len), BIG_OK);
		ASSERT_TRUE(bt::equals(&back.b, mag));
	});
}

TEST(Bytes, EdgeCases)
{
	/* zero in zero bytes, one in one byte, all-ones chunks exactly */
	Big b(1);
	uint8_t none = 0x77;
	ASSERT_EQ(bytestring2bignum(&b.b, &none, 0), BIG_OK);
	EXPECT_TRUE(big_is_zero(&b.b));
	EXPECT_TRUE(bt::normalised(&b.b));
	ASSERT_EQ(bignum2bytestring(&none, &b.b, 0), BIG_OK);
	EXPECT_EQ(none, 0x77);
	for (int chunks : {1, 2, 80, 140}) {
		std::vector<uint8_t> ff(static_cast<size_t>(chunks) * BIG_CHUNK_BYTES, 0xff);
		ASSERT_EQ(bytestring2bignum(&b.b, ff.data(), ff.size()), BIG_OK);
		EXPECT_EQ(b.b.len, chunks);
		for (int i = 0; i < chunks; i++)
			EXPECT_EQ(b.b.value[i], BIG_CHUNK_ALLBITS);
		std::vector<uint8_t> out(ff.size());
		ASSERT_EQ(bignum2bytestring(out.data(), &b.b, out.size()), BIG_OK);
		EXPECT_TRUE(out == ff);
		EXPECT_EQ(bignum2bytestring(out.data(), &b.b, out.size() - 1), BIG_INVALID_ARGS);
	}
	/* a length past what a BIGNUM can hold is refused before any byte is
	 * read, also where rounding it up to chunks would wrap around */
	const uint8_t lead[1] = { 0x80 };
	for (size_t len : { SIZE_MAX, SIZE_MAX - 2, SIZE_MAX / 2 })
		EXPECT_EQ(bytestring2bignum(&b.b, lead, len), BIG_NO_MEM) << len;
	/* high zero chunks in len do not make the value longer */
	Operand a;
	a.set({0x12, 0, 0, 0}, 2, 1);
	uint8_t one = 0;
	ASSERT_EQ(bignum2bytestring(&one, &a, 1), BIG_OK);
	EXPECT_EQ(one, 0x12);
	/* len 0 input reads as zero */
	a.set({}, 0, 1);
	uint8_t two[2] = {9, 9};
	ASSERT_EQ(bignum2bytestring(two, &a, 2), BIG_OK);
	EXPECT_EQ(two[0], 0);
	EXPECT_EQ(two[1], 0);
}

TEST(Misc, BitlengthIsZeroRandom)
{
	bt::for_each_random_operand(305, 25000, [](bt::Rng &, Operand &a, int) {
		bt::Snapshot sa(&a);
		const int want = mpz_sgn(a.m.v) == 0 ? 0 : static_cast<int>(mpz_sizeinbase(a.m, 2));
		ASSERT_EQ(big_bitlength(&a), want) << "a=" << bt::hex(a.m) << " len " << sa.len;
		ASSERT_EQ(big_is_zero(&a), mpz_sgn(a.m.v) == 0 ? 1 : 0);
		ASSERT_TRUE(sa.same(&a));
	});
	Operand z;
	for (int len : {0, 1, 2, 9}) {
		z.set(std::vector<chunk>(static_cast<size_t>(len), 0), 0, 1);
		EXPECT_EQ(big_bitlength(&z), 0);
		EXPECT_EQ(big_is_zero(&z), 1);
	}
	z.set({1}, 3, 1);
	EXPECT_EQ(big_bitlength(&z), 1);
	z.set({0, BIG_CHUNK_HIGHBIT}, 0, -1);
	EXPECT_EQ(big_bitlength(&z), 2 * bt::kChunkBits);
}

TEST(Misc, SetChunk)
{
	bt::Rng rng(306);
	for (long k = 0; k < bt::scaled(25000); k++) {
		Big r(1);
		bt::scramble(rng, &r.b);
		const chunk v = rng.digit();
		ASSERT_EQ(big_set_chunk(&r.b, v), BIG_OK);
		Mpz want;
		bt::to_mpz(want, &v, 1);
		ASSERT_TRUE(bt::equals(&r.b, want));
	}
}

} // namespace
