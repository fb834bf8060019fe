/*
 * big_is_probable_prime: the Miller-Rabin test with random bases
 * (contract in <bigmont/bignum.h>).
 *
 * With n - 1 = 2^s * m, m odd, a base a in [2, n-2] is a witness that n is
 * composite unless a^m == 1 or a^(m*2^j) == -1 (mod n) for some j < s.  A
 * prime has no witness; an odd composite has at least 3/4 of [1, n-1] as
 * witnesses (Rabin, Monier), so a composite survives `rounds` random bases
 * with probability at most 4^-rounds.
 *
 * n may be a secret (an RSA prime at key load), so each round works on
 * fixed-length vectors: a = r mod n for a random r 64 bits longer than n
 * (bias below 2^-64) by big_modexp_ct with exponent 1; z = a^m by
 * big_modexp_ct; then all s - 1 squarings in Montgomery form, every time,
 * with the comparisons with 1 and -1 folded into a mask rather than
 * branched on.  Only a round's verdict is branched on: for a prime it is
 * always "passes", so it tells nothing.  What depends on n's value beyond
 * that: s (the loop count), the division behind R^2 mod n (big_mont_rr,
 * as in the RSA key's own precomputation) and the validation and trimming
 * of n; for a composite, the round that found a witness.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* A base that falls on 0, 1 or n-1 is drawn again; this many draws in a
 * row mean getrandom is broken, not that n is small (n >= 5 gives each
 * draw at least a 2/5 chance). */
#define MAX_BASE_DRAWS 256

/* All-ones if a[0..len) == b[0..len), else 0; no branch on the values. */
static chunk_t equal_mask(const chunk_t *a, const chunk_t *b, int len)
{
	chunk_t diff = 0;
	for (int i = 0; i < len; i++)
		diff |= a[i] ^ b[i];
	return ~big_ct_mask_nonzero(diff);
}

/* Copy x (at most len significant chunks) into v[0..len), zero-padded. */
static void to_vec(chunk_t *v, const BIGNUM *x, int len)
{
	for (int i = 0; i < len; i++)
		v[i] = i < x->len ? x->value[i] : 0;
}

/* The parts every round shares, for odd n >= 5 of len chunks. */
struct mr_setup {
	int len, s;
	chunk_t n0;
	BIGNUM m, rr, one;
	/* Vectors of len chunks in v: n, n - 1, R mod n and n - (R mod n) (1
	 * and -1 in Montgomery form), R^2 mod n, the round's scratch, and the
	 * constant 1 that setup uses. */
	chunk_t *v, *n, *nm1, *one_m, *mone_m, *rr_v, *z, *zm, *small;
};

enum { SETUP_VECTORS = 9 }; /* the eight named vectors and setup's 1 */

static void setup_free(struct mr_setup *st)
{
	big_finish(&st->m);
	big_finish(&st->rr);
	big_finish(&st->one);
	if (st->v != NULL) {
		big_wipe(st->v, sizeof(chunk_t) * SETUP_VECTORS * (size_t)st->len);
		free(st->v);
	}
}

static BIG_ERR_CODE setup(struct mr_setup *st, const BIGNUM *n, int len)
{
	memset(st, 0, sizeof(*st));
	st->len = len;
	BIG_ERR_CODE err = big_init(&st->m, len);
	if (err == BIG_OK)
		err = big_init(&st->rr, len);
	if (err == BIG_OK)
		err = big_init(&st->one, 1);
	if (err != BIG_OK)
		return err;
	st->v = malloc(sizeof(chunk_t) * SETUP_VECTORS * (size_t)len);
	if (st->v == NULL)
		return BIG_NO_MEM;
	chunk_t **named[] = { &st->n,    &st->nm1, &st->one_m, &st->mone_m,
			      &st->rr_v, &st->z,   &st->zm,    &st->small };
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		*named[i] = st->v + i * (size_t)len;
	chunk_t *unit = st->v + (SETUP_VECTORS - 1) * (size_t)len;

	to_vec(st->n, n, len);
	memcpy(st->nm1, st->n, sizeof(chunk_t) * (size_t)len);
	st->nm1[0] ^= 1; /* n odd: n - 1 clears bit 0 */
	for (int i = 0; i < len; i++)
		unit[i] = i == 0;
	/* s = the trailing zero bits of n - 1; m = (n - 1) >> s. */
	int s = 0;
	while (((st->nm1[s / BIG_CHUNK_SIZE] >> (s % BIG_CHUNK_SIZE)) & 1) == 0)
		s++;
	st->s = s;
	BIGNUM nm1 = { len, len, 1, 0, st->nm1 };
	err = big_shiftright(&st->m, &nm1, s);
	if (err == BIG_OK)
		err = big_set_chunk(&st->one, 1);
	if (err == BIG_OK)
		err = big_mont_rr(&st->rr, n);
	if (err != BIG_OK)
		return err;
	to_vec(st->rr_v, &st->rr, len);
	st->n0 = big_n0(st->n[0]);
	big_mont_mul_vec(st->one_m, st->rr_v, unit, st->n, st->n0, len); /* R mod n */
	chunk_t borrow = 0;
	for (int i = 0; i < len; i++) { /* n - (R mod n): no borrow out, R mod n < n */
		chunk_t d = st->n[i] - st->one_m[i];
		chunk_t b1 = d > st->n[i];
		st->mone_m[i] = d - borrow;
		borrow = b1 | (st->mone_m[i] > d);
	}
	return BIG_OK;
}

