// bigmont-test: once
/*
 * The OpenSSL 3 provider (provider/, bigmont.so) in process, against
 * OpenSSL's default provider.  Two library contexts: one with the default
 * provider only, one with bigmont loaded beside it, and every operation on
 * that side fetched with "provider=bigmont" and checked to have run there
 * (EVP_PKEY_CTX_get0_provider, and the provider's private-operation
 * counter moves by exactly the operations it did).
 *
 *  - agreement, for RSA-1024, 2048, 3072, 4096 and every padding: each
 *    message encrypted by one side and decrypted by the other, signed by
 *    one and verified by the other (both directions), 100 random messages
 *    per combination at RSA-1024, 12 from 3072 bits up (BIGMONT_TEST_SCALE
 *    scales); deterministic schemes
 *    (no padding, PKCS #1 v1.5 signatures, PSS with salt length 0) give
 *    byte-identical outputs;
 *  - refusals (20 cases a test up to RSA-2048, 8 at 3072, 5 at 4096):
 *    wrong padding, wrong OAEP label, tampered ciphertexts, bad
 *    signatures and wrong salt lengths fail on both sides, with the same
 *    first error where both errors come from libcrypto's padding checks;
 *  - the TLS premaster decryption (RSA_PKCS1_WITH_TLS_PADDING);
 *  - key management: a key bigmont's checks refuse is refused at import
 *    with the check's reason; import, export, match, the gettable
 *    parameters; public-only keys;
 *  - the provider loads and unloads cleanly (run under ASan by the asan
 *    preset, with leak detection).
 *
 * The same comparison through the `openssl pkeyutl` command, on fewer
 * messages, is tests/provider_pkeyutl.py; TLS handshakes through s_server
 * and s_client are tests/provider_tls.py.
 */
#include <gtest/gtest.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifndef BIGMONT_PROVIDER_DIR
TEST(ProviderLoad, NotBuilt)
{
	GTEST_SKIP() << "bigmont.so is not built in this configuration (provider/CMakeLists.txt)";
}
#else

/* From tests/support/testutil.h, which cannot be included beside OpenSSL's
 * headers (both define BIGNUM). */
namespace bt {
uint64_t seed();
long scaled(long n);
} // namespace bt

namespace {

using Bytes = std::vector<uint8_t>;

constexpr int kUnset = INT_MIN;

std::string read_file(const std::string &path)
{
	std::ifstream f(path, std::ios::binary);
	std::stringstream ss;
	ss << f.rdbuf();
	return ss.str();
}

std::string key_path(int bits, const char *suffix = "-e65537.pem")
{
	return std::string(TEST_DATA_DIR) + "/keys/rsa" + std::to_string(bits) + suffix;
}

/* Every queued error as text (with its detail), and the queue cleared. */
std::string drain_errors(unsigned long *first = nullptr)
{
	if (first)
		*first = ERR_peek_error();
	std::string text;
	unsigned long e;
	const char *data = nullptr;
	int flags = 0;
	char buf[256];
	while ((e = ERR_get_error_all(nullptr, nullptr, nullptr, &data, &flags)) != 0) {
		ERR_error_string_n(e, buf, sizeof(buf));
		text += std::string(buf);
		if (data && *data && (flags & ERR_TXT_STRING))
			text += std::string(": ") + data;
		text += "\n";
	}
	return text;
}

/* A library context, and the providers loaded into it. */
struct Lib {
	OSSL_LIB_CTX *ctx = nullptr;
	OSSL_PROVIDER *bigmont = nullptr, *deflt = nullptr;
};

Lib make_lib(bool with_bigmont)
{
	Lib lib;
	lib.ctx = OSSL_LIB_CTX_new();
	if (with_bigmont) {
		OSSL_PROVIDER_set_default_search_path(lib.ctx, BIGMONT_PROVIDER_DIR);
		lib.bigmont = OSSL_PROVIDER_load(lib.ctx, "bigmont");
	}
	lib.deflt = OSSL_PROVIDER_load(lib.ctx, "default");
	return lib;
}

void free_lib(Lib *lib)
{
	if (lib->bigmont)
		OSSL_PROVIDER_unload(lib->bigmont);
	if (lib->deflt)
		OSSL_PROVIDER_unload(lib->deflt);
	OSSL_LIB_CTX_free(lib->ctx);
	*lib = Lib();
}

uint64_t private_ops(OSSL_PROVIDER *prov)
{
	uint64_t n = 0;
	OSSL_PARAM params[] = { OSSL_PARAM_construct_uint64("bigmont-private-ops", &n),
				OSSL_PARAM_construct_end() };
	EXPECT_EQ(OSSL_PROVIDER_get_params(prov, params), 1);
	return n;
}

EVP_PKEY *load_key(OSSL_LIB_CTX *ctx, const std::string &pem)
{
	BIO *bio = BIO_new_mem_buf(pem.data(), (int)pem.size());
	EVP_PKEY *key = PEM_read_bio_PrivateKey_ex(bio, nullptr, nullptr, nullptr, ctx, nullptr);
	BIO_free(bio);
	return key;
}

/* One side of a comparison: a library context, the properties its
 * operations are fetched with, the provider that must run them, its copy
 * of the key. */
struct Side {
	const char *provider;
	OSSL_LIB_CTX *lib;
	const char *propq;
	EVP_PKEY *key;
};

/* What an operation's context is given. */
struct Params {
	int pad = RSA_PKCS1_PADDING;
	const char *md = nullptr;   /* signature or OAEP digest */
	const char *mgf1 = nullptr;
	int saltlen = kUnset;
	const Bytes *label = nullptr;
	unsigned tls_version = 0, tls_alt = 0;
};

struct Result {
	bool ok = false;
	unsigned long first_error = 0;
	std::string errors;
	std::string provider; /* that ran the operation */
	Bytes out;
};

bool apply(EVP_PKEY_CTX *pctx, const Params &p, bool cipher)
{
	bool ok = EVP_PKEY_CTX_set_rsa_padding(pctx, p.pad) > 0;
	if (ok && p.saltlen != kUnset)
		ok = EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, p.saltlen) > 0;
	if (ok && p.md && cipher)
		ok = EVP_PKEY_CTX_set_rsa_oaep_md_name(pctx, p.md, nullptr) > 0;
	if (ok && p.md && !cipher)
		ok = EVP_PKEY_CTX_set_signature_md(pctx, EVP_get_digestbyname(p.md)) > 0;
	if (ok && p.mgf1)
		ok = EVP_PKEY_CTX_set_rsa_mgf1_md_name(pctx, p.mgf1, nullptr) > 0;
	if (ok && p.label) {
		void *copy = OPENSSL_memdup(p.label->empty() ? "" : (const void *)p.label->data(),
					    p.label->size() ? p.label->size() : 1);
		ok = EVP_PKEY_CTX_set0_rsa_oaep_label(pctx, copy, (int)p.label->size()) > 0;
		if (!ok)
			OPENSSL_free(copy);
	}
	if (ok && p.tls_version) {
		unsigned v = p.tls_version, alt = p.tls_alt;
		OSSL_PARAM params[3] = {
			OSSL_PARAM_construct_uint(OSSL_ASYM_CIPHER_PARAM_TLS_CLIENT_VERSION, &v),
			OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end()
		};
		if (alt)
			params[1] = OSSL_PARAM_construct_uint(
				OSSL_ASYM_CIPHER_PARAM_TLS_NEGOTIATED_VERSION, &alt);
		ok = EVP_PKEY_CTX_set_params(pctx, params) > 0;
	}
	return ok;
}

std::string provider_of(const EVP_PKEY_CTX *pctx)
{
	const OSSL_PROVIDER *prov = EVP_PKEY_CTX_get0_provider(pctx);
	return prov ? OSSL_PROVIDER_get0_name(prov) : "";
}

enum class Op { Encrypt, Decrypt, Sign, Verify, VerifyRecover, DigestSign, DigestVerify };

/* Run one operation on side s: in is the plaintext, ciphertext, digest or
 * message; sig the signature to verify. */
