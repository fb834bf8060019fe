/*
 * The radix-2^52 lane algorithm, written once (contracts: lanes52.h): the
 * almost-Montgomery product, the dedicated squaring and the fixed-window
 * exponentiation of eight lane numbers, each lane under its own modulus,
 * one zmm per digit position.  Included after the vector API (vec52_ifma.h)
 * by lanes_ifma.c, and by the tests' emulated build of it.
 *
 * Configuration, defined by the including file:
 *   LN52_SFX          the build's suffix: big_lanes52_mul_<LN52_SFX> ...
 *   LN52_FIXED_SIZES  (optional) 1: the RSA digit counts 10, 20, 30, 40
 *                     get their own copies of the product and the squaring
 *                     with k a constant, so the compiler can plan the loops
 *   LN52_WINDOW_RUNTIME_K  (optional) 1: the register window
 *                     (ln52_mul_window, ln52_sqr_window) and the tiles
 *                     (ln52_mul_tiles, ln52_sqr_tiles) at every k they
 *                     serve, not only where k is a constant
 *   LN52_SQR20_NASM(r, a, mod), LN52_MUL20_NASM(r, a, b, mod),
 *   LN52_SQR20_BOUND()  (optional) a squaring and a product of its own
 *                     at k = 20 and whether the build's entry points take
 *                     them (lanes52.h: big_lanes52_sqr20_asm); the
 *                     exponentiation then reads the table ahead of its
 *                     squarings
 *
 * Halves.  z52_madd_lo(c, a, b) adds lo(a b) = (a b) mod 2^52 to c and
 * z52_madd_hi adds hi(a b) = (a b) >> 52, for digits a, b < 2^52: a b =
 * lo + 2^52 hi.  So a digit product a_i b_j is lo into column i + j and
 * hi into column i + j + 1, each below 2^52; lanes52.h bounds a column.
 *
 * Three forms of the product and the squaring.  Where k is a constant up
 * to LN52_WINDOW_DIGITS (RSA-1024 and 2048: 10 and 20 digits), the k + 1
 * live columns (k + 3 in the product and k + 2 in the squaring with the
 * early q: LN52_EARLY_Q) stay in registers, one row a pass (ln52_mul_window,
 * ln52_sqr_window, below).  Where it is a constant multiple of LN52_TILE
 * above that (RSA-3072 and 4096: 30 and 40), the columns are in memory
 * and the work goes in tiles of LN52_TILE rows by LN52_TILE digits, the
 * digits in registers (ln52_mul_tiles, ln52_sqr_tiles, below).
 * Elsewhere the columns are in memory, and the product takes rows two at
 * a time, so that a column's load and store serve eight madds:
 *
 * The product (operand scanning, the reduction interleaved, no carries
 * between columns until the end), rows two at a time:
 *   column i      x = t_i + lo(a_i b_0): complete (every other term of
 *                 column i came from rows < i, the carry of column i - 1
 *                 with them); q_i = lo(x k0) (one madd from zero reads the
 *                 low 52 bits of x, all q_i needs); x + lo(q_i m_0) is
 *                 0 mod 2^52 (k0 m_0 = -1), its top goes into column i + 1;
 *   column i + 1  likewise gives q_{i+1}, once row i's terms of it (the
 *                 hi halves of a_i b_0, q_i m_0, the lo of a_i b_1,
 *                 q_i m_1) and lo(a_{i+1} b_0) are in; its top goes into
 *                 column i + 2;
 *   column i + j  (2 <= j <= k + 1) row i's lo(a_i b_j), lo(q_i m_j),
 *                 hi(a_i b_{j-1}), hi(q_i m_{j-1}) and row i + 1's lo of
 *                 b_{j-1}, m_{j-1}, hi of b_{j-2}, m_{j-2}: the digits
 *                 b_j, m_j loaded once serve eight madds, in two chains of
 *                 four (one a row) that meet in one add.
 *   an odd last row alone; then one carry pass over columns k .. 2k - 1
 *   gives the k normalised digits of T = (a b + Y m) / R (T < 2m < R:
 *   nothing is carried out of the top).
 *
 * The squaring: the cross products a_i a_j (i < j) once, rows two at a
 * time (column i + u takes lo(a_i a_u), hi(a_i a_{u-1}), lo(a_{i+1}
 * a_{u-1}) and hi(a_{i+1} a_{u-2}) where those are cross products: a
 * steady loop where all four are, the edges with the others as zero
 * digits); each column doubled (below k 2^52 before: no overflow) and the
 * diagonal's lo(a_i^2) into column 2i, hi into 2i + 1; then the
 * reduction rows, the product's without the a b terms; then the carry
 * pass.  k^2 + k madds for the square and 2k^2 + k for the reduction
 * (the q digits included), against 4k^2 + k in the product; k fewer in
 * each where the form never forms lo(q m_0) (the tiles, and the window
 * where it takes the next q early: ln52_top_before_q).
 */
#include <string.h>

#include "lanes52.h"

#define LN52_CAT2(a, b) a##_##b
#define LN52_CAT(a, b) LN52_CAT2(a, b)
#define LN52_NAME(f) LN52_CAT(f, LN52_SFX)
#ifndef LN52_INLINE
#define LN52_INLINE static inline __attribute__((always_inline))
#endif
#ifndef LN52_SQR20_BOUND
#define LN52_SQR20_BOUND() 0
#define LN52_SQR20_NASM(r, a, mod) ((void)(r), (void)(a), (void)(mod))
#define LN52_MUL20_NASM(r, a, b, mod) ((void)(r), (void)(a), (void)(b), (void)(mod))
#endif
/* Complete unrolling where k is a constant (the register window needs its
 * columns at constant indices); the including file may define it empty. */
#ifndef LN52_UNROLL
#define LN52_PRAGMA(x) _Pragma(#x)
#define LN52_UNROLL(n) LN52_PRAGMA(GCC unroll n)
#endif

/* Digit j of the eight lanes. */
#define LN52_AT(p, j) ((p) + (size_t)BIG_LANES * (size_t)(j))

/* Columns k .. 2k-1 of t, carried (< 2^12 each step), into r's digits,
 * each word with the carry it passed on above its digit (lanes52.h's
 * digit form: no mask). */
LN52_INLINE void ln52_carry_out(uint64_t *r, const z52 *t, const int k)
{
	z52 c = z52_zero();
	for (int j = 0; j < k; j++) {
		const z52 x = z52_add(t[k + j], c);
		z52_store(LN52_AT(r, j), x);
		c = z52_shr52(x);
	}
}

/*
 * The reduction rows into t (2k columns), with the rows of a b when with_ab
 * (a constant where inlined: the product) and without (the squaring, whose
 * square is in t already).  Returns nothing; columns 0 .. k-1 end
 * 0 mod 2^52 with their tops carried, T in columns k .. 2k-1.
 */
