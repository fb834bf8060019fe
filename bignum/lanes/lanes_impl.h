/*
 * The lane algorithm, written once (contracts: lanes.h): the Montgomery
 * product, the dedicated squaring and the window-5 exponentiation of eight
 * lane numbers, each lane under its own modulus.  Included once per build
 * after a vector API (vec_c.h: the twin; vec_avx2.h: AVX2).
 *
 * Configuration, defined by the including file:
 *   LN_SFX          the build's suffix: big_lanes_mul_<LN_SFX> and so on
 *   LN_FIXED_SIZES  (optional) 1: the RSA digit counts 19, 37, 55, 74 get
 *                   their own copies of the product and the squaring with
 *                   k a constant, so the compiler can plan the loops
 *   LN_PICK         (optional, with LN_FIXED_SIZES) LN_PICK(op, K, args):
 *                   what the entry points run at K = 19, 37, 55, 74 digits
 *                   (lanes_avx2.c: the NASM kernel or ln_<op>_<K>, as the
 *                   dispatch says); by default ln_<op>_<K>(args)
 *   LN_WIPE_FRAMES  (optional) run by big_lanes_pow before it returns, at
 *                   its own stack depth: zeroes what the kernels it
 *                   called left below it (lanes_avx2.c: the NASM
 *                   kernels' frames and registers); by default nothing
 *   LN_VLANES       (by the vector API) lanes a vector: 4 (vec_c.h,
 *                   vec_avx2.h) or 8 (vec_avx512.h)
 *   LN_KARATSUBA    (optional) 1: the squaring squares by one level of
 *                   Karatsuba from LN_SQR_KARATSUBA_MIN digits, the
 *                   product multiplies so from LN_MUL_KARATSUBA_MIN
 *                   (ln_square_karatsuba, ln_product_karatsuba; the same
 *                   words)
 *
 * Streams.  The eight lanes are LN_STREAMS = 8 / LN_VLANES streams of
 * LN_VLANES lanes: two of four (lanes 0..3, 4..7) on ymm, one of eight
 * on zmm.  Digit j of stream s is the vector at BIG_LANES * j +
 * LN_VLANES s; every step is lane-wise, and each stream has its own 2k
 * columns t (no carries between columns until the end).
 *
 * The product, in two phases over the columns:
 *   1. t = a b, operand scanning, six rows a pass: a_i .. a_{i+5} in
 *      registers, column i + j += a_i b_j + ... + a_{i+5} b_{j-5}, six
 *      products summed as a tree into one update of the column;
 *   2. the reduction, six rows a pass: the Montgomery digits
 *      q_r = (t_r k0) mod 2^28 in turn (column r, once the pass's
 *      q_{r'} m_{r-r'} and the carry from column r - 1 are in it, is then
 *      0 mod 2^28; its top (>> 28) is the carry into column r + 1), then
 *      columns += q_i m_j + ... + q_{i+5} m_{j-5} as in phase 1.  Both
 *      streams' passes side by side, and each pass's digits computed
 *      during the pass before (ln_reduce), so the serial digit chains
 *      hide under independent columns;
 *   then one carry pass over columns k .. 2k-1 gives the k normalised
 *   digits of T = (a b + Y m) / R.  The last k mod 6 rows of each phase go
 *   one at a time, but the reduction's very last row, and the product's
 *   (a b, not the square's), ride in the carry pass (no column updates
 *   of their own).
 * Columns stay below 2^64 by lanes.h's bound (at most 2k products and a
 * carry below 2^36 each).
 *
 * Why six rows and two phases: on the vector ports every product costs a
 * vpmuludq and a vpaddq, so what else a column costs (its load and store,
 * the loop) must be spread over as many products as the 16 ymm registers
 * allow: six row digits, three digits of b (or m) rotating, a tree of
 * sums.  Keeping the a b rows and the reduction rows in separate phases
 * keeps each pass one shape, with its edges unrolled and no branch inside.
 *
 * The squaring: phase 1 is the square, each cross product once, by the
 * doubled digit 2 a_i (< 2^29: vpmuludq's 32 bits hold it), six rows a
 * pass, and the squares a_i^2; phase 2 the same reduction.  k^2/2 + k/2
 * products for the square and k^2 for the reduction, against 2k^2 in the
 * product.
 */
#include "lanes.h"

#define LN_CAT2(a, b) a##_##b
#define LN_CAT(a, b) LN_CAT2(a, b)
#define LN_NAME(f) LN_CAT(f, LN_SFX)
#ifndef LN_WIPE_FRAMES
#define LN_WIPE_FRAMES() ((void)0)
#endif
#ifndef LN_INLINE
#define LN_INLINE static inline __attribute__((always_inline))
#endif

