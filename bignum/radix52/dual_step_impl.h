/*
 * The radix-2^52 algorithm as a template: dual_step_impl.h,
 * dual_mul_impl.h, dual_sqr_impl.h, dual_fixed_impl.h and
 * dual_pow_impl.h are code, not headers.  A build (dual_c.c, dual_ifma.c,
 * and tests/radix52/dual_emu.c through dual_ifma.c) includes its vector
 * API (vec_c.h or vec_ifma.h: the type r52v, the mask r52m, the r52v_*
 * operations), sets the macros below, then includes the five in that
 * order, once; they define this build's big_r52_dual_mul_<sfx>,
 * _sqr_<sfx>, _pow_<sfx> and big_r52_pow_public_<sfx> (radix52.h) and
 * static functions only.
 *
 * Configuration, read by the templates (all but R52_SFX optional):
 *   R52_SFX                  the suffix of the exported names (c, ifma)
 *   R52_FIXED_SIZES          compile the RSA sizes (10, 20, 30, 40
 *                            digits) with k constant, unrolled
 *                            (R52_UNROLL), as well as the run-time k
 *   R52_KERNELS20            a product and squaring for 20 digits, both
 *                            halves, in place of the template's, named
 *                            by R52_MUL20_KERNEL and R52_SQR20_KERNEL;
 *                            R52_WIPE20 is called after the last of them
 *                            (the NASM kernels, radix52.h)
 *   R52_POW_SQR30_DEDICATED  a predicate, int (*)(void): where it returns
 *                            1, the exponentiations square by the
 *                            dedicated squaring at 30 digits too
 *   R52_MUL_PAIRS            the build's own product of both halves on
 *                            zmm pair groups (r, a, b, mod, k; the
 *                            words of r52_mul_body), taken where the
 *                            run-time predicate R52_MUL_PAIRS_WANTED(k)
 *                            returns 1 (k the digits); defined, as R52_SELECT_PAIRS,
 *                            before dual_pow_impl.h
 *   R52_SQR_PAIRS            with R52_MUL_PAIRS: the build's squaring
 *                            of both halves on zmm pair groups (r, a,
 *                            mod, k; the words of r52_sqr_body), taken
 *                            with it
 *   R52_SELECT_PAIRS         the build's own table read, the contract and
 *                            words of r52_select_k (dual_pow_impl.h),
 *                            defined between dual_fixed_impl.h and
 *                            dual_pow_impl.h
 * Which body serves which size is said once, in dual_pow_impl.h.
 *
 * This first piece: the two steps every radix-2^52 product ends with,
 * for one half of a dual number:
 *
 *   r52_reduce_step  one step of word-by-word Montgomery reduction on a
 *                    window of lanes, moving the window up one digit;
 *   r52_normalise    carry propagation of a window into 52-bit digits.
 *
 * The window.  W[0..G) holds digit positions i .. i+4G-1 of a running sum
 * (lane l of W[g] is position i + 4g + l) as 64-bit lane sums, not yet
 * carried.  Lane 0's true value is kept in a scalar, t: the vector lane 0
 * only ever collects terms that the scalar also takes and is shifted out
 * unread, so y (the only serial dependency of the product) is computed
 * from scalar products, not from a vector lane extracted after a vector
 * multiply.  Lane 1, which becomes the next lane 0, is read from the
 * vector before the m*y terms reach it, and lo(m_1*y) is added in the
 * scalar instead.
 *
 * One step, with M = 2^52 - 1:
 *   y  = t * k0 mod 2^52                (t + lo(m_0 y) == 0 mod 2^52)
 *   W += lo(m * y) at positions i.., then shift the window down one lane
 *        (valignq), then W += hi(m * y): hi(m_j y) belongs at i + j + 1,
 *        which after the shift is lane j;
 *   t' = (t + lo(m_0 y)) >> 52  +  hi(m_0 y)  +  lo(m_1 y)  +  lane 1.
 * Per step each lane gains two terms below 2^52; the carry into t' is
 * below 2^12.  The caller puts the final t into lane 0 (r52v_set_lane0)
 * before normalising.
 */
#ifndef BIGMONT_RADIX52_DUAL_STEP_IMPL_H
#define BIGMONT_RADIX52_DUAL_STEP_IMPL_H

#define R52_CAT2(a, b) a##_##b
#define R52_CAT(a, b) R52_CAT2(a, b)
/* The name of this build's exported function: big_r52_dual_mul_<sfx>. */
#define R52_NAME(name) R52_CAT(name, R52_SFX)

#ifndef R52_INLINE
#define R52_INLINE static inline __attribute__((always_inline))
#endif

/* Group g of half h of a dual number (pair layout, radix52.h). */
#define R52_GRP(x, g, h) ((x) + 2 * BIG_R52_LANES * (g) + BIG_R52_LANES * (h))