LN52_INLINE void ln52_rows(z52 *t, const uint64_t *a, const uint64_t *b,
			   const struct big_lanes52_mod *mod, const int k,
			   const int with_ab)
{
	const z52 zero = z52_zero(), k0 = z52_load(mod->k0);
	const uint64_t *m = mod->m;
	const z52 m0 = z52_load(LN52_AT(m, 0));
	const z52 b0 = with_ab ? z52_load(LN52_AT(b, 0)) : zero;
	int i = 0;
	for (; i + 1 < k; i += 2) {
		const z52 m1 = z52_load(LN52_AT(m, 1));
		z52 a0 = zero, a1 = zero, b1 = zero;
		if (with_ab) {
			a0 = z52_load(LN52_AT(a, i));
			a1 = z52_load(LN52_AT(a, i + 1));
			b1 = z52_load(LN52_AT(b, 1));
		}
		/* Column i + 1's a b terms beside column i's chain, and its
		 * q_i terms beside x's last madd: after q_i, two madds and an
		 * add to q_{i+1}. */
		z52 x = t[i], y = t[i + 1];
		if (with_ab) {
			x = z52_madd_lo(x, a0, b0);
			y = z52_madd_hi(y, a0, b0);
			y = z52_madd_lo(y, a0, b1);
			y = z52_madd_lo(y, a1, b0);
		}
		const z52 q0 = z52_madd_lo(zero, x, k0);
		x = z52_madd_lo(x, q0, m0);
		y = z52_madd_hi(y, q0, m0);
		y = z52_madd_lo(y, q0, m1);
		y = z52_add(y, z52_shr52(x));
		const z52 q1 = z52_madd_lo(zero, y, k0);
		y = z52_madd_lo(y, q1, m0);
		t[i + 2] = z52_add(t[i + 2], z52_shr52(y));
		/* bp, mp: digit j - 1; bpp, mpp: digit j - 2. */
		z52 bp = b1, mp = m1, bpp = b0, mpp = m0;
		for (int j = 2; j < k; j++) {
			const z52 mj = z52_load(LN52_AT(m, j));
			z52 u = z52_madd_lo(t[i + j], q0, mj);
			u = z52_madd_hi(u, q0, mp);
			z52 v = z52_madd_lo(zero, q1, mp);
			v = z52_madd_hi(v, q1, mpp);
			if (with_ab) {
				const z52 bj = z52_load(LN52_AT(b, j));
				u = z52_madd_lo(u, a0, bj);
				u = z52_madd_hi(u, a0, bp);
				v = z52_madd_lo(v, a1, bp);
				v = z52_madd_hi(v, a1, bpp);
				bpp = bp;
				bp = bj;
			}
			t[i + j] = z52_add(u, v);
			mpp = mp;
			mp = mj;
		}
		/* Column i + k: row i's hi of digit k - 1, row i + 1's lo of
		 * digit k - 1 and hi of k - 2; column i + k + 1: row i + 1's
		 * hi of digit k - 1. */
		z52 u = z52_madd_hi(t[i + k], q0, mp);
		u = z52_madd_lo(u, q1, mp);
		u = z52_madd_hi(u, q1, mpp);
		z52 w = z52_madd_hi(t[i + k + 1], q1, mp);
		if (with_ab) {
			u = z52_madd_hi(u, a0, bp);
			u = z52_madd_lo(u, a1, bp);
			u = z52_madd_hi(u, a1, bpp);
			w = z52_madd_hi(w, a1, bp);
		}
		t[i + k] = u;
		t[i + k + 1] = w;
	}
	if (i < k) {
		const z52 a0 = with_ab ? z52_load(LN52_AT(a, i)) : zero;
		z52 x = t[i];
		if (with_ab)
			x = z52_madd_lo(x, a0, b0);
		const z52 q0 = z52_madd_lo(zero, x, k0);
		x = z52_madd_lo(x, q0, m0);
		t[i + 1] = z52_add(t[i + 1], z52_shr52(x));
		z52 bp = b0, mp = m0;
		for (int j = 1; j < k; j++) {
			const z52 mj = z52_load(LN52_AT(m, j));
			z52 u = z52_madd_lo(t[i + j], q0, mj);
			u = z52_madd_hi(u, q0, mp);
			if (with_ab) {
				const z52 bj = z52_load(LN52_AT(b, j));
				u = z52_madd_lo(u, a0, bj);
				u = z52_madd_hi(u, a0, bp);
				bp = bj;
			}
			t[i + j] = u;
			mp = mj;
		}
		z52 u = z52_madd_hi(t[i + k], q0, mp);
		if (with_ab)
			u = z52_madd_hi(u, a0, bp);
		t[i + k] = u;
	}
}

/*
 * The product with its k + 1 live columns in registers (k <=
 * LN52_WINDOW_DIGITS): one row a pass, acc[j] holding column i + j.  Row i
 * adds lo(a_i b_j) into acc[j] and hi into acc[j + 1]; acc[0] is then
 * complete, q_i = lo(acc[0] k0), and lo(q_i m_j), hi(q_i m_j) go in the
 * same way; acc[0] is 0 mod 2^52, its top goes into acc[1], and the window
 * moves up one column.  A column takes the same halves as in ln52_rows
 * (and the one carry from below), so lanes52.h's bound holds.  The chain
 * from one q to the next is short (lo(q m_0), the carry's shift and add,
 * the next row's lo(a b_0), q; shorter with the early q, below) while a
 * row is 4k madds, so the rows overlap; with the k + 1 columns
 * in registers the product runs at the multiplier's pace, where
 * ln52_rows, its columns in memory, waits on loads and stores
 * (docs/design-notes.md, "Measured on an IFMA CPU"); where the next q
 * goes in the row: LN52_EARLY_Q, below.  With k a constant
 * the loops unroll and acc[] is registers: 22 of the 32 zmm at k = 20, so
 * no more than LN52_WINDOW_DIGITS.
 */
#define LN52_WINDOW_DIGITS 24
/* With k known only at run time acc[] stays in memory and the window is
 * slower than ln52_rows: only the sizes compiled apart take it, unless
 * the including file asks for it at every k (the tests' emulated build,
 * so that it runs on every machine). */
#ifndef LN52_WINDOW_RUNTIME_K
#define LN52_WINDOW_RUNTIME_K 0
#endif
#define LN52_USE_WINDOW(k)                                                   \
	((k) <= LN52_WINDOW_DIGITS && (LN52_WINDOW_RUNTIME_K || __builtin_constant_p(k)))

/* The window's k columns (k .. 2k - 1 at the end), carried, into r (the
 * digit form, as ln52_carry_out). */
LN52_INLINE void ln52_window_out(uint64_t *r, const z52 *acc, const int k)
{
	z52 c = z52_zero();
LN52_UNROLL(24)
	for (int j = 0; j < k; j++) {
		const z52 x = z52_add(acc[j], c);
		z52_store(LN52_AT(r, j), x);
		c = z52_shr52(x);
	}
}

/* Row i of the product into the window: lo(a_i b_j) into acc[j] and hi
 * into acc[j + 1], for j from j0. */
LN52_INLINE void ln52_product_row(z52 *acc, const z52 ai, const uint64_t *b, const int j0,
				  const int k)
{
LN52_UNROLL(24)
	for (int j = j0; j < k; j++) {
		const z52 bj = z52_load(LN52_AT(b, j));
		acc[j] = z52_madd_lo(acc[j], ai, bj);
		acc[j + 1] = z52_madd_hi(acc[j + 1], ai, bj);
	}
}

/*
 * Digit j of m for a reduction row: mv[j] where mv is given (the caller
 * keeps m in registers), else from memory, once into a register for both
 * of the row's multiply-adds where `held`.  In the squaring with the table scan (its masks and
 * entries live too) gcc 12 otherwise folds the load into both
 * multiply-adds: 188 of the 10-digit squaring's 335 and 812 of the
 * 20-digit one's 1295 read memory, and on Intel family 6 model 167 a
 * multiply-add from memory takes 0.79 cycle of the two ports' time where
 * one from a register takes 0.52 (docs/design-notes.md).
 */
LN52_INLINE z52 ln52_m_digit(const uint64_t *m, const z52 *mv, const int held, const int j)
{
	return mv ? mv[j] : held ? z52_in_reg(z52_load(LN52_AT(m, j))) : z52_load(LN52_AT(m, j));
}

/* The reduction row by q from m_j0 on: lo(q m_j) into acc[j], hi into
 * acc[j + 1]. */
