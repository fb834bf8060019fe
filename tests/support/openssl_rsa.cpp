/* bt::ossl_rsa_decrypt_raw: OpenSSL 3's RSADP without padding. */
#include "openssl_rsa.h"

#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

namespace bt {

static std::string ossl_error(const char *what)
{
	char buf[256];
	ERR_error_string_n(ERR_get_error(), buf, sizeof(buf));
	return std::string(what) + ": " + buf;
}

bool ossl_rsa_decrypt_raw(const std::string &key, const std::vector<uint8_t> &in,
			  std::vector<uint8_t> *out, std::string *error)
{
	EVP_PKEY *pkey = nullptr;
	OSSL_DECODER_CTX *dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, nullptr, nullptr, "RSA",
							       0, nullptr, nullptr);
	if (dctx == nullptr) {
		*error = ossl_error("OSSL_DECODER_CTX_new_for_pkey");
		return false;
	}
	const unsigned char *p = reinterpret_cast<const unsigned char *>(key.data());
	size_t len = key.size();
	int ok = OSSL_DECODER_from_data(dctx, &p, &len);
	OSSL_DECODER_CTX_free(dctx);
	if (ok != 1 || pkey == nullptr) {
		*error = ossl_error("OSSL_DECODER_from_data");
		return false;
	}
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
