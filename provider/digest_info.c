/*
 * bm_digest_info: the DER DigestInfo that PKCS #1 v1.5 signatures carry
 * (RFC 8017 9.2): SEQUENCE { AlgorithmIdentifier { digest OID, NULL },
 * OCTET STRING digest }, encoded by libcrypto's X509_SIG type, the same
 * encoding RSA_sign produces (NULL parameters for every digest).
 */
#include <openssl/objects.h>
#include <openssl/x509.h>

#include "prov.h"

int bm_digest_info(const struct bm_prov *prov, uint8_t **der, size_t *derlen,
		   const EVP_MD *md, const uint8_t *digest, size_t digestlen)
{
	int nid = EVP_MD_get_type(md);
	*der = NULL;
	if (nid == NID_md5_sha1) {
		/* TLS 1.0/1.1 sign the 36 bytes as they are. */
		*der = OPENSSL_memdup(digest, digestlen);
		*derlen = digestlen;
		if (*der == NULL)
			BM_ERR(prov, BM_R_NO_MEMORY, "copying the digest");
		return *der != NULL;
	}
	ASN1_OBJECT *oid = nid != NID_undef ? OBJ_nid2obj(nid) : NULL;
	if (oid == NULL || OBJ_length(oid) == 0) {
		BM_ERR(prov, BM_R_DIGEST, "the digest %s has no OID for a DigestInfo",
		       EVP_MD_get0_name(md));
		return 0;
	}
	X509_SIG *sig = X509_SIG_new();
	X509_ALGOR *alg;
	ASN1_OCTET_STRING *value;
	int len = -1;
	if (sig != NULL) {
		X509_SIG_getm(sig, &alg, &value);
		if (X509_ALGOR_set0(alg, oid, V_ASN1_NULL, NULL) &&
		    ASN1_OCTET_STRING_set(value, digest, (int)digestlen))
			len = i2d_X509_SIG(sig, der);
	}
	X509_SIG_free(sig);
	if (len <= 0) {
		BM_ERR(prov, BM_R_INTERNAL, "encoding the DigestInfo");
		return 0;
	}
	*derlen = (size_t)len;
	return 1;
}