#define LN_STREAMS (BIG_LANES / LN_VLANES)
_Static_assert(LN_STREAMS * LN_VLANES == BIG_LANES, "whole streams");

/* Digit j of stream s. */
#define LN_AT(p, j, s)                                                       \
	((p) + (size_t)BIG_LANES * (size_t)(j) + LN_VLANES * (size_t)(s))

/* Columns k .. 2k-1 of each stream's columns t[s], carried, into r's
 * digits: the streams' serial carry chains in one loop, so that each
 * hides the other's latency (one stream: the chain alone).  last: the reduction's
 * last row (k - 1) is still to do, and is done here: its digit q from
 * column k - 1, its carry into column k and its products q m_{j+1} into
 * column k + j ride beside the carry chain, off its path, instead of a
 * read-modify-write of a column each.  ab (with last; a product): so is
 * the product's last row, a_{k-1} b_j into column k - 1 + j, before q.
 * a and b are read before r's digit at or above the one read is written
 * (r may be a or b). */
LN_INLINE void ln_carry_out(uint64_t *r, lv *const *t, const uint64_t *a,
			    const uint64_t *b, const struct big_lanes_mod *mod,
			    const int last, const int ab, const int k)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK);
	const uint64_t *m = mod->m;
	lv c[LN_STREAMS], q[LN_STREAMS], ad[LN_STREAMS];
#pragma GCC unroll 2
	for (int s = 0; s < LN_STREAMS; s++)
		c[s] = q[s] = ad[s] = lv_zero();
	if (last) {
#pragma GCC unroll 2
		for (int s = 0; s < LN_STREAMS; s++) {
			lv x = t[s][k - 1];
			if (ab) {
				ad[s] = lv_load(LN_AT(a, k - 1, s));
				x = lv_add(x, lv_mul(ad[s], lv_load(LN_AT(b, 0, s))));
			}
			q[s] = lv_and(lv_mul(x, lv_load(mod->k0 + LN_VLANES * s)), mask);
			c[s] = lv_srl(lv_add(x, lv_mul(q[s], lv_load(LN_AT(m, 0, s)))),
				      BIG_LANES_DIGIT_BITS);
		}
	}
	for (int j = 0; j < k; j++) {
		lv x[LN_STREAMS];
#pragma GCC unroll 2
		for (int s = 0; s < LN_STREAMS; s++) {
			x[s] = lv_add(t[s][k + j], c[s]);
			if (last && j + 1 < k)
				x[s] = lv_add(x[s], lv_mul(q[s], lv_load(LN_AT(m, j + 1, s))));
			if (last && ab && j + 1 < k)
				x[s] = lv_add(x[s], lv_mul(ad[s], lv_load(LN_AT(b, j + 1, s))));
		}
#pragma GCC unroll 2
		for (int s = 0; s < LN_STREAMS; s++) {
			lv_store(LN_AT(r, j, s), lv_and(x[s], mask));
			c[s] = lv_srl(x[s], BIG_LANES_DIGIT_BITS);
		}
	}
}

/* Rows a pass takes: six row digits in registers, each column's six
 * products summed as a tree into one read-modify-write of the column. */
#define LN_ROWS 6

/* Column j of a pass whose six rows all reach it: sum over rows r of
 * X_r y_{j-r}, with y_j .. y_{j-2} given (P0..P2: held in registers
 * across three columns) and y_{j-3} .. y_{j-5} read as operands.  The sums
 * pair up as soon as two products are there, so no long chain of
 * additions waits on the multiplier. */
LN_INLINE lv ln_col6w(const lv *X, lv P0, lv P1, lv P2, const uint64_t *y,
		      int j, int s)
{
	const lv p01 = lv_add(lv_mul(X[0], P0), lv_mul(X[1], P1));
	const lv p23 = lv_add(lv_mul(X[2], P2),
			      lv_mul(X[3], lv_load(LN_AT(y, j - 3, s))));
	const lv p45 = lv_add(lv_mul(X[4], lv_load(LN_AT(y, j - 4, s))),
			      lv_mul(X[5], lv_load(LN_AT(y, j - 5, s))));
	return lv_add(lv_add(p01, p23), p45);
}

/* t[i + j] += the six rows' terms, columns j in [from, to), j >= 5: three
 * columns a step, y_j .. y_{j-2} rotating through three registers so that
 * none is copied. */
