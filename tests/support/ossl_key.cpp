/* bt::ossl_read_key and bt::ossl_rsa_decrypt_raw through OpenSSL 3. */
#include "ossl_key.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

namespace bt {

static std::string ossl_error(const char *what)
{
	char buf[256];
	ERR_error_string_n(ERR_get_error(), buf, sizeof(buf));
	ERR_clear_error();
	return std::string(what) + ": " + buf;
}

/* The RSA key in a PEM or DER buffer, or null (and `error` if given). */
static EVP_PKEY *decode_key(const std::string &data, std::string *error)
{
	EVP_PKEY *pkey = nullptr;
	const char *failed = nullptr;
	OSSL_DECODER_CTX *dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, nullptr, nullptr, "RSA",
							       0, nullptr, nullptr);
	if (dctx == nullptr) {
		failed = "OSSL_DECODER_CTX_new_for_pkey";
	} else {
		const unsigned char *p = reinterpret_cast<const unsigned char *>(data.data());
		size_t len = data.size();
		if (OSSL_DECODER_from_data(dctx, &p, &len) != 1 || pkey == nullptr)
			failed = "OpenSSL cannot read the key";
		OSSL_DECODER_CTX_free(dctx);
	}
	if (failed == nullptr)
		return pkey;
	const std::string why = ossl_error(failed);
	if (error)
		*error = why;
	EVP_PKEY_free(pkey);
	return nullptr;
}

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
	EVP_PKEY *pkey = decode_key(data, error);
	if (pkey == nullptr)
		return false;
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

bool ossl_rsa_decrypt_raw(const std::string &key, const std::vector<uint8_t> &in,
			  std::vector<uint8_t> *out, std::string *error)
{
	EVP_PKEY *pkey = decode_key(key, error);
	if (pkey == nullptr)
		return false;
	bool done = false;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pkey, nullptr);
	size_t outlen = 0;
	if (ctx == nullptr || EVP_PKEY_decrypt_init(ctx) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) != 1 ||
	    EVP_PKEY_decrypt(ctx, nullptr, &outlen, in.data(), in.size()) != 1) {
		*error = ossl_error("EVP_PKEY_decrypt setup");
	} else {
		out->assign(outlen, 0);
		if (EVP_PKEY_decrypt(ctx, out->data(), &outlen, in.data(), in.size()) != 1) {
			*error = ossl_error("EVP_PKEY_decrypt");
		} else {
			out->resize(outlen);
			done = true;
		}
	}
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return done;
}

} // namespace bt
