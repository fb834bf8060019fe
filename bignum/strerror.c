/* big_strerror: the message for a BIG_ERR_CODE (contract in bignum.h). */
#include "internal.h"

const char *big_strerror(BIG_ERR_CODE err)
{
	switch (err) {
	case BIG_OK:
		return "success";
	case BIG_NO_MEM:
		return "out of memory";
	case BIG_NO_RANDOM:
		return "no random numbers available";
	case BIG_INVALID_ARGS:
		return "invalid arguments";
	case BIG_DIV_BY_0:
		return "division by zero";
	}
	return "unknown bignum error";
}
