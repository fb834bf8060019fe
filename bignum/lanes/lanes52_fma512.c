/*
 * The radix-2^52 lane product, squaring and exponentiations (lanes52.h)
 * on AVX-512 F without IFMA: lanes52_fma.c's half products by
 * double-precision FMAs, in zmm, the eight lanes in one stream.  The batch
 * path's lanes where the CPU has AVX-512 F and no IFMA (Intel's Skylake,
 * Cascade Lake and Cooper Lake servers) (lanes_select.c).
 *
 * Prototypes (lanes52.h):
 *   void big_lanes52_mul_fma512(uint64_t *r, const uint64_t *a,
 *                               const uint64_t *b,
 *                               const struct big_lanes52_mod *mod);
 *   void big_lanes52_sqr_fma512(uint64_t *r, const uint64_t *a,
 *                               const struct big_lanes52_mod *mod);
 *   void big_lanes52_pow_fma512(...), big_lanes52_pow_public_fma512(...)
 * Preconditions: big_lanes_cpu_has_avx512() (AVX-512 F with the OS saving
 * the opmask and ZMM state); the rest as lanes52.h.  The products give
 * the IFMA build's T, each word the digit and the carry it passed on.
 *
 * The arithmetic is lanes52_fma.c's (its header: P = fma(x, y, 2^104)
 * and L = x y - (P - 2^104 - 2^52) rounded toward minus infinity hold
 * hi(x y) and lo(x y) in their bit patterns; the columns add the
 * patterns as integers and take the exponents off by count), and so is
 * the product scanning.  What differs: each FMA carries its rounding
 * (EVEX embedded rounding, {rd-sae}, on register operands), so MXCSR is
 * never touched and the kernels need no entry point of their own; one
 * zmm holds a digit of all eight lanes, so there is one stream, and its
 * inner loop keeps two sets of sums (32 registers).  On Intel's server
 * cores the five operations of a digit product share the two ports that
 * take zmm, against three ports for ymm: a loop of the half products'
 * mix gave 1.30 times the ymm form's lane products a tick on Intel
 * family 6 model 167 (docs/design-notes.md).
 *
 * Constant time: no branch or address depends on a digit, a modulus or
 * an exponent bit (the table scan reads every entry whole, merging it by
 * vpblendmq under the lanes' compare masks; no load or store is under a
 * secret mask: ct_no_masked_access).  Frames and registers are left
 * dirty for the caller's wipe (lanes52.h).
 *
 * Core cycles a call, 8 lanes (`bigmont speed --kernels`, best of 100 x 16
 * dependent calls), against the zmm vfmadd231pd peak ({rd-sae}, 4k^2 + k
 * and 3k^2 + 2k zmm FMAs):
 *   k:                                    10     20     30     40
 *   Intel 6/167, 2026-12-02-1128 mul     876   2823   5948  10168
 *                                sqr     722   2176   4491   7651
 * 23-34 % of the peak, where the half products' own mix allows 40 % (five
 * operations a digit product on the two ports that take zmm); 0.73-0.82
 * of the ymm FMA kernels' time in the same run.
 */
#if defined(__x86_64__) && BIGMONT_HAVE_ASM

#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx512f")
#endif
#include <immintrin.h>

#include "ct_blend.h"
#include "lanes52.h"

typedef __m512d f8;
typedef __m512i i8;

#define LF_INLINE static inline __attribute__((always_inline))
#define LF_KERNEL static __attribute__((noinline))
/* Each FMA's rounding: toward minus infinity, exceptions suppressed. */
#define LF_RD (_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)

/* The patterns' constants: bits(2^52) and bits(2^104), multiples of 2^52. */
#define LF_LO_BIAS UINT64_C(0x4330000000000000)
#define LF_HI_BIAS UINT64_C(0x4670000000000000)

struct lf_consts {
	f8 c1;  /* 2^104 */
	f8 c2;  /* 2^104 + 2^52 */
	f8 two52;
	i8 mask; /* 2^52 - 1 */
	i8 exp52; /* bits(2^52) */
};

LF_INLINE struct lf_consts lf_consts(void)
{
	const struct lf_consts c = {
		_mm512_set1_pd(0x1p104), _mm512_set1_pd(0x1p104 + 0x1p52), _mm512_set1_pd(0x1p52),
		_mm512_set1_epi64((long long)BIG_LANES52_DIGIT_MASK),
		_mm512_set1_epi64((long long)LF_LO_BIAS),
	};
	return c;
}

