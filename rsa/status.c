/*
 * Status and error text of the RSA layer: rsa_strerror (one English phrase
 * per rsa_status), rsa_set_error (the one-line reasons the readers and
 * checks give), rsa_status_from_big (a bignum error as an rsa_status).
 * Every other file of the layer reports through these, so none of them
 * depends on another for it.
 */
#include <stdarg.h>
#include <stdio.h>

#include "rsa_internal.h"

const char *rsa_strerror(int status)
{
	switch (status) {
	case RSA_OK: return "success";
	case RSA_ERR_FORMAT: return "malformed or unsupported key encoding";
	case RSA_ERR_KEY_CHECK: return "inconsistent key";
	case RSA_ERR_NO_MEM: return "out of memory";
	case RSA_ERR_LENGTH: return "input or output length is not the modulus length";
	case RSA_ERR_RANGE: return "input is not less than the modulus";
	case RSA_ERR_NOT_PRIVATE: return "the key is public; a private key is needed";
	case RSA_ERR_FAULT:
		return "fault check failed: result withheld (the key or the hardware may be at fault)";
	case RSA_ERR_RANDOM: return "no randomness available for blinding";
	case RSA_ERR_ARGS: return "invalid arguments";
	default: return "unknown error";
	}
}

void rsa_set_error(char *err, size_t errlen, const char *fmt, ...)
{
	if (err == NULL || errlen == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int rsa_status_from_big(BIG_ERR_CODE err, int otherwise)
{
	switch (err) {
	case BIG_OK:
		return RSA_OK;
	case BIG_NO_MEM:
		return RSA_ERR_NO_MEM;
	default:
		return otherwise;
	}
}