LN_INLINE void ln_cols6(lv *t, const lv *X, const uint64_t *y, int from,
			int to, int s, int i)
{
	int j = from;
	if (j >= to)
		return;
	lv W0, W1 = lv_load(LN_AT(y, j - 1, s)), W2 = lv_load(LN_AT(y, j - 2, s));
	for (; j + 3 <= to; j += 3) {
		W0 = lv_load(LN_AT(y, j, s));
		t[i + j] = lv_add(t[i + j], ln_col6w(X, W0, W1, W2, y, j, s));
		W2 = lv_load(LN_AT(y, j + 1, s));
		t[i + j + 1] = lv_add(t[i + j + 1], ln_col6w(X, W2, W0, W1, y, j + 1, s));
		W1 = lv_load(LN_AT(y, j + 2, s));
		t[i + j + 2] = lv_add(t[i + j + 2], ln_col6w(X, W1, W2, W0, y, j + 2, s));
	}
	for (; j < to; j++) {
		W0 = lv_load(LN_AT(y, j, s));
		t[i + j] = lv_add(t[i + j], ln_col6w(X, W0, W1, W2, y, j, s));
		W2 = W1;
		W1 = W0;
	}
}

/* The first pass's columns: written, not added to. */
LN_INLINE void ln_cols6_init(lv *t, const lv *X, const uint64_t *y, int from,
			     int to, int s)
{
	for (int j = from; j < to; j++)
		t[j] = ln_col6w(X, lv_load(LN_AT(y, j, s)), lv_load(LN_AT(y, j - 1, s)),
				lv_load(LN_AT(y, j - 2, s)), y, j, s);
}

/* t[i + j] += sum over rows r of X_r y_{j-r}, over the terms with
 * lo + step r <= j - r < k and the columns j in [first, k + 5): the edge
 * below full = lo + 5 (step + 1), the first column all six rows reach,
 * then all six to k, then the edge above.  step is a constant at every
 * call and first - lo is 0 or past the lower edge, so the edges unroll into straight code
 * whose tests on r fold away but for bounds that depend on i (public).
 * init (a constant): the columns are written, not added to (the first
 * pass: t needs no zeroing below k + 5). */
#define LN_ACC(x, u) (init ? (u) : lv_add((x), (u)))
LN_INLINE void ln_rows6(lv *t, const lv *X, const uint64_t *y, int first,
			int lo, const int step, const int init, const int k,
			int s, int i)
{
	const int full = lo + 5 * (step + 1);
#pragma GCC unroll 10
	for (int c = first - lo; c < 5 * (step + 1); c++) {
		const int j = lo + c;
		if (j >= k + LN_ROWS - 1)
			break;
		lv u = lv_zero();
#pragma GCC unroll 6
		for (int r = 0; r < LN_ROWS; r++)
			if (c >= (step + 1) * r && j - r < k)
				u = lv_add(u, lv_mul(X[r], lv_load(LN_AT(y, j - r, s))));
		t[i + j] = LN_ACC(t[i + j], u);
	}
	if (init)
		ln_cols6_init(t, X, y, first > full ? first : full, k, s);
	else
		ln_cols6(t, X, y, first > full ? first : full, k, s, i);
#pragma GCC unroll 5
	for (int c = 0; c < LN_ROWS - 1; c++) {
		const int j = k + c;
		if (j < full || j < first)
			continue;
		lv u = lv_zero();
#pragma GCC unroll 6
		for (int r = c + 1; r < LN_ROWS; r++)
			if (j - r >= lo + step * r)
				u = lv_add(u, lv_mul(X[r], lv_load(LN_AT(y, j - r, s))));
		t[i + j] = LN_ACC(t[i + j], u);
	}
}
#undef LN_ACC

/* t[from .. to) = 0. */
LN_INLINE void ln_zero(lv *t, int from, int to)
{
	for (int j = from; j < to; j++)
		t[j] = lv_zero();
}

/* The product a b into t, one stream: rows i .. i + 5 a pass (no
 * Montgomery digit, so no pass waits on another), the last k mod 6 rows
 * one at a time but the very last when last is 1 (ln_carry_out takes
 * it: the reduction never reads column k - 1 before then). */
LN_INLINE void ln_product(lv *t, const uint64_t *a, const uint64_t *b,
			  const int last, const int k, int s)
{
	lv A[LN_ROWS];
	int i = 0;
	if (k >= LN_ROWS) {
		for (int r = 0; r < LN_ROWS; r++)
			A[r] = lv_load(LN_AT(a, r, s));
		ln_rows6(t, A, b, 0, 0, 0, 1, k, s, 0);
		ln_zero(t, k + LN_ROWS - 1, 2 * k);
		i = LN_ROWS;
	} else {
		ln_zero(t, 0, 2 * k);
	}
	for (; i + LN_ROWS <= k; i += LN_ROWS) {
		for (int r = 0; r < LN_ROWS; r++)
			A[r] = lv_load(LN_AT(a, i + r, s));
		ln_rows6(t, A, b, 0, 0, 0, 0, k, s, i);
	}
	for (; i < k - last; i++) {
		const lv a0 = lv_load(LN_AT(a, i, s));
		for (int j = 0; j < k; j++)
			t[i + j] = lv_add(t[i + j], lv_mul(a0, lv_load(LN_AT(b, j, s))));
	}
}

