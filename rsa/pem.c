/*
 * rsa_pem_decode, rsa_base64_decode: PEM armour (RFC 7468) around a DER key.
 *
 * A file may hold several "-----BEGIN <label>-----" ... "-----END
 * <label>-----" blocks with text between them (a certificate chain, EC or
 * DH parameters, the "Bag Attributes" lines openssl pkcs12 writes).  Every
 * block is framed the same strict way (an END line whose label repeats the
 * BEGIN label), but only a key block is decoded: one whose label ends in
 * "PRIVATE KEY" or "PUBLIC KEY".  Exactly one key block is allowed, so a
 * file never silently gives the wrong one of two keys.  Its label decides
 * the format; encrypted keys (an ENCRYPTED PRIVATE KEY label, or RFC 1421
 * "Proc-Type: 4,ENCRYPTED" headers) and other kinds of key (EC PRIVATE
 * KEY...) are refused by name, any other header too.
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

/* Where p stands in text, as the error messages say it: line and column,
 * both from 1. */
static void text_position(const char *text, const char *p, size_t *line, size_t *column)
{
	*line = 1;
	const char *line_start = text;
	for (const char *c = text; c < p; c++)
		if (*c == '\n') {
			++*line;
			line_start = c + 1;
		}
	*column = (size_t)(p - line_start) + 1;
}

long rsa_base64_decode(uint8_t *out, const char *in, size_t len, const char *text, char *err,
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
			size_t line, column;
			text_position(text, in + i, &line, &column);
			rsa_set_error(err, errlen,
				      "PEM: invalid base64 character 0x%02x at line %zu, column %zu", c,
				      line, column);
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
#define N_LABELS (sizeof(labels) / sizeof(labels[0]))
#define EXPECTED_LABELS "RSA PRIVATE KEY, PRIVATE KEY, RSA PUBLIC KEY or PUBLIC KEY"

#define MAX_LABEL 64

struct pem_block {
	char label[MAX_LABEL + 1];
	const char *body; /* between the BEGIN and END lines */
	size_t body_len;
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int is_key_label(const char *label)
{
	return ends_with(label, "PRIVATE KEY") || ends_with(label, "PUBLIC KEY");
}

/* The next block in [*at, stop): 1 and *at past its END line, 0 if there
 * is no further BEGIN line, -1 with a reason if the block is malformed. */
static int next_block(struct pem_block *blk, const char **at, const char *stop,
		      char *err, size_t errlen)
{
	static const char begin[] = "-----BEGIN ", end[] = "-----END ", dashes[] = "-----";
	const char *b = find(*at, (size_t)(stop - *at), begin);
	if (b == NULL)
		return 0;
	const char *label = b + strlen(begin);
	/* Searched no further than the longest label allowed: each block costs
	 * its own length, and a file of many blocks stays linear. */
	size_t room = (size_t)(stop - label);
	if (room > MAX_LABEL + strlen(dashes))
		room = MAX_LABEL + strlen(dashes);
	const char *label_end = find(label, room, dashes);
	if (label_end == NULL || memchr(label, '\n', (size_t)(label_end - label)) != NULL) {
		rsa_set_error(err, errlen, "PEM: malformed BEGIN line");
		return -1;
	}
	size_t label_len = (size_t)(label_end - label);
	/* RFC 7468's labels are printable ASCII; the label is quoted in
	 * messages, which stay one line with no escape sequences. */
	for (size_t i = 0; i < label_len; i++)
		if ((unsigned char)label[i] < 0x20 || (unsigned char)label[i] > 0x7e) {
			rsa_set_error(err, errlen,
				      "PEM: malformed BEGIN line (the label holds byte 0x%02x; a "
				      "label is printable ASCII)",
				      (unsigned char)label[i]);
			return -1;
		}
	memcpy(blk->label, label, label_len);
	blk->label[label_len] = '\0';
	blk->body = label_end + strlen(dashes);
	const char *e = find(blk->body, (size_t)(stop - blk->body), end);
	if (e == NULL) {
		rsa_set_error(err, errlen, "PEM: no END line for '%s' (truncated file?)", blk->label);
		return -1;
	}
	const char *elabel = e + strlen(end);
	if ((size_t)(stop - elabel) < label_len + strlen(dashes) ||
	    memcmp(elabel, blk->label, label_len) != 0 ||
	    memcmp(elabel + label_len, dashes, strlen(dashes)) != 0) {
		rsa_set_error(err, errlen, "PEM: END label does not match BEGIN '%s'", blk->label);
		return -1;
	}
	blk->body_len = (size_t)(e - blk->body);
	*at = elabel + label_len + strlen(dashes);
	return 1;
}

/* A PEM file is text: a control byte other than whitespace (RFC 7468's
 * space, tab, CR, LF, VT, FF) anywhere means binary data, most likely a
 * DER key beside the armour, and two keys must never read as one.  Bytes
 * from 0x80 up pass (UTF-8 in the text between blocks, a BOM). */
static int is_text(const char *text, size_t len, char *err, size_t errlen)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') ||
		    c == 0x7f) {
			size_t line, column;
			text_position(text, text + i, &line, &column);
			rsa_set_error(err, errlen,
				      "PEM: byte 0x%02x at line %zu, column %zu is not text (binary "
				      "data such as a DER key beside the PEM armour?)",
				      c, line, column);
			return 0;
		}
	}
	return 1;
}

