/*
 * bench/spike/fma_mul20.c -- a spike, not in the build (issue 43): the
 * almost-Montgomery product of eight 1024-bit lanes in radix 2^52 on AVX2
 * + FMA (two ymm streams of four lanes, 20 digits, product scanning), each
 * digit product by the FP64 split with the rounding mode toward zero:
 *   hi = fma(a, b, 2^104), lo = fma(a, b, (2^104 + 2^52) - hi),
 * whose bit patterns minus those of 2^104 and 2^52 are the product's high
 * and low 52 bits; columns add the patterns as integers and take the
 * constants off once.  The Montgomery digit q_c of column c is the low
 * half of (S mod 2^52) k0 by the same split; the carry out of column c is
 * ceil(S / 2^52), which does not wait for q_c m_0.
 * fma_mul20_pairs: the same product two columns a pass, one stream at a
 * time, each X_j and Y digit loaded once for the two columns' products.
 * It checks both products against GMP per lane (random 1024-bit moduli, the
 * all-ones modulus, operands 0 and 2m - 1) and times it against the
 * library's NASM lane product and squaring at 37 digits of radix 2^28, on
 * the same moduli, alternating, least of N trials of 16 dependent calls.
 *   -DNOCHAIN     the Montgomery digits read from a constant array: no
 *                 chain from column to column (wrong words, timing only)
 *   -DUNROLL_ALL  every loop unrolled (k constant)
 * Build and run (from the source tree, after cmake --build --preset
 * chunk64-asm):
 *   gcc -O2 -mavx2 -mfma -frounding-math -Ibignum \
 *       -Ibuild/chunk64-asm/bignum/include -DBIGMONT_HAVE_ASM=1 \
 *       bench/spike/fma_mul20.c build/chunk64-asm/bignum/libbigmont_bignum.a \
 *       -lgmp -o /tmp/fma_mul20 && taskset -c 1 /tmp/fma_mul20 300
 */
#include <gmp.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "lanes/lanes.h"

#define K 20
#define L 8
#define MASK52 ((UINT64_C(1) << 52) - 1)

typedef struct {
	double m[K][L] __attribute__((aligned(64)));
	double k0[L] __attribute__((aligned(64)));
} fmod52;

/* digits as doubles: x[j][l] */
typedef double num52[K][L] __attribute__((aligned(64)));

static const double C1 = 0x1p104, C2 = 0x1p104 + 0x1p52, TWO52 = 0x1p52;
#define BITS_C1 UINT64_C(0x4670000000000000)
#define BITS_2_52 UINT64_C(0x4330000000000000)

static inline __attribute__((always_inline)) void split_add(__m256i *lo_acc, __m256i *hi_acc,
							    __m256d x, __m256d y)
{
	const __m256d hi = _mm256_fmadd_pd(x, y, _mm256_set1_pd(C1));
	const __m256d lo = _mm256_fmadd_pd(x, y, _mm256_sub_pd(_mm256_set1_pd(C2), hi));
	*lo_acc = _mm256_add_epi64(*lo_acc, _mm256_castpd_si256(lo));
	*hi_acc = _mm256_add_epi64(*hi_acc, _mm256_castpd_si256(hi));
}

/* r = a b / 2^(52K) (almost Montgomery), r as doubles (normalised digits)
 * and, if ri, as integers too. */
