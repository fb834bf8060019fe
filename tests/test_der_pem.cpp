// bigmont-test: once
/*
 * Unit tests of the key reader (rsa/der.c, rsa/pem.c, rsa/key_parse.c):
 * every rejection rule with a hand-built encoding that breaks exactly that
 * rule, next to the accepted form it was derived from, so each test fails
 * if the rule is dropped and also if the reader rejects too much.
 */
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "../rsa/der.h"
}
#include "../rsa/rsa_internal.h"
#include "testutil.h"

namespace {

using Bytes = std::vector<uint8_t>;

Bytes cat(std::initializer_list<Bytes> parts)
{
	Bytes out;
	for (const auto &p : parts)
		out.insert(out.end(), p.begin(), p.end());
	return out;
}

Bytes len_of(size_t n)
{
	if (n < 0x80)
		return { static_cast<uint8_t>(n) };
	Bytes raw;
	for (size_t v = n; v; v >>= 8)
		raw.insert(raw.begin(), static_cast<uint8_t>(v));
	raw.insert(raw.begin(), static_cast<uint8_t>(0x80 | raw.size()));
	return raw;
}

Bytes tlv(uint8_t tag, const Bytes &content)
{
	return cat({ { tag }, len_of(content.size()), content });
}

/* A positive integer's DER from its magnitude bytes (sign byte added). */
Bytes integer(Bytes mag)
{
	if (mag.empty() || (mag[0] & 0x80))
		mag.insert(mag.begin(), 0);
	return tlv(DER_INTEGER, mag);
}

Bytes small(uint8_t v) { return tlv(DER_INTEGER, { v }); }

/* An odd 512-bit "modulus" (the reader does not check consistency). */
Bytes modulus(int bits = 512)
{
	Bytes m((bits + 7) / 8, 0x5a);
	m[0] = static_cast<uint8_t>(1u << ((bits - 1) % 8));
	m.back() |= 1;
	return m;
}

const Bytes kRsaOid = tlv(DER_OID, { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 });
const Bytes kAlg = tlv(DER_SEQUENCE, cat({ kRsaOid, tlv(DER_NULL, {}) }));

Bytes private_body(uint8_t version = 0, Bytes n = modulus())
{
	return cat({ small(version), integer(n), integer({ 1, 0, 1 }), integer({ 7 }),
		     integer({ 11 }), integer({ 13 }), integer({ 3 }), integer({ 5 }),
		     integer({ 9 }) });
}
Bytes pkcs1_private(uint8_t version = 0) { return tlv(DER_SEQUENCE, private_body(version)); }
Bytes pkcs1_public(Bytes n = modulus())
{
	return tlv(DER_SEQUENCE, cat({ integer(n), integer({ 3 }) }));
}
Bytes pkcs8(const Bytes &alg = kAlg)
{
	return tlv(DER_SEQUENCE, cat({ small(0), alg, tlv(DER_OCTET_STRING, pkcs1_private()) }));
}
Bytes spki(const Bytes &alg = kAlg, uint8_t unused = 0)
{
	return tlv(DER_SEQUENCE, cat({ alg, tlv(DER_BIT_STRING, cat({ { unused }, pkcs1_public() })) }));
}

/* rsa_parse_der_any: RSA_OK, or the reason. */
std::string parse(const Bytes &der, rsa_key_format_t *format = nullptr)
{
	rsa_key_parts parts;
	char err[256] = "";
	int rc = rsa_parse_der_any(&parts, der.data(), der.size(), err, sizeof(err));
	if (rc == RSA_OK && format)
		*format = parts.format;
	return rc == RSA_OK ? "ok" : (err[0] ? err : "(no reason)");
}

void expect_rejected(const Bytes &der, const char *what)
{
	std::string why = parse(der);
	EXPECT_NE(why.find(what), std::string::npos) << "expected '" << what << "', got: " << why;
}
/* Variadic so a braced Bytes{...} argument may hold commas; the trace
 * gives the caller's line. */
#define EXPECT_REJECTED(...)                                                  \
	do {                                                                  \
		SCOPED_TRACE("EXPECT_REJECTED");                              \
		expect_rejected(__VA_ARGS__);                                 \
	} while (0)

TEST(Der, AcceptsTheFourStructures)
{
	rsa_key_format_t f{};
	EXPECT_EQ(parse(pkcs1_private(), &f), "ok");
	EXPECT_EQ(f, RSA_FORMAT_PKCS1_PRIVATE);
	EXPECT_EQ(parse(pkcs8(), &f), "ok");
	EXPECT_EQ(f, RSA_FORMAT_PKCS8_PRIVATE);
	EXPECT_EQ(parse(pkcs1_public(), &f), "ok");
	EXPECT_EQ(f, RSA_FORMAT_PKCS1_PUBLIC);
	EXPECT_EQ(parse(spki(), &f), "ok");
	EXPECT_EQ(f, RSA_FORMAT_SPKI_PUBLIC);
	/* The parts point at magnitudes without the sign byte. */
	rsa_key_parts parts;
	Bytes der = pkcs1_private();
	ASSERT_EQ(rsa_parse_der(&parts, RSA_FORMAT_PKCS1_PRIVATE, der.data(), der.size(), nullptr, 0),
		  RSA_OK);
	EXPECT_EQ(parts.n.len, 64u);
	EXPECT_EQ(parts.e.len, 3u);
	EXPECT_EQ(parts.qinv.len, 1u);
	EXPECT_EQ(parts.qinv.p[0], 9);
}

TEST(Der, WrongTags)
{
	Bytes d = pkcs1_private();
	d[0] = 0x31; /* SET instead of SEQUENCE */
	EXPECT_REJECTED(d, "wrong tag 0x31");
	Bytes v = private_body();
	v[0] = DER_OCTET_STRING; /* version not an INTEGER */
	EXPECT_REJECTED(tlv(DER_SEQUENCE, v), "RSAPrivateKey.version: wrong tag 0x04");
	EXPECT_REJECTED(Bytes{ 0x02, 0x01, 0x00 }, "wrong tag 0x02");
	/* A high-tag-number form is just a wrong tag. */
	EXPECT_REJECTED(Bytes{ 0x1f, 0x10, 0x00 }, "wrong tag 0x1f");
}

TEST(Der, Lengths)
{
	const Bytes body = private_body(0, modulus(2048));
	ASSERT_GT(body.size(), 255u);
	ASSERT_LT(body.size(), 65536u);
	const uint8_t hi = static_cast<uint8_t>(body.size() >> 8), lo = static_cast<uint8_t>(body.size());
	EXPECT_EQ(parse(cat({ { 0x30, 0x82, hi, lo }, body })), "ok");
	EXPECT_REJECTED(cat({ { 0x30, 0x83, 0, hi, lo }, body }), "non-minimal length (leading zero");
	EXPECT_REJECTED(cat({ { 0x30, 0x85, 0, 0, 0, hi, lo }, body }), "overlong length");
	EXPECT_REJECTED(cat({ { 0x30, 0x80 }, body, { 0, 0 } }), "indefinite length");
	EXPECT_REJECTED(cat({ { 0x30, 0x82, hi, static_cast<uint8_t>(lo + 1) }, body }),
			"runs past the end");
	/* Long form for a length below 128. */
	EXPECT_REJECTED(cat({ { 0x30, 0x81, 0x05 }, integer({ 3 }), integer({ 3 }) }),
			"non-minimal length (5 in long form)");
	/* Truncated length bytes, truncated header. */
	EXPECT_REJECTED(Bytes({ 0x30, 0x82, 0x01 }), "truncated length");
	EXPECT_REJECTED(Bytes({ 0x30 }), "truncated");
}

/* A key cut short is named as what it begins as: the outer length runs
 * past the end, and the message names the structure, not RSAPrivateKey
 * for every file. */
TEST(Der, TruncatedKeysNameTheirStructure)
{
	const struct {
		Bytes der;
		const char *name;
	} keys[] = { { pkcs1_private(), "RSAPrivateKey: length" },
		     { pkcs8(), "PrivateKeyInfo: length" },
		     { pkcs1_public(), "RSAPublicKey: length" },
		     { spki(), "SubjectPublicKeyInfo: length" } };
	for (const auto &k : keys) {
		SCOPED_TRACE(k.name);
		for (size_t cut : { size_t{ 1 }, size_t{ 8 }, k.der.size() / 2 }) {
			const Bytes t(k.der.begin(), k.der.end() - static_cast<std::ptrdiff_t>(cut));
			EXPECT_REJECTED(t, k.name);
			EXPECT_REJECTED(t, "runs past the end");
		}
	}
}

TEST(Der, TrailingBytes)
{
	EXPECT_REJECTED(cat({ pkcs1_private(), { 0x00 } }), "trailing data after RSAPrivateKey");
	EXPECT_REJECTED(cat({ pkcs1_public(), { 0x05, 0x00 } }), "trailing data after RSAPublicKey");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ private_body(), integer({ 1 }) })),
			"otherPrimeInfos");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ integer(modulus()), integer({ 3 }), integer({ 3 }) })),
			"RSAPrivateKey");
	/* A public key field is version 1's (RFC 5958) only. */
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ small(0), kAlg, tlv(DER_OCTET_STRING, pkcs1_private()),
						tlv(0xa0, {}), tlv(0x81, { 0 }) })),
			"trailing data after PrivateKeyInfo.privateKey");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ small(1), kAlg, tlv(DER_OCTET_STRING, pkcs1_private()),
						tlv(0x81, { 0 }), tlv(0xa0, {}) })),
			"trailing data after PrivateKeyInfo.privateKey");
}

