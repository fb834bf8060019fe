/*
 * The radix-2^52 lane product, squaring and exponentiations (lanes52.h) on
 * AVX2 and FMA: IFMA's 52-bit half products made by double-precision
 * fused multiply-adds, four lanes to a ymm, the eight lanes as two
 * streams side by side (lanes 0-3 and 4-7: the two halves of each
 * 64-byte digit line).  The batch path's lanes where the CPU has AVX2 but
 * no AVX-512 (lanes_select.c).
 *
 * Prototypes (lanes52.h):
 *   void big_lanes52_mul_fma(uint64_t *r, const uint64_t *a,
 *                            const uint64_t *b,
 *                            const struct big_lanes52_mod *mod);
 *   void big_lanes52_sqr_fma(uint64_t *r, const uint64_t *a,
 *                            const struct big_lanes52_mod *mod);
 *   void big_lanes52_pow_fma(...), big_lanes52_pow_public_fma(...)
 * Preconditions: big_lanes52_cpu_has_fma() (AVX2, FMA, the YMM state, and
 * the rounding mode below taking effect); the rest as lanes52.h.  The
 * products give the IFMA build's T (lanes52.h: unique, below 2m), each
 * word the digit and the carry it passed on; the tests compare digits.
 *
 * The half products.  For digits x, y < 2^52 held exactly as doubles,
 * p = x y < 2^104, with the rounding mode toward minus infinity:
 *   P = fma(x, y, 2^104)          = 2^104 + 2^52 floor(p / 2^52)
 *                                   (in [2^104, 2^105) a double's step is
 *                                   2^52, and p + 2^104 < 2^105)
 *   L = x y - (P - 2^104 - 2^52)  = 2^52 + (p mod 2^52)
 *                                   (P's difference exact: a multiple of
 *                                   2^52 below 2^105; L exact: an integer
 *                                   in [2^52, 2^53))
 * so the 64-bit patterns are bits(P) = (0x467 << 52) + hi(p) and bits(L) =
 * (0x433 << 52) + lo(p): vpmadd52huq's and vpmadd52luq's terms, each with
 * a constant multiple of 2^52 above.  The columns add the patterns as
 * integers (vpaddq) and take those constants off once a column, by count;
 * they touch only bits 52 and up, so a column's low 52 bits (what its q
 * digit reads) are right before that.  Two FMAs, a subtraction and two
 * adds a digit product of four lanes: five operations on the vector ports
 * for 104 bits of product, where radix 2^28 (lanes_avx2.c) spends two
 * (vpmuludq, vpaddq) on 56 and needs 3.4 times as many products.  The
 * entry points set MXCSR's rounding field around the kernels (separate
 * functions, so that no floating-point operation moves across the
 * switch), every exception masked, and restore the caller's MXCSR.
 * Rounded to nearest, P would hold hi rounded, the low half would need a
 * bias of 2^51 a product (2^104 + 2^52 + 2^51 is no double) and would
 * break at ties: the mode costs nothing in the loops, where a fix-up
 * would cost an operation a product.  Valgrind ignores the mode:
 * big_lanes52_fma_rounds_down sees that and the build is not offered.
 *
 * The product (product scanning, the reduction interleaved): column c
 * sums lo(a_i b_j) and lo(q_i m_j) for i + j = c, and the hi halves of
 * column c - 1's products; below k, q_c = lo(t_c k0) from its low 52 bits,
 * and, rather than forming lo(q_c m_0) (which makes the column 0 mod
 * 2^52), its top plus 1 where those bits are not 0 is the carry, with
 * hi(q_c m_0) into the next column; from k up, the columns are T's
 * digits.  Each column's products go into sums begun at 0 (two per
 * stream: this column's lo halves, the next one's hi halves), so that
 * only one add waits for the column below and its q; the two streams'
 * sums and temporaries fill the sixteen ymm registers.  The squaring: the
 * cross products a_i a_j (i < j) once, their sums doubled, then the
 * square of a_{c/2} and the reduction's terms.  The columns below k and
 * from k in loops of their own (their bounds simpler: 4-7 % at 20
 * digits).  The inner loops are inline assembly (LF_STEP): GCC kept
 * copies of the sums and reloaded the constants.  A column is below 4k
 * 2^52 + 2^12 as lanes52.h argues for IFMA: no overflow.
 *
 * Operands are read as doubles from the function's frame (each digit's
 * low 52 bits: and, or 2^52's exponent, subtract 2^52), b, m and the
 * squaring's second copy of a in reversed digit order, so that a column's
 * two operands rise together under one index; the modulus once an
 * exponentiation.  The exponentiations are lanes52_impl.h's (fixed window,
 * a scan of every table entry; square and multiply over public bits) on
 * these products.  The column schedule, the conversions and the
 * exponentiations are written once for this build and its zmm form
 * (lanes52_fma512.c) in lanes52_fma_impl.h; this file holds the ymm
 * steps.  Constant time: no branch or address depends on a digit, a
 * modulus or an exponent bit.
 *
 * Core cycles a call, 8 lanes (`bigmont speed --kernels`, best of 100 x 16
 * dependent calls, results/<cpu>/<date>-kernels.txt), against the
 * vfmadd231pd peak (bench/peak.h: 8k^2 + 2k and 6k^2 + 4k ymm FMAs):
 *   k:                                    10     20     30     40
 *   Intel 6/167, 2026-12-02-1128 mul    1070   3631   7775  13433
 *                                sqr     959   2916   6111  10428
 * 33-47 % of the FMA peak, where the half products' own mix allows 58 %
 * (their subtraction and adds take the FMAs' ports: three vector ports
 * for five operations).  Against the radix-2^28 AVX2 kernels of the same
 * run (37 digits for 20): 0.79-0.82 of their time for the product,
 * 0.83-0.96 for the squaring.
 */
