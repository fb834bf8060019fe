/*
 * rsa_private_batch: many RSADP / RSASP1 operations, eight a call of
 * big_modexp_crt_batch (two groups of four, each in the vector lanes of one
 * exponentiation: operation i's CRT halves in lanes i and 4 + i), each
 * operation otherwise as
 * rsa_private_raw (rsa/private.c) does it:
 *   the checks (key, size, in < n)            per operation, a status each;
 *   blinding: in * r^e, the thread's pair      per operation, in turn: the
 *             for the key advanced once each;  unblinding factor is copied,
 *                                              since the next operation on
 *                                              the same key advances the pair;
 *   the CRT exponentiations                    together, four lanes pairs;
 *   the fault check                            in the batch where it makes
 *                                              it (the radix-2^52 lanes:
 *                                              s^e = a modulo p and q in
 *                                              the lanes that computed s,
 *                                              a the exponentiation's
 *                                              input, blinded), else
 *                                              s^e = in mod n after
 *                                              unblinding: for a whole call
 *                                              at once (8 lanes) where
 *                                              big_modexp_public_batch
 *                                              serves n, else per
 *                                              operation; a fault fails
 *                                              that operation only and
 *                                              writes nothing of it;
 *   unblinding                                 per operation;
 *   the bytes                                  per operation, after its check.
 * Keys below lanes_min_bits() run singly too (the lanes do not pay there),
 * unless BIGMONT_BATCH names a lane build (the tests, the benchmark).
 * Where only the portable lanes are there unasked (big_crt_batch_kernel
 * "none": slower than single operations), every operation runs singly.
 * Keys: the same key in every lane is the common case; any keys of len
 * bytes whose primes have the same chunk length go into one batch.  A key
 * with primes of different lengths, and a remainder smaller than
 * partial_min(), run singly through rsa_private_raw_ws.
 *
 * Scratch: the caller's (or one allocation here when given NULL): the
 * batch exponentiation's (the lane check's after it, and an operation's
 * run singly between them: so those allocate nothing), then for each of
 * the PENDING operations done and not yet checked four BIGNUM buffers, the
 * unblinding factor and the result bytes; everything is wiped after use.
 * Nothing is shared between calls or threads: a key is only read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blinding.h"
#include "rsa_internal.h"

#define BATCH BIG_CRT_BATCH_MAX
/* Operations done and waiting for their fault checks: a batch call's two
 * lane groups, the eight lanes of one square-and-multiply
 * (big_modexp_public_batch). */
#define PENDING BATCH
_Static_assert(PENDING <= BIG_PUBLIC_BATCH_MAX, "one check batch takes the pending");
/* The fewest operations a remainder runs in lanes rather than singly.  A
 * lane exponentiation costs the same for one to four operations: three
 * cost less than three single operations on AVX2 (bench: `bigmont speed
 * --batch`), so 1 or 2 run singly; but on the IFMA lanes two operations
 * cost less than two single ones wherever the single operation has no
 * kernels compiled for its size, and at RSA-1024 (`rsa_private_batch` of
 * two with the threshold at 2 and at 3, Intel family 6 model 207: lanes
 * over singles 0.60 at RSA-1024, 0.63-0.76 at 512 to 1792 and 0.61-0.79
 * at 2304 to 3840 bits), and at RSA-2048 since the batch checks its
 * results in its own lanes (0.973-0.976 on Intel family 6 model 167,
 * where it had been 1.05 on model 207), though not at RSA-3072 and 4096,
 * whose single radix-2^52 kernels are compiled for 30 and 40 digits
 * (1.20 and 1.27 on model 167); so a remainder of 2 runs in the IFMA
 * lanes but there. */
static int partial_min(const char *kernel, int prime_chunks)
{
	const int bits = prime_chunks * BIG_CHUNK_SIZE;
	if (strcmp(kernel, "ifma") != 0 || bits == 1536 || bits == 2048)
		return 3;
	return 2;
}
/* The smallest key the vector lanes take unasked (smaller ones run singly
 * unless BIGMONT_BATCH names a lane build).  The AVX2 lanes' NASM kernels
 * beat single adx operations from RSA-1024 up (batch/single CPU time
 * 0.83-0.90 at RSA-1024 on AMD family 25 model 1), the AVX-512F lanes
 * them too (0.67-0.70 on Intel family 6 model 207), and the IFMA lanes
 * single ifma operations (0.35 at RSA-1024 on model 207;
 * docs/design-notes.md, "Batches in vector lanes").  Below RSA-1024 the
 * single operation is adx's in every variant, and the IFMA lanes take
 * 0.31-0.32 of its time at RSA-512 and 768 (rsa_private_batch of eight
 * on one key, model 207), so they start there; the others were measured
 * at 1024 bits only on the CPUs they are meant for. */
static int lanes_min_bits(const char *kernel)
{
	return strcmp(kernel, "ifma") == 0 ? 512 : 1024;
}

