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
 * an exponent bit (the table scan reads every entry under the lanes'
 * compare masks).  Frames and registers are left dirty for the caller's
 * wipe (lanes52.h).
 */
#if defined(__x86_64__) && BIGMONT_HAVE_ASM

#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx512f")
#endif
#include <immintrin.h>

#include "lanes52.h"

typedef __m512d f8;
typedef __m512i i8;

#define LZ_INLINE static inline __attribute__((always_inline))
#define LZ_KERNEL static __attribute__((noinline))
#define RD (_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)

#define LZ_LO_BIAS UINT64_C(0x4330000000000000)
#define LZ_HI_BIAS UINT64_C(0x4670000000000000)

struct lz_consts {
	f8 c1, c2, two52;
	i8 mask, exp52;
};

LZ_INLINE struct lz_consts lz_consts(void)
{
	const struct lz_consts c = {
		_mm512_set1_pd(0x1p104), _mm512_set1_pd(0x1p104 + 0x1p52), _mm512_set1_pd(0x1p52),
		_mm512_set1_epi64((long long)BIG_LANES52_DIGIT_MASK),
		_mm512_set1_epi64((long long)LZ_LO_BIAS),
	};
	return c;
}

LZ_INLINE f8 lz_digit(const struct lz_consts *k, i8 w)
{
	const i8 x = _mm512_or_si512(_mm512_and_si512(w, k->mask), k->exp52);
	return _mm512_sub_pd(_mm512_castsi512_pd(x), k->two52);
}

LZ_INLINE void lz_madd(const struct lz_consts *k, i8 *lo, i8 *hi, f8 x, f8 y)
{
	const f8 p = _mm512_fmadd_round_pd(x, y, k->c1, RD);
	const f8 l = _mm512_fmsub_round_pd(x, y, _mm512_sub_pd(p, k->c2), RD);
	*lo = _mm512_add_epi64(*lo, _mm512_castpd_si512(l));
	*hi = _mm512_add_epi64(*hi, _mm512_castpd_si512(p));
}

LZ_INLINE f8 lz_mullo(const struct lz_consts *k, f8 x, f8 y)
{
	const f8 p = _mm512_fmadd_round_pd(x, y, k->c1, RD);
	return _mm512_sub_pd(_mm512_fmadd_round_pd(x, y, _mm512_sub_pd(k->c2, p), RD), k->two52);
}

#define LZ_AT(p, j) ((p) + (size_t)BIG_LANES * (size_t)(j))

LZ_INLINE void lz_to_doubles(f8 *d, const uint64_t *x, const int k, const struct lz_consts *c)
{
	for (int j = 0; j < k; j++)
		d[j] = lz_digit(c, _mm512_loadu_si512((const void *)LZ_AT(x, j)));
}

LZ_INLINE void lz_to_doubles_reversed(f8 *d, const uint64_t *x, const int k,
				      const struct lz_consts *c)
{
	for (int j = 0; j < k; j++)
		d[k - 1 - j] = lz_digit(c, _mm512_loadu_si512((const void *)LZ_AT(x, j)));
}

struct lz_cols {
	i8 lo, hi;
};

#define LZ_STEP(OFF, X, Y)                                                   \
	"vmovapd " OFF "(" X "), %[t0]\n\t"                                  \
	"vmovapd " OFF "(" Y "), %[y0]\n\t"                                  \
	"vmovapd %[c1], %[p0]\n\t"                                           \
	"vfmadd231pd %{rd-sae%}, %[y0], %[t0], %[p0]\n\t"                    \
	"vsubpd %[c2], %[p0], %[l0]\n\t"                                     \
	"vfmsub231pd %{rd-sae%}, %[y0], %[t0], %[l0]\n\t"                    \
	"vpaddq %[p0], %[hi], %[hi]\n\t"                                     \
	"vpaddq %[l0], %[lo], %[lo]\n\t"
#define LZ_STEP2(OFF, X, Y)                                                  \
	"vmovapd " OFF "(" X "), %[t1]\n\t"                                  \
	"vmovapd " OFF "(" Y "), %[y1]\n\t"                                  \
	"vmovapd %[c1], %[p1]\n\t"                                           \
	"vfmadd231pd %{rd-sae%}, %[y1], %[t1], %[p1]\n\t"                    \
	"vsubpd %[c2], %[p1], %[l1]\n\t"                                     \
	"vfmsub231pd %{rd-sae%}, %[y1], %[t1], %[l1]\n\t"                    \
	"vpaddq %[p1], %[hi2], %[hi2]\n\t"                                   \
	"vpaddq %[l1], %[lo2], %[lo2]\n\t"
