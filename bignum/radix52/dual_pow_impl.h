/*
 * Template (configuration: dual_step_impl.h).
 * The dual exponentiation and this build's exported entry points
 * (contracts: radix52.h).
 *
 *   table[0] = R mod m      = mul(rr, 1)        (<= m)
 *   table[1] = base * R     = mul(base, rr)     (< 2m: base, rr < 2m)
 *   table[i] = table[i/2]^2 (i even) or table[i-1] * table[1] (i odd)
 *   acc = table[top window of e]; for each further window of 5 bits:
 *       acc = acc^(2^5) (five squarings), acc = acc * table[window]
 *   acc = mul(acc, 1) = (acc + Y m) / R <= m, then acc -= m if acc >= m.
 * Every table is read by r52_select_k, a masked scan of all 32 entries for
 * both halves (each half has its own window value, the same position).
 *
 * The entry points pick a product once per call by digit count: builds
 * that define R52_FIXED_SIZES have the RSA sizes (10, 20, 30, 40 digits)
 * compiled with k constant, so that the windows stay in registers.
 */
#ifndef BIGMONT_RADIX52_DUAL_POW_IMPL_H
#define BIGMONT_RADIX52_DUAL_POW_IMPL_H

#ifdef R52_FIXED_SIZES
#define R52_SIZES(X) X(10) X(20) X(30) X(40)
/* With the RSA sizes compiled apart, the run-time-k bodies serve only the
 * other digit counts: cold.  That also keeps GCC's RTL unroller, which
 * skips code optimised for size, from taking R52_UNROLL in them as 44
 * copies of loops whose count it does not know (dual_step_impl.h). */
#define R52_RUNTIME_K_ATTR __attribute__((cold))
#else
#define R52_SIZES(X)
#define R52_RUNTIME_K_ATTR
#endif

/*
 * Which body serves which size.  The twin (dual_c.c) runs the steps the
 * IFMA build runs on the ymm halves; the IFMA build may instead take, by
 * run-time predicates bound per CPU model (bignum/tuning.h), the pair
 * product at 30 and 40 digits (R52_MUL_PAIRS, with its table read
 * R52_SELECT_PAIRS) and the exponentiation's squaring at 30 digits by
 * the dedicated squaring, steps the twin does not run: those run against
 * the twin and GMP in the emulated builds (tests/radix52/) on every
 * machine.  Up to R52_FIXED_WINDOW_MAX_DIGITS the product and squaring accumulate on a window that does not move
 * (dual_fixed_impl.h); above it on the shifting window (dual_mul_impl.h,
 * dual_sqr_impl.h), whose accumulators need half the registers.  One half
 * alone (mod->halves == 1) has the registers of two and keeps the fixed
 * window up to R52_SINGLE_FIXED_MAX_DIGITS (at 40 digits it spills; the
 * times are in docs/design-notes.md, "The fault check in radix 2^52").
 * Above R52_SQR_MAX_DIGITS the exponentiations square by the
 * product: the dedicated squaring keeps 2G groups of both halves live,
 * which past 20 digits no longer fits the 32 vector registers (a build
 * may still take it at 30 digits where it measured faster:
 * R52_POW_SQR30_DEDICATED, a run-time predicate).  Every
 * choice gives the same words; bignum/tuning.h names the runs that
 * decided the run-time ones.  A build may name an assembly product and squaring for
 * 20 digits (R52_KERNELS20: R52_MUL20_KERNEL, R52_SQR20_KERNEL, the same
 * contracts, both halves only), which then serve every dual product and
 * squaring at 20 digits; the functions that call them call R52_WIPE20
 * when done (radix52.h).
 */
#define R52_FIXED_WINDOW_MAX_DIGITS 10
#define R52_SINGLE_FIXED_MAX_DIGITS 20
#define R52_SQR_MAX_DIGITS 20

/* Whether H halves of k digits take the fixed window. */
#define R52_TAKES_FIXED_WINDOW(k, H)                                         \
	((k) <= R52_FIXED_WINDOW_MAX_DIGITS ||                               \
	 ((H) == 1 && (k) <= R52_SINGLE_FIXED_MAX_DIGITS))

