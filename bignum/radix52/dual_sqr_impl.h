/*
 * Template (configuration: dual_step_impl.h).
 * r52_sqr_body: the almost-Montgomery square of both halves, the same
 * value as r52_mul_body(r, a, a) (radix52.h), with each cross product
 * computed once:
 *
 *   a^2 = 2 * sum_{i<j} a_i a_j B^(i+j)  +  sum_i a_i^2 B^(2i)   (B = 2^52)
 *
 * then reduced:  r = (a^2 + Y m) / B^k.
 *
 * 1. The product, into 2G groups of lanes T (position p = lane p % 4 of
 *    T[p / 4]).  Row i (i = 4q + s) multiplies the broadcast a_i by a_j,
 *    j > i.  Products land in place, with no shift per row, because the
 *    multiplicand is a copy of a shifted up by s lanes (S[s], made once by
 *    valignq): lane l of S[s][g] is a_(4g+l-s), so a_i times it belongs at
 *    position 4(q+g) + l, group q + g.  hi(a_i a_j) belongs one position
 *    higher: the copy shifted by s + 1 (S[4] is S[0] one group up).  The
 *    lanes with j <= i are masked out of the first group (merge-masked
 *    multiply-add), whole groups below are skipped:
 *       lo: first group q + s/2,      mask s odd ? {3} : {1,2,3}
 *       hi: first group q + (s+1)/2,  mask s odd ? all : {2,3}
 *    (lo, s = 1: lanes l with 4q + l - 1 > 4q + 1, i.e. l = 3; the other
 *    cases the same way.)  About kG multiply-adds per half instead of 2kG.
 * 2. T += T (the cross products twice; lanes below 2^60 stay below 2^61),
 *    then the squares: lo(a_g a_g) and hi(a_g a_g) lane-wise, interleaved
 *    (vpermt2q) into positions 2i and 2i + 1.
 * 3. Montgomery reduction of T's low half by k steps of r52_reduce_step on
 *    the window T[0..G) -- positions below 4G are in the window from the
 *    start -- then the positions from 4G up (T[G..2G)) are added, shifted
 *    up by 4G - k lanes to meet the window, which has moved up by k.
 *
 * Lane bound: a cross-product position receives at most k terms below
 * 2^52 (lo and hi of at most k/2 pairs each), doubled: 2k; one square
 * term; the reduction adds 2k: below (4k + 1) 2^52 + 2^12 < 2^60.
 * H halves are computed (2, or 1: half 0 alone).  r may equal a.
 */
#ifndef BIGMONT_RADIX52_DUAL_SQR_IMPL_H
#define BIGMONT_RADIX52_DUAL_SQR_IMPL_H

/* T[0..2G) = the square of half h of a (step 1 and 2 above). */
R52_INLINE void r52_square_product(r52v *T, const uint64_t *a, int h,
				   const int k)
{
	const int G = BIG_R52_GROUPS(k);
	r52v S[5][BIG_R52_MAX_GROUPS + 1];
	r52v below = r52v_zero();

	R52_UNROLL
	for (int g = 0; g <= G; g++) {
		const r52v cur = g < G ? r52v_load(R52_GRP(a, g, h)) : r52v_zero();
		S[0][g] = cur;
		S[1][g] = r52v_align(cur, below, 3);
		S[2][g] = r52v_align(cur, below, 2);
		S[3][g] = r52v_align(cur, below, 1);
		S[4][g] = below;
		below = cur;
	}
	R52_UNROLL
	for (int g = 0; g < 2 * G; g++)
		T[g] = r52v_zero();

	R52_UNROLL
	for (int i = 0; i + 1 < k; i++) {
		const int q = i / BIG_R52_LANES, s = i % BIG_R52_LANES;
		const r52v X = r52v_bcast(R52_GRP(a, q, h)[s]);
		const int lo_first = q + s / 2, hi_first = q + (s + 1) / 2;
		const int lo_last = (k - 1 + s) / BIG_R52_LANES;
		const int hi_last = (k + s) / BIG_R52_LANES;

		T[q + lo_first] = r52v_madd_lo_mask(T[q + lo_first],
						    (r52m)((s & 1) ? 0x8 : 0xe),
						    S[s][lo_first], X);
		R52_UNROLL
		for (int g = lo_first + 1; g <= lo_last; g++)
			T[q + g] = r52v_madd_lo(T[q + g], S[s][g], X);
		T[q + hi_first] = r52v_madd_hi_mask(T[q + hi_first],
						    (r52m)((s & 1) ? 0xf : 0xc),
						    S[s + 1][hi_first], X);
		R52_UNROLL
		for (int g = hi_first + 1; g <= hi_last; g++)
			T[q + g] = r52v_madd_hi(T[q + g], S[s + 1][g], X);
	}

	R52_UNROLL
	for (int g = 0; g < 2 * G; g++)
		T[g] = r52v_add(T[g], T[g]);
	R52_UNROLL
	for (int g = 0; g < G; g++) {
		const r52v lo = r52v_madd_lo(r52v_zero(), S[0][g], S[0][g]);
		const r52v hi = r52v_madd_hi(r52v_zero(), S[0][g], S[0][g]);
		T[2 * g] = r52v_add(T[2 * g], r52v_interleave_lo(lo, hi));
		T[2 * g + 1] = r52v_add(T[2 * g + 1], r52v_interleave_hi(lo, hi));
	}
}

/* W[0..G) += U[0..G) shifted up by `up` lanes (0..3; U[-1] = 0). */
R52_INLINE void r52_add_shifted_up(r52v *W, const r52v *U, int up,
				   const int G)
{
	r52v below = r52v_zero();
	R52_UNROLL
	for (int g = 0; g < G; g++) {
		r52v u;
		switch (up) { /* valignq takes an immediate */
		case 1: u = r52v_align(U[g], below, 3); break;
		case 2: u = r52v_align(U[g], below, 2); break;
		case 3: u = r52v_align(U[g], below, 1); break;
		default: u = U[g]; break;
		}
		W[g] = r52v_add(W[g], u);
		below = U[g];
	}
}

R52_INLINE void r52_sqr_body(uint64_t *r, const uint64_t *a,
			     const struct big_r52_dual_mod *mod, const int k,
			     const int H)
{
	const int G = BIG_R52_GROUPS(k);
	r52v T[2][2 * BIG_R52_MAX_GROUPS];
	uint64_t t[2];

	for (int h = 0; h < H; h++) {
		r52_square_product(T[h], a, h, k);
		t[h] = r52v_lane(T[h][0], 0);
	}
	R52_UNROLL
	for (int i = 0; i < k; i++) {
		R52_UNROLL
		for (int h = 0; h < H; h++)
			t[h] = r52_reduce_step(T[h], t[h], R52_GRP(mod->m, 0, h),
					       mod->k0[h], G);
	}
	for (int h = 0; h < H; h++) {
		T[h][0] = r52v_set_lane0(T[h][0], t[h]);
		r52_add_shifted_up(T[h], T[h] + G, BIG_R52_LANES * G - k, G);
		r52_normalise(r, h, T[h], G);
	}
}

#endif /* BIGMONT_RADIX52_DUAL_SQR_IMPL_H */
