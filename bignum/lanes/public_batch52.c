/*
 * big_modexp_public_batch: up to eight a^e mod n with public e in the lanes
 * of one radix-2^52 exponentiation (big_lanes52_pow_public), for the fault
 * checks of rsa_private_batch that the batch CRT did not make in its own
 * lanes (big_crt_batch_op.e: the radix-2^28 lanes, or primes without four
 * bits below their R) (contract: <bigmont/bignum.h>):
 *   n, R^2 mod n   big_lanes52_mod_init from the key's radix-B R^2, two
 *                  lane products, no division;
 *   a              into lane i as it is, any value below B^len (a
 *                  faulty signature may be >= n): with n below R/16,
 *                  R = 2^(52k), every almost-Montgomery value stays
 *                  below 3n < R/2 (the first product, a R^2 / R, below
 *                  3n; a product of two values below 3n, below
 *                  (9n/R + 1) n < 1.6n), which the squaring needs, and
 *                  the last product, by a itself where every e is odd
 *                  (a squaring's result below 2n times a below R),
 *                  below 3n, which two masked subtractions reduce;
 *   e              lane i's, zero-padded to len chunks (the lanes
 *                  square from the highest bit any of them has); the
 *                  lanes past count take op 0's;
 *   results        out of the lanes once every lane is done.
 * Only where radix-2^52 lanes run (big_lanes52_ops_choose: IFMA or FMA)
 * and the modulus has a lane size (k <= BIG_LANES52_MAX_DIGITS: up to RSA-2048's n): at
 * these sizes one square-and-multiply in eight IFMA lanes costs under two
 * single checks, in eight FMA lanes about 0.9 of a single check an
 * operation (docs/design-notes.md, "On IFMA: the batch's fault check at
 * n's size in the lanes").  Elsewhere
 * big_public_batch_len is 0 and the caller checks one by one.
 *
 * Constant time in every a (the lanes past count compute 0^e under op
 * 0's modulus and e); the products follow the exponents, which are public.  No
 * allocation: the caller's scratch, wiped before return past the argument
 * checks.
 */
#include <string.h>

#include "internal.h"
#include "lanes52.h"

static size_t bytes64(size_t bytes)
{
	return (bytes + 63) & ~(size_t)63;
}

/* The 64-bit words of a lane's exponent: e has at most len chunks. */
static int ewords_of(int len)
{
	return (len * BIG_CHUNK_SIZE + 63) / 64;
}

struct layout {
	size_t mod, base, out, x, y, e, pow, res, total;
};

/* Offset of the next `bytes` of the scratch at *at, which moves past them
 * (64-byte aligned). */
static size_t carve(size_t *at, size_t bytes)
{
	const size_t here = *at;
	*at += bytes64(bytes);
	return here;
}

static struct layout layout_of(int len, int k)
{
	const size_t lw = 8 * BIG_LANES_WORDS(k);
	struct layout L;
	size_t at = 0;
	L.mod = carve(&at, sizeof(struct big_lanes52_mod));
	L.base = carve(&at, lw);
	L.out = carve(&at, lw);
	L.x = carve(&at, lw);
	L.y = carve(&at, lw);
	L.e = carve(&at, (size_t)8 * BIG_LANES * (size_t)ewords_of(len));
	L.pow = carve(&at, 8 * big_lanes52_pow_public_scratch(k));
	L.res = carve(&at, sizeof(chunk_t) * (size_t)BIG_PUBLIC_BATCH_MAX * (size_t)len);
	L.total = at + 64; /* for aligning the start */
	return L;
}

/* n's length if the lanes take moduli of it (n < R/16: above), else 0. */
static int lane_len(const BIGNUM *n)
{
	if (n == NULL || n->len < 1 || n->len > BIG_MAX_MODULUS_CHUNKS ||
	    !big_lanes52_len_ok(n->len))
		return 0;
	const int bits = n->len * BIG_CHUNK_SIZE;
	return 52 * big_lanes52_digits(bits) >= bits + 4 ? n->len : 0;
}

int big_public_batch_len(const BIGNUM *n)
{
	struct big_lanes52_ops lanes;
	return big_lanes52_ops_choose(&lanes) ? lane_len(n) : 0;
}

size_t big_public_batch_scratch(int len)
{
	const int k = len >= 1 && len <= BIG_MAX_MODULUS_CHUNKS
			      ? big_lanes52_digits(len * BIG_CHUNK_SIZE)
			      : 0;
	return k != 0 ? layout_of(len, k).total : 0;
}