/* Full unrolling where the digit count is a constant (the fixed-size
 * builds), so windows stay in registers. */
#ifdef R52_FIXED_SIZES
#define R52_UNROLL _Pragma("GCC unroll 44")
#else
#define R52_UNROLL
#endif

/* The 104-bit product of two digits. */
R52_INLINE unsigned __int128 r52_prod(uint64_t a, uint64_t b)
{
	return (unsigned __int128)a * b;
}

/* The carry out of a retired position t: t + lo(m_0 y) is 0 mod 2^52 by
 * the choice of y, so it is 2^52 ceil(t / 2^52), known before y and with
 * no product: two operations on the reduction's scalar chain, where a
 * test of the low bits for != 0 took four (the 10-digit exponentiation
 * 7-10 % slower).  t < 2^62 (the lane bound plus the scalar terms): no
 * overflow. */
R52_INLINE uint64_t r52_retired_carry(uint64_t t)
{
	return (t + BIG_R52_DIGIT_MASK) >> 52;
}

/*
 * One reduction step on the window W[0..G) of one half (above): t is the
 * true value of lane 0 (terms of this step's a*b_i included), m the
 * half's modulus (its group 0; groups at the pair stride), k0 = -m^-1 mod
 * 2^52.  Returns the true value of the new lane 0.
 */
R52_INLINE uint64_t r52_reduce_step(r52v *W, uint64_t t, const uint64_t *m,
				    uint64_t k0, const int G)
{
	const uint64_t y = (t * k0) & BIG_R52_DIGIT_MASK;
	const r52v Y = r52v_bcast(y);
	const unsigned __int128 m0y = r52_prod(m[0], y);
	const uint64_t lane1 = r52v_lane(W[0], 1);
	/* The chain's next t ahead of the vector work in program order: the
	 * core issues the oldest ready instruction first (1 % at RSA-1024). */
	const uint64_t t_next = r52_retired_carry(t) + (uint64_t)(m0y >> 52) +
				((m[1] * y) & BIG_R52_DIGIT_MASK) + lane1;

	R52_UNROLL
	for (int g = 0; g < G; g++)
		W[g] = r52v_madd_lo(W[g], r52v_load(R52_GRP(m, g, 0)), Y);
	R52_UNROLL
	for (int g = 0; g + 1 < G; g++)
		W[g] = r52v_align(W[g + 1], W[g], 1);
	W[G - 1] = r52v_align(r52v_zero(), W[G - 1], 1);
	R52_UNROLL
	for (int g = 0; g < G; g++)
		W[g] = r52v_madd_hi(W[g], r52v_load(R52_GRP(m, g, 0)), Y);

	return t_next;
}

/*
 * Half h of r = the window W[0..G) carried into 52-bit digits (W is
 * clobbered).  The value must be below 2^(52*4G), lanes below 2^63.
 *
 * First every lane keeps its low 52 bits and takes the bits above from
 * the lane below (a vector shift of the carries by one lane): digits
 * below 2^52 + 2^11.  A digit can now be above 2^52 - 1 (it generates a
 * carry of 1) or equal to it (it passes an incoming 1 on).  The carries
 * into every lane at once are ((gen << 1) + prop) ^ prop over the lane
 * masks of all groups (the addition ripples a carry through a run of
 * propagating lanes; the XOR leaves the lanes it reached), a scalar add
 * on up to 4G bits instead of a loop: then one masked add of 1 and the
 * mask to 52 bits.  No carry leaves the top lane: the value fits.
 */
R52_INLINE void r52_normalise(uint64_t *r, int h, r52v *W, const int G)
{
	const r52v digit_max = r52v_bcast(BIG_R52_DIGIT_MASK);
	const r52v one = r52v_bcast(1);
	r52v carries_below = r52v_zero();
	uint64_t gen = 0, prop = 0;

	R52_UNROLL
	for (int g = 0; g < G; g++) {
		const r52v c = r52v_shr52(W[g]);
		W[g] = r52v_add(r52v_and52(W[g]), r52v_align(c, carries_below, 3));
		carries_below = c;
		gen |= (uint64_t)r52v_gt(W[g], digit_max) << (BIG_R52_LANES * g);
		prop |= (uint64_t)r52v_eq(W[g], digit_max) << (BIG_R52_LANES * g);
	}
	const uint64_t carry_in = ((gen << 1) + prop) ^ prop;
	R52_UNROLL
	for (int g = 0; g < G; g++) {
		const r52m k = (r52m)((carry_in >> (BIG_R52_LANES * g)) & 0xf);
		r52v_store(R52_GRP(r, g, h), r52v_and52(r52v_add_mask(W[g], k, one)));
	}
}

#endif /* BIGMONT_RADIX52_DUAL_STEP_IMPL_H */
