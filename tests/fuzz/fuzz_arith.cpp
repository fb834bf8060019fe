/*
 * fuzz_arith: libFuzzer target, differential against GMP.
 *
 * The first byte picks an operation; the rest is split into operands of
 * fuzzer-chosen lengths.  Operands are built straight from the bytes,
 * sometimes with high zero chunks left in len (the API must read past them
 * and never trim an input), sometimes through bytestring2bignum.  Every
 * result is compared with GMP, checked normalised, and every input checked
 * unchanged.
 *
 *   0 big_mul          signed product, squaring path when aa == bb
 *   1 big_div_pos      |a| / |b|, |a| mod |b|, either output NULL
 *   2 big_modexp       a^e mod n (variable time), n_rr NULL or given
 *   3 big_modexp_ct    the same, constant time
 *   4 big_mont_mul_vec every kernel variant this build has, and the
 *                      dispatched one, including r == a and r == a == b
 *   5 big_mont_sqr_vec the same for squaring
 *   6 big_modexp_crt   against the CRT of two GMP powms, p, q coprime odd,
 *                      exponents reduced mod p-1, q-1 as the contract says
 *   7 big_mod_inverse  against mpz_invert, any a (signed, any length),
 *                      refusal when gcd != 1, result aliasing a
 *
 * Sizes are capped (see the constants) so one input runs in milliseconds.
 */
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <gmp.h>

#include "internal.h"
#include "mont_ref.h"

namespace {

constexpr size_t kMulMaxBytes = 1024;
constexpr size_t kDivMaxBytes = 1024;
constexpr size_t kModMaxBytes = 384;
constexpr size_t kExpMaxBytes = 48;

[[noreturn]] void fail(const char *what, const mpz_t want, const BIGNUM *got)
{
	std::fprintf(stderr, "fuzz_arith: %s\n", what);
	if (want)
		gmp_fprintf(stderr, "  want %Zx\n", want);
	if (got) {
		std::fprintf(stderr, "  got  len %d sign %d:", got->len, got->sign);
		for (int i = got->len - 1; i >= 0; i--)
			std::fprintf(stderr, " %016llx", (unsigned long long)got->value[i]);
		std::fprintf(stderr, "\n");
	}
	std::abort();
}

struct Z {
	mpz_t v;
	Z() { mpz_init(v); }
	~Z() { mpz_clear(v); }
	operator mpz_ptr() { return v; }
};

/* A BIGNUM owned by the harness, built from bytes with optional high zero
 * chunks; `snapshot` remembers the bytes so we can prove it unchanged. */
struct Num {
	BIGNUM b{};
	std::vector<chunk_t> snapshot;
	int snap_len = 0, snap_sign = 0;

	Num() { if (big_init(&b, 1) != BIG_OK) std::abort(); }
	~Num() { big_finish(&b); }
	Num(const Num &) = delete;
	Num &operator=(const Num &) = delete;

