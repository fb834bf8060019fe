/*
 * The batch CRT, written once for both lane radixes (contracts:
 * big_modexp_crt_batch_ops in lanes.h, big_modexp_crt_batch52_ops in
 * lanes52.h): up to eight CRT exponentiations in two groups of four, each
 * group in the eight lanes of one lane exponentiation, operation i of a
 * group in lanes i (mod p) and 4 + i (mod q), the two groups'
 * exponentiations in lockstep where the build has a pow2 (the IFMA lanes
 * at 10 digits: lanes52.h), each operation the same steps as
 * big_modexp_crt (bignum/modexp_crt.c) around it:
 *   a mod p, a mod q   in the lanes where the radix says so
 *                      (CB_INPUT_IN_LANES: a's 2k digits into lanes i and
 *                      4 + i, three lane products for all eight), else
 *                      big_mont_reduce_crt_ct (a < pq < p R: one
 *                      Montgomery reduction and a product by R^2, no
 *                      division; by blocks over the inputs' longest
 *                      length past 2 len chunks), into lanes i and 4 + i;
 *   dp, dq             zero-padded to len chunks, as 64-bit words;
 *   m_p, m_q           the lane exponentiation, out of lanes i, 4 + i;
 *   Garner             h = (m_q - m_p) pinv mod q = m_q pinv - m_p pinv
 *                      mod q by two Montgomery products by pinv R mod q
 *                      (m_p < p < R as b: no reduction of m_p), that
 *                      one product made once per key of the call;
 *                      result = m_p + p h;
 *   the fault check    where an operation asks (op->e) and the inputs
 *                      went into the lanes: each result back into its
 *                      lanes the same way, s^e = a there (mod p, mod q:
 *                      CB_CHECK_IN_LANES), p q = n per key; else *fault
 *                      = -1 and the caller checks.
 * The moduli come from the radix's mod_init: R^2 mod m in the lane radix
 * from the key's R^2 mod m in radix B by two products, no division.
 * Everything around the lane layer (the checks, the scratch carving, the
 * reductions, Garner, the stores, the wipe) is in chunks and the same for
 * both radixes; only the lane layer's types and functions differ.
 *
 * Included once by each radix's file (crt_batch.c, crt_batch52.c), which
 * defines before it:
 *   CB_LANES             the lane layer's prefix, big_lanes or big_lanes52:
 *                        struct CB_LANES_mod, struct CB_LANES_ops and
 *                        CB_LANES_digits, _pow_scratch, _mod_init,
 *                        _from_chunks, _to_chunks
 *   CB_ENTRY             the name of the entry this defines
 *                        (big_modexp_crt_batch_ops, ..._batch52_ops)
 *   CB_LEN_OK(len)       the radix's own condition on the prime length,
 *                        beyond big_crt_batch_len (1 if none)
 *   CB_LAYOUT_DIGITS(k)  the digit count the scratch is carved for, from
 *                        CB_LANES_digits's k (0 where the radix has none)
 *   CB_INPUT_IN_LANES(k, len)  1 where the inputs of 2 len chunks are
 *                        reduced in the lanes (public: the lengths)
 *   CB_REDUCE_IN_LANES(base, lo, hi, r1, mod, lanes)  that reduction:
 *                        lo and hi hold a's 2k digits (x and y, adjacent
 *                        in the layout), base gets a mod m of each lane
 *                        (below R/2, as the lane pow takes it), r1 R mod m
 *   CB_CHECK_IN_LANES(equal, base, lo, hi, t, r1, e, ewords, mod, lanes,
 *                        scratch)  the check: lo and hi hold each result's
 *                        2k digits, e each lane's public exponent; equal[l]
 *                        1 where s^e = a in lane l
 * and gets a static layout_of(len) (whose .total is the radix's scratch
 * size) and the entry.
 *
 * Constant time in every operation's a, dp, dq, p, q and pinv: the loops
 * run over all four operations' lanes and every length is public; unused
 * lanes compute a copy of operation 0's moduli on 0.  No allocation:
 * everything lives in the caller's scratch, wiped before return on every
 * path past the argument checks.  Errors leave the results untouched:
 * they are stored only once every exponentiation is done.
 */
#include <string.h>

#include "internal.h"
#include "lanes.h"

#define CB_CAT2(a, b) a##_##b
#define CB_CAT(a, b) CB_CAT2(a, b)
#define CB_NAME(f) CB_CAT(CB_LANES, f)

