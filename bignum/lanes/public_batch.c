/*
 * big_modexp_public_batch (contract: <bigmont/bignum.h>): up to eight
 * a_i^e mod n_i with one public exponent e, operation i in lane i of one
 * left-to-right square and multiply on the radix-2^28 lane layer
 * (lanes.h), the steps of big_modexp_ct_base (bignum/modexp_ct_base.c) in
 * every lane at once:
 *   R^2 mod n_i       big_lanes_mod_init: from the given radix-B R^2 mod
 *                     n_i by two lane products, no division;
 *   x = a R           one product by R^2;
 *   the bits of e     a squaring each, a product by x where the bit is 1
 *                     (e is public and the same in every lane: the
 *                     sequence of products depends on nothing else);
 *   the last bit      the product by a itself (or by 1 for an even e):
 *                     (a^(e-1) R) a / R = a^e, out of Montgomery form,
 *                     below 2 n_i (a < n_i < R/4), and one masked
 *                     subtraction makes it below n_i.
 * What it is for: rsa_private_batch's fault checks (s^e mod n of eight
 * operations of a 2048-bit modulus: k = 74 digits a lane, where the lane
 * kernels take about two thirds of the time of the adx kernels per
 * operation; docs/design-notes.md, "Batches in vector lanes").
 *
 * Constant time in every a_i and n_i: every lane runs the same products,
 * the unused lanes of a smaller batch compute on 0 under lane 0's modulus.
 * No allocation: the caller's scratch, wiped before return on every path
 * past the argument checks.  Results are stored only once all are done.
 */
#include <string.h>

#include "internal.h"
#include "lanes.h"

struct pb_layout {
	size_t mod, x, y, base, xm, acc, one, rr, res, total;
};

static size_t pb_round(size_t bytes)
{
	return (bytes + 63) & ~(size_t)63;
}

static struct pb_layout pb_layout_of(int len, int k)
{
	const size_t lw = pb_round(8 * BIG_LANES_WORDS(k));
	struct pb_layout L;
	size_t at = 0;
	L.mod = at;
	at += pb_round(sizeof(struct big_lanes_mod));
	L.x = at;
	at += lw;
	L.y = at;
	at += lw;
	L.base = at;
	at += lw;
	L.xm = at;
	at += lw;
	L.acc = at;
	at += lw;
	L.one = at;
	at += lw;
	L.rr = at; /* R^2 mod n_i in radix B, BIG_LANES of them */
	at += pb_round(sizeof(chunk_t) * (size_t)BIG_LANES * (size_t)len);
	L.res = at; /* the results in chunks, BIG_LANES of them */
	at += pb_round(sizeof(chunk_t) * (size_t)BIG_LANES * (size_t)len);
	L.total = at + 64; /* for aligning the start */
	return L;
}

int big_public_batch_len(const BIGNUM *n)
{
	if (n == NULL || n->len < 1 || n->len > BIG_MAX_MODULUS_CHUNKS)
		return 0;
	const int len = n->len, bits = len * BIG_CHUNK_SIZE;
	const int k = big_lanes_digits(bits);
	const long e = 112L * k - 4L * bits;
	if (k == 0 || e < 0 || e >= (long)BIG_LANES_DIGIT_BITS * k)
		return 0;
	return len;
}

size_t big_public_batch_scratch(int len)
{
	if (len < 1 || len > BIG_MAX_MODULUS_CHUNKS)
		return 0;
	const int k = big_lanes_digits(len * BIG_CHUNK_SIZE);
	return k == 0 ? 0 : pb_round(pb_layout_of(len, k).total);
}

/* out = r - m where r >= m, else r, in every lane (lanes_impl.h's
 * ln_final_sub on plain words): the borrow of the whole subtraction as a
 * mask, no branch; out must not overlap r. */
static void pb_final_sub(uint64_t *out, const uint64_t *r, const uint64_t *m,
			 int k)
{
	for (int l = 0; l < BIG_LANES; l++) {
		uint64_t borrow = 0;
		for (int j = 0; j < k; j++) {
			const uint64_t x = r[BIG_LANES_AT(j, l)] -
					   m[BIG_LANES_AT(j, l)] - borrow;
			out[BIG_LANES_AT(j, l)] = x & BIG_LANES_DIGIT_MASK;
			borrow = x >> 63;
		}
		const uint64_t take = borrow - 1; /* all-ones: r >= m */
		for (int j = 0; j < k; j++)
			out[BIG_LANES_AT(j, l)] =
				(take & out[BIG_LANES_AT(j, l)]) |
				(~take & r[BIG_LANES_AT(j, l)]);
	}
}

