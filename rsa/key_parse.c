/*
 * rsa_parse_der, rsa_parse_der_any: the four key structures, read with the
 * strict DER reader (rsa/der.c) into byte ranges of the caller's buffer.
 *
 *   RSAPrivateKey (PKCS #1, RFC 8017 A.1.2)  SEQUENCE { version 0, n, e, d,
 *       p, q, dp, dq, qInv }   -- version 1 (multi-prime) is refused
 *   PrivateKeyInfo (PKCS #8, RFC 5208; OneAsymmetricKey, RFC 5958)
 *       SEQUENCE { version 0 or 1, AlgorithmIdentifier { rsaEncryption,
 *       NULL }, OCTET STRING { RSAPrivateKey }, [0] attributes OPTIONAL,
 *       [1] publicKey OPTIONAL (version 1) }   -- unencrypted only; the
 *       attributes and the public key are skipped (the key checks stand
 *       on the private key's own numbers)
 *   RSAPublicKey (PKCS #1 A.1.1)  SEQUENCE { n, e }
 *   SubjectPublicKeyInfo (RFC 5280)  SEQUENCE { AlgorithmIdentifier {
 *       rsaEncryption, NULL }, BIT STRING { 0 unused bits, RSAPublicKey } }
 *
 * The NULL parameters of rsaEncryption may be absent, as OpenSSL reads them.
 *
 * Sizes are checked here so nothing larger than the modulus reaches the
 * arithmetic: n of 512..16384 bits, every other integer at most n's length.
 * Not constant time (a once-per-key read of the encoding).
 */
#include <stdio.h>
#include <string.h>

#include "der.h"
#include "rsa_internal.h"

/* 1.2.840.113549.1.1.1 */
static const uint8_t rsa_encryption_oid[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7,
					      0x0d, 0x01, 0x01, 0x01 };

static int bit_length(const struct der *v)
{
	int bits = (int)(v->len - 1) * 8;
	for (uint8_t top = v->p[0]; top; top >>= 1)
		bits++;
	return bits;
}

static struct rsa_bytes bytes_of(const struct der *v)
{
	struct rsa_bytes b = { v->p, v->len };
	return b;
}

static int read_modulus(struct rsa_key_parts *parts, struct der *in,
			const char *what, char *err, size_t errlen)
{
	struct der n;
	if (rsa_der_read_positive(&n, in, what, err, errlen))
		return -1;
	if (n.len > (RSA_KEY_MAX_BITS + 7) / 8) {
		rsa_set_error(err, errlen,
			      "the modulus has more than %d bits; only %d to %d bits are supported",
			      RSA_KEY_MAX_BITS, RSA_KEY_MIN_BITS, RSA_KEY_MAX_BITS);
		return -1;
	}
	if (bit_length(&n) < RSA_KEY_MIN_BITS || bit_length(&n) > RSA_KEY_MAX_BITS) {
		rsa_set_error(err, errlen, "the modulus has %d bits; only %d to %d bits are supported",
			      bit_length(&n), RSA_KEY_MIN_BITS, RSA_KEY_MAX_BITS);
		return -1;
	}
	parts->n = bytes_of(&n);
	return 0;
}

/* An integer no longer than the modulus. */
static int read_component(struct rsa_bytes *out, const struct rsa_key_parts *parts,
			  struct der *in, const char *what, char *err,
			  size_t errlen)
{
	struct der v;
	if (rsa_der_read_positive(&v, in, what, err, errlen))
		return -1;
	if (v.len > parts->n.len) {
		rsa_set_error(err, errlen, "%s is longer than the modulus", what);
		return -1;
	}
	*out = bytes_of(&v);
	return 0;
}