/* PKCS #8's optional fields, which OpenSSL writes and reads: attributes
 * ([0], e.g. a friendlyName) and, in version 1 (RFC 5958), the public key
 * ([1]); both are skipped. */
TEST(Der, Pkcs8OptionalFields)
{
	const Bytes attrs = tlv(0xa0, tlv(DER_SEQUENCE, cat({ tlv(DER_OID, { 0x2a, 0x03 }),
							      tlv(0x31, tlv(0x0c, { 'k' })) })));
	const Bytes pub = tlv(0x81, cat({ { 0 }, pkcs1_public() }));
	const Bytes key = tlv(DER_OCTET_STRING, pkcs1_private());
	EXPECT_EQ(parse(tlv(DER_SEQUENCE, cat({ small(0), kAlg, key, attrs }))), "ok");
	EXPECT_EQ(parse(tlv(DER_SEQUENCE, cat({ small(1), kAlg, key }))), "ok");
	EXPECT_EQ(parse(tlv(DER_SEQUENCE, cat({ small(1), kAlg, key, pub }))), "ok");
	EXPECT_EQ(parse(tlv(DER_SEQUENCE, cat({ small(1), kAlg, key, attrs, pub }))), "ok");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ small(1), kAlg, key, pub, pub })),
			"trailing data after PrivateKeyInfo.privateKey");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ small(0), kAlg, key, Bytes({ 0xa0, 0x05, 0x30 }) })),
			"PrivateKeyInfo.attributes");
}

