/*
 * The strict DER reader (contracts in rsa/der.h).  Only single-byte tags
 * are accepted (every tag an RSA key uses is one), lengths of at most 4
 * length bytes (a key past 4 GB is not a key).  Not constant time: it reads
 * the key's encoding once, at load.
 */
#include "der.h"

#include "rsa_internal.h"

int rsa_der_read(struct der *content, struct der *in, uint8_t tag,
	     const char *what, char *err, size_t errlen)
{
	if (in->len < 2) {
		rsa_set_error(err, errlen, "DER: %s: truncated (%zu byte%s left)",
			      what, in->len, in->len == 1 ? "" : "s");
		return -1;
	}
	if (in->p[0] != tag) {
		rsa_set_error(err, errlen, "DER: %s: wrong tag 0x%02x (expected 0x%02x)",
			      what, in->p[0], tag);
		return -1;
	}
	size_t pos = 2, length;
	uint8_t first = in->p[1];
	if (first < 0x80) {
		length = first;
	} else if (first == 0x80) {
		rsa_set_error(err, errlen, "DER: %s: indefinite length", what);
		return -1;
	} else {
		size_t count = first & 0x7f;
		if (count > 4) {
			rsa_set_error(err, errlen, "DER: %s: overlong length (%zu length bytes)",
				      what, count);
			return -1;
		}
		if (in->len - 2 < count) {
			rsa_set_error(err, errlen, "DER: %s: truncated length", what);
			return -1;
		}
		if (in->p[2] == 0) {
			rsa_set_error(err, errlen, "DER: %s: non-minimal length (leading zero byte)",
				      what);
			return -1;
		}
		length = 0;
		for (size_t i = 0; i < count; i++)
			length = (length << 8) | in->p[2 + i];
		if (length < 0x80) {
			rsa_set_error(err, errlen, "DER: %s: non-minimal length (%zu in long form)",
				      what, length);
			return -1;
		}
		pos += count;
	}
	if (length > in->len - pos) {
		rsa_set_error(err, errlen, "DER: %s: length %zu runs past the end (%zu byte%s left)",
			      what, length, in->len - pos, in->len - pos == 1 ? "" : "s");
		return -1;
	}
	content->p = in->p + pos;
	content->len = length;
	in->p += pos + length;
	in->len -= pos + length;
	return 0;
}

/* Sign and minimality of an INTEGER's contents. */
static int check_integer(const struct der *v, const char *what, char *err,
			 size_t errlen)
{
	if (v->len == 0) {
		rsa_set_error(err, errlen, "DER: %s: empty integer", what);
		return -1;
	}
	if (v->p[0] & 0x80) {
		rsa_set_error(err, errlen, "DER: %s: integer is negative", what);
		return -1;
	}
	if (v->len > 1 && v->p[0] == 0 && (v->p[1] & 0x80) == 0) {
		rsa_set_error(err, errlen, "DER: %s: non-minimal integer encoding", what);
		return -1;
	}
	return 0;
}

int rsa_der_read_positive(struct der *value, struct der *in, const char *what,
		      char *err, size_t errlen)
{
	struct der v;
	if (rsa_der_read(&v, in, DER_INTEGER, what, err, errlen) ||
	    check_integer(&v, what, err, errlen))
		return -1;
	if (v.len == 1 && v.p[0] == 0) {
		rsa_set_error(err, errlen, "DER: %s: integer is zero", what);
		return -1;
	}
	if (v.p[0] == 0) { /* the sign byte of a positive integer */
		v.p++;
		v.len--;
	}
	*value = v;
	return 0;
}

int rsa_der_read_small(int *value, struct der *in, const char *what, char *err,
		   size_t errlen)
{
	struct der v;
	if (rsa_der_read(&v, in, DER_INTEGER, what, err, errlen) ||
	    check_integer(&v, what, err, errlen))
		return -1;
	if (v.len != 1) {
		rsa_set_error(err, errlen, "DER: %s: value out of range", what);
		return -1;
	}
	*value = v.p[0];
	return 0;
}

int rsa_der_expect_end(const struct der *in, const char *what, char *err,
		   size_t errlen)
{
	if (in->len != 0) {
		rsa_set_error(err, errlen, "DER: trailing data after %s (%zu byte%s)",
			      what, in->len, in->len == 1 ? "" : "s");
		return -1;
	}
	return 0;
}
