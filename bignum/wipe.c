/* big_wipe: zeroing that survives dead-store elimination. */
#include "internal.h"

#include <string.h>

void big_wipe(void *p, size_t n)
{
	if (n == 0)
		return;
	memset(p, 0, n);
	/* The empty asm with p as input makes the compiler treat the zeroed
	 * memory as read, so the memset cannot be dropped. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
}