/* One round with a fresh random base: *passes = 1 if it is no witness. */
static BIG_ERR_CODE round_passes(int *passes, struct mr_setup *st, const BIGNUM *n,
				 BIGNUM *r, BIGNUM *a, BIGNUM *z, uint8_t *bytes,
				 size_t nbytes)
{
	const int len = st->len;
	BIG_ERR_CODE err;
	chunk_t excluded;
	int draws = 0;
	do {
		if (++draws > MAX_BASE_DRAWS)
			return BIG_NO_RANDOM;
		err = big_random_bytes(bytes, nbytes);
		if (err == BIG_OK)
			err = bytestring2bignum(r, bytes, nbytes);
		if (err == BIG_OK)
			err = big_modexp_ct(a, r, &st->one, n, &st->rr); /* r mod n */
		if (err != BIG_OK)
			return err;
		to_vec(st->small, a, len);
		chunk_t high = 0;
		for (int i = 1; i < len; i++)
			high |= st->small[i];
		excluded = ~big_ct_mask_nonzero(high | st->small[0]) |       /* a == 0 */
			   ~big_ct_mask_nonzero(high | (st->small[0] ^ 1)) | /* a == 1 */
			   equal_mask(st->small, st->nm1, len);
	} while (excluded != 0);

	err = big_modexp_ct(z, a, &st->m, n, &st->rr);
	if (err != BIG_OK)
		return err;
	to_vec(st->z, z, len);
	big_mont_mul_vec(st->zm, st->z, st->rr_v, st->n, st->n0, len); /* z R mod n */
	chunk_t ok = equal_mask(st->zm, st->one_m, len) | equal_mask(st->zm, st->mone_m, len);
	for (int j = 1; j < st->s; j++) {
		big_mont_sqr_vec(st->zm, st->zm, st->n, st->n0, len);
		ok |= equal_mask(st->zm, st->mone_m, len);
	}
	*passes = (int)(ok & 1);
	return BIG_OK;
}

BIG_ERR_CODE big_is_probable_prime(int *is_prime, const BIGNUM *n, int rounds)
{
	if (is_prime == NULL || rounds < 1)
		return BIG_INVALID_ARGS;
	*is_prime = 0;
	if (n->len < 1)
		return BIG_OK;
	const int len = big_trimmed_len(n);
	if (len > BIG_MAX_MODULUS_CHUNKS)
		return BIG_INVALID_ARGS;
	if (len == 1 && n->value[0] < 5) {
		*is_prime = n->value[0] == 2 || n->value[0] == 3;
		return BIG_OK;
	}
	if ((n->value[0] & 1) == 0)
		return BIG_OK;

	BIGNUM absn = { len, len, 1, 0, n->value }; /* |n|, trimmed */
	struct mr_setup st;
	const size_t nbytes = (size_t)len * BIG_CHUNK_BYTES + 8;
	uint8_t *bytes = malloc(nbytes);
	BIGNUM r, a, z;
	int made = 0;
	BIG_ERR_CODE err = setup(&st, &absn, len);
	if (err == BIG_OK && bytes == NULL)
		err = BIG_NO_MEM;
	BIGNUM *work[] = { &r, &a, &z };
	for (; err == BIG_OK && made < 3; made++)
		err = big_init(work[made], len + 2);
	if (err != BIG_OK && made > 0)
		made--; /* the failed one is not initialised */
	int passes = 1;
	for (int i = 0; err == BIG_OK && passes && i < rounds; i++)
		err = round_passes(&passes, &st, &absn, &r, &a, &z, bytes, nbytes);
	if (err == BIG_OK)
		*is_prime = passes;
	while (made > 0)
		big_finish(work[--made]);
	if (bytes != NULL) {
		big_wipe(bytes, nbytes);
		free(bytes);
	}
	setup_free(&st);
	return err;
}