/* Operations a lane exponentiation takes, and lane groups a call. */
#define OPS_MAX (BIG_LANES / 2)
#define CB_GROUPS 2
#define CB_OPS_MAX (CB_GROUPS * OPS_MAX)
_Static_assert(CB_OPS_MAX == BIG_CRT_BATCH_MAX && OPS_MAX == BIG_CRT_BATCH_GROUP,
	       "bignum.h's batch sizes");

static size_t chunk_bytes(size_t chunks)
{
	return (sizeof(chunk_t) * chunks + 63) & ~(size_t)63;
}

static int ewords_of(int len)
{
	return (len * BIG_CHUNK_SIZE + 63) / 64;
}

/* Lane `from`'s first `digits` digits into lane `to` (an operation's p
 * and q lanes take one value: converted once). */
static void copy_lane(uint64_t *x, int to, int from, int digits)
{
	for (int j = 0; j < digits; j++)
		x[BIG_LANES_AT(j, to)] = x[BIG_LANES_AT(j, from)];
}

/* The carving of the scratch, in one place for the size and the use. */
struct layout {
	size_t mod, base, out, x, y, r1, e, pow, rr, pir, ax, res, mp, mq, h, t,
		ix, prod, group, total;
};

static struct layout layout_of(int len)
{
	const int k = CB_LAYOUT_DIGITS(CB_NAME(digits)(len * BIG_CHUNK_SIZE));
	const size_t lw = 8 * BIG_LANES_WORDS(k);
	struct layout L;
	size_t at = 0;
	L.mod = at;
	at += (sizeof(struct CB_NAME(mod)) + 63) & ~(size_t)63;
	L.base = at;
	at += lw;
	L.out = at;
	at += lw;
	L.x = at; /* x, y adjacent: a's 2k digits (CB_REDUCE_IN_LANES) */
	at += lw;
	L.y = at;
	at += lw;
	L.r1 = at; /* R mod m, for CB_REDUCE_IN_LANES and CB_CHECK_IN_LANES */
	at += lw;
	L.e = at;
	at += (size_t)8 * BIG_LANES * (size_t)ewords_of(len);
	L.pow = at;
	at += 8 * CB_NAME(pow_scratch)(k);
	L.rr = at; /* rr_p, rr_q of each operation */
	at += chunk_bytes((size_t)2 * OPS_MAX * len);
	L.pir = at; /* pinv R mod q of each operation's key */
	at += chunk_bytes((size_t)OPS_MAX * len);
	L.ax = at;
	at += chunk_bytes((size_t)2 * len + 1);
	L.res = at;
	at += chunk_bytes((size_t)len);
	L.mp = at;
	at += chunk_bytes((size_t)OPS_MAX * len);
	L.mq = at;
	at += chunk_bytes((size_t)OPS_MAX * len);
	L.h = at;
	at += chunk_bytes((size_t)len);
	L.t = at;
	at += chunk_bytes((size_t)len);
	L.ix = at;
	at += chunk_bytes((size_t)len);
	L.prod = at;
	at += chunk_bytes((size_t)OPS_MAX * 2 * len);
	L.group = at; /* a multiple of 64: every part is */
	L.total = CB_GROUPS * at + 64; /* for aligning the start */
	return L;
}

static int lens_ok(const big_crt_batch_op *op, int len)
{
	return op->result != NULL && op->a != NULL && op->dp != NULL &&
	       op->dq != NULL && op->p != NULL && op->q != NULL &&
	       op->pinv != NULL && op->p_rr != NULL && op->q_rr != NULL &&
	       big_crt_batch_len(op->p, op->q) == len && op->a->len >= 0 &&
	       op->a->len <= 2 * len + 1 && op->dp->len >= 0 &&
	       op->dp->len <= len && op->dq->len >= 0 && op->dq->len <= len &&
	       op->pinv->len >= 0 && op->pinv->len <= len &&
	       op->p_rr->len <= len && op->q_rr->len <= len &&
	       (op->e == NULL || (op->fault != NULL && op->n != NULL && op->e->len >= 0 &&
				  op->n->len >= 0 && op->n->len <= 2 * len));
}

/* One lane group's part of the scratch (up to OPS_MAX operations, their
 * two primes in the eight lanes), carved by the layout. */
struct cb_group {
	const big_crt_batch_op *ops;
	int count;
	struct CB_NAME(mod) *mod;
	uint64_t *base, *out, *x, *y, *r1, *e, *pw;
	chunk_t *rr, *ax, *pir, *res, *mp, *mq, *h, *t, *ix, *prod;
	/* key_of[i]: the first operation with operation i's BIGNUMs
	 * (public); rr_of: each lane's R^2 mod m. */
	int key_of[OPS_MAX];
	const chunk_t *rr_of[BIG_LANES];
	int in_lanes;
	int faulty[OPS_MAX];
};