#if defined(__x86_64__) && BIGMONT_HAVE_ASM

#ifndef __clang__ /* clang takes the targets as flags (bignum/CMakeLists.txt) */
#pragma GCC target("avx2,fma")
#endif
#include <immintrin.h>

#include "lanes52.h"

typedef __m256d f4;
typedef __m256i i4;

#define LF_INLINE static inline __attribute__((always_inline))
/* A kernel: never inlined into the entry points that switch the rounding
 * mode around it. */
#define LF_KERNEL static __attribute__((noinline))

/* The patterns' constants: bits(2^52) and bits(2^104), multiples of 2^52. */
#define LF_LO_BIAS UINT64_C(0x4330000000000000)
#define LF_HI_BIAS UINT64_C(0x4670000000000000)

struct lf_consts {
	f4 c1;  /* 2^104 */
	f4 c2;  /* 2^104 + 2^52 */
	f4 two52;
	i4 mask; /* 2^52 - 1 */
	i4 exp52; /* bits(2^52) */
};

LF_INLINE struct lf_consts lf_consts(void)
{
	const struct lf_consts c = {
		_mm256_set1_pd(0x1p104), _mm256_set1_pd(0x1p104 + 0x1p52),
		_mm256_set1_pd(0x1p52),
		_mm256_set1_epi64x((long long)BIG_LANES52_DIGIT_MASK),
		_mm256_set1_epi64x((long long)LF_LO_BIAS),
	};
	return c;
}

/* The low 52 bits of each lane of w, as an exact double. */
LF_INLINE f4 lf_digit(const struct lf_consts *k, i4 w)
{
	const i4 x = _mm256_or_si256(_mm256_and_si256(w, k->mask), k->exp52);
	return _mm256_sub_pd(_mm256_castsi256_pd(x), k->two52);
}

/* lo(x y)'s pattern into *lo, hi(x y)'s into *hi. */
LF_INLINE void lf_madd(const struct lf_consts *k, i4 *lo, i4 *hi, f4 x, f4 y)
{
	const f4 p = _mm256_fmadd_pd(x, y, k->c1);
	const f4 l = _mm256_fmsub_pd(x, y, _mm256_sub_pd(p, k->c2));
	*lo = _mm256_add_epi64(*lo, _mm256_castpd_si256(l));
	*hi = _mm256_add_epi64(*hi, _mm256_castpd_si256(p));
}

/* lo(t k0) as a double, exact (below 2^52), t the low 52 bits of each
 * lane of w, c1k = 2^104 - 2^52 k0 (struct lf_mod): with D = 2^52 + t (w's
 * bits under 2^52's exponent, no subtraction), D k0 + c1k = t k0 + 2^104,
 * so P = fma(D, k0, c1k) is lf_madd's hi pattern of t k0, and D k0 +
 * (c1k - P) = t k0 - 2^52 hi(t k0), exact (c1k - P = -2^52 (k0 + hi) is
 * a double).  Two FMAs and a subtraction on the q digit's chain. */
