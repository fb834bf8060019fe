/*
 * The vector primitives big_mul_set_vec, big_mul_add_vec, big_sqr_vec and
 * big_mul_vec: every variant called by its own name (_c in every build;
 * _base and _adx in an assembly build, _adx only where the CPU has BMI2 +
 * ADX) and the dispatched public names, against GMP (mpn_mul_1,
 * mpn_addmul_1, mpn_sqr, mpn_mul when a chunk is a GMP limb; mpz
 * otherwise) and bit for bit against the C variant.  Every len from 0 (1
 * for the products) to 130, digits 0, 1, 2, MAX-1, MAX and random,
 * random-density operands, guard chunks before and after every output,
 * r == a for mul_set_vec, and for the assembly a trampoline that checks
 * the callee-saved registers and rsp and passes garbage in the upper half
 * of the int len register.  Also: big_cpu_variant_name() follows
 * BIGMONT_CPU.
 */
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gmp.h>
#include <gtest/gtest.h>

#include "abi_call.h"
#include "guarded.h"
#include "testutil.h"

namespace {

using bt::chunk;
using bt::Guarded;

constexpr bool kLimbIsChunk = GMP_NUMB_BITS == BIG_CHUNK_SIZE && sizeof(mp_limb_t) == sizeof(chunk);
constexpr int kMaxLen = 130;

bool cpu_has_adx() { return big_cpu_best() >= BIG_CPU_ADX; }

template <typename Fn> struct Variant {
	const char *name;
	Fn *fn;
	bool is_asm;
};

/* Every variant this build and CPU have: _c, the assembly _base and _adx
 * (_adx where the CPU has BMI2 + ADX), then the dispatched name. */
template <typename Fn> std::vector<Variant<Fn>> variants(Fn *c, Fn *base, Fn *adx, Fn *dispatched)
{
	std::vector<Variant<Fn>> v = { { "c", c, false } };
	if (base)
		v.push_back({ "base", base, true });
	if (adx && cpu_has_adx())
		v.push_back({ "adx", adx, true });
	v.push_back({ "dispatched", dispatched, false });
	return v;
}

#if BIGMONT_HAVE_ASM
#define VARIANTS(kernel) variants(kernel##_c, kernel##_base, kernel##_adx, kernel)
#else
#define VARIANTS(kernel) variants<decltype(kernel)>(kernel##_c, nullptr, nullptr, kernel)
#endif

std::vector<Variant<big_mul_row_fn>> mul_set_variants() { return VARIANTS(big_mul_set_vec); }
std::vector<Variant<big_mul_row_fn>> mul_add_variants() { return VARIANTS(big_mul_add_vec); }
std::vector<Variant<big_sqr_vec_fn>> sqr_variants() { return VARIANTS(big_sqr_vec); }
std::vector<Variant<big_mul_vec_fn>> mul_variants() { return VARIANTS(big_mul_vec); }

/* The digits every length is tried with; the last is random. */
std::vector<chunk> digits(bt::Rng &rng)
{
	return { 0, 1, 2, BIG_CHUNK_ALLBITS - 1, BIG_CHUNK_ALLBITS, rng.chunk_any(), rng.digit() };
}

/* A vector whose chunks are often all-zeros / all-ones, or plain random. */
std::vector<chunk> operand(bt::Rng &rng, int len)
{
	std::vector<chunk> v(static_cast<size_t>(len) + 1); /* never empty: data() valid */
	v.resize(static_cast<size_t>(len));
	switch (rng.below(6)) {
	case 0:
		for (auto &w : v)
			w = BIG_CHUNK_ALLBITS;
		break;
	case 1:
		for (auto &w : v)
			w = 0;
		break;
	default:
		rng.fill(v.data(), len);
		break;
	}
	return v;
}

/* GMP's r + a*digit (add) or a*digit, as len + 1 chunks. */
std::vector<chunk> gmp_row(const std::vector<chunk> &r, const std::vector<chunk> &a, int len,
			   chunk digit, bool add)
{
	std::vector<chunk> want(static_cast<size_t>(len) + 1, 0);
	if (kLimbIsChunk) {
		if (len > 0) {
			mp_limb_t *w = reinterpret_cast<mp_limb_t *>(want.data());
			const mp_limb_t *ap = reinterpret_cast<const mp_limb_t *>(a.data());
			if (add) {
				std::memcpy(w, r.data(), sizeof(chunk) * static_cast<size_t>(len));
				w[len] = mpn_addmul_1(w, ap, len, static_cast<mp_limb_t>(digit));
			} else {
				w[len] = mpn_mul_1(w, ap, len, static_cast<mp_limb_t>(digit));
			}
		}
	} else {
		bt::Mpz za, zr, zd;
		bt::to_mpz(za, a.data(), len);
		mpz_set_ui(zd, 0);
		mpz_add_ui(zd, zd, static_cast<unsigned long>(digit));
		mpz_mul(za, za, zd);
		if (add) {
			bt::to_mpz(zr, r.data(), len);
			mpz_add(za, za, zr);
		}
		want = bt::chunks_of(za, len + 1);
	}
	return want;
}

std::vector<chunk> gmp_mul(const std::vector<chunk> &a, int alen, const std::vector<chunk> &b, int blen)
{
	std::vector<chunk> want(static_cast<size_t>(alen + blen), 0);
	if (kLimbIsChunk) {
		mp_limb_t *w = reinterpret_cast<mp_limb_t *>(want.data());
		const mp_limb_t *ap = reinterpret_cast<const mp_limb_t *>(a.data());
		const mp_limb_t *bp = reinterpret_cast<const mp_limb_t *>(b.data());
		if (ap == bp && alen == blen)
			mpn_sqr(w, ap, alen);
		else if (alen >= blen)
			mpn_mul(w, ap, alen, bp, blen);
		else
			mpn_mul(w, bp, blen, ap, alen);
	} else {
		bt::Mpz za, zb;
		bt::to_mpz(za, a.data(), alen);
		bt::to_mpz(zb, b.data(), blen);
		mpz_mul(za, za, zb);
		want = bt::chunks_of(za, alen + blen);
	}
	return want;
}

void check_row(const Variant<big_mul_row_fn> &v, big_mul_row_fn *c_fn, bool add, bt::Rng &rng, int len, chunk digit,
	       bool alias)
{
	std::vector<chunk> a = operand(rng, len);
	std::vector<chunk> r0 = add ? operand(rng, len) : std::vector<chunk>(static_cast<size_t>(len), 0);
	std::vector<chunk> want = gmp_row(r0, a, len, digit, add);

	Guarded g(len);
	g.set(alias ? a : r0);
	const chunk *src = alias ? g.r() : a.data();
	chunk carry = v.fn(g.r(), src, len, digit);
	std::vector<chunk> got = g.value();
	got.push_back(carry);
	ASSERT_EQ(got, want) << v.name << (add ? " mul_add_vec" : " mul_set_vec") << " len " << len
			     << " digit " << static_cast<uint64_t>(digit) << (alias ? " r == a" : "");
	ASSERT_TRUE(g.guards_intact()) << v.name << " wrote outside r[0.." << len << ")";

	/* Bit for bit the C variant's answer (already proved equal to GMP's). */
	std::vector<chunk> rc = alias ? a : r0;
	rc.push_back(0);
	rc[static_cast<size_t>(len)] = c_fn(rc.data(), alias ? rc.data() : a.data(), len, digit);
	ASSERT_EQ(got, rc) << v.name << " differs from the C variant, len " << len;
}

/* Every variant of a row kernel at every len from 0 to kMaxLen and every
 * digit, against GMP and the C variant; r == a too where the contract
 * allows it (mul_set_vec). */
void check_rows(const std::vector<Variant<big_mul_row_fn>> &variants, big_mul_row_fn *c_fn, bool add, uint64_t salt)
{
	bt::Rng rng(salt);
	const long reps = bt::scaled(3);
	for (const auto &v : variants)
		for (int len = 0; len <= kMaxLen; len++)
			for (chunk d : digits(rng))
				for (long k = 0; k < reps; k++)
					for (bool alias : { false, true }) {
						if (alias && add)
							continue;
						check_row(v, c_fn, add, rng, len, d, alias);
						if (::testing::Test::HasFatalFailure())
							return;
					}
}

TEST(Kernels, MulSetVecEveryVariantVsGmp)
{
	check_rows(mul_set_variants(), big_mul_set_vec_c, false, 0x736574);
}

TEST(Kernels, MulAddVecEveryVariantVsGmp)
{
	check_rows(mul_add_variants(), big_mul_add_vec_c, true, 0x616464);
}

/* The largest carries: r and a all-ones, digit all-ones, where the final
 * carry is B - 1 (add) and B - 2 (set). */
TEST(Kernels, RowsAllOnes)
{
	for (int len = 1; len <= kMaxLen; len++) {
		std::vector<chunk> a(static_cast<size_t>(len), BIG_CHUNK_ALLBITS);
		for (const auto &v : mul_add_variants()) {
			std::vector<chunk> r(static_cast<size_t>(len), BIG_CHUNK_ALLBITS);
			EXPECT_EQ(v.fn(r.data(), a.data(), len, BIG_CHUNK_ALLBITS), BIG_CHUNK_ALLBITS) << v.name;
			/* (B^n - 1)(B - 1) + B^n - 1 = B^(n+1) - B: low chunk 0, rest all-ones */
			EXPECT_EQ(r[0], 0u) << v.name << " len " << len;
			for (int i = 1; i < len; i++)
				EXPECT_EQ(r[static_cast<size_t>(i)], BIG_CHUNK_ALLBITS) << v.name << " len " << len;
		}
		for (const auto &v : mul_set_variants()) {
			std::vector<chunk> r(static_cast<size_t>(len), 0);
			EXPECT_EQ(v.fn(r.data(), a.data(), len, BIG_CHUNK_ALLBITS), BIG_CHUNK_ALLBITS - 1) << v.name;
			EXPECT_EQ(r[0], 1u) << v.name << " len " << len;
		}
	}
}

TEST(Kernels, SqrVecEveryVariantVsGmp)
{
	bt::Rng rng(0x737172);
	const long reps = bt::scaled(4);
	for (const auto &v : sqr_variants())
		for (int len = 1; len <= kMaxLen; len++)
			for (long k = 0; k < reps; k++) {
				std::vector<chunk> a = operand(rng, len);
				std::vector<chunk> want = gmp_mul(a, len, a, len);
				Guarded g(2 * len);
				v.fn(g.r(), a.data(), len);
				ASSERT_EQ(g.value(), want) << v.name << " sqr_vec len " << len;
				ASSERT_TRUE(g.guards_intact()) << v.name << " sqr_vec wrote outside r, len " << len;
				std::vector<chunk> rc(static_cast<size_t>(2 * len));
				big_sqr_vec_c(rc.data(), a.data(), len);
				ASSERT_EQ(g.value(), rc) << v.name << " differs from the C variant, len " << len;
			}
}

TEST(Kernels, MulVecEveryVariantVsGmp)
{
	bt::Rng rng(0x6d756c);
	std::vector<std::pair<int, int>> shapes;
	for (int alen = 1; alen <= 40; alen++)
		for (int blen = 1; blen <= 40; blen++)
			shapes.push_back({ alen, blen });
	for (int len = 25; len <= kMaxLen; len += 7)
		shapes.push_back({ len, kMaxLen + 1 - len });
	for (const auto &v : mul_variants())
		for (auto [alen, blen] : shapes) {
			std::vector<chunk> a = operand(rng, alen), b = operand(rng, blen);
			std::vector<chunk> want = gmp_mul(a, alen, b, blen);
			Guarded g(alen + blen);
			v.fn(g.r(), a.data(), alen, b.data(), blen);
			ASSERT_EQ(g.value(), want) << v.name << " mul_vec " << alen << " x " << blen;
			ASSERT_TRUE(g.guards_intact()) << v.name << " mul_vec wrote outside r";
		}
}

/* big_cpu_variant_name() is the variant BIGMONT_CPU asks for when this
 * build and CPU have it, else the best one. */
TEST(Kernels, VariantNameFollowsBigmontCpu)
{
	static const char *const names[] = { "c", "baseline", "adx", "ifma" };
	const char *env = std::getenv("BIGMONT_CPU");
	const std::string best = names[big_cpu_best()];
	int want = -1;
	for (int v = 0; v < 4 && env; v++)
		if (std::strcmp(env, names[v]) == 0)
			want = v;
	if (want >= 0 && want <= static_cast<int>(big_cpu_best()))
		EXPECT_EQ(std::string(big_cpu_variant_name()), names[want]);
	else
		EXPECT_EQ(std::string(big_cpu_variant_name()), best);
	EXPECT_EQ(big_have_asm(), BIGMONT_HAVE_ASM);
	if (!BIGMONT_HAVE_ASM) {
		EXPECT_EQ(best, "c");
	}
}

#if BIGMONT_HAVE_ASM
TEST(Kernels, AsmKeepsCalleeSavedRegistersAndSignExtendsLen)
{
	bt::Rng rng(0x726567);
	std::vector<Variant<big_mul_row_fn>> rows;
	for (const auto &v : mul_set_variants())
		if (v.is_asm)
			rows.push_back(v);
	const size_t nset = rows.size();
	for (const auto &v : mul_add_variants())
		if (v.is_asm)
			rows.push_back(v);
	for (int len = 0; len <= 40; len++) {
		for (size_t k = 0; k < rows.size(); k++) {
			const bool add = k >= nset;
			const chunk digit = rng.digit();
			std::vector<chunk> a = operand(rng, len);
			std::vector<chunk> r0 = add ? operand(rng, len) : std::vector<chunk>(static_cast<size_t>(len), 0);
			std::vector<chunk> want = gmp_row(r0, a, len, digit, add);
			Guarded g(len);
			g.set(r0);
			bt::AbiCall c = { { bt::ptr_arg(g.r()), bt::ptr_arg(a.data()), bt::int_arg(len), digit,
					    0x7777777777777777ULL, 0x8888888888888888ULL } };
			EXPECT_TRUE(bt::abi_call(reinterpret_cast<const void *>(rows[k].fn), &c))
				<< rows[k].name << (add ? " mul_add_vec" : " mul_set_vec") << " len " << len;
			std::vector<chunk> got = g.value();
			got.push_back(c.ret);
			EXPECT_EQ(got, want) << rows[k].name << (add ? " mul_add_vec" : " mul_set_vec") << " len "
					     << len << " with garbage above the int len";
			EXPECT_TRUE(g.guards_intact()) << rows[k].name << " len " << len;
		}
	}
	for (const auto &v : sqr_variants()) {
		if (!v.is_asm)
			continue;
		for (int len = 1; len <= 40; len++) {
			std::vector<chunk> a = operand(rng, len);
			std::vector<chunk> want = gmp_mul(a, len, a, len);
			Guarded g(2 * len);
			bt::AbiCall c = { { bt::ptr_arg(g.r()), bt::ptr_arg(a.data()), bt::int_arg(len),
					    0x7777777777777777ULL, 0x8888888888888888ULL, 0x9999999999999999ULL } };
			EXPECT_TRUE(bt::abi_call(reinterpret_cast<const void *>(v.fn), &c))
				<< v.name << " sqr_vec len " << len;
			EXPECT_EQ(g.value(), want) << v.name << " sqr_vec len " << len
						   << " with garbage above the int len";
			EXPECT_TRUE(g.guards_intact()) << v.name << " sqr_vec len " << len;
		}
		/* len <= 0 is outside the contract; the kernel writes nothing. */
		Guarded g(0);
		chunk a[1] = { 5 };
		bt::AbiCall c = { { bt::ptr_arg(g.r()), bt::ptr_arg(a), bt::int_arg(-3) } };
		EXPECT_TRUE(bt::abi_call(reinterpret_cast<const void *>(v.fn), &c)) << v.name;
		EXPECT_TRUE(g.guards_intact()) << v.name << " sqr_vec with len -3";
	}
	for (const auto &v : mul_variants()) {
		if (!v.is_asm)
			continue;
		for (int alen = 1; alen <= 20; alen++)
			for (int blen = 1; blen <= 20; blen += 3) {
				std::vector<chunk> a = operand(rng, alen), b = operand(rng, blen);
				std::vector<chunk> want = gmp_mul(a, alen, b, blen);
				Guarded g(alen + blen);
				bt::AbiCall c = { { bt::ptr_arg(g.r()), bt::ptr_arg(a.data()), bt::int_arg(alen),
						    bt::ptr_arg(b.data()), bt::int_arg(blen), 0x9999999999999999ULL } };
				EXPECT_TRUE(bt::abi_call(reinterpret_cast<const void *>(v.fn), &c))
					<< v.name << " mul_vec " << alen << " x " << blen;
				EXPECT_EQ(g.value(), want) << v.name << " mul_vec " << alen << " x " << blen
							   << " with garbage above the int lengths";
				EXPECT_TRUE(g.guards_intact()) << v.name << " mul_vec " << alen << " x " << blen;
			}
	}
	/* A negative len is an empty vector: returns 0, writes nothing. */
	for (const auto &v : rows) {
		Guarded g(0);
		chunk a[1] = { 5 };
		bt::AbiCall c = { { bt::ptr_arg(g.r()), bt::ptr_arg(a), bt::int_arg(-3), 7 } };
		EXPECT_TRUE(bt::abi_call(reinterpret_cast<const void *>(v.fn), &c)) << v.name;
		EXPECT_EQ(c.ret, 0u) << v.name << " with len -3";
		EXPECT_TRUE(g.guards_intact()) << v.name << " with len -3";
	}
}
#endif

} // namespace