Result run(const Side &s, Op op, const Params &p, const Bytes &in, const Bytes &sig = Bytes())
{
	Result r;
	ERR_clear_error();
	EVP_PKEY_CTX *pctx = nullptr;
	EVP_MD_CTX *mctx = nullptr;
	bool ok;
	if (op == Op::DigestSign || op == Op::DigestVerify) {
		mctx = EVP_MD_CTX_new();
		ok = (op == Op::DigestSign
			      ? EVP_DigestSignInit_ex(mctx, &pctx, p.md, s.lib, s.propq, s.key, nullptr)
			      : EVP_DigestVerifyInit_ex(mctx, &pctx, p.md, s.lib, s.propq, s.key,
							nullptr)) > 0;
		Params rest = p;
		rest.md = nullptr; /* given to the init */
		ok = ok && apply(pctx, rest, false);
	} else {
		pctx = EVP_PKEY_CTX_new_from_pkey(s.lib, s.key, s.propq);
		switch (op) {
		case Op::Encrypt: ok = EVP_PKEY_encrypt_init(pctx) > 0; break;
		case Op::Decrypt: ok = EVP_PKEY_decrypt_init(pctx) > 0; break;
		case Op::Sign: ok = EVP_PKEY_sign_init(pctx) > 0; break;
		case Op::VerifyRecover: ok = EVP_PKEY_verify_recover_init(pctx) > 0; break;
		default: ok = EVP_PKEY_verify_init(pctx) > 0; break;
		}
		ok = ok && apply(pctx, p, op == Op::Encrypt || op == Op::Decrypt);
	}
	if (ok)
		r.provider = provider_of(pctx);
	size_t len = 0;
	switch (op) {
	case Op::Encrypt:
	case Op::Decrypt: {
		auto fn = op == Op::Encrypt ? EVP_PKEY_encrypt : EVP_PKEY_decrypt;
		ok = ok && fn(pctx, nullptr, &len, in.data(), in.size()) > 0;
		r.out.resize(len);
		ok = ok && fn(pctx, r.out.data(), &len, in.data(), in.size()) > 0;
		break;
	}
	case Op::Sign:
		ok = ok && EVP_PKEY_sign(pctx, nullptr, &len, in.data(), in.size()) > 0;
		r.out.resize(len);
		ok = ok && EVP_PKEY_sign(pctx, r.out.data(), &len, in.data(), in.size()) > 0;
		break;
	case Op::Verify:
		ok = ok && EVP_PKEY_verify(pctx, sig.data(), sig.size(), in.data(), in.size()) == 1;
		break;
	case Op::VerifyRecover: /* in is the signature */
		ok = ok && EVP_PKEY_verify_recover(pctx, nullptr, &len, in.data(), in.size()) > 0;
		r.out.resize(len);
		ok = ok && EVP_PKEY_verify_recover(pctx, r.out.data(), &len, in.data(), in.size()) > 0;
		break;
	case Op::DigestSign:
		ok = ok && EVP_DigestSignUpdate(mctx, in.data(), in.size()) > 0 &&
		     EVP_DigestSignFinal(mctx, nullptr, &len) > 0;
		r.out.resize(len);
		ok = ok && EVP_DigestSignFinal(mctx, r.out.data(), &len) > 0;
		break;
	case Op::DigestVerify:
		ok = ok && EVP_DigestVerifyUpdate(mctx, in.data(), in.size()) > 0 &&
		     EVP_DigestVerifyFinal(mctx, sig.data(), sig.size()) == 1;
		break;
	}
	r.ok = ok;
	r.out.resize(ok ? len : 0);
	r.errors = drain_errors(&r.first_error);
	if (mctx)
		EVP_MD_CTX_free(mctx); /* frees pctx too */
	else
		EVP_PKEY_CTX_free(pctx);
	return r;
}

std::string describe(const Result &r)
{
	return std::string(r.ok ? "ok" : "failed") + " on " +
	       (r.provider.empty() ? "?" : r.provider) + (r.errors.empty() ? "" : ":\n" + r.errors);
}

class Rng {
public:
	explicit Rng(uint64_t salt) : g_(bt::seed() ^ (salt * 0x9e3779b97f4a7c15ULL)) {}
	size_t below(size_t n) { return n ? (size_t)(g_() % n) : 0; }
	Bytes bytes(size_t n)
	{
		Bytes b(n);
		for (auto &x : b)
			x = (uint8_t)g_();
		return b;
	}

private:
	std::mt19937_64 g_;
};

Bytes digest(const char *md, const Bytes &msg)
{
	Bytes out(EVP_MAX_MD_SIZE);
	unsigned int len = 0;
	EVP_Digest(msg.data(), msg.size(), out.data(), &len, EVP_get_digestbyname(md), nullptr);
	out.resize(len);
	return out;
}

int md_size(const char *md) { return EVP_MD_get_size(EVP_get_digestbyname(md)); }

/* signer signs tbs and verifier accepts the signature. */
void expect_sign_verify(const Side &signer, const Side &verifier, const Params &p,
			const Bytes &tbs)
{
	Result sig = run(signer, Op::Sign, p, tbs);
	ASSERT_TRUE(sig.ok) << describe(sig);
	EXPECT_TRUE(run(verifier, Op::Verify, p, tbs, sig.out).ok);
}

/* The shared setup: both library contexts, and every key in each. */
EVP_PKEY *bigmont_fromdata(OSSL_LIB_CTX *lib, OSSL_PARAM *params, int selection,
			   std::string *errors);

class ProviderTest : public ::testing::Test {
protected:
	static void SetUpTestSuite()
	{
		def_ = make_lib(false);
		bm_ = make_lib(true);
		ASSERT_NE(bm_.bigmont, nullptr)
			<< "bigmont.so did not load from " << BIGMONT_PROVIDER_DIR << ":\n"
			<< drain_errors();
		ASSERT_NE(def_.deflt, nullptr);
	}
	static void TearDownTestSuite()
	{
		free_lib(&def_);
		free_lib(&bm_);
	}

	/* *imported = params (the numbers of def_key, some or all) made into
	 * a bigmont key, which must sign as def_key does under the default
	 * provider (PKCS #1 v1.5 is deterministic), by bigmont's arithmetic. */
	static void import_signs_as_default(EVP_PKEY *def_key, OSSL_PARAM *params,
					    EVP_PKEY **imported)
	{
		std::string errors;
		*imported = bigmont_fromdata(bm_.ctx, params, EVP_PKEY_KEYPAIR, &errors);
		ASSERT_NE(*imported, nullptr) << errors;
		Side bm = { "bigmont", bm_.ctx, "provider=bigmont", *imported };
		Side def = { "default", def_.ctx, nullptr, def_key };
		const Bytes h = digest("SHA256", Bytes(5, 7));
		Params p;
		p.md = "SHA256";
		const uint64_t before = private_ops(bm_.bigmont);
		Result ours = run(bm, Op::Sign, p, h), theirs = run(def, Op::Sign, p, h);
		ASSERT_TRUE(ours.ok) << describe(ours);
		ASSERT_TRUE(theirs.ok) << describe(theirs);
		EXPECT_EQ(ours.provider, "bigmont");
		EXPECT_EQ(private_ops(bm_.bigmont), before + 1);
		EXPECT_EQ(ours.out, theirs.out) << "PKCS #1 v1.5 signatures are deterministic";
	}

	struct Pair {
		Side def, bm;
		int k;
		~Pair()
		{
			EVP_PKEY_free(def.key);
			EVP_PKEY_free(bm.key);
		}
	};
	static void load_pair(Pair *pair, const std::string &file)
	{
		std::string pem = read_file(file);
		pair->def = { "default", def_.ctx, "provider=default", load_key(def_.ctx, pem) };
		pair->bm = { "bigmont", bm_.ctx, "provider=bigmont", load_key(bm_.ctx, pem) };
		ASSERT_NE(pair->def.key, nullptr) << file;
		ASSERT_NE(pair->bm.key, nullptr) << file;
		pair->k = EVP_PKEY_get_size(pair->def.key);
	}

	static Lib def_, bm_;
};
Lib ProviderTest::def_, ProviderTest::bm_;

/* ---- agreement ---------------------------------------------------------- */

struct EncCombo {
	const char *name;
	int pad;
	const char *md, *mgf1;
	bool label;
};
const EncCombo kEncCombos[] = {
	{ "none", RSA_NO_PADDING, nullptr, nullptr, false },
	{ "pkcs1", RSA_PKCS1_PADDING, nullptr, nullptr, false },
	{ "oaep-sha1", RSA_PKCS1_OAEP_PADDING, nullptr, nullptr, false },
	{ "oaep-sha256-label", RSA_PKCS1_OAEP_PADDING, "SHA256", nullptr, true },
	{ "oaep-sha384-mgf1-sha1-label", RSA_PKCS1_OAEP_PADDING, "SHA384", "SHA1", true },
};

struct SigCombo {
	const char *name;
	int pad;
	const char *md, *mgf1;
	int saltlen;        /* for signing */
	int verify_saltlen; /* for verifying */
	bool digest_op;     /* EVP_DigestSign / EVP_DigestVerify over the message */
	bool deterministic;
};
const SigCombo kSigCombos[] = {
	{ "pkcs1-sha256", RSA_PKCS1_PADDING, "SHA256", nullptr, kUnset, kUnset, false, true },
	{ "pkcs1-sha512", RSA_PKCS1_PADDING, "SHA512", nullptr, kUnset, kUnset, false, true },
	{ "pkcs1-raw", RSA_PKCS1_PADDING, nullptr, nullptr, kUnset, kUnset, false, true },
	{ "none", RSA_NO_PADDING, nullptr, nullptr, kUnset, kUnset, false, true },
	{ "pss-sha256-salt0", RSA_PKCS1_PSS_PADDING, "SHA256", nullptr, 0, 0, false, true },
	{ "pss-sha256-saltdigest", RSA_PKCS1_PSS_PADDING, "SHA256", nullptr,
	  RSA_PSS_SALTLEN_DIGEST, RSA_PSS_SALTLEN_DIGEST, false, false },
	{ "pss-sha256-saltmax", RSA_PKCS1_PSS_PADDING, "SHA256", nullptr, RSA_PSS_SALTLEN_MAX,
	  RSA_PSS_SALTLEN_MAX, false, false },
	{ "pss-sha384-mgf1-sha256-salt20-auto", RSA_PKCS1_PSS_PADDING, "SHA384", "SHA256", 20,
	  RSA_PSS_SALTLEN_AUTO, false, false },
	{ "digestsign-pkcs1-sha256", RSA_PKCS1_PADDING, "SHA256", nullptr, kUnset, kUnset, true,
	  true },
	{ "digestsign-pss-sha256-saltdigest", RSA_PKCS1_PSS_PADDING, "SHA256", nullptr,
	  RSA_PSS_SALTLEN_DIGEST, RSA_PSS_SALTLEN_DIGEST, true, false },
};

/* Each test of a key size runs on that size's key pair, loaded in both
 * providers. */
