#include "operand.h"

#include <algorithm>
#include <cstdlib>

namespace bt {

void Operand::set(const std::vector<chunk> &v, int pad, int sign)
{
	const int len = static_cast<int>(v.size());
	if (big_extend(&b.b, len + pad < 1 ? 1 : len + pad) != BIG_OK)
		std::abort();
	for (int i = 0; i < len; i++)
		b.b.value[i] = v[static_cast<size_t>(i)];
	for (int i = len; i < len + pad; i++)
		b.b.value[i] = 0;
	b.b.len = len + pad;
	if (b.b.len == 0)
		b.b.value[0] = static_cast<chunk>(0x5a5a5a5a); /* not read */
	b.b.sign = sign;
	if (len == 0)
		mpz_set_ui(m, 0);
	else
		to_mpz(m, v.data(), len);
	if (sign < 0)
		mpz_neg(m, m);
}

void Operand::set_mpz(const mpz_t x, int pad)
{
	size_t n = (mpz_sizeinbase(x, 2) + kChunkBits - 1) / kChunkBits;
	std::vector<chunk> v = chunks_of(x, static_cast<int>(n < 1 ? 1 : n));
	set(v, pad, mpz_sgn(x) < 0 ? -1 : 1);
}

void Operand::random(Rng &rng, int len, bool allow_negative)
{
	if (rng.below(64) == 0)
		len = 0;
	int pad = rng.below(5) == 0 ? 1 + static_cast<int>(rng.below(3)) : 0;
	int sign = allow_negative && rng.below(2) ? -1 : 1;
	set(rng.vec(len), pad, sign);
}

Snapshot::Snapshot(const BIGNUM *x)
    : len(x->len), sign(x->sign), v(x->value, x->value + (x->len > 0 ? x->len : 0))
{
}

bool Snapshot::same(const BIGNUM *x) const
{
	return x->len == len && x->sign == sign && std::equal(v.begin(), v.end(), x->value);
}

void scramble(Rng &rng, BIGNUM *r)
{
	int size = 1 + static_cast<int>(rng.below(rng.below(2) ? 4 : 200));
	if (big_extend(r, size) != BIG_OK)
		std::abort();
	for (int i = 0; i < r->size; i++)
		r->value[i] = rng.chunk_any() | 1;
	r->len = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(r->size)));
	r->sign = rng.below(2) ? -1 : 1;
}

void pad_len(BIGNUM *bn, int extra)
{
	int len = bn->len;
	ASSERT_EQ(big_extend(bn, len + extra), BIG_OK);
	for (int i = len; i < len + extra; i++)
		bn->value[i] = 0;
	bn->len = len + extra;
}

::testing::AssertionResult normalised(const BIGNUM *r)
{
	if (r->len < 1 || r->len > r->size)
		return ::testing::AssertionFailure() << "len " << r->len << " size " << r->size;
	if (r->len > 1 && r->value[r->len - 1] == 0)
		return ::testing::AssertionFailure() << "high zero chunk, len " << r->len;
	if (r->sign != 1 && r->sign != -1)
		return ::testing::AssertionFailure() << "sign " << r->sign;
	if (r->len == 1 && r->value[0] == 0 && r->sign != 1)
		return ::testing::AssertionFailure() << "negative zero";
	return ::testing::AssertionSuccess();
}

::testing::AssertionResult equals(const BIGNUM *r, const mpz_t want)
{
	Mpz got;
	to_mpz(got, r);
	if (mpz_cmp(got, want) != 0)
		return ::testing::AssertionFailure()
		       << "\n want " << hex(want) << "\n got  " << hex(got);
	return normalised(r);
}

int length_for(Rng &rng, long k)
{
	if (k % 8 == 7)
		return 1 + static_cast<int>(rng.below(140));
	return 1 + static_cast<int>(k % 80);
}

std::vector<std::vector<chunk>> edge_values()
{
	std::vector<std::vector<chunk>> values = {
		{}, {0}, {1}, {2}, {BIG_CHUNK_ALLBITS}, {0, 0, 0}, {0, 1},
	};
	for (int len : {1, 2, 3, 7, 40, 80, 140}) {
		const size_t n = static_cast<size_t>(len);
		values.push_back(std::vector<chunk>(n, BIG_CHUNK_ALLBITS));
		std::vector<chunk> power(n + 1, 0);
		power[n] = 1;
		values.push_back(power);
		std::vector<chunk> one(n, 0);
		one[0] = 1;
		values.push_back(one);
		std::vector<chunk> top(n, 0);
		top[n - 1] = BIG_CHUNK_HIGHBIT;
		values.push_back(top);
	}
	return values;
}

} // namespace bt
