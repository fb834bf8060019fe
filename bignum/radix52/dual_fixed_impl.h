/*
 * Template (configuration: dual_step_impl.h).
 * The product and the Montgomery reduction of one half on a window that
 * does not move (contracts: radix52.h):
 *
 *   r52_shifted_copies  x shifted up by 0..3 lanes, so a row's products
 *                       land in place whatever the row's lane offset;
 *   r52_product_fixed   T = a * b, all 2k positions;
 *   r52_reduce_fixed    T += Y * m, one digit of Y per step, low digits
 *                       retired in the scalar t;
 *   r52_take_high       r = positions k .. 2k-1 of T, normalised.
 *
 * T holds positions 0 .. 8G-1 of a running sum in 2G groups (position p =
 * lane p % 4 of T[p / 4]), as 64-bit lane sums not yet carried.  Row or
 * step i = 4q + s multiplies a digit by a copy of the multiplicand shifted
 * up by s lanes (lane l of X[s][g] is digit 4g + l - s), so its low halves
 * land in groups q .. q+G and its high halves, one position up, through
 * the copy shifted by s + 1 (X[4] being X[0] one group up).  Nothing
 * shifts the window: each group only accumulates, so the steps' vector
 * work has no chain through a lane shift.
 *
 * Reduction step i:  y = t * k0 mod 2^52,  T += lo(m y) B^i + hi(m y)
 * B^(i+1).  Position i's true value is the scalar t; its vector lane is
 * never read again.  t' = position i + 1's true value =
 *   (t + lo(m_0 y)) >> 52  +  hi(m_0 y)  +  lo(m_1 y)  +  lane i+1 of T
 * with the lane read before this step's terms reach it (they are the
 * scalar terms), so y's serial chain runs in scalar registers.
 * t + lo(m_0 y) == 0 mod 2^52 by the choice of y, so its carry is
 * ceil(t / 2^52), known before y (r52_retired_carry).
 *
 * Lane bound: a position receives lo and hi of at most k products a_j b_i
 * and of at most k products m_j y_i: 4k terms below 2^52 (the squaring's
 * doubled cross products count the same), plus scalar carries below
 * 2^12; below 2^60 for k <= BIG_R52_MAX_DIGITS.
 */
#ifndef BIGMONT_RADIX52_DUAL_FIXED_IMPL_H
#define BIGMONT_RADIX52_DUAL_FIXED_IMPL_H

/* Lane l (public, 0..3) of a: a switch, because the ifma build's lane
 * read takes an immediate; unrolled, it folds to one. */
R52_INLINE uint64_t r52_lane_at(r52v a, int l)
{
	switch (l & 3) {
	case 0: return r52v_lane(a, 0);
	case 1: return r52v_lane(a, 1);
	case 2: return r52v_lane(a, 2);
	default: return r52v_lane(a, 3);
	}
}

/* a's groups shifted up by `up` lanes (0..3), `below` the group under it. */
R52_INLINE r52v r52_shift_up(r52v cur, r52v below, int up)
{
	switch (up & 3) {
	case 1: return r52v_align(cur, below, 3);
	case 2: return r52v_align(cur, below, 2);
	case 3: return r52v_align(cur, below, 1);
	default: return cur;
	}
}

/* Shifted copies of a half's digits: copy s (0..3), group g (0..G) at
 * R52_COPY(X, s, g).  They live in memory on purpose: each is read by one
 * multiply-add per step as a memory operand, which leaves the registers
 * to the accumulators (held in registers, copies made GCC spill those). */
#define R52_COPY_WORDS (4 * (BIG_R52_MAX_GROUPS + 1) * BIG_R52_LANES)
#define R52_COPY(X, s, g) ((X) + ((s) * (BIG_R52_MAX_GROUPS + 1) + (g)) * BIG_R52_LANES)

/* X = the G groups at x (pair stride) shifted up by 0..3 lanes. */
R52_INLINE void r52_shifted_copies(uint64_t *X, const uint64_t *x, const int G)
{
	r52v below = r52v_zero();
	R52_UNROLL
	for (int g = 0; g <= G; g++) {
		const r52v cur = g < G ? r52v_load(x + 2 * BIG_R52_LANES * g)
				       : r52v_zero();
		R52_UNROLL
		for (int s = 0; s < 4; s++)
			r52v_store(R52_COPY(X, s, g), r52_shift_up(cur, below, s));
		below = cur;
	}
}

/* Groups of a copy shifted by s that can hold a digit: the top one (G)
 * only when the shift reaches past the last group's padding. */
#define R52_COPY_GROUPS(s, k) (BIG_R52_GROUPS(k) + ((s) > 4 * BIG_R52_GROUPS(k) - (k)))

/* T += lo(x * d) B^i + hi(x * d) B^(i+1), x given by its shifted copies X
 * (i = 4q + s public). */
R52_INLINE void r52_row(r52v *T, const uint64_t *X, r52v D, int i, const int k)
{
	const int q = i / 4, s = i % 4;
	R52_UNROLL
	for (int g = 0; g < R52_COPY_GROUPS(s, k); g++)
		T[q + g] = r52v_madd_lo(T[q + g], r52v_load(R52_COPY(X, s, g)), D);
	if (s < 3) {
		R52_UNROLL
		for (int g = 0; g < R52_COPY_GROUPS(s + 1, k); g++)
			T[q + g] = r52v_madd_hi(T[q + g], r52v_load(R52_COPY(X, s + 1, g)), D);
	} else {
		R52_UNROLL
		for (int g = 0; g < R52_COPY_GROUPS(0, k); g++)
			T[q + 1 + g] = r52v_madd_hi(T[q + 1 + g], r52v_load(R52_COPY(X, 0, g)), D);
	}
}

