/*
 * ct_memcheck: the constant-time test of the private operation under
 * Valgrind Memcheck.  Run under valgrind by tests/ct.cmake
 * (tests/ct/run_memcheck.cmake checks the report).
 *
 * Memcheck reports a conditional jump, a conditional move or a memory
 * address computed from "undefined" bytes.  So the program loads an RSA
 * key (read by OpenSSL: an independent parser), precomputes the public
 * per-key data (R^2 mod p, R^2 mod q: a precomputation that may be
 * variable time), then marks every secret byte undefined -- the chunks of
 * dp, dq, p, q, p^-1 mod q and the input a -- and runs big_modexp_crt.  Any
 * branch or table index on a secret (or on anything derived from one,
 * n0 from p included) is then reported.  The result is marked defined and
 * compared with mpz_powm(a, d, n).  It does the same for big_modexp_ct
 * with a and e secret (n public), and for the radix-2^52 twin
 * (bignum/radix52/): its dual exponentiation with base, exponents and
 * both moduli (digits, k0, R^2) secret (under the c kernels only, as the
 * twin's fault check below: neither calls a kernel of the variant), and,
 * with 64-bit chunks,
 * big_modexp_crt through it (big_modexp_crt_r52) with the same secrets as
 * above.  And the blinded path of rsa_private_raw around big_modexp_crt:
 * the calling thread's blinding pair squared, the input blinded and the
 * result unblinded (rsa/blinding.h), pair and input secret.  And the
 * fault check's out^e mod n with out secret: big_modexp_ct_base and, with
 * 64-bit chunks, its radix-2^52 path (big_r52_ct_base_pow) through the
 * twin, and modulo p and q apart (big_crt_check) on the chunk kernels.
 * The IFMA build of that algorithm cannot run under Valgrind; its
 * source compiled against emulated intrinsics can, with the product and
 * table read on zmm pair groups that the twin does not have
 * (tests/radix52/dual_emu_pairs.c): its dual exponentiation runs once,
 * every input secret, in the c entry.
 * And the batch path (bignum/lanes/), once: big_modexp_crt_batch, four
 * operations in the lanes of one exponentiation, each its own base, every
 * secret of every operation undefined: through the portable C lane build
 * in the c entry (on 512-bit primes: the twin under Memcheck is slow), and
 * through the AVX2 build on the key in the other entries where it runs
 * under Valgrind (its synthetic CPU has AVX2, not ADX: the baseline entry;
 * the code around the lanes runs on the entry's kernels).
 * And the vertical AVX2 path (bignum/vertical/), once, in the entries
 * other than c where the CPU Valgrind emulates has AVX2:
 * big_modexp_crt_vertical on 1536-bit odd coprime moduli (the size it
 * serves; the CRT needs no primality), every input secret, the result
 * undefined (the secrets reached it) and right.  And the paired path
 * (the two exponentiations side by side), once in every entry, the same
 * way: big_modexp_crt_paired on 512-bit moduli (RSA-1024's halves, where
 * the tuning table binds it).  And rsa_private_raw whole, and
 * rsa_private_batch whole where its AVX2 lanes run, with the key's
 * secrets undefined and only the outputs declassified after the call
 * (end_to_end, below: the result's conversion to bytes included).  And
 * the portable table read, big_ct_select_c, with a secret index (the
 * exponentiations above read through the AVX2 or AVX-512VL build).
 *
 * Usage: ct_memcheck <key.pem> [rounds] [--leaky]; exit 0 when every result
 * matches (rounds: 1 by default, every path once; more give more inputs).
 * --leaky runs the variable-time big_modexp on the secret exponent and
 * nothing else: the harness' self-test (Memcheck must report it).
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <valgrind/memcheck.h>

#include "../../rsa/blinding.h"
#include "../../rsa/rsa_internal.h"
#include "ossl_key.h"
#include "lanes/lanes.h"
#include "vertical/vertical.h"
#include "radix52/radix52.h"
#include "dual_emu.h"
#include "testutil.h"

namespace {

using bt::Big;
using bt::Mpz;

void secret(const BIGNUM *b)
{
	VALGRIND_MAKE_MEM_UNDEFINED(b->value, sizeof(BIG_CHUNK_TYPE) * (size_t)b->len);
}

void declassify(const BIGNUM *b)
{
	VALGRIND_MAKE_MEM_DEFINED(b->value, sizeof(BIG_CHUNK_TYPE) * (size_t)b->len);
}

bool set_hex(mpz_t z, const std::string &h, const char *what)
{
	if (h.empty() || mpz_set_str(z, h.c_str(), 16) != 0) {
		std::fprintf(stderr, "ct_memcheck: key has no usable %s\n", what);
		return false;
	}
	return true;
}

/* Half h of the dual number x = v (radix 2^52, k digits), by GMP. */
void set_half(uint64_t *x, int h, int k, const mpz_t v)
{
	std::vector<uint64_t> d(static_cast<size_t>(k) + 2, 0);
	size_t count = 0;
	mpz_export(d.data(), &count, -1, sizeof(uint64_t), 0, 12, v);
	for (int j = 0; j < k; j++)
		x[BIG_R52_AT(h, j)] = d[static_cast<size_t>(j)];
}