static void cb_carve(struct cb_group *g, uint8_t *s, const struct layout *L)
{
	g->mod = (struct CB_NAME(mod) *)(s + L->mod);
	g->base = (uint64_t *)(s + L->base);
	g->out = (uint64_t *)(s + L->out);
	g->x = (uint64_t *)(s + L->x);
	g->y = (uint64_t *)(s + L->y);
	g->r1 = (uint64_t *)(s + L->r1);
	g->e = (uint64_t *)(s + L->e);
	g->pw = (uint64_t *)(s + L->pow);
	g->rr = (chunk_t *)(s + L->rr);
	g->ax = (chunk_t *)(s + L->ax);
	g->pir = (chunk_t *)(s + L->pir);
	g->res = (chunk_t *)(s + L->res);
	g->mp = (chunk_t *)(s + L->mp);
	g->mq = (chunk_t *)(s + L->mq);
	g->h = (chunk_t *)(s + L->h);
	g->t = (chunk_t *)(s + L->t);
	g->ix = (chunk_t *)(s + L->ix);
	g->prod = (chunk_t *)(s + L->prod);
}

/* A group's steps up to its lane exponentiation: the keys' R^2, the lane
 * moduli, each operation's input (reduced in the lanes or by chunks) and
 * exponents. */
static BIG_ERR_CODE cb_prepare(struct cb_group *g, const struct CB_NAME(ops) *lanes, int len)
{
	const big_crt_batch_op *const ops = g->ops;
	const int count = g->count;
	/* Not 0: big_crt_batch_len and CB_LEN_OK passed. */
	const int k = CB_NAME(digits)(len * BIG_CHUNK_SIZE);
	const int ewords = ewords_of(len), lpq = 2 * len;
	const chunk_t *m_of[BIG_LANES];
	BIG_ERR_CODE err = BIG_OK;

	for (int i = 0; i < OPS_MAX && err == BIG_OK; i++) {
		const big_crt_batch_op *op = &ops[i < count ? i : 0];
		m_of[i] = op->p->value;
		m_of[OPS_MAX + i] = op->q->value;
		/* An operation on an earlier one's key (the same BIGNUMs: public)
		 * shares its R^2; big_lanes52_mod_init, seeing the same pointers,
		 * copies the lanes it converted for the earlier one. */
		int same = -1;
		for (int j = 0; j < i && same < 0; j++) {
			const big_crt_batch_op *o = &ops[j < count ? j : 0];
			if (o->p == op->p && o->q == op->q && o->p_rr == op->p_rr &&
			    o->q_rr == op->q_rr && o->pinv == op->pinv)
				same = j;
		}
		g->key_of[i] = same >= 0 ? same : i;
		if (same >= 0) {
			g->rr_of[i] = g->rr_of[same];
			g->rr_of[OPS_MAX + i] = g->rr_of[OPS_MAX + same];
			continue;
		}
		chunk_t *rp = g->rr + (size_t)(2 * i) * len, *rq = rp + len;
		err = big_mont_rr_vec(rp, op->p_rr, op->p, len);
		if (err == BIG_OK)
			err = big_mont_rr_vec(rq, op->q_rr, op->q, len);
		g->rr_of[i] = rp;
		g->rr_of[OPS_MAX + i] = rq;
	}
	if (err != BIG_OK)
		return err;
	if (CB_NAME(mod_init)(g->mod, k, m_of, g->rr_of, len, lanes, g->x, g->y) != 0)
		return BIG_INVALID_ARGS;

	/* The inputs' longest length (public, as big_modexp_crt takes a's):
	 * 2 len chunks for RSA (a < n), two blocks of the reduction, not the
	 * three of the contract's 2 len + 1. */
	int alen = 1;
	for (int i = 0; i < count; i++)
		alen = ops[i].a->len > alen ? ops[i].a->len : alen;
	/* Up to 2 len chunks padded to 2 len: a < pq < m R for both primes
	 * (of one length), one Montgomery reduction and a product each. */
	if (alen < lpq)
		alen = lpq;
	g->in_lanes = CB_INPUT_IN_LANES(k, len) && alen == lpq;
	for (int i = 0; i < OPS_MAX; i++) {
		const big_crt_batch_op *op = &ops[i < count ? i : 0];
		const int live = i < count;
		/* An unused lane computes its moduli on 0 (its result is not
		 * read): the same steps as a used one. */
		big_copy_pad_vec(g->ax, alen, op->a->value, live ? op->a->len : 0);
		for (int hq = 0; hq < 2; hq++) {
			const BIGNUM *m = hq ? op->q : op->p;
			const BIGNUM *d = hq ? op->dq : op->dp;
			const int lane = hq * OPS_MAX + i;
			if (g->in_lanes) {
				/* a's 2k digits: x's k lines, then y's. */
				if (hq == 0)
					CB_NAME(from_chunks)(g->x, lane, 2 * k, g->ax, alen);
				else
					copy_lane(g->x, lane, i, 2 * k);
			} else {
				big_mont_reduce_crt_ct(g->res, g->ax, alen, m->value,
						       big_n0(m->value[0]), g->rr_of[lane], len);
				CB_NAME(from_chunks)(g->base, lane, k, g->res, len);
			}
			big_copy_pad_vec(g->ix, len, d->value, live ? d->len : 0);
			big_lanes_exponent_words(g->e + (size_t)lane * ewords, ewords, g->ix, len);
		}
	}
	if (g->in_lanes)
		CB_REDUCE_IN_LANES(g->base, g->x, g->y, g->r1, g->mod, lanes);
	return BIG_OK;
}

