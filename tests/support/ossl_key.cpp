/* bt::ossl_read_key: an RSA key's numbers through OpenSSL 3 (EVP params). */
#include "ossl_key.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>

namespace bt {

static std::string param_hex(EVP_PKEY *pkey, const char *name)
{
	BIGNUM *bn = nullptr;
	if (EVP_PKEY_get_bn_param(pkey, name, &bn) != 1 || bn == nullptr)
		return std::string();
	char *hex = BN_bn2hex(bn);
	std::string s(hex ? hex : "");
	OPENSSL_free(hex);
	BN_clear_free(bn);
	return s;
}

bool ossl_read_key(const std::string &data, OsslKey *out, std::string *error)
{
	EVP_PKEY *pkey = nullptr;
	OSSL_DECODER_CTX *dctx = OSSL_DECODER_CTX_new_for_pkey(
		&pkey, nullptr, nullptr, "RSA", 0, nullptr, nullptr);
	if (dctx == nullptr) {
		if (error)
			*error = "OSSL_DECODER_CTX_new_for_pkey failed";
		return false;
	}
	const unsigned char *p = reinterpret_cast<const unsigned char *>(data.data());
	size_t len = data.size();
	int ok = OSSL_DECODER_from_data(dctx, &p, &len);
	OSSL_DECODER_CTX_free(dctx);
	if (ok != 1 || pkey == nullptr) {
		if (error) {
			char buf[256];
			ERR_error_string_n(ERR_get_error(), buf, sizeof(buf));
			*error = std::string("OpenSSL cannot read the key: ") + buf;
		}
		ERR_clear_error();
		return false;
	}
	out->n = param_hex(pkey, OSSL_PKEY_PARAM_RSA_N);
	out->e = param_hex(pkey, OSSL_PKEY_PARAM_RSA_E);
	out->d = param_hex(pkey, OSSL_PKEY_PARAM_RSA_D);
	out->p = param_hex(pkey, OSSL_PKEY_PARAM_RSA_FACTOR1);
	out->q = param_hex(pkey, OSSL_PKEY_PARAM_RSA_FACTOR2);
	out->dp = param_hex(pkey, OSSL_PKEY_PARAM_RSA_EXPONENT1);
	out->dq = param_hex(pkey, OSSL_PKEY_PARAM_RSA_EXPONENT2);
	out->qinv = param_hex(pkey, OSSL_PKEY_PARAM_RSA_COEFFICIENT1);
	EVP_PKEY_free(pkey);
	return !out->n.empty() && !out->e.empty();
}

} // namespace bt
