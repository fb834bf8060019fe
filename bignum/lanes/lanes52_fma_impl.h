/*
 * The FMA lanes' column schedule and exponentiations, written once for
 * their two builds (lanes52_fma.c: two ymm streams; lanes52_fma512.c: one
 * zmm).  The arithmetic and the product scanning are lanes52_fma.c's
 * header's; this file holds what does not depend on the vector width.
 *
 * A digit line (digit j of the eight lanes, as doubles) is LF_LINE
 * vectors of type lf_vec.  The including file defines, before it:
 *   LF_LINE, lf_vec, LF_INLINE, LF_KERNEL, struct lf_consts, lf_consts(),
 *   struct lf_cols (a column's lo sums and the next one's hi sums)
 *   lf_cols_zero()                 sums of 0
 *   lf_cols_twice(x)               each sum doubled
 *   lf_madd_line(cs, a, x, y)      one line product into a's sums
 *   lf_products(a, x, y, n, cs)    x_i y_i, i < n (n >= 1): lines rising
 *   lf_products2(a, x, y, u, v, n, cs)  x_i y_i and u_i v_i, i < n (n >= 1)
 *   lf_close_column(r, a, qd, m0, k0d, c, k, n_lo, n_hi_in, cs)
 *   lf_carry_in(a, t)
 *   lf_load_line(d, x, j, cs)      digit j of lane number x into line d
 *   lf_select(out, table, entries, want, k), lf_final_sub(out, r, m, k)
 * The kernels and exponentiations here run in the rounding mode the
 * build provides (set around them, or in each instruction).
 */
#ifndef BIGMONT_LANES52_FMA_IMPL_H
#define BIGMONT_LANES52_FMA_IMPL_H

/* Line j of a frame of doubles. */
#define LF_LINE_AT(p, j) ((p) + LF_LINE * (j))

LF_INLINE void lf_to_doubles(lf_vec *d, const uint64_t *x, const int k,
			     const struct lf_consts *cs)
{
	for (int j = 0; j < k; j++)
		lf_load_line(LF_LINE_AT(d, j), x, j, cs);
}

/* The same in reversed digit order: digit k - 1 - j at line j. */
LF_INLINE void lf_to_doubles_reversed(lf_vec *d, const uint64_t *x, const int k,
				      const struct lf_consts *cs)
{
	for (int j = 0; j < k; j++)
		lf_load_line(LF_LINE_AT(d, k - 1 - j), x, j, cs);
}

/* x_i y_{c-i} for i = lo .. hi (none where hi < lo); yr: y reversed, k
 * digits. */
LF_INLINE void lf_column(struct lf_cols *a, const lf_vec *x, const lf_vec *yr, const int c,
			 const int lo, const int hi, const int k, const struct lf_consts *cs)
{
	if (hi >= lo)
		lf_products(a, LF_LINE_AT(x, lo), LF_LINE_AT(yr, k - 1 - c + lo), hi - lo + 1, cs);
}

/* Column c of the product, its terms but q_c m_0 into t from 0: a_i
 * b_{c-i} and q_i m_{c-i} for lo <= i <= qhi, and a_c b_0 where c < k
 * (no q m term beside it).  Returns how many halves of each kind. */
LF_INLINE int lf_mul_column(struct lf_cols *t, const lf_vec *ad, const lf_vec *br,
			    const lf_vec *qd, const lf_vec *mr, const int c, const int lo,
			    const int qhi, const int k, const struct lf_consts *cs)
{
	*t = lf_cols_zero();
	int n = 0;
	if (qhi >= lo) {
		n = 2 * (qhi - lo + 1);
		lf_products2(t, LF_LINE_AT(ad, lo), LF_LINE_AT(br, k - 1 - c + lo),
			     LF_LINE_AT(qd, lo), LF_LINE_AT(mr, k - 1 - c + lo), qhi - lo + 1, cs);
	}
	if (c < k) {
		n++;
		lf_madd_line(cs, t, LF_LINE_AT(ad, c), LF_LINE_AT(br, k - 1));
	}
	return n;
}

/* Column c of the squaring, its terms but q_c m_0 into t from 0: the
 * cross products a_i a_{c-i}, lo <= i <= xhi (i < c - i), doubled, the
 * square of a_{c/2} where c is even and below 2k - 1, and q_i m_{c-i} for
 * lo <= i <= qhi.  Returns how many halves of each kind. */