LN52_INLINE void ln52_reduce_row(z52 *acc, const uint64_t *m, const z52 *mv, const z52 q,
				 const int j0, const int k, const int held)
{
LN52_UNROLL(24)
	for (int j = j0; j < k; j++) {
		const z52 mj = ln52_m_digit(m, mv, held, j);
		acc[j] = z52_madd_lo(acc[j], q, mj);
		acc[j + 1] = z52_madd_hi(acc[j + 1], q, mj);
	}
}

/* acc[0]'s top into acc[1] (acc[0] is 0 mod 2^52 once q m_0 is in it). */
LN52_INLINE void ln52_window_carry(z52 *acc)
{
	acc[1] = z52_add(acc[1], z52_shr52(acc[0]));
}

/*
 * The top that column x passes on once q m_0 is in it, from x alone:
 * q = lo(x k0) makes x + lo(q m_0) = 0 mod 2^52, so lo(q m_0) is 2^52 -
 * (x mod 2^52), or 0 where x mod 2^52 = 0 (then q = 0), and the top is
 * (x + 2^52 - 1) >> 52.  So lo(q m_0) is never formed, and the top is
 * off the chain from one q to the next.  x + 2^52 - 1 < 2^64 is the
 * bound x + lo(q m_0) needed (lanes52.h).
 */
LN52_INLINE z52 ln52_top_before_q(const z52 x)
{
	return z52_shr52(z52_add(x, z52_set1(BIG_LANES52_DIGIT_MASK)));
}

/* The window up one column. */
LN52_INLINE void ln52_window_up(z52 *acc, const int k)
{
LN52_UNROLL(24)
	for (int j = 0; j < k; j++)
		acc[j] = acc[j + 1];
	acc[k] = z52_zero();
}

/*
 * Where the next q is taken.  Up to BIG_LANES52_EARLY_Q_DIGITS the chain
 * from q to q is most of a row's time, and the next q goes right after the
 * row's q m_0 and q m_1 and the carry (ln52_window_q_step), before the
 * row's other madds: the core issues the oldest ready instruction first,
 * so a q written after them waited behind them.  Every other term of the
 * column is in before: row r of a b (square row s) goes in right after
 * q_{r-1} (q_{2s-1}) is taken, a column below its lowest, so the window
 * is two columns wider in the product and one in the squaring.  At 10
 * digits the early q made the exponentiation 5-6 % faster, the rows ahead
 * 3 % more; at 20 the early q made it 8-12 % slower (more values live
 * across a row), and the rows there take q from the complete column after
 * the row's products (docs/design-notes.md).
 */
#define LN52_EARLY_Q(k) ((k) <= BIG_LANES52_EARLY_Q_DIGITS)

/*
 * Row q's terms in the columns the next q needs, where that q is taken
 * early: hi(q m_0) and lo(q m_1) into acc[1], and the top of acc[0] with
 * q m_0 in it, taken from acc[0] before q (ln52_top_before_q), so lo(q
 * m_0) is never formed; hi(q m_1) into acc[2].  The row's other q terms
 * are ln52_reduce_row's from m_2.  (The order of the four is measured:
 * docs/design-notes.md.)
 */
LN52_INLINE void ln52_window_q_step(z52 *acc, const z52 m0, const z52 m1, const z52 q)
{
	const z52 top = ln52_top_before_q(acc[0]);
	acc[1] = z52_madd_hi(acc[1], q, m0);
	acc[1] = z52_madd_lo(acc[1], q, m1);
	acc[2] = z52_madd_hi(acc[2], q, m1);
	acc[1] = z52_add(acc[1], top);
}

LN52_INLINE void ln52_mul_window(uint64_t *r, const uint64_t *a, const uint64_t *b,
				 const struct big_lanes52_mod *mod, const int k)
{
	const uint64_t *m = mod->m;
	const z52 k0 = z52_load(mod->k0);
	z52 acc[LN52_WINDOW_DIGITS + 3];
	if (k > LN52_WINDOW_DIGITS) /* the callers' test, for the compiler */
		__builtin_unreachable();
LN52_UNROLL(27)
	for (int j = 0; j <= k + 2; j++)
		acc[j] = z52_zero();
	if (!LN52_EARLY_Q(k)) {
LN52_UNROLL(24)
		for (int i = 0; i < k; i++) {
			ln52_product_row(acc, z52_load(LN52_AT(a, i)), b, 0, k);
			const z52 q = z52_madd_lo(z52_zero(), acc[0], k0);
			ln52_reduce_row(acc, m, NULL, q, 0, k, 0);
			ln52_window_carry(acc);
			ln52_window_up(acc, k);
		}
	} else {
		/* Product row r (r >= 2) goes in at row r - 2, after that
		 * row's next q: its columns r .. r + k are acc[2 .. k + 2]
		 * then (the window is two wider).  So no a b term is on the
		 * chain from one q to the next. */
		ln52_product_row(acc, z52_load(LN52_AT(a, 0)), b, 0, k);
		ln52_product_row(acc + 1, z52_load(LN52_AT(a, 1)), b, 0, k);
		z52 q = z52_madd_lo(z52_zero(), acc[0], k0);
LN52_UNROLL(24)
		for (int i = 0; i < k; i++) {
			const z52 q_row = q;
			ln52_window_q_step(acc, z52_load(LN52_AT(m, 0)), z52_load(LN52_AT(m, 1)), q_row);
			if (i + 1 < k)
				q = z52_madd_lo(z52_zero(), acc[1], k0);
			if (i + 2 < k)
				ln52_product_row(acc + 2, z52_load(LN52_AT(a, i + 2)), b, 0, k);
			ln52_reduce_row(acc, m, NULL, q_row, 2, k, 0);
			ln52_window_up(acc, k + 2);
		}
	}
	ln52_window_out(r, acc, k);
}

/* dd[j] = (2 a_j mod 2^52) + (a_{j-1} >> 51), 2 <= j < k: the digits of
 * twice a's tail that the square rows take (ln52_square_row).  By two
 * multiply-adds with 2, lo(2 a_j) and hi(2 a_{j-1}), where add, mask,
 * shift and add took four operations: the squaring issues every vector
 * operation on the two ports the multiply-adds use. */
LN52_INLINE void ln52_doubled_digits(z52 *dd, const uint64_t *a, const int k)
{
	const z52 two = z52_set1(2);
LN52_UNROLL(24)
	for (int j = 2; j < k; j++) {
		const z52 aj = z52_load(LN52_AT(a, j));
		dd[j] = z52_madd_hi(z52_madd_lo(z52_zero(), aj, two), z52_load(LN52_AT(a, j - 1)), two);
	}
}

/*
 * Square row s into the window whose acc[0] is column c0: a a = sum over s
 * of a_s 2^(104 s) (a_s + 2 A_s), A_s = sum over j > s of a_j 2^(52(j-s-1)),
 * and 2 A_s has the digits E = 2 a_{s+1} mod 2^52 (digit 0) and dd[j] =
 * (2 a_j mod 2^52) + (a_{j-1} >> 51) for j >= s + 2 (digit j - s - 1).
 * Its top digit, a_{k-1} >> 51, is 0 for a < R/2.  So the row's products
 * a_s a_s, a_s E, a_s dd[j] put their halves into columns 2s .. s + k.
 */
LN52_INLINE void ln52_square_row(z52 *acc, const int c0, const z52 *dd, const uint64_t *a,
				 const int s, const int k)
{
	const z52 as = z52_load(LN52_AT(a, s));
	acc[2 * s - c0] = z52_madd_lo(acc[2 * s - c0], as, as);
	acc[2 * s + 1 - c0] = z52_madd_hi(acc[2 * s + 1 - c0], as, as);
	if (s + 1 < k) {
		const z52 e = z52_madd_lo(z52_zero(), z52_load(LN52_AT(a, s + 1)), z52_set1(2));
		acc[2 * s + 1 - c0] = z52_madd_lo(acc[2 * s + 1 - c0], as, e);
		acc[2 * s + 2 - c0] = z52_madd_hi(acc[2 * s + 2 - c0], as, e);
	}
LN52_UNROLL(24)
	for (int j = s + 2; j < k; j++) {
		acc[s + j - c0] = z52_madd_lo(acc[s + j - c0], as, dd[j]);
		acc[s + j + 1 - c0] = z52_madd_hi(acc[s + j + 1 - c0], as, dd[j]);
	}
}