R52_INLINE void r52_mul_k(uint64_t *r, const uint64_t *a, const uint64_t *b,
			  const struct big_r52_dual_mod *mod, const int k,
			  const int H)
{
	if (R52_TAKES_FIXED_WINDOW(k, H))
		r52_mul_fixed_body(r, a, b, mod, k, H);
	else
		r52_mul_body(r, a, b, mod, k, H);
}

R52_INLINE void r52_sqr_k(uint64_t *r, const uint64_t *a,
			  const struct big_r52_dual_mod *mod, const int k,
			  const int H)
{
	if (R52_TAKES_FIXED_WINDOW(k, H))
		r52_sqr_fixed_body(r, a, mod, k, H);
	else
		r52_sqr_body(r, a, mod, k, H);
}

/* The squaring of the exponentiations. */
R52_INLINE void r52_pow_sqr_k(uint64_t *r, const uint64_t *a,
			      const struct big_r52_dual_mod *mod, const int k,
			      const int H)
{
	if (k > R52_SQR_MAX_DIGITS)
		r52_mul_k(r, a, a, mod, k, H);
	else
		r52_sqr_k(r, a, mod, k, H);
}

/* out = entry want_h of the table in half h, reading all 32 entries. */
R52_INLINE void r52_select_k(uint64_t *out, const uint64_t *table, uint64_t want_p,
		       uint64_t want_q, const int k)
{
	const int G = BIG_R52_GROUPS(k), words = BIG_R52_PAIR_WORDS(k);
	const r52v want[2] = { r52v_bcast(want_p), r52v_bcast(want_q) };
	const r52v one = r52v_bcast(1);
	r52v acc[2][BIG_R52_MAX_GROUPS];
	r52v at = r52v_zero();

	R52_UNROLL
	for (int h = 0; h < 2; h++) {
		R52_UNROLL
		for (int g = 0; g < G; g++)
			acc[h][g] = r52v_zero();
	}
	for (int e = 0; e < BIG_R52_TABLE_ENTRIES; e++) {
		const uint64_t *entry = table + (size_t)e * (size_t)words;
		R52_UNROLL
		for (int h = 0; h < 2; h++) {
			const r52m take = r52v_eq(at, want[h]);
			R52_UNROLL
			for (int g = 0; g < G; g++)
				acc[h][g] = r52v_blend_load(take, acc[h][g],
							    R52_GRP(entry, g, h));
		}
		at = r52v_add(at, one);
	}
	R52_UNROLL
	for (int h = 0; h < 2; h++) {
		R52_UNROLL
		for (int g = 0; g < G; g++)
			r52v_store(R52_GRP(out, g, h), acc[h][g]);
	}
}

/* A build may read the table its own way (R52_SELECT_PAIRS: the same
 * contract and words as r52_select_k). */
#ifdef R52_SELECT_PAIRS
#define R52_SELECT R52_SELECT_PAIRS
#else
#define R52_SELECT r52_select_k
#endif

/* Everything the exponentiation runs per product, for one digit count. */
struct r52_size_ops {
	big_r52_dual_mul_fn *mul;
	big_r52_dual_sqr_fn *sqr;     /* the dedicated squaring */
	big_r52_dual_sqr_fn *pow_sqr; /* the squaring of the exponentiation */
	void (*select)(uint64_t *out, const uint64_t *table, uint64_t want_p,
		       uint64_t want_q, const struct big_r52_dual_mod *mod);
};

/* The product and squarings of H halves (2, or 1: radix52.h) at K digits,
 * with the function attributes ATTR. */
#define R52_PRODUCTS(K, H, SFX, ATTR)                                        \
	ATTR static void r52_mul_##SFX(uint64_t *r, const uint64_t *a,       \
				  const uint64_t *b,                         \
				  const struct big_r52_dual_mod *mod)        \
	{                                                                    \
		r52_mul_k(r, a, b, mod, K, H);                               \
	}                                                                    \
	ATTR static void r52_sqr_##SFX(uint64_t *r, const uint64_t *a,       \
				  const struct big_r52_dual_mod *mod)        \
	{                                                                    \
		r52_sqr_k(r, a, mod, K, H);                                  \
	}                                                                    \
	ATTR static void r52_pow_sqr_##SFX(uint64_t *r, const uint64_t *a,   \
				      const struct big_r52_dual_mod *mod)    \
	{                                                                    \
		r52_pow_sqr_k(r, a, mod, K, H);                              \
	}