#define LZ_TEMPS                                                             \
	[t0] "=&v"(t0), [t1] "=&v"(t1), [p0] "=&v"(p0), [p1] "=&v"(p1),      \
		[l0] "=&v"(l0), [l1] "=&v"(l1), [y0] "=&v"(y0), [y1] "=&v"(y1)

/* x_i y_i for i = 0 .. n-1 (y reversed), n >= 1: two sum sets a step. */
LZ_INLINE void lz_products(struct lz_cols *a, const f8 *x, const f8 *y, const long n,
			   const struct lz_consts *k)
{
	if (n & 1) {
		lz_madd(k, &a->lo, &a->hi, x[0], y[0]);
		x += 1;
		y += 1;
	}
	if (n < 2)
		return;
	f8 t0, t1, p0, p1, l0, l1, y0, y1;
	i8 lo2 = _mm512_setzero_si512(), hi2 = _mm512_setzero_si512();
	long i = -64 * (n & ~1L);
	x += n & ~1L;
	y += n & ~1L;
	__asm__("1:\n\t" LZ_STEP("0", "%[x],%[i]", "%[y],%[i]")
		LZ_STEP2("64", "%[x],%[i]", "%[y],%[i]")
		"add $128, %[i]\n\t"
		"jnz 1b"
		: [lo] "+v"(a->lo), [hi] "+v"(a->hi), [lo2] "+v"(lo2), [hi2] "+v"(hi2),
		  [i] "+r"(i), LZ_TEMPS
		: [x] "r"(x), [y] "r"(y), [c1] "v"(k->c1), [c2] "v"(k->c2)
		: "memory", "cc");
	a->lo = _mm512_add_epi64(a->lo, lo2);
	a->hi = _mm512_add_epi64(a->hi, hi2);
}

/* x_i y_i and u_i v_i a step, n >= 1. */
LZ_INLINE void lz_products2(struct lz_cols *a, const f8 *x, const f8 *y, const f8 *u,
			    const f8 *v, const long n, const struct lz_consts *k)
{
	f8 t0, t1, p0, p1, l0, l1, y0, y1;
	i8 lo2 = _mm512_setzero_si512(), hi2 = _mm512_setzero_si512();
	long i = -64 * n;
	x += n;
	y += n;
	u += n;
	v += n;
	__asm__("1:\n\t" LZ_STEP("0", "%[x],%[i]", "%[y],%[i]")
		LZ_STEP2("0", "%[u],%[i]", "%[v],%[i]")
		"add $64, %[i]\n\t"
		"jnz 1b"
		: [lo] "+v"(a->lo), [hi] "+v"(a->hi), [lo2] "+v"(lo2), [hi2] "+v"(hi2),
		  [i] "+r"(i), LZ_TEMPS
		: [x] "r"(x), [y] "r"(y), [u] "r"(u), [v] "r"(v), [c1] "v"(k->c1),
		  [c2] "v"(k->c2)
		: "memory", "cc");
	a->lo = _mm512_add_epi64(a->lo, lo2);
	a->hi = _mm512_add_epi64(a->hi, hi2);
}

LZ_INLINE void lz_column(struct lz_cols *a, const f8 *x, const f8 *yr, const int c,
			 const int lo, const int hi, const int k, const struct lz_consts *cs)
{
	if (hi >= lo)
		lz_products(a, x + lo, yr + (k - 1 - c + lo), hi - lo + 1, cs);
}

LZ_INLINE void lz_close_column(uint64_t *r, struct lz_cols *a, f8 *qd, const f8 *m0,
			       const f8 *k0d, const int c, const int k, const int n_lo,
			       const int n_hi_in, const struct lz_consts *cs)
{
	const uint64_t bias = (uint64_t)n_lo * LZ_LO_BIAS + (uint64_t)n_hi_in * LZ_HI_BIAS;
	if (c < k) {
		const i8 up = _mm512_set1_epi64((long long)(BIG_LANES52_DIGIT_MASK - bias));
		const f8 q = lz_mullo(cs, lz_digit(cs, a->lo), *k0d);
		qd[c] = q;
		const i8 top = _mm512_srli_epi64(_mm512_add_epi64(a->lo, up), 52);
		const f8 p = _mm512_fmadd_round_pd(q, *m0, cs->c1, RD);
		a->lo = _mm512_add_epi64(_mm512_add_epi64(a->hi, top), _mm512_castpd_si512(p));
	} else {
		const i8 b = _mm512_set1_epi64((long long)bias);
		const i8 x = _mm512_sub_epi64(a->lo, b);
		_mm512_storeu_si512((void *)LZ_AT(r, c - k), x);
		a->lo = _mm512_add_epi64(a->hi, _mm512_srli_epi64(x, 52));
	}
	a->hi = _mm512_setzero_si512();
}