/* The square a a into t, one stream: each cross product once, by the
 * doubled digit D_r = 2 a_{i+r} (< 2^29: vpmuludq's 32 bits hold it),
 * rows i .. i + 5 a pass: row r takes D_r a_{j'} for i + r < j' < k, at
 * column i + r + j', and its own square a_{i+r}^2 at 2 (i + r). */
LN_INLINE void ln_square(lv *t, const uint64_t *a, const int k, int s)
{
	lv A[LN_ROWS], D[LN_ROWS];
	int i = 0;
	if (k < LN_ROWS)
		ln_zero(t, 0, 2 * k);
	for (; i + LN_ROWS <= k; i += LN_ROWS) {
		for (int r = 0; r < LN_ROWS; r++) {
			A[r] = lv_load(LN_AT(a, i + r, s));
			D[r] = lv_add(A[r], A[r]);
		}
		if (i == 0) {
			/* Columns 1 .. k + 4 written, 0 and the rest zeroed. */
			ln_rows6(t, D, a, 1, 1, 1, 1, k, s, 0);
			t[0] = lv_zero();
			ln_zero(t, k + LN_ROWS - 1, 2 * k);
		} else {
			ln_rows6(t, D, a, i + 1, i + 1, 1, 0, k, s, i);
		}
		for (int r = 0; r < LN_ROWS; r++)
			t[2 * (i + r)] = lv_add(t[2 * (i + r)], lv_mul(A[r], A[r]));
	}
	for (; i < k; i++) {
		const lv a0 = lv_load(LN_AT(a, i, s)), d0 = lv_add(a0, a0);
		t[2 * i] = lv_add(t[2 * i], lv_mul(a0, a0));
		for (int j = i + 1; j < k; j++)
			t[i + j] = lv_add(t[i + j], lv_mul(d0, lv_load(LN_AT(a, j, s))));
	}
}

#if defined(LN_KARATSUBA) && LN_KARATSUBA
/* Half the digits, rounded up, of the largest lane number. */
#define LN_KA_MAX_H ((BIG_LANES_MAX_DIGITS + 1) / 2)

/* t += x^h (mid - lo - hi), lo and hi the halves' products in t's
 * columns 0 .. 2h - 1 and 2h .. 2h + 2l - 1, mid the product of the sums
 * (2h columns, rewritten): the middle term of both Karatsuba forms. */
LN_INLINE void ln_karatsuba_middle(lv *t, lv *mid, const int h, const int l)
{
	for (int c = 0; c < 2 * h; c++) {
		mid[c] = lv_sub(mid[c], t[c]);
		if (c < 2 * l)
			mid[c] = lv_sub(mid[c], t[2 * h + c]);
	}
	for (int c = 0; c < 2 * h - 1; c++)
		t[h + c] = lv_add(t[h + c], mid[c]);
}

/* The square a a into t, one stream, by one level of Karatsuba on the
 * digit polynomial: with x = 2^28, h = (k + 1) / 2, lo = a_0 .. a_{h-1},
 * hi = a_h .. a_{k-1} and d_j = a_j + a_{h+j} (a_{h-1} alone when k is
 * odd),
 *   a^2 = lo^2 + x^h (d^2 - lo^2 - hi^2) + x^2h hi^2,
 * column by column (a column: the coefficient of a power of x, not
 * carried).  As polynomials these are identities, so every column ends as
 * the schoolbook square's, the one lanes.h bounds.  On the way columns are
 * added and subtracted whole in 64 bits and may wrap (d^2's columns reach
 * h 2^58); mod 2^64 every wrap cancels and each column ends below 2^64,
 * so exactly at it.  d_j < 2^29, so the doubled 2 d_j < 2^30 is within
 * vpmuludq's 32 bits.  Products: 2 h(h+1)/2 + l(l+1)/2 (l = k - h)
 * against k(k+1)/2: 2109 against 2775 at 74 digits.  lo^2 and hi^2 fill
 * t's two halves (columns 0 .. 2h - 1 and 2h .. 2k - 1) without
 * overlapping; d and d^2 - lo^2 - hi^2 live in the frame. */
