/*
 * Template (configuration: dual_step_impl.h).
 * r52_mul_body: the almost-Montgomery product of both halves,
 *
 *   r_h = (a_h * b_h + Y_h * m_h) / 2^(52k)     (radix52.h: r_h < 2 m_h)
 *
 * by operand scanning: for i = 0 .. k-1, in each half,
 *   W += lo(a * b_i);  one reduction step (dual_step_impl.h: y_i, lo(m y_i),
 *   shift, hi(m y_i));  W += hi(a * b_i)
 * with the two halves' steps alternating, so each half's serial chain
 * (t -> y -> t') runs while the other half's vector products issue.
 * Then lane 0 takes its scalar and the window is normalised once.
 *
 * Lane bound: position p of the sum receives lo and hi of a_j b_i and of
 * m_j y_i for at most k values of i each: 4k terms below 2^52, plus the
 * scalar carries (< 2^12): below 2^60 for k <= 44.  Cost per half: 4kG
 * vector multiply-adds, kG lane shifts, 3 scalar products per step.
 *
 * H is the number of halves computed (2, or 1: half 0 alone, radix52.h).
 * r may equal a and/or b: both are read before r is written.
 */
#ifndef BIGMONT_RADIX52_DUAL_MUL_IMPL_H
#define BIGMONT_RADIX52_DUAL_MUL_IMPL_H

R52_INLINE void r52_mul_body(uint64_t *r, const uint64_t *a,
			     const uint64_t *b,
			     const struct big_r52_dual_mod *mod, const int k,
			     const int H)
{
	const int G = BIG_R52_GROUPS(k);
	r52v W[2][BIG_R52_MAX_GROUPS];
	uint64_t t[2] = { 0, 0 };

	for (int h = 0; h < H; h++) {
		R52_UNROLL
		for (int g = 0; g < G; g++)
			W[h][g] = r52v_zero();
	}
	for (int i = 0; i < k; i++) {
		R52_UNROLL
		for (int h = 0; h < H; h++) {
			const uint64_t bi = b[BIG_R52_AT(h, i)];
			const r52v B = r52v_bcast(bi);
			const unsigned __int128 a0b = r52_prod(R52_GRP(a, 0, h)[0], bi);

			R52_UNROLL
			for (int g = 0; g < G; g++)
				W[h][g] = r52v_madd_lo(W[h][g], r52v_load(R52_GRP(a, g, h)), B);
			t[h] = r52_reduce_step(W[h],
					       t[h] + ((uint64_t)a0b & BIG_R52_DIGIT_MASK),
					       R52_GRP(mod->m, 0, h), mod->k0[h], G) +
			       (uint64_t)(a0b >> 52);
			R52_UNROLL
			for (int g = 0; g < G; g++)
				W[h][g] = r52v_madd_hi(W[h][g], r52v_load(R52_GRP(a, g, h)), B);
		}
	}
	for (int h = 0; h < H; h++) {
		W[h][0] = r52v_set_lane0(W[h][0], t[h]);
		r52_normalise(r, h, W[h], G);
	}
}

#endif /* BIGMONT_RADIX52_DUAL_MUL_IMPL_H */