#define R52_BODIES(K, SFX, ATTR)                                             \
	R52_PRODUCTS(K, 2, SFX, ATTR)                                        \
	R52_PRODUCTS(K, 1, single_##SFX, ATTR)                               \
	ATTR static void r52_select_##SFX(uint64_t *out,                     \
				     const uint64_t *table,                  \
				     uint64_t want_p, uint64_t want_q,       \
				     const struct big_r52_dual_mod *mod)     \
	{                                                                    \
		(void)mod;                                                   \
		R52_SELECT(out, table, want_p, want_q, K);                   \
	}
R52_BODIES(mod->digits, any, R52_RUNTIME_K_ATTR)
#define R52_FIXED(K) R52_BODIES(K, K, )
R52_SIZES(R52_FIXED)

#ifdef R52_MUL_PAIRS
/* The build's pair-group product and squaring (R52_MUL_PAIRS,
 * R52_SQR_PAIRS), for both halves: k digits, or 30 and 40. */
#define R52_PAIR_PRODUCTS(K, SFX)                                            \
	static void r52_mul_pairs_##SFX(uint64_t *r, const uint64_t *a,      \
					const uint64_t *b,                   \
					const struct big_r52_dual_mod *mod)  \
	{                                                                    \
		R52_MUL_PAIRS(r, a, b, mod, K);                              \
	}                                                                    \
	static void r52_sqr_pairs_##SFX(uint64_t *r, const uint64_t *a,      \
					const struct big_r52_dual_mod *mod)  \
	{                                                                    \
		R52_SQR_PAIRS(r, a, mod, K);                                 \
	}
R52_PAIR_PRODUCTS(mod->digits, any)
/* The square by the pair product, at the fixed window's sizes (r52_pick). */
static void r52_sqr_by_mul_pairs_any(uint64_t *r, const uint64_t *a,
				     const struct big_r52_dual_mod *mod)
{
	R52_MUL_PAIRS(r, a, a, mod, mod->digits);
}
#ifdef R52_FIXED_SIZES
R52_PAIR_PRODUCTS(30, 30)
R52_PAIR_PRODUCTS(40, 40)
#endif
#endif

#ifdef R52_MUL10_KERNEL
/* The square by the build's 10-digit product (R52_MUL10_KERNEL). */
static void r52_sqr_by_mul10_kernel(uint64_t *r, const uint64_t *a,
				    const struct big_r52_dual_mod *mod)
{
	R52_MUL10_KERNEL(r, a, a, mod);
}
#endif

/* The functions for k digits and H halves: the fixed-size ones if any;
 * the build's pair-group product where R52_MUL_PAIRS_WANTED(k) says so
 * (at the fixed window's sizes the squarings too, by that product: a
 * call there is mostly latency, and the product's rows interleave with
 * the reduction where the fixed window's squaring finishes the square
 * first; at 10 digits the build's assembly product, R52_MUL10_KERNEL,
 * where it has one); the 20-digit assembly for both halves only. */