__attribute__((noinline)) void fma_mul20(num52 r, uint64_t (*ri)[L], const num52 a,
					 const num52 b, const fmod52 *mod)
{
	double q[K][L] __attribute__((aligned(64)));
#ifdef NOCHAIN
	static double qs[K][L] __attribute__((aligned(64)));
#define QREAD qs
#else
#define QREAD q
#endif
	__m256i carry[2] = { _mm256_setzero_si256(), _mm256_setzero_si256() };
	__m256i hiprev[2] = { _mm256_setzero_si256(), _mm256_setzero_si256() };
	long nhi_prev = 0;
	const __m256i mask = _mm256_set1_epi64x((long long)MASK52);
	const __m256i b252 = _mm256_set1_epi64x((long long)BITS_2_52);
	const __m256d two52 = _mm256_set1_pd(TWO52);

#ifdef UNROLL_ALL
#pragma GCC unroll 40
#endif
	for (int c = 0; c < 2 * K - 1; c++) {
		const int jlo = c < K ? 0 : c - K + 1, jhi = c < K ? c : K - 1;
		__m256i lo[2] = { _mm256_setzero_si256(), _mm256_setzero_si256() };
		__m256i hi[2] = { _mm256_setzero_si256(), _mm256_setzero_si256() };
		long n = 0;
		/* q_j m_(c-j) for j < c first (q_(c-1) last: the chain) */
		const int qhi = c < K ? c - 1 : K - 1;
#ifdef UNROLL_ALL
#pragma GCC unroll 20
#endif
		for (int j = jlo; j <= jhi; j++, n++)
			for (int s = 0; s < 2; s++)
				split_add(&lo[s], &hi[s], _mm256_load_pd(&a[j][4 * s]),
					  _mm256_load_pd(&b[c - j][4 * s]));
#ifdef UNROLL_ALL
#pragma GCC unroll 20
#endif
		for (int j = jlo; j <= qhi; j++, n++)
			for (int s = 0; s < 2; s++)
				split_add(&lo[s], &hi[s], _mm256_load_pd(&QREAD[j][4 * s]),
					  _mm256_load_pd(&mod->m[c - j][4 * s]));
		const __m256i lo_bias = _mm256_set1_epi64x((long long)(BITS_2_52 * (uint64_t)n));
		const __m256i prev_bias = _mm256_set1_epi64x((long long)(BITS_C1 * (uint64_t)nhi_prev));
		for (int s = 0; s < 2; s++) {
			/* S = lo terms + last column's hi terms + carry */
			__m256i S = _mm256_add_epi64(_mm256_sub_epi64(lo[s], lo_bias),
						     _mm256_sub_epi64(hiprev[s], prev_bias));
			S = _mm256_add_epi64(S, carry[s]);
			if (c < K) {
				/* q_c = (S mod 2^52) k0 mod 2^52, as a double */
				const __m256d t = _mm256_sub_pd(
					_mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(S, mask), b252)),
					two52);
				const __m256d k0 = _mm256_load_pd(&mod->k0[4 * s]);
				const __m256d h = _mm256_fmadd_pd(t, k0, _mm256_set1_pd(C1));
				const __m256d l = _mm256_fmadd_pd(t, k0, _mm256_sub_pd(_mm256_set1_pd(C2), h));
				const __m256d qc = _mm256_sub_pd(l, two52);
				_mm256_store_pd(&q[c][4 * s], qc);
				/* S + lo(q_c m_0) = 0 mod 2^52: the carry is ceil(S / 2^52);
				 * hi(q_c m_0) goes to column c + 1 */
				carry[s] = _mm256_srli_epi64(_mm256_add_epi64(S, mask), 52);
				const __m256d hq = _mm256_fmadd_pd(_mm256_load_pd(&QREAD[c][4 * s]), _mm256_load_pd(&mod->m[0][4 * s]),
								   _mm256_set1_pd(C1));
				hi[s] = _mm256_add_epi64(hi[s], _mm256_castpd_si256(hq));
			} else {
				const __m256i d = _mm256_and_si256(S, mask);
				carry[s] = _mm256_srli_epi64(S, 52);
				_mm256_store_pd(&r[c - K][4 * s],
						_mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(d, b252)), two52));
				if (ri)
					_mm256_storeu_si256((__m256i *)&ri[c - K][4 * s], d);
			}
			hiprev[s] = hi[s];
		}
		nhi_prev = n + (c < K ? 1 : 0);
	}
	/* column 2K - 1: the last hi terms and carry */
	const __m256i prev_bias = _mm256_set1_epi64x((long long)(BITS_C1 * (uint64_t)nhi_prev));
	for (int s = 0; s < 2; s++) {
		const __m256i S = _mm256_add_epi64(_mm256_sub_epi64(hiprev[s], prev_bias), carry[s]);
		const __m256i d = _mm256_and_si256(S, mask);
		_mm256_store_pd(&r[K - 1][4 * s],
				_mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(d, b252)), two52));
		if (ri)
			_mm256_storeu_si256((__m256i *)&ri[K - 1][4 * s], d);
	}
}