LN_INLINE void ln_square_karatsuba(lv *t, const uint64_t *a, const int k, int s)
{
	if (k > BIG_LANES_MAX_DIGITS)
		__builtin_unreachable(); /* the contract (lanes.h): d and mid fit */
	const int h = (k + 1) / 2, l = k - h;
	uint64_t d[BIG_LANES * LN_KA_MAX_H] __attribute__((aligned(64)));
	lv mid[2 * LN_KA_MAX_H];
	for (int j = 0; j < h; j++) {
		const lv lo = lv_load(LN_AT(a, j, s));
		lv_store(LN_AT(d, j, s), j < l ? lv_add(lo, lv_load(LN_AT(a, h + j, s))) : lo);
	}
	ln_square(t, a, h, s);
	ln_square(t + 2 * h, a + (size_t)BIG_LANES * h, l, s);
	ln_square(mid, d, h, s);
	ln_karatsuba_middle(t, mid, h, l);
}

/* The product a b into t the same way: lo_a lo_b and hi_a hi_b into t's
 * halves, (lo_a + hi_a)(lo_b + hi_b) - both at x^h; every row of a b
 * (ln_carry_out then takes none).  Sums below 2^29, their products below
 * 2^58: the same wraps and the same exact ends.  3 h^2 products (h = k/2)
 * against k^2. */
LN_INLINE void ln_product_karatsuba(lv *t, const uint64_t *a, const uint64_t *b, const int k,
				    int s)
{
	if (k > BIG_LANES_MAX_DIGITS)
		__builtin_unreachable(); /* the contract (lanes.h): da, db and mid fit */
	const int h = (k + 1) / 2, l = k - h;
	uint64_t da[BIG_LANES * LN_KA_MAX_H] __attribute__((aligned(64)));
	uint64_t db[BIG_LANES * LN_KA_MAX_H] __attribute__((aligned(64)));
	lv mid[2 * LN_KA_MAX_H];
	for (int j = 0; j < h; j++) {
		const lv x = lv_load(LN_AT(a, j, s)), y = lv_load(LN_AT(b, j, s));
		lv_store(LN_AT(da, j, s), j < l ? lv_add(x, lv_load(LN_AT(a, h + j, s))) : x);
		lv_store(LN_AT(db, j, s), j < l ? lv_add(y, lv_load(LN_AT(b, h + j, s))) : y);
	}
	ln_product(t, a, b, 0, h, s);
	ln_product(t + 2 * h, a + (size_t)BIG_LANES * h, b + (size_t)BIG_LANES * h, 0, l, s);
	ln_product(mid, da, db, 0, h, s);
	ln_karatsuba_middle(t, mid, h, l);
}
#endif

/* The Montgomery digits Q_0 .. Q_5 of rows i .. i + 5, one stream: Q_r
 * from column i + r once the pass's Q_q m_{r-q} (q < r) and the carry of
 * column i + r - 1 are in it; column i + r is then 0 mod 2^28, and its
 * top (>> 28) is that carry.  A serial chain of some 10 cycles a row:
 * ln_reduce runs the other stream's chain and columns beside it. */
LN_INLINE void ln_reduce_digits(lv *Q, lv *t, const uint64_t *m, const lv k0,
				int s, int i)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK);
	const lv m0 = lv_load(LN_AT(m, 0, s));
	lv carry = lv_zero();
#pragma GCC unroll 6
	for (int r = 0; r < LN_ROWS; r++) {
		lv x = t[i + r];
#pragma GCC unroll 6
		for (int q = 0; q + 1 < r; q++)
			x = lv_add(x, lv_mul(Q[q], lv_load(LN_AT(m, r - q, s))));
		if (r > 0)
			x = lv_add(x, lv_add(lv_mul(Q[r - 1], lv_load(LN_AT(m, 1, s))), carry));
		Q[r] = lv_and(lv_mul(x, k0), mask);
		carry = lv_srl(lv_add(x, lv_mul(Q[r], m0)), BIG_LANES_DIGIT_BITS);
	}
	t[i + LN_ROWS] = lv_add(t[i + LN_ROWS], carry);
}

/* The Montgomery reduction of the 2k columns t[s] of each stream, rows
 * i .. i + 5 a pass, the last k mod 6 rows one at a
 * time but the very last, which ln_carry_out takes when last is 1
 * (LN_LAST_ROW: k is not a multiple of 6).  Software-pipelined: the
 * digits of the next pass need only columns i + 6 .. i + 11 of this one,
 * so each pass runs those six columns, then the next pass's serial
 * digit chains (one a stream), then its other columns, which the chains'
 * latency hides under.  Columns k .. 2k - 1 then hold T = (x + Y m) / R,
 * uncarried, but for the last row's terms when last is 1. */