/*
 * The table scan stitched into the exponentiation's squarings.  The scan
 * (every digit of every entry loaded, each lane keeping its own entry's
 * by a merge mask: ln52_select) is not on the squarings' chain, but its
 * merges take the multiply ports; run before the squarings it waited for
 * them.  Spread over them it fills the ports' idle slots
 * (docs/design-notes.md).  Squaring b of a window takes entries
 * b LN52_SCAN_PER(k) .. (b + 1) LN52_SCAN_PER(k) - 1, and merges digit i
 * of each into digit i of sel, which starts at zero: in the window at
 * row i (ln52_sqr_window), in tiles a few digits after each tile
 * (struct ln52_scan_pace).  Entries at or past `entries` (the last
 * squaring's slice runs over) match no lane and read the last entry.
 */
#define LN52_SCAN_PER(k)                                                  \
	(((1 << BIG_LANES52_WINDOW_BITS(k)) + BIG_LANES52_WINDOW_BITS(k) - 1) / \
	 BIG_LANES52_WINDOW_BITS(k))
struct ln52_scan {
	const uint64_t *table;
	size_t words;         /* an entry's */
	const uint64_t *want; /* lane l's entry */
	int first, entries;   /* this squaring's first entry; the table's */
	uint64_t *sel;
};

/* This squaring's merge masks and entries. */
LN52_INLINE void ln52_scan_start(z52m *take, const uint64_t **entry,
				 const struct ln52_scan *sc, const int n)
{
	const z52 want = z52_load(sc->want);
LN52_UNROLL(8)
	for (int t = 0; t < n; t++) {
		const int e = sc->first + t;
		take[t] = z52_eq(want, z52_set1((uint64_t)e));
		entry[t] = sc->table + (size_t)(e < sc->entries ? e : sc->entries - 1) * sc->words;
	}
}

/* Digit i of sel takes the lanes' digits i of this squaring's entries. */
LN52_INLINE void ln52_scan_digit(const struct ln52_scan *sc, const z52m *take,
				 const uint64_t *const *entry, const int n, const int i)
{
	z52 x = z52_load(LN52_AT(sc->sel, i));
LN52_UNROLL(8)
	for (int t = 0; t < n; t++)
		x = z52_blend_load(take[t], x, LN52_AT(entry[t], i));
	z52_store(LN52_AT(sc->sel, i), x);
}

/*
 * The squaring in the window: ln52_mul_window's reduction rows, with
 * square row s added at row 2s (its first column, 2s, is the window's
 * acc[0] then, before q_2s is taken from it; its last, s + k, is within the
 * window's k + 1), or with the early q at row 2s - 2 (below), and the
 * later rows into the last window (columns k .. 2k).  k^2 + k madds for
 * the square (the cross products once, against the product's 2k^2),
 * 2k^2 + k for the reduction (k fewer with the early q) and 3k - 5 with 2
 * for the doubled digits (ln52_doubled_digits, the square rows' e).  A
 * column takes at most two halves a square row and rows from at most k
 * of them: lanes52.h's bound holds.  Needs a < R/2 (ln52_square_row),
 * which a < 2m < R/2 gives.
 */
LN52_INLINE void ln52_sqr_window(uint64_t *r, const uint64_t *a,
				 const struct big_lanes52_mod *mod, const int k,
				 const int scan, const struct ln52_scan *sc)
{
	const uint64_t *m = mod->m;
	const z52 k0 = z52_load(mod->k0);
	z52 acc[LN52_WINDOW_DIGITS + 2], dd[LN52_WINDOW_DIGITS];
	const int n_scan = LN52_SCAN_PER(k);
	z52m take[8];
	const uint64_t *entry[8];
	if (k > LN52_WINDOW_DIGITS || n_scan > 8) /* for the compiler */
		__builtin_unreachable();
	if (scan)
		ln52_scan_start(take, entry, sc, n_scan);
	ln52_doubled_digits(dd, a, k);
LN52_UNROLL(26)
	for (int j = 0; j <= k + 1; j++)
		acc[j] = z52_zero();
	int last_rows; /* the first square row that goes in the last window */
	if (!LN52_EARLY_Q(k)) {
		last_rows = (k + 1) / 2;
LN52_UNROLL(24)
		for (int i = 0; i < k; i++) {
			if (i % 2 == 0)
				ln52_square_row(acc, i, dd, a, i / 2, k);
			const z52 q = z52_madd_lo(z52_zero(), acc[0], k0);
			ln52_reduce_row(acc, m, NULL, q, 0, k, scan);
			ln52_window_carry(acc);
			ln52_window_up(acc, k);
			if (scan)
				ln52_scan_digit(sc, take, entry, n_scan, i);
		}
	} else {
		/* Square row s (s >= 1) goes in at row 2s - 2, after that
		 * row's next q: its first column, 2s, is then acc[2], its
		 * last, s + k, acc[k - s + 2] (acc[k + 1] for s = 1: the
		 * window is one wider); the rows past row k - 1's in the last
		 * window.  So no square term is on the chain from one q to
		 * the next. */
		last_rows = (k - 1) / 2 + 2;
		/* With the scan, m in registers (ln52_reduce_row); without,
		 * gcc keeps it there itself, and the copies cost spills. */
		z52 mv[LN52_WINDOW_DIGITS];
		if (scan)
LN52_UNROLL(24)
			for (int j = 0; j < k; j++)
				mv[j] = z52_load(LN52_AT(m, j));
		const z52 *const held_m = scan ? mv : NULL;
		ln52_square_row(acc, 0, dd, a, 0, k);
		z52 q = z52_madd_lo(z52_zero(), acc[0], k0);
LN52_UNROLL(24)
		for (int i = 0; i < k; i++) {
			const z52 q_row = q;
			ln52_window_q_step(acc, ln52_m_digit(m, held_m, 0, 0),
					   ln52_m_digit(m, held_m, 0, 1), q_row);
			if (i + 1 < k)
				q = z52_madd_lo(z52_zero(), acc[1], k0);
			if (scan)
				ln52_scan_digit(sc, take, entry, n_scan, i);
			if (i % 2 == 0) /* s = i/2 + 1 <= (k - 1)/2 + 1 < k */
				ln52_square_row(acc, i, dd, a, i / 2 + 1, k);
			ln52_reduce_row(acc, m, held_m, q_row, 2, k, 0);
			ln52_window_up(acc, k + 1);
		}
	}
LN52_UNROLL(12)
	for (int s = last_rows; s < k; s++)
		ln52_square_row(acc, k, dd, a, s, k);
	ln52_window_out(r, acc, k);
}

/* Digit j of a where row `row`'s cross products use it (row < j < k),
 * else zero: the edges of the squaring's row pairs. */
LN52_INLINE z52 ln52_cross(const uint64_t *a, int j, int row, const int k)
{
	return j > row && j < k ? z52_load(LN52_AT(a, j)) : z52_zero();
}

/* The square's columns from its cross products: each column doubled
 * (below k 2^52 before: no overflow), and the diagonal's lo(a_i^2) into
 * column 2i, hi into 2i + 1. */
LN52_INLINE void ln52_double_add_diagonal(z52 *t, const uint64_t *a, const int k)
{
	for (int i = 0; i < k; i++) {
		const z52 ai = z52_load(LN52_AT(a, i));
		t[2 * i] = z52_madd_lo(z52_add(t[2 * i], t[2 * i]), ai, ai);
		t[2 * i + 1] = z52_madd_hi(z52_add(t[2 * i + 1], t[2 * i + 1]), ai, ai);
	}
}

