/*
 * Big-endian byte strings <-> BIGNUM.
 *
 * bytestring2bignum: bn = the unsigned big-endian integer kn[0..len); bn
 * grows as needed; leading zero bytes are fine; len 0 gives zero.  The
 * result is normalised, sign 1.
 *
 * bignum2bytestring: kn[0..len) = |bn| big-endian, zero-padded on the left;
 * BIG_INVALID_ARGS (kn untouched) if |bn| needs more than len bytes.  High
 * zero chunks in bn->len do not count.  Constant time in the value: its
 * time depends on bn->len and len only, for an RSA result leaves the
 * library through it, and the count of its leading zero bytes is what
 * Manger's attack on OAEP asks.
 *
 * bytestring2bignum is not constant time in its input: it drops leading
 * zero bytes.  Its inputs are public (a ciphertext, a key at load).
 */
#include "internal.h"

#include <string.h>

/* A chunk to and from BIG_CHUNK_BYTES big-endian bytes: one load or store
 * and a byte swap on a little-endian machine (a byte loop cost 2% of an
 * RSA-1024 batch operation). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#if BIG_CHUNK_SIZE == 64
#define CHUNK_BSWAP(v) __builtin_bswap64(v)
#else
#define CHUNK_BSWAP(v) __builtin_bswap32(v)
#endif
#else
#define CHUNK_BSWAP(v) (v)
#endif

static chunk_t load_be(const uint8_t *p)
{
	chunk_t v;
	memcpy(&v, p, sizeof v);
	return CHUNK_BSWAP(v);
}

static void store_be(uint8_t *p, chunk_t v)
{
	v = CHUNK_BSWAP(v);
	memcpy(p, &v, sizeof v);
}

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

	/* Chunk i is the bytes [len - (i + 1) B, len - i B), big-endian: the
	 * whole chunks by load_be, the top one's leftover bytes, if any, one
	 * by one. */
	const size_t whole = len / BIG_CHUNK_BYTES;
	for (size_t i = 0; i < whole; i++) {
		const uint8_t *p = kn + len - (i + 1) * BIG_CHUNK_BYTES;
		bn->value[i] = load_be(p);
	}
	if (whole < nchunks) {
		chunk_t v = 0;
		for (size_t t = 0; t < len % BIG_CHUNK_BYTES; t++)
			v = v << 8 | kn[t];
		bn->value[whole] = v;
	}
	bn->len = (int)nchunks;
	bn->sign = 1;
	return BIG_OK;
}

BIG_ERR_CODE bignum2bytestring(uint8_t *kn, const BIGNUM *bn, size_t len)
{
	/* Whether |bn| fits: every bit at or above byte len OR-ed into one
	 * chunk, tested once.  The branches below are on positions. */
	const size_t chunks = bn->len > 0 ? (size_t)bn->len : 0;
	const size_t whole = len / BIG_CHUNK_BYTES, rem = len % BIG_CHUNK_BYTES;
	chunk_t above = 0;
	for (size_t i = whole; i < chunks; i++)
		above |= i == whole ? bn->value[i] >> (8 * rem) : bn->value[i];
	if (above != 0)
		return BIG_INVALID_ARGS;

	/* As in bytestring2bignum: whole chunks by store_be, the leftover top
	 * bytes one by one; chunks past bn->len are zero. */
	for (size_t i = 0; i < whole; i++) {
		const chunk_t v = i < chunks ? bn->value[i] : 0;
		store_be(kn + len - (i + 1) * BIG_CHUNK_BYTES, v);
	}
	const chunk_t top = whole < chunks ? bn->value[whole] : 0;
	for (size_t t = 0; t < rem; t++)
		kn[rem - 1 - t] = (uint8_t)(top >> (8 * t));
	return BIG_OK;
}