LZ_INLINE void lz_carry_in(struct lz_cols *a, const struct lz_cols *t)
{
	a->lo = _mm512_add_epi64(a->lo, t->lo);
	a->hi = t->hi;
}

LZ_INLINE int lz_mul_column(struct lz_cols *t, const f8 *ad, const f8 *br, const f8 *qd,
			    const f8 *mr, const int c, const int lo, const int qhi, const int k,
			    const struct lz_consts *cs)
{
	const i8 z = _mm512_setzero_si512();
	*t = (struct lz_cols){ z, z };
	int n = 0;
	if (qhi >= lo) {
		n = 2 * (qhi - lo + 1);
		lz_products2(t, ad + lo, br + (k - 1 - c + lo), qd + lo, mr + (k - 1 - c + lo),
			     qhi - lo + 1, cs);
	}
	if (c < k) {
		n++;
		lz_madd(cs, &t->lo, &t->hi, ad[c], br[k - 1]);
	}
	return n;
}

LZ_KERNEL void lz_mul(uint64_t *r, const f8 *ad, const f8 *br, const f8 *mr, const f8 *k0d,
		      const int k)
{
	const struct lz_consts cs = lz_consts();
	f8 qd[BIG_LANES52_MAX_DIGITS];
	const i8 z = _mm512_setzero_si512();
	const f8 *m0 = mr + (k - 1);
	struct lz_cols a = { z, z };
	int n_hi_in = 0;
	for (int c = 0; c < k; c++) {
		struct lz_cols t;
		const int n = lz_mul_column(&t, ad, br, qd, mr, c, 0, c - 1, k, &cs);
		lz_carry_in(&a, &t);
		lz_close_column(r, &a, qd, m0, k0d, c, k, n, n_hi_in, &cs);
		n_hi_in = n + 1;
	}
	for (int c = k; c < 2 * k; c++) {
		struct lz_cols t;
		const int n = lz_mul_column(&t, ad, br, qd, mr, c, c - k + 1, k - 1, k, &cs);
		lz_carry_in(&a, &t);
		lz_close_column(r, &a, qd, m0, k0d, c, k, n, n_hi_in, &cs);
		n_hi_in = n;
	}
}

LZ_INLINE int lz_sqr_column(struct lz_cols *t, const f8 *ad, const f8 *ar, const f8 *qd,
			    const f8 *mr, const int c, const int lo, const int xhi, const int qhi,
			    const int k, const struct lz_consts *cs)
{
	const i8 z = _mm512_setzero_si512();
	struct lz_cols x = { z, z };
	lz_column(&x, ad, ar, c, lo, xhi, k, cs);
	int n = xhi >= lo ? 2 * (xhi - lo + 1) : 0;
	t->lo = _mm512_slli_epi64(x.lo, 1);
	t->hi = _mm512_slli_epi64(x.hi, 1);
	if (c % 2 == 0 && c / 2 < k) {
		lz_madd(cs, &t->lo, &t->hi, ad[c / 2], ad[c / 2]);
		n++;
	}
	if (qhi >= lo) {
		lz_column(t, qd, mr, c, lo, qhi, k, cs);
		n += qhi - lo + 1;
	}
	return n;
}

LZ_KERNEL void lz_sqr(uint64_t *r, const f8 *ad, const f8 *ar, const f8 *mr, const f8 *k0d,
		      const int k)
{
	const struct lz_consts cs = lz_consts();
	f8 qd[BIG_LANES52_MAX_DIGITS];
	const i8 z = _mm512_setzero_si512();
	const f8 *m0 = mr + (k - 1);
	struct lz_cols a = { z, z };
	int n_hi_in = 0;
	for (int c = 0; c < k; c++) {
		struct lz_cols t;
		const int n = lz_sqr_column(&t, ad, ar, qd, mr, c, 0, (c - 1) >> 1, c - 1, k, &cs);
		lz_carry_in(&a, &t);
		lz_close_column(r, &a, qd, m0, k0d, c, k, n, n_hi_in, &cs);
		n_hi_in = n + 1;
	}
	for (int c = k; c < 2 * k; c++) {
		struct lz_cols t;
		const int n = lz_sqr_column(&t, ad, ar, qd, mr, c, c - k + 1, (c - 1) >> 1, k - 1,
					    k, &cs);
		lz_carry_in(&a, &t);
		lz_close_column(r, &a, qd, m0, k0d, c, k, n, n_hi_in, &cs);
		n_hi_in = n;
	}
}

