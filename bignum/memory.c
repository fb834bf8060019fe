/*
 * Memory of a BIGNUM: big_init, big_init1, big_extend, big_finish, and
 * what writes a value into it, growing it: big_copy, big_set_chunk; and
 * big_wipe, which every release goes through.  Also the chunk size's ABI
 * mark, big_abi_chunk<BIG_CHUNK_SIZE>.
 *
 * Every chunk that held a value is wiped (big_wipe) before it is freed or
 * left behind, because a BIGNUM may hold a secret (an RSA prime, a private
 * exponent).  A caller's buffer (big_init1, malloced == 0) is wiped but never
 * freed.  Not constant time (sizes only); no global state.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The chunk size's mark (bignum.h: a consumer compiled for the other
 * chunk size does not link). */
const char BIG_ABI_SYMBOL(BIG_CHUNK_SIZE) = BIG_CHUNK_SIZE;

/* Zeroing that survives dead-store elimination. */
void big_wipe(void *p, size_t n)
{
	if (n == 0)
		return;
	memset(p, 0, n);
	/* The empty asm with p as input makes the compiler treat the zeroed
	 * memory as read, so the memset cannot be dropped. */
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

BIG_ERR_CODE big_init(BIGNUM *number, int size)
{
	return big_init1(number, size, NULL, 0);
}

BIG_ERR_CODE big_init1(BIGNUM *number, int size, BIG_CHUNK_TYPE *buf,
		       int bufsize)
{
	if (number == NULL)
		return BIG_INVALID_ARGS;
	if (size < 1)
		size = 1;
	/* Refuse sizes whose byte count would overflow size_t arithmetic. */
	if ((size_t)size > SIZE_MAX / sizeof(chunk_t))
		return BIG_NO_MEM;
	if (buf != NULL && bufsize >= size) {
		number->value = buf;
		number->size = bufsize;
		number->malloced = 0;
	} else {
		number->value = malloc((size_t)size * sizeof(chunk_t));
		if (number->value == NULL) {
			number->size = 0;
			number->len = 0;
			number->malloced = 0;
			return BIG_NO_MEM;
		}
		number->size = size;
		number->malloced = 1;
	}
	number->value[0] = 0;
	number->len = 1;
	number->sign = 1;
	return BIG_OK;
}

BIG_ERR_CODE big_extend(BIGNUM *number, int size)
{
	if (number->value != NULL && number->size >= size)
		return BIG_OK;
	if (size < 1)
		size = 1;
	if ((size_t)size > SIZE_MAX / sizeof(chunk_t))
		return BIG_NO_MEM;
	/* No realloc: the old copy would be freed without being wiped. */
	chunk_t *fresh = malloc((size_t)size * sizeof(chunk_t));
	if (fresh == NULL)
		return BIG_NO_MEM;
	int keep = number->len;
	if (number->value == NULL || keep < 0)
		keep = 0;
	if (keep > number->size)
		keep = number->size;
	if (keep > 0)
		memcpy(fresh, number->value, (size_t)keep * sizeof(chunk_t));
	if (number->value != NULL) {
		big_wipe(number->value, (size_t)number->size * sizeof(chunk_t));
		if (number->malloced)
			free(number->value);
	}
	if (keep == 0) {
		fresh[0] = 0;
		number->len = 1;
		number->sign = 1;
	}
	number->value = fresh;
	number->size = size;
	number->malloced = 1;
	return BIG_OK;
}

void big_finish(BIGNUM *number)
{
	if (number == NULL)
		return;
	if (number->value != NULL) {
		if (number->size > 0)
			big_wipe(number->value,
				 (size_t)number->size * sizeof(chunk_t));
		if (number->malloced)
			free(number->value);
	}
	number->value = NULL;
	number->size = 0;
	number->len = 0;
	number->sign = 1;
	number->malloced = 0;
}

BIG_ERR_CODE big_copy(BIGNUM *dest, const BIGNUM *src)
{
	if (dest == src)
		return BIG_OK;
	if (src->len < 1)
		return big_set_chunk(dest, 0);
	const int len = big_trimmed_len(src);
	BIG_ERR_CODE err = big_extend(dest, len);
	if (err != BIG_OK)
		return err;
	memmove(dest->value, src->value, (size_t)len * sizeof(chunk_t));
	dest->len = len;
	dest->sign = (len == 1 && src->value[0] == 0) ? 1 : src->sign;
	return BIG_OK;
}

BIG_ERR_CODE big_set_chunk(BIGNUM *result, BIG_CHUNK_TYPE v)
{
	BIG_ERR_CODE err = big_extend(result, 1);
	if (err != BIG_OK)
		return err;
	result->value[0] = v;
	result->len = 1;
	result->sign = 1;
	return BIG_OK;
}
