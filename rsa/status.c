/* rsa_strerror: one English phrase per rsa_status. */
#include <bigmont/rsa.h>

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
