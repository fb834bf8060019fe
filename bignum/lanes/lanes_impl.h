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
 *
 * Streams.  The eight lanes are two streams of four (lanes 0..3, 4..7):
 * digit j of stream s is the vector at BIG_LANES * j + 4 s.  A product
 * runs stream 0 then stream 1; within a stream every step is lane-wise.
 *
 * The product, a stream at a time, rows two at a time (operand scanning
 * with the reduction interleaved, no carries between columns):
 *   for each pair of rows i, i + 1:
 *     q_i     = ((t_i + a_i b_0) k0) mod 2^28;  column i is now 0 mod
 *               2^28: its top (>> 28) goes into column i + 1;
 *     q_{i+1} from column i + 1 likewise, once a_i b_1, q_i m_1 and
 *               a_{i+1} b_0 are in it; its top goes into column i + 2;
 *     columns i + j (j >= 2) += a_i b_j + q_i m_j + a_{i+1} b_{j-1}
 *               + q_{i+1} m_{j-1}: each b_j, m_j loaded once serves two
 *               rows (four products per two loads and a column update).
 *   an odd last row alone; then one carry pass over columns k .. 2k-1
 *   gives the k normalised digits of T = (a b + Y m) / R.
 * Columns stay below 2^64 by lanes.h's bound (at most 2k products and a
 * carry below 2^36 each).
 *
 * The squaring: the square with each cross product once, by the doubled
 * digit 2 a_i (< 2^29: vpmuludq's 32 bits hold it), two rows a pass, then
 * the reduction rows (the product's with no a b terms), then the carry
 * pass.  k^2/2 + k/2 products for the square and k^2 for the reduction,
 * against 2k^2 in the product.
 */
#include "lanes.h"

#define LN_CAT2(a, b) a##_##b
#define LN_CAT(a, b) LN_CAT2(a, b)
#define LN_NAME(f) LN_CAT(f, LN_SFX)
#define LN_INLINE static inline __attribute__((always_inline))

/* Digit j of stream s. */
#define LN_AT(p, j, s) ((p) + (size_t)BIG_LANES * (size_t)(j) + 4 * (size_t)(s))

/* Columns k .. 2k-1 of t, carried, into r's digits (stream s). */
LN_INLINE void ln_carry_out(uint64_t *r, const lv *t, const int k, int s)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK);
	lv c = lv_zero();
	for (int j = 0; j < k; j++) {
		const lv x = lv_add(t[k + j], c);
		lv_store(LN_AT(r, j, s), lv_and(x, mask));
		c = lv_srl(x, BIG_LANES_DIGIT_BITS);
	}
}

/* Two rows i, i + 1 of the product (the remainder after the three-row
 * passes, and the squaring's reduction uses the same shape). */
LN_INLINE void ln_mul_rows2(lv *t, const uint64_t *a, const uint64_t *b,
			    const uint64_t *m, lv k0, const int k, int s, int i)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK);
	const lv b0 = lv_load(LN_AT(b, 0, s)), m0 = lv_load(LN_AT(m, 0, s));
	const lv a0 = lv_load(LN_AT(a, i, s));
	const lv a1 = lv_load(LN_AT(a, i + 1, s));
	lv bp = lv_load(LN_AT(b, 1, s)), mp = lv_load(LN_AT(m, 1, s));
	lv x = lv_add(t[i], lv_mul(a0, b0));
	const lv q0 = lv_and(lv_mul(x, k0), mask);
	x = lv_add(x, lv_mul(q0, m0));
	lv y = lv_add(t[i + 1], lv_srl(x, BIG_LANES_DIGIT_BITS));
	y = lv_add(y, lv_add(lv_mul(a0, bp), lv_mul(q0, mp)));
	y = lv_add(y, lv_mul(a1, b0));
	const lv q1 = lv_and(lv_mul(y, k0), mask);
	y = lv_add(y, lv_mul(q1, m0));
	t[i + 2] = lv_add(t[i + 2], lv_srl(y, BIG_LANES_DIGIT_BITS));
	for (int j = 2; j < k; j++) {
		const lv bj = lv_load(LN_AT(b, j, s));
		const lv mj = lv_load(LN_AT(m, j, s));
		lv u = lv_add(lv_mul(a0, bj), lv_mul(q0, mj));
		u = lv_add(u, lv_add(lv_mul(a1, bp), lv_mul(q1, mp)));
		t[i + j] = lv_add(t[i + j], u);
		bp = bj;
		mp = mj;
	}
	t[i + k] = lv_add(t[i + k], lv_add(lv_mul(a1, bp), lv_mul(q1, mp)));
}