/* A group's steps after its lane exponentiation: Garner into prod, and
 * the fault checks asked for (faulty, *fault); nothing stored. */
static void cb_finish(struct cb_group *g, const struct CB_NAME(ops) *lanes, int len)
{
	(void)lanes; /* the radix-2^28 lanes check nothing */
	const big_crt_batch_op *const ops = g->ops;
	const int count = g->count;
	const int k = CB_NAME(digits)(len * BIG_CHUNK_SIZE);
	const int ewords = ewords_of(len), lpq = 2 * len;
	chunk_t *const ax = g->ax, *const ix = g->ix, *const mp = g->mp, *const prod = g->prod;
	uint64_t *const x = g->x;

	for (int i = 0; i < count; i++) {
		const big_crt_batch_op *op = &ops[i];
		const chunk_t *pv = op->p->value, *qv = op->q->value;
		const chunk_t *rq = g->rr_of[OPS_MAX + i];
		const chunk_t q0 = big_n0(qv[0]);
		chunk_t *m_p = mp + (size_t)i * len, *m_q = g->mq + (size_t)i * len;
		chunk_t *pr = prod + (size_t)i * lpq;
		chunk_t *pinv_r = g->pir + (size_t)g->key_of[i] * len;
		CB_NAME(to_chunks)(m_p, len, g->out, i, k);
		CB_NAME(to_chunks)(m_q, len, g->out, OPS_MAX + i, k);
		/* pinv R mod q once a key (R^2 mod q < q as a, pinv < R as b);
		 * then m_q pinv and m_p pinv mod q (pinv R < q as a; m_q < q,
		 * m_p < p < R as b), both below q, and their difference. */
		if (g->key_of[i] == i) {
			big_copy_pad_vec(ix, len, op->pinv->value, op->pinv->len);
			big_mont_mul_vec(pinv_r, rq, ix, qv, q0, len);
		}
		big_mont_mul_vec(g->t, pinv_r, m_p, qv, q0, len);
		big_mont_mul_vec(g->h, pinv_r, m_q, qv, q0, len);
		big_sub_mod_vec(g->h, g->h, g->t, qv, len);
		/* result = m_p + p h. */
		big_mul_vec(pr, pv, len, g->h, len);
		big_add_vec(pr, pr, lpq, m_p, len);
	}
	/* The fault checks asked for, where the radix makes them here: each
	 * result's e-th power against a, modulo p in lane i and modulo q in
	 * lane 4 + i; a result that fails is not stored (the verdict is
	 * public, as the caller's status).  Whether it checks follows the
	 * lengths and which operations ask (public). */
	const BIGNUM *e_any = NULL; /* the first e asked for */
	int too_long = 0;
	for (int i = 0; i < OPS_MAX; i++)
		g->faulty[i] = 0;
	for (int i = 0; i < count; i++) {
		if (ops[i].e == NULL)
			continue;
		*ops[i].fault = -1;
		e_any = e_any != NULL ? e_any : ops[i].e;
		too_long |= ops[i].e->len > len;
	}
	if (e_any == NULL || too_long || !g->in_lanes)
		return;
	int equal[BIG_LANES] = { 0 };
	for (int i = 0; i < OPS_MAX; i++) {
		const big_crt_batch_op *op = &ops[i < count ? i : 0];
		/* Lanes that ask for no check (unused, or e NULL) take
		 * another's e: a check nobody reads. */
		const BIGNUM *pe = op->e != NULL ? op->e : e_any;
		big_copy_pad_vec(ax, lpq, prod + (size_t)i * lpq, i < count ? lpq : 0);
		big_copy_pad_vec(ix, len, pe->value, pe->len);
		CB_NAME(from_chunks)(x, i, 2 * k, ax, lpq);
		copy_lane(x, OPS_MAX + i, i, 2 * k);
		for (int hq = 0; hq < 2; hq++)
			big_lanes_exponent_words(g->e + (size_t)(hq * OPS_MAX + i) * ewords,
						 ewords, ix, len);
	}
	CB_CHECK_IN_LANES(equal, g->base, x, g->y, g->out, g->r1, g->e, ewords, g->mod, lanes,
			  g->pw);
	/* p q = n: a check modulo primes trusts them (one product a key of
	 * the group; n and the key's BIGNUMs are public pointers). */
	int pq_ok[OPS_MAX];
	for (int i = 0; i < count; i++) {
		const big_crt_batch_op *op = &ops[i];
		const int j = g->key_of[i];
		if (op->e == NULL)
			continue;
		if (j != i && ops[j].e != NULL && ops[j].n == op->n) {
			pq_ok[i] = pq_ok[j];
		} else {
			/* mp is free once Garner is done. */
			big_mul_vec(ax, op->p->value, len, op->q->value, len);
			big_copy_pad_vec(mp, lpq, op->n->value, op->n->len);
			chunk_t differ = 0;
			for (int w = 0; w < lpq; w++)
				differ |= ax[w] ^ mp[w];
			pq_ok[i] = differ == 0;
		}
		g->faulty[i] = !(equal[i] & equal[OPS_MAX + i] & pq_ok[i]);
		*op->fault = g->faulty[i];
	}
}

