/* Helpers for the blinding tests (contracts in blind_probe.h). */
#include "blind_probe.h"

#include <vector>

#include "../../rsa/rsa_internal.h"
#include "ossl_key.h"

namespace bt {

namespace {

std::vector<uint8_t> bytes_of(const mpz_t v, size_t size)
{
	std::vector<uint8_t> out(size, 0);
	const size_t need = (mpz_sizeinbase(v, 2) + 7) / 8;
	if (mpz_sgn(v) != 0)
		mpz_export(out.data() + (size - need), nullptr, 1, 1, 1, 0, v);
	return out;
}

} // namespace

bool load_ref_key(const std::string &file, RefKey *k, std::string *error)
{
	const std::string pem = read_data_file("keys/" + file);
	OsslKey ref;
	if (!ossl_read_key(pem, &ref, error))
		return false;
	mpz_set_str(k->n, ref.n.c_str(), 16);
	mpz_set_str(k->e, ref.e.c_str(), 16);
	mpz_set_str(k->d, ref.d.c_str(), 16);
	char err[256] = "";
	if (rsa_key_load_pem(&k->key, pem.data(), pem.size(), err, sizeof(err)) != RSA_OK) {
		*error = file + ": " + err;
		return false;
	}
	k->size = rsa_key_size(k->key);
	return true;
}

int checked_private_op(const RefKey &k, Rng &rng, bool *correct)
{
	Mpz c, m;
	rng.mpz_bits(c, static_cast<int>(mpz_sizeinbase(k.n, 2)) - 1);
	mpz_powm(m, c, k.d, k.n);
	std::vector<uint8_t> in = bytes_of(c, k.size), out(k.size);
	const int rc = rsa_private_raw(k.key, out.data(), in.data(), k.size);
	*correct = rc == RSA_OK && out == bytes_of(m, k.size);
	return rc;
}

std::string blind_factor(const RefKey &k, bool *pair_ok)
{
	std::vector<uint8_t> r_e(k.size), r_inv(k.size);
	*pair_ok = false;
	if (rsa_blinding_pair_for_test(k.key, r_e.data(), r_inv.data()) != RSA_OK)
		return "";
	Mpz a, b, check;
	mpz_import(a, k.size, 1, 1, 1, 0, r_e.data());
	mpz_import(b, k.size, 1, 1, 1, 0, r_inv.data());
	mpz_powm(check, b, k.e, k.n);
	mpz_mul(check, check, a);
	mpz_mod(check, check, k.n);
	*pair_ok = mpz_cmp_ui(check.v, 1) == 0;
	return hex(b.v);
}

} // namespace bt