#define LN_LAST_ROW(k) ((k) % LN_ROWS != 0)
LN_INLINE void ln_reduce(lv *const *t, const struct big_lanes_mod *mod,
			 const int last, const int k)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK);
	const uint64_t *m = mod->m;
	lv k0[LN_STREAMS];
	for (int s = 0; s < LN_STREAMS; s++)
		k0[s] = lv_load(mod->k0 + LN_VLANES * s);
	lv Q[2][LN_STREAMS][LN_ROWS];
	int i = 0, cur = 0;
	if (k >= LN_ROWS)
		for (int s = 0; s < LN_STREAMS; s++)
			ln_reduce_digits(Q[cur][s], t[s], m, k0[s], s, 0);
	for (; i + LN_ROWS <= k; i += LN_ROWS, cur ^= 1) {
		const int mid = 2 * LN_ROWS < k ? 2 * LN_ROWS : k;
		for (int s = 0; s < LN_STREAMS; s++)
			ln_cols6(t[s], Q[cur][s], m, LN_ROWS, mid, s, i);
		if (i + 2 * LN_ROWS <= k)
			for (int s = 0; s < LN_STREAMS; s++)
				ln_reduce_digits(Q[cur ^ 1][s], t[s], m, k0[s], s,
						 i + LN_ROWS);
		for (int s = 0; s < LN_STREAMS; s++)
			ln_rows6(t[s], Q[cur][s], m, mid, 0, 0, 0, k, s, i);
	}
	for (; i < k - last; i++) {
		for (int s = 0; s < LN_STREAMS; s++) {
			lv x = t[s][i];
			const lv q0 = lv_and(lv_mul(x, k0[s]), mask);
			x = lv_add(x, lv_mul(q0, lv_load(LN_AT(m, 0, s))));
			t[s][i + 1] = lv_add(t[s][i + 1], lv_srl(x, BIG_LANES_DIGIT_BITS));
			for (int j = 1; j < k; j++)
				t[s][i + j] = lv_add(t[s][i + j],
						     lv_mul(q0, lv_load(LN_AT(m, j, s))));
		}
	}
}

LN_INLINE void ln_mul_k(uint64_t *r, const uint64_t *a, const uint64_t *b,
			const struct big_lanes_mod *mod, const int k)
{
	lv t[LN_STREAMS][2 * BIG_LANES_MAX_DIGITS];
	lv *tp[LN_STREAMS];
#if defined(LN_KARATSUBA) && LN_KARATSUBA
	if (k >= LN_MUL_KARATSUBA_MIN) {
		for (int s = 0; s < LN_STREAMS; s++) {
			tp[s] = t[s];
			ln_product_karatsuba(t[s], a, b, k, s);
		}
		ln_reduce(tp, mod, LN_LAST_ROW(k), k);
		ln_carry_out(r, tp, a, b, mod, LN_LAST_ROW(k), 0, k);
		return;
	}
#endif
	for (int s = 0; s < LN_STREAMS; s++) {
		tp[s] = t[s];
		ln_product(t[s], a, b, LN_LAST_ROW(k), k, s);
	}
	ln_reduce(tp, mod, LN_LAST_ROW(k), k);
	ln_carry_out(r, tp, a, b, mod, LN_LAST_ROW(k), 1, k);
}

LN_INLINE void ln_sqr_k(uint64_t *r, const uint64_t *a,
			const struct big_lanes_mod *mod, const int k)
{
	lv t[LN_STREAMS][2 * BIG_LANES_MAX_DIGITS];
	lv *tp[LN_STREAMS];
	for (int s = 0; s < LN_STREAMS; s++) {
		tp[s] = t[s];
#if defined(LN_KARATSUBA) && LN_KARATSUBA
		if (k >= LN_SQR_KARATSUBA_MIN)
			ln_square_karatsuba(t[s], a, k, s);
		else
#endif
			ln_square(t[s], a, k, s);
	}
	ln_reduce(tp, mod, LN_LAST_ROW(k), k);
	ln_carry_out(r, tp, a, a, mod, LN_LAST_ROW(k), 0, k);
}

#if defined(LN_FIXED_SIZES) && LN_FIXED_SIZES
#define LN_SIZE(K)                                                           \
	static void ln_mul_##K(uint64_t *r, const uint64_t *a,               \
			       const uint64_t *b,                            \
			       const struct big_lanes_mod *mod)              \
	{                                                                    \
		ln_mul_k(r, a, b, mod, K);                                   \
	}                                                                    \
	static void ln_sqr_##K(uint64_t *r, const uint64_t *a,               \
			       const struct big_lanes_mod *mod)              \
	{                                                                    \
		ln_sqr_k(r, a, mod, K);                                      \
	}
