/*
 * rsa/der.h -- a strict DER reader for the few shapes an RSA key uses
 * (rsa/der.c).  A `struct der` is a cursor over bytes the caller owns;
 * reading never copies and never reads outside [p, p+len).
 *
 * Strict means the distinguished encoding only: the expected tag exactly,
 * definite lengths in the shortest form, no length running past the end,
 * INTEGERs positive and minimally encoded.  Every failure gives a one-line
 * reason naming `what` (the field being read).
 */
#ifndef BIGMONT_RSA_DER_H
#define BIGMONT_RSA_DER_H

#include <stddef.h>
#include <stdint.h>

#ifndef __cplusplus /* as in bignum/internal.h */
#pragma GCC visibility push(hidden)
#endif

#define DER_INTEGER 0x02
#define DER_BIT_STRING 0x03
#define DER_OCTET_STRING 0x04
#define DER_NULL 0x05
#define DER_OID 0x06
#define DER_SEQUENCE 0x30

struct der {
	const uint8_t *p;
	size_t len;
};

/* Read one element with tag `tag` from *in: *content is its contents, *in
 * advances past it.  0, or -1 with a reason. */
int rsa_der_read(struct der *content, struct der *in, uint8_t tag,
	     const char *what, char *err, size_t errlen);

/* A positive INTEGER (> 0), minimal encoding; *value is its magnitude
 * without the sign byte. */
int rsa_der_read_positive(struct der *value, struct der *in, const char *what,
		      char *err, size_t errlen);

/* An INTEGER in [0, 127] (a version field). */
int rsa_der_read_small(int *value, struct der *in, const char *what, char *err,
		   size_t errlen);

/* 0 if in is empty, else -1 with "trailing data after <what>". */
int rsa_der_expect_end(const struct der *in, const char *what, char *err,
		   size_t errlen);

#ifndef __cplusplus
#pragma GCC visibility pop
#endif

#endif