/* One row i alone. */
LN_INLINE void ln_mul_row1(lv *t, const uint64_t *a, const uint64_t *b,
			   const uint64_t *m, lv k0, const int k, int s, int i)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK);
	const lv a0 = lv_load(LN_AT(a, i, s));
	lv x = lv_add(t[i], lv_mul(a0, lv_load(LN_AT(b, 0, s))));
	const lv m0 = lv_load(LN_AT(m, 0, s));
	const lv q0 = lv_and(lv_mul(x, k0), mask);
	x = lv_add(x, lv_mul(q0, m0));
	t[i + 1] = lv_add(t[i + 1], lv_srl(x, BIG_LANES_DIGIT_BITS));
	for (int j = 1; j < k; j++) {
		const lv u = lv_add(lv_mul(a0, lv_load(LN_AT(b, j, s))),
				    lv_mul(q0, lv_load(LN_AT(m, j, s))));
		t[i + j] = lv_add(t[i + j], u);
	}
}

/* Column i + j of a three-row pass: the rows' digits A0..A2, Q0..Q2 times
 * b_j, b_{j-1}, b_{j-2} (registers X, Y, Z) and m likewise (U, V, W). */
#define LN_COL3(X, Y, Z, U, V, W)                                            \
	do {                                                                 \
		lv u_ = lv_add(lv_mul(A0, X), lv_mul(Q0, U));                \
		u_ = lv_add(u_, lv_add(lv_mul(A1, Y), lv_mul(Q1, V)));       \
		u_ = lv_add(u_, lv_add(lv_mul(A2, Z), lv_mul(Q2, W)));       \
		t[i + j] = lv_add(t[i + j], u_);                             \
	} while (0)

/* The product, one stream: rows three at a time.  Per column of a pass,
 * two loads (b_j, m_j), six products, six sums and one read-modify-write
 * of the column; the windows of b and m rotate through three registers
 * each, unrolled by three so that no register is copied. */