LF_INLINE int lf_sqr_column(struct lf_cols *t, const lf_vec *ad, const lf_vec *ar,
			    const lf_vec *qd, const lf_vec *mr, const int c, const int lo,
			    const int xhi, const int qhi, const int k, const struct lf_consts *cs)
{
	struct lf_cols x = lf_cols_zero();
	lf_column(&x, ad, ar, c, lo, xhi, k, cs);
	int n = xhi >= lo ? 2 * (xhi - lo + 1) : 0;
	*t = lf_cols_twice(x);
	if (c % 2 == 0 && c / 2 < k) {
		lf_madd_line(cs, t, LF_LINE_AT(ad, c / 2), LF_LINE_AT(ad, c / 2));
		n++;
	}
	if (qhi >= lo) {
		lf_column(t, qd, mr, c, lo, qhi, k, cs);
		n += qhi - lo + 1;
	}
	return n;
}

/* The product (squaring 0: r = a b / R, yr = b reversed) or the squaring
 * (1: r = a a / R, yr = a reversed) of lanes52.h, a as doubles, m
 * reversed.  The columns below k (each gives a q digit) and from k (each
 * a digit of r) in loops of their own: their bounds are simpler there. */
LF_INLINE void lf_columns(uint64_t *r, const lf_vec *ad, const lf_vec *yr, const lf_vec *mr,
			  const lf_vec *k0d, const int k, const int squaring)
{
	const struct lf_consts cs = lf_consts();
	lf_vec qd[LF_LINE * BIG_LANES52_MAX_DIGITS];
	const lf_vec *m0 = LF_LINE_AT(mr, k - 1);
	struct lf_cols a = lf_cols_zero();
	int n_hi_in = 0;
	for (int c = 0; c < k; c++) {
		struct lf_cols t;
		const int n = squaring
				      ? lf_sqr_column(&t, ad, yr, qd, mr, c, 0, (c - 1) >> 1, c - 1, k, &cs)
				      : lf_mul_column(&t, ad, yr, qd, mr, c, 0, c - 1, k, &cs);
		lf_carry_in(&a, &t);
		lf_close_column(r, &a, qd, m0, k0d, c, k, n, n_hi_in, &cs);
		n_hi_in = n + 1; /* and hi(q_c m_0) (lf_close_column) */
	}
	for (int c = k; c < 2 * k; c++) {
		struct lf_cols t;
		const int n = squaring ? lf_sqr_column(&t, ad, yr, qd, mr, c, c - k + 1, (c - 1) >> 1,
						       k - 1, k, &cs)
				       : lf_mul_column(&t, ad, yr, qd, mr, c, c - k + 1, k - 1, k, &cs);
		lf_carry_in(&a, &t);
		lf_close_column(r, &a, qd, m0, k0d, c, k, n, n_hi_in, &cs);
		n_hi_in = n;
	}
}

LF_KERNEL void lf_mul(uint64_t *r, const lf_vec *ad, const lf_vec *br, const lf_vec *mr,
		      const lf_vec *k0d, const int k)
{
	lf_columns(r, ad, br, mr, k0d, k, 0);
}

LF_KERNEL void lf_sqr(uint64_t *r, const lf_vec *ad, const lf_vec *ar, const lf_vec *mr,
		      const lf_vec *k0d, const int k)
{
	lf_columns(r, ad, ar, mr, k0d, k, 1);
}

/* The modulus as doubles, beside the lane layout's words: what the
 * products are given. */
struct lf_mod {
	lf_vec md[LF_LINE * BIG_LANES52_MAX_DIGITS];
	lf_vec k0d[2 * LF_LINE]; /* k0, then c1k = 2^104 - 2^52 k0 (lf_q_digit) */
	int k;
};

LF_INLINE void lf_mod_doubles(struct lf_mod *fm, const struct big_lanes52_mod *mod)
{
	const struct lf_consts cs = lf_consts();
	lf_to_doubles_reversed(fm->md, mod->m, mod->digits, &cs);
	lf_load_line(fm->k0d, mod->k0, 0, &cs);
	for (int s = 0; s < LF_LINE; s++) /* exact: 2^52 (2^52 - k0) */
		fm->k0d[LF_LINE + s] = cs.c1 - cs.two52 * fm->k0d[s];
	fm->k = mod->digits;
}

/* The product and squaring on the lane layout.  Functions of their own:
 * the operands' doubles in one frame whatever calls them (inlined into the
 * exponentiations, the sanitizer builds gave each call its own, 42 KB of
 * frame in lf_pow, deeper than their wipe). */
LF_KERNEL void lf_mul_words(uint64_t *r, const uint64_t *a, const uint64_t *b,
			    const struct lf_mod *fm)
{
	const struct lf_consts cs = lf_consts();
	lf_vec ad[LF_LINE * BIG_LANES52_MAX_DIGITS], bd[LF_LINE * BIG_LANES52_MAX_DIGITS];
	lf_to_doubles(ad, a, fm->k, &cs);
	lf_to_doubles_reversed(bd, b, fm->k, &cs);
	lf_mul(r, ad, bd, fm->md, fm->k0d, fm->k);
}