/* The low 52 bits of each lane of w, as an exact double. */
LF_INLINE f8 lf_digit(const struct lf_consts *k, i8 w)
{
	const i8 x = _mm512_or_si512(_mm512_and_si512(w, k->mask), k->exp52);
	return _mm512_sub_pd(_mm512_castsi512_pd(x), k->two52);
}

/* lo(t k0) for t the low 52 bits of w: lanes52_fma.c's lf_q_digit. */
LF_INLINE f8 lf_q_digit(const struct lf_consts *k, i8 w, f8 k0, f8 c1k)
{
	const f8 d = _mm512_castsi512_pd(_mm512_or_si512(_mm512_and_si512(w, k->mask), k->exp52));
	const f8 p = _mm512_fmadd_round_pd(d, k0, c1k, LF_RD);
	return _mm512_fmadd_round_pd(d, k0, _mm512_sub_pd(c1k, p), LF_RD);
}

/* Digit j of a lane number of the eight-lane layout. */
#define LF_AT(p, j) ((p) + (size_t)BIG_LANES * (size_t)(j))

LF_INLINE void lf_load_line(f8 *d, const uint64_t *x, const int j, const struct lf_consts *c)
{
	*d = lf_digit(c, _mm512_loadu_si512((const void *)LF_AT(x, j)));
}

/* This column's lo halves and the next column's hi halves. */
struct lf_cols {
	i8 lo, hi;
};

LF_INLINE struct lf_cols lf_cols_zero(void)
{
	return (struct lf_cols){ _mm512_setzero_si512(), _mm512_setzero_si512() };
}

LF_INLINE struct lf_cols lf_cols_twice(struct lf_cols x)
{
	return (struct lf_cols){ _mm512_slli_epi64(x.lo, 1), _mm512_slli_epi64(x.hi, 1) };
}

/* lo(x y)'s pattern into a's lo, hi(x y)'s into its hi. */
LF_INLINE void lf_madd_line(const struct lf_consts *k, struct lf_cols *a, const f8 *x,
			    const f8 *y)
{
	const f8 p = _mm512_fmadd_round_pd(*x, *y, k->c1, LF_RD);
	const f8 l = _mm512_fmsub_round_pd(*x, *y, _mm512_sub_pd(p, k->c2), LF_RD);
	a->lo = _mm512_add_epi64(a->lo, _mm512_castpd_si512(l));
	a->hi = _mm512_add_epi64(a->hi, _mm512_castpd_si512(p));
}

/* One digit product a step, as lanes52_fma.c's LF_STEP, into the sums
 * LO and HI with the temporaries of set S ("0" or "1"); the rounding in
 * the instruction, so y from a register. */
#define LF_STEP(OFF, X, Y, S, LO, HI)                                        \
	"vmovapd " OFF "(" X "), %[t" S "]\n\t"                              \
	"vmovapd " OFF "(" Y "), %[y" S "]\n\t"                              \
	"vmovapd %[c1], %[p" S "]\n\t"                                       \
	"vfmadd231pd %{rd-sae%}, %[y" S "], %[t" S "], %[p" S "]\n\t"        \
	"vsubpd %[c2], %[p" S "], %[l" S "]\n\t"                             \
	"vfmsub231pd %{rd-sae%}, %[y" S "], %[t" S "], %[l" S "]\n\t"        \
	"vpaddq %[p" S "], %[" HI "], %[" HI "]\n\t"                         \
	"vpaddq %[l" S "], %[" LO "], %[" LO "]\n\t"
#define LF_TEMPS                                                             \
	[t0] "=&v"(t0), [t1] "=&v"(t1), [p0] "=&v"(p0), [p1] "=&v"(p1),      \
		[l0] "=&v"(l0), [l1] "=&v"(l1), [y0] "=&v"(y0), [y1] "=&v"(y1)

/* x_i y_i for i = 0 .. n-1 (y reversed), n >= 1: the steps alternate
 * between two sets of sums (32 registers), added at the end. */
