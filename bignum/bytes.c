/*
 * Big-endian byte strings <-> BIGNUM.
 *
 * bytestring2bignum: bn = the unsigned big-endian integer kn[0..len); bn
 * grows as needed; leading zero bytes are fine; len 0 gives zero.  The
 * result is normalised, sign 1.
 *
 * bignum2bytestring: kn[0..len) = |bn| big-endian, zero-padded on the left;
 * BIG_INVALID_ARGS (kn untouched) if |bn| needs more than len bytes.  High
 * zero chunks in bn->len do not count.  The byte loops run over every byte
 * of the value regardless of its contents (lengths may leak, values not).
 */
#include "internal.h"

#include <string.h>

BIG_ERR_CODE bytestring2bignum(BIGNUM *bn, const uint8_t *kn, size_t len)
{
	/* Drop leading zero bytes: they add chunks, not value. */
	while (len > 0 && kn[0] == 0) {
		kn++;
		len--;
	}
	/* len / BYTES rounded up, without the overflow of len + BYTES - 1. */
	size_t nchunks = len / BIG_CHUNK_BYTES + (len % BIG_CHUNK_BYTES != 0);
	if (nchunks == 0)
		nchunks = 1;
	if (nchunks > (size_t)(0x7fffffff))
		return BIG_NO_MEM;
	BIG_ERR_CODE err = big_extend(bn, (int)nchunks);
	if (err != BIG_OK)
		return err;

	for (size_t i = 0; i < nchunks; i++)
		bn->value[i] = 0;
	/* Byte j from the end is bits 8*j.. of the value. */
	for (size_t j = 0; j < len; j++) {
		chunk_t byte = kn[len - 1 - j];
		bn->value[j / BIG_CHUNK_BYTES] |=
			byte << (8 * (j % BIG_CHUNK_BYTES));
	}
	bn->len = (int)nchunks;
	bn->sign = 1;
	return BIG_OK;
}

BIG_ERR_CODE bignum2bytestring(uint8_t *kn, const BIGNUM *bn, size_t len)
{
	const int nchunks = big_sig_len(bn);

	/* Bytes the value needs: full chunks below the top one, plus the
	 * significant bytes of the top chunk. */
	size_t need = 0;
	if (nchunks > 0) {
		chunk_t top = bn->value[nchunks - 1];
		int top_bytes = 0;
		while (top != 0) {
			top_bytes++;
			top >>= 8;
		}
		need = (size_t)(nchunks - 1) * BIG_CHUNK_BYTES + (size_t)top_bytes;
	}
	if (need > len)
		return BIG_INVALID_ARGS;

	for (size_t j = 0; j < len; j++) {
		uint8_t byte = 0;
		if (j / BIG_CHUNK_BYTES < (size_t)nchunks)
			byte = (uint8_t)(bn->value[j / BIG_CHUNK_BYTES] >>
					 (8 * (j % BIG_CHUNK_BYTES)));
		kn[len - 1 - j] = byte;
	}
	return BIG_OK;
}