/* Columns c and c+1 from X_j Y_(c-j) and X_j Y_(c+1-j), j in [j0, j1], one
 * stream: each X_j and Y digit loaded once for two products. */
static inline __attribute__((always_inline)) void pair_pass(
	__m256i *lo0, __m256i *hi0, __m256i *lo1, __m256i *hi1, const double (*X)[L],
	const double (*Y)[L], int c, int j0, int j1, int s)
{
	if (j0 > j1)
		return;
	__m256d y1 = _mm256_load_pd(&Y[c + 1 - j0][4 * s]);
	for (int j = j0; j <= j1; j++) {
		const __m256d x = _mm256_load_pd(&X[j][4 * s]);
		const __m256d y0 = _mm256_load_pd(&Y[c - j][4 * s]);
		split_add(lo0, hi0, x, y0);
		split_add(lo1, hi1, x, y1);
		y1 = y0;
	}
}

static inline __attribute__((always_inline)) __m256d digit_q(__m256i S, __m256d k0)
{
	const __m256i mask = _mm256_set1_epi64x((long long)MASK52);
	const __m256d t = _mm256_sub_pd(
		_mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(S, mask),
						    _mm256_set1_epi64x((long long)BITS_2_52))),
		_mm256_set1_pd(TWO52));
	const __m256d h = _mm256_fmadd_pd(t, k0, _mm256_set1_pd(C1));
	const __m256d l = _mm256_fmadd_pd(t, k0, _mm256_sub_pd(_mm256_set1_pd(C2), h));
	return _mm256_sub_pd(l, _mm256_set1_pd(TWO52));
}

static inline __attribute__((always_inline)) __m256i unbias(__m256i lo, long nlo, __m256i hi, long nhi)
{
	return _mm256_add_epi64(
		_mm256_sub_epi64(lo, _mm256_set1_epi64x((long long)(BITS_2_52 * (uint64_t)nlo))),
		_mm256_sub_epi64(hi, _mm256_set1_epi64x((long long)(BITS_C1 * (uint64_t)nhi))));
}

static inline __attribute__((always_inline)) void put_digit(num52 r, uint64_t (*ri)[L], int i, int s,
							    __m256i d)
{
	_mm256_store_pd(&r[i][4 * s],
			_mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(
					      d, _mm256_set1_epi64x((long long)BITS_2_52))),
				      _mm256_set1_pd(TWO52)));
	if (ri)
		_mm256_storeu_si256((__m256i *)&ri[i][4 * s], d);
}

