#include "testutil.h"
#include "xoshiro.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <cstring>

#include <unistd.h>

#include <gtest/gtest.h>

namespace bt {

/* A variable the suites cannot read is an error, not a value: a seed
 * misread would replay another case, a scale misread run another count. */
[[noreturn]] static void bad_env(const char *name, const char *value, const char *want)
{
	std::fprintf(stderr, "bigmont tests: %s='%s' is not %s\n", name, value, want);
	std::exit(2);
}

uint64_t seed()
{
	static uint64_t s = [] {
		uint64_t v;
		const char *env = std::getenv("BIGMONT_TEST_SEED");
		if (env && *env) {
			/* Decimal digits, as the tests print it (strtoull would
			 * take a sign, spaces and junk after the number). */
			const char *want = "a seed: a decimal number below 2^64, as the tests print it";
			if (std::strspn(env, "0123456789") != std::strlen(env) || std::strlen(env) > 20)
				bad_env("BIGMONT_TEST_SEED", env, want);
			errno = 0;
			v = std::strtoull(env, nullptr, 10);
			if (errno == ERANGE)
				bad_env("BIGMONT_TEST_SEED", env, want);
		} else
			v = static_cast<uint64_t>(std::chrono::steady_clock::now()
							  .time_since_epoch()
							  .count()) ^
			    (static_cast<uint64_t>(getpid()) << 32);
		std::fprintf(stderr,
			     "bigmont tests: seed %llu (replay with BIGMONT_TEST_SEED=%llu), "
			     "BIGMONT_CPU=%s -> kernels '%s'\n",
			     (unsigned long long)v, (unsigned long long)v,
			     std::getenv("BIGMONT_CPU") ? std::getenv("BIGMONT_CPU") : "(unset)",
			     big_cpu_variant_name());
		return v;
	}();
	return s;
}

long scaled(long n)
{
	const char *env = std::getenv("BIGMONT_TEST_SCALE");
	double f = 1.0;
	if (env && *env) {
		char *end;
		errno = 0;
		f = std::strtod(env, &end);
		if (*end != '\0' || errno == ERANGE || !(f > 0) || f > 1e6)
			bad_env("BIGMONT_TEST_SCALE", env, "a scale: a number above 0 (1: every case)");
	}
	long r = static_cast<long>(n * f);
	return r < 1 ? 1 : r;
}

std::vector<int> lengths(int up_to, std::initializer_list<int> more)
{
	std::vector<int> lens;
	for (int len = 1; len <= up_to; len++)
		lens.push_back(len);
	lens.insert(lens.end(), more);
	return lens;
}

Rng::Rng(uint64_t salt)
{
	xoshiro256ss_seed(s_, seed() ^ (salt * 0x2545f4914f6cdd1dULL));
}

uint64_t Rng::next()
{
	return xoshiro256ss_next(s_);
}

uint64_t Rng::below(uint64_t n)
{
	return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
}

void Rng::fill(chunk *v, int len)
{
	switch (below(4)) {
	case 0: /* plain random bits */
		for (int i = 0; i < len; i++)
			v[i] = chunk_any();
		break;
	case 1: { /* runs of 0s and 1s, like mpz_rrandomb */
		int bit = static_cast<int>(next() & 1);
		int total = len * kChunkBits, pos = 0;
		for (int i = 0; i < len; i++)
			v[i] = 0;
		while (pos < total) {
			int run = 1 + static_cast<int>(below(2 * kChunkBits));
			for (int k = 0; k < run && pos < total; k++, pos++)
				if (bit)
					v[pos / kChunkBits] |= static_cast<chunk>(1) << (pos % kChunkBits);
			bit ^= 1;
		}
		break;
	}
	case 2: /* whole chunks of 0, all-ones, 1 or random */
		for (int i = 0; i < len; i++) {
			switch (below(4)) {
			case 0: v[i] = 0; break;
			case 1: v[i] = BIG_CHUNK_ALLBITS; break;
			case 2: v[i] = 1; break;
			default: v[i] = chunk_any(); break;
			}
		}
		break;
	default: /* sparse: a few bits set */
		for (int i = 0; i < len; i++)
			v[i] = chunk_any() & chunk_any() & chunk_any();
		break;
	}
}

std::vector<chunk> Rng::vec(int len)
{
	std::vector<chunk> v(static_cast<size_t>(len > 0 ? len : 0));
	if (len > 0)
		fill(v.data(), len);
	return v;
}

chunk Rng::digit()
{
	switch (below(6)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return 2;
	case 3: return BIG_CHUNK_ALLBITS - 1;
	case 4: return BIG_CHUNK_ALLBITS;
	default: return chunk_any();
	}
}

void Rng::mpz_prime(mpz_t out, int bits)
{
	do {
		mpz_bits(out, bits);
		mpz_nextprime(out, out);
	} while (mpz_sizeinbase(out, 2) != static_cast<size_t>(bits));
}

void Rng::mpz_prime_pair(mpz_t p, mpz_t q, int pbits, int qbits)
{
	mpz_prime(p, pbits);
	do
		mpz_prime(q, qbits);
	while (mpz_cmp(p, q) == 0);
}

void Rng::mpz_bits(mpz_t out, int bits)
{
	if (bits <= 0) {
		mpz_set_ui(out, 0);
		return;
	}
	int len = (bits + kChunkBits - 1) / kChunkBits;
	std::vector<chunk> v = vec(len);
	int top = bits - (len - 1) * kChunkBits; /* bits used in the top chunk */
	if (top < kChunkBits)
		v[len - 1] &= (static_cast<chunk>(1) << top) - 1;
	v[len - 1] |= static_cast<chunk>(1) << (top - 1);
	to_mpz(out, v.data(), len);
}

void to_mpz(mpz_t out, const chunk *v, int len)
{
	mpz_import(out, static_cast<size_t>(len), -1, sizeof(chunk), 0, 0, v);
}

void to_mpz(mpz_t out, const BIGNUM *bn)
{
	to_mpz(out, bn->value, bn->len);
	if (bn->sign < 0)
		mpz_neg(out, out);
}

std::vector<chunk> chunks_of(const mpz_t in, int len)
{
	std::vector<chunk> v(static_cast<size_t>(len), 0);
	size_t count = 0;
	size_t need = (mpz_sizeinbase(in, 2) + kChunkBits - 1) / kChunkBits;
	if (mpz_sgn(in) == 0)
		return v;
	EXPECT_LE(need, static_cast<size_t>(len)) << "value does not fit";
	if (need > static_cast<size_t>(len))
		return v;
	mpz_export(v.data(), &count, -1, sizeof(chunk), 0, 0, in);
	return v;
}

void from_mpz(BIGNUM *bn, const mpz_t in)
{
	int need = static_cast<int>((mpz_sizeinbase(in, 2) + kChunkBits - 1) / kChunkBits);
	if (need < 1)
		need = 1;
	ASSERT_EQ(big_extend(bn, need), BIG_OK);
	std::vector<chunk> v = chunks_of(in, need);
	for (int i = 0; i < need; i++)
		bn->value[i] = v[static_cast<size_t>(i)];
	bn->len = need;
	bn->sign = mpz_sgn(in) < 0 ? -1 : 1;
}

std::string hex(const mpz_t v)
{
	char *s = mpz_get_str(nullptr, 16, v);
	std::string r(s);
	void (*freefunc)(void *, size_t);
	mp_get_memory_functions(nullptr, nullptr, &freefunc);
	freefunc(s, std::strlen(s) + 1);
	return r;
}

std::string hex(const BIGNUM *bn)
{
	Mpz m;
	to_mpz(m, bn);
	return hex(m);
}

std::string hex(const std::vector<chunk> &v)
{
	Mpz m;
	to_mpz(m, v.data(), static_cast<int>(v.size()));
	return hex(m);
}

Big::Big(int size)
{
	if (big_init(&b, size < 1 ? 1 : size) != BIG_OK)
		std::abort();
}

Big::Big(const mpz_t v) : Big(1)
{
	from_mpz(&b, v);
}

Big::~Big()
{
	big_finish(&b);
}

std::string data_path(const std::string &relative)
{
	return std::string(TEST_DATA_DIR) + "/" + relative;
}

std::string read_data_file(const std::string &relative)
{
	std::ifstream f(data_path(relative), std::ios::binary);
	if (!f) {
		ADD_FAILURE() << "cannot read test data " << data_path(relative);
		return std::string();
	}
	std::ostringstream ss;
	ss << f.rdbuf();
	return ss.str();
}

} // namespace bt