class ProviderAgreement : public ProviderTest, public ::testing::WithParamInterface<int> {
protected:
	void SetUp() override
	{
		bits = GetParam();
		messages = bt::scaled(std::max(12L, 100L * 1024 * 1024 / ((long)bits * bits)));
		load_pair(&pair, key_path(bits));
	}

	/* body(c) for each combination c, under a trace naming it and the key
	 * size; each must have bigmont do one private operation (`what`) per
	 * message.  Stops at body's first fatal failure. */
	template <class Combo, size_t N, class Body>
	void for_each_combo(const Combo (&combos)[N], const char *what, Body body)
	{
		for (const Combo &c : combos) {
			SCOPED_TRACE(std::string(c.name) + ", RSA-" + std::to_string(bits));
			uint64_t ops_before = private_ops(bm_.bigmont);
			body(c);
			if (HasFatalFailure())
				return;
			EXPECT_EQ(private_ops(bm_.bigmont) - ops_before, (uint64_t)messages)
				<< "bigmont did not do every " << what << " it was given";
		}
	}

	int bits = 0;
	Pair pair;
	/* Per combination: 100 at RSA-1024, fewer as both providers' private
	 * operations grow with the square of the size (25 at 2048, 12 from
	 * 3072 up), so that each size costs about the same; the private
	 * operation itself is compared with GMP in test_rsa. */
	long messages = 0;
};

/* A random message for padding `pad` and digest md on a k-byte key. */
Bytes plaintext(Rng &rng, int k, int pad, const char *md)
{
	if (pad == RSA_NO_PADDING) {
		Bytes m = rng.bytes((size_t)k);
		m[0] = 0; /* below n */
		return m;
	}
	int max = pad == RSA_PKCS1_PADDING ? k - RSA_PKCS1_PADDING_SIZE
					   : k - 2 * md_size(md ? md : "SHA1") - 2;
	return rng.bytes(1 + rng.below((size_t)max)); /* empty: see SignatureRefusals */
}

TEST_P(ProviderAgreement, EncryptDecryptBothWays)
{
	Rng rng(0x656e63 + (uint64_t)bits);
	for_each_combo(kEncCombos, "decryption", [&](const EncCombo &c) {
		for (long i = 0; i < messages; i++) {
			Bytes label = c.label ? rng.bytes(rng.below(33)) : Bytes();
			Params p;
			p.pad = c.pad;
			p.md = c.md;
			p.mgf1 = c.mgf1;
			p.label = c.label ? &label : nullptr;
			Bytes m = plaintext(rng, pair.k, c.pad, c.md);
			for (int dir = 0; dir < 2; dir++) {
				const Side &enc = dir ? pair.bm : pair.def, &dec = dir ? pair.def : pair.bm;
				Result ct = run(enc, Op::Encrypt, p, m);
				ASSERT_TRUE(ct.ok) << "message " << i << ": " << describe(ct);
				ASSERT_EQ(ct.provider, enc.provider);
				Result pt = run(dec, Op::Decrypt, p, ct.out);
				ASSERT_TRUE(pt.ok) << "message " << i << ": " << describe(pt);
				ASSERT_EQ(pt.provider, dec.provider);
				ASSERT_EQ(pt.out, m) << "message " << i << ", encrypted by " << enc.provider;
				if (c.pad == RSA_NO_PADDING && dir == 1) {
					Result other = run(pair.def, Op::Encrypt, p, m);
					ASSERT_EQ(other.out, ct.out) << "raw RSA differs, message " << i;
				}
			}
		}
	});
}

TEST_P(ProviderAgreement, SignVerifyBothWays)
{
	Rng rng(0x736967 + (uint64_t)bits);
	for_each_combo(kSigCombos, "signature", [&](const SigCombo &c) {
		Params sp, vp;
		sp.pad = vp.pad = c.pad;
		sp.md = vp.md = c.md;
		sp.mgf1 = vp.mgf1 = c.mgf1;
		sp.saltlen = c.saltlen;
		vp.saltlen = c.verify_saltlen;
		for (long i = 0; i < messages; i++) {
			Bytes msg, tbs;
			if (c.digest_op) {
				msg = rng.bytes(rng.below(1000));
				tbs = msg;
			} else if (c.md) {
				tbs = digest(c.md, rng.bytes(rng.below(1000)));
			} else {
				tbs = plaintext(rng, pair.k, c.pad, nullptr);
			}
			const Op sign = c.digest_op ? Op::DigestSign : Op::Sign;
			const Op verify = c.digest_op ? Op::DigestVerify : Op::Verify;
			Result sig[2];
			for (int dir = 0; dir < 2; dir++) {
				const Side &signer = dir ? pair.bm : pair.def, &verifier = dir ? pair.def : pair.bm;
				sig[dir] = run(signer, sign, sp, tbs);
				ASSERT_TRUE(sig[dir].ok) << "message " << i << ": " << describe(sig[dir]);
				ASSERT_EQ(sig[dir].provider, signer.provider);
				Result v = run(verifier, verify, vp, tbs, sig[dir].out);
				ASSERT_TRUE(v.ok) << "message " << i << ", signed by " << signer.provider
						  << ": " << describe(v);
				ASSERT_EQ(v.provider, verifier.provider);
			}
			if (c.deterministic) {
				ASSERT_EQ(sig[0].out, sig[1].out) << "message " << i;
			}
		}
	});
}

/* ---- refusals ----------------------------------------------------------- */

/* Both sides refuse; when the default provider's first error comes from
 * libcrypto's RSA padding checks (which bigmont calls too), bigmont's first
 * error is the same one. */
void expect_same_refusal(const Result &def, const Result &bm, const std::string &what)
{
	EXPECT_FALSE(def.ok) << what << ": the default provider accepted it";
	EXPECT_FALSE(bm.ok) << what << ": bigmont accepted it";
	if (!def.ok && !bm.ok && ERR_GET_LIB(def.first_error) == ERR_LIB_RSA) {
		EXPECT_EQ(ERR_GET_REASON(bm.first_error), ERR_GET_REASON(def.first_error))
			<< what << "\ndefault: " << def.errors << "bigmont: " << bm.errors;
	}
}

/* Clear one random set bit of x below its top byte: a different value,
 * and a smaller one, so still below the modulus.  (Flipping any bit could
 * carry a value whose top byte is n's to n or above, about once in 5,800
 * runs at RSA-1024: refused for its range, with another reason than the
 * tampering the cases are about.) */
Bytes tamper(Rng &rng, Bytes x)
{
	std::vector<size_t> set;
	for (size_t bit = 8; bit < x.size() * 8; bit++)
		if (x[bit / 8] & (0x80 >> (bit % 8)))
			set.push_back(bit);
	if (set.empty())
		ADD_FAILURE() << "tamper: no set bit below the top byte to clear";
	else {
		size_t bit = set[rng.below(set.size())];
		x[bit / 8] ^= (uint8_t)(0x80 >> (bit % 8));
	}
	return x;
}

class ProviderRefusal : public ProviderAgreement {
protected:
	/* Cases per refusal test: 20 up to RSA-2048, then fewer with the square
	 * of the size (8 at 3072, 5 at 4096), as for the agreement above. */
	long cases() const
	{
		return bt::scaled(std::clamp(20L * 2048 * 2048 / ((long)bits * bits), 5L, 20L));
	}
};

TEST_P(ProviderRefusal, DecryptionRefusals)
{
	Rng rng(0x726566 + (uint64_t)bits);
	const long count = cases();
	Bytes label_a = { 'a' }, label_b = { 'b' };
	Params pkcs1, oaep, oaep_a, oaep_b;
	oaep.pad = oaep_a.pad = oaep_b.pad = RSA_PKCS1_OAEP_PADDING;
	oaep_a.label = &label_a;
	oaep_b.label = &label_b;
	for (long i = 0; i < count; i++) {
		Bytes m = rng.bytes(1 + rng.below(32));
		Bytes c_pkcs1 = run(pair.def, Op::Encrypt, pkcs1, m).out;
		Bytes c_oaep = run(pair.def, Op::Encrypt, oaep, m).out;
		Bytes c_oaep_a = run(pair.def, Op::Encrypt, oaep_a, m).out;
		struct {
			const char *what;
			const Params &p;
			Bytes c;
		} cases[] = {
			{ "OAEP ciphertext, PKCS#1 v1.5 padding", pkcs1, c_oaep },
			{ "PKCS#1 v1.5 ciphertext, OAEP padding", oaep, c_pkcs1 },
			{ "OAEP with label a, decrypted with label b", oaep_b, c_oaep_a },
			{ "OAEP with a label, decrypted without", oaep, c_oaep_a },
			{ "tampered OAEP ciphertext", oaep, tamper(rng, c_oaep) },
			{ "tampered PKCS#1 v1.5 ciphertext", pkcs1, tamper(rng, c_pkcs1) },
		};
		for (auto &t : cases) {
			Result d = run(pair.def, Op::Decrypt, t.p, t.c), b = run(pair.bm, Op::Decrypt, t.p, t.c);
			/* A wrong block passes the PKCS#1 v1.5 check by chance
			 * about once in 2^16; then both return the same bytes. */
			if (d.ok && b.ok) {
				EXPECT_EQ(d.out, b.out) << t.what;
				continue;
			}
			expect_same_refusal(d, b, std::string(t.what) + ", message " + std::to_string(i));
		}
	}
	/* A ciphertext not below n, and one longer than the key. */
	Bytes all_ones((size_t)pair.k, 0xff), too_long((size_t)pair.k + 1, 0x01);
	for (const Bytes *c : { &all_ones, &too_long }) {
		Result d = run(pair.def, Op::Decrypt, oaep, *c), b = run(pair.bm, Op::Decrypt, oaep, *c);
		EXPECT_FALSE(d.ok);
		EXPECT_FALSE(b.ok);
		EXPECT_NE(b.errors.find("bigmont"), std::string::npos) << b.errors;
	}
}