/* The same product, two columns a pass. */
__attribute__((noinline)) void fma_mul20_pairs(num52 r, uint64_t (*ri)[L], const num52 a,
					       const num52 b, const fmod52 *mod)
{
	double q[K][L] __attribute__((aligned(64)));
	const __m256i mask = _mm256_set1_epi64x((long long)MASK52);
	for (int s = 0; s < 2; s++) {
		const __m256d k0 = _mm256_load_pd(&mod->k0[4 * s]);
		const __m256d m0 = _mm256_load_pd(&mod->m[0][4 * s]);
		__m256i carry = _mm256_setzero_si256(), hiprev = _mm256_setzero_si256();
		long nhiprev = 0;
		int c = 0;
		for (; c + 1 < K; c += 2) {
			__m256i lo0 = _mm256_setzero_si256(), hi0 = lo0, lo1 = lo0, hi1 = lo0;
			/* a b: j = 0..c into both, a_(c+1) b_0 into c + 1 */
			pair_pass(&lo0, &hi0, &lo1, &hi1, a, b, c, 0, c, s);
			split_add(&lo1, &hi1, _mm256_load_pd(&a[c + 1][4 * s]), _mm256_load_pd(&b[0][4 * s]));
			/* q m: j = 0..c-1 into both */
			pair_pass(&lo0, &hi0, &lo1, &hi1, q, mod->m, c, 0, c - 1, s);
			long n0 = (c + 1) + c, n1 = (c + 2) + c;
			__m256i S = _mm256_add_epi64(unbias(lo0, n0, hiprev, nhiprev), carry);
			__m256d qc = digit_q(S, k0);
			_mm256_store_pd(&q[c][4 * s], qc);
			carry = _mm256_srli_epi64(_mm256_add_epi64(S, mask), 52);
			hi0 = _mm256_add_epi64(hi0, _mm256_castpd_si256(_mm256_fmadd_pd(qc, m0, _mm256_set1_pd(C1))));
			/* q_c m_1 into c + 1 */
			split_add(&lo1, &hi1, qc, _mm256_load_pd(&mod->m[1][4 * s]));
			n1 += 1;
			S = _mm256_add_epi64(unbias(lo1, n1, hi0, n0 + 1), carry);
			qc = digit_q(S, k0);
			_mm256_store_pd(&q[c + 1][4 * s], qc);
			carry = _mm256_srli_epi64(_mm256_add_epi64(S, mask), 52);
			hi1 = _mm256_add_epi64(hi1, _mm256_castpd_si256(_mm256_fmadd_pd(qc, m0, _mm256_set1_pd(C1))));
			hiprev = hi1;
			nhiprev = n1 + 1;
		}
		/* K even: c == K here.  Pairs (c, c + 1) up to 2K - 3. */
		for (; c + 1 <= 2 * K - 2; c += 2) {
			__m256i lo0 = _mm256_setzero_si256(), hi0 = lo0, lo1 = lo0, hi1 = lo0;
			const int j0 = c - K + 2;
			pair_pass(&lo0, &hi0, &lo1, &hi1, a, b, c, j0, K - 1, s);
			split_add(&lo0, &hi0, _mm256_load_pd(&a[j0 - 1][4 * s]), _mm256_load_pd(&b[K - 1][4 * s]));
			pair_pass(&lo0, &hi0, &lo1, &hi1, q, mod->m, c, j0, K - 1, s);
			split_add(&lo0, &hi0, _mm256_load_pd(&q[j0 - 1][4 * s]), _mm256_load_pd(&mod->m[K - 1][4 * s]));
			const long n0 = 2 * (K - j0 + 1), n1 = 2 * (K - j0);
			__m256i S = _mm256_add_epi64(unbias(lo0, n0, hiprev, nhiprev), carry);
			put_digit(r, ri, c - K, s, _mm256_and_si256(S, mask));
			carry = _mm256_srli_epi64(S, 52);
			S = _mm256_add_epi64(unbias(lo1, n1, hi0, n0), carry);
			put_digit(r, ri, c + 1 - K, s, _mm256_and_si256(S, mask));
			carry = _mm256_srli_epi64(S, 52);
			hiprev = hi1;
			nhiprev = n1;
		}
		/* column 2K - 2: a_(K-1) b_(K-1) and q_(K-1) m_(K-1); then 2K - 1 */
		__m256i lo0 = _mm256_setzero_si256(), hi0 = lo0;
		split_add(&lo0, &hi0, _mm256_load_pd(&a[K - 1][4 * s]), _mm256_load_pd(&b[K - 1][4 * s]));
		split_add(&lo0, &hi0, _mm256_load_pd(&q[K - 1][4 * s]), _mm256_load_pd(&mod->m[K - 1][4 * s]));
		__m256i S = _mm256_add_epi64(unbias(lo0, 2, hiprev, nhiprev), carry);
		put_digit(r, ri, K - 2, s, _mm256_and_si256(S, mask));
		carry = _mm256_srli_epi64(S, 52);
		S = _mm256_add_epi64(unbias(_mm256_setzero_si256(), 0, hi0, 2), carry);
		put_digit(r, ri, K - 1, s, _mm256_and_si256(S, mask));
	}
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* mpz -> digits of radix 2^bits into lane l of x (k digits), as uint64 */
static void to_digits(uint64_t *x, int l, int k, int bits, const mpz_t v)
{
	mpz_t t;
	mpz_init_set(t, v);
	for (int j = 0; j < k; j++) {
		x[8 * j + l] = mpz_get_ui(t) & ((UINT64_C(1) << bits) - 1);
		mpz_tdiv_q_2exp(t, t, bits);
	}
	mpz_clear(t);
}
static void from_digits(mpz_t v, const uint64_t *x, int l, int k, int bits)
{
	mpz_set_ui(v, 0);
	for (int j = k - 1; j >= 0; j--) {
		mpz_mul_2exp(v, v, bits);
		mpz_add_ui(v, v, x[8 * j + l]);
	}
}

int main(int argc, char **argv)
{
	int trials = argc > 1 ? atoi(argv[1]) : 300;
	_MM_SET_ROUNDING_MODE(_MM_ROUND_TOWARD_ZERO);
	static fmod52 mod;
	static num52 a, b, r;
	static uint64_t ai[K][L], bi[K][L], ri[K][L], mi[K][L];
	mpz_t m[L], A[L], B[L], R, t, u;
	mpz_init(R);
	mpz_init(t);
	mpz_init(u);
	mpz_setbit(R, 52 * K);
	long bad = 0, checked = 0;
	for (int round = 0; round < 200; round++) {
		for (int l = 0; l < L; l++) {
			mpz_init(m[l]);
			mpz_init(A[l]);
			mpz_init(B[l]);
			mpz_set_ui(m[l], 0);
			for (int w = 0; w < 16; w++) {
				mpz_mul_2exp(m[l], m[l], 64);
				mpz_add_ui(m[l], m[l], rnd());
			}
			if (round % 5 == 1) { /* the all-ones modulus 2^1024 - 1 */
				mpz_set_ui(m[l], 0);
				mpz_setbit(m[l], 1024);
				mpz_sub_ui(m[l], m[l], 1);
			}
			mpz_setbit(m[l], 1023);
			mpz_setbit(m[l], 0);
			/* a, b < 2m, some edges */

			mpz_set_ui(A[l], 0);
			for (int w = 0; w < 17; w++) {
				mpz_mul_2exp(A[l], A[l], 64);
				mpz_add_ui(A[l], A[l], rnd());
			}
			mpz_mul_2exp(t, m[l], 1);
			mpz_mod(A[l], A[l], t);
			mpz_set_ui(B[l], 0);
			for (int w = 0; w < 17; w++) {
				mpz_mul_2exp(B[l], B[l], 64);
				mpz_add_ui(B[l], B[l], rnd());
			}
			mpz_mod(B[l], B[l], t);
			if (round % 7 == 2)
				mpz_sub_ui(A[l], t, 1), mpz_sub_ui(B[l], t, 1);
			if (round % 11 == 3)
				mpz_set_ui(A[l], 0);
			to_digits(&mi[0][0], l, K, 52, m[l]);
			to_digits(&ai[0][0], l, K, 52, A[l]);
			to_digits(&bi[0][0], l, K, 52, B[l]);
			/* k0 = -m^-1 mod 2^52 */
			mpz_set_ui(t, 0);
			mpz_setbit(t, 52);
			mpz_invert(u, m[l], t);
			mpz_sub(u, t, u);
			mod.k0[l] = (double)mpz_get_ui(u);
		}
		for (int j = 0; j < K; j++)
			for (int l = 0; l < L; l++) {
				a[j][l] = (double)ai[j][l];
				b[j][l] = (double)bi[j][l];
				mod.m[j][l] = (double)mi[j][l];
			}
		for (int pass = 0; pass < 2; pass++) {
		if (pass == 0)
			fma_mul20(r, ri, a, b, &mod);
		else
			fma_mul20_pairs(r, ri, a, b, &mod);
		for (int l = 0; l < L; l++) {
			mpz_t got;
			mpz_init(got);
			from_digits(got, &ri[0][0], l, K, 52);
			/* got R == A B mod m, got < 2m */
			mpz_mul(t, got, R);
			mpz_mul(u, A[l], B[l]);
			mpz_sub(t, t, u);
			mpz_mod(t, t, m[l]);
			mpz_mul_2exp(u, m[l], 1);
			int ok = mpz_sgn(t) == 0 && mpz_cmp(got, u) < 0;
			for (int j = 0; j < K; j++)
				ok &= ri[j][l] <= MASK52 && (double)ri[j][l] == r[j][l];
			checked++;
			if (!ok && bad++ < 3)
				gmp_printf("lane %d round %d wrong: got %Zx\n", l, round, got);
			mpz_clear(got);
		}
		}
		if (round < 199)
			for (int l = 0; l < L; l++)
				mpz_clear(m[l]), mpz_clear(A[l]), mpz_clear(B[l]);
	}
	printf("fma_mul20: %ld of %ld lane products wrong\n", bad, checked);

	/* the library's 37-digit lane product on the same moduli */
	static struct big_lanes_mod lm;
	static uint64_t la[BIG_LANES_WORDS(37)] __attribute__((aligned(64))),
		lb[BIG_LANES_WORDS(37)] __attribute__((aligned(64))),
		lr[BIG_LANES_WORDS(37)] __attribute__((aligned(64)));
	lm.digits = 37;
	for (int l = 0; l < L; l++) {
		to_digits(lm.m, l, 37, 28, m[l]);
		mpz_set_ui(t, 0);
		mpz_setbit(t, 28);
		mpz_invert(u, m[l], t);
		mpz_sub(u, t, u);
		lm.k0[l] = mpz_get_ui(u);
		to_digits(la, l, 37, 28, A[l]);
		to_digits(lb, l, 37, 28, B[l]);
	}
	double best_f = 1e18, best_l = 1e18, best_s = 1e18, best_p = 1e18;
	for (int tr = 0; tr < trials; tr++) {
		uint64_t t0 = __rdtsc();
		for (int i = 0; i < 16; i++)
			fma_mul20(r, NULL, r, b, &mod);
		uint64_t t1 = __rdtsc();
		for (int i = 0; i < 16; i++)
			big_lanes_mul37_avx2_asm(lr, lr, lb, &lm);
		uint64_t t2 = __rdtsc();
		for (int i = 0; i < 16; i++)
			big_lanes_sqr37_avx2_asm(lr, lr, &lm);
		uint64_t t3 = __rdtsc();
		for (int i = 0; i < 16; i++)
			fma_mul20_pairs(r, NULL, r, b, &mod);
		uint64_t t4 = __rdtsc();
		if ((t4 - t3) / 16.0 < best_p)
			best_p = (t4 - t3) / 16.0;
		if ((t1 - t0) / 16.0 < best_f)
			best_f = (t1 - t0) / 16.0;
		if ((t2 - t1) / 16.0 < best_l)
			best_l = (t2 - t1) / 16.0;
		if ((t3 - t2) / 16.0 < best_s)
			best_s = (t3 - t2) / 16.0;
		if (tr == 0)
			memcpy(lr, la, sizeof la);
	}
	printf("ticks a call, 8 lanes, least of %d x 16: fma_mul20 %.0f, pairs %.0f, lanes_mul37 %.0f, lanes_sqr37 %.0f; fma/mul37 %.3f pairs/mul37 %.3f\n",
	       trials, best_f, best_p, best_l, best_s, best_f / best_l, best_p / best_l);
	return bad != 0;
}