LN_SIZE(19)
LN_SIZE(37)
LN_SIZE(55)
LN_SIZE(74)
#ifndef LN_PICK
#define LN_PICK(op, K, ...) ln_##op##_##K(__VA_ARGS__)
#endif
#define LN_SIZE_CASES(op, ...)                                               \
	case 19:                                                             \
		LN_PICK(op, 19, __VA_ARGS__);                                \
		return;                                                      \
	case 37:                                                             \
		LN_PICK(op, 37, __VA_ARGS__);                                \
		return;                                                      \
	case 55:                                                             \
		LN_PICK(op, 55, __VA_ARGS__);                                \
		return;                                                      \
	case 74:                                                             \
		LN_PICK(op, 74, __VA_ARGS__);                                \
		return;
#else
#define LN_SIZE_CASES(op, ...)
#endif
void LN_NAME(big_lanes_mul)(uint64_t *r, const uint64_t *a, const uint64_t *b,
			    const struct big_lanes_mod *mod)
{
	switch (mod->digits) {
		LN_SIZE_CASES(mul, r, a, b, mod)
	default:
		ln_mul_k(r, a, b, mod, mod->digits);
	}
}

void LN_NAME(big_lanes_sqr)(uint64_t *r, const uint64_t *a,
			    const struct big_lanes_mod *mod)
{
	switch (mod->digits) {
		LN_SIZE_CASES(sqr, r, a, mod)
	default:
		ln_sqr_k(r, a, mod, mod->digits);
	}
}

/* Digit pairs of a packed table entry: digits 2p and 2p + 1 of a lane in
 * the low and high 32 bits of one word (digits are below 2^28). */
#define LN_PAIRS(k) (((k) + 1) / 2)
/* Pairs the masked scan takes a step: eight accumulators in registers. */
#define LN_SELECT_BLOCK 4

/* Entry e of the table (k digits at table + e * BIG_LANES_WORDS(k)) packed
 * in place to table + e * BIG_LANES_WORDS(LN_PAIRS(k)), entries in
 * increasing order.  Each pair is written at or below where its digits
 * were read and below every digit still unread (LN_PAIRS(k) <= k), so
 * nothing is overwritten before it is read.  Half the table's bytes: the
 * scan of every entry at every window reads half as much (the unpacked
 * table, 32 k 64 bytes, is larger than the L1 cache at RSA sizes). */
LN_INLINE void ln_pack_table(uint64_t *table, const int k)
{
	const size_t words = BIG_LANES_WORDS(k);
	const size_t pwords = BIG_LANES_WORDS(LN_PAIRS(k));
	for (int e = 0; e < BIG_LANES_TABLE_ENTRIES; e++) {
		const uint64_t *x = table + (size_t)e * words;
		uint64_t *y = table + (size_t)e * pwords;
		for (int p = 0; p < LN_PAIRS(k); p++)
			for (int s = 0; s < LN_STREAMS; s++) {
				const lv lo = lv_load(LN_AT(x, 2 * p, s));
				const lv hi = 2 * p + 1 < k ? lv_load(LN_AT(x, 2 * p + 1, s))
							    : lv_zero();
				lv_store(LN_AT(y, p, s), lv_or(lo, lv_sll(hi, 32)));
			}
	}
}

/* out = entry want_l of the packed table in each lane l (k digits,
 * unpacked), by a masked scan of all entries: every word of every entry
 * is loaded whatever want is.  LN_SELECT_BLOCK pairs of both streams at
 * a time, in registers, over all 32 entries: the reads of an entry are
 * consecutive lines.  The last block reads up to LN_SELECT_BLOCK - 1
 * pairs past an entry's end (still inside the unpacked table's space,
 * the same addresses whatever want is) and drops them. */