LF_INLINE void lf_products(struct lf_cols *a, const f8 *x, const f8 *y, const long n,
			   const struct lf_consts *k)
{
	if (n & 1) {
		lf_madd_line(k, a, x, y);
		x += 1;
		y += 1;
	}
	if (n < 2)
		return;
	f8 t0, t1, p0, p1, l0, l1, y0, y1;
	i8 lo2 = _mm512_setzero_si512(), hi2 = _mm512_setzero_si512();
	/* i: bytes from the end, rising to 0 */
	long i = -64 * (n & ~1L);
	x += n & ~1L;
	y += n & ~1L;
	__asm__("1:\n\t" LF_STEP("0", "%[x],%[i]", "%[y],%[i]", "0", "lo", "hi")
		LF_STEP("64", "%[x],%[i]", "%[y],%[i]", "1", "lo2", "hi2")
		"add $128, %[i]\n\t"
		"jnz 1b"
		: [lo] "+v"(a->lo), [hi] "+v"(a->hi), [lo2] "+v"(lo2), [hi2] "+v"(hi2),
		  [i] "+r"(i), LF_TEMPS
		: [x] "r"(x), [y] "r"(y), [c1] "v"(k->c1), [c2] "v"(k->c2)
		: "memory", "cc");
	a->lo = _mm512_add_epi64(a->lo, lo2);
	a->hi = _mm512_add_epi64(a->hi, hi2);
}

/* The same with x_i y_i and u_i v_i a step, n >= 1. */
LF_INLINE void lf_products2(struct lf_cols *a, const f8 *x, const f8 *y, const f8 *u,
			    const f8 *v, const long n, const struct lf_consts *k)
{
	f8 t0, t1, p0, p1, l0, l1, y0, y1;
	i8 lo2 = _mm512_setzero_si512(), hi2 = _mm512_setzero_si512();
	long i = -64 * n;
	x += n;
	y += n;
	u += n;
	v += n;
	__asm__("1:\n\t" LF_STEP("0", "%[x],%[i]", "%[y],%[i]", "0", "lo", "hi")
		LF_STEP("0", "%[u],%[i]", "%[v],%[i]", "1", "lo2", "hi2")
		"add $64, %[i]\n\t"
		"jnz 1b"
		: [lo] "+v"(a->lo), [hi] "+v"(a->hi), [lo2] "+v"(lo2), [hi2] "+v"(hi2),
		  [i] "+r"(i), LF_TEMPS
		: [x] "r"(x), [y] "r"(y), [u] "r"(u), [v] "r"(v), [c1] "v"(k->c1),
		  [c2] "v"(k->c2)
		: "memory", "cc");
	a->lo = _mm512_add_epi64(a->lo, lo2);
	a->hi = _mm512_add_epi64(a->hi, hi2);
}

/* Column c closes: lanes52_fma.c's lf_close_column, one stream. */
LF_INLINE void lf_close_column(uint64_t *r, struct lf_cols *a, f8 *qd, const f8 *m0,
			       const f8 *k0d, const int c, const int k, const int n_lo,
			       const int n_hi_in, const struct lf_consts *cs)
{
	const uint64_t bias = (uint64_t)n_lo * LF_LO_BIAS + (uint64_t)n_hi_in * LF_HI_BIAS;
	if (c < k) {
		const i8 up = _mm512_set1_epi64((long long)(BIG_LANES52_DIGIT_MASK - bias));
		const f8 q = lf_q_digit(cs, a->lo, k0d[0], k0d[1]);
		qd[c] = q;
		const i8 top = _mm512_srli_epi64(_mm512_add_epi64(a->lo, up), 52);
		const f8 p = _mm512_fmadd_round_pd(q, *m0, cs->c1, LF_RD);
		a->lo = _mm512_add_epi64(_mm512_add_epi64(a->hi, top), _mm512_castpd_si512(p));
	} else {
		const i8 x = _mm512_sub_epi64(a->lo, _mm512_set1_epi64((long long)bias));
		_mm512_storeu_si512((void *)LF_AT(r, c - k), x);
		a->lo = _mm512_add_epi64(a->hi, _mm512_srli_epi64(x, 52));
	}
	a->hi = _mm512_setzero_si512();
}

/* The column's sums t into *a, which holds the carry in. */
LF_INLINE void lf_carry_in(struct lf_cols *a, const struct lf_cols *t)
{
	a->lo = _mm512_add_epi64(a->lo, t->lo);
	a->hi = t->hi;
}

/* out = entry want_l of the table in each lane l, eight digits at a time:
 * every entry's digits loaded whole and merged in by vpblendmq from
 * memory under the compare of want with the public entry number
 * (ct_blend.h: not a load under that mask, which may leave the lanes
 * not taken unread). */