/*
 * Tiles: where k is a multiple of LN52_TILE above the window, the 2k
 * columns in memory and the digit products in tiles of T = LN52_TILE rows
 * x_0 .. x_{T-1} by T digits y_0 .. y_{T-1}: the y digits in registers, and
 * the T + 1 columns a row touches in a window that moves up one column a
 * row, so that a column's load and store serve 2T madds (against 8 in
 * ln52_rows, whose columns pass through memory every two rows).
 *   the product: a b in (k/T)^2 tiles, then the reduction;
 *   the squaring: the cross products in the tiles on and above the
 *     diagonal (the diagonal tiles with j > r only), doubled, the
 *     diagonal's halves, then the reduction;
 *   the reduction: rows in groups of T; a group's first tile (the digits
 *     m_0 .. m_{T-1}) takes its q digits in turn from its lowest column,
 *     complete by then (rows of earlier groups are all in, this group's
 *     earlier rows reach it through m_0 .. m_{T-1}), and retires it; the
 *     group's other tiles take m's other digits against those q digits.
 * Columns take the same halves as in ln52_rows, in another order, and one
 * carry from below: lanes52.h's bound holds.  k^2 + k madds for the
 * square (the cross products once, k(k - 1), and 2k on the diagonal) and
 * 2k^2 for the reduction (the k q digits, no lo(q m_0): below), against
 * 4k^2 in the product.
 */
#define LN52_TILE 10

/* A tile's digits and window: v[0 .. T) = the digits at y and w[0 .. T]
 * = t[0 .. T] (ln52_tile_open); after row r, up one column, taking
 * t[r + T + 1] (ln52_tile_next); at the end, w[0 .. T) back into
 * t[T .. 2T) (ln52_tile_close; w[T] is t[2T], untouched). */
LN52_INLINE void ln52_tile_open(z52 *v, const uint64_t *y, z52 *w, const z52 *t)
{
LN52_UNROLL(10)
	for (int j = 0; j < LN52_TILE; j++)
		v[j] = z52_load(LN52_AT(y, j));
LN52_UNROLL(11)
	for (int j = 0; j <= LN52_TILE; j++)
		w[j] = t[j];
}

LN52_INLINE void ln52_tile_next(z52 *w, const z52 *t, const int r)
{
LN52_UNROLL(10)
	for (int j = 0; j < LN52_TILE; j++)
		w[j] = w[j + 1];
	w[LN52_TILE] = t[r + LN52_TILE + 1];
}

LN52_INLINE void ln52_tile_close(z52 *t, const z52 *w)
{
LN52_UNROLL(10)
	for (int j = 0; j < LN52_TILE; j++)
		t[LN52_TILE + j] = w[j];
}

/* Rows x_0 .. x_{T-1} times digits y_0 .. y_{T-1} into the columns at t:
 * lo(x_r y_j) into t[r + j], hi(x_r y_j) into t[r + j + 1]; with `tri`
 * only the products with j > r (a diagonal tile of the square's cross
 * products).  Reads t[0 .. 2T], writes t[0 .. 2T). */
LN52_INLINE void ln52_tile(z52 *t, const uint64_t *x, const uint64_t *y, const int tri)
{
	z52 yv[LN52_TILE], w[LN52_TILE + 1];
	ln52_tile_open(yv, y, w, t);
LN52_UNROLL(10)
	for (int r = 0; r < LN52_TILE; r++) {
		const z52 xr = z52_load(LN52_AT(x, r));
LN52_UNROLL(10)
		for (int j = 0; j < LN52_TILE; j++) {
			if (tri && j <= r)
				continue;
			w[j] = z52_madd_lo(w[j], xr, yv[j]);
			w[j + 1] = z52_madd_hi(w[j + 1], xr, yv[j]);
		}
		t[r] = w[0];
		ln52_tile_next(w, t, r);
	}
	ln52_tile_close(t, w);
}

/* A reduction group's first tile: row r's q digit q_r = lo(t[r] k0) into
 * qs, its products with m_0 .. m_{T-1} into the window, and t[r] retired:
 * t[r] + lo(q_r m_0) is 0 mod 2^52, so its top, ceil(t[r] / 2^52), goes
 * into t[r + 1], taken before q_r is known, and lo(q_r m_0) is never
 * formed.  From one q to the next are then one madd, an add and the q
 * madd (hi(q m_0) and lo(q m_1) side by side), where adding them in turn
 * took two madds more.  Reads t[0 .. 2T], writes t[T .. 2T). */
LN52_INLINE void ln52_tile_q(z52 *t, uint64_t *qs, const uint64_t *m, const z52 k0)
{
	const z52 round_up = z52_set1(BIG_LANES52_DIGIT_MASK);
	z52 mv[LN52_TILE], w[LN52_TILE + 1];
	ln52_tile_open(mv, m, w, t);
LN52_UNROLL(10)
	for (int r = 0; r < LN52_TILE; r++) {
		const z52 q = z52_madd_lo(z52_zero(), w[0], k0);
		const z52 top = z52_shr52(z52_add(w[0], round_up));
		z52_store(LN52_AT(qs, r), q);
		w[1] = z52_add(z52_madd_hi(z52_add(w[1], top), q, mv[0]),
			       z52_madd_lo(z52_zero(), q, mv[1]));
		w[2] = z52_madd_hi(w[2], q, mv[1]);
LN52_UNROLL(10)
		for (int j = 2; j < LN52_TILE; j++) {
			w[j] = z52_madd_lo(w[j], q, mv[j]);
			w[j + 1] = z52_madd_hi(w[j + 1], q, mv[j]);
		}
		ln52_tile_next(w, t, r);
	}
	ln52_tile_close(t, w);
}

/*
 * A slice of the table scan (struct ln52_scan) paced through a squaring
 * in tiles: digits first .. last - 1 of the selected entry, spread evenly
 * over the `tiles` tile calls to come, each call followed by its share.
 * The squaring's tiles take the first half of the digits, the
 * reduction's the second: the exponentiation 0.949 and 0.962 of the scan
 * ahead of the squarings at 30 and 40 digits, against 0.968-0.976 and
 * 0.983-0.989 with all the digits in either (docs/design-notes.md).
 */
struct ln52_scan_pace {
	const struct ln52_scan *sc;
	z52m take[8];
	const uint64_t *entry[8];
	int n_scan, first, last, tiles, done, digit;
};

LN52_INLINE void ln52_pace_start(struct ln52_scan_pace *p, const struct ln52_scan *sc,
				 const int k)
{
	p->sc = sc;
	p->n_scan = LN52_SCAN_PER(k);
	if (p->n_scan > 8) /* for the compiler */
		__builtin_unreachable();
	ln52_scan_start(p->take, p->entry, sc, p->n_scan);
}

LN52_INLINE void ln52_pace_span(struct ln52_scan_pace *p, const int first, const int last,
				const int tiles)
{
	p->first = p->digit = first;
	p->last = last;
	p->tiles = tiles;
	p->done = 0;
}

LN52_INLINE void ln52_pace_tile_done(struct ln52_scan_pace *p)
{
	p->done++;
	const int to = p->first + p->done * (p->last - p->first) / p->tiles;
	for (; p->digit < to; p->digit++)
		ln52_scan_digit(p->sc, p->take, p->entry, p->n_scan, p->digit);
}

/* The reduction of t (2k + 1 columns, the product or the square in
 * 0 .. 2k - 1, column 2k zero): T in columns k .. 2k - 1, not carried;
 * with pace, the scan's digits between the tiles. */