BIG_ERR_CODE CB_ENTRY(const big_crt_batch_op *ops, int count,
		      const struct CB_NAME(ops) *lanes, void *scratch,
		      size_t scratch_size)
{
	if (ops == NULL || lanes == NULL || scratch == NULL || count < 1 ||
	    count > CB_OPS_MAX)
		return BIG_INVALID_ARGS;
	const int len = big_crt_batch_len(ops[0].p, ops[0].q);
	if (len == 0 || !CB_LEN_OK(len))
		return BIG_INVALID_ARGS;
	for (int i = 0; i < count; i++)
		if (!lens_ok(&ops[i], len))
			return BIG_INVALID_ARGS;
	const struct layout L = layout_of(len);
	if (scratch_size < L.total)
		return BIG_INVALID_ARGS;
	/* Each result grown now where it must (its value kept), so that the
	 * stores at the end cannot fail part way. */
	for (int i = 0; i < count; i++) {
		const BIG_ERR_CODE grown = big_extend(ops[i].result, 2 * len);
		if (grown != BIG_OK)
			return grown;
	}

	uint8_t *s = (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
	const int groups = (count + OPS_MAX - 1) / OPS_MAX;
	struct cb_group g[CB_GROUPS];
	BIG_ERR_CODE err = BIG_OK;
	for (int j = 0; j < groups && err == BIG_OK; j++) {
		g[j].ops = ops + j * OPS_MAX;
		g[j].count = count - j * OPS_MAX < OPS_MAX ? count - j * OPS_MAX : OPS_MAX;
		cb_carve(&g[j], s + (size_t)j * L.group, &L);
		err = cb_prepare(&g[j], lanes, len);
	}
	if (err == BIG_OK) {
		const int ewords = ewords_of(len);
		if (groups == 2 && lanes->pow2 != NULL) {
			uint64_t *const out2[2] = { g[0].out, g[1].out };
			const uint64_t *const base2[2] = { g[0].base, g[1].base };
			const uint64_t *const e2[2] = { g[0].e, g[1].e };
			const struct CB_NAME(mod) *const mod2[2] = { g[0].mod, g[1].mod };
			uint64_t *const pw2[2] = { g[0].pw, g[1].pw };
			lanes->pow2(out2, base2, e2, ewords, mod2, pw2);
		} else {
			for (int j = 0; j < groups; j++)
				lanes->pow(g[j].out, g[j].base, g[j].e, ewords, g[j].mod, g[j].pw);
		}
		for (int j = 0; j < groups; j++)
			cb_finish(&g[j], lanes, len);
		/* Every operation is done: now the results. */
		for (int j = 0; j < groups; j++)
			for (int i = 0; i < g[j].count && err == BIG_OK; i++)
				if (!g[j].faulty[i])
					err = big_store_vec(g[j].ops[i].result,
							    g[j].prod + (size_t)i * 2 * len, 2 * len);
	}
	big_wipe(s, (size_t)groups * L.group);
	return err;
}