TEST(Der, Integers)
{
	/* Negative: top bit set with no sign byte. */
	Bytes m = modulus();
	m[0] = 0x80;
	Bytes neg = tlv(DER_SEQUENCE, cat({ tlv(DER_INTEGER, m), integer({ 3 }) }));
	EXPECT_REJECTED(neg, "integer is negative");
	/* Non-minimal: a sign byte that is not needed. */
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ integer(modulus()), tlv(DER_INTEGER, { 0, 3 }) })),
			"non-minimal integer encoding");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ integer(modulus()), tlv(DER_INTEGER, { 0, 0, 0x83 }) })),
			"non-minimal integer encoding");
	/* Zero and empty. */
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ integer(modulus()), tlv(DER_INTEGER, { 0 }) })),
			"integer is zero");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ integer(modulus()), tlv(DER_INTEGER, {}) })),
			"empty integer");
	/* A needed sign byte is fine. */
	EXPECT_EQ(parse(tlv(DER_SEQUENCE, cat({ integer(modulus()), tlv(DER_INTEGER, { 0, 0x83 }) }))), "ok");
	/* Longer than the modulus. */
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ integer(modulus()), integer(Bytes(65, 1)) })),
			"longer than the modulus");
}

TEST(Der, VersionsAndMultiPrime)
{
	EXPECT_REJECTED(pkcs1_private(1), "multi-prime");
	EXPECT_REJECTED(pkcs1_private(2), "unknown version 2");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ tlv(DER_INTEGER, { 0, 0 }), integer(modulus()) })),
			"non-minimal integer");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ small(2), kAlg, tlv(DER_OCTET_STRING, pkcs1_private()) })),
			"PrivateKeyInfo: unsupported version 2");
}

