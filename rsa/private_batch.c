/*
 * rsa_private_batch: many RSADP / RSASP1 operations, four at a time in the
 * vector lanes of one exponentiation (big_modexp_crt_batch: operation i's
 * CRT halves in lanes i and 4 + i), each operation otherwise as
 * rsa_private_raw (rsa/private.c) does it:
 *   the checks (key, size, in < n)            per operation, a status each;
 *   blinding: in * r^e, the thread's pair      per operation, in turn: the
 *             for the key advanced once each;  unblinding factor is copied,
 *                                              since the next operation on
 *                                              the same key advances the pair;
 *   the CRT exponentiations                    together, four lanes pairs;
 *   unblinding, the bytes                      per operation;
 *   the fault check                            per operation, s^e mod n ==
 *                                              in: a fault fails that
 *                                              operation only and writes
 *                                              nothing of it.  Where at
 *                                              least LANE_CHECK_MIN
 *                                              operations of two batches
 *                                              (eight) have one e and
 *                                              moduli the 28-bit lanes
 *                                              serve (RSA-2048 and below),
 *                                              their s^e mod n run in the
 *                                              lanes of one square and
 *                                              multiply
 *                                              (big_modexp_public_batch),
 *                                              else one by one
 *                                              (rsa_fault_check).
 * Keys below BATCH_MIN_BITS run singly too (the lanes do not pay there),
 * unless BIGMONT_BATCH names a lane build (the tests, the benchmark).
 * Where only the portable lanes are there unasked (big_crt_batch_kernel
 * "none": slower than single operations), every operation runs singly.
 * Keys: the same key in every lane is the common case; any keys of len
 * bytes whose primes have the same chunk length go into one batch.  A key
 * with primes of different lengths, and a remainder smaller than
 * PARTIAL_MIN, run singly through rsa_private_raw.
 *
 * Scratch: the caller's (or one allocation here when given NULL): the
 * batch exponentiation's, the lane fault check's, then per operation five
 * BIGNUM buffers, the unblinding factor and the result bytes; everything
 * is wiped after use.
 * Nothing is shared between calls or threads: a key is only read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blinding.h"
#include "rsa_internal.h"

#define BATCH BIG_CRT_BATCH_MAX
/* Operations a pool takes: two batches, whose fault checks fill the eight
 * lanes of one square and multiply. */
#define POOL (2 * BATCH)
/* The lane fault check costs the same for 1..8 operations: about six
 * scalar checks' worth at RSA-2048 (the lane kernels at 74 digits against
 * the adx ones at 32 chunks, bigmont speed --kernels), so fewer run
 * singly. */
#define LANE_CHECK_MIN 6
/* A partial batch of 3 costs less than three single operations on AVX2
 * (bench: `bigmont speed --batch`); 1 or 2 run singly. */
#define PARTIAL_MIN 3
/* Keys below this run singly unless BIGMONT_BATCH names a lane build: at
 * RSA-1024 (19 digits a lane) the AVX2 lanes measured 1.5x the CPU time
 * of single adx operations; from RSA-2048 up they are level or faster
 * (docs/design-notes.md, "Batches in vector lanes"). */
#define BATCH_MIN_BITS 2048

enum { V_IN, V_BASE, V_CRT, V_OUT, V_CHECK, V_COUNT };

static size_t n_chunks(size_t len)
{
	return (len * 8 + BIG_CHUNK_SIZE - 1) / BIG_CHUNK_SIZE;
}

