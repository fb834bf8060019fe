/*
 * rsa_pem_decode, rsa_base64_decode: PEM armour (RFC 7468) around a DER key.
 *
 * The first "-----BEGIN <label>-----" line opens the block; text before it
 * and after its END line is ignored.  The label decides the format and the
 * END label must repeat it.  Encrypted keys (an ENCRYPTED PRIVATE KEY label,
 * or RFC 1421 "Proc-Type: 4,ENCRYPTED" headers) are refused by name, since
 * the user can decrypt them with openssl; any other header is refused too.
 * The base64 is strict: whitespace is allowed anywhere, nothing else that is
 * not base64, '=' only as final padding with zero unused bits.
 * Not constant time in the key bytes (a once-per-key decode).
 */
#include <stdlib.h>
#include <string.h>

#include "rsa_internal.h"

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+') return 62;
	if (c == '/') return 63;
	return -1;
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

long rsa_base64_decode(uint8_t *out, const char *in, size_t len, char *err,
		       size_t errlen)
{
	uint32_t acc = 0;
	size_t chars = 0, pad = 0, n = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		if (is_space(c))
			continue;
		if (c == '=') {
			pad++;
			chars++;
			continue;
		}
		int v = b64_value(c);
		if (v < 0) {
			rsa_set_error(err, errlen, "PEM: invalid base64 character 0x%02x at offset %zu",
				      c, i);
			return -1;
		}
		if (pad) {
			rsa_set_error(err, errlen, "PEM: base64 data after '=' padding");
			return -1;
		}
		acc = (acc << 6) | (uint32_t)v;
		chars++;
		if (chars % 4 == 0) {
			out[n++] = (uint8_t)(acc >> 16);
			out[n++] = (uint8_t)(acc >> 8);
			out[n++] = (uint8_t)acc;
			acc = 0;
		}
	}
	if (chars == 0) {
		rsa_set_error(err, errlen, "PEM: empty base64 body");
		return -1;
	}
	if (chars % 4 != 0 || pad > 2) {
		rsa_set_error(err, errlen, "PEM: bad base64 padding (%zu characters, %zu '=')",
			      chars, pad);
		return -1;
	}
	/* The last quantum: 4 - pad characters were accumulated. */
	if (pad == 1) {
		if (acc & 0x3) goto unused_bits;
		out[n++] = (uint8_t)(acc >> 10);
		out[n++] = (uint8_t)(acc >> 2);
	} else if (pad == 2) {
		if (acc & 0xf) goto unused_bits;
		out[n++] = (uint8_t)(acc >> 4);
	}
	return (long)n;
unused_bits:
	rsa_set_error(err, errlen, "PEM: bad base64 padding (non-zero unused bits)");
	return -1;
}

static const char *find(const char *hay, size_t haylen, const char *needle)
{
	size_t nl = strlen(needle);
	for (size_t i = 0; i + nl <= haylen; i++)
		if (memcmp(hay + i, needle, nl) == 0)
			return hay + i;
	return NULL;
}

static const struct {
	char label[16]; /* an array, not a pointer: the table stays in .rodata */
	rsa_key_format_t format;
} labels[] = {
	{ "RSA PRIVATE KEY", RSA_FORMAT_PKCS1_PRIVATE },
	{ "PRIVATE KEY", RSA_FORMAT_PKCS8_PRIVATE },
	{ "RSA PUBLIC KEY", RSA_FORMAT_PKCS1_PUBLIC },
	{ "PUBLIC KEY", RSA_FORMAT_SPKI_PUBLIC },
};

int rsa_pem_decode(uint8_t **der, size_t *derlen, rsa_key_format_t *format,
		   const char *text, size_t len, char *err, size_t errlen)
{
	static const char begin[] = "-----BEGIN ", end[] = "-----END ", dashes[] = "-----";
	*der = NULL;
	*derlen = 0;
	const char *b = find(text, len, begin);
	if (b == NULL) {
		rsa_set_error(err, errlen, "PEM: no '-----BEGIN' line (not a PEM file)");
		return RSA_ERR_FORMAT;
	}
	const char *label = b + strlen(begin), *stop = text + len;
	const char *label_end = find(label, (size_t)(stop - label), dashes);
	const char *eol = memchr(label, '\n', (size_t)(stop - label));
	if (label_end == NULL || (eol != NULL && eol < label_end)) {
		rsa_set_error(err, errlen, "PEM: malformed BEGIN line");
		return RSA_ERR_FORMAT;
	}
	size_t label_len = (size_t)(label_end - label);
	if (label_len > 64) {
		rsa_set_error(err, errlen, "PEM: malformed BEGIN line");
		return RSA_ERR_FORMAT;
	}
	char name[65];
	memcpy(name, label, label_len);
	name[label_len] = '\0';
	if (strcmp(name, "ENCRYPTED PRIVATE KEY") == 0) {
		rsa_set_error(err, errlen,
			      "PEM: the key is encrypted (ENCRYPTED PRIVATE KEY); decrypt it first, e.g. "
			      "openssl pkey -in KEY -out PLAIN.pem");
		return RSA_ERR_FORMAT;
	}
	size_t which = sizeof(labels) / sizeof(labels[0]);
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (strcmp(name, labels[i].label) == 0)
			which = i;
	if (which == sizeof(labels) / sizeof(labels[0])) {
		rsa_set_error(err, errlen, "PEM: unsupported label '%s' (expected RSA PRIVATE KEY, "
			      "PRIVATE KEY, RSA PUBLIC KEY or PUBLIC KEY)", name);
		return RSA_ERR_FORMAT;
	}
	const char *body = label_end + strlen(dashes);
	const char *e = find(body, (size_t)(stop - body), end);
	if (e == NULL) {
		rsa_set_error(err, errlen, "PEM: no END line for '%s' (truncated file?)", name);
		return RSA_ERR_FORMAT;
	}
	const char *elabel = e + strlen(end);
	if ((size_t)(stop - elabel) < label_len + strlen(dashes) ||
	    memcmp(elabel, name, label_len) != 0 ||
	    memcmp(elabel + label_len, dashes, strlen(dashes)) != 0) {
		rsa_set_error(err, errlen, "PEM: END label does not match BEGIN '%s'", name);
		return RSA_ERR_FORMAT;
	}
	size_t body_len = (size_t)(e - body);
	if (memchr(body, ':', body_len) != NULL) {
		if (find(body, body_len, "Proc-Type") != NULL || find(body, body_len, "ENCRYPTED"))
			rsa_set_error(err, errlen,
				      "PEM: the key is encrypted (Proc-Type: 4,ENCRYPTED); decrypt it "
				      "first, e.g. openssl rsa -in KEY -out PLAIN.pem");
		else
			rsa_set_error(err, errlen, "PEM: headers in the PEM block are not supported");
		return RSA_ERR_FORMAT;
	}
	uint8_t *out = malloc(body_len / 4 * 3 + 3);
	if (out == NULL) {
		rsa_set_error(err, errlen, "out of memory");
		return RSA_ERR_NO_MEM;
	}
	long n = rsa_base64_decode(out, body, body_len, err, errlen);
	if (n < 0) {
		free(out);
		return RSA_ERR_FORMAT;
	}
	*der = out;
	*derlen = (size_t)n;
	*format = labels[which].format;
	return RSA_OK;
}