TEST(Der, ModulusSizeLimits)
{
	EXPECT_EQ(parse(pkcs1_public(modulus(512))), "ok");
	EXPECT_EQ(parse(pkcs1_public(modulus(16384))), "ok");
	EXPECT_REJECTED(pkcs1_public(modulus(511)), "the modulus has 511 bits");
	EXPECT_REJECTED(pkcs1_public(modulus(256)), "the modulus has 256 bits");
	EXPECT_REJECTED(pkcs1_public(modulus(16385)), "more than 16384 bits");
}

TEST(Der, AlgorithmIdentifier)
{
	Bytes oid = kRsaOid;
	oid.back() = 0x0b; /* sha256WithRSAEncryption */
	EXPECT_REJECTED(spki(tlv(DER_SEQUENCE, cat({ oid, tlv(DER_NULL, {}) }))), "not an RSA key");
	/* Parameters left out, as OpenSSL reads them. */
	EXPECT_EQ(parse(pkcs8(tlv(DER_SEQUENCE, kRsaOid))), "ok");
	EXPECT_EQ(parse(spki(tlv(DER_SEQUENCE, kRsaOid))), "ok");
	EXPECT_REJECTED(spki(tlv(DER_SEQUENCE, cat({ kRsaOid, tlv(DER_NULL, { 0 }) }))),
			"parameters are not NULL");
	EXPECT_REJECTED(spki(tlv(DER_SEQUENCE, cat({ kRsaOid, tlv(DER_NULL, {}), tlv(DER_NULL, {}) }))),
			"trailing data");
	EXPECT_REJECTED(spki(kAlg, 1), "unused bits");
}

/* Another algorithm in PKCS #8 or SPKI is named, by name where we know it,
 * else by its dotted OID. */
TEST(Der, OtherAlgorithmsNamed)
{
	auto alg = [](const Bytes &oid) { return tlv(DER_SEQUENCE, tlv(DER_OID, oid)); };
	const Bytes pss = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a };
	EXPECT_REJECTED(pkcs8(alg(pss)),
			"PrivateKeyInfo.privateKeyAlgorithm: an RSA-PSS key (id-RSASSA-PSS, "
			"1.2.840.113549.1.1.10), restricted to PSS signatures");
	EXPECT_REJECTED(spki(alg(pss)), "SubjectPublicKeyInfo.algorithm: an RSA-PSS key");
	EXPECT_REJECTED(pkcs8(alg({ 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 })),
			"an EC key (id-ecPublicKey, 1.2.840.10045.2.1), not an RSA key");
	EXPECT_REJECTED(pkcs8(alg({ 0x2b, 0x65, 0x70 })), "an Ed25519 key (id-Ed25519, 1.3.101.112)");
	/* Named in a version 1 (RFC 5958) PrivateKeyInfo too, which is refused
	 * for an RSA key. */
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ small(1), alg({ 0x2b, 0x65, 0x70 }),
						tlv(DER_OCTET_STRING, Bytes(34, 4)) })),
			"an Ed25519 key");
	EXPECT_REJECTED(spki(alg({ 0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01 })),
			"a DSA key (id-dsa, 1.2.840.10040.4.1)");
	/* Unknown: the dotted OID, with a first arc of 2 and a large arc. */
	EXPECT_REJECTED(spki(alg({ 0x88, 0x37, 0x83, 0x94, 0x11 })),
			"not an RSA key (algorithm 2.999.51729 is not rsaEncryption)");
	/* An OID too long to print whole is cut short. */
	EXPECT_REJECTED(spki(alg(Bytes(200, 0x7f))), "algorithm 2.47.127.127.127");
	EXPECT_REJECTED(spki(alg(Bytes(200, 0x7f))), "127... is not rsaEncryption");
	EXPECT_REJECTED(spki(alg(Bytes(20, 0xff))), "algorithm ... is not rsaEncryption");
}