static int parse_rsa_private(struct rsa_key_parts *parts, struct der in,
			     char *err, size_t errlen)
{
	struct der seq;
	int version;
	if (rsa_der_read(&seq, &in, DER_SEQUENCE, "RSAPrivateKey", err, errlen) ||
	    rsa_der_expect_end(&in, "RSAPrivateKey", err, errlen) ||
	    rsa_der_read_small(&version, &seq, "RSAPrivateKey.version", err, errlen))
		return -1;
	if (version == 1) {
		rsa_set_error(err, errlen,
			      "multi-prime RSA keys (RSAPrivateKey version 1) are not supported");
		return -1;
	}
	if (version != 0) {
		rsa_set_error(err, errlen, "RSAPrivateKey: unknown version %d", version);
		return -1;
	}
	if (read_modulus(parts, &seq, "RSAPrivateKey.modulus", err, errlen) ||
	    read_component(&parts->e, parts, &seq, "RSAPrivateKey.publicExponent", err, errlen) ||
	    read_component(&parts->d, parts, &seq, "RSAPrivateKey.privateExponent", err, errlen) ||
	    read_component(&parts->p, parts, &seq, "RSAPrivateKey.prime1", err, errlen) ||
	    read_component(&parts->q, parts, &seq, "RSAPrivateKey.prime2", err, errlen) ||
	    read_component(&parts->dp, parts, &seq, "RSAPrivateKey.exponent1", err, errlen) ||
	    read_component(&parts->dq, parts, &seq, "RSAPrivateKey.exponent2", err, errlen) ||
	    read_component(&parts->qinv, parts, &seq, "RSAPrivateKey.coefficient", err, errlen))
		return -1;
	if (seq.len != 0) {
		rsa_set_error(err, errlen,
			      "RSAPrivateKey: data after the coefficient (otherPrimeInfos are not supported)");
		return -1;
	}
	return 0;
}

static int parse_rsa_public(struct rsa_key_parts *parts, struct der in,
			    char *err, size_t errlen)
{
	struct der seq;
	if (rsa_der_read(&seq, &in, DER_SEQUENCE, "RSAPublicKey", err, errlen) ||
	    rsa_der_expect_end(&in, "RSAPublicKey", err, errlen) ||
	    read_modulus(parts, &seq, "RSAPublicKey.modulus", err, errlen) ||
	    read_component(&parts->e, parts, &seq, "RSAPublicKey.publicExponent", err, errlen) ||
	    rsa_der_expect_end(&seq, "RSAPublicKey.publicExponent", err, errlen))
		return -1;
	return 0;
}

/* Algorithms a key may name instead of rsaEncryption, for the refusal. */
#define NOT_RSA "not an RSA key"
static const struct {
	uint8_t len;
	uint8_t oid[9];
	char kind[16];
	char name[16];
	char verdict[72];
} other_algorithms[] = {
	{ 9, { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a }, "an RSA-PSS key", "id-RSASSA-PSS",
	  "restricted to PSS signatures: only rsaEncryption keys are supported" },
	{ 7, { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 }, "an EC key", "id-ecPublicKey", NOT_RSA },
	{ 7, { 0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01 }, "a DSA key", "id-dsa", NOT_RSA },
	{ 7, { 0x2a, 0x86, 0x48, 0xce, 0x3e, 0x02, 0x01 }, "a DH key", "dhpublicnumber", NOT_RSA },
	{ 9, { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x03, 0x01 }, "a DH key", "dhKeyAgreement",
	  NOT_RSA },
	{ 3, { 0x2b, 0x65, 0x6e }, "an X25519 key", "id-X25519", NOT_RSA },
	{ 3, { 0x2b, 0x65, 0x6f }, "an X448 key", "id-X448", NOT_RSA },
	{ 3, { 0x2b, 0x65, 0x70 }, "an Ed25519 key", "id-Ed25519", NOT_RSA },
	{ 3, { 0x2b, 0x65, 0x71 }, "an Ed448 key", "id-Ed448", NOT_RSA },
};

/* The dotted form of an OID's contents ("1.2.840.113549.1.1.10"), cut
 * short with "..." where it does not fit out or an arc passes 2^56. */
static void oid_text(char *out, size_t outlen, const struct der *oid)
{
	size_t pos = 0;
	uint64_t arc = 0;
	out[0] = '\0';
	for (size_t i = 0; i < oid->len; i++) {
		if (arc >> 56 || pos + 24 >= outlen) { /* 24: room for one more arc */
			snprintf(out + pos, outlen - pos, "...");
			return;
		}
		arc = arc << 7 | (oid->p[i] & 0x7f);
		if (oid->p[i] & 0x80)
			continue;
		if (pos == 0) { /* the first two arcs share one number */
			uint64_t top = arc < 80 ? arc / 40 : 2;
			pos += (size_t)snprintf(out, outlen, "%llu.%llu", (unsigned long long)top,
						(unsigned long long)(arc - 40 * top));
		} else {
			pos += (size_t)snprintf(out + pos, outlen - pos, ".%llu",
						(unsigned long long)arc);
		}
		arc = 0;
	}
}