static int op_ok(const big_public_batch_op *op, int len)
{
	return op->result != NULL && op->a != NULL && op->e != NULL && op->n != NULL &&
	       op->n_rr != NULL && op->n->len == len && (op->n->value[0] & 1) != 0 &&
	       op->a->len >= 0 &&
	       op->a->len <= len && op->e->len >= 0 && op->e->len <= len &&
	       op->n_rr->len >= 0 && op->n_rr->len <= len;
}

BIG_ERR_CODE big_modexp_public_batch(const big_public_batch_op *ops, int count,
				     void *scratch, size_t scratch_size)
{
	struct big_lanes52_ops lanes;
	if (ops == NULL || scratch == NULL || count < 1 || count > BIG_PUBLIC_BATCH_MAX ||
	    !big_lanes52_ops_choose(&lanes))
		return BIG_INVALID_ARGS;
	const int len = lane_len(ops[0].n);
	if (len == 0)
		return BIG_INVALID_ARGS;
	for (int i = 0; i < count; i++)
		if (!op_ok(&ops[i], len))
			return BIG_INVALID_ARGS;
	const int k = big_lanes52_digits(len * BIG_CHUNK_SIZE);
	const struct layout L = layout_of(len, k);
	if (scratch_size < L.total)
		return BIG_INVALID_ARGS;
	/* Each result grown now where it must (its value kept), so that the
	 * stores at the end cannot fail part way. */
	for (int i = 0; i < count; i++) {
		const BIG_ERR_CODE grown = big_extend(ops[i].result, len);
		if (grown != BIG_OK)
			return grown;
	}

	uint8_t *s = (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
	struct big_lanes52_mod *mod = (struct big_lanes52_mod *)(s + L.mod);
	uint64_t *base = (uint64_t *)(s + L.base), *out = (uint64_t *)(s + L.out);
	uint64_t *x = (uint64_t *)(s + L.x), *y = (uint64_t *)(s + L.y);
	uint64_t *e = (uint64_t *)(s + L.e), *pw = (uint64_t *)(s + L.pow);
	chunk_t *res = (chunk_t *)(s + L.res);
	const int ewords = ewords_of(len);
	const chunk_t *m_of[BIG_LANES], *rr_of[BIG_LANES];
	BIG_ERR_CODE err = BIG_OK;

	/* rr and a go through res (the results come last), one lane at a
	 * time; the moduli are read where they are. */
	for (int l = 0; l < BIG_LANES && err == BIG_OK; l++) {
		const big_public_batch_op *op = &ops[l < count ? l : 0];
		m_of[l] = op->n->value;
		/* A lane on an earlier lane's key (the same BIGNUMs) shares its
		 * R^2, and big_lanes52_mod_init then copies that lane. */
		int same = -1;
		for (int j = 0; j < l && same < 0; j++) {
			const big_public_batch_op *o = &ops[j < count ? j : 0];
			if (o->n == op->n && o->n_rr == op->n_rr)
				same = j;
		}
		if (same >= 0) {
			rr_of[l] = rr_of[same];
			continue;
		}
		chunk_t *rr = res + (size_t)l * (size_t)len;
		err = big_mont_rr_vec(rr, op->n_rr, op->n, len);
		rr_of[l] = rr;
	}
	if (err != BIG_OK)
		goto out;
	if (big_lanes52_mod_init(mod, k, m_of, rr_of, len, &lanes, x, y) != 0) {
		err = BIG_INVALID_ARGS;
		goto out;
	}
	for (int l = 0; l < BIG_LANES; l++) {
		const big_public_batch_op *op = &ops[l < count ? l : 0];
		const int live = l < count;
		chunk_t *v = res + (size_t)l * (size_t)len;
		big_copy_pad_vec(v, len, op->a->value, live ? op->a->len : 0);
		big_lanes52_from_chunks(base, l, k, v, len);
		/* op 0's e in the lanes past count too (public): with one e in
		 * every lane the power starts at the base and ends by it. */
		big_copy_pad_vec(v, len, op->e->value, op->e->len);
		big_lanes_exponent_words(e + (size_t)l * (size_t)ewords, ewords, v, len);
	}
	lanes.pow_public(out, base, e, ewords, mod, pw);
	for (int i = 0; i < count; i++)
		big_lanes52_to_chunks(res + (size_t)i * (size_t)len, len, out, i, k);
	/* Every lane is done: now the results. */
	for (int i = 0; i < count && err == BIG_OK; i++)
		err = big_store_vec(ops[i].result, res + (size_t)i * (size_t)len, len);
out:
	big_wipe(s, L.total - 64);
	/* What the kernels left below and in the registers (lanes52.h),
	 * where a faulty result's powers may be: no test finds them on the
	 * stack here (the last product, by 1, overwrites the spills), but
	 * the registers may still hold them. */
	lanes.wipe(BIG_LANES52_FRAME_BYTES);
	return err;
}