LN52_INLINE void ln52_reduce_tiles(z52 *t, const struct big_lanes52_mod *mod, const int k,
				   struct ln52_scan_pace *pace)
{
	const z52 k0 = z52_load(mod->k0);
	uint64_t qs[LN52_TILE * BIG_LANES] __attribute__((aligned(64)));
	for (int g = 0; g < k; g += LN52_TILE) {
		ln52_tile_q(t + g, qs, mod->m, k0);
		if (pace)
			ln52_pace_tile_done(pace);
		for (int j = LN52_TILE; j < k; j += LN52_TILE) {
			ln52_tile(t + g + j, qs, LN52_AT(mod->m, j), 0);
			if (pace)
				ln52_pace_tile_done(pace);
		}
	}
}

LN52_INLINE void ln52_mul_tiles(uint64_t *r, const uint64_t *a, const uint64_t *b,
				const struct big_lanes52_mod *mod, const int k)
{
	z52 t[2 * BIG_LANES52_MAX_DIGITS + 1];
	for (int j = 0; j <= 2 * k; j++)
		t[j] = z52_zero();
	for (int i = 0; i < k; i += LN52_TILE)
		for (int j = 0; j < k; j += LN52_TILE)
			ln52_tile(t + i + j, LN52_AT(a, i), LN52_AT(b, j), 0);
	ln52_reduce_tiles(t, mod, k, NULL);
	ln52_carry_out(r, t, k);
}

LN52_INLINE void ln52_sqr_tiles(uint64_t *r, const uint64_t *a,
				const struct big_lanes52_mod *mod, const int k,
				const int scan, const struct ln52_scan *sc)
{
	z52 t[2 * BIG_LANES52_MAX_DIGITS + 1];
	for (int j = 0; j <= 2 * k; j++)
		t[j] = z52_zero();
	const int blocks = k / LN52_TILE;
	struct ln52_scan_pace pace, *const paced = scan ? &pace : NULL;
	if (scan) {
		ln52_pace_start(&pace, sc, k);
		ln52_pace_span(&pace, 0, k / 2, blocks * (blocks + 1) / 2);
	}
	for (int i = 0; i < k; i += LN52_TILE) {
		ln52_tile(t + 2 * i, LN52_AT(a, i), LN52_AT(a, i), 1);
		if (scan)
			ln52_pace_tile_done(paced);
		for (int j = i + LN52_TILE; j < k; j += LN52_TILE) {
			ln52_tile(t + i + j, LN52_AT(a, i), LN52_AT(a, j), 0);
			if (scan)
				ln52_pace_tile_done(paced);
		}
	}
	ln52_double_add_diagonal(t, a, k);
	if (scan)
		ln52_pace_span(&pace, k / 2, k, blocks * blocks);
	ln52_reduce_tiles(t, mod, k, paced);
	ln52_carry_out(r, t, k);
}

/* The tiles at the sizes lanes52.h names (30 and 40 digits: the
 * multiples of LN52_TILE above the window up to BIG_LANES52_MAX_DIGITS)
 * where they are compiled apart, or at a run-time k too
 * (LN52_WINDOW_RUNTIME_K). */
_Static_assert(30 % LN52_TILE == 0 && 40 % LN52_TILE == 0 && 30 > LN52_WINDOW_DIGITS &&
		       BIG_LANES52_MAX_DIGITS < 50,
	       "BIG_LANES52_TILED names the multiples of the tile above the window");
#define LN52_USE_TILES(k)                                                    \
	(BIG_LANES52_TILED(k) && (LN52_WINDOW_RUNTIME_K || __builtin_constant_p(k)))

LN52_INLINE void ln52_mul_k(uint64_t *r, const uint64_t *a, const uint64_t *b,
			    const struct big_lanes52_mod *mod, const int k)
{
	if (LN52_USE_WINDOW(k)) {
		ln52_mul_window(r, a, b, mod, k);
		return;
	}
	if (LN52_USE_TILES(k)) {
		ln52_mul_tiles(r, a, b, mod, k);
		return;
	}
	z52 t[2 * BIG_LANES52_MAX_DIGITS];
	for (int j = 0; j < 2 * k; j++)
		t[j] = z52_zero();
	ln52_rows(t, a, b, mod, k, 1);
	ln52_carry_out(r, t, k);
}

LN52_INLINE void ln52_sqr_k(uint64_t *r, const uint64_t *a,
			    const struct big_lanes52_mod *mod, const int k)
{
	if (LN52_USE_WINDOW(k)) {
		ln52_sqr_window(r, a, mod, k, 0, NULL);
		return;
	}
	if (LN52_USE_TILES(k)) {
		ln52_sqr_tiles(r, a, mod, k, 0, NULL);
		return;
	}
	z52 t[2 * BIG_LANES52_MAX_DIGITS];
	for (int j = 0; j < 2 * k; j++)
		t[j] = z52_zero();
	/* The cross products of rows i, i + 1 into columns i + u,
	 * i + 1 <= u <= k + 1 (k + 1: hi(a_{i+1} a_{k-1})). */
	for (int i = 0; i + 1 < k; i += 2) {
		const z52 a0 = z52_load(LN52_AT(a, i));
		const z52 a1 = z52_load(LN52_AT(a, i + 1));
		const int head = i + 3 < k + 1 ? i + 3 : k + 1;
		int u = i + 1;
		for (; u <= head; u++) {
			z52 c = z52_madd_lo(t[i + u], a0, ln52_cross(a, u, i, k));
			c = z52_madd_hi(c, a0, ln52_cross(a, u - 1, i, k));
			c = z52_madd_lo(c, a1, ln52_cross(a, u - 1, i + 1, k));
			t[i + u] = z52_madd_hi(c, a1, ln52_cross(a, u - 2, i + 1, k));
		}
		if (u < k) {
			/* u = i + 4 .. k - 1: all four are cross products. */
			z52 p1 = z52_load(LN52_AT(a, u - 1));
			z52 p2 = z52_load(LN52_AT(a, u - 2));
			for (; u < k; u++) {
				const z52 au = z52_load(LN52_AT(a, u));
				z52 c = z52_madd_lo(t[i + u], a0, au);
				c = z52_madd_hi(c, a0, p1);
				z52 d = z52_madd_lo(z52_zero(), a1, p1);
				d = z52_madd_hi(d, a1, p2);
				t[i + u] = z52_add(c, d);
				p2 = p1;
				p1 = au;
			}
		}
		for (; u <= k + 1; u++) {
			z52 c = z52_madd_lo(t[i + u], a0, ln52_cross(a, u, i, k));
			c = z52_madd_hi(c, a0, ln52_cross(a, u - 1, i, k));
			c = z52_madd_lo(c, a1, ln52_cross(a, u - 1, i + 1, k));
			t[i + u] = z52_madd_hi(c, a1, ln52_cross(a, u - 2, i + 1, k));
		}
	}
	ln52_double_add_diagonal(t, a, k);
	ln52_rows(t, NULL, NULL, mod, k, 0);
	ln52_carry_out(r, t, k);
}

#if defined(LN52_FIXED_SIZES) && LN52_FIXED_SIZES
/* Each size a function of its own: inlined into one switch, the tiles'
 * code cost the 20-digit window a quarter of its speed (one process,
 * model 207). */
#define LN52_SIZE(K)                                                         \
	static __attribute__((noinline)) void                                \
	ln52_mul_##K(uint64_t *r, const uint64_t *a, const uint64_t *b,      \
		     const struct big_lanes52_mod *mod)                      \
	{                                                                    \
		ln52_mul_k(r, a, b, mod, K);                                 \
	}                                                                    \
	static __attribute__((noinline)) void                                \
	ln52_sqr_##K(uint64_t *r, const uint64_t *a,                         \
		     const struct big_lanes52_mod *mod)                      \
	{                                                                    \
		ln52_sqr_k(r, a, mod, K);                                    \
	}