LF_INLINE f4 lf_q_digit(const struct lf_consts *k, i4 w, f4 k0, f4 c1k)
{
	const f4 d = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(w, k->mask), k->exp52));
	const f4 p = _mm256_fmadd_pd(d, k0, c1k);
	return _mm256_fmadd_pd(d, k0, _mm256_sub_pd(c1k, p));
}

/* Digit j of stream s in a lane number of the eight-lane layout. */
#define LF_AT(p, j, s) ((p) + (size_t)BIG_LANES * (size_t)(j) + 4 * (size_t)(s))
/* ... and in a frame of doubles, a digit line of two f4. */
#define LF_D(p, j, s) ((p)[2 * (j) + (s)])

/* Digit j of lane number x into digit line d (both streams). */
LF_INLINE void lf_load_line(f4 *d, const uint64_t *x, const int j, const struct lf_consts *c)
{
	for (int s = 0; s < 2; s++)
		d[s] = lf_digit(c, _mm256_loadu_si256((const __m256i *)LF_AT(x, j, s)));
}

/* The two streams' sums: this column's lo halves and the next column's
 * hi halves. */
struct lf_cols {
	i4 lo0, hi0, lo1, hi1;
};

LF_INLINE struct lf_cols lf_cols_zero(void)
{
	const i4 z = _mm256_setzero_si256();
	return (struct lf_cols){ z, z, z, z };
}

LF_INLINE struct lf_cols lf_cols_twice(struct lf_cols x)
{
	return (struct lf_cols){ _mm256_slli_epi64(x.lo0, 1), _mm256_slli_epi64(x.hi0, 1),
				 _mm256_slli_epi64(x.lo1, 1), _mm256_slli_epi64(x.hi1, 1) };
}

/* lo and hi of digit line x times digit line y, both streams. */
LF_INLINE void lf_madd_line(const struct lf_consts *k, struct lf_cols *a, const f4 *x,
			    const f4 *y)
{
	lf_madd(k, &a->lo0, &a->hi0, x[0], y[0]);
	lf_madd(k, &a->lo1, &a->hi1, x[1], y[1]);
}

/*
 * One digit product of each stream (x_i y_j, both lines of two f4) a
 * step: two FMAs, a subtraction and two adds a product, no more (what
 * GCC made of the same intrinsics kept copies of the sums and reloaded
 * the constants).  y is loaded into a register for its two FMAs: as a
 * memory operand of each it cost 5-8 % of the product (Intel family 6
 * model 167).  The lines at OFF(X) and OFF(Y), X and Y address registers
 * (base,index).
 */
#define LF_STEP(OFF, X, Y)                                                   \
	"vmovapd " OFF "(" X "), %[t0]\n\t"                                  \
	"vmovapd " OFF "+32(" X "), %[t1]\n\t"                               \
	"vmovapd " OFF "(" Y "), %[y0]\n\t"                                  \
	"vmovapd " OFF "+32(" Y "), %[y1]\n\t"                               \
	"vmovapd %[c1], %[p0]\n\t"                                           \
	"vmovapd %[c1], %[p1]\n\t"                                           \
	"vfmadd231pd %[y0], %[t0], %[p0]\n\t"                                \
	"vfmadd231pd %[y1], %[t1], %[p1]\n\t"                                \
	"vsubpd %[c2], %[p0], %[l0]\n\t"                                     \
	"vsubpd %[c2], %[p1], %[l1]\n\t"                                     \
	"vfmsub231pd %[y0], %[t0], %[l0]\n\t"                                \
	"vfmsub231pd %[y1], %[t1], %[l1]\n\t"                                \
	"vpaddq %[p0], %[hi0], %[hi0]\n\t"                                   \
	"vpaddq %[p1], %[hi1], %[hi1]\n\t"                                   \
	"vpaddq %[l0], %[lo0], %[lo0]\n\t"                                   \
	"vpaddq %[l1], %[lo1], %[lo1]\n\t"
#define LF_OUTS(a)                                                           \
	[lo0] "+x"((a)->lo0), [hi0] "+x"((a)->hi0), [lo1] "+x"((a)->lo1),    \
		[hi1] "+x"((a)->hi1)