static struct r52_size_ops r52_pick(int k, int halves)
{
	const int single = halves == 1;
	struct r52_size_ops ops = {
		single ? r52_mul_single_any : r52_mul_any,
		single ? r52_sqr_single_any : r52_sqr_any,
		single ? r52_pow_sqr_single_any : r52_pow_sqr_any,
		r52_select_any
	};
	(void)k;
#define R52_CASE(K)                                                          \
	if (k == K)                                                          \
		ops = (struct r52_size_ops){                                 \
			single ? r52_mul_single_##K : r52_mul_##K,           \
			single ? r52_sqr_single_##K : r52_sqr_##K,           \
			single ? r52_pow_sqr_single_##K : r52_pow_sqr_##K,   \
			r52_select_##K                                       \
		};
	R52_SIZES(R52_CASE)
#undef R52_CASE
#ifdef R52_MUL_PAIRS
	if (!single && R52_MUL_PAIRS_WANTED(k)) {
		ops.mul = r52_mul_pairs_any;
		if (R52_TAKES_FIXED_WINDOW(k, 2))
			ops.sqr = ops.pow_sqr = r52_sqr_by_mul_pairs_any;
#ifdef R52_MUL10_KERNEL
		if (k == 10) {
			ops.mul = R52_MUL10_KERNEL;
			ops.sqr = ops.pow_sqr = r52_sqr_by_mul10_kernel;
		}
#endif
		if (k > R52_SQR_MAX_DIGITS)
			ops.sqr = ops.pow_sqr = r52_sqr_pairs_any;
#ifdef R52_FIXED_SIZES
		if (k == 30 || k == 40) {
			ops.mul = k == 30 ? r52_mul_pairs_30 : r52_mul_pairs_40;
			ops.sqr = ops.pow_sqr = k == 30 ? r52_sqr_pairs_30 : r52_sqr_pairs_40;
		}
#endif
	}
#endif
#ifdef R52_KERNELS20
	if (k == 20 && !single) {
		ops.mul = R52_MUL20_KERNEL;
		ops.sqr = ops.pow_sqr = R52_SQR20_KERNEL;
	}
#endif
#ifdef R52_POW_SQR30_DEDICATED
	if (k == 30 && !single && R52_POW_SQR30_DEDICATED())
#ifdef R52_FIXED_SIZES
		ops.pow_sqr = r52_sqr_30;
#else
		ops.pow_sqr = r52_sqr_any;
#endif
#endif
	return ops;
}

/* After the last product of a function: zero the frame and registers
 * the 20-digit assembly left (R52_WIPE20), or those the build's other
 * kernels left (R52_WIPE_C_FRAMES, where defined), from the same stack
 * depth.  The empty asm keeps the call from becoming a tail call,
 * which would run the wipe above the caller's frame instead of where the
 * kernels' frame was. */
R52_INLINE void r52_wipe_kernel_frames(const struct r52_size_ops *ops, int k)
{
	(void)k;
#ifdef R52_KERNELS20
	if (ops->sqr == R52_SQR20_KERNEL)
		R52_WIPE20();
#ifdef R52_WIPE_C_FRAMES
	else
		R52_WIPE_C_FRAMES(k);
#endif
	__asm__ volatile("" ::: "memory");
#else
	(void)ops;
#endif
}

/* Bits [pos, pos + width) of e[0..ewords); positions are public. */
static uint64_t r52_window(const uint64_t *e, int ewords, int pos, int width)
{
	const int idx = pos / 64, shift = pos % 64;
	uint64_t v = e[idx] >> shift;
	if (shift + width > 64 && idx + 1 < ewords)
		v |= e[idx + 1] << (64 - shift);
	return v & (((uint64_t)1 << width) - 1);
}

/* Each of the H halves of x (normalised, below 2m) minus m if that does
 * not borrow: the digits' borrow chain in scalar, then a masked choice as
 * the difference is formed again.  It runs after the kernels' frames are
 * wiped, so it keeps no digits of x - m (which, beside the result, give
 * m) in a frame of its own. */
static void r52_sub_if_not_below(uint64_t *x, const uint64_t *m, const int k,
				 const int H)
{
	for (int h = 0; h < H; h++) {
		uint64_t borrow = 0;
		for (int j = 0; j < k; j++)
			borrow = (x[BIG_R52_AT(h, j)] - m[BIG_R52_AT(h, j)] - borrow) >> 63;
		const uint64_t keep = (uint64_t)0 - borrow;
		borrow = 0;
		for (int j = 0; j < k; j++) {
			const uint64_t xj = x[BIG_R52_AT(h, j)];
			const uint64_t d = xj - m[BIG_R52_AT(h, j)] - borrow;
			borrow = d >> 63;
			x[BIG_R52_AT(h, j)] = (xj & keep) | (d & BIG_R52_DIGIT_MASK & ~keep);
		}
	}
}

void R52_NAME(big_r52_dual_mul)(uint64_t *r, const uint64_t *a,
				const uint64_t *b,
				const struct big_r52_dual_mod *mod)
{
	const struct r52_size_ops ops = r52_pick(mod->digits, mod->halves);
	ops.mul(r, a, b, mod);
	r52_wipe_kernel_frames(&ops, mod->digits);
}