TEST_P(ProviderRefusal, SignatureRefusals)
{
	Rng rng(0x626164 + (uint64_t)bits);
	const long count = cases();
	Params pkcs1, pss, pss0, pss_digest, raw;
	pkcs1.md = pss.md = pss0.md = pss_digest.md = "SHA256";
	pss.pad = pss0.pad = pss_digest.pad = RSA_PKCS1_PSS_PADDING;
	pss0.saltlen = 0;
	pss_digest.saltlen = RSA_PSS_SALTLEN_DIGEST;
	for (long i = 0; i < count; i++) {
		Bytes h = digest("SHA256", rng.bytes(64)), h2 = digest("SHA256", rng.bytes(64));
		Bytes raw_msg = rng.bytes(1 + rng.below(40));
		Bytes s_pkcs1 = run(pair.def, Op::Sign, pkcs1, h).out;
		Bytes s_pss = run(pair.def, Op::Sign, pss, h).out;
		Bytes s_pss0 = run(pair.def, Op::Sign, pss0, h).out;
		Bytes s_raw = run(pair.def, Op::Sign, raw, raw_msg).out;
		Bytes short_sig(s_pkcs1.begin() + 1, s_pkcs1.end());
		Bytes s_empty = run(pair.def, Op::Sign, raw, Bytes()).out;
		struct {
			const char *what;
			const Params &p;
			Bytes tbs, sig;
			bool same_reason; /* both errors from libcrypto's checks */
		} cases[] = {
			{ "tampered PKCS#1 v1.5 signature", pkcs1, h, tamper(rng, s_pkcs1), true },
			{ "tampered PSS signature", pss, h, tamper(rng, s_pss), true },
			{ "tampered raw PKCS#1 v1.5 signature", raw, raw_msg, tamper(rng, s_raw), true },
			{ "PKCS#1 v1.5 signature of another digest", pkcs1, h2, s_pkcs1, false },
			{ "PSS signature of another digest", pss, h2, s_pss, true },
			{ "PSS signature checked as PKCS#1 v1.5", pkcs1, h, s_pss, true },
			{ "PKCS#1 v1.5 signature checked as PSS", pss, h, s_pkcs1, true },
			{ "PSS salt 0 checked with salt = digest length", pss_digest, h, s_pss0, true },
			{ "PKCS#1 v1.5 signature one byte short", pkcs1, h, short_sig, false },
			/* The default provider cannot verify an empty message. */
			{ "raw PKCS#1 v1.5 signature of an empty message", raw, Bytes(), s_empty, false },
		};
		for (auto &t : cases) {
			Result d = run(pair.def, Op::Verify, t.p, t.tbs, t.sig);
			Result b = run(pair.bm, Op::Verify, t.p, t.tbs, t.sig);
			std::string what = std::string(t.what) + ", message " + std::to_string(i);
			if (t.same_reason) {
				expect_same_refusal(d, b, what);
			} else {
				EXPECT_FALSE(d.ok) << what;
				EXPECT_FALSE(b.ok) << what;
				EXPECT_NE(b.errors.find("bad signature"), std::string::npos) << b.errors;
			}
		}
	}
	/* A digest of the wrong length, and a message too long for the key. */
	Bytes not_a_digest(31, 0x5a), too_long((size_t)pair.k, 0x01);
	EXPECT_FALSE(run(pair.bm, Op::Sign, pkcs1, not_a_digest).ok);
	EXPECT_FALSE(run(pair.def, Op::Sign, pkcs1, not_a_digest).ok);
	Result d = run(pair.def, Op::Sign, raw, too_long), b = run(pair.bm, Op::Sign, raw, too_long);
	expect_same_refusal(d, b, "raw PKCS#1 v1.5 of a message as long as the key");
	/* An MGF1 digest without PSS padding. */
	Params pkcs1_mgf1 = pkcs1;
	pkcs1_mgf1.mgf1 = "SHA1";
	EXPECT_FALSE(run(pair.def, Op::Sign, pkcs1_mgf1, digest("SHA256", rng.bytes(64))).ok);
	EXPECT_FALSE(run(pair.bm, Op::Sign, pkcs1_mgf1, digest("SHA256", rng.bytes(64))).ok);
	/* An XOF as PSS's MGF1 digest. */
	Params pss_shake = pss;
	pss_shake.mgf1 = "SHAKE-128";
	const Bytes h = digest("SHA256", rng.bytes(64));
	EXPECT_FALSE(run(pair.def, Op::Sign, pss_shake, h).ok);
	b = run(pair.bm, Op::Sign, pss_shake, h);
	EXPECT_FALSE(b.ok);
	EXPECT_NE(b.errors.find("MGF1 digest 'SHAKE-128' is not allowed here"), std::string::npos)
		<< b.errors;
	/* The NULL digest (no output: libcrypto's MGF1 would loop for ever)
	 * as PSS's or OAEP's MGF1 digest and as PSS's digest: refused when
	 * set.  Not run on the default provider, whose OAEP encryption with
	 * it never returns (3.0.22). */
	Params pss_null_mgf1 = pss, pss_null = pss, oaep_null_mgf1;
	pss_null_mgf1.mgf1 = "NULL";
	pss_null.md = "NULL";
	oaep_null_mgf1.pad = RSA_PKCS1_OAEP_PADDING;
	oaep_null_mgf1.md = "SHA256";
	oaep_null_mgf1.mgf1 = "NULL";
	b = run(pair.bm, Op::Sign, pss_null_mgf1, h);
	EXPECT_FALSE(b.ok);
	EXPECT_NE(b.errors.find("MGF1 digest 'NULL' is not allowed here"), std::string::npos)
		<< b.errors;
	/* (The harness sets the digest by its EVP_MD, whose name the NULL
	 * digest lacks: refused as unavailable before the size is seen.) */
	EXPECT_FALSE(run(pair.bm, Op::Sign, pss_null, h).ok);
	b = run(pair.bm, Op::Encrypt, oaep_null_mgf1, Bytes(16, 1));
	EXPECT_FALSE(b.ok);
	EXPECT_NE(b.errors.find("MGF1 digest 'NULL' is not allowed here"), std::string::npos)
		<< b.errors;
}

/* A padding mode the operation has no use for is refused when it is set,
 * by both providers, bigmont saying which kind of padding it needed; so
 * is a mode by a name no provider knows. */
TEST_P(ProviderRefusal, PaddingModeOutsideTheOperation)
{
	Params pss, oaep, x931;
	pss.pad = RSA_PKCS1_PSS_PADDING;
	oaep.pad = RSA_PKCS1_OAEP_PADDING;
	x931.pad = RSA_X931_PADDING;
	const Bytes msg((size_t)pair.k, 0), h(32, 0x5a);
	struct {
		const char *what;
		Op op;
		const Params &p;
		const Bytes &in;
		const char *reason;
	} cases[] = {
		{ "PSS to encrypt", Op::Encrypt, pss, msg, "is not offered for encryption" },
		{ "X9.31 to decrypt", Op::Decrypt, x931, msg, "is not offered for encryption" },
		{ "OAEP to sign", Op::Sign, oaep, h, "is not offered for signatures" },
		{ "X9.31 to verify-recover", Op::VerifyRecover, x931, msg,
		  "is not offered for signatures" },
	};
	for (auto &t : cases) {
		Result d = run(pair.def, t.op, t.p, t.in), b = run(pair.bm, t.op, t.p, t.in);
		EXPECT_FALSE(d.ok) << t.what << ": the default provider accepted it";
		EXPECT_FALSE(b.ok) << t.what << ": bigmont accepted it";
		EXPECT_NE(b.errors.find(t.reason), std::string::npos) << t.what << ": " << b.errors;
	}

	char bogus[] = "bogus";
	const OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE, bogus, 0),
		OSSL_PARAM_construct_end()
	};
	ERR_clear_error();
	EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(pair.bm.lib, pair.bm.key, pair.bm.propq);
	ASSERT_NE(pctx, nullptr);
	ASSERT_GT(EVP_PKEY_sign_init(pctx), 0);
	EXPECT_EQ(provider_of(pctx), "bigmont");
	EXPECT_LE(EVP_PKEY_CTX_set_params(pctx, params), 0) << "padding mode \"bogus\" accepted";
	unsigned long first = 0;
	std::string errors = drain_errors(&first);
	EXPECT_NE(errors.find("unknown padding mode"), std::string::npos) << errors;
	EVP_PKEY_CTX_free(pctx);
}

/* verify-recover gives back what was signed: the digest (PKCS #1 v1.5
 * with a digest), the raw input, the whole block (no padding). */