LN52_SIZE(10)
LN52_SIZE(20)
LN52_SIZE(30)
LN52_SIZE(40)
/* The squaring with its slice of the table scan, at the window's sizes
 * and the tiles'. */
#define LN52_SIZE_SCAN(K, FORM)                                              \
	static __attribute__((noinline)) void                                \
	ln52_sqr_scan_##K(uint64_t *r, const uint64_t *a,                    \
			  const struct big_lanes52_mod *mod,                 \
			  const struct ln52_scan *sc)                        \
	{                                                                    \
		ln52_sqr_##FORM(r, a, mod, K, 1, sc);                        \
	}
LN52_SIZE_SCAN(10, window)
LN52_SIZE_SCAN(20, window)
LN52_SIZE_SCAN(30, tiles)
LN52_SIZE_SCAN(40, tiles)
#define LN52_SCAN_IN_SQR(k) BIG_LANES52_FIXED(k)
#define LN52_SIZE_CASES(op, ...)                                             \
	case 10:                                                             \
		ln52_##op##_10(__VA_ARGS__);                                 \
		return;                                                      \
	case 20:                                                             \
		ln52_##op##_20(__VA_ARGS__);                                 \
		return;                                                      \
	case 30:                                                             \
		ln52_##op##_30(__VA_ARGS__);                                 \
		return;                                                      \
	case 40:                                                             \
		ln52_##op##_40(__VA_ARGS__);                                 \
		return;
static void ln52_sqr_scan(uint64_t *r, const uint64_t *a, const struct big_lanes52_mod *mod,
			  const struct ln52_scan *sc)
{
	switch (mod->digits) {
		LN52_SIZE_CASES(sqr_scan, r, a, mod, sc)
	}
}
#else
#define LN52_SIZE_CASES(op, ...)
/* The window at run time's k (the tests' emulated build) stitches the scan
 * at every k it serves; else the scan runs alone. */
#define LN52_SCAN_IN_SQR(k)                                                  \
	(LN52_WINDOW_RUNTIME_K && ((k) <= LN52_WINDOW_DIGITS || BIG_LANES52_TILED(k)))
LN52_INLINE void ln52_sqr_scan(uint64_t *r, const uint64_t *a, const struct big_lanes52_mod *mod,
			  const struct ln52_scan *sc)
{
	if (mod->digits <= LN52_WINDOW_DIGITS)
		ln52_sqr_window(r, a, mod, mod->digits, 1, sc);
	else
		ln52_sqr_tiles(r, a, mod, mod->digits, 1, sc);
}
#endif

/* The product of the C at every k. */
static void ln52_mul_c(uint64_t *r, const uint64_t *a, const uint64_t *b,
		       const struct big_lanes52_mod *mod)
{
	switch (mod->digits) {
		LN52_SIZE_CASES(mul, r, a, b, mod)
	default:
		ln52_mul_k(r, a, b, mod, mod->digits);
	}
}

/* The product: by LN52_MUL20_NASM at 20 digits where nasm20, else the C. */
LN52_INLINE void ln52_mul_side(uint64_t *r, const uint64_t *a, const uint64_t *b,
			       const struct big_lanes52_mod *mod, const int nasm20)
{
	if (nasm20 && mod->digits == 20)
		LN52_MUL20_NASM(r, a, b, mod);
	else
		ln52_mul_c(r, a, b, mod);
}

void LN52_NAME(big_lanes52_mul)(uint64_t *r, const uint64_t *a,
				const uint64_t *b,
				const struct big_lanes52_mod *mod)
{
	ln52_mul_side(r, a, b, mod, mod->digits == 20 && LN52_SQR20_BOUND());
}

/* The squaring of the C at every k (the window, the tiles or the rows). */
static void ln52_sqr_c(uint64_t *r, const uint64_t *a, const struct big_lanes52_mod *mod)
{
	switch (mod->digits) {
		LN52_SIZE_CASES(sqr, r, a, mod)
	default:
		ln52_sqr_k(r, a, mod, mod->digits);
	}
}

/* The squaring: by LN52_SQR20_NASM at 20 digits where nasm20, else the C. */
LN52_INLINE void ln52_sqr_side(uint64_t *r, const uint64_t *a,
			       const struct big_lanes52_mod *mod, const int nasm20)
{
	if (nasm20 && mod->digits == 20)
		LN52_SQR20_NASM(r, a, mod);
	else
		ln52_sqr_c(r, a, mod);
}

void LN52_NAME(big_lanes52_sqr)(uint64_t *r, const uint64_t *a,
				const struct big_lanes52_mod *mod)
{
	ln52_sqr_side(r, a, mod, mod->digits == 20 && LN52_SQR20_BOUND());
}

/* Digits of ln52_select_block's blocks: its accumulators stay in registers. */
#define LN52_SELECT_BLOCK 10

/* Digits j0 .. j0 + n - 1 of out = entry want_l of the table in each lane
 * l (n a constant where inlined): for every entry in turn, one compare of
 * want with the public entry number makes the merge mask, and each
 * accumulator takes that entry's digit in the lanes that want it. */
LN52_INLINE void ln52_select_block(uint64_t *out, const uint64_t *table, const int entries,
				   const z52 want, const size_t words, const int j0, const int n)
{
	z52 acc[LN52_SELECT_BLOCK];
LN52_UNROLL(10)
	for (int j = 0; j < n; j++)
		acc[j] = z52_zero();
	for (int e = 0; e < entries; e++) {
		const z52m take = z52_eq(want, z52_set1((uint64_t)e));
		const uint64_t *x = table + (size_t)e * words;
LN52_UNROLL(10)
		for (int j = 0; j < n; j++)
			acc[j] = z52_blend_load(take, acc[j], LN52_AT(x, j0 + j));
	}
LN52_UNROLL(10)
	for (int j = 0; j < n; j++)
		z52_store(LN52_AT(out, j0 + j), acc[j]);
}

/* out = entry want_l of the table in each lane l: every digit of every
 * entry is loaded, and each lane keeps its own entry's by a merge mask.
 * Entry by entry over blocks of digits, so that one mask serves a block
 * (digit by digit, the 32 masks did not stay in the 8 mask registers). */
LN52_INLINE void ln52_select(uint64_t *out, const uint64_t *table, const int entries,
			     const uint64_t *want, const int k)
{
	const size_t words = BIG_LANES_WORDS(k);
	const z52 w = z52_load(want);
	int j = 0;
	for (; j + LN52_SELECT_BLOCK <= k; j += LN52_SELECT_BLOCK)
		ln52_select_block(out, table, entries, w, words, j, LN52_SELECT_BLOCK);
	for (; j < k; j++)
		ln52_select_block(out, table, entries, w, words, j, 1);
}

/* out = r - m where r >= m, else r, lane by lane, for r < 2m (the product
 * by 1 gives r <= m; pow_public's last product by the base, below 3m,
 * takes two), by the borrow of the whole subtraction as a mask; r's words
 * masked to their digits, out's exact.  out must not overlap r. */
LN52_INLINE void ln52_final_sub(uint64_t *out, const uint64_t *r,
				const uint64_t *m, const int k)
{
	z52 borrow = z52_zero();
	for (int j = 0; j < k; j++) {
		/* |r_j - m_j - borrow| < 2^53: bit 63 is the borrow. */
		const z52 x = z52_sub(z52_sub(z52_and52(z52_load(LN52_AT(r, j))),
					      z52_load(LN52_AT(m, j))),
				      borrow);
		z52_store(LN52_AT(out, j), z52_and52(x));
		borrow = z52_shr63(x);
	}
	/* No borrow (r >= m): take r - m.  The blend held in a register and
	 * every word stored: GCC would fold it into a store under keep_r,
	 * whose time can follow the mask (docs/security.md). */
	const z52m keep_r = (z52m)~z52_eq(borrow, z52_zero());
	for (int j = 0; j < k; j++)
		z52_store(LN52_AT(out, j),
			  z52_in_reg(z52_blend(keep_r, z52_load(LN52_AT(out, j)),
					       z52_and52(z52_load(LN52_AT(r, j))))));
}