void R52_NAME(big_r52_dual_sqr)(uint64_t *r, const uint64_t *a,
				const struct big_r52_dual_mod *mod)
{
	const struct r52_size_ops ops = r52_pick(mod->digits, mod->halves);
	ops.sqr(r, a, mod);
	r52_wipe_kernel_frames(&ops, mod->digits);
}

void R52_NAME(big_r52_dual_pow)(uint64_t *out, const uint64_t *base,
				const uint64_t *e_p, const uint64_t *e_q,
				int ewords,
				const struct big_r52_dual_mod *mod,
				uint64_t *scratch)
{
	const int k = mod->digits, words = BIG_R52_PAIR_WORDS(k);
	const struct r52_size_ops ops = r52_pick(k, 2);
	big_r52_dual_mul_fn *const mul = ops.mul;
	big_r52_dual_sqr_fn *const sqr = ops.pow_sqr;
	uint64_t *const table = big_r52_align64(scratch);
	uint64_t *const acc = table + (size_t)BIG_R52_TABLE_ENTRIES * (size_t)words;
	uint64_t *const sel = acc + words, *const one = sel + words;
#define R52_ENTRY(i) (table + (size_t)(i) * (size_t)words)

	for (int w = 0; w < words; w++)
		one[w] = 0;
	one[BIG_R52_AT(0, 0)] = one[BIG_R52_AT(1, 0)] = 1;

	mul(R52_ENTRY(0), mod->rr, one, mod);
	mul(R52_ENTRY(1), base, mod->rr, mod);
	for (int i = 2; i < BIG_R52_TABLE_ENTRIES; i++) {
		if (i % 2 == 0)
			sqr(R52_ENTRY(i), R52_ENTRY(i / 2), mod);
		else
			mul(R52_ENTRY(i), R52_ENTRY(i - 1), R52_ENTRY(1), mod);
	}

	/* The top window takes the leftover bits, so the others are whole. */
	const int ebits = 64 * ewords;
	int top = ebits % BIG_R52_WINDOW;
	if (top == 0)
		top = BIG_R52_WINDOW;
	int pos = ebits - top;
	ops.select(acc, table, r52_window(e_p, ewords, pos, top),
		   r52_window(e_q, ewords, pos, top), mod);
	while (pos > 0) {
		pos -= BIG_R52_WINDOW;
		ops.select(sel, table, r52_window(e_p, ewords, pos, BIG_R52_WINDOW),
			   r52_window(e_q, ewords, pos, BIG_R52_WINDOW), mod);
		for (int s = 0; s < BIG_R52_WINDOW; s++)
			sqr(acc, acc, mod);
		mul(acc, acc, sel, mod);
	}

	mul(acc, acc, one, mod);
	r52_wipe_kernel_frames(&ops, mod->digits);
	r52_sub_if_not_below(acc, mod->m, k, 2);
	for (int w = 0; w < words; w++)
		out[w] = acc[w];
#undef R52_ENTRY
}

#ifdef R52_MUL_PAIRS
/* Each side of the IFMA build's choices, whatever the CPU binds
 * (radix52.h): the product of both halves on pair groups and on the ymm
 * halves, and the dedicated squaring, at k digits (the fixed-size ones
 * at 30 and 40, the build's assembly at 10); the squaring on pair groups
 * is, at the fixed window's sizes, the square by the pair product, as
 * r52_pick takes it. */
void R52_NAME(big_r52_dual_mul_pairs)(uint64_t *r, const uint64_t *a, const uint64_t *b,
				      const struct big_r52_dual_mod *mod)
{
#ifdef R52_MUL10_KERNEL
	if (mod->digits == 10) {
		R52_MUL10_KERNEL(r, a, b, mod);
		return;
	}
#endif
#ifdef R52_FIXED_SIZES
	if (mod->digits == 30) {
		r52_mul_pairs_30(r, a, b, mod);
		return;
	}
	if (mod->digits == 40) {
		r52_mul_pairs_40(r, a, b, mod);
		return;
	}
#endif
	r52_mul_pairs_any(r, a, b, mod);
}