LN_INLINE void ln_mul_stream(uint64_t *r, const uint64_t *a, const uint64_t *b,
			     const struct big_lanes_mod *mod, const int k, int s)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK);
	const lv k0 = lv_load(mod->k0 + 4 * s);
	const uint64_t *m = mod->m;
	lv t[2 * BIG_LANES_MAX_DIGITS];
	for (int j = 0; j < 2 * k; j++)
		t[j] = lv_zero();
	const lv b0 = lv_load(LN_AT(b, 0, s)), m0 = lv_load(LN_AT(m, 0, s));
	const lv b1 = lv_load(LN_AT(b, 1, s)), m1 = lv_load(LN_AT(m, 1, s));
	const lv b2 = lv_load(LN_AT(b, 2, s)), m2 = lv_load(LN_AT(m, 2, s));
	int i = 0;
	for (; i + 3 <= k; i += 3) {
		const lv A0 = lv_load(LN_AT(a, i, s));
		const lv A1 = lv_load(LN_AT(a, i + 1, s));
		const lv A2 = lv_load(LN_AT(a, i + 2, s));
		/* Columns i, i + 1, i + 2: the Montgomery digits in turn. */
		lv x = lv_add(t[i], lv_mul(A0, b0));
		const lv Q0 = lv_and(lv_mul(x, k0), mask);
		x = lv_add(x, lv_mul(Q0, m0));
		lv y = lv_add(t[i + 1], lv_srl(x, BIG_LANES_DIGIT_BITS));
		y = lv_add(y, lv_add(lv_mul(A0, b1), lv_mul(Q0, m1)));
		y = lv_add(y, lv_mul(A1, b0));
		const lv Q1 = lv_and(lv_mul(y, k0), mask);
		y = lv_add(y, lv_mul(Q1, m0));
		lv z = lv_add(t[i + 2], lv_srl(y, BIG_LANES_DIGIT_BITS));
		z = lv_add(z, lv_add(lv_mul(A0, b2), lv_mul(Q0, m2)));
		z = lv_add(z, lv_add(lv_mul(A1, b1), lv_mul(Q1, m1)));
		z = lv_add(z, lv_mul(A2, b0));
		const lv Q2 = lv_and(lv_mul(z, k0), mask);
		z = lv_add(z, lv_mul(Q2, m0));
		t[i + 3] = lv_add(t[i + 3], lv_srl(z, BIG_LANES_DIGIT_BITS));
		/* Columns i + 3 .. i + k - 1: R2/S2 hold b/m_{j-1}, R1/S1 _{j-2}. */
		lv R0, R1 = b1, R2 = b2, S0, S1 = m1, S2 = m2;
		int j = 3;
		for (; j + 3 <= k; j += 3) {
			R0 = lv_load(LN_AT(b, j, s));
			S0 = lv_load(LN_AT(m, j, s));
			LN_COL3(R0, R2, R1, S0, S2, S1);
			j++;
			R1 = lv_load(LN_AT(b, j, s));
			S1 = lv_load(LN_AT(m, j, s));
			LN_COL3(R1, R0, R2, S1, S0, S2);
			j++;
			R2 = lv_load(LN_AT(b, j, s));
			S2 = lv_load(LN_AT(m, j, s));
			LN_COL3(R2, R1, R0, S2, S1, S0);
			j -= 2;
		}
		for (; j < k; j++) {
			R0 = lv_load(LN_AT(b, j, s));
			S0 = lv_load(LN_AT(m, j, s));
			LN_COL3(R0, R2, R1, S0, S2, S1);
			R1 = R2;
			R2 = R0;
			S1 = S2;
			S2 = S0;
		}
		/* Columns i + k, i + k + 1: the last rows' tops. */
		t[i + k] = lv_add(t[i + k],
				  lv_add(lv_add(lv_mul(A1, R2), lv_mul(Q1, S2)),
					 lv_add(lv_mul(A2, R1), lv_mul(Q2, S1))));
		t[i + k + 1] = lv_add(t[i + k + 1],
				      lv_add(lv_mul(A2, R2), lv_mul(Q2, S2)));
	}
	if (k - i == 2)
		ln_mul_rows2(t, a, b, m, k0, k, s, i);
	else if (k - i == 1)
		ln_mul_row1(t, a, b, m, k0, k, s, i);
	ln_carry_out(r, t, k, s);
}

/* Column i + c of a three-row squaring pass, any c >= 3, each term only
 * where it belongs (c, i and k are public): the reduction's Q_r m_{c-r},
 * the squares A_r^2 at c = 2r + i, the doubled cross products D_r a_{c-r}
 * for i + r < c - r < k. */
LN_INLINE void ln_sqr_col(lv *t, const uint64_t *a, const uint64_t *m, const lv *A,
			  const lv *D, const lv *Q, const int k, int s, int i, int c)
{
	lv u = lv_zero();
	for (int r = 0; r < 3; r++) {
		if (c - r < k)
			u = lv_add(u, lv_mul(Q[r], lv_load(LN_AT(m, c - r, s))));
		if (c == i + 2 * r)
			u = lv_add(u, lv_mul(A[r], A[r]));
		if (c - r > i + r && c - r < k)
			u = lv_add(u, lv_mul(D[r], lv_load(LN_AT(a, c - r, s))));
	}
	t[i + c] = lv_add(t[i + c], u);
}

/* Column i + c: the reduction's three products, m window in U, V, W. */
#define LN_RED3(U, V, W)                                                     \
	do {                                                                 \
		const lv u_ = lv_add(lv_mul(Q[0], U),                        \
				     lv_add(lv_mul(Q[1], V), lv_mul(Q[2], W)));  \
		t[i + c] = lv_add(t[i + c], u_);                             \
	} while (0)

/* Column i + c: the reduction's three and the doubled cross products'
 * three, a window in X, Y, Z, m window in U, V, W. */
#define LN_SQR6(X, Y, Z, U, V, W)                                            \
	do {                                                                 \
		lv u_ = lv_add(lv_mul(D[0], X), lv_mul(Q[0], U));            \
		u_ = lv_add(u_, lv_add(lv_mul(D[1], Y), lv_mul(Q[1], V)));   \
		u_ = lv_add(u_, lv_add(lv_mul(D[2], Z), lv_mul(Q[2], W)));   \
		t[i + c] = lv_add(t[i + c], u_);                             \
	} while (0)