TEST_P(ProviderRefusal, VerifyRecover)
{
	Rng rng(0x726563 + (uint64_t)bits);
	Params pkcs1, raw, none;
	pkcs1.md = "SHA256";
	none.pad = RSA_NO_PADDING;
	for (long i = 0; i < cases(); i++) {
		Bytes h = digest("SHA256", rng.bytes(40)), m = rng.bytes(1 + rng.below(60));
		Bytes block = plaintext(rng, pair.k, RSA_NO_PADDING, nullptr);
		struct {
			const Params &p;
			Bytes tbs;
		} cases[] = { { pkcs1, h }, { raw, m }, { none, block } };
		for (auto &t : cases) {
			Bytes sig = run(pair.def, Op::Sign, t.p, t.tbs).out;
			Result d = run(pair.def, Op::VerifyRecover, t.p, sig);
			Result b = run(pair.bm, Op::VerifyRecover, t.p, sig);
			ASSERT_TRUE(b.ok) << describe(b);
			EXPECT_EQ(b.provider, "bigmont");
			EXPECT_EQ(b.out, t.tbs);
			EXPECT_EQ(b.out, d.out);
			Bytes bad = tamper(rng, sig);
			Result bad_d = run(pair.def, Op::VerifyRecover, t.p, bad);
			Result bad_b = run(pair.bm, Op::VerifyRecover, t.p, bad);
			if (t.p.pad != RSA_NO_PADDING)
				expect_same_refusal(bad_d, bad_b, "verify-recover of a tampered signature");
		}
	}
	/* With a digest, a signature one byte short is refused by its length,
	 * as the default provider refuses it, even where it is the same number
	 * (a signature whose top byte is zero, without it). */
	if (bits > 2048)
		return;
	Bytes sig;
	for (int tries = 0; tries < 10000 && (sig.empty() || sig[0] != 0); tries++)
		sig = run(pair.def, Op::Sign, pkcs1, digest("SHA256", rng.bytes(40))).out;
	ASSERT_EQ(sig[0], 0) << "no signature with a zero top byte in 10000";
	const Bytes short_sig(sig.begin() + 1, sig.end());
	Result d = run(pair.def, Op::VerifyRecover, pkcs1, short_sig);
	Result b = run(pair.bm, Op::VerifyRecover, pkcs1, short_sig);
	EXPECT_FALSE(d.ok) << "the default provider recovered a short signature";
	EXPECT_FALSE(b.ok) << "bigmont recovered a short signature";
	EXPECT_NE(b.errors.find("signature for a"), std::string::npos) << b.errors;
}

/* TLS 1.0-1.2 RSA key exchange: the premaster when the padding and the
 * version are right, 48 random bytes (and success) otherwise. */
TEST_P(ProviderRefusal, TlsPremaster)
{
	Rng rng(0x746c73 + (uint64_t)bits);
	for (long i = 0; i < cases(); i++) {
		Bytes pms = rng.bytes(48);
		pms[0] = 0x03;
		pms[1] = 0x03;
		Params pkcs1;
		Bytes c = run(pair.def, Op::Encrypt, pkcs1, pms).out;
		Params tls;
		tls.pad = RSA_PKCS1_WITH_TLS_PADDING;
		tls.tls_version = 0x0303;
		Result d = run(pair.def, Op::Decrypt, tls, c), b = run(pair.bm, Op::Decrypt, tls, c);
		ASSERT_TRUE(d.ok && b.ok) << describe(d) << describe(b);
		EXPECT_EQ(b.provider, "bigmont");
		EXPECT_EQ(d.out, pms);
		EXPECT_EQ(b.out, pms);
		/* A client that sent the negotiated version: accepted only
		 * with the rollback allowance. */
		tls.tls_version = 0x0304;
		for (unsigned alt : { 0u, 0x0303u }) {
			tls.tls_alt = alt;
			b = run(pair.bm, Op::Decrypt, tls, c);
			d = run(pair.def, Op::Decrypt, tls, c);
			ASSERT_TRUE(b.ok && d.ok) << describe(b);
			EXPECT_EQ(b.out.size(), 48u);
			EXPECT_EQ(b.out == pms, alt != 0) << "alt version " << alt;
			EXPECT_EQ(d.out == pms, alt != 0) << "alt version " << alt;
		}
		tls.tls_version = 0x0303;
		tls.tls_alt = 0;
		Bytes bad = tamper(rng, c);
		b = run(pair.bm, Op::Decrypt, tls, bad);
		ASSERT_TRUE(b.ok) << describe(b);
		EXPECT_NE(b.out, pms);
		/* OAEP- or wrongly padded premaster: random, too. */
		Params oaep;
		oaep.pad = RSA_PKCS1_OAEP_PADDING;
		b = run(pair.bm, Op::Decrypt, tls, run(pair.def, Op::Encrypt, oaep, pms).out);
		ASSERT_TRUE(b.ok);
		EXPECT_NE(b.out, pms);
	}
}

INSTANTIATE_TEST_SUITE_P(Sizes, ProviderAgreement, ::testing::Values(1024, 2048, 3072, 4096),
			 [](const auto &info) { return "RSA" + std::to_string(info.param); });
INSTANTIATE_TEST_SUITE_P(Sizes, ProviderRefusal, ::testing::Values(1024, 2048, 3072, 4096),
			 [](const auto &info) { return "RSA" + std::to_string(info.param); });

/* What the default provider takes, bigmont takes alike: an output buffer
 * whose size passes int's range (the unpadders take an int), OpenSSL's
 * "oeap" spelling of the padding mode, and the MGF1 digest read back
 * (SHA-1 where none is set); and what it refuses, bigmont refuses: digests
 * outside its list for a signature or PSS's MGF1 (BLAKE2, SM3). */
TEST_F(ProviderTest, AsTheDefaultProviderTakesAndRefuses)
{
	Pair pair;
	load_pair(&pair, key_path(2048));
	Rng rng(0x6f656170);
	const Bytes m = rng.bytes(32);
	Params pkcs1, oaep;
	oaep.pad = RSA_PKCS1_OAEP_PADDING;
	for (const Params *p : { &pkcs1, &oaep }) {
		const Bytes c = run(pair.def, Op::Encrypt, *p, m).out;
		ASSERT_FALSE(c.empty());
		for (const Side *side : { &pair.def, &pair.bm }) {
			/* Only the size is large: the message is 32 bytes. */
			for (size_t outsize : { (size_t)1 << 31, ((size_t)1 << 32) + 16, SIZE_MAX }) {
				SCOPED_TRACE(std::string(side->provider) + ", outsize " +
					     std::to_string(outsize));
				EVP_PKEY_CTX *pctx =
					EVP_PKEY_CTX_new_from_pkey(side->lib, side->key, side->propq);
				Bytes out(pair.k);
				size_t len = outsize;
				ASSERT_TRUE(EVP_PKEY_decrypt_init(pctx) > 0 && apply(pctx, *p, true));
				const int rc = EVP_PKEY_decrypt(pctx, out.data(), &len, c.data(), c.size());
				const std::string errors = drain_errors();
				EVP_PKEY_CTX_free(pctx);
				/* OpenSSL 3.0's own OAEP check takes an int too. */
				if (p == &oaep && side == &pair.def)
					continue;
				EXPECT_EQ(rc, 1) << errors;
				EXPECT_EQ(Bytes(out.begin(), out.begin() + (long)std::min(len, out.size())), m);
			}
		}
	}
	Params sign_raw;
	const Bytes sig = run(pair.def, Op::Sign, sign_raw, m).out;
	for (const Side *side : { &pair.def, &pair.bm }) {
		EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(side->lib, side->key, side->propq);
		Bytes out(pair.k);
		size_t len = SIZE_MAX;
		ASSERT_TRUE(EVP_PKEY_verify_recover_init(pctx) > 0 && apply(pctx, sign_raw, false));
		EXPECT_EQ(EVP_PKEY_verify_recover(pctx, out.data(), &len, sig.data(), sig.size()), 1)
			<< side->provider << ": " << drain_errors();
		EXPECT_EQ(Bytes(out.begin(), out.begin() + (long)std::min(len, out.size())), m);
		EVP_PKEY_CTX_free(pctx);
	}

	/* "oeap", and the MGF1 digest read back. */
	for (const Side *side : { &pair.def, &pair.bm }) {
		EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(side->lib, side->key, side->propq);
		ASSERT_TRUE(EVP_PKEY_decrypt_init(pctx) > 0);
		OSSL_PARAM set[] = { OSSL_PARAM_construct_utf8_string(
					     OSSL_ASYM_CIPHER_PARAM_PAD_MODE, (char *)"oeap", 0),
				     OSSL_PARAM_construct_end() };
		EXPECT_GT(EVP_PKEY_CTX_set_params(pctx, set), 0) << side->provider << drain_errors();
		int pad = 0;
		EXPECT_GT(EVP_PKEY_CTX_get_rsa_padding(pctx, &pad), 0);
		EXPECT_EQ(pad, RSA_PKCS1_OAEP_PADDING) << side->provider;
		char name[64] = "";
		EXPECT_GT(EVP_PKEY_CTX_get_rsa_mgf1_md_name(pctx, name, sizeof(name)), 0);
		EXPECT_STREQ(name, "SHA1") << side->provider;
		EVP_PKEY_CTX_free(pctx);
	}

	for (const char *md : { "BLAKE2B-512", "BLAKE2S-256", "SM3" }) {
		if (EVP_MD *fetched = EVP_MD_fetch(def_.ctx, md, nullptr))
			EVP_MD_free(fetched);
		else
			continue; /* not in this libcrypto */
		Params sig_md, pss_mgf1;
		sig_md.md = md;
		pss_mgf1.pad = RSA_PKCS1_PSS_PADDING;
		pss_mgf1.md = "SHA256";
		pss_mgf1.mgf1 = md;
		Bytes h(EVP_MD_get_size(EVP_get_digestbyname(md)), 0x5a);
		Result d = run(pair.def, Op::Sign, sig_md, h), b = run(pair.bm, Op::Sign, sig_md, h);
		EXPECT_FALSE(d.ok) << md;
		EXPECT_FALSE(b.ok) << md;
		EXPECT_NE(b.errors.find("is not allowed here"), std::string::npos) << md << b.errors;
		const Bytes h256 = digest("SHA256", m);
		d = run(pair.def, Op::Sign, pss_mgf1, h256);
		b = run(pair.bm, Op::Sign, pss_mgf1, h256);
		EXPECT_FALSE(d.ok) << md;
		EXPECT_FALSE(b.ok) << md;
		EXPECT_NE(b.errors.find("MGF1 digest"), std::string::npos) << md << b.errors;
	}
}