LZ_INLINE void lz_mod_doubles(f8 *md, f8 *k0d, const struct big_lanes52_mod *mod,
			      const struct lz_consts *cs)
{
	lz_to_doubles_reversed(md, mod->m, mod->digits, cs);
	*k0d = lz_digit(cs, _mm512_loadu_si512((const void *)mod->k0));
}

LZ_KERNEL void lz_mul_words(uint64_t *r, const uint64_t *a, const uint64_t *b, const f8 *md,
			    const f8 *k0d, const int k)
{
	const struct lz_consts cs = lz_consts();
	f8 ad[BIG_LANES52_MAX_DIGITS], bd[BIG_LANES52_MAX_DIGITS];
	lz_to_doubles(ad, a, k, &cs);
	lz_to_doubles_reversed(bd, b, k, &cs);
	lz_mul(r, ad, bd, md, k0d, k);
}

LZ_KERNEL void lz_sqr_words(uint64_t *r, const uint64_t *a, const f8 *md, const f8 *k0d,
			    const int k)
{
	const struct lz_consts cs = lz_consts();
	f8 ad[BIG_LANES52_MAX_DIGITS], ar[BIG_LANES52_MAX_DIGITS];
	lz_to_doubles(ad, a, k, &cs);
	for (int j = 0; j < k; j++)
		ar[k - 1 - j] = ad[j];
	lz_sqr(r, ad, ar, md, k0d, k);
}

void big_lanes52_mul_fma512(uint64_t *r, const uint64_t *a, const uint64_t *b,
			 const struct big_lanes52_mod *mod)
{
	const struct lz_consts cs = lz_consts();
	f8 md[BIG_LANES52_MAX_DIGITS], k0d;
	lz_mod_doubles(md, &k0d, mod, &cs);
	lz_mul_words(r, a, b, md, &k0d, mod->digits);
}

void big_lanes52_sqr_fma512(uint64_t *r, const uint64_t *a, const struct big_lanes52_mod *mod)
{
	const struct lz_consts cs = lz_consts();
	f8 md[BIG_LANES52_MAX_DIGITS], k0d;
	lz_mod_doubles(md, &k0d, mod, &cs);
	lz_sqr_words(r, a, md, &k0d, mod->digits);
}

/* The table scan in zmm: each entry's digits under the lanes' masks. */
LZ_INLINE void lz_select(uint64_t *out, const uint64_t *table, const int entries,
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
					acc[j] = _mm512_mask_loadu_epi64(acc[j], take,
									 LZ_AT(x, j0 + j));
		}
#pragma GCC unroll 8
		for (int j = 0; j < 8; j++)
			if (j < n)
				_mm512_storeu_si512((void *)LZ_AT(out, j0 + j), acc[j]);
	}
}

LZ_INLINE void lz_final_sub(uint64_t *out, const uint64_t *r, const uint64_t *m, const int k)
{
	const i8 mask = _mm512_set1_epi64((long long)BIG_LANES52_DIGIT_MASK);
	i8 borrow = _mm512_setzero_si512();
	for (int j = 0; j < k; j++) {
		const i8 rj = _mm512_and_si512(_mm512_loadu_si512((const void *)LZ_AT(r, j)), mask);
		const i8 x = _mm512_sub_epi64(
			_mm512_sub_epi64(rj, _mm512_loadu_si512((const void *)LZ_AT(m, j))), borrow);
		_mm512_storeu_si512((void *)LZ_AT(out, j), _mm512_and_si512(x, mask));
		borrow = _mm512_srli_epi64(x, 63);
	}
	const __mmask8 keep_r = _mm512_test_epi64_mask(borrow, borrow);
	for (int j = 0; j < k; j++) {
		const i8 rj = _mm512_and_si512(_mm512_loadu_si512((const void *)LZ_AT(r, j)), mask);
		const i8 d = _mm512_loadu_si512((const void *)LZ_AT(out, j));
		_mm512_storeu_si512((void *)LZ_AT(out, j), _mm512_mask_blend_epi64(keep_r, d, rj));
	}
}