/* The squaring, one stream: the square's rows and the reduction's in one
 * pass of three rows i .. i + 2.  Column i + c of a pass takes Q_r
 * m_{c-r} (the reduction, columns i .. i + k + 1) and, from c = i on, the
 * pass's square terms: A_r^2 at c = i + 2r and D_r a_{c-r} = 2 a_{i+r}
 * a_{c-r} where c - r > i + r.  A column i + r gets every square term it
 * will ever get before Q_r is taken from it: the passes' square terms
 * start at column 2i, past the pass's Q columns i .. i + 2 for i >= 3; the
 * first pass adds its own to columns 0 .. 2 first.  Columns c in 3 .. i-1
 * take the reduction alone, c >= i + 5 (below k) all six terms with two
 * loads; the few in between and past k go term by term (ln_sqr_col). */
LN_INLINE void ln_sqr_stream(uint64_t *r, const uint64_t *a,
			     const struct big_lanes_mod *mod, const int k, int s)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK);
	const lv k0 = lv_load(mod->k0 + 4 * s);
	const uint64_t *m = mod->m;
	lv t[2 * BIG_LANES_MAX_DIGITS];
	for (int j = 0; j < 2 * k; j++)
		t[j] = lv_zero();
	const lv m0 = lv_load(LN_AT(m, 0, s)), m1 = lv_load(LN_AT(m, 1, s));
	const lv m2 = lv_load(LN_AT(m, 2, s));
	int i = 0;
	for (; i + 3 <= k; i += 3) {
		lv A[3], D[3], Q[3];
		for (int q = 0; q < 3; q++) {
			A[q] = lv_load(LN_AT(a, i + q, s));
			D[q] = lv_add(A[q], A[q]);
		}
		if (i == 0) {
			t[0] = lv_add(t[0], lv_mul(A[0], A[0]));
			t[1] = lv_add(t[1], lv_mul(D[0], A[1]));
			t[2] = lv_add(t[2], lv_add(lv_mul(A[1], A[1]), lv_mul(D[0], A[2])));
		}
		lv x = t[i];
		Q[0] = lv_and(lv_mul(x, k0), mask);
		x = lv_add(x, lv_mul(Q[0], m0));
		lv y = lv_add(t[i + 1], lv_srl(x, BIG_LANES_DIGIT_BITS));
		y = lv_add(y, lv_mul(Q[0], m1));
		Q[1] = lv_and(lv_mul(y, k0), mask);
		y = lv_add(y, lv_mul(Q[1], m0));
		lv z = lv_add(t[i + 2], lv_srl(y, BIG_LANES_DIGIT_BITS));
		z = lv_add(z, lv_add(lv_mul(Q[0], m2), lv_mul(Q[1], m1)));
		Q[2] = lv_and(lv_mul(z, k0), mask);
		z = lv_add(z, lv_mul(Q[2], m0));
		t[i + 3] = lv_add(t[i + 3], lv_srl(z, BIG_LANES_DIGIT_BITS));

		int c = 3;
		/* The reduction alone: S2 = m_{c-1}, S1 = m_{c-2}. */
		lv S0, S1 = m1, S2 = m2;
		const int a_end = i < k ? i : k;
		for (; c + 3 <= a_end; c += 3) {
			S0 = lv_load(LN_AT(m, c, s));
			LN_RED3(S0, S2, S1);
			c++;
			S1 = lv_load(LN_AT(m, c, s));
			LN_RED3(S1, S0, S2);
			c++;
			S2 = lv_load(LN_AT(m, c, s));
			LN_RED3(S2, S1, S0);
			c -= 2;
		}
		for (; c < a_end; c++) {
			S0 = lv_load(LN_AT(m, c, s));
			LN_RED3(S0, S2, S1);
			S1 = S2;
			S2 = S0;
		}
		if (i >= 3 && i + 5 <= k) {
			/* Columns i .. i + 4, where the pass's square terms start:
			 * the reduction's three and A0^2, D0 a, A1^2, D1 a, A2^2. */
#define LN_RED_AT(c_)                                                        \
	lv_add(lv_mul(Q[0], lv_load(LN_AT(m, (c_), s))),                     \
	       lv_add(lv_mul(Q[1], lv_load(LN_AT(m, (c_) - 1, s))),          \
		      lv_mul(Q[2], lv_load(LN_AT(m, (c_) - 2, s)))))
#define LN_DA(r_, c_) lv_mul(D[r_], lv_load(LN_AT(a, (c_) - (r_), s)))
			t[2 * i] = lv_add(t[2 * i], lv_add(LN_RED_AT(i), lv_mul(A[0], A[0])));
			t[2 * i + 1] = lv_add(t[2 * i + 1], lv_add(LN_RED_AT(i + 1), LN_DA(0, i + 1)));
			t[2 * i + 2] = lv_add(t[2 * i + 2],
					      lv_add(LN_RED_AT(i + 2),
						     lv_add(LN_DA(0, i + 2), lv_mul(A[1], A[1]))));
			t[2 * i + 3] = lv_add(t[2 * i + 3],
					      lv_add(LN_RED_AT(i + 3),
						     lv_add(LN_DA(0, i + 3), LN_DA(1, i + 3))));
			t[2 * i + 4] = lv_add(t[2 * i + 4],
					      lv_add(lv_add(LN_RED_AT(i + 4), lv_mul(A[2], A[2])),
						     lv_add(LN_DA(0, i + 4), LN_DA(1, i + 4))));
#undef LN_RED_AT
#undef LN_DA
			c = i + 5;
		}
		const int b_end = i + 5 < k ? i + 5 : k;
		for (; c < b_end; c++)
			ln_sqr_col(t, a, m, A, D, Q, k, s, i, c);
		if (c < k) {
			/* All six: R2 = a_{c-1}, R1 = a_{c-2}, m likewise. */
			lv R0, R1 = lv_load(LN_AT(a, c - 2, s)), R2 = lv_load(LN_AT(a, c - 1, s));
			S1 = lv_load(LN_AT(m, c - 2, s));
			S2 = lv_load(LN_AT(m, c - 1, s));
			for (; c + 3 <= k; c += 3) {
				R0 = lv_load(LN_AT(a, c, s));
				S0 = lv_load(LN_AT(m, c, s));
				LN_SQR6(R0, R2, R1, S0, S2, S1);
				c++;
				R1 = lv_load(LN_AT(a, c, s));
				S1 = lv_load(LN_AT(m, c, s));
				LN_SQR6(R1, R0, R2, S1, S0, S2);
				c++;
				R2 = lv_load(LN_AT(a, c, s));
				S2 = lv_load(LN_AT(m, c, s));
				LN_SQR6(R2, R1, R0, S2, S1, S0);
				c -= 2;
			}
			for (; c < k; c++) {
				R0 = lv_load(LN_AT(a, c, s));
				S0 = lv_load(LN_AT(m, c, s));
				LN_SQR6(R0, R2, R1, S0, S2, S1);
				R1 = R2;
				R2 = R0;
				S1 = S2;
				S2 = S0;
			}
			/* Columns i + k, i + k + 1: the rows' tops. */
			t[i + k] = lv_add(t[i + k],
					  lv_add(lv_add(lv_mul(D[1], R2), lv_mul(Q[1], S2)),
						 lv_add(lv_mul(D[2], R1), lv_mul(Q[2], S1))));
			t[i + k + 1] = lv_add(t[i + k + 1],
					      lv_add(lv_mul(D[2], R2), lv_mul(Q[2], S2)));
			c = k + 2;
		}
		for (; c < k + 2; c++)
			ln_sqr_col(t, a, m, A, D, Q, k, s, i, c);
	}
	/* The last rows, one at a time: the row's square terms, then its
	 * reduction row (its column i has every square term by now). */
	for (; i < k; i++) {
		const lv a0 = lv_load(LN_AT(a, i, s)), d0 = lv_add(a0, a0);
		t[2 * i] = lv_add(t[2 * i], lv_mul(a0, a0));
		for (int j = i + 1; j < k; j++)
			t[i + j] = lv_add(t[i + j], lv_mul(d0, lv_load(LN_AT(a, j, s))));
		lv x = t[i];
		const lv q0 = lv_and(lv_mul(x, k0), mask);
		x = lv_add(x, lv_mul(q0, m0));
		t[i + 1] = lv_add(t[i + 1], lv_srl(x, BIG_LANES_DIGIT_BITS));
		for (int j = 1; j < k; j++)
			t[i + j] = lv_add(t[i + j], lv_mul(q0, lv_load(LN_AT(m, j, s))));
	}
	ln_carry_out(r, t, k, s);
}

