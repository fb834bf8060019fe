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

#include "testutil.h"

namespace {

using bt::chunk;

constexpr bool kLimbIsChunk = GMP_NUMB_BITS == BIG_CHUNK_SIZE && sizeof(mp_limb_t) == sizeof(chunk);
constexpr int kMaxLen = 130;

[[maybe_unused]] bool cpu_has_adx() { return big_cpu_best() >= BIG_CPU_ADX; }

template <typename Fn> struct Variant {
	const char *name;
	Fn *fn;
	bool is_asm;
};

std::vector<Variant<big_mul_row_fn>> mul_set_variants()
{
	std::vector<Variant<big_mul_row_fn>> v;
	v.push_back({ "c", big_mul_set_vec_c, false });
#if BIGMONT_HAVE_ASM
	v.push_back({ "base", big_mul_set_vec_base, true });
	if (cpu_has_adx())
		v.push_back({ "adx", big_mul_set_vec_adx, true });
#endif
	v.push_back({ "dispatched", big_mul_set_vec, false });
	return v;
}

std::vector<Variant<big_mul_row_fn>> mul_add_variants()
{
	std::vector<Variant<big_mul_row_fn>> v;
	v.push_back({ "c", big_mul_add_vec_c, false });
#if BIGMONT_HAVE_ASM
	v.push_back({ "base", big_mul_add_vec_base, true });
	if (cpu_has_adx())
		v.push_back({ "adx", big_mul_add_vec_adx, true });
#endif
	v.push_back({ "dispatched", big_mul_add_vec, false });
	return v;
}

std::vector<Variant<big_sqr_vec_fn>> sqr_variants()
{
	std::vector<Variant<big_sqr_vec_fn>> v;
	v.push_back({ "c", big_sqr_vec_c, false });
#if BIGMONT_HAVE_ASM
	v.push_back({ "base", big_sqr_vec_base, true });
	if (cpu_has_adx())
		v.push_back({ "adx", big_sqr_vec_adx, true });
#endif
	v.push_back({ "dispatched", big_sqr_vec, false });
	return v;
}

std::vector<Variant<big_mul_vec_fn>> mul_variants()
{
	std::vector<Variant<big_mul_vec_fn>> v;
	v.push_back({ "c", big_mul_vec_c, false });
#if BIGMONT_HAVE_ASM
	v.push_back({ "base", big_mul_vec_base, true });
	if (cpu_has_adx())
		v.push_back({ "adx", big_mul_vec_adx, true });
#endif
	v.push_back({ "dispatched", big_mul_vec, false });
	return v;
}

/* An output buffer with guard chunks on both sides. */
constexpr chunk kGuard = static_cast<chunk>(0xa5c3a5c3a5c3a5c3ULL);
constexpr int kGuardChunks = 4;

struct Guarded {
	std::vector<chunk> buf;
	int len;
	explicit Guarded(int len_) : buf(static_cast<size_t>(len_ + 2 * kGuardChunks), kGuard), len(len_) {}
	chunk *r() { return buf.data() + kGuardChunks; }
	std::vector<chunk> value() const
	{
		return std::vector<chunk>(buf.begin() + kGuardChunks, buf.begin() + kGuardChunks + len);
	}
	bool guards_intact() const
	{
		for (int i = 0; i < kGuardChunks; i++)
			if (buf[i] != kGuard || buf[buf.size() - 1 - i] != kGuard)
				return false;
		return true;
	}
};

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
	if (len > 0)
		std::memcpy(g.r(), (alias ? a : r0).data(), sizeof(chunk) * static_cast<size_t>(len));
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

TEST(Kernels, MulSetVecEveryVariantVsGmp)
{
	bt::Rng rng(0x736574);
	const long reps = bt::scaled(3);
	for (const auto &v : mul_set_variants())
		for (int len = 0; len <= kMaxLen; len++)
			for (chunk d : digits(rng))
				for (long k = 0; k < reps; k++) {
					check_row(v, big_mul_set_vec_c, false, rng, len, d, false);
					check_row(v, big_mul_set_vec_c, false, rng, len, d, true);
				}
}

TEST(Kernels, MulAddVecEveryVariantVsGmp)
{
	bt::Rng rng(0x616464);
	const long reps = bt::scaled(3);
	for (const auto &v : mul_add_variants())
		for (int len = 0; len <= kMaxLen; len++)
			for (chunk d : digits(rng))
				for (long k = 0; k < reps; k++)
					check_row(v, big_mul_add_vec_c, true, rng, len, d, false);
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
	static const char *const names[] = { "c", "baseline", "adx" };
	const char *env = std::getenv("BIGMONT_CPU");
	const std::string best = names[big_cpu_best()];
	int want = -1;
	for (int v = 0; v < 3 && env; v++)
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
/*
 * kernel_trampoline(fn, args): load known values into rbx, rbp, r12-r15,
 * call fn(args[0..5]), store its rax in args[6] and rsp's change in
 * args[7] (0 if restored), and return the OR of each callee-saved
 * register XOR its known value (0 if all survived).
 */
extern "C" uint64_t kernel_trampoline(void *fn, uint64_t *args);
__asm__(".text\n"
	".p2align 4\n"
	".type kernel_trampoline,@function\n"
	"kernel_trampoline:\n"
	"	push %rbx\n"
	"	push %rbp\n"
	"	push %r12\n"
	"	push %r13\n"
	"	push %r14\n"
	"	push %r15\n"
	"	sub $8, %rsp\n"
	"	mov %rsi, (%rsp)\n"
	"	mov %rsp, 56(%rsi)\n"
	"	mov %rdi, %r11\n"
	"	mov %rsi, %rax\n"
	"	movabs $0x1111111111111111, %rbx\n"
	"	movabs $0x2222222222222222, %rbp\n"
	"	movabs $0x3333333333333333, %r12\n"
	"	movabs $0x4444444444444444, %r13\n"
	"	movabs $0x5555555555555555, %r14\n"
	"	movabs $0x6666666666666666, %r15\n"
	"	mov 0(%rax), %rdi\n"
	"	mov 8(%rax), %rsi\n"
	"	mov 16(%rax), %rdx\n"
	"	mov 24(%rax), %rcx\n"
	"	mov 32(%rax), %r8\n"
	"	mov 40(%rax), %r9\n"
	"	call *%r11\n"
	"	mov (%rsp), %rcx\n"
	"	mov %rax, 48(%rcx)\n"
	"	mov %rsp, %rdx\n"
	"	xor 56(%rcx), %rdx\n"
	"	mov %rdx, 56(%rcx)\n"
	"	movabs $0x1111111111111111, %rax\n"
	"	xor %rax, %rbx\n"
	"	movabs $0x2222222222222222, %rax\n"
	"	xor %rax, %rbp\n"
	"	movabs $0x3333333333333333, %rax\n"
	"	xor %rax, %r12\n"
	"	movabs $0x4444444444444444, %rax\n"
	"	xor %rax, %r13\n"
	"	movabs $0x5555555555555555, %rax\n"
	"	xor %rax, %r14\n"
	"	movabs $0x6666666666666666, %rax\n"
	"	xor %rax, %r15\n"
	"	mov %rbx, %rax\n"
	"	or %rbp, %rax\n"
	"	or %r12, %rax\n"
	"	or %r13, %rax\n"
	"	or %r14, %rax\n"
	"	or %r15, %rax\n"
	"	add $8, %rsp\n"
	"	pop %r15\n"
	"	pop %r14\n"
	"	pop %r13\n"
	"	pop %r12\n"
	"	pop %rbp\n"
	"	pop %rbx\n"
	"	ret\n"
	".size kernel_trampoline, .-kernel_trampoline\n");

/* int len with garbage above bit 31: the kernel must sign-extend edx. */
uint64_t len_register(int len)
{
	return (UINT64_C(0xdeadbeef) << 32) | static_cast<uint32_t>(len);
}

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
			if (len > 0)
				std::memcpy(g.r(), r0.data(), sizeof(chunk) * static_cast<size_t>(len));
			uint64_t args[8] = { reinterpret_cast<uint64_t>(g.r()), reinterpret_cast<uint64_t>(a.data()),
					     len_register(len), digit, 0x7777777777777777ULL, 0x8888888888888888ULL,
					     0, 0 };
			EXPECT_EQ(kernel_trampoline(reinterpret_cast<void *>(rows[k].fn), args), 0u)
				<< rows[k].name << (add ? " mul_add_vec" : " mul_set_vec")
				<< " clobbered a callee-saved register, len " << len;
			EXPECT_EQ(args[7], 0u) << rows[k].name << " moved rsp, len " << len;
			std::vector<chunk> got = g.value();
			got.push_back(args[6]);
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
			uint64_t args[8] = { reinterpret_cast<uint64_t>(g.r()), reinterpret_cast<uint64_t>(a.data()),
					     len_register(len), 0x7777777777777777ULL, 0x8888888888888888ULL,
					     0x9999999999999999ULL, 0, 0 };
			EXPECT_EQ(kernel_trampoline(reinterpret_cast<void *>(v.fn), args), 0u)
				<< v.name << " sqr_vec clobbered a callee-saved register, len " << len;
			EXPECT_EQ(args[7], 0u) << v.name << " sqr_vec moved rsp, len " << len;
			EXPECT_EQ(g.value(), want) << v.name << " sqr_vec len " << len
						   << " with garbage above the int len";
			EXPECT_TRUE(g.guards_intact()) << v.name << " sqr_vec len " << len;
		}
		/* len <= 0 is outside the contract; the kernel writes nothing. */
		Guarded g(0);
		chunk a[1] = { 5 };
		uint64_t args[8] = { reinterpret_cast<uint64_t>(g.r()), reinterpret_cast<uint64_t>(a),
				     len_register(-3), 0, 0, 0, 0, 0 };
		EXPECT_EQ(kernel_trampoline(reinterpret_cast<void *>(v.fn), args), 0u) << v.name;
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
				uint64_t args[8] = { reinterpret_cast<uint64_t>(g.r()), reinterpret_cast<uint64_t>(a.data()),
						     len_register(alen), reinterpret_cast<uint64_t>(b.data()),
						     len_register(blen), 0x9999999999999999ULL, 0, 0 };
				EXPECT_EQ(kernel_trampoline(reinterpret_cast<void *>(v.fn), args), 0u)
					<< v.name << " mul_vec clobbered a callee-saved register, " << alen << " x " << blen;
				EXPECT_EQ(args[7], 0u) << v.name << " mul_vec moved rsp";
				EXPECT_EQ(g.value(), want) << v.name << " mul_vec " << alen << " x " << blen
							   << " with garbage above the int lengths";
				EXPECT_TRUE(g.guards_intact()) << v.name << " mul_vec " << alen << " x " << blen;
			}
	}
	/* A negative len is an empty vector: returns 0, writes nothing. */
	for (const auto &v : rows) {
		Guarded g(0);
		chunk a[1] = { 5 };
		uint64_t args[8] = { reinterpret_cast<uint64_t>(g.r()), reinterpret_cast<uint64_t>(a),
				     len_register(-3), 7, 0, 0, 0, 0 };
		EXPECT_EQ(kernel_trampoline(reinterpret_cast<void *>(v.fn), args), 0u) << v.name;
		EXPECT_EQ(args[6], 0u) << v.name << " with len -3";
		EXPECT_TRUE(g.guards_intact()) << v.name << " with len -3";
	}
}
#endif

} // namespace