#define LF_TEMPS                                                             \
	[t0] "=&x"(t0), [t1] "=&x"(t1), [p0] "=&x"(p0), [p1] "=&x"(p1),      \
		[l0] "=&x"(l0), [l1] "=&x"(l1), [y0] "=&x"(y0), [y1] "=&x"(y1)

/* x_i y_i for i = 0 .. n-1, x and y rising together (y a reversed copy),
 * n >= 1. */
LF_INLINE void lf_products(struct lf_cols *a, const f4 *x, const f4 *y, const long n,
			   const struct lf_consts *k)
{
	if (n & 1) {
		lf_madd_line(k, a, x, y);
		x += 2;
		y += 2;
	}
	if (n < 2)
		return;
	f4 t0, t1, p0, p1, l0, l1, y0, y1;
	/* i: bytes from the end, rising to 0 */
	long i = -64 * (n & ~1L);
	x += 2 * (n & ~1L);
	y += 2 * (n & ~1L);
	__asm__("1:\n\t" LF_STEP("0", "%[x],%[i]", "%[y],%[i]")
		LF_STEP("64", "%[x],%[i]", "%[y],%[i]")
		"add $128, %[i]\n\t"
		"jnz 1b"
		: LF_OUTS(a), [i] "+r"(i), LF_TEMPS
		: [x] "r"(x), [y] "r"(y), [c1] "x"(k->c1), [c2] "x"(k->c2)
		: "memory", "cc");
}

/* The same with x_i y_i and u_i v_i a step, n >= 1. */
LF_INLINE void lf_products2(struct lf_cols *a, const f4 *x, const f4 *y, const f4 *u,
			    const f4 *v, const long n, const struct lf_consts *k)
{
	f4 t0, t1, p0, p1, l0, l1, y0, y1;
	long i = -64 * n;
	x += 2 * n;
	y += 2 * n;
	u += 2 * n;
	v += 2 * n;
	__asm__("1:\n\t" LF_STEP("0", "%[x],%[i]", "%[y],%[i]")
		LF_STEP("0", "%[u],%[i]", "%[v],%[i]")
		"add $64, %[i]\n\t"
		"jnz 1b"
		: LF_OUTS(a), [i] "+r"(i), LF_TEMPS
		: [x] "r"(x), [y] "r"(y), [u] "r"(u), [v] "r"(v), [c1] "x"(k->c1),
		  [c2] "x"(k->c2)
		: "memory", "cc");
}

/*
 * Column c closes.  Its sum is *a's lo: its carry in (the column below's
 * top and its hi halves: n_hi_in patterns) and the lo halves of every
 * term but the reduction's by q_c (n_lo patterns); *a's hi holds the
 * next column's hi halves so far.  Below k: q_c = lo(t_c k0) and, rather
 * than lo(q_c m_0), which would make the column 0 mod 2^52, the top that
 * sum carries: (t_c + 2^52 - 1) >> 52; with hi(q_c m_0) into the next
 * column.  From k up: the column is digit c - k of r.  Leaves the next
 * column's carry in in *a's lo and 0 in its hi.
 */
LF_INLINE void lf_close_column(uint64_t *r, struct lf_cols *a, f4 *qd, const f4 *m0,
			       const f4 *k0d, const int c, const int k, const int n_lo,
			       const int n_hi_in, const struct lf_consts *cs)
{
	const uint64_t bias = (uint64_t)n_lo * LF_LO_BIAS + (uint64_t)n_hi_in * LF_HI_BIAS;
	const i4 z = _mm256_setzero_si256();
	if (c < k) {
		const i4 up = _mm256_set1_epi64x((long long)(BIG_LANES52_DIGIT_MASK - bias));
		const f4 q0 = lf_q_digit(cs, a->lo0, k0d[0], k0d[2]);
		const f4 q1 = lf_q_digit(cs, a->lo1, k0d[1], k0d[3]);
		LF_D(qd, c, 0) = q0;
		LF_D(qd, c, 1) = q1;
		const i4 top0 = _mm256_srli_epi64(_mm256_add_epi64(a->lo0, up), 52);
		const i4 top1 = _mm256_srli_epi64(_mm256_add_epi64(a->lo1, up), 52);
		const f4 p0 = _mm256_fmadd_pd(q0, m0[0], cs->c1);
		const f4 p1 = _mm256_fmadd_pd(q1, m0[1], cs->c1);
		a->lo0 = _mm256_add_epi64(_mm256_add_epi64(a->hi0, top0), _mm256_castpd_si256(p0));
		a->lo1 = _mm256_add_epi64(_mm256_add_epi64(a->hi1, top1), _mm256_castpd_si256(p1));
	} else {
		const i4 b = _mm256_set1_epi64x((long long)bias);
		const i4 x0 = _mm256_sub_epi64(a->lo0, b), x1 = _mm256_sub_epi64(a->lo1, b);
		_mm256_storeu_si256((__m256i *)LF_AT(r, c - k, 0), x0);
		_mm256_storeu_si256((__m256i *)LF_AT(r, c - k, 1), x1);
		a->lo0 = _mm256_add_epi64(a->hi0, _mm256_srli_epi64(x0, 52));
		a->lo1 = _mm256_add_epi64(a->hi1, _mm256_srli_epi64(x1, 52));
	}
	a->hi0 = a->hi1 = z;
}