/* one = 1, r_mod_m = R mod m (1 in Montgomery form) and base_m = base R
 * mod m (below 2m): the start of both exponentiations. */
LN52_INLINE void ln52_pow_start(uint64_t *one, uint64_t *r_mod_m, uint64_t *base_m,
				const uint64_t *base, const struct big_lanes52_mod *mod,
				const int nasm20)
{
	const size_t words = BIG_LANES_WORDS(mod->digits);
	for (size_t j = 0; j < words; j++)
		one[j] = j < BIG_LANES;
	ln52_mul_side(r_mod_m, mod->rr, one, mod, nasm20);
	ln52_mul_side(base_m, base, mod->rr, mod, nasm20);
}

/* big_lanes52_pow over n (1 or 2) exponentiations of one k and ewords,
 * their steps alternating (each squaring, product and table read of one
 * beside the other's: two independent chains; big_lanes52_pow2), its
 * squarings and products at 20 digits by LN52_SQR20_NASM and
 * LN52_MUL20_NASM where nasm20 (one copy for the entry points and the IFMA
 * build's _side one). */
LN52_INLINE void ln52_pow_n(const int n, uint64_t *const *out, const uint64_t *const *base,
			    const uint64_t *const *e, const int ewords,
			    const struct big_lanes52_mod *const *mod, uint64_t *const *scratch,
			    int nasm20)
{
	const int k = mod[0]->digits;
	nasm20 = nasm20 && k == 20;
	const size_t words = BIG_LANES_WORDS(k);
	const int window = BIG_LANES52_WINDOW_BITS(k), entries = 1 << window;
	uint64_t *table[2], *acc[2], *sel[2], *one[2];
	uint64_t want[2][BIG_LANES] __attribute__((aligned(64)));

	for (int h = 0; h < n; h++) {
		table[h] = big_lanes_align64(scratch[h]);
		acc[h] = table[h] + (size_t)entries * words;
		sel[h] = acc[h] + words;
		one[h] = sel[h] + words;
		ln52_pow_start(one[h], table[h], table[h] + words, base[h], mod[h], nasm20);
	}
	for (int i = 2; i < entries; i++)
		for (int h = 0; h < n; h++) {
			uint64_t *x = table[h] + (size_t)i * words;
			if (i % 2 == 0)
				ln52_sqr_side(x, table[h] + (size_t)(i / 2) * words, mod[h],
					      nasm20);
			else
				ln52_mul_side(x, x - words, table[h] + words, mod[h], nasm20);
		}

	const int nbits = 64 * ewords;
	const int top = nbits % window ? nbits % window : window;
	int pos = nbits - top;
	for (int h = 0; h < n; h++) {
		big_lanes_windows(want[h], e[h], ewords, pos, top);
		ln52_select(acc[h], table[h], entries, want[h], k);
	}
	while (pos > 0) {
		pos -= window;
		/* The entry: in slices within the squarings where they are
		 * the window's, else all of it ahead of them (it does not
		 * wait on acc, and there it fills some of their idle issue
		 * slots); ahead of them too at 20 digits where the NASM
		 * squaring takes them (nasm20: on Intel family 6 model 167
		 * the slices cost more than the read alone,
		 * docs/design-notes.md). */
		for (int h = 0; h < n; h++)
			big_lanes_windows(want[h], e[h], ewords, pos, window);
		if (LN52_SCAN_IN_SQR(k) && !nasm20) {
			for (int h = 0; h < n; h++)
				for (size_t j = 0; j < words; j++)
					sel[h][j] = 0;
			for (int b = 0; b < window; b++)
				for (int h = 0; h < n; h++) {
					const struct ln52_scan sc = { table[h], words, want[h],
								      b * LN52_SCAN_PER(k),
								      entries, sel[h] };
					ln52_sqr_scan(acc[h], acc[h], mod[h], &sc);
				}
		} else {
			for (int h = 0; h < n; h++)
				ln52_select(sel[h], table[h], entries, want[h], k);
			for (int b = 0; b < window; b++)
				for (int h = 0; h < n; h++)
					ln52_sqr_side(acc[h], acc[h], mod[h], nasm20);
		}
		for (int h = 0; h < n; h++)
			ln52_mul_side(acc[h], acc[h], sel[h], mod[h], nasm20);
	}
	for (int h = 0; h < n; h++) {
		ln52_mul_side(acc[h], acc[h], one[h], mod[h], nasm20);
		ln52_final_sub(out[h], acc[h], mod[h]->m, k);
	}
}

static void ln52_pow(uint64_t *out, const uint64_t *base, const uint64_t *e, int ewords,
		     const struct big_lanes52_mod *mod, uint64_t *scratch, int nasm20)
{
	ln52_pow_n(1, &out, &base, &e, ewords, &mod, &scratch, nasm20);
}

void LN52_NAME(big_lanes52_pow)(uint64_t *out, const uint64_t *base,
				const uint64_t *e, int ewords,
				const struct big_lanes52_mod *mod,
				uint64_t *scratch)
{
	ln52_pow(out, base, e, ewords, mod, scratch, mod->digits == 20 && LN52_SQR20_BOUND());
}

/* Two in lockstep up to BIG_LANES52_LOCKSTEP_DIGITS (lanes52.h), one
 * after the other above. */
void LN52_NAME(big_lanes52_pow2)(uint64_t *const out[2], const uint64_t *const base[2],
				 const uint64_t *const e[2], int ewords,
				 const struct big_lanes52_mod *const mod[2],
				 uint64_t *const scratch[2])
{
	if (mod[0]->digits <= BIG_LANES52_LOCKSTEP_DIGITS) {
		ln52_pow_n(2, out, base, e, ewords, mod, scratch, 0);
		return;
	}
	for (int h = 0; h < 2; h++)
		LN52_NAME(big_lanes52_pow)(out[h], base[h], e[h], ewords, mod[h], scratch[h]);
}

/* The steps of big_lanes52_pow_public_by, ctx the modulus. */
static void ln52_public_mul(const void *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	LN52_NAME(big_lanes52_mul)(r, a, b, (const struct big_lanes52_mod *)ctx);
}
static void ln52_public_sqr(const void *ctx, uint64_t *r, const uint64_t *a)
{
	LN52_NAME(big_lanes52_sqr)(r, a, (const struct big_lanes52_mod *)ctx);
}
static void ln52_public_reduce(const void *ctx, uint64_t *out, const uint64_t *r)
{
	const struct big_lanes52_mod *mod = ctx;
	ln52_final_sub(out, r, mod->m, mod->digits);
}
static void ln52_public_keep(const void *ctx, uint64_t *acc, const uint64_t *t, unsigned take)
{
	const int k = ((const struct big_lanes52_mod *)ctx)->digits;
	for (int j = 0; j < k; j++)
		z52_store(LN52_AT(acc, j),
			  z52_blend((z52m)take, z52_load(LN52_AT(acc, j)), z52_load(LN52_AT(t, j))));
}

void LN52_NAME(big_lanes52_pow_public)(uint64_t *out, const uint64_t *base,
				       const uint64_t *e, int ewords,
				       const struct big_lanes52_mod *mod,
				       uint64_t *scratch)
{
	const struct big_lanes52_public_steps steps = {
		mod, ln52_public_mul, ln52_public_sqr, ln52_public_reduce,
		ln52_public_keep,
	};
	big_lanes52_pow_public_by(out, base, e, ewords, mod, scratch, &steps);
}