/* A build's dual exponentiation (the twin's, or the emulated IFMA
 * source's with the pair product), every input secret: a^dp mod p and
 * a^dq mod q.  Returns the number of wrong halves. */
int r52_dual_pow(big_r52_dual_pow_fn *pow, const mpz_t a, const mpz_t dp, const mpz_t dq,
		 const mpz_t p, const mpz_t q)
{
	const int k = static_cast<int>((mpz_sizeinbase(p, 2) + 2 + 51) / 52);
	const int words = BIG_R52_PAIR_WORDS(k);
	const int ewords = static_cast<int>((mpz_sizeinbase(p, 2) + 63) / 64);
	big_r52_dual_mod mod;
	std::memset(&mod, 0, sizeof(mod));
	mod.digits = k;
	mod.halves = 2;
	std::vector<uint64_t> base(static_cast<size_t>(words), 0), out(base.size(), 0);
	std::vector<uint64_t> e[2] = { std::vector<uint64_t>(static_cast<size_t>(ewords), 0),
				       std::vector<uint64_t>(static_cast<size_t>(ewords), 0) };
	std::vector<uint64_t> scratch(big_r52_dual_pow_scratch(k));
	const mpz_srcptr m[2] = { p, q }, d[2] = { dp, dq };
	for (int h = 0; h < 2; h++) {
		Mpz two52, inv, rr, r;
		mpz_ui_pow_ui(two52, 2, 52);
		mpz_invert(inv, m[h], two52);
		mpz_sub(inv, two52, inv);
		mod.k0[h] = mpz_get_ui(inv);
		mpz_ui_pow_ui(rr, 2, static_cast<unsigned long>(104 * k));
		mpz_mod(rr, rr, m[h]);
		set_half(mod.m, h, k, m[h]);
		set_half(mod.rr, h, k, rr);
		mpz_mod(r, a, m[h]);
		set_half(base.data(), h, k, r);
		size_t count = 0;
		mpz_export(e[h].data(), &count, -1, sizeof(uint64_t), 0, 0, d[h]);
	}
	big_r52_dual_mod_prepare(&mod);
	VALGRIND_MAKE_MEM_UNDEFINED(&mod, sizeof(mod));
	mod.digits = k; /* public: the size and the halves */
	mod.halves = 2;
	VALGRIND_MAKE_MEM_UNDEFINED(base.data(), sizeof(uint64_t) * base.size());
	for (auto &v : e)
		VALGRIND_MAKE_MEM_UNDEFINED(v.data(), sizeof(uint64_t) * v.size());
	pow(out.data(), base.data(), e[0].data(), e[1].data(), ewords, &mod, scratch.data());
	VALGRIND_MAKE_MEM_DEFINED(out.data(), sizeof(uint64_t) * out.size());
	int wrong = 0;
	for (int h = 0; h < 2; h++) {
		std::vector<uint64_t> digits(static_cast<size_t>(k));
		for (int j = 0; j < k; j++)
			digits[static_cast<size_t>(j)] = out[static_cast<size_t>(BIG_R52_AT(h, j))];
		Mpz got, want;
		mpz_import(got, static_cast<size_t>(k), -1, sizeof(uint64_t), 0, 12, digits.data());
		mpz_powm(want, a, d[h], m[h]);
		wrong += mpz_cmp(got, want) != 0;
	}
	return wrong;
}

void secret_vec(const BIG_CHUNK_TYPE *v, int len)
{
	VALGRIND_MAKE_MEM_UNDEFINED(v, sizeof(BIG_CHUNK_TYPE) * (size_t)len);
}

/* rsa_blinding_next (squaring a secret pair), rsa_blinding_mul before and
 * after big_modexp_crt, with the pair, a and the CRT numbers undefined.
 * Returns 1 if the unblinded result is not want. */