enum { V_IN, V_BASE, V_CRT, V_OUT, V_COUNT };

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

/* The area's first part, for keys of len bytes: the batch
 * exponentiation's scratch (primes of at most (n_chunks + 1) / 2 chunks
 * each when of equal length); after it, the same bytes serve the fault
 * checks' batch (big_modexp_public_batch), and between groups the scratch
 * of an operation run singly (rsa_private_raw_ws: primes of any split). */
static size_t crt_bytes(size_t len)
{
	const size_t crt = big_crt_batch_scratch((int)((n_chunks(len) + 1) / 2));
	const size_t check = big_public_batch_scratch((int)n_chunks(len));
	const size_t single =
		sizeof(BIG_CHUNK_TYPE) * big_modexp_crt_scratch_chunks((int)n_chunks(len));
	const size_t most = crt > check ? crt : check;
	return align64(most > single ? most : single);
}

/* The whole scratch, its first part cb bytes: then the pending
 * operations', and room to align the start. */
static size_t scratch_bytes(size_t cb, size_t len)
{
	return cb + PENDING * op_bytes(len) + 64;
}

size_t rsa_private_batch_scratch_size(size_t len)
{
	if (len == 0 || len > RSA_KEY_MAX_BITS / 8)
		return 0;
	return scratch_bytes(crt_bytes(len), len);
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

/* Operations whose exponentiations are done and whose checks and bytes
 * wait: up to two groups, so that one square-and-multiply checks eight
 * (big_modexp_public_batch); op[c] is operation idx[c], res[c] its result
 * (unblinded) and st[c] its status so far. */
struct pending {
	struct op op[PENDING];
	size_t idx[PENDING];
	const BIGNUM *res[PENDING];
	int st[PENDING];
	/* The batch's own check (big_crt_batch_op.fault): -1 where it made
	 * none and the check waits here, 0 where it passed. */
	int fault[PENDING];
	int n;
};

/* The fault checks of the pending operations that need one, by one
 * square-and-multiply in vector lanes where big_modexp_public_batch
 * serves their modulus length: res^e into each operation's V_BASE (the
 * blinded input, used), for the caller to compare with V_IN.  1 if it ran
 * and every checked operation's power is there; 0 if the caller must check
 * one by one (not served here, nothing to check, or it failed: it then
 * wrote nothing).  Scratch: the batch exponentiation's, done with. */
static int fault_checks_in_lanes(const rsa_key *const *keys, struct pending *p,
				 uint8_t *area, size_t area_size)
{
	big_public_batch_op pop[PENDING];
	int n = 0;
	for (int c = 0; c < p->n; c++) {
		const rsa_key *k = keys[p->idx[c]];
		if (p->st[c] != RSA_OK || !k->fault_check || p->fault[c] == 0)
			continue;
		/* One key's length stands for all: the batch refuses a length
		 * that differs, and then each is checked alone. */
		if (n == 0 && big_public_batch_len(&k->n) == 0)
			return 0;
		pop[n++] = (big_public_batch_op){ &p->op[c].v[V_BASE], p->res[c], &k->e, &k->n,
						  &k->n_rr };
	}
	return n > 0 && big_modexp_public_batch(pop, n, area, area_size) == BIG_OK;
}

/* Operations idx[0..count) (checked, count <= BATCH, primes of one chunk
 * length) in one batch exponentiation, their results unblinded into p
 * (which has room for count more): finish_pending checks and stores them.
 * cb: crt_bytes(len), the area's first part (taken once a call: its
 * layout's arithmetic was half a percent of an RSA-1024 batch). */
static void run_group(const rsa_key *const *keys, const uint8_t *in, size_t len,
		      const size_t *idx, int count, int *status, uint8_t *area,
		      size_t cb, struct pending *p)
{
	const size_t nch = n_chunks(len);
	const int vs = (int)nch + 2;
	big_crt_batch_op bop[BATCH];
	int which[BATCH], live = 0;

	for (int c = 0; c < count; c++) {
		const size_t i = idx[c];
		const rsa_key *k = keys[i];
		const int at = p->n + c;
		uint8_t *a = area + cb + (size_t)at * op_bytes(len);
		BIG_CHUNK_TYPE *buf = (BIG_CHUNK_TYPE *)a;
		struct op *o = &p->op[at];
		int rc = RSA_OK;
		p->idx[at] = i;
		p->res[at] = &o->v[V_CRT];
		p->fault[at] = -1;
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
		status[i] = p->st[at] = rc;
		if (rc == RSA_OK) {
			/* private.c's roles: the key's (q, p, qInv) as (p, q, pinv). */
			bop[live] = (big_crt_batch_op){ &o->v[V_CRT], base, &k->dq,
							&k->dp, &k->q, &k->p,
							&k->qinv, &k->q_rr, &k->p_rr,
							k->fault_check ? &k->e : NULL,
							&k->n, &p->fault[at] };
			which[live++] = at;
		}
	}
	p->n += count;
	if (live == 0)
		return;
	const int rc = rsa_status_from_big(big_modexp_crt_batch(bop, live, area, cb),
					   RSA_ERR_ARGS);
	for (int w = 0; w < live; w++) {
		const int at = which[w];
		const rsa_key *k = keys[p->idx[at]];
		struct op *o = &p->op[at];
		p->st[at] = rc == RSA_OK && p->fault[at] == 1 ? RSA_ERR_FAULT : rc;
		if (p->st[at] == RSA_OK && k->blinding) {
			p->st[at] = rsa_blinding_mul(&o->v[V_OUT], &o->v[V_CRT], o->unblind, k);
			p->res[at] = &o->v[V_OUT];
		}
	}
}

/* The pending operations' fault checks (together where the lanes serve
 * them, else one by one), their bytes and statuses, and the wipe of their
 * areas. */
static void finish_pending(const rsa_key *const *keys, uint8_t *out, size_t len,
			   int *status, uint8_t *area, size_t cb, struct pending *p)
{
	const int lanes_checked = fault_checks_in_lanes(keys, p, area, cb);
	for (int c = 0; c < p->n; c++) {
		const size_t i = p->idx[c];
		const rsa_key *k = keys[i];
		struct op *o = &p->op[c];
		int rc = p->st[c];
		if (rc == RSA_OK && k->fault_check && p->fault[c] != 0)
			rc = !lanes_checked ? rsa_fault_check(k, p->res[c], &o->v[V_IN])
			     : big_equal_ct(&o->v[V_BASE], &o->v[V_IN]) ? RSA_OK
									: RSA_ERR_FAULT;
		if (rc == RSA_OK)
			rc = rsa_status_from_big(bignum2bytestring(o->result, p->res[c], len),
						 RSA_ERR_ARGS);
		if (rc == RSA_OK)
			memcpy(out + i * len, o->result, len);
		status[i] = rc;
		while (o->made > 0)
			big_finish(&o->v[--o->made]); /* wipes */
		big_wipe(o->unblind, sizeof(BIG_CHUNK_TYPE) * n_chunks(len));
		big_wipe(o->result, len);
	}
	p->n = 0;
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
	const size_t cb = crt_bytes(len), need = scratch_bytes(cb, len);
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
	/* The first part is free between groups: the single operations'. */
	BIG_CHUNK_TYPE *const single_ws = (BIG_CHUNK_TYPE *)area;
	const size_t single_chunks = cb / sizeof(BIG_CHUNK_TYPE);

	/* Only where the lanes beat single operations (IFMA, AVX2), or the
	 * tests force the portable lanes. */
	const char *kernel = big_crt_batch_kernel();
	const int lanes = strcmp(kernel, "none") != 0;
	const int forced = big_crt_batch_forced() != NULL;
	size_t group[BATCH];
	int filled = 0, group_len = 0;
	struct pending pend;
	pend.n = 0;
	for (size_t i = 0; i < count; i++) {
		const rsa_key *k = keys[i];
		const uint8_t *x = in + i * len;
		status[i] = check_one(k, x, len);
		if (status[i] != RSA_OK)
			continue;
		const int half = lanes && (forced || k->bits >= lanes_min_bits(kernel))
					 ? big_crt_batch_len(&k->q, &k->p)
					 : 0;
		if (half != 0 && group_len == 0)
			group_len = half;
		if (half == 0 || half != group_len) {
			status[i] = rsa_private_raw_ws(k, out + i * len, x, len, single_ws,
						       single_chunks);
			continue;
		}
		group[filled++] = i;
		if (filled == BATCH) {
			if (pend.n + BATCH > PENDING)
				finish_pending(keys, out, len, status, area, cb, &pend);
			run_group(keys, in, len, group, filled, status, area, cb, &pend);
			filled = 0;
		}
	}
	/* The remainder: a lane group costs the same for one to four
	 * operations, so the operations past a first group of four join the
	 * call only where they are partial_min or more. */
	const int pmin = partial_min(kernel, group_len);
	const int run = filled > BIG_CRT_BATCH_GROUP && filled - BIG_CRT_BATCH_GROUP < pmin
				? BIG_CRT_BATCH_GROUP
				: filled;
	int batched = 0;
	if (run > 0 && run >= pmin) {
		if (pend.n + run > PENDING)
			finish_pending(keys, out, len, status, area, cb, &pend);
		run_group(keys, in, len, group, run, status, area, cb, &pend);
		batched = run;
	}
	finish_pending(keys, out, len, status, area, cb, &pend);
	for (int c = batched; c < filled; c++)
		status[group[c]] = rsa_private_raw_ws(keys[group[c]], out + group[c] * len,
						      in + group[c] * len, len, single_ws,
						      single_chunks);

	if (mine != NULL) {
		big_wipe(mine, need);
		free(mine);
	}
	rsa_blinding_done();
	for (size_t i = 0; i < count; i++)
		if (status[i] != RSA_OK)
			return status[i];
	return RSA_OK;
}