void R52_NAME(big_r52_dual_sqr_pairs)(uint64_t *r, const uint64_t *a,
				      const struct big_r52_dual_mod *mod)
{
#ifdef R52_MUL10_KERNEL
	if (mod->digits == 10) {
		r52_sqr_by_mul10_kernel(r, a, mod);
		return;
	}
#endif
	if (R52_TAKES_FIXED_WINDOW(mod->digits, 2)) {
		r52_sqr_by_mul_pairs_any(r, a, mod);
		return;
	}
#ifdef R52_FIXED_SIZES
	if (mod->digits == 30) {
		r52_sqr_pairs_30(r, a, mod);
		return;
	}
	if (mod->digits == 40) {
		r52_sqr_pairs_40(r, a, mod);
		return;
	}
#endif
	r52_sqr_pairs_any(r, a, mod);
}

void R52_NAME(big_r52_dual_mul_halves)(uint64_t *r, const uint64_t *a, const uint64_t *b,
				       const struct big_r52_dual_mod *mod)
{
	const int k = mod->digits;
	(void)k;
#define R52_SIDE_CASE(K)                                                     \
	if (k == K) {                                                        \
		r52_mul_##K(r, a, b, mod);                                   \
		return;                                                      \
	}
	R52_SIZES(R52_SIDE_CASE)
#undef R52_SIDE_CASE
	r52_mul_any(r, a, b, mod);
}

void R52_NAME(big_r52_dual_sqr_dedicated)(uint64_t *r, const uint64_t *a,
					  const struct big_r52_dual_mod *mod)
{
	const int k = mod->digits;
	(void)k;
#define R52_SIDE_CASE(K)                                                     \
	if (k == K) {                                                        \
		r52_sqr_##K(r, a, mod);                                      \
		return;                                                      \
	}
	R52_SIZES(R52_SIDE_CASE)
#undef R52_SIDE_CASE
	r52_sqr_any(r, a, mod);
}
#endif

/* Bit i of e (public). */
static int r52_bit(const uint64_t *e, int i)
{
	return (int)((e[i / 64] >> (i % 64)) & 1);
}

void R52_NAME(big_r52_pow_public)(uint64_t *out, const uint64_t *base,
				  const uint64_t *e, int ebits,
				  const struct big_r52_dual_mod *mod,
				  uint64_t *scratch)
{
	const int k = mod->digits, words = BIG_R52_PAIR_WORDS(k);
	const int H = mod->halves == 1 ? 1 : 2;
	const struct r52_size_ops ops = r52_pick(k, H);
	uint64_t *const base_r = big_r52_align64(scratch), *const acc = base_r + words;
	uint64_t *const one = acc + words;

	for (int w = 0; w < words; w++)
		one[w] = 0;
	one[BIG_R52_AT(0, 0)] = one[BIG_R52_AT(1, 0)] = 1;

	/* Left to right as big_modexp_ct_base: the product for e's last bit
	 * takes base itself (or 1 for an even e), which also takes the
	 * result out of Montgomery form. */
	const uint64_t *last = one;
	if (ebits == 0) {
		ops.mul(acc, mod->rr, one, mod); /* R mod m: 1 in the form */
	} else {
		ops.mul(base_r, base, mod->rr, mod);
		for (int w = 0; w < words; w++)
			acc[w] = base_r[w];
		for (int bit = ebits - 2; bit >= 1; bit--) {
			ops.pow_sqr(acc, acc, mod);
			if (r52_bit(e, bit))
				ops.mul(acc, acc, base_r, mod);
		}
		if (ebits >= 2) {
			ops.pow_sqr(acc, acc, mod);
			if (r52_bit(e, 0))
				last = base;
		}
	}
	ops.mul(acc, acc, last, mod);
	r52_wipe_kernel_frames(&ops, mod->digits);
	r52_sub_if_not_below(acc, mod->m, k, H);
	for (int h = 0; h < H; h++)
		for (int g = 0; g < BIG_R52_GROUPS(k); g++)
			for (int l = 0; l < BIG_R52_LANES; l++)
				R52_GRP(out, g, h)[l] = R52_GRP(acc, g, h)[l];
}

#endif /* BIGMONT_RADIX52_DUAL_POW_IMPL_H */