/* The column's sums t into *a, which holds the carry in: the sums are
 * made from 0, so that only this add waits for the column below. */
LF_INLINE void lf_carry_in(struct lf_cols *a, const struct lf_cols *t)
{
	a->lo0 = _mm256_add_epi64(a->lo0, t->lo0);
	a->lo1 = _mm256_add_epi64(a->lo1, t->lo1);
	a->hi0 = t->hi0;
	a->hi1 = t->hi1;
}

/* The rounding mode toward minus infinity (MXCSR.RC = 01) for the
 * kernels, every exception masked (a caller that unmasked the inexact one
 * would trap at the first product); returns the caller's MXCSR, which
 * restores its mode, masks and flags. */
LF_INLINE unsigned lf_round_down(void)
{
	const unsigned csr = _mm_getcsr();
	_mm_setcsr(((csr | 0x1f80u) & ~0x6000u) | 0x2000u);
	return csr;
}

/* Whether the rounding mode takes: 3 (2^51 + 1) = 1.5 2^52 + 3, whose hi
 * half rounds to 2 to nearest and is 1 toward minus infinity.  Not where
 * the instructions are emulated without the mode (Valgrind's): the FMA
 * build is then not taken (big_lanes52_cpu_has_fma). */
LF_KERNEL int lf_hi_of_probe(void)
{
	f4 x = _mm256_set1_pd(3.0), y = _mm256_set1_pd(0x1p51 + 1.0);
	__asm__("" : "+x"(x), "+x"(y)); /* not folded at compile time */
	const f4 p = _mm256_fmadd_pd(x, y, _mm256_set1_pd(0x1p104));
	return (int)(_mm256_cvtsi256_si32(_mm256_castpd_si256(p)) & 0xf);
}

int big_lanes52_fma_rounds_down(void)
{
	const unsigned csr = lf_round_down();
	const int hi = lf_hi_of_probe();
	_mm_setcsr(csr);
	return hi == 1;
}

/* ---- the table read, the last subtraction, the entry points ------------ */

/* Digits of lf_select_block's blocks: its accumulators (two streams) and
 * the masks stay in the sixteen registers. */
#define LF_SELECT_BLOCK 4

/* Digits j0 .. j0 + n - 1 of out = entry want_l of the table in each lane
 * l: every entry's digits loaded, each lane keeping its own entry's by a
 * compare of want with the public entry number. */
LF_INLINE void lf_select_block(uint64_t *out, const uint64_t *table, const int entries,
			       const i4 *want, const size_t words, const int j0, const int n)
{
	i4 acc[LF_SELECT_BLOCK][2];
#pragma GCC unroll 4
	for (int j = 0; j < n; j++)
		acc[j][0] = acc[j][1] = _mm256_setzero_si256();
	for (int e = 0; e < entries; e++) {
		const i4 id = _mm256_set1_epi64x(e);
		const i4 take[2] = { _mm256_cmpeq_epi64(want[0], id),
				     _mm256_cmpeq_epi64(want[1], id) };
		const uint64_t *x = table + (size_t)e * words;
#pragma GCC unroll 4
		for (int j = 0; j < n; j++)
#pragma GCC unroll 2
			for (int s = 0; s < 2; s++) {
				const i4 v = _mm256_loadu_si256((const __m256i *)LF_AT(x, j0 + j, s));
				acc[j][s] = _mm256_or_si256(acc[j][s], _mm256_and_si256(v, take[s]));
			}
	}
#pragma GCC unroll 4
	for (int j = 0; j < n; j++)
#pragma GCC unroll 2
		for (int s = 0; s < 2; s++)
			_mm256_storeu_si256((__m256i *)LF_AT(out, j0 + j, s), acc[j][s]);
}