LN_INLINE void ln_mul_k(uint64_t *r, const uint64_t *a, const uint64_t *b,
			const struct big_lanes_mod *mod, const int k)
{
	ln_mul_stream(r, a, b, mod, k, 0);
	ln_mul_stream(r, a, b, mod, k, 1);
}

LN_INLINE void ln_sqr_k(uint64_t *r, const uint64_t *a,
			const struct big_lanes_mod *mod, const int k)
{
	ln_sqr_stream(r, a, mod, k, 0);
	ln_sqr_stream(r, a, mod, k, 1);
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
#define LN_SIZE_CASES(op, ...)                                               \
	case 19:                                                             \
		ln_##op##_19(__VA_ARGS__);                                   \
		return;                                                      \
	case 37:                                                             \
		ln_##op##_37(__VA_ARGS__);                                   \
		return;                                                      \
	case 55:                                                             \
		ln_##op##_55(__VA_ARGS__);                                   \
		return;                                                      \
	case 74:                                                             \
		ln_##op##_74(__VA_ARGS__);                                   \
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

/* Bits pos .. pos + w - 1 of one lane's exponent (pos public). */
LN_INLINE uint64_t ln_window(const uint64_t *e, int ewords, int pos, int w)
{
	const int word = pos / 64, off = pos % 64;
	uint64_t v = e[word] >> off;
	if (off + w > 64 && word + 1 < ewords)
		v |= e[word + 1] << (64 - off);
	return v & ((UINT64_C(1) << w) - 1);
}

/* out = entry want_l of the table in each lane l, by a masked scan of all
 * entries: every entry's every word is loaded whatever want is. */
LN_INLINE void ln_select(uint64_t *out, const uint64_t *table,
			 const uint64_t *want, const int k)
{
	const size_t words = BIG_LANES_WORDS(k);
	lv take[2][BIG_LANES_TABLE_ENTRIES];
	for (int s = 0; s < 2; s++) {
		const lv w = lv_load(want + 4 * s);
		for (int e = 0; e < BIG_LANES_TABLE_ENTRIES; e++)
			take[s][e] = lv_eq(w, lv_set1((uint64_t)e));
	}
	for (int j = 0; j < k; j++) {
		lv acc0 = lv_zero(), acc1 = lv_zero();
		for (int e = 0; e < BIG_LANES_TABLE_ENTRIES; e++) {
			const uint64_t *x = table + (size_t)e * words;
			acc0 = lv_or(acc0, lv_and(take[0][e], lv_load(LN_AT(x, j, 0))));
			acc1 = lv_or(acc1, lv_and(take[1][e], lv_load(LN_AT(x, j, 1))));
		}
		lv_store(LN_AT(out, j, 0), acc0);
		lv_store(LN_AT(out, j, 1), acc1);
	}
}

/* out = r - m where r >= m, else r, lane by lane (r <= m: the result of
 * the product by 1), by the borrow of the whole subtraction as a mask. */
LN_INLINE void ln_final_sub(uint64_t *out, const uint64_t *r, const uint64_t *m,
			    const int k)
{
	const lv mask = lv_set1(BIG_LANES_DIGIT_MASK), one = lv_set1(1);
	for (int s = 0; s < 2; s++) {
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

	const int nbits = 64 * ewords;
	const int top = nbits % BIG_LANES_WINDOW ? nbits % BIG_LANES_WINDOW
						 : BIG_LANES_WINDOW;
	int pos = nbits - top;
	for (int l = 0; l < BIG_LANES; l++)
		want[l] = ln_window(e + (size_t)l * ewords, ewords, pos, top);
	ln_select(acc, table, want, k);
	while (pos > 0) {
		pos -= BIG_LANES_WINDOW;
		for (int b = 0; b < BIG_LANES_WINDOW; b++)
			LN_NAME(big_lanes_sqr)(acc, acc, mod);
		for (int l = 0; l < BIG_LANES; l++)
			want[l] = ln_window(e + (size_t)l * ewords, ewords, pos,
					    BIG_LANES_WINDOW);
		ln_select(sel, table, want, k);
		LN_NAME(big_lanes_mul)(acc, acc, sel, mod);
	}
	LN_NAME(big_lanes_mul)(acc, acc, one, mod);
	ln_final_sub(out, acc, mod->m, k);
}