/* The one key block of the text, skipping the others. */
static int find_key_block(struct pem_block *key, const char *text, size_t len,
			  char *err, size_t errlen)
{
	if (!is_text(text, len, err, errlen))
		return -1;
	const char *at = text, *stop = text + len;
	struct pem_block blk;
	char first_other[MAX_LABEL + 1] = "";
	int found = 0, rc;
	while ((rc = next_block(&blk, &at, stop, err, errlen)) == 1) {
		if (!is_key_label(blk.label)) {
			if (first_other[0] == '\0')
				memcpy(first_other, blk.label, sizeof(first_other));
			continue;
		}
		if (found) {
			rsa_set_error(err, errlen,
				      "PEM: two key blocks ('%s', then '%s'); a key file holds one key",
				      key->label, blk.label);
			return -1;
		}
		*key = blk;
		found = 1;
	}
	if (rc < 0)
		return -1;
	if (found)
		return 0;
	if (first_other[0] != '\0')
		rsa_set_error(err, errlen, "PEM: no key block (found '%s'; expected " EXPECTED_LABELS ")",
			      first_other);
	else
		rsa_set_error(err, errlen, "PEM: no '-----BEGIN' line (not a PEM file)");
	return -1;
}

int rsa_pem_decode(uint8_t **der, size_t *derlen, rsa_key_format_t *format,
		   const char *text, size_t len, char *err, size_t errlen)
{
	*der = NULL;
	*derlen = 0;
	struct pem_block key;
	if (find_key_block(&key, text, len, err, errlen) != 0)
		return RSA_ERR_FORMAT;
	if (strcmp(key.label, "ENCRYPTED PRIVATE KEY") == 0) {
		rsa_set_error(err, errlen,
			      "PEM: the key is encrypted (ENCRYPTED PRIVATE KEY); decrypt it first, e.g. "
			      "openssl pkey -in KEY -out PLAIN.pem");
		return RSA_ERR_FORMAT;
	}
	size_t which = N_LABELS;
	for (size_t i = 0; i < N_LABELS; i++)
		if (strcmp(key.label, labels[i].label) == 0)
			which = i;
	if (which == N_LABELS) {
		rsa_set_error(err, errlen, "PEM: '%s' is not an RSA key (expected " EXPECTED_LABELS ")",
			      key.label);
		return RSA_ERR_FORMAT;
	}
	if (memchr(key.body, ':', key.body_len) != NULL) {
		if (find(key.body, key.body_len, "Proc-Type") != NULL ||
		    find(key.body, key.body_len, "ENCRYPTED"))
			rsa_set_error(err, errlen,
				      "PEM: the key is encrypted (Proc-Type: 4,ENCRYPTED); decrypt it "
				      "first, e.g. openssl rsa -in KEY -out PLAIN.pem");
		else
			rsa_set_error(err, errlen, "PEM: headers in the PEM block are not supported");
		return RSA_ERR_FORMAT;
	}
	uint8_t *out = malloc(key.body_len / 4 * 3 + 3);
	if (out == NULL) {
		rsa_set_error(err, errlen, "out of memory");
		return RSA_ERR_NO_MEM;
	}
	long n = rsa_base64_decode(out, key.body, key.body_len, text, err, errlen);
	if (n < 0) {
		big_wipe(out, key.body_len / 4 * 3 + 3);
		free(out);
		return RSA_ERR_FORMAT;
	}
	*der = out;
	*derlen = (size_t)n;
	*format = labels[which].format;
	return RSA_OK;
}