/* AlgorithmIdentifier { rsaEncryption, NULL or nothing }; another
 * algorithm is named in the refusal where we know it. */
static int read_algorithm(struct der *in, const char *what, char *err,
			  size_t errlen)
{
	struct der alg, oid, null;
	if (rsa_der_read(&alg, in, DER_SEQUENCE, what, err, errlen) ||
	    rsa_der_read(&oid, &alg, DER_OID, what, err, errlen))
		return -1;
	if (oid.len != sizeof(rsa_encryption_oid) ||
	    memcmp(oid.p, rsa_encryption_oid, oid.len) != 0) {
		char dotted[96];
		oid_text(dotted, sizeof(dotted), &oid);
		for (size_t i = 0; i < sizeof(other_algorithms) / sizeof(other_algorithms[0]); i++)
			if (oid.len == other_algorithms[i].len &&
			    memcmp(oid.p, other_algorithms[i].oid, oid.len) == 0) {
				rsa_set_error(err, errlen, "%s: %s (%s, %s), %s", what,
					      other_algorithms[i].kind, other_algorithms[i].name, dotted,
					      other_algorithms[i].verdict);
				return -1;
			}
		rsa_set_error(err, errlen,
			      "%s: not an RSA key (algorithm %s is not rsaEncryption)", what, dotted);
		return -1;
	}
	if (alg.len == 0)
		return 0;
	if (rsa_der_read(&null, &alg, DER_NULL, what, err, errlen))
		return -1;
	if (null.len != 0) {
		rsa_set_error(err, errlen, "%s: parameters are not NULL", what);
		return -1;
	}
	return rsa_der_expect_end(&alg, what, err, errlen);
}

/* [0] IMPLICIT SET OF Attribute, [1] IMPLICIT BIT STRING */
#define PKCS8_ATTRIBUTES 0xa0
#define PKCS8_PUBLIC_KEY 0x81

static int parse_pkcs8(struct rsa_key_parts *parts, struct der in, char *err,
		       size_t errlen)
{
	struct der seq, octets;
	int version;
	if (rsa_der_read(&seq, &in, DER_SEQUENCE, "PrivateKeyInfo", err, errlen) ||
	    rsa_der_expect_end(&in, "PrivateKeyInfo", err, errlen) ||
	    rsa_der_read_small(&version, &seq, "PrivateKeyInfo.version", err, errlen))
		return -1;
	if (version > 1) {
		rsa_set_error(err, errlen, "PrivateKeyInfo: unsupported version %d", version);
		return -1;
	}
	if (read_algorithm(&seq, "PrivateKeyInfo.privateKeyAlgorithm", err, errlen) ||
	    rsa_der_read(&octets, &seq, DER_OCTET_STRING, "PrivateKeyInfo.privateKey", err, errlen))
		return -1;
	struct der skipped;
	if (seq.len > 0 && seq.p[0] == PKCS8_ATTRIBUTES &&
	    rsa_der_read(&skipped, &seq, PKCS8_ATTRIBUTES, "PrivateKeyInfo.attributes", err, errlen))
		return -1;
	if (version == 1 && seq.len > 0 && seq.p[0] == PKCS8_PUBLIC_KEY &&
	    rsa_der_read(&skipped, &seq, PKCS8_PUBLIC_KEY, "PrivateKeyInfo.publicKey", err, errlen))
		return -1;
	if (rsa_der_expect_end(&seq, "PrivateKeyInfo.privateKey", err, errlen))
		return -1;
	return parse_rsa_private(parts, octets, err, errlen);
}