void big_lanes52_pow_fma512(uint64_t *out, const uint64_t *base, const uint64_t *e, int ewords,
			    const struct big_lanes52_mod *mod, uint64_t *scratch)
{
	const struct lz_consts cs = lz_consts();
	f8 md[BIG_LANES52_MAX_DIGITS], k0d;
	lz_mod_doubles(md, &k0d, mod, &cs);
	const int k = mod->digits;
	const size_t words = BIG_LANES_WORDS(k);
	uint64_t *table = big_lanes_align64(scratch);
	const int window = BIG_LANES52_WINDOW_BITS(k), entries = 1 << window;
	uint64_t *acc = table + (size_t)entries * words;
	uint64_t *sel = acc + words, *one = sel + words;
	uint64_t want[BIG_LANES] __attribute__((aligned(64)));

	for (size_t j = 0; j < words; j++)
		one[j] = j < BIG_LANES;
	lz_mul_words(table, mod->rr, one, md, &k0d, k);
	lz_mul_words(table + words, base, mod->rr, md, &k0d, k);
	for (int i = 2; i < entries; i++) {
		uint64_t *x = table + (size_t)i * words;
		if (i % 2 == 0)
			lz_sqr_words(x, table + (size_t)(i / 2) * words, md, &k0d, k);
		else
			lz_mul_words(x, x - words, table + words, md, &k0d, k);
	}
	const int nbits = 64 * ewords;
	const int top = nbits % window ? nbits % window : window;
	int pos = nbits - top;
	for (int l = 0; l < BIG_LANES; l++)
		want[l] = big_lanes_window(e + (size_t)l * ewords, ewords, pos, top);
	lz_select(acc, table, entries, want, k);
	while (pos > 0) {
		pos -= window;
		for (int l = 0; l < BIG_LANES; l++)
			want[l] = big_lanes_window(e + (size_t)l * ewords, ewords, pos, window);
		lz_select(sel, table, entries, want, k);
		for (int b = 0; b < window; b++)
			lz_sqr_words(acc, acc, md, &k0d, k);
		lz_mul_words(acc, acc, sel, md, &k0d, k);
	}
	lz_mul_words(acc, acc, one, md, &k0d, k);
	lz_final_sub(out, acc, mod->m, k);
}

/* The steps of big_lanes52_pow_public_by (lanes52.h) on these products. */
struct lz_public {
	const struct big_lanes52_mod *mod;
	const f8 *md, *k0d;
};
static void lz_public_mul(const void *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
	const struct lz_public *p = ctx;
	lz_mul_words(r, a, b, p->md, p->k0d, p->mod->digits);
}
static void lz_public_sqr(const void *ctx, uint64_t *r, const uint64_t *a)
{
	const struct lz_public *p = ctx;
	lz_sqr_words(r, a, p->md, p->k0d, p->mod->digits);
}
static void lz_public_reduce(const void *ctx, uint64_t *out, const uint64_t *r)
{
	const struct big_lanes52_mod *mod = ((const struct lz_public *)ctx)->mod;
	lz_final_sub(out, r, mod->m, mod->digits);
}
static void lz_public_keep(const void *ctx, uint64_t *acc, const uint64_t *t, unsigned take)
{
	const int k = ((const struct lz_public *)ctx)->mod->digits;
	const __mmask8 m = (__mmask8)take; /* public bits */
	for (int j = 0; j < k; j++)
		_mm512_storeu_si512((void *)LZ_AT(acc, j),
				    _mm512_mask_blend_epi64(m, _mm512_loadu_si512(LZ_AT(acc, j)),
							    _mm512_loadu_si512(LZ_AT(t, j))));
}

void big_lanes52_pow_public_fma512(uint64_t *out, const uint64_t *base, const uint64_t *e,
				   int ewords, const struct big_lanes52_mod *mod,
				   uint64_t *scratch)
{
	const struct lz_consts cs = lz_consts();
	f8 md[BIG_LANES52_MAX_DIGITS], k0d;
	lz_mod_doubles(md, &k0d, mod, &cs);
	const struct lz_public ctx = { mod, md, &k0d };
	const struct big_lanes52_public_steps steps = { &ctx, lz_public_mul, lz_public_sqr,
							lz_public_reduce, lz_public_keep };
	big_lanes52_pow_public_by(out, base, e, ewords, mod, scratch, &steps);
}

#endif