int blinded_crt(const rsa_key *key, Big &ba, Big &bdp, Big &bdq, Big &bp, Big &bq,
		Big &bpinv, Big &prr, Big &qrr, const mpz_t want)
{
	const BIG_CHUNK_TYPE *ra, *rb;
	const int len = key->n.len;
	/* A pair made (or squared) in the open, then made secret: the next
	 * call squares it without a branch on it. */
	if (rsa_blinding_next(key, &ra, &rb) != RSA_OK)
		return 1;
	secret_vec(ra, len);
	secret_vec(rb, len);
	const BIGNUM *secrets[] = { &bp.b, &bq.b, &bdp.b, &bdq.b, &bpinv.b, &ba.b };
	for (const BIGNUM *s : secrets)
		secret(s);
	Big blinded(len), crt(1), out(len);
	int rc = rsa_blinding_next(key, &ra, &rb);
	if (rc == RSA_OK)
		rc = rsa_blinding_mul(&blinded.b, &ba.b, ra, key);
	if (rc == RSA_OK && big_modexp_crt(&crt.b, &blinded.b, &bdp.b, &bdq.b, &bp.b, &bq.b,
					   &bpinv.b, &prr.b, &qrr.b) != BIG_OK)
		rc = RSA_ERR_ARGS;
	if (rc == RSA_OK)
		rc = rsa_blinding_mul(&out.b, &crt.b, rb, key);
	declassify(&out.b);
	for (const BIGNUM *s : secrets)
		declassify(s);
	Mpz got;
	bt::to_mpz(got, &out.b);
	return rc != RSA_OK || mpz_cmp(got, want) != 0;
}

/* big_modexp_crt_batch through the lane build `lanes` on primes p, q with
 * exponents dp, dq: four operations, each its own random base below pq,
 * with p, q, dp, dq, p^-1 mod q and every base undefined (R^2 mod p, q
 * public, as above).  Returns the number of wrong results (against GMP's
 * a^dp mod p, a^dq mod q and Garner's recombination). */
int crt_batch(const big_lanes_ops &lanes, const mpz_t p, const mpz_t q, const mpz_t dp,
	      const mpz_t dq, gmp_randstate_t rs)
{
	Mpz n, pinv;
	mpz_mul(n, p, q);
	mpz_invert(pinv, p, q);
	Big bp(p), bq(q), bdp(dp), bdq(dq), bpinv(pinv), prr(1), qrr(1);
	if (big_mont_rr(&prr.b, &bp.b) != BIG_OK || big_mont_rr(&qrr.b, &bq.b) != BIG_OK)
		return BIG_CRT_BATCH_GROUP;
	const int len = big_crt_batch_len(&bp.b, &bq.b);
	if (len == 0)
		return BIG_CRT_BATCH_GROUP;
	std::vector<unsigned char> scratch(big_crt_batch_scratch(len));
	Mpz a[BIG_CRT_BATCH_GROUP], want[BIG_CRT_BATCH_GROUP];
	for (int i = 0; i < BIG_CRT_BATCH_GROUP; i++) {
		Mpz mp, mq, h;
		mpz_urandomm(a[i], rs, n);
		mpz_powm(mp, a[i], dp, p);
		mpz_powm(mq, a[i], dq, q);
		mpz_sub(h, mq, mp);
		mpz_mul(h, h, pinv);
		mpz_mod(h, h, q);
		mpz_mul(want[i], h, p);
		mpz_add(want[i], want[i], mp);
	}
	Big ba[BIG_CRT_BATCH_GROUP] = { Big(a[0]), Big(a[1]), Big(a[2]), Big(a[3]) };
	Big res[BIG_CRT_BATCH_GROUP] = { Big(2 * len + 1), Big(2 * len + 1), Big(2 * len + 1),
				       Big(2 * len + 1) };
	big_crt_batch_op ops[BIG_CRT_BATCH_GROUP];
	for (int i = 0; i < BIG_CRT_BATCH_GROUP; i++)
		ops[i] = { &res[i].b, &ba[i].b, &bdp.b, &bdq.b, &bp.b, &bq.b, &bpinv.b, &prr.b, &qrr.b, nullptr, nullptr, nullptr };
	const BIGNUM *secrets[] = { &bp.b, &bq.b, &bdp.b, &bdq.b, &bpinv.b,
				    &ba[0].b, &ba[1].b, &ba[2].b, &ba[3].b };
	for (const BIGNUM *s : secrets)
		secret(s);
	const BIG_ERR_CODE err = big_modexp_crt_batch_ops(ops, BIG_CRT_BATCH_GROUP, &lanes,
							  scratch.data(), scratch.size());
	for (const BIGNUM *s : secrets)
		declassify(s);
	int wrong = 0;
	for (int i = 0; i < BIG_CRT_BATCH_GROUP; i++) {
		/* The results must come out undefined: else the secrets did not
		 * reach the lanes, and the run above proved nothing. */
		if (RUNNING_ON_VALGRIND) {
			const size_t bytes = sizeof(BIG_CHUNK_TYPE) * (size_t)res[i].b.len;
			std::vector<unsigned char> vbits(bytes, 0);
			int undefined = 0;
			if (VALGRIND_GET_VBITS(res[i].b.value, vbits.data(), bytes) == 1)
				for (unsigned char v : vbits)
					undefined |= v != 0;
			if (!undefined) {
				std::fprintf(stderr, "ct_memcheck: big_modexp_crt_batch (%s lanes): "
					     "result %d defined, the secrets did not reach it\n",
					     lanes.name, i);
				wrong++;
			}
		}
		declassify(&res[i].b);
		Mpz got;
		bt::to_mpz(got, &res[i].b);
		wrong += err != BIG_OK || mpz_cmp(got, want[i]) != 0;
	}
	return wrong;
}