static int parse_spki(struct rsa_key_parts *parts, struct der in, char *err,
		      size_t errlen)
{
	struct der seq, bits;
	if (rsa_der_read(&seq, &in, DER_SEQUENCE, "SubjectPublicKeyInfo", err, errlen) ||
	    rsa_der_expect_end(&in, "SubjectPublicKeyInfo", err, errlen) ||
	    read_algorithm(&seq, "SubjectPublicKeyInfo.algorithm", err, errlen) ||
	    rsa_der_read(&bits, &seq, DER_BIT_STRING, "SubjectPublicKeyInfo.subjectPublicKey",
		     err, errlen) ||
	    rsa_der_expect_end(&seq, "SubjectPublicKeyInfo.subjectPublicKey", err, errlen))
		return -1;
	if (bits.len < 1 || bits.p[0] != 0) {
		rsa_set_error(err, errlen,
			      "SubjectPublicKeyInfo.subjectPublicKey: unused bits in the BIT STRING");
		return -1;
	}
	bits.p++;
	bits.len--;
	return parse_rsa_public(parts, bits, err, errlen);
}

int rsa_parse_der(struct rsa_key_parts *parts, rsa_key_format_t format,
		  const uint8_t *der, size_t len, char *err, size_t errlen)
{
	struct der in = { der, len };
	int rc;
	memset(parts, 0, sizeof(*parts));
	switch (format) {
	case RSA_FORMAT_PKCS1_PRIVATE: rc = parse_rsa_private(parts, in, err, errlen); break;
	case RSA_FORMAT_PKCS8_PRIVATE: rc = parse_pkcs8(parts, in, err, errlen); break;
	case RSA_FORMAT_PKCS1_PUBLIC: rc = parse_rsa_public(parts, in, err, errlen); break;
	case RSA_FORMAT_SPKI_PUBLIC: rc = parse_spki(parts, in, err, errlen); break;
	default:
		rsa_set_error(err, errlen, "unknown key format");
		rc = -1;
	}
	if (rc != 0) {
		memset(parts, 0, sizeof(*parts));
		return RSA_ERR_FORMAT;
	}
	parts->format = format;
	return RSA_OK;
}

/*
 * What a DER structure that is not one of the four key formats is, told by
 * its shape (seq = the outer SEQUENCE's contents), or NULL:
 *   EncryptedPrivateKeyInfo (RFC 5208)  { AlgorithmIdentifier, OCTET STRING }
 *   Certificate (RFC 5280)  { tbsCertificate { [0] version, ... },
 *       AlgorithmIdentifier, BIT STRING } -- a certificate request or CRL
 *       has the same outer shape, without the [0]
 *   ECPrivateKey (RFC 5915)  { version 1, OCTET STRING, ... }
 *   PFX (RFC 7292, PKCS #12)  { version 3, ContentInfo { pkcs7-..., ... }, ... }
 */
static const char *other_structure(struct der seq)
{
	struct der first;
	int version;
	if (seq.p[0] == DER_SEQUENCE) {
		if (rsa_der_read(&first, &seq, DER_SEQUENCE, "", NULL, 0) != 0 || seq.len == 0)
			return NULL;
		if (seq.p[0] == DER_OCTET_STRING)
			return "the key is encrypted (PKCS #8 EncryptedPrivateKeyInfo); decrypt it "
			       "first, e.g. openssl pkey -inform DER -in KEY -out PLAIN.pem";
		if (seq.p[0] != DER_SEQUENCE)
			return NULL;
		if (first.len > 0 && first.p[0] == 0xa0) /* [0] EXPLICIT version */
			return "an X.509 certificate, not a key (a certificate holds only the "
			       "public key; give the key file)";
		return "a signed X.509 structure (a certificate, certificate request or CRL), "
		       "not a key";
	}
	if (rsa_der_read_small(&version, &seq, "", NULL, 0) != 0 || seq.len == 0)
		return NULL;
	if (version == 0) {
		/* DSAPrivateKey (OpenSSL's): { 0, p, q, g, y, x }; an
		 * RSAPrivateKey has eight integers after its version. */
		struct der rest = seq, x;
		int integers = 0;
		while (rest.len > 0 && rsa_der_read(&x, &rest, DER_INTEGER, "", NULL, 0) == 0)
			integers++;
		if (integers == 5 && rest.len == 0)
			return "a DSA private key, not an RSA key";
	}
	if (version == 1 && seq.p[0] == DER_OCTET_STRING)
		return "an EC private key (RFC 5915 ECPrivateKey), not an RSA key";
	/* 1.2.840.113549.1.7: the PKCS #7 content types */
	static const uint8_t pkcs7[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07 };
	struct der info, type;
	if (version == 3 && rsa_der_read(&info, &seq, DER_SEQUENCE, "", NULL, 0) == 0 &&
	    rsa_der_read(&type, &info, DER_OID, "", NULL, 0) == 0 && type.len == sizeof(pkcs7) + 1 &&
	    memcmp(type.p, pkcs7, sizeof(pkcs7)) == 0)
		return "a PKCS #12 file, not a key; extract the key, e.g. openssl pkcs12 -in FILE "
		       "-nocerts -nodes -out KEY.pem";
	return NULL;
}