LF_KERNEL void lf_sqr_words(uint64_t *r, const uint64_t *a, const struct lf_mod *fm)
{
	const struct lf_consts cs = lf_consts();
	const int k = fm->k;
	lf_vec ad[LF_LINE * BIG_LANES52_MAX_DIGITS], ar[LF_LINE * BIG_LANES52_MAX_DIGITS];
	lf_to_doubles(ad, a, k, &cs);
	for (int j = 0; j < k; j++)
		for (int s = 0; s < LF_LINE; s++)
			LF_LINE_AT(ar, k - 1 - j)[s] = LF_LINE_AT(ad, j)[s];
	lf_sqr(r, ad, ar, fm->md, fm->k0d, k);
}

/* lanes52.h's fixed-window exponentiation on these products. */
static void lf_pow(uint64_t *out, const uint64_t *base, const uint64_t *e, int ewords,
		   const struct big_lanes52_mod *mod, const struct lf_mod *fm, uint64_t *scratch)
{
	const int k = mod->digits;
	const size_t words = BIG_LANES_WORDS(k);
	uint64_t *table = big_lanes_align64(scratch);
	const int window = BIG_LANES52_WINDOW_BITS(k), entries = 1 << window;
	uint64_t *acc = table + (size_t)entries * words;
	uint64_t *sel = acc + words, *one = sel + words;
	uint64_t want[BIG_LANES] __attribute__((aligned(64)));

	for (size_t j = 0; j < words; j++)
		one[j] = j < BIG_LANES;
	lf_mul_words(table, mod->rr, one, fm);
	lf_mul_words(table + words, base, mod->rr, fm);
	for (int i = 2; i < entries; i++) {
		uint64_t *x = table + (size_t)i * words;
		if (i % 2 == 0)
			lf_sqr_words(x, table + (size_t)(i / 2) * words, fm);
		else
			lf_mul_words(x, x - words, table + words, fm);
	}

	const int nbits = 64 * ewords;
	const int top = nbits % window ? nbits % window : window;
	int pos = nbits - top;
	big_lanes_windows(want, e, ewords, pos, top);
	lf_select(acc, table, entries, want, k);
	while (pos > 0) {
		pos -= window;
		big_lanes_windows(want, e, ewords, pos, window);
		lf_select(sel, table, entries, want, k);
		for (int b = 0; b < window; b++)
			lf_sqr_words(acc, acc, fm);
		lf_mul_words(acc, acc, sel, fm);
	}
	lf_mul_words(acc, acc, one, fm);
	lf_final_sub(out, acc, mod->m, k);
}

/* The steps of big_lanes52_pow_public_by (lanes52.h): these products. */
struct lf_public {
	const struct big_lanes52_mod *mod;
	const struct lf_mod *fm;
};
static void lf_public_mul(const void *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	lf_mul_words(r, a, b, ((const struct lf_public *)ctx)->fm);
}
static void lf_public_sqr(const void *ctx, uint64_t *r, const uint64_t *a)
{
	lf_sqr_words(r, a, ((const struct lf_public *)ctx)->fm);
}
static void lf_public_reduce(const void *ctx, uint64_t *out, const uint64_t *r)
{
	const struct big_lanes52_mod *mod = ((const struct lf_public *)ctx)->mod;
	lf_final_sub(out, r, mod->m, mod->digits);
}
static void lf_public_keep(const void *ctx, uint64_t *acc, const uint64_t *t, unsigned take)
{
	const int k = ((const struct lf_public *)ctx)->mod->digits;
	for (int l = 0; l < BIG_LANES; l++)
		if (take >> l & 1) /* public bits */
			for (int j = 0; j < k; j++)
				acc[(size_t)BIG_LANES * (size_t)j + (size_t)l] =
					t[(size_t)BIG_LANES * (size_t)j + (size_t)l];
}

LF_INLINE void lf_pow_public(uint64_t *out, const uint64_t *base, const uint64_t *e, int ewords,
			     const struct big_lanes52_mod *mod, const struct lf_mod *fm,
			     uint64_t *scratch)
{
	const struct lf_public ctx = { mod, fm };
	const struct big_lanes52_public_steps steps = { &ctx, lf_public_mul, lf_public_sqr,
							lf_public_reduce, lf_public_keep };
	big_lanes52_pow_public_by(out, base, e, ewords, mod, scratch, &steps);
}

#endif