static int e_bit(const BIGNUM *e, int i)
{
	return (int)((e->value[i / BIG_CHUNK_SIZE] >> (i % BIG_CHUNK_SIZE)) & 1);
}

BIG_ERR_CODE big_modexp_public_batch_ops(const big_public_batch_op *ops,
					 int count, const BIGNUM *e,
					 const struct big_lanes_ops *lanes,
					 void *scratch, size_t scratch_size)
{
	if (ops == NULL || e == NULL || lanes == NULL || scratch == NULL ||
	    count < 1 || count > BIG_PUBLIC_BATCH_MAX || e->len < 1)
		return BIG_INVALID_ARGS;
	const int len = big_public_batch_len(ops[0].n);
	if (len == 0)
		return BIG_INVALID_ARGS;
	for (int i = 0; i < count; i++) {
		const big_public_batch_op *op = &ops[i];
		if (op->result == NULL || op->a == NULL || op->n_rr == NULL ||
		    big_public_batch_len(op->n) != len || op->a->len < 0 ||
		    op->a->len > len || op->n_rr->len < 0 || op->n_rr->len > len ||
		    (op->result->size < len && !op->result->malloced))
			return BIG_INVALID_ARGS;
	}
	const int ebits = big_bitlength(e);
	if (ebits < 1)
		return BIG_INVALID_ARGS;
	const int k = big_lanes_digits(len * BIG_CHUNK_SIZE);
	const struct pb_layout L = pb_layout_of(len, k);
	if (scratch_size < L.total)
		return BIG_INVALID_ARGS;

	uint8_t *s = (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
	struct big_lanes_mod *mod = (struct big_lanes_mod *)(s + L.mod);
	uint64_t *x = (uint64_t *)(s + L.x), *y = (uint64_t *)(s + L.y);
	uint64_t *base = (uint64_t *)(s + L.base), *xm = (uint64_t *)(s + L.xm);
	uint64_t *acc = (uint64_t *)(s + L.acc), *one = (uint64_t *)(s + L.one);
	chunk_t *rr = (chunk_t *)(s + L.rr), *res = (chunk_t *)(s + L.res);
	const chunk_t *m_of[BIG_LANES], *rr_of[BIG_LANES];
	BIG_ERR_CODE err = BIG_OK;

	for (int l = 0; l < BIG_LANES && err == BIG_OK; l++) {
		const big_public_batch_op *op = &ops[l < count ? l : 0];
		chunk_t *r = rr + (size_t)l * len;
		err = big_mont_rr_vec(r, op->n_rr, op->n, len);
		m_of[l] = op->n->value;
		rr_of[l] = r;
	}
	if (err != BIG_OK)
		goto out;
	if (big_lanes_mod_init(mod, k, m_of, rr_of, len, lanes, x, y) != 0) {
		err = BIG_INVALID_ARGS;
		goto out;
	}
	for (int l = 0; l < BIG_LANES; l++) {
		/* An unused lane computes on 0: the same steps as a used one. */
		chunk_t *a = res + (size_t)l * len;
		big_copy_pad_vec(a, len, ops[l < count ? l : 0].a->value,
				 l < count ? ops[l].a->len : 0);
		big_lanes_from_chunks(base, l, k, a, len);
	}
	for (size_t j = 0; j < BIG_LANES_WORDS(k); j++)
		one[j] = j < BIG_LANES;

	lanes->mul(xm, base, mod->rr, mod); /* a R mod n, below 2n */
	memcpy(acc, xm, 8 * BIG_LANES_WORDS(k));
	for (int bit = ebits - 2; bit >= 1; bit--) {
		lanes->sqr(acc, acc, mod);
		if (e_bit(e, bit))
			lanes->mul(acc, acc, xm, mod);
	}
	const uint64_t *last = one; /* e == 1: a R times 1 */
	if (ebits >= 2) {
		lanes->sqr(acc, acc, mod);
		last = e_bit(e, 0) ? base : one;
	}
	lanes->mul(acc, acc, last, mod);
	pb_final_sub(x, acc, mod->m, k);
	for (int i = 0; i < count; i++)
		big_lanes_to_chunks(res + (size_t)i * len, len, x, i, k);
	/* Every operation is done: now the results. */
	for (int i = 0; i < count && err == BIG_OK; i++)
		err = big_store_vec(ops[i].result, res + (size_t)i * len, len);
out:
	big_wipe(s, L.total - 64);
	return err;
}

BIG_ERR_CODE big_modexp_public_batch(const big_public_batch_op *ops, int count,
				     const BIGNUM *e, void *scratch,
				     size_t scratch_size)
{
	struct big_lanes_ops lanes;
	big_lanes_ops_choose(&lanes);
	return big_modexp_public_batch_ops(ops, count, e, &lanes, scratch,
					   scratch_size);
}