LF_INLINE void lf_select(uint64_t *out, const uint64_t *table, const int entries,
			 const uint64_t *want, const int k)
{
	const size_t words = BIG_LANES_WORDS(k);
	const i8 w = _mm512_loadu_si512((const void *)want);
	for (int j0 = 0; j0 < k; j0 += 8) {
		const int n = k - j0 < 8 ? k - j0 : 8;
		i8 acc[8];
		for (int j = 0; j < 8; j++)
			acc[j] = _mm512_setzero_si512();
		for (int e = 0; e < entries; e++) {
			const __mmask8 take = _mm512_cmpeq_epi64_mask(w, _mm512_set1_epi64(e));
			const uint64_t *x = table + (size_t)e * words;
#pragma GCC unroll 8
			for (int j = 0; j < 8; j++)
				if (j < n)
					acc[j] = big_ct_blend_load512(take, acc[j], LF_AT(x, j0 + j));
		}
#pragma GCC unroll 8
		for (int j = 0; j < 8; j++)
			if (j < n)
				_mm512_storeu_si512((void *)LF_AT(out, j0 + j), acc[j]);
	}
}

/* out = r - m where r >= m, else r, lane by lane (r < 2m), by the borrow
 * of the whole subtraction; out exact, r's words masked to their digits.
 * out must not overlap r. */
LF_INLINE void lf_final_sub(uint64_t *out, const uint64_t *r, const uint64_t *m, const int k)
{
	const i8 mask = _mm512_set1_epi64((long long)BIG_LANES52_DIGIT_MASK);
	i8 borrow = _mm512_setzero_si512();
	for (int j = 0; j < k; j++) {
		const i8 rj = _mm512_and_si512(_mm512_loadu_si512((const void *)LF_AT(r, j)), mask);
		const i8 x = _mm512_sub_epi64(
			_mm512_sub_epi64(rj, _mm512_loadu_si512((const void *)LF_AT(m, j))), borrow);
		_mm512_storeu_si512((void *)LF_AT(out, j), _mm512_and_si512(x, mask));
		borrow = _mm512_srli_epi64(x, 63);
	}
	/* A borrow out (r < m): keep r.  The blend in a register, every word
	 * stored: GCC would fold it into a store under keep_r, whose time can
	 * follow the mask (docs/security.md). */
	const __mmask8 keep_r = _mm512_test_epi64_mask(borrow, borrow);
	for (int j = 0; j < k; j++) {
		const i8 rj = _mm512_and_si512(_mm512_loadu_si512((const void *)LF_AT(r, j)), mask);
		const i8 d = _mm512_loadu_si512((const void *)LF_AT(out, j));
		i8 x = _mm512_mask_blend_epi64(keep_r, d, rj);
		__asm__("" : "+v"(x));
		_mm512_storeu_si512((void *)LF_AT(out, j), x);
	}
}

#define LF_LINE 1
typedef f8 lf_vec;
#include "lanes52_fma_impl.h"

void big_lanes52_mul_fma512(uint64_t *r, const uint64_t *a, const uint64_t *b,
			    const struct big_lanes52_mod *mod)
{
	struct lf_mod fm;
	lf_mod_doubles(&fm, mod);
	lf_mul_words(r, a, b, &fm);
}

void big_lanes52_sqr_fma512(uint64_t *r, const uint64_t *a, const struct big_lanes52_mod *mod)
{
	struct lf_mod fm;
	lf_mod_doubles(&fm, mod);
	lf_sqr_words(r, a, &fm);
}

void big_lanes52_pow_fma512(uint64_t *out, const uint64_t *base, const uint64_t *e, int ewords,
			    const struct big_lanes52_mod *mod, uint64_t *scratch)
{
	struct lf_mod fm;
	lf_mod_doubles(&fm, mod);
	lf_pow(out, base, e, ewords, mod, &fm, scratch);
}

void big_lanes52_pow_public_fma512(uint64_t *out, const uint64_t *base, const uint64_t *e,
				   int ewords, const struct big_lanes52_mod *mod,
				   uint64_t *scratch)
{
	struct lf_mod fm;
	lf_mod_doubles(&fm, mod);
	lf_pow_public(out, base, e, ewords, mod, &fm, scratch);
}

#endif