/* ---- key management ----------------------------------------------------- */

/* The key's numbers as parameters (EVP_PKEY_todata), or null. */
OSSL_PARAM *key_params(EVP_PKEY *key, int selection = EVP_PKEY_KEYPAIR)
{
	OSSL_PARAM *params = nullptr;
	return EVP_PKEY_todata(key, selection, &params) == 1 ? params : nullptr;
}

/* Build a key from params in bigmont's key manager (mandatory property). */
EVP_PKEY *bigmont_fromdata(OSSL_LIB_CTX *lib, OSSL_PARAM *params, int selection, std::string *errors)
{
	EVP_PKEY *key = nullptr;
	EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(lib, "RSA", "provider=bigmont");
	if (pctx == nullptr || EVP_PKEY_fromdata_init(pctx) <= 0 ||
	    EVP_PKEY_fromdata(pctx, &key, selection, params) <= 0) {
		EVP_PKEY_free(key);
		key = nullptr;
	}
	EVP_PKEY_CTX_free(pctx);
	*errors = drain_errors();
	return key;
}

TEST_F(ProviderTest, KeyTheChecksRefuseIsRefusedAtImport)
{
	const char *bad[][2] = {
		{ "wrong-dp.pem", "dp != d mod (p-1)" },
		{ "wrong-dq.pem", "dq != d mod (q-1)" },
		{ "wrong-qinv.pem", "qInv" },
		{ "p-times-q-not-n.pem", "p*q != n" },
		{ "even-e.pem", "e is even" },
		{ "e-is-one.pem", "e is 1" },
	};
	int tried = 0;
	for (auto &b : bad) {
		SCOPED_TRACE(b[0]);
		EVP_PKEY *key = load_key(def_.ctx, read_file(std::string(TEST_DATA_DIR) + "/bad/" + b[0]));
		if (key == nullptr) { /* OpenSSL's decoder refused it first */
			drain_errors();
			continue;
		}
		tried++;
		OSSL_PARAM *params = key_params(key);
		ASSERT_NE(params, nullptr);
		std::string errors;
		EVP_PKEY *imported = bigmont_fromdata(bm_.ctx, params, EVP_PKEY_KEYPAIR, &errors);
		EXPECT_EQ(imported, nullptr);
		EXPECT_NE(errors.find("bigmont refused the key at import"), std::string::npos) << errors;
		EXPECT_NE(errors.find(b[1]), std::string::npos) << errors;
		EVP_PKEY_free(imported);
		OSSL_PARAM_free(params);

		/* The same key decoded in bigmont's context cannot be used by it
		 * (or, if the decoder chose bigmont's key manager, is not
		 * decoded at all). */
		EVP_PKEY *decoded = load_key(bm_.ctx, read_file(std::string(TEST_DATA_DIR) + "/bad/" + b[0]));
		if (decoded == nullptr) {
			errors = drain_errors();
			EXPECT_NE(errors.find("bigmont refused the key"), std::string::npos) << errors;
			EVP_PKEY_free(key);
			continue;
		}
		Side bm = { "bigmont", bm_.ctx, "provider=bigmont", decoded };
		Bytes h = digest("SHA256", Bytes(3, 1));
		Params p;
		p.md = "SHA256";
		uint64_t before = private_ops(bm_.bigmont);
		Result r = run(bm, Op::Sign, p, h);
		EXPECT_FALSE(r.ok);
		EXPECT_EQ(private_ops(bm_.bigmont), before);
		EVP_PKEY_free(decoded);
		EVP_PKEY_free(key);
	}
	EXPECT_GE(tried, 3) << "OpenSSL decoded too few of the bad keys to test anything";
}

/* The public-key check of a key held by bigmont (made by fromdata, so no
 * private numbers were checked) agrees with the default provider's on
 * moduli that are a prime, a prime times 3, a prime squared, and a good
 * p q; e = 65537.  The check asks bigmont: its key manager holds the key. */
TEST_F(ProviderTest, PublicCheckOfAKeyBigmontHolds)
{
	BN_CTX *bn = BN_CTX_new();
	BIGNUM *p = BN_new(), *q = BN_new(), *e = BN_new();
	ASSERT_TRUE(BN_generate_prime_ex2(p, 512, 0, nullptr, nullptr, nullptr, bn));
	ASSERT_TRUE(BN_generate_prime_ex2(q, 512, 0, nullptr, nullptr, nullptr, bn));
	ASSERT_TRUE(BN_set_word(e, 65537));
	struct Case {
		const char *what;
		BIGNUM *n;
		bool good;
	} cases[] = { { "a prime", BN_new(), false }, { "3 times a prime", BN_new(), false },
		      { "a prime squared", BN_new(), false }, { "p q", BN_new(), true } };
	ASSERT_TRUE(BN_generate_prime_ex2(cases[0].n, 1024, 0, nullptr, nullptr, nullptr, bn));
	BIGNUM *big = BN_new();
	ASSERT_TRUE(BN_generate_prime_ex2(big, 1022, 0, nullptr, nullptr, nullptr, bn));
	ASSERT_TRUE(BN_mul_word(BN_copy(cases[1].n, big), 3));
	ASSERT_TRUE(BN_sqr(cases[2].n, p, bn));
	ASSERT_TRUE(BN_mul(cases[3].n, p, q, bn));
	for (auto &c : cases) {
		OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
		OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, c.n);
		OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
		OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
		std::string errors;
		EVP_PKEY *ours = bigmont_fromdata(bm_.ctx, params, EVP_PKEY_PUBLIC_KEY, &errors);
		ASSERT_NE(ours, nullptr) << c.what << ": " << errors;
		EVP_PKEY *theirs = nullptr;
		EVP_PKEY_CTX *make = EVP_PKEY_CTX_new_from_name(def_.ctx, "RSA", "provider=default");
		ASSERT_EQ(EVP_PKEY_fromdata_init(make), 1);
		ASSERT_EQ(EVP_PKEY_fromdata(make, &theirs, EVP_PKEY_PUBLIC_KEY, params), 1) << c.what;
		EVP_PKEY_CTX *check_ours = EVP_PKEY_CTX_new_from_pkey(bm_.ctx, ours, nullptr);
		EVP_PKEY_CTX *check_theirs = EVP_PKEY_CTX_new_from_pkey(def_.ctx, theirs, nullptr);
		EXPECT_EQ(EVP_PKEY_public_check(check_ours) == 1, c.good) << c.what;
		EXPECT_EQ(EVP_PKEY_public_check(check_theirs) == 1, c.good) << c.what;
		drain_errors();
		EVP_PKEY_CTX_free(check_ours);
		EVP_PKEY_CTX_free(check_theirs);
		EVP_PKEY_CTX_free(make);
		EVP_PKEY_free(ours);
		EVP_PKEY_free(theirs);
		OSSL_PARAM_free(params);
		OSSL_PARAM_BLD_free(bld);
		BN_free(c.n);
	}
	BN_free(big);
	BN_free(p);
	BN_free(q);
	BN_free(e);
	BN_CTX_free(bn);
}

/* A zero private number is refused, not read as absent (which would make
 * a private key public). */
TEST_F(ProviderTest, ZeroPrivateNumberIsRefused)
{
	EVP_PKEY *key = load_key(def_.ctx, read_file(key_path(2048)));
	ASSERT_NE(key, nullptr);
	static const char *const names[] = {
		OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
		OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2,
		OSSL_PKEY_PARAM_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT2,
		OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
	};
	for (int zero : { 2, 6 }) {
		OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
		BIGNUM *nums[8] = { nullptr };
		for (int i = 0; i < 8; i++) {
			ASSERT_EQ(EVP_PKEY_get_bn_param(key, names[i], &nums[i]), 1) << names[i];
			if (i == zero)
				BN_zero(nums[i]);
			OSSL_PARAM_BLD_push_BN(bld, names[i], nums[i]);
		}
		OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
		std::string errors;
		EVP_PKEY *imported = bigmont_fromdata(bm_.ctx, params, EVP_PKEY_KEYPAIR, &errors);
		EXPECT_EQ(imported, nullptr) << names[zero];
		EXPECT_NE(errors.find(zero == 2 ? "the private key's d is 0" : "the private key's dQ is 0"),
			  std::string::npos)
			<< errors;
		EVP_PKEY_free(imported);
		OSSL_PARAM_free(params);
		OSSL_PARAM_BLD_free(bld);
		for (BIGNUM *b : nums)
			BN_clear_free(b);
	}
	EVP_PKEY_free(key);
}

/* A private key of n, e and d alone (as a JWK or a key store may carry it)
 * is taken: bigmont recovers p and q, and its signatures are the default
 * provider's, bigmont doing the work.  A multi-prime key is refused. */