/* A path of big_modexp_crt by name (big_modexp_crt_vertical,
 * big_modexp_crt_paired): its signature. */
typedef BIG_ERR_CODE crt_path_fn(BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *,
				 const BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *,
				 const BIGNUM *);

/* The path `crt` (called `name` in reports) on two random odd coprime
 * moduli of `bits` bits, every input secret; 1 if the result is wrong or
 * came out defined (then the secrets did not reach it). */
int crt_path(crt_path_fn *crt, const char *name, int bits, gmp_randstate_t rs)
{
	Mpz p, q, pinv, n, a, dp, dq, wp, wq;
	do {
		mpz_urandomb(p, rs, static_cast<mp_bitcnt_t>(bits));
		mpz_urandomb(q, rs, static_cast<mp_bitcnt_t>(bits));
		mpz_setbit(p, static_cast<mp_bitcnt_t>(bits - 1));
		mpz_setbit(q, static_cast<mp_bitcnt_t>(bits - 1));
		mpz_setbit(p, 0);
		mpz_setbit(q, 0);
	} while (mpz_invert(pinv, p, q) == 0);
	mpz_mul(n, p, q);
	mpz_urandomm(a, rs, n);
	mpz_urandomb(dp, rs, static_cast<mp_bitcnt_t>(bits));
	mpz_urandomb(dq, rs, static_cast<mp_bitcnt_t>(bits));
	mpz_powm(wp, a, dp, p);
	mpz_powm(wq, a, dq, q);
	Big bp(p), bq(q), bdp(dp), bdq(dq), bpinv(pinv), ba(a), prr(1), qrr(1), out(1);
	if (big_mont_rr(&prr.b, &bp.b) != BIG_OK || big_mont_rr(&qrr.b, &bq.b) != BIG_OK)
		return 1;
	const BIGNUM *secrets[] = { &bp.b, &bq.b, &bdp.b, &bdq.b, &bpinv.b, &ba.b, &prr.b, &qrr.b };
	for (const BIGNUM *s : secrets)
		secret(s);
	const BIG_ERR_CODE err = crt(&out.b, &ba.b, &bdp.b, &bdq.b, &bp.b, &bq.b, &bpinv.b, &prr.b,
				     &qrr.b);
	for (const BIGNUM *s : secrets)
		declassify(s);
	int wrong = 0;
	if (RUNNING_ON_VALGRIND && err == BIG_OK) {
		const size_t bytes = sizeof(BIG_CHUNK_TYPE) * (size_t)out.b.len;
		std::vector<unsigned char> vbits(bytes, 0);
		int undefined = 0;
		if (VALGRIND_GET_VBITS(out.b.value, vbits.data(), bytes) == 1)
			for (unsigned char v : vbits)
				undefined |= v != 0;
		if (!undefined) {
			std::fprintf(stderr, "ct_memcheck: %s: result defined, the secrets did not "
				     "reach it\n", name);
			wrong++;
		}
	}
	declassify(&out.b);
	Mpz got, gp, gq;
	bt::to_mpz(got, &out.b);
	mpz_mod(gp, got, p);
	mpz_mod(gq, got, q);
	if (err != BIG_OK || mpz_cmp(gp, wp) != 0 || mpz_cmp(gq, wq) != 0)
		wrong++;
	return wrong;
}

/* Two random primes of `bits` bits (top two bits set), for the twin's run. */
/*
 * rsa_private_raw, or rsa_private_batch of four and then of three (a
 * partial group), whole, as a caller runs them: the key's secrets
 * undefined (d, p, q, dp, dq, qinv, R^2 mod p and mod q), the inputs public, the outputs declassified only after the
 * call, so that all between is checked: the input's reductions, the
 * blinding, the CRT and Garner, the unblinding and the result's
 * conversion to bytes.  The results have 0, 1, 2 and 9 leading zero bytes
 * (their number is what Manger's attack reads).  The fault check is off:
 * its verdict is a branch on a secret by design (the result is released
 * or not), and its arithmetic is checked above.  The thread's blinding
 * pair is made in the open by a first call.  Returns the wrong results.
 */