/* Structures that are not one of the four key formats, told by shape. */
TEST(Der, OtherStructuresNamed)
{
	const Bytes pbes2 = tlv(DER_SEQUENCE,
				tlv(DER_OID, { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d }));
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ pbes2, tlv(DER_OCTET_STRING, Bytes(64, 7)) })),
			"DER: the key is encrypted (PKCS #8 EncryptedPrivateKeyInfo)");
	const Bytes tbs = tlv(DER_SEQUENCE, cat({ tlv(0xa0, small(2)), integer({ 5 }) }));
	const Bytes sig = tlv(DER_BIT_STRING, { 0, 1, 2 });
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ tbs, kAlg, sig })), "DER: an X.509 certificate, not a key");
	/* OpenSSL's DSAPrivateKey: { 0, p, q, g, y, x }. */
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ small(0), integer(modulus()), integer({ 7 }),
						integer({ 5 }), integer({ 9 }), integer({ 3 }) })),
			"DER: a DSA private key, not an RSA key");
	const Bytes csr_info = tlv(DER_SEQUENCE, cat({ small(0), tlv(DER_SEQUENCE, {}) }));
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ csr_info, kAlg, sig })),
			"DER: a signed X.509 structure (a certificate, certificate request or CRL)");
	EXPECT_REJECTED(tlv(DER_SEQUENCE, cat({ small(1), tlv(DER_OCTET_STRING, Bytes(32, 9)),
						tlv(0xa0, tlv(DER_OID, { 0x2a })) })),
			"DER: an EC private key (RFC 5915 ECPrivateKey)");
	/* Near misses still go to the key readers: an RSAPrivateKey whose
	 * version is 1 is multi-prime, not EC. */
	EXPECT_REJECTED(pkcs1_private(1), "multi-prime");
}

TEST(Der, EmptyInput)
{
	EXPECT_REJECTED(Bytes{}, "empty key");
}

/* ---- base64 and PEM ---------------------------------------------------- */

std::string b64(const std::string &text, long *n = nullptr)
{
	std::vector<uint8_t> out(text.size() + 3);
	char err[256] = "";
	long got = rsa_base64_decode(out.data(), text.data(), text.size(), text.data(), err,
				     sizeof(err));
	if (n)
		*n = got;
	return got < 0 ? std::string("error: ") + err
		       : std::string(reinterpret_cast<char *>(out.data()), static_cast<size_t>(got));
}

