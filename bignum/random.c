/*
 * big_random_bytes: out[0..len) from getrandom(), retrying on EINTR and
 * short reads.  No state of its own: every call asks the kernel.
 *
 * The system call itself, not glibc's getrandom(): that wrapper is a
 * thread cancellation point, and a deferred pthread_cancel acting there
 * would unwind a private operation past its wipes and frees (the blinding
 * pair being made, the batch's scratch, results in limb form).  With this,
 * no library call is a cancellation point.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

BIG_ERR_CODE big_random_bytes(uint8_t *out, size_t len)
{
	while (len > 0) {
		long got = syscall(SYS_getrandom, out, len, 0);
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
