/*
 * ct_memcheck: the constant-time proof of the private operation under
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
 * with a and e secret (n public).
 *
 * Usage: ct_memcheck <key.pem> [rounds] [--leaky]; exit 0 when every result
 * matches.  --leaky also runs the variable-time big_modexp on the secret
 * exponent: the harness' self-test (Memcheck must report it).
 */
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <valgrind/memcheck.h>

#include "ossl_key.h"
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

} // namespace

int main(int argc, char **argv)
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s <rsa-private-key.pem> [rounds]\n", argv[0]);
		return 2;
	}
	const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
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

	int failures = 0;
	gmp_randstate_t rs;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 20261122);
	for (int r = 0; r < rounds; r++) {
		Mpz a, want;
		mpz_urandomm(a, rs, n);
		mpz_powm(want, a, d, n);

		/* The private CRT operation, every secret undefined. */
		Big bp(p), bq(q), bdp(dp), bdq(dq), bpinv(pinv), ba(a), prr(1), qrr(1), out(1);
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
		Mpz got;
		bt::to_mpz(got, &out.b);
		if (err != BIG_OK || mpz_cmp(got, want) != 0) {
			std::fprintf(stderr, "ct_memcheck: big_modexp_crt round %d: wrong result (err %d)\n",
				     r, (int)err);
			failures++;
		}

		/* big_modexp_ct: a and the exponent secret, n public. */
		Big bn(n), bd(d), nrr(1), out2(1);
		if (big_mont_rr(&nrr.b, &bn.b) != BIG_OK)
			return 2;
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

		if (leaky) {
			/* Self-test: sliding window on a secret exponent must be seen. */
			secret(&bd.b);
			err = big_modexp(&out2.b, &ba.b, &bd.b, &bn.b, &nrr.b);
			declassify(&out2.b);
			declassify(&bd.b);
			bt::to_mpz(got, &out2.b);
			if (err != BIG_OK || mpz_cmp(got, want) != 0)
				failures++;
		}
	}
	gmp_randclear(rs);
	std::printf("ct_memcheck: %d rounds, kernels '%s', %s\n", rounds, big_cpu_variant_name(),
		    failures ? "MISMATCH" : "results match GMP");
	return failures ? 1 : 0;
}