TEST(Base64, StrictDecoding)
{
	EXPECT_EQ(b64("aGVsbG8="), "hello");
	EXPECT_EQ(b64("aGVs\nbG8h\r\n"), "hell\x6f!");
	EXPECT_EQ(b64("aGVsbA=="), "hell");
	EXPECT_EQ(b64(" aGVs bA== \n"), "hell");
	EXPECT_NE(b64("aGVs*bA==").find("invalid base64 character 0x2a"), std::string::npos);
	EXPECT_NE(b64("aGVs-bA==").find("invalid base64 character"), std::string::npos);
	/* Its place as a person looks for it: line and column, from 1. */
	EXPECT_NE(b64("aGVs*bA==").find("at line 1, column 5"), std::string::npos);
	EXPECT_NE(b64("aGVs\nbG8h\r\n*").find("at line 3, column 1"), std::string::npos);
	EXPECT_NE(b64("aGVsbA=").find("bad base64 padding"), std::string::npos);
	EXPECT_NE(b64("aGVsbA===").find("bad base64 padding"), std::string::npos);
	/* Three or four '=' in a whole quantum: not the last character
	 * dropped, nor nothing decoded. */
	EXPECT_NE(b64("aGVsbG8hZ===").find("bad base64 padding"), std::string::npos);
	EXPECT_NE(b64("====").find("bad base64 padding"), std::string::npos);
	EXPECT_NE(b64("aGVsbG8").find("bad base64 padding"), std::string::npos);
	EXPECT_NE(b64("aGVsbB==").find("non-zero unused bits"), std::string::npos);
	EXPECT_NE(b64("aGVsbG9=").find("non-zero unused bits"), std::string::npos);
	EXPECT_NE(b64("aGVs=bA=").find("after '=' padding"), std::string::npos);
	EXPECT_NE(b64("\n\n").find("empty base64"), std::string::npos);
}

std::string pem_of(const Bytes &der, const std::string &label, const std::string &end = "")
{
	static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	std::string s;
	for (size_t i = 0; i < der.size(); i += 3) {
		uint32_t v = der[i] << 16;
		if (i + 1 < der.size()) v |= der[i + 1] << 8;
		if (i + 2 < der.size()) v |= der[i + 2];
		s += tbl[v >> 18];
		s += tbl[(v >> 12) & 63];
		s += i + 1 < der.size() ? tbl[(v >> 6) & 63] : '=';
		s += i + 2 < der.size() ? tbl[v & 63] : '=';
	}
	std::string out = "-----BEGIN " + label + "-----\n";
	for (size_t i = 0; i < s.size(); i += 64)
		out += s.substr(i, 64) + "\n";
	return out + "-----END " + (end.empty() ? label : end) + "-----\n";
}

std::string pem(const std::string &text, rsa_key_format_t *format = nullptr,
		Bytes *der_out = nullptr)
{
	uint8_t *der = nullptr;
	size_t len = 0;
	rsa_key_format_t f{};
	char err[256] = "";
	int rc = rsa_pem_decode(&der, &len, &f, text.data(), text.size(), err, sizeof(err));
	if (rc == RSA_OK) {
		if (format)
			*format = f;
		if (der_out)
			der_out->assign(der, der + len);
		free(der);
		return "ok";
	}
	EXPECT_EQ(der, nullptr);
	return err;
}