/* The structure a key whose outer SEQUENCE the strict reader refused
 * (its length runs past the end of a file cut short) begins as, from the
 * bytes after that SEQUENCE's header, so that the error names it:
 * SubjectPublicKeyInfo opens with a SEQUENCE, RSAPrivateKey and
 * PrivateKeyInfo with a one-byte version (the latter then a SEQUENCE),
 * RSAPublicKey with the modulus.  Too short to tell: RSAPrivateKey. */
static rsa_key_format_t truncated_format(const uint8_t *der, size_t len)
{
	if (len < 2 || der[0] != DER_SEQUENCE)
		return RSA_FORMAT_PKCS1_PRIVATE;
	const size_t head = der[1] < 0x80 ? 2 : 2 + (size_t)(der[1] & 0x7f);
	if (len <= head)
		return RSA_FORMAT_PKCS1_PRIVATE;
	const uint8_t *seq = der + head;
	const size_t n = len - head;
	if (seq[0] == DER_SEQUENCE)
		return RSA_FORMAT_SPKI_PUBLIC;
	if (seq[0] != DER_INTEGER || n < 2)
		return RSA_FORMAT_PKCS1_PRIVATE;
	if (seq[1] != 1) /* not a one-byte version: the modulus */
		return RSA_FORMAT_PKCS1_PUBLIC;
	return n > 3 && seq[3] == DER_SEQUENCE ? RSA_FORMAT_PKCS8_PRIVATE
					       : RSA_FORMAT_PKCS1_PRIVATE;
}

/*
 * The shape decides the format: the outer SEQUENCE starts with a SEQUENCE
 * (SPKI) or an INTEGER; after that INTEGER comes a SEQUENCE (PKCS #8), or
 * one more element and the end (RSAPublicKey), or more (RSAPrivateKey).
 * Shapes that are known not to be an RSA key are refused by name first;
 * whatever else is malformed is reported by the chosen format's reader
 * (a key cut short by the format it begins as: truncated_format).
 */
int rsa_parse_der_any(struct rsa_key_parts *parts, const uint8_t *der,
		      size_t len, char *err, size_t errlen)
{
	struct der in = { der, len }, seq, first, second;
	rsa_key_format_t format = RSA_FORMAT_PKCS1_PRIVATE;
	memset(parts, 0, sizeof(*parts));
	if (len == 0) {
		rsa_set_error(err, errlen, "empty key");
		return RSA_ERR_FORMAT;
	}
	if (rsa_der_read(&seq, &in, DER_SEQUENCE, "key", err, errlen) == 0 && seq.len > 0) {
		const char *other = other_structure(seq);
		if (other != NULL) {
			rsa_set_error(err, errlen, "DER: %s", other);
			return RSA_ERR_FORMAT;
		}
		if (seq.p[0] == DER_SEQUENCE) {
			format = RSA_FORMAT_SPKI_PUBLIC;
		} else if (rsa_der_read(&first, &seq, DER_INTEGER, "key", NULL, 0) == 0) {
			if (seq.len > 0 && seq.p[0] == DER_SEQUENCE)
				format = RSA_FORMAT_PKCS8_PRIVATE;
			else if (rsa_der_read(&second, &seq, DER_INTEGER, "key", NULL, 0) == 0 &&
				 seq.len == 0)
				format = RSA_FORMAT_PKCS1_PUBLIC;
		}
	} else {
		format = truncated_format(der, len);
	}
	return rsa_parse_der(parts, format, der, len, err, errlen);
}