LN_INLINE void ln_select(uint64_t *out, const uint64_t *table,
			 const uint64_t *want, const int k)
{
	const size_t pwords = BIG_LANES_WORDS(LN_PAIRS(k));
	lv w[LN_STREAMS];
	for (int s = 0; s < LN_STREAMS; s++)
		w[s] = lv_load(want + LN_VLANES * s);
	const lv one = lv_set1(1), low = lv_set1(UINT64_C(0xffffffff));
	for (int p0 = 0; p0 < LN_PAIRS(k); p0 += LN_SELECT_BLOCK) {
		lv acc[LN_STREAMS][LN_SELECT_BLOCK];
#pragma GCC unroll 4
		for (int b = 0; b < LN_SELECT_BLOCK; b++)
			for (int s = 0; s < LN_STREAMS; s++)
				acc[s][b] = lv_zero();
		lv ev = lv_zero();
		for (int e = 0; e < BIG_LANES_TABLE_ENTRIES; e++) {
			const uint64_t *x = table + (size_t)e * pwords;
#pragma GCC unroll 2
			for (int s = 0; s < LN_STREAMS; s++) {
				const lv take = lv_eq(w[s], ev);
#pragma GCC unroll 4
				for (int b = 0; b < LN_SELECT_BLOCK; b++)
					acc[s][b] = lv_or(acc[s][b],
							  lv_and(take, lv_load(LN_AT(x, p0 + b, s))));
			}
			ev = lv_add(ev, one);
		}
#pragma GCC unroll 4
		for (int b = 0; b < LN_SELECT_BLOCK; b++) {
			const int j = 2 * (p0 + b);
			for (int s = 0; s < LN_STREAMS; s++) {
				if (j < k)
					lv_store(LN_AT(out, j, s), lv_and(acc[s][b], low));
				if (j + 1 < k)
					lv_store(LN_AT(out, j + 1, s), lv_srl(acc[s][b], 32));
			}
		}
	}
}

/* out = r - m where r >= m, else r, lane by lane (r <= m: the result of
 * the product by 1), by the borrow of the whole subtraction as a mask. */
LN_INLINE void ln_final_sub(uint64_t *out, const uint64_t *r, const uint64_t *m,
			    const int k)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK), one = lv_set1(1);
	for (int s = 0; s < LN_STREAMS; s++) {
		lv borrow = lv_zero();
		for (int j = 0; j < k; j++) {
			const lv x = lv_sub(lv_sub(lv_load(LN_AT(r, j, s)),
						   lv_load(LN_AT(m, j, s))),
					    borrow);
			lv_store(LN_AT(out, j, s), lv_and(x, mask));
			borrow = lv_srl(x, 63);
		}
		/* All-ones where no borrow (r >= m): take r - m. */
		const lv take = lv_sub(borrow, one);
		for (int j = 0; j < k; j++) {
			const lv d = lv_load(LN_AT(out, j, s));
			const lv x = lv_load(LN_AT(r, j, s));
			lv_store(LN_AT(out, j, s),
				 lv_or(lv_and(take, d), lv_andnot(take, x)));
		}
	}
}

void LN_NAME(big_lanes_pow)(uint64_t *out, const uint64_t *base,
			    const uint64_t *e, int ewords,
			    const struct big_lanes_mod *mod, uint64_t *scratch)
{
	const int k = mod->digits;
	const size_t words = BIG_LANES_WORDS(k);
	uint64_t *table = big_lanes_align64(scratch);
	uint64_t *acc = table + BIG_LANES_TABLE_ENTRIES * words;
	uint64_t *sel = acc + words, *one = sel + words;
	uint64_t want[BIG_LANES] __attribute__((aligned(32)));

	for (size_t j = 0; j < words; j++)
		one[j] = j < BIG_LANES;
	LN_NAME(big_lanes_mul)(table, mod->rr, one, mod); /* R mod m */
	LN_NAME(big_lanes_mul)(table + words, base, mod->rr, mod);
	for (int i = 2; i < BIG_LANES_TABLE_ENTRIES; i++) {
		uint64_t *x = table + (size_t)i * words;
		if (i % 2 == 0)
			LN_NAME(big_lanes_sqr)(x, table + (size_t)(i / 2) * words, mod);
		else
			LN_NAME(big_lanes_mul)(x, x - words, table + words, mod);
	}

	ln_pack_table(table, k);

	const int nbits = 64 * ewords;
	const int top = nbits % BIG_LANES_WINDOW ? nbits % BIG_LANES_WINDOW
						 : BIG_LANES_WINDOW;
	int pos = nbits - top;
	big_lanes_windows(want, e, ewords, pos, top);
	ln_select(acc, table, want, k);
	while (pos > 0) {
		pos -= BIG_LANES_WINDOW;
		for (int b = 0; b < BIG_LANES_WINDOW; b++)
			LN_NAME(big_lanes_sqr)(acc, acc, mod);
		big_lanes_windows(want, e, ewords, pos, BIG_LANES_WINDOW);
		ln_select(sel, table, want, k);
		LN_NAME(big_lanes_mul)(acc, acc, sel, mod);
	}
	LN_NAME(big_lanes_mul)(acc, acc, one, mod);
	ln_final_sub(out, acc, mod->m, k);
	LN_WIPE_FRAMES();
}