int end_to_end(rsa_key *key, const mpz_t n, const mpz_t e, bool batch)
{
	const size_t len = rsa_key_size(key);
	constexpr int count = 4;
	std::vector<uint8_t> in(count * len), out(count * len), want(count * len, 0);
	for (int i = 0; i < count; i++) {
		const size_t zeros = i == 3 ? 9 : static_cast<size_t>(i);
		Mpz m, c;
		for (size_t j = zeros; j < len; j++)
			want[i * len + j] = static_cast<uint8_t>(0x5a + 7 * j + i);
		if (zeros < len)
			want[i * len + zeros] |= 0x80; /* exactly `zeros` leading zero bytes */
		want[i * len] &= 0x7f;             /* below n */
		mpz_import(m, len, 1, 1, 0, 0, want.data() + i * len);
		mpz_powm(c, m, e, n);
		mpz_export(in.data() + i * len + len - (mpz_sizeinbase(c, 2) + 7) / 8, nullptr, 1, 1, 0,
			   0, c);
	}
	rsa_key_set_fault_check(key, 0);
	rsa_key_set_blinding(key, 1);
	if (rsa_private_raw(key, out.data(), in.data(), len) != RSA_OK)
		return count;
	const BIGNUM *secrets[] = { &key->d, &key->p, &key->q, &key->dp, &key->dq, &key->qinv,
				    &key->p_rr, &key->q_rr };
	for (const BIGNUM *x : secrets)
		secret(x);
	int rc;
	std::vector<int> status(count, -1);
	std::vector<uint8_t> partial((count - 1) * len);
	if (batch) {
		/* A full group of four, then a partial one of three (the lanes
		 * past the count filled from operation 0). */
		const rsa_key *keys[count] = { key, key, key, key };
		rc = rsa_private_batch(keys, out.data(), in.data(), len, count, status.data(), nullptr,
				       0);
		if (rc == RSA_OK)
			rc = rsa_private_batch(keys, partial.data(), in.data(), len, count - 1,
					       status.data(), nullptr, 0);
	} else {
		rc = RSA_OK;
		for (int i = 0; i < count && rc == RSA_OK; i++)
			rc = rsa_private_raw(key, out.data() + i * len, in.data() + i * len, len);
	}
	VALGRIND_MAKE_MEM_DEFINED(out.data(), out.size());
	VALGRIND_MAKE_MEM_DEFINED(partial.data(), partial.size());
	VALGRIND_MAKE_MEM_DEFINED(status.data(), status.size() * sizeof(int));
	VALGRIND_MAKE_MEM_DEFINED(&rc, sizeof(rc));
	for (const BIGNUM *x : secrets)
		declassify(x);
	rsa_key_set_fault_check(key, 1);
	if (rc != RSA_OK)
		return count;
	int wrong = 0;
	for (int i = 0; i < count; i++)
		wrong += std::memcmp(out.data() + i * len, want.data() + i * len, len) != 0;
	for (int i = 0; batch && i < count - 1; i++)
		wrong += std::memcmp(partial.data() + i * len, want.data() + i * len, len) != 0;
	return wrong;
}

void gmp_primes(mpz_t p, mpz_t q, int bits, gmp_randstate_t rs)
{
	mpz_ptr m[2] = { p, q };
	for (mpz_ptr x : m) {
		mpz_urandomb(x, rs, static_cast<mp_bitcnt_t>(bits));
		mpz_setbit(x, static_cast<mp_bitcnt_t>(bits - 1));
		mpz_setbit(x, static_cast<mp_bitcnt_t>(bits - 2));
		mpz_nextprime(x, x);
	}
}

} // namespace

int main(int argc, char **argv)
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s <rsa-private-key.pem> [rounds]\n", argv[0]);
		return 2;
	}
	const int rounds = argc > 2 ? std::atoi(argv[2]) : 1;
	const bool leaky = argc > 3 && std::string(argv[3]) == "--leaky";
	std::ifstream f(argv[1], std::ios::binary);
	std::ostringstream ss;
	ss << f.rdbuf();
	bt::OsslKey k;
	std::string error;
	if (!f || !bt::ossl_read_key(ss.str(), &k, &error)) {
		std::fprintf(stderr, "ct_memcheck: cannot read %s: %s\n", argv[1], error.c_str());
		return 2;
	}
	Mpz n, d, p, q, dp, dq, pinv;
	if (!set_hex(n, k.n, "n") || !set_hex(d, k.d, "d") || !set_hex(p, k.p, "p") ||
	    !set_hex(q, k.q, "q") || !set_hex(dp, k.dp, "dp") || !set_hex(dq, k.dq, "dq"))
		return 2;
	mpz_invert(pinv, p, q);
	rsa_key *key = nullptr;
	char kerr[256] = "";
	const std::string pem = ss.str();
	/* Unchecked: the key's checks (Miller-Rabin on p and q) are public
	 * work, not under test here, and were a fifth of the run. */
	if (rsa_key_load_unchecked_for_test(&key, reinterpret_cast<const uint8_t *>(pem.data()),
					    pem.size(), kerr, sizeof(kerr)) != RSA_OK) {
		std::fprintf(stderr, "ct_memcheck: bigmont cannot load %s: %s\n", argv[1], kerr);
		return 2;
	}

	/* The radix-2^52 twin's own runs call no kernel of the variant: the
	 * c entry (every entry of a build without the assembly) proves them,
	 * the others run the code around them only. */
	const bool twin_runs = big_cpu_bound() == BIG_CPU_C;
	/* The batch's lane build: the C twin in the c entry, AVX2 in the
	 * others where it runs (the lanes do not depend on the entry's
	 * kernels; the code around them does). */
	std::string lanes_run;
	if (twin_runs)
		lanes_run = "c (512-bit primes)";