static size_t align64(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

/* One operation's area: V_COUNT values of n_chunks + 2 chunks (p->len +
 * q->len + 1 <= n_chunks + 2), the unblinding factor, the result bytes. */
static size_t op_bytes(size_t len)
{
	const size_t nch = n_chunks(len);
	return align64(sizeof(BIG_CHUNK_TYPE) * (V_COUNT * (nch + 2) + nch)) +
	       align64(len);
}

/* The batch exponentiation's scratch for keys of len bytes: primes of at
 * most (n_chunks + 1) / 2 chunks each when of equal length. */
static size_t crt_bytes(size_t len)
{
	return align64(big_crt_batch_scratch((int)((n_chunks(len) + 1) / 2)));
}

/* The lane fault check's scratch, 0 where the lanes do not serve n. */
static size_t check_bytes(size_t len)
{
	return align64(big_public_batch_scratch((int)n_chunks(len)));
}

size_t rsa_private_batch_scratch_size(size_t len)
{
	if (len == 0 || len > RSA_KEY_MAX_BITS / 8)
		return 0;
	return crt_bytes(len) + check_bytes(len) + POOL * op_bytes(len) + 64;
}

static int check_one(const rsa_key *k, const uint8_t *in, size_t len)
{
	if (k == NULL)
		return RSA_ERR_ARGS;
	if (!k->is_private)
		return RSA_ERR_NOT_PRIVATE;
	if (k->size != len)
		return RSA_ERR_LENGTH;
	if (memcmp(in, k->n_bytes, len) >= 0)
		return RSA_ERR_RANGE;
	return RSA_OK;
}

struct op {
	BIGNUM v[V_COUNT];
	BIG_CHUNK_TYPE *unblind;
	uint8_t *result;
	int made;
};

/* 1 if the live operations' fault checks w[0..n) run in the lanes: the
 * 28-bit lanes are the batch's, enough of them, one e, moduli the lanes
 * serve (all public). */
static int lane_check_ok(const rsa_key *const *keys, const size_t *idx,
			 const int *w, int n, int lanes28, size_t len)
{
	if (!lanes28 || n < LANE_CHECK_MIN || check_bytes(len) == 0)
		return 0;
	const rsa_key *k0 = keys[idx[w[0]]];
	for (int c = 0; c < n; c++) {
		const rsa_key *k = keys[idx[w[c]]];
		if (big_public_batch_len(&k->n) != (int)n_chunks(len) ||
		    big_cmp_abs(&k->e, &k0->e) != 0)
			return 0;
	}
	return 1;
}

/* Operations idx[0..count) (checked, count <= POOL, primes of one chunk
 * length): batches of BATCH in turn, then the fault checks of all. */
static void run_pool(const rsa_key *const *keys, uint8_t *out,
		     const uint8_t *in, size_t len, const size_t *idx,
		     int count, int *status, uint8_t *area, int lanes28)
{
	const size_t nch = n_chunks(len), cb = crt_bytes(len),
		     kb = check_bytes(len);
	const int vs = (int)nch + 2;
	struct op op[POOL];
	big_crt_batch_op bop[POOL];
	int which[POOL], st[POOL], live = 0;

	for (int c = 0; c < count; c++) {
		const size_t i = idx[c];
		const rsa_key *k = keys[i];
		uint8_t *a = area + cb + kb + (size_t)c * op_bytes(len);
		BIG_CHUNK_TYPE *buf = (BIG_CHUNK_TYPE *)a;
		struct op *o = &op[c];
		int rc = RSA_OK;
		o->made = 0;
		o->unblind = buf + V_COUNT * (size_t)vs;
		o->result = a + align64(sizeof(BIG_CHUNK_TYPE) *
					(V_COUNT * (nch + 2) + nch));
		for (; rc == RSA_OK && o->made < V_COUNT; o->made++)
			if (big_init1(&o->v[o->made], vs, buf + (size_t)o->made * vs,
				      vs) != BIG_OK)
				rc = RSA_ERR_NO_MEM;
		if (rc != RSA_OK)
			o->made--;
		if (rc == RSA_OK)
			rc = rsa_status_from_big(bytestring2bignum(&o->v[V_IN],
								   in + i * len, len),
						 RSA_ERR_ARGS);
		const BIGNUM *base = &o->v[V_IN];
		if (rc == RSA_OK && k->blinding) {
			const BIG_CHUNK_TYPE *blind, *unblind;
			rc = rsa_blinding_next(k, &blind, &unblind);
			if (rc == RSA_OK) {
				memcpy(o->unblind, unblind,
				       sizeof(BIG_CHUNK_TYPE) * (size_t)k->n.len);
				rc = rsa_blinding_mul(&o->v[V_BASE], &o->v[V_IN], blind, k);
			}
			base = &o->v[V_BASE];
		}
		status[i] = rc;
		if (rc == RSA_OK) {
			/* private.c's roles: the key's (q, p, qInv) as (p, q, pinv). */
			bop[live] = (big_crt_batch_op){ &o->v[V_CRT], base, &k->dq,
							&k->dp, &k->q, &k->p,
							&k->qinv, &k->q_rr, &k->p_rr };
			which[live++] = c;
		}
	}

	for (int b = 0; b < live; b += BATCH) {
		const int n = live - b < BATCH ? live - b : BATCH;
		const int rc = rsa_status_from_big(big_modexp_crt_batch(bop + b, n, area, cb),
						   RSA_ERR_ARGS);
		for (int w = b; w < b + n; w++)
			st[w] = rc;
	}

	/* Unblinding; then the fault checks: in the lanes where they pay. */
	const BIGNUM *res[POOL];
	int check[POOL], checks = 0;
	for (int w = 0; w < live; w++) {
		const rsa_key *k = keys[idx[which[w]]];
		struct op *o = &op[which[w]];
		res[w] = &o->v[V_CRT];
		if (st[w] == RSA_OK && k->blinding) {
			st[w] = rsa_blinding_mul(&o->v[V_OUT], &o->v[V_CRT], o->unblind, k);
			res[w] = &o->v[V_OUT];
		}
		if (st[w] == RSA_OK && k->fault_check)
			check[checks++] = w;
	}
	int in_lanes = 0;
	if (checks >= LANE_CHECK_MIN) {
		int cw[POOL];
		for (int c = 0; c < checks; c++)
			cw[c] = which[check[c]];
		if (lane_check_ok(keys, idx, cw, checks, lanes28, len)) {
			big_public_batch_op pop[POOL];
			for (int c = 0; c < checks; c++) {
				const int w = check[c];
				const rsa_key *k = keys[idx[which[w]]];
				pop[c] = (big_public_batch_op){ &op[which[w]].v[V_CHECK],
								res[w], &k->n, &k->n_rr };
			}
			in_lanes = big_modexp_public_batch(pop, checks,
							   &keys[idx[cw[0]]]->e,
							   area + cb, kb) == BIG_OK;
		}
	}
	for (int c = 0; c < checks; c++) {
		const int w = check[c];
		const rsa_key *k = keys[idx[which[w]]];
		struct op *o = &op[which[w]];
		if (!in_lanes)
			st[w] = rsa_fault_check(k, res[w], &o->v[V_IN]);
		else if (!big_equal_ct(&o->v[V_CHECK], &o->v[V_IN]))
			st[w] = RSA_ERR_FAULT;
	}

	for (int w = 0; w < live; w++) {
		const size_t i = idx[which[w]];
		struct op *o = &op[which[w]];
		if (st[w] == RSA_OK)
			st[w] = rsa_status_from_big(bignum2bytestring(o->result, res[w], len),
						    RSA_ERR_ARGS);
		if (st[w] == RSA_OK)
			memcpy(out + i * len, o->result, len);
		status[i] = st[w];
	}
	for (int c = 0; c < count; c++) {
		struct op *o = &op[c];
		while (o->made > 0)
			big_finish(&o->v[--o->made]); /* wipes */
		big_wipe(o->unblind, sizeof(BIG_CHUNK_TYPE) * nch);
		big_wipe(o->result, len);
	}
}

int rsa_private_batch(const rsa_key *const *keys, uint8_t *out,
		      const uint8_t *in, size_t len, size_t count, int *status,
		      void *scratch, size_t scratch_size)
{
	if (keys == NULL || out == NULL || in == NULL || status == NULL ||
	    count == 0)
		return RSA_ERR_ARGS;
	if (len == 0 || len > RSA_KEY_MAX_BITS / 8)
		return RSA_ERR_LENGTH;
	if (count > SIZE_MAX / len)
		return RSA_ERR_ARGS;
	const size_t need = rsa_private_batch_scratch_size(len);
	void *mine = NULL;
	if (scratch == NULL) {
		mine = malloc(need);
		if (mine == NULL)
			return RSA_ERR_NO_MEM;
		scratch = mine;
	} else if (scratch_size < need) {
		return RSA_ERR_ARGS;
	}
	uint8_t *area = (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);

	/* Only where the lanes beat single operations (AVX2), or the tests
	 * force the portable lanes.  The lane fault check is radix 2^28's:
	 * with the IFMA build the single checks run in radix 2^52. */
	const char *kernel = big_crt_batch_kernel();
	const int lanes = strcmp(kernel, "none") != 0;
	const int lanes28 = strcmp(kernel, "avx2") == 0 || strcmp(kernel, "c") == 0;
	const int forced = getenv("BIGMONT_BATCH") != NULL;
	size_t group[POOL];
	int filled = 0, group_len = 0;
	for (size_t i = 0; i < count; i++) {
		const rsa_key *k = keys[i];
		const uint8_t *x = in + i * len;
		status[i] = check_one(k, x, len);
		if (status[i] != RSA_OK)
			continue;
		const int half = lanes && (forced || k->bits >= BATCH_MIN_BITS)
					 ? big_crt_batch_len(&k->q, &k->p)
					 : 0;
		if (half != 0 && group_len == 0)
			group_len = half;
		if (half == 0 || half != group_len) {
			status[i] = rsa_private_raw(k, out + i * len, x, len);
			continue;
		}
		group[filled++] = i;
		if (filled == POOL) {
			run_pool(keys, out, in, len, group, filled, status, area, lanes28);
			filled = 0;
		}
	}
	/* The rest: a full batch and a partial one of PARTIAL_MIN or more, or
	 * one of them; what is left runs singly. */
	const int pooled = filled >= BATCH + PARTIAL_MIN ? filled
			   : filled >= BATCH		 ? BATCH
			   : filled >= PARTIAL_MIN	 ? filled
							 : 0;
	if (pooled > 0)
		run_pool(keys, out, in, len, group, pooled, status, area, lanes28);
	for (int c = pooled; c < filled; c++)
		status[group[c]] = rsa_private_raw(keys[group[c]],
						   out + group[c] * len,
						   in + group[c] * len, len);

	if (mine != NULL) {
		big_wipe(mine, need);
		free(mine);
	}
	for (size_t i = 0; i < count; i++)
		if (status[i] != RSA_OK)
			return status[i];
	return RSA_OK;
}