TEST_F(ProviderTest, PrivateKeyOfNEAndDTakenMultiPrimeRefused)
{
	EVP_PKEY *key = load_key(def_.ctx, read_file(key_path(2048)));
	ASSERT_NE(key, nullptr);
	BIGNUM *n = nullptr, *e = nullptr, *d = nullptr;
	ASSERT_EQ(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n), 1);
	ASSERT_EQ(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e), 1);
	ASSERT_EQ(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_D, &d), 1);
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d);
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
	std::string errors;
	EVP_PKEY *imported = nullptr;
	import_signs_as_default(key, params, &imported);
	if (HasFatalFailure())
		return;
	EVP_PKEY_free(imported);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);

	/* d that does not invert e: refused at import, the reason named. */
	BN_add_word(d, 2);
	bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d);
	params = OSSL_PARAM_BLD_to_param(bld);
	imported = bigmont_fromdata(bm_.ctx, params, EVP_PKEY_KEYPAIR, &errors);
	EXPECT_EQ(imported, nullptr);
	EXPECT_NE(errors.find("d does not invert e"), std::string::npos) << errors;
	EVP_PKEY_free(imported);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	BN_clear_free(d);
	EVP_PKEY_free(key);

	EVP_PKEY *three = nullptr;
	EVP_PKEY_CTX *gen = EVP_PKEY_CTX_new_from_name(def_.ctx, "RSA", nullptr);
	ASSERT_EQ(EVP_PKEY_keygen_init(gen), 1);
	ASSERT_EQ(EVP_PKEY_CTX_set_rsa_keygen_bits(gen, 1024), 1);
	ASSERT_EQ(EVP_PKEY_CTX_set_rsa_keygen_primes(gen, 3), 1);
	ASSERT_EQ(EVP_PKEY_keygen(gen, &three), 1);
	EVP_PKEY_CTX_free(gen);
	params = key_params(three);
	imported = bigmont_fromdata(bm_.ctx, params, EVP_PKEY_KEYPAIR, &errors);
	EXPECT_EQ(imported, nullptr);
	EXPECT_NE(errors.find("multi-prime"), std::string::npos) << errors;
	EVP_PKEY_free(imported);
	OSSL_PARAM_free(params);
	EVP_PKEY_free(three);
}

/* n, e, d, p and q without dP, dQ, qInv: the default provider takes
 * such a key and signs with it; bigmont recovers the key from n, e, d,
 * signs the same and exports what it was given. */
TEST_F(ProviderTest, PrivateKeyWithoutTheCrtExponentsTaken)
{
	EVP_PKEY *key = load_key(def_.ctx, read_file(key_path(2048)));
	ASSERT_NE(key, nullptr);
	const char *names[] = { OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
				OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2 };
	BIGNUM *num[5] = {};
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	for (int i = 0; i < 5; i++) {
		ASSERT_EQ(EVP_PKEY_get_bn_param(key, names[i], &num[i]), 1) << names[i];
		OSSL_PARAM_BLD_push_BN(bld, names[i], num[i]);
	}
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
	EVP_PKEY *imported = nullptr;
	import_signs_as_default(key, params, &imported);
	if (HasFatalFailure())
		return;
	for (int i = 0; i < 5; i++) {
		BIGNUM *back = nullptr;
		ASSERT_EQ(EVP_PKEY_get_bn_param(imported, names[i], &back), 1) << names[i];
		EXPECT_EQ(BN_cmp(back, num[i]), 0) << names[i] << " exported as given";
		BN_clear_free(back);
	}
	EVP_PKEY_free(imported);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	for (BIGNUM *b : num)
		BN_clear_free(b);
	EVP_PKEY_free(key);
}

/* OAEP under an XOF at its default length (SHAKE), as digest and as
 * MGF1 digest: the default provider takes it, so bigmont does. */
TEST_F(ProviderTest, OaepWithShakeBothWays)
{
	for (const char *md : { "SHAKE-128", "SHAKE-256" })
		if (md_size(md) <= 0)
			GTEST_SKIP() << md << " has no default length in this OpenSSL";
	EVP_PKEY *key = load_key(def_.ctx, read_file(key_path(2048)));
	ASSERT_NE(key, nullptr);
	Side bm = { "bigmont", bm_.ctx, "provider=bigmont", key };
	Side def = { "default", def_.ctx, nullptr, key };
	Params p;
	p.pad = RSA_PKCS1_OAEP_PADDING;
	p.md = "SHAKE-256";
	p.mgf1 = "SHAKE-128";
	const Bytes label(7, 0x4c);
	p.label = &label;
	const Bytes m(40, 0x6d);
	for (int dir = 0; dir < 2; dir++) {
		const Side &enc = dir ? bm : def, &dec = dir ? def : bm;
		Result ct = run(enc, Op::Encrypt, p, m);
		ASSERT_TRUE(ct.ok) << describe(ct);
		Result pt = run(dec, Op::Decrypt, p, ct.out);
		ASSERT_TRUE(pt.ok) << describe(pt);
		EXPECT_EQ(pt.provider, dec.provider);
		EXPECT_EQ(pt.out, m);
	}
	EVP_PKEY_free(key);
}

TEST_F(ProviderTest, ImportExportMatchAndParameters)
{
	for (int bits : { 1024, 2048, 3072, 4096 }) {
		SCOPED_TRACE(bits);
		EVP_PKEY *ref = load_key(def_.ctx, read_file(key_path(bits)));
		ASSERT_NE(ref, nullptr);
		OSSL_PARAM *params = key_params(ref);
		std::string errors;
		EVP_PKEY *key = bigmont_fromdata(bm_.ctx, params, EVP_PKEY_KEYPAIR, &errors);
		ASSERT_NE(key, nullptr) << errors;
		EXPECT_STREQ(OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(key)), "bigmont");
		EXPECT_EQ(EVP_PKEY_get_bits(key), EVP_PKEY_get_bits(ref));
		EXPECT_EQ(EVP_PKEY_get_security_bits(key), EVP_PKEY_get_security_bits(ref));
		EXPECT_EQ(EVP_PKEY_get_size(key), EVP_PKEY_get_size(ref));
		EXPECT_TRUE(EVP_PKEY_is_a(key, "RSA"));
		char mdname[64] = "";
		EXPECT_GT(EVP_PKEY_get_default_digest_name(key, mdname, sizeof(mdname)), 0);
		EXPECT_STREQ(mdname, "SHA256");

		/* Export gives back every number. */
		OSSL_PARAM *back = key_params(key);
		ASSERT_NE(back, nullptr);
		for (const char *name : { OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E,
					  OSSL_PKEY_PARAM_RSA_D, OSSL_PKEY_PARAM_RSA_FACTOR1,
					  OSSL_PKEY_PARAM_RSA_FACTOR2, OSSL_PKEY_PARAM_RSA_EXPONENT1,
					  OSSL_PKEY_PARAM_RSA_EXPONENT2,
					  OSSL_PKEY_PARAM_RSA_COEFFICIENT1 }) {
			BIGNUM *a = nullptr, *b = nullptr;
			ASSERT_EQ(OSSL_PARAM_get_BN(OSSL_PARAM_locate(params, name), &a), 1) << name;
			ASSERT_EQ(OSSL_PARAM_get_BN(OSSL_PARAM_locate(back, name), &b), 1) << name;
			EXPECT_EQ(BN_cmp(a, b), 0) << name;
			BN_clear_free(a);
			BN_clear_free(b);
		}

		/* Match across key managers, and a mismatch.  RSA keys have no
		 * domain parameters: their parameters match as e does. */
		EXPECT_EQ(EVP_PKEY_eq(key, ref), 1);
		EXPECT_EQ(EVP_PKEY_parameters_eq(ref, ref), 1);
		EXPECT_EQ(EVP_PKEY_parameters_eq(key, key), 1);
		EVP_PKEY *other = load_key(def_.ctx, read_file(key_path(bits, "-e3.pem")));
		EXPECT_NE(EVP_PKEY_eq(key, other), 1);
		EVP_PKEY_free(other);

		/* validate and has. */
		EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(bm_.ctx, key, "provider=bigmont");
		EXPECT_EQ(EVP_PKEY_check(check), 1);
		EXPECT_EQ(EVP_PKEY_public_check(check), 1);
		EVP_PKEY_CTX_free(check);

		/* A public-only key verifies but cannot sign. */
		OSSL_PARAM *pub_params = key_params(ref, EVP_PKEY_PUBLIC_KEY);
		EVP_PKEY *pub = bigmont_fromdata(bm_.ctx, pub_params, EVP_PKEY_PUBLIC_KEY, &errors);
		ASSERT_NE(pub, nullptr) << errors;
		Side bm_key = { "bigmont", bm_.ctx, "provider=bigmont", key };
		Side bm_pub = { "bigmont", bm_.ctx, "provider=bigmont", pub };
		Params p;
		p.md = "SHA256";
		Bytes h = digest("SHA256", Bytes(5, 7));
		ASSERT_NO_FATAL_FAILURE(expect_sign_verify(bm_key, bm_pub, p, h));
		Result refused = run(bm_pub, Op::Sign, p, h);
		EXPECT_FALSE(refused.ok);
		EXPECT_NE(refused.errors.find("private key is needed"), std::string::npos)
			<< refused.errors;
		EXPECT_EQ(EVP_PKEY_eq(pub, ref), 1);

		EVP_PKEY_free(pub);
		OSSL_PARAM_free(pub_params);
		OSSL_PARAM_free(back);
		OSSL_PARAM_free(params);
		EVP_PKEY_free(key);
		EVP_PKEY_free(ref);
	}
}

/* Generation is delegated to the default provider and the result imported
 * (checked, precomputed) into bigmont's key manager. */
/* EVP_DigestSignInit and EVP_DigestVerifyInit with no key restart the
 * context with the key it has (as a reset md BIO asks): the default
 * provider allows it, and the signature then covers only what follows. */