/* T[0..2G) = a_h * b_h, every product formed (b's digits broadcast). */
R52_INLINE void r52_product_fixed(r52v *T, const uint64_t *a,
				  const uint64_t *b, int h, const int k)
{
	const int G = BIG_R52_GROUPS(k);
	uint64_t A[R52_COPY_WORDS] __attribute__((aligned(32)));
	r52_shifted_copies(A, R52_GRP(a, 0, h), G);
	R52_UNROLL
	for (int g = 0; g < 2 * G; g++)
		T[g] = r52v_zero();
	R52_UNROLL
	for (int i = 0; i < k; i++)
		r52_row(T, A, r52v_bcast(b[BIG_R52_AT(h, i)]), i, k);
}

/* The reduction state of one half. */
struct r52_reduction {
	uint64_t M[R52_COPY_WORDS] __attribute__((aligned(32))); /* m's copies */
	uint64_t m0, m1, k0_12, t; /* k0_12 = k0 * 2^12 mod 2^64 */
};

R52_INLINE void r52_reduction_start(struct r52_reduction *st, const r52v *T,
				    const uint64_t *m, uint64_t k0, const int k)
{
	r52_shifted_copies(st->M, m, BIG_R52_GROUPS(k));
	st->m0 = m[0];
	st->m1 = k > 1 ? m[1] : 0;
	st->k0_12 = k0 << 12;
	st->t = r52v_lane(T[0], 0);
}

/*
 * Reduction step i (above).  The scalar chain t -> y -> t' is the step's
 * latency, so y is carried as y * 2^12 = t * k0 * 2^12 mod 2^64 (no mask
 * on the chain), and hi(m_0 y) = (m_0 * y * 2^12) >> 64, one high product
 * without a double shift; lo(m_1 y) = ((m_1 * y * 2^12) mod 2^64) >> 12.
 */
R52_INLINE void r52_reduce_fixed(r52v *T, struct r52_reduction *st, int i,
				 const int k)
{
	const uint64_t t = st->t;
	const uint64_t carry = r52_retired_carry(t);
	const uint64_t next = r52_lane_at(T[(i + 1) / 4], (i + 1) % 4);
	const uint64_t y12 = t * st->k0_12;
	const uint64_t hi_m0y = (uint64_t)(r52_prod(st->m0, y12) >> 64);

	/* The chain's next t ahead of the row in program order (as in
	 * r52_reduce_step). */
	st->t = carry + next + hi_m0y + ((st->m1 * y12) >> 12);
	r52_row(T, st->M, r52v_bcast(y12 >> 12), i, k);
}

/* Half h of r = positions k .. 2k-1 of T after k reduction steps, with
 * position k's true value t, normalised (T is clobbered). */
R52_INLINE void r52_take_high(uint64_t *r, int h, r52v *T, uint64_t t,
			      const int k)
{
	const int G = BIG_R52_GROUPS(k), q = k / 4, s = k % 4;
	r52v U[BIG_R52_MAX_GROUPS];
	R52_UNROLL
	for (int g = 0; g < G; g++)
		U[g] = s == 0 ? T[q + g] : r52_shift_up(T[q + g + 1], T[q + g], 4 - s);
	U[0] = r52v_set_lane0(U[0], t);
	r52_normalise(r, h, U, G);
}

/* r = T / B^k reduced, the two halves' steps alternating: each half's
 * scalar chain runs while the other's products issue (H = 1: half 0
 * alone). */
R52_INLINE void r52_reduce_both(uint64_t *r, r52v T[2][2 * BIG_R52_MAX_GROUPS],
				const struct big_r52_dual_mod *mod, const int k,
				const int H)
{
	struct r52_reduction st[2];
	R52_UNROLL
	for (int h = 0; h < H; h++)
		r52_reduction_start(&st[h], T[h], R52_GRP(mod->m, 0, h), mod->k0[h], k);
	R52_UNROLL
	for (int i = 0; i < k; i++) {
		R52_UNROLL
		for (int h = 0; h < H; h++)
			r52_reduce_fixed(T[h], &st[h], i, k);
	}
	R52_UNROLL
	for (int h = 0; h < H; h++)
		r52_take_high(r, h, T[h], st[h].t, k);
}

R52_INLINE void r52_mul_fixed_body(uint64_t *r, const uint64_t *a,
				   const uint64_t *b,
				   const struct big_r52_dual_mod *mod, const int k,
				   const int H)
{
	r52v T[2][2 * BIG_R52_MAX_GROUPS];
	R52_UNROLL
	for (int h = 0; h < H; h++)
		r52_product_fixed(T[h], a, b, h, k);
	r52_reduce_both(r, T, mod, k, H);
}

R52_INLINE void r52_sqr_fixed_body(uint64_t *r, const uint64_t *a,
				   const struct big_r52_dual_mod *mod, const int k,
				   const int H)
{
	r52v T[2][2 * BIG_R52_MAX_GROUPS];
	R52_UNROLL
	for (int h = 0; h < H; h++)
		r52_square_product(T[h], a, h, k);
	r52_reduce_both(r, T, mod, k, H);
}

#endif /* BIGMONT_RADIX52_DUAL_FIXED_IMPL_H */
