/*
 * big_random_bytes: out[0..len) from getrandom(), retrying on EINTR and
 * short reads.  No state of its own: every call asks the kernel.
 */
#include "internal.h"

#include <errno.h>
#include <sys/random.h>

BIG_ERR_CODE big_random_bytes(uint8_t *out, size_t len)
{
	while (len > 0) {
		ssize_t got = getrandom(out, len, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return BIG_NO_RANDOM;
		}
		out += got;
		len -= (size_t)got;
	}
	return BIG_OK;
}