TEST_F(ProviderTest, DigestContextRestartsWithItsKey)
{
	Pair pair;
	load_pair(&pair, key_path(2048));
	const std::string a = "abc";
	for (const Side *s : { &pair.def, &pair.bm }) {
		SCOPED_TRACE(s->provider);
		EVP_MD_CTX *m = EVP_MD_CTX_new();
		EVP_PKEY_CTX *pctx = nullptr;
		ASSERT_EQ(EVP_DigestSignInit_ex(m, &pctx, "SHA256", s->lib, s->propq, s->key, nullptr), 1);
		ASSERT_EQ(provider_of(pctx), s->provider);
		ASSERT_EQ(EVP_DigestSignUpdate(m, "xyz", 3), 1);
		ASSERT_EQ(EVP_DigestSignInit(m, nullptr, nullptr, nullptr, nullptr), 1) << drain_errors();
		ASSERT_EQ(EVP_DigestSignUpdate(m, a.data(), a.size()), 1);
		size_t len = 0;
		ASSERT_EQ(EVP_DigestSignFinal(m, nullptr, &len), 1);
		Bytes sig(len);
		ASSERT_EQ(EVP_DigestSignFinal(m, sig.data(), &len), 1);
		sig.resize(len);

		ASSERT_EQ(EVP_DigestVerifyInit_ex(m, &pctx, "SHA256", s->lib, s->propq, s->key, nullptr), 1);
		ASSERT_EQ(EVP_DigestVerifyUpdate(m, "xyz", 3), 1);
		ASSERT_EQ(EVP_DigestVerifyInit(m, nullptr, nullptr, nullptr, nullptr), 1) << drain_errors();
		ASSERT_EQ(EVP_DigestVerifyUpdate(m, a.data(), a.size()), 1);
		EXPECT_EQ(EVP_DigestVerifyFinal(m, sig.data(), sig.size()), 1) << drain_errors();
		EVP_MD_CTX_free(m);

		/* The default provider's one-shot verify of "abc" alone. */
		Params p;
		p.md = "SHA256";
		Result v = run(pair.def, Op::DigestVerify, p, Bytes(a.begin(), a.end()), sig);
		EXPECT_TRUE(v.ok) << describe(v);
	}
	EXPECT_EQ(ERR_peek_error(), 0UL) << drain_errors();
}

TEST_F(ProviderTest, GeneratedKeysLandInBigmont)
{
	EVP_PKEY_CTX *gen = EVP_PKEY_CTX_new_from_name(bm_.ctx, "RSA", "provider=bigmont");
	ASSERT_NE(gen, nullptr);
	ASSERT_EQ(EVP_PKEY_keygen_init(gen), 1);
	/* Sizes outside bigmont's keys are refused when set, not generated. */
	EXPECT_NE(EVP_PKEY_CTX_set_rsa_keygen_bits(gen, 511), 1) << "511 bits accepted";
	EXPECT_NE(EVP_PKEY_CTX_set_rsa_keygen_bits(gen, 16385), 1) << "16385 bits accepted";
	ASSERT_EQ(EVP_PKEY_CTX_set_rsa_keygen_bits(gen, 1024), 1);
	EXPECT_NE(EVP_PKEY_CTX_set_rsa_keygen_primes(gen, 3), 1) << "three primes accepted";
	drain_errors();
	/* e = 1: the default provider refuses it; its reason comes first,
	 * then bigmont's, which names the key it asked for. */
	{
		EVP_PKEY_CTX *bad = EVP_PKEY_CTX_new_from_name(bm_.ctx, "RSA", "provider=bigmont");
		ASSERT_NE(bad, nullptr);
		ASSERT_EQ(EVP_PKEY_keygen_init(bad), 1);
		ASSERT_EQ(EVP_PKEY_CTX_set_rsa_keygen_bits(bad, 1024), 1);
		BIGNUM *one = BN_new();
		ASSERT_EQ(BN_set_word(one, 1), 1);
		ASSERT_EQ(EVP_PKEY_CTX_set1_rsa_keygen_pubexp(bad, one), 1);
		BN_free(one);
		EVP_PKEY *none = nullptr;
		EXPECT_NE(EVP_PKEY_keygen(bad, &none), 1);
		EXPECT_EQ(none, nullptr);
		std::string errors = drain_errors();
		EXPECT_NE(errors.find("did not generate a key of 1024 bits and e = 1"), std::string::npos)
			<< errors;
		EXPECT_EQ(errors.find("internal error"), std::string::npos) << errors;
		EVP_PKEY_CTX_free(bad);
	}
	drain_errors();
	EVP_PKEY *key = nullptr;
	ASSERT_EQ(EVP_PKEY_keygen(gen, &key), 1) << drain_errors();
	EVP_PKEY_CTX_free(gen);
	EXPECT_STREQ(OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(key)), "bigmont");
	EXPECT_EQ(EVP_PKEY_get_bits(key), 1024);
	/* Signed by bigmont with it, verified by the default provider with its
	 * public half. */
	OSSL_PARAM *pub_params = key_params(key, EVP_PKEY_PUBLIC_KEY);
	EVP_PKEY *pub = nullptr;
	EVP_PKEY_CTX *from = EVP_PKEY_CTX_new_from_name(def_.ctx, "RSA", nullptr);
	ASSERT_EQ(EVP_PKEY_fromdata_init(from), 1);
	ASSERT_EQ(EVP_PKEY_fromdata(from, &pub, EVP_PKEY_PUBLIC_KEY, pub_params), 1);
	Side bm = { "bigmont", bm_.ctx, "provider=bigmont", key };
	Side def = { "default", def_.ctx, "provider=default", pub };
	Params p;
	p.md = "SHA256";
	ASSERT_NO_FATAL_FAILURE(expect_sign_verify(bm, def, p, digest("SHA256", Bytes(9, 9))));
	EVP_PKEY_CTX_free(from);
	OSSL_PARAM_free(pub_params);
	EVP_PKEY_free(pub);
	EVP_PKEY_free(key);
}

/* The default provider's progress reaches the caller of a generation
 * through bigmont (openssl genpkey prints it), and a callback that
 * returns 0 stops the generation. */
static int count_progress(EVP_PKEY_CTX *ctx)
{
	int *calls = static_cast<int *>(EVP_PKEY_CTX_get_app_data(ctx));
	++calls[0];
	if (EVP_PKEY_CTX_get_keygen_info(ctx, 0) >= 0 && EVP_PKEY_CTX_get_keygen_info(ctx, 1) >= 0)
		++calls[1];
	return calls[2];
}

TEST_F(ProviderTest, GenerationReportsProgressAndCanBeStopped)
{
	for (int go_on : { 1, 0 }) {
		SCOPED_TRACE(go_on ? "callback returns 1" : "callback returns 0");
		EVP_PKEY_CTX *gen = EVP_PKEY_CTX_new_from_name(bm_.ctx, "RSA", "provider=bigmont");
		ASSERT_NE(gen, nullptr);
		ASSERT_EQ(EVP_PKEY_keygen_init(gen), 1);
		ASSERT_EQ(EVP_PKEY_CTX_set_rsa_keygen_bits(gen, 1024), 1);
		int calls[3] = { 0, 0, go_on };
		EVP_PKEY_CTX_set_app_data(gen, calls);
		EVP_PKEY_CTX_set_cb(gen, count_progress);
		EVP_PKEY *key = nullptr;
		const int made = EVP_PKEY_keygen(gen, &key);
		EVP_PKEY_CTX_free(gen);
		if (go_on) {
			EXPECT_EQ(made, 1) << drain_errors();
			EXPECT_GT(calls[0], 2) << "no progress reported";
		} else {
			EXPECT_NE(made, 1) << "generation went on after the callback returned 0";
			EXPECT_EQ(key, nullptr);
			EXPECT_EQ(calls[0], 1) << "the callback was called again after returning 0";
			drain_errors();
		}
		EXPECT_EQ(calls[1], calls[0]) << "potential or iteration missing";
		EVP_PKEY_free(key);
	}
}

/* Load, use and unload the provider in fresh library contexts, several
 * times: under ASan (asan preset) with leak detection this is the clean
 * load/unload check. */
TEST(ProviderLoad, LoadsUsesAndUnloadsCleanly)
{
	std::string pem = read_file(key_path(1024));
	for (int round = 0; round < 3; round++) {
		Lib lib = make_lib(true);
		ASSERT_NE(lib.bigmont, nullptr) << drain_errors();
		EXPECT_EQ(OSSL_PROVIDER_available(lib.ctx, "bigmont"), 1);
		EXPECT_EQ(private_ops(lib.bigmont), 0u);
		EVP_PKEY *key = load_key(lib.ctx, pem);
		ASSERT_NE(key, nullptr);
		Side s = { "bigmont", lib.ctx, "provider=bigmont", key };
		Params p;
		p.pad = RSA_PKCS1_OAEP_PADDING;
		Bytes m = { 1, 2, 3 };
		Result c = run(s, Op::Encrypt, p, m);
		ASSERT_TRUE(c.ok) << describe(c);
		Result d = run(s, Op::Decrypt, p, c.out);
		ASSERT_TRUE(d.ok) << describe(d);
		EXPECT_EQ(d.out, m);
		EXPECT_EQ(private_ops(lib.bigmont), 1u);
		const char *name = nullptr;
		OSSL_PARAM params[] = { OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME,
								      (char **)&name, 0),
					OSSL_PARAM_construct_end() };
		EXPECT_EQ(OSSL_PROVIDER_get_params(lib.bigmont, params), 1);
		EXPECT_STREQ(name, "bigmont RSA provider");
		EVP_PKEY_free(key);
		free_lib(&lib);
	}
}

} // namespace

#endif /* BIGMONT_PROVIDER_DIR */