	void from_bytes(const std::vector<uint8_t> &bytes, int extra_zero_chunks,
			bool via_api, int sign)
	{
		if (via_api) {
			if (bytestring2bignum(&b, bytes.data(), bytes.size()) != BIG_OK)
				fail("bytestring2bignum failed", nullptr, nullptr);
		} else {
			int len = (int)CHARLEN2BIGNUMLEN(bytes.size());
			if (len < 1)
				len = 1;
			if (big_extend(&b, len + extra_zero_chunks) != BIG_OK)
				std::abort();
			std::memset(b.value, 0, sizeof(chunk_t) * (size_t)b.size);
			for (size_t i = 0; i < bytes.size(); i++) {
				size_t bit = 8 * (bytes.size() - 1 - i);
				b.value[bit / BIG_CHUNK_SIZE] |=
					(chunk_t)bytes[i] << (bit % BIG_CHUNK_SIZE);
			}
			b.len = len + extra_zero_chunks;
		}
		b.sign = sign;
		if (b.len > 1 && big_is_zero(&b))
			b.sign = 1;
	}
	void from_mpz(const mpz_t z)
	{
		size_t n = (mpz_sizeinbase(z, 2) + BIG_CHUNK_SIZE - 1) / BIG_CHUNK_SIZE;
		int len = n ? (int)n : 1;
		if (big_extend(&b, len) != BIG_OK)
			std::abort();
		std::memset(b.value, 0, sizeof(chunk_t) * (size_t)len);
		mpz_export(b.value, nullptr, -1, sizeof(chunk_t), 0, 0, z);
		b.len = len;
		b.sign = 1;
	}
	void to_mpz(mpz_t z) const
	{
		mpz_import(z, (size_t)b.len, -1, sizeof(chunk_t), 0, 0, b.value);
		if (b.sign < 0)
			mpz_neg(z, z);
	}
	void remember()
	{
		snapshot.assign(b.value, b.value + b.len);
		snap_len = b.len;
		snap_sign = b.sign;
	}
	void check_unchanged(const char *name) const
	{
		if (b.len != snap_len || b.sign != snap_sign ||
		    std::memcmp(b.value, snapshot.data(), sizeof(chunk_t) * (size_t)b.len))
			fail(name, nullptr, &b);
	}
};

/* got must equal want (signed) and be normalised -- except where the
 * function's contract says it keeps a fixed length (the constant-time
 * exponentiations: trimming would branch on the secret result). */
void expect_equal(const char *what, const mpz_t want, const BIGNUM *got,
		  bool fixed_length = false)
{
	if (got->len < 1 || got->len > got->size)
		fail(what, want, got);
	if (!fixed_length && got->len > 1 && got->value[got->len - 1] == 0)
		fail(what, want, got); /* not normalised */
	Z g;
	mpz_import(g, (size_t)got->len, -1, sizeof(chunk_t), 0, 0, got->value);
	if (mpz_sgn(want) < 0 && !(got->sign < 0))
		fail(what, want, got);
	if (mpz_sgn(want) > 0 && got->sign != 1)
		fail(what, want, got);
	Z absw;
	mpz_abs(absw, want);
	if (mpz_cmp(g, absw) != 0)
		fail(what, want, got);
}

std::vector<uint8_t> take(FuzzedDataProvider &fdp, size_t max)
{
	size_t n = fdp.ConsumeIntegralInRange<size_t>(0, max);
	return fdp.ConsumeBytes<uint8_t>(n);
}

void load(Num &x, FuzzedDataProvider &fdp, size_t max, bool allow_negative)
{
	int extra = fdp.ConsumeIntegralInRange<int>(0, 2);
	bool via_api = fdp.ConsumeBool();
	int sign = allow_negative && fdp.ConsumeBool() ? -1 : 1;
	x.from_bytes(take(fdp, max), via_api ? 0 : extra, via_api, sign);
	x.remember();
}

/* A non-negative x < m from the input, normalised; z is its value. */
void load_mod(Num &x, mpz_t z, FuzzedDataProvider &fdp, size_t max, const mpz_t m)
{
	load(x, fdp, max, false);
	x.to_mpz(z);
	mpz_mod(z, z, m);
	x.from_mpz(z);
	x.remember();
}

void fuzz_mul(FuzzedDataProvider &fdp)
{
	Num a, b, r;
	bool square = fdp.ConsumeBool();
	load(a, fdp, kMulMaxBytes, true);
	if (!square)
		load(b, fdp, kMulMaxBytes, true);
	const BIGNUM *bb = square ? &a.b : &b.b;
	if (big_mul(&r.b, &a.b, bb) != BIG_OK)
		fail("big_mul failed", nullptr, nullptr);
	Z za, zb, want;
	a.to_mpz(za);
	(square ? a : b).to_mpz(zb);
	mpz_mul(want, za, zb);
	expect_equal("big_mul", want, &r.b);
	a.check_unchanged("big_mul changed aa");
	if (!square)
		b.check_unchanged("big_mul changed bb");
}

void fuzz_div(FuzzedDataProvider &fdp)
{
	Num a, b, q, r;
	load(a, fdp, kDivMaxBytes, true);
	load(b, fdp, kDivMaxBytes, true);
	int which = fdp.ConsumeIntegralInRange<int>(0, 2); /* both, q only, r only */
	BIGNUM *qp = which == 2 ? nullptr : &q.b;
	BIGNUM *rp = which == 1 ? nullptr : &r.b;
	BIG_ERR_CODE err = big_div_pos(qp, rp, &a.b, &b.b);
	Z za, zb, wq, wr;
	a.to_mpz(za);
	b.to_mpz(zb);
	mpz_abs(za, za);
	mpz_abs(zb, zb);
	if (mpz_sgn(zb.v) == 0) {
		if (err != BIG_DIV_BY_0)
			fail("big_div_pos by zero did not return BIG_DIV_BY_0", nullptr, nullptr);
		return;
	}
	if (err != BIG_OK)
		fail("big_div_pos failed", nullptr, nullptr);
	mpz_tdiv_qr(wq, wr, za, zb);
	if (qp)
		expect_equal("big_div_pos quotient", wq, qp);
	if (rp)
		expect_equal("big_div_pos remainder", wr, rp);
	a.check_unchanged("big_div_pos changed aa");
	b.check_unchanged("big_div_pos changed bb");
}

/* An odd modulus > 1 from the input, normalised; false if none. */
bool load_modulus(Num &n, mpz_t zn, FuzzedDataProvider &fdp, size_t max)
{
	std::vector<uint8_t> bytes = take(fdp, max);
	if (bytes.empty())
		return false;
	bytes.back() |= 1;
	n.from_bytes(bytes, 0, false, 1);
	n.to_mpz(zn);
	if (mpz_cmp_ui(zn, 1) <= 0)
		return false;
	n.from_mpz(zn); /* normalised: R is defined by n->len */
	n.remember();
	return true;
}

/* R^2 mod n with R = 2^(BIG_CHUNK_SIZE * n.len). */
void mont_rr(Num &rr, const Num &n, const mpz_t zn)
{
	Z r2;
	mpz_setbit(r2, 2 * (mp_bitcnt_t)BIG_CHUNK_SIZE * (mp_bitcnt_t)n.b.len);
	mpz_mod(r2, r2, zn);
	rr.from_mpz(r2);
	rr.remember();
}

void fuzz_modexp(FuzzedDataProvider &fdp, bool ct)
{
	Num n, a, e, rr, r;
	Z zn, za, ze, want;
	if (!load_modulus(n, zn, fdp, kModMaxBytes))
		return;
	load(a, fdp, kModMaxBytes + 16, false);
	load(e, fdp, kExpMaxBytes, false);
	bool give_rr = fdp.ConsumeBool();
	if (give_rr)
		mont_rr(rr, n, zn);
	const BIGNUM *rrp = give_rr ? &rr.b : nullptr;
	BIG_ERR_CODE err = ct ? big_modexp_ct(&r.b, &a.b, &e.b, &n.b, rrp)
			      : big_modexp(&r.b, &a.b, &e.b, &n.b, rrp);
	if (err != BIG_OK)
		fail(ct ? "big_modexp_ct failed" : "big_modexp failed", nullptr, nullptr);
	a.to_mpz(za);
	e.to_mpz(ze);
	mpz_powm(want, za, ze, zn);
	expect_equal(ct ? "big_modexp_ct" : "big_modexp", want, &r.b, ct);
	if (ct && r.b.len != n.b.len)
		fail("big_modexp_ct: result length is not n's", want, &r.b);
	a.check_unchanged("modexp changed a");
	e.check_unchanged("modexp changed e");
	n.check_unchanged("modexp changed n");
	if (give_rr)
		rr.check_unchanged("modexp changed n_rr");
}

void fuzz_mont(FuzzedDataProvider &fdp, bool square)
{
	Num n;
	Z zn, za, zb, want, rinv, r;
	if (!load_modulus(n, zn, fdp, kModMaxBytes))
		return;
	int len = n.b.len;
	/* a, b reduced mod n (the kernel's precondition). */
	Num a, b;
	load_mod(a, za, fdp, kModMaxBytes, zn);
	load_mod(b, zb, fdp, kModMaxBytes, zn);
	if (square)
		mpz_set(zb, za);
	/* n0 = -n^-1 mod 2^BIG_CHUNK_SIZE, by GMP, independent of big_n0. */
	Z base, n0z;
	mpz_setbit(base, BIG_CHUNK_SIZE);
	mpz_invert(n0z, zn, base);
	mpz_sub(n0z, base, n0z);
	chunk_t n0 = (chunk_t)mpz_get_ui(n0z);
	bt::mont_R(r, len);
	mpz_invert(rinv, r, zn);
	bt::mont_product(want, za, zb, rinv, zn);

	std::vector<chunk_t> av(len, 0), bv(len, 0), wv(len, 0), out(len), nv(n.b.value, n.b.value + len);
	mpz_export(av.data(), nullptr, -1, sizeof(chunk_t), 0, 0, za);
	mpz_export(bv.data(), nullptr, -1, sizeof(chunk_t), 0, 0, zb);
	mpz_export(wv.data(), nullptr, -1, sizeof(chunk_t), 0, 0, want);

	/* The dispatched names, then every variant's kernels this build and
	 * CPU have (BIG_CPU_VARIANTS), each set once (ifma's are adx's). */
	struct Variant {
		const char *name;
		big_mont_mul_vec_fn *mul;
		big_mont_sqr_vec_fn *sqr;
		big_cpu_variant needs;
	};
#define VARIANT_ROW(arg, V, name, sfx, here)                                      \
	BIG_IF(here, {#sfx, big_mont_mul_vec_##sfx, big_mont_sqr_vec_##sfx, BIG_CPU_##V},)
	const Variant variants[] = {
		{"dispatched", big_mont_mul_vec, big_mont_sqr_vec, BIG_CPU_C},
		BIG_CPU_VARIANTS(VARIANT_ROW, )
	};
#undef VARIANT_ROW
	int alias = fdp.ConsumeIntegralInRange<int>(0, 1); /* r separate, r == a */
	for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		const Variant &v = variants[i];
		if (v.needs > big_cpu_best() || (i > 1 && variants[i - 1].mul == v.mul))
			continue;
		/* Exact-size heap copies so ASan catches a read past len. */
		std::vector<chunk_t> a2(av), b2(bv), n2(nv);
		std::vector<chunk_t> *res = alias ? &a2 : &out;
		if (square)
			v.sqr(res->data(), a2.data(), n2.data(), n0, len);
		else
			v.mul(res->data(), a2.data(), b2.data(), n2.data(), n0, len);
		if (*res != wv) {
			std::fprintf(stderr, "variant %s, len %d, alias %d\n", v.name, len, alias);
			fail(square ? "big_mont_sqr_vec" : "big_mont_mul_vec", want, nullptr);
		}
		if (n2 != nv || (!alias && a2 != av) || b2 != bv)
			fail("Montgomery kernel changed an input", nullptr, nullptr);
	}
	if (!square) {
		/* r == a == b through the multiply entry point. */
		std::vector<chunk_t> a2(av), n2(nv);
		Z sq;
		bt::mont_product(sq, za, za, rinv, zn);
		std::vector<chunk_t> sv(len, 0);
		mpz_export(sv.data(), nullptr, -1, sizeof(chunk_t), 0, 0, sq);
		big_mont_mul_vec(a2.data(), a2.data(), a2.data(), n2.data(), n0, len);
		if (a2 != sv)
			fail("big_mont_mul_vec with r == a == b", sq, nullptr);
	}
}

void fuzz_crt(FuzzedDataProvider &fdp)
{
	Num p, q, a, dp, dq, pinv, r;
	Z zp, zq, zn, za, zdp, zdq, zpinv, g, xp, xq, want;
	if (!load_modulus(p, zp, fdp, kModMaxBytes / 2) ||
	    !load_modulus(q, zq, fdp, kModMaxBytes / 2))
		return;
	mpz_gcd(g, zp, zq);
	if (mpz_cmp_ui(g.v, 1) != 0 || mpz_cmp(zp, zq) == 0)
		return;
	mpz_mul(zn, zp, zq);
	load_mod(a, za, fdp, kModMaxBytes, zn);
	/* The exponents as the contract names them: d mod (p-1), d mod (q-1). */
	Z pm1, qm1;
	mpz_sub_ui(pm1, zp, 1);
	mpz_sub_ui(qm1, zq, 1);
	load_mod(dp, zdp, fdp, kExpMaxBytes, pm1);
	load_mod(dq, zdq, fdp, kExpMaxBytes, qm1);
	mpz_invert(zpinv, zp, zq);
	pinv.from_mpz(zpinv);
	pinv.remember();
	bool give_rr = fdp.ConsumeBool();
	Num prr, qrr;
	if (give_rr) {
		mont_rr(prr, p, zp);
		mont_rr(qrr, q, zq);
	}
	BIG_ERR_CODE err = big_modexp_crt(&r.b, &a.b, &dp.b, &dq.b, &p.b, &q.b,
					  &pinv.b, give_rr ? &prr.b : nullptr,
					  give_rr ? &qrr.b : nullptr);
	if (err != BIG_OK)
		fail("big_modexp_crt failed", nullptr, nullptr);
	mpz_powm(xp, za, zdp, zp);
	mpz_powm(xq, za, zdq, zq);
	/* Garner: x = xp + p * ((xq - xp) * pinv mod q). */
	mpz_sub(want, xq, xp);
	mpz_mul(want, want, zpinv);
	mpz_mod(want, want, zq);
	mpz_mul(want, want, zp);
	mpz_add(want, want, xp);
	expect_equal("big_modexp_crt", want, &r.b, true);
	if (r.b.len != p.b.len + q.b.len)
		fail("big_modexp_crt: result length is not p->len + q->len", want, &r.b);
	a.check_unchanged("crt changed a");
	p.check_unchanged("crt changed p");
	q.check_unchanged("crt changed q");
}

void fuzz_modinv(FuzzedDataProvider &fdp)
{
	Num n, a, r;
	Z zn, za, want;
	if (!load_modulus(n, zn, fdp, kModMaxBytes))
		return;
	load(a, fdp, 2 * kModMaxBytes, true);
	a.to_mpz(za);
	bool alias = fdp.ConsumeBool();
	BIGNUM *out = alias ? &a.b : &r.b;
	BIG_ERR_CODE err = big_mod_inverse(out, &a.b, &n.b);
	if (!mpz_invert(want, za, zn)) {
		if (err != BIG_INVALID_ARGS)
			fail("big_mod_inverse accepted a non-invertible a", nullptr, nullptr);
		if (alias)
			a.check_unchanged("big_mod_inverse changed a on refusal");
		return;
	}
	if (err != BIG_OK)
		fail("big_mod_inverse failed", want, nullptr);
	expect_equal("big_mod_inverse", want, out);
	n.check_unchanged("big_mod_inverse changed n");
	if (!alias)
		a.check_unchanged("big_mod_inverse changed a");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	FuzzedDataProvider fdp(data + 1, size - 1);
	switch (data[0] % 8) {
	case 0: fuzz_mul(fdp); break;
	case 1: fuzz_div(fdp); break;
	case 2: fuzz_modexp(fdp, false); break;
	case 3: fuzz_modexp(fdp, true); break;
	case 4: fuzz_mont(fdp, false); break;
	case 5: fuzz_mont(fdp, true); break;
	case 6: fuzz_crt(fdp); break;
	default: fuzz_modinv(fdp); break;
	}
	return 0;
}