LF_INLINE void lf_select(uint64_t *out, const uint64_t *table, const int entries,
			 const uint64_t *want, const int k)
{
	const size_t words = BIG_LANES_WORDS(k);
	const i4 w[2] = { _mm256_loadu_si256((const __m256i *)want),
			  _mm256_loadu_si256((const __m256i *)(want + 4)) };
	int j = 0;
	for (; j + LF_SELECT_BLOCK <= k; j += LF_SELECT_BLOCK)
		lf_select_block(out, table, entries, w, words, j, LF_SELECT_BLOCK);
	for (; j < k; j++)
		lf_select_block(out, table, entries, w, words, j, 1);
}

/* out = r - m where r >= m, else r, lane by lane (r < 2m), by the borrow
 * of the whole subtraction; out exact, r's words masked to their digits.
 * out must not overlap r. */
LF_INLINE void lf_final_sub(uint64_t *out, const uint64_t *r, const uint64_t *m, const int k)
{
	const i4 mask = _mm256_set1_epi64x((long long)BIG_LANES52_DIGIT_MASK);
	for (int s = 0; s < 2; s++) {
		i4 borrow = _mm256_setzero_si256();
		for (int j = 0; j < k; j++) {
			const i4 rj = _mm256_and_si256(
				_mm256_loadu_si256((const __m256i *)LF_AT(r, j, s)), mask);
			const i4 x = _mm256_sub_epi64(
				_mm256_sub_epi64(rj, _mm256_loadu_si256((const __m256i *)LF_AT(m, j, s))),
				borrow);
			_mm256_storeu_si256((__m256i *)LF_AT(out, j, s), _mm256_and_si256(x, mask));
			borrow = _mm256_srli_epi64(x, 63);
		}
		/* A borrow out (r < m): keep r. */
		const i4 keep_r = _mm256_sub_epi64(_mm256_setzero_si256(), borrow);
		for (int j = 0; j < k; j++) {
			const i4 rj = _mm256_and_si256(
				_mm256_loadu_si256((const __m256i *)LF_AT(r, j, s)), mask);
			const i4 d = _mm256_loadu_si256((const __m256i *)LF_AT(out, j, s));
			_mm256_storeu_si256((__m256i *)LF_AT(out, j, s),
					    _mm256_blendv_epi8(d, rj, keep_r));
		}
	}
}

#define LF_LINE 2
typedef f4 lf_vec;
#include "lanes52_fma_impl.h"

void big_lanes52_mul_fma(uint64_t *r, const uint64_t *a, const uint64_t *b,
			 const struct big_lanes52_mod *mod)
{
	struct lf_mod fm;
	lf_mod_doubles(&fm, mod);
	const unsigned csr = lf_round_down();
	lf_mul_words(r, a, b, &fm);
	_mm_setcsr(csr);
}

void big_lanes52_sqr_fma(uint64_t *r, const uint64_t *a, const struct big_lanes52_mod *mod)
{
	struct lf_mod fm;
	lf_mod_doubles(&fm, mod);
	const unsigned csr = lf_round_down();
	lf_sqr_words(r, a, &fm);
	_mm_setcsr(csr);
}

void big_lanes52_pow_fma(uint64_t *out, const uint64_t *base, const uint64_t *e, int ewords,
			 const struct big_lanes52_mod *mod, uint64_t *scratch)
{
	struct lf_mod fm;
	lf_mod_doubles(&fm, mod);
	const unsigned csr = lf_round_down();
	lf_pow(out, base, e, ewords, mod, &fm, scratch);
	_mm_setcsr(csr);
}

void big_lanes52_pow_public_fma(uint64_t *out, const uint64_t *base, const uint64_t *e,
				int ewords, const struct big_lanes52_mod *mod, uint64_t *scratch)
{
	struct lf_mod fm;
	lf_mod_doubles(&fm, mod);
	const unsigned csr = lf_round_down();
	lf_pow_public(out, base, e, ewords, mod, &fm, scratch);
	_mm_setcsr(csr);
}

#endif