#if BIG_LANES_HAVE_AVX2_BUILD
	else if (big_lanes_cpu_has_avx2())
		lanes_run = big_lanes37_asm() ? "avx2 (the key; at 37 digits the NASM kernels)"
					      : "avx2 (the key; at 37 digits the intrinsics)";
#endif
	/* The vertical path: AVX2, in its build, not in the c entry. */
	const bool vertical_runs = !twin_runs && BIG_VERT_HAVE_AVX2_BUILD && big_lanes_cpu_has_avx2();
	int failures = 0;
	gmp_randstate_t rs;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 20261122);
	for (int r = 0; r < rounds; r++) {
		Mpz a, want;
		mpz_urandomm(a, rs, n);
		mpz_powm(want, a, d, n);

		Big bn(n), bd(d), nrr(1), out2(1);
		if (big_mont_rr(&nrr.b, &bn.b) != BIG_OK)
			return 2;
		Big ba(a);
		Mpz got;
		if (leaky) {
			/* The self-test alone: a sliding window on a secret
			 * exponent, which Memcheck must report.  The constant-time
			 * paths are not run beside it, so the report is this
			 * call's (their own runs are the ct_memcheck.* entries,
			 * which fail on any report). */
			secret(&bd.b);
			BIG_ERR_CODE err = big_modexp(&out2.b, &ba.b, &bd.b, &bn.b, &nrr.b);
			declassify(&out2.b);
			declassify(&bd.b);
			bt::to_mpz(got, &out2.b);
			if (err != BIG_OK || mpz_cmp(got, want) != 0)
				failures++;
			continue;
		}

		/* The private CRT operation, every secret undefined. */
		Big bp(p), bq(q), bdp(dp), bdq(dq), bpinv(pinv), prr(1), qrr(1), out(1);
		if (big_mont_rr(&prr.b, &bp.b) != BIG_OK || big_mont_rr(&qrr.b, &bq.b) != BIG_OK) {
			std::fprintf(stderr, "ct_memcheck: big_mont_rr failed\n");
			return 2;
		}
		const BIGNUM *secrets[] = { &bp.b, &bq.b, &bdp.b, &bdq.b, &bpinv.b, &ba.b };
		for (const BIGNUM *s : secrets)
			secret(s);
		BIG_ERR_CODE err = big_modexp_crt(&out.b, &ba.b, &bdp.b, &bdq.b, &bp.b, &bq.b,
						  &bpinv.b, &prr.b, &qrr.b);
		declassify(&out.b);
		for (const BIGNUM *s : secrets)
			declassify(s);
		bt::to_mpz(got, &out.b);
		if (err != BIG_OK || mpz_cmp(got, want) != 0) {
			std::fprintf(stderr, "ct_memcheck: big_modexp_crt round %d: wrong result (err %d)\n",
				     r, (int)err);
			failures++;
		}

		/* The blinded path of rsa_private_raw: the thread's pair
		 * (rsa/blinding.h) and the input secret, the pair squared,
		 * the input blinded, the CRT result unblinded. */
		if (blinded_crt(key, ba, bdp, bdq, bp, bq, bpinv, prr, qrr, want) != 0) {
			std::fprintf(stderr, "ct_memcheck: blinded CRT round %d: wrong result\n", r);
			failures++;
		}

		/* big_modexp_ct: a and the exponent secret, n public. */
		secret(&ba.b);
		secret(&bd.b);
		err = big_modexp_ct(&out2.b, &ba.b, &bd.b, &bn.b, &nrr.b);
		declassify(&out2.b);
		declassify(&ba.b);
		declassify(&bd.b);
		bt::to_mpz(got, &out2.b);
		if (err != BIG_OK || mpz_cmp(got, want) != 0) {
			std::fprintf(stderr, "ct_memcheck: big_modexp_ct round %d: wrong result (err %d)\n",
				     r, (int)err);
			failures++;
		}

		/* The portable table read with a secret index: the build that
		 * reads the exponentiation's table on a CPU without AVX2 (and on
		 * aarch64); big_ct_select is bound to the AVX2 or AVX-512VL
		 * build wherever Valgrind runs, so no exponentiation above
		 * reaches it. */
		if (r == 0) {
			const int entries = 32, len = 9;
			std::vector<BIG_CHUNK_TYPE> table((size_t)entries * len), out_sel(len);
			for (size_t i = 0; i < table.size(); i++)
				table[i] = (BIG_CHUNK_TYPE)(i * 0x9e3779b97f4a7c15ULL + 1);
			for (int want_index : { 0, 17, entries - 1 }) {
				BIG_CHUNK_TYPE index = (BIG_CHUNK_TYPE)want_index;
				VALGRIND_MAKE_MEM_UNDEFINED(&index, sizeof(index));
				big_ct_select_c(out_sel.data(), table.data(), entries, index, len);
				VALGRIND_MAKE_MEM_DEFINED(out_sel.data(), sizeof(BIG_CHUNK_TYPE) * len);
				if (std::memcmp(out_sel.data(), &table[(size_t)want_index * len],
						sizeof(BIG_CHUNK_TYPE) * len) != 0) {
					std::fprintf(stderr, "ct_memcheck: big_ct_select_c took the "
							     "wrong entry\n");
					failures++;
				}
			}
		}

		/* The radix-2^52 twin, every secret undefined; and the IFMA
		 * source on emulated intrinsics with the steps the twin does
		 * not run (the product and table read on zmm pair groups). */
		if (twin_runs && r52_dual_pow(big_r52_dual_pow_c, a, dp, dq, p, q) != 0) {
			std::fprintf(stderr, "ct_memcheck: radix-2^52 twin round %d: wrong result\n", r);
			failures++;
		}
		if (twin_runs && r == 0 && r52_dual_pow(big_r52_dual_pow_emu_pairs, a, dp, dq, p, q) != 0) {
			std::fprintf(stderr,
				     "ct_memcheck: radix-2^52 pair product (emulated) round %d: wrong "
				     "result\n",
				     r);
			failures++;
		}
#if BIG_CHUNK_SIZE == 64
		{
			const big_r52_ops twin = BIG_R52_OPS_INIT(c);
			Big out3(1);
			for (const BIGNUM *s : secrets)
				secret(s);
			err = big_modexp_crt_r52(&out3.b, &ba.b, &bdp.b, &bdq.b, &bp.b, &bq.b, &bpinv.b,
						 &prr.b, &qrr.b, &twin);
			declassify(&out3.b);
			for (const BIGNUM *s : secrets)
				declassify(s);
			bt::to_mpz(got, &out3.b);
			if (err != BIG_OK || mpz_cmp(got, want) != 0) {
				std::fprintf(stderr,
					     "ct_memcheck: big_modexp_crt_r52 (twin) round %d: wrong "
					     "result (err %d)\n",
					     r, (int)err);
				failures++;
			}
		}
#endif

		/* The fault check: out^e mod n with out (here want) secret. */
		{
			Mpz e, back;
			if (!set_hex(e, k.e, "e"))
				return 2;
			Big bwant(want), be(e), out4(1);
			secret(&bwant.b);
			err = big_modexp_ct_base(&out4.b, &bwant.b, &be.b, &bn.b, big_n0(bn.b.value[0]),
						 &nrr.b);
			declassify(&out4.b);
			declassify(&bwant.b);
			bt::to_mpz(back, &out4.b);
			if (err != BIG_OK || mpz_cmp(back, a) != 0) {
				std::fprintf(stderr, "ct_memcheck: fault check round %d: wrong result\n", r);
				failures++;
			}
#if BIG_CHUNK_SIZE == 64
			const int len = bn.b.len, digits = big_r52_ct_base_digits(len);
			if (twin_runs && digits != 0 && bwant.b.len <= len) {
				std::vector<uint64_t> av(static_cast<size_t>(len), 0), o(av);
				std::vector<uint64_t> scratch(big_r52_ct_base_scratch(digits));
				for (int i = 0; i < bwant.b.len; i++)
					av[static_cast<size_t>(i)] = bwant.b.value[i];
				const big_r52_ops twin = BIG_R52_OPS_INIT(c);
				VALGRIND_MAKE_MEM_UNDEFINED(av.data(), sizeof(uint64_t) * av.size());
				big_r52_ct_base_pow(o.data(), av.data(), be.b.value,
						    static_cast<int>(mpz_sizeinbase(e, 2)), bn.b.value,
						    nrr.b.value, len, digits, &twin,
						    scratch.data());
				VALGRIND_MAKE_MEM_DEFINED(o.data(), sizeof(uint64_t) * o.size());
				mpz_import(back, static_cast<size_t>(len), -1, sizeof(uint64_t), 0, 0, o.data());
				if (mpz_cmp(back, a) != 0) {
					std::fprintf(stderr,
						     "ct_memcheck: radix-2^52 fault check (twin) round %d: "
						     "wrong result\n",
						     r);
					failures++;
				}
			}
#endif
			/* The same modulo p and q apart (big_crt_check): out, the
			 * input and the primes secret; its radix-2^52 path is
			 * IFMA code, not run under Memcheck. */
			for (const BIGNUM *x : { &bwant.b, &ba.b, &bp.b, &bq.b })
				secret(x);
			int equal = 0;
			err = big_crt_check(&equal, &bwant.b, &ba.b, &be.b, &bn.b, &bp.b, &bq.b, &prr.b,
					    &qrr.b);
			VALGRIND_MAKE_MEM_DEFINED(&equal, sizeof(equal));
			for (const BIGNUM *x : { &bwant.b, &ba.b, &bp.b, &bq.b })
				declassify(x);
			if (err != BIG_OK || equal != 1) {
				std::fprintf(stderr,
					     "ct_memcheck: fault check modulo p and q round %d: "
					     "not equal (err %d)\n",
					     r, (int)err);
				failures++;
			}
		}

		/* The batch path, once: four operations in the lanes.  The twin
		 * (4 times slower than avx2 natively, 40 s a 2048-bit batch
		 * under Memcheck) on 512-bit primes: its branches and addresses
		 * depend on the digit count alone, which is public. */
		if (r == 0 && !lanes_run.empty()) {
			int wrong;
			if (twin_runs) {
				const big_lanes_ops twin = BIG_LANES_OPS_INIT(c);
				Mpz tp, tq, tdp, tdq;
				gmp_primes(tp, tq, 512, rs);
				mpz_urandomb(tdp, rs, 512);
				mpz_urandomb(tdq, rs, 512);
				wrong = crt_batch(twin, tp, tq, tdp, tdq, rs);
			} else {
#if BIG_LANES_HAVE_AVX2_BUILD
				const big_lanes_ops avx2 = BIG_LANES_OPS_INIT(avx2);
				wrong = crt_batch(avx2, p, q, dp, dq, rs);
#else
				wrong = 0;
#endif
			}
			if (wrong != 0) {
				std::fprintf(stderr,
					     "ct_memcheck: big_modexp_crt_batch (%s lanes): %d wrong "
					     "results\n",
					     lanes_run.c_str(), wrong);
				failures++;
			}
		}

		/* The private operation whole: one by one in every entry, the
		 * batch where its AVX2 lanes run (not the c entry's twin). */
		if (r == 0) {
			Mpz e;
			if (!set_hex(e, k.e, "e"))
				return 2;
			for (bool batch : { false, true }) {
				if (batch && (twin_runs || lanes_run.empty()))
					continue;
				const int wrong = end_to_end(key, n, e, batch);
				if (wrong != 0) {
					std::fprintf(stderr, "ct_memcheck: %s end to end: %d wrong results\n",
						     batch ? "rsa_private_batch" : "rsa_private_raw", wrong);
					failures++;
				}
			}
		}

		if (r == 0 && vertical_runs &&
		    crt_path(big_modexp_crt_vertical, "big_modexp_crt_vertical", 1536, rs) != 0) {
			std::fprintf(stderr, "ct_memcheck: big_modexp_crt_vertical: wrong result\n");
			failures++;
		}
		if (r == 0 && crt_path(big_modexp_crt_paired, "big_modexp_crt_paired", 512, rs) != 0) {
			std::fprintf(stderr, "ct_memcheck: big_modexp_crt_paired: wrong result\n");
			failures++;
		}
	}
	gmp_randclear(rs);
	rsa_key_free(key);
	if (leaky) {
		std::printf("ct_memcheck: %d rounds of the variable-time big_modexp alone, kernels "
			    "'%s', %s\n",
			    rounds, big_cpu_variant_name(),
			    failures ? "MISMATCH" : "results match GMP");
		return failures ? 1 : 0;
	}
	std::printf("ct_memcheck: %d rounds, kernels '%s'%s, batch lanes: %s, end to end: %s, "
		    "vertical: %s, paired: 512-bit moduli, %s\n",
		    rounds, big_cpu_variant_name(),
		    twin_runs ? "" : " (the radix-2^52 twin alone: in the c entry)",
		    lanes_run.empty() ? "none here" : lanes_run.c_str(),
		    twin_runs || lanes_run.empty() ? "rsa_private_raw"
						   : "rsa_private_raw, rsa_private_batch",
		    vertical_runs ? "1536-bit moduli" : "none here",
		    failures ? "MISMATCH" : "results match GMP");
	return failures ? 1 : 0;
}