TEST(Pem, LabelsAndArmour)
{
	const Bytes der = pkcs1_private();
	rsa_key_format_t f{};
	Bytes got;
	EXPECT_EQ(pem("junk before\n" + pem_of(der, "RSA PRIVATE KEY") + "junk after", &f, &got), "ok");
	EXPECT_EQ(f, RSA_FORMAT_PKCS1_PRIVATE);
	EXPECT_EQ(got, der);
	EXPECT_EQ(pem(pem_of(der, "PRIVATE KEY"), &f), "ok");
	EXPECT_EQ(f, RSA_FORMAT_PKCS8_PRIVATE);
	EXPECT_EQ(pem(pem_of(der, "RSA PUBLIC KEY"), &f), "ok");
	EXPECT_EQ(f, RSA_FORMAT_PKCS1_PUBLIC);
	EXPECT_EQ(pem(pem_of(der, "PUBLIC KEY"), &f), "ok");
	EXPECT_EQ(f, RSA_FORMAT_SPKI_PUBLIC);

	EXPECT_NE(pem(pem_of(der, "CERTIFICATE")).find("no key block (found 'CERTIFICATE'"),
		  std::string::npos);
	EXPECT_NE(pem(pem_of(der, "EC PRIVATE KEY")).find("'EC PRIVATE KEY' is not an RSA key"),
		  std::string::npos);
	EXPECT_NE(pem(pem_of(der, "RSA PRIVATE KEY", "PRIVATE KEY")).find("END label does not match"),
		  std::string::npos);
	EXPECT_NE(pem(pem_of(der, "ENCRYPTED PRIVATE KEY")).find("encrypted"), std::string::npos);
	std::string proc = pem_of(der, "RSA PRIVATE KEY");
	proc.insert(proc.find('\n') + 1,
		    "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n");
	EXPECT_NE(pem(proc).find("encrypted (Proc-Type"), std::string::npos);
	std::string hdr = pem_of(der, "RSA PRIVATE KEY");
	hdr.insert(hdr.find('\n') + 1, "Comment: x\n\n");
	EXPECT_NE(pem(hdr).find("headers"), std::string::npos);
	std::string whole = pem_of(der, "RSA PRIVATE KEY");
	EXPECT_NE(pem(whole.substr(0, whole.size() / 2)).find("no END line"), std::string::npos);
	EXPECT_NE(pem("no armour here").find("no '-----BEGIN' line"), std::string::npos);
	EXPECT_NE(pem("-----BEGIN RSA PRIVATE KEY\nabc").find("malformed BEGIN"), std::string::npos);
	EXPECT_NE(pem("").find("no '-----BEGIN' line"), std::string::npos);
	std::string garbage = whole;
	garbage[garbage.find('\n') + 5] = '!';
	EXPECT_NE(pem(garbage).find("invalid base64 character 0x21 at line 2, column 5"),
		  std::string::npos)
		<< pem(garbage);
	/* Counted from the file's start, not the block's. */
	EXPECT_NE(pem("Bag Attributes\n\n" + garbage).find("at line 4, column 5"), std::string::npos)
		<< pem("Bag Attributes\n\n" + garbage);
	EXPECT_NE(pem("-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n").find("empty base64"),
		  std::string::npos);
}

/* Binary bytes beside the armour (a DER key before or after a PEM one, a
 * NUL) are refused, not skipped as text between blocks: two keys in one
 * file must never read as one of them.  Whitespace of every kind, UTF-8
 * and a BOM are text. */
TEST(Pem, BinaryBesideTheArmourIsRefused)
{
	const Bytes der = pkcs1_private();
	const std::string key = pem_of(der, "RSA PRIVATE KEY");
	const std::string raw(der.begin(), der.end());
	const std::string der_then_pem = pem(raw + key), pem_then_der = pem(key + raw);
	EXPECT_NE(der_then_pem.find("is not text"), std::string::npos) << der_then_pem;
	EXPECT_NE(der_then_pem.find("at line 1, column "), std::string::npos) << der_then_pem;
	EXPECT_NE(pem_then_der.find("is not text"), std::string::npos) << pem_then_der;
	EXPECT_NE(pem(key + std::string(1, '\0')).find("byte 0x00"), std::string::npos);
	EXPECT_NE(pem(key + "\x7f").find("byte 0x7f"), std::string::npos);
	EXPECT_EQ(pem("\xef\xbb\xbf# caf\xc3\xa9\t\v\f\r\n" + key), "ok");
}

/* A file with other blocks around its one key: the key is found and the
 * others skipped, whatever they hold, but framed as strictly as the key. */
TEST(Pem, BundlesAndOtherBlocks)
{
	const Bytes der = pkcs1_private();
	const std::string key = pem_of(der, "RSA PRIVATE KEY");
	const std::string cert = pem_of(Bytes(300, 0xc3), "CERTIFICATE");
	const std::string params = pem_of(Bytes(10, 0x06), "EC PARAMETERS");
	/* What openssl pkcs12 -nodes writes: bag attributes, certificate, key. */
	const std::string bag = "Bag Attributes\n    localKeyID: 01 02 03\nsubject=CN = x\n"
				"issuer=CN = x\n" + cert + "Bag Attributes\n    localKeyID: 01 02 03\n"
				"Key Attributes: <No Attributes>\n" + pem_of(der, "PRIVATE KEY");
	rsa_key_format_t f{};
	Bytes got;
	for (const std::string &text : { cert + key, key + cert, cert + cert + key + cert,
					  params + key, "text\n" + cert + "more\n" + key + "end\n" }) {
		got.clear();
		EXPECT_EQ(pem(text, &f, &got), "ok") << text;
		EXPECT_EQ(f, RSA_FORMAT_PKCS1_PRIVATE);
		EXPECT_EQ(got, der);
	}
	EXPECT_EQ(pem(bag, &f, &got), "ok");
	EXPECT_EQ(f, RSA_FORMAT_PKCS8_PRIVATE);
	/* A skipped block needs no valid base64, but a frame. */
	EXPECT_EQ(pem("-----BEGIN X509 CRL-----\n*not base64*\n-----END X509 CRL-----\n" + key), "ok");
	EXPECT_NE(pem(key + "-----BEGIN CERTIFICATE-----\nMIIB\n").find("no END line for 'CERTIFICATE'"),
		  std::string::npos);
	EXPECT_NE(pem(pem_of(Bytes(3, 1), "CERTIFICATE", "X509 CRL") + key).find("END label does not match"),
		  std::string::npos);
	/* Two keys, in any pair of formats, are refused by name. */
	EXPECT_NE(pem(key + cert + pem_of(pkcs1_public(), "PUBLIC KEY"))
			  .find("two key blocks ('RSA PRIVATE KEY', then 'PUBLIC KEY')"),
		  std::string::npos);
	EXPECT_NE(pem(key + key).find("two key blocks"), std::string::npos);
	EXPECT_NE(pem(key + pem_of(Bytes(3, 1), "EC PRIVATE KEY")).find("two key blocks"),
		  std::string::npos);
	/* Only other blocks: named. */
	EXPECT_NE(pem(cert + params).find("no key block (found 'CERTIFICATE'"), std::string::npos);
}

/* The PEM loader ties the label to the structure: a PUBLIC KEY label on a
 * private body is a format error, not a silent reinterpretation, and the
 * error names what the body is. */
TEST(Pem, LabelMustMatchStructure)
{
	const struct {
		Bytes body;
		const char *label, *says;
	} cases[] = {
		{ pkcs1_private(), "PUBLIC KEY",
		  "PEM: a block labelled as a SubjectPublicKeyInfo PUBLIC KEY holds a PKCS#1 RSA "
		  "PRIVATE KEY" },
		{ tlv(DER_SEQUENCE, cat({ small(0), kAlg, tlv(DER_OCTET_STRING, pkcs1_private()) })),
		  "RSA PRIVATE KEY",
		  "PEM: a block labelled as a PKCS#1 RSA PRIVATE KEY holds a PKCS#8 PRIVATE KEY" },
		{ pkcs1_private(), "PRIVATE KEY",
		  "PEM: a block labelled as a PKCS#8 PRIVATE KEY holds a PKCS#1 RSA PRIVATE KEY" },
		/* Not a key in any format: the label's format's reason. */
		{ tlv(DER_SEQUENCE, small(7)), "PRIVATE KEY", "PrivateKeyInfo" },
	};
	for (const auto &c : cases) {
		std::string text = pem_of(c.body, c.label);
		rsa_key *key = nullptr;
		char err[256] = "";
		EXPECT_EQ(rsa_key_load_pem(&key, text.data(), text.size(), err, sizeof(err)),
			  RSA_ERR_FORMAT)
			<< c.label;
		EXPECT_EQ(key, nullptr);
		EXPECT_NE(std::string(err).find(c.says), std::string::npos) << err;
	}
}

} // namespace
