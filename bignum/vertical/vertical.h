/*
 * The vertical layout on AVX2: both CRT halves' Montgomery products,
 * squarings and exponentiations in one instruction stream, each number's
 * digits across the lanes of ymm registers (ipp-crypto's and OpenSSL's
 * rsaz-avx2 layout), for the single private operation at RSA-3072 and
 * 4096 on CPUs without AVX-512 IFMA; and the same on zmm, both halves in
 * one register (dual_avx512.c), on CPUs with AVX-512F.  Why and what
 * they measured: docs/design-notes.md ("A vertical AVX2 squaring for the
 * single operation", "The vertical layer on zmm").  bignum/modexp_crt.c
 * decides where each runs.
 *
 * Numbers.  A half of len 64-bit chunks (len 24 or 32) is held in N
 * digits of radix 2^28 (N = big_vert_digits(len): 56 or 75), in a
 * struct big_vert_num: digit i at d[4 + i], every other word zero (the
 * kernels read the zeros around the digits as shifted operands).  Digits
 * are normalised (< 2^28).
 *
 * Moduli.  The kernels reduce by w = n k0, k0 = -n^-1 mod 2^28, a
 * multiple of the odd n (a prime here) with w = -1 mod 2^28: the
 * Montgomery digit of a column is its low 28 bits, no multiply on the
 * chain.  w < 2^(64 len + 28) <= R / 16 for R = 2^(28 N) (1564 <=
 * 1568 - 4 at 24 chunks, 2076 <= 2100 - 4 at 32), so R > 4w.  Every
 * result is congruent mod w, hence mod n, to what it stands for;
 * big_vert_mod_init sets w up from n (no division, constant time in n).
 *
 * Almost-Montgomery values: inputs below 2w, outputs
 *   r = (x + M w) / R,  M = -x w^-1 mod R,  x = a b or a^2,
 * r = x R^-1 mod w and r < 4w^2 / R + w < 2w: an output is the next
 * input, no final subtraction.  With b = 1 and a < 2w, r <= w.
 *
 * Columns are lazy 64-bit lane sums: at most N products of < 2^56 from
 * a b (a^2 counts a doubled cross product twice: the same N) and N more
 * from M w, plus the chain's carries < 2^37: below 2 * 75 * 2^56 + 2^37
 * < 2^63.3 at N = 75, so no normalisation between the product and the
 * reduction.  One serial carry pass leaves digits < 2^28 (the output is
 * < 2^(28 N), nothing is left over).
 *
 * Constant time: no branch or address depends on a digit, the modulus
 * or an exponent bit; the table read is a masked read of every entry.
 * Only N (len) and elen are public.
 *
 * The _avx2 functions need a CPU with AVX2 and an OS that saves the YMM
 * state (big_lanes_cpu_has_avx2()).  64-bit chunks only: they are built
 * where BIG_VERT_HAVE_AVX2_BUILD is 1.
 */
#ifndef BIGMONT_VERTICAL_H
#define BIGMONT_VERTICAL_H

#include <stddef.h>
#include <stdint.h>

#include <bigmont/bignum.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __cplusplus /* as in bignum/internal.h */
#pragma GCC visibility push(hidden)
#endif

#define BIG_VERT_RADIX_BITS 28
#define BIG_VERT_DIGIT_MASK ((UINT64_C(1) << BIG_VERT_RADIX_BITS) - 1)
#define BIG_VERT_MAX_DIGITS 75
/* Blocks of four digits of a shifted modulus: ceil((N + 3) / 4). */
#define BIG_VERT_MAX_BLOCKS 20
#define BIG_VERT_NUM_WORDS (4 + 4 * BIG_VERT_MAX_BLOCKS + 4)
#define BIG_VERT_MAX_CHUNKS 32

/* Digits for primes of len 64-bit chunks: 56 at 24 chunks (RSA-3072),
 * 75 at 32 (RSA-4096), 0 at every other length (not served). */
static inline int big_vert_digits(int len)
{
	return len == 24 ? 56 : len == 32 ? 75 : 0;
}

struct big_vert_num {
	uint64_t d[BIG_VERT_NUM_WORDS] __attribute__((aligned(32)));
};

/* One half's modulus w = n k0: immutable once set up.  nsh[r] holds w's
 * digits shifted up by r (nsh[r][j + r] = w_j), zeros elsewhere; w1..w3
 * its digits 1..3 for the scalar chain (w_0 = 2^28 - 1). */
struct big_vert_mod {
	uint64_t nsh[4][4 * BIG_VERT_MAX_BLOCKS] __attribute__((aligned(32)));
	uint64_t w1, w2, w3;
	int digits;
};

/* One half's column buffers: the multiplier in copies shifted up by 0..3
 * digits (the squaring's doubled operand in four, the product's b in
 * three, shifts 1..3: its own digits serve as shift 0), and the 2N + 8
 * columns. */
struct big_vert_work {
	uint64_t ysh[4][4 * BIG_VERT_MAX_BLOCKS + 4] __attribute__((aligned(32)));
	uint64_t t[4 * (2 * BIG_VERT_MAX_BLOCKS + 2)] __attribute__((aligned(32)));
	/* Room for the AVX-512 kernels, which use two entries as one pair
	 * work with the moduli's shifted copies too (dual_avx512.c). */
	uint64_t pair_room[16 * BIG_VERT_MAX_BLOCKS + 8] __attribute__((aligned(32)));
};

/* mod = w = n k0 for the odd n of len chunks (big_vert_digits(len) != 0);
 * mod->digits = big_vert_digits(len).  Constant time in n. */
void big_vert_mod_init(struct big_vert_mod *mod, const uint64_t *n, int len);

/* x = the value of c[0..clen) (< 2^(28 N)) as N digits, padding zeroed;
 * c = the value of x's N digits as clen chunks (the value < 2^(64 clen)).
 * Positions only are public. */
void big_vert_from_chunks(struct big_vert_num *x, const uint64_t *c, int clen, int digits);
void big_vert_to_chunks(uint64_t *c, int clen, const struct big_vert_num *x, int digits);

#if defined(__x86_64__) && BIGMONT_HAVE_ASM && BIG_CHUNK_SIZE == 64
#define BIG_VERT_HAVE_AVX2_BUILD 1
/*
 * Both halves h = 0, 1 (each argument points to two, half h's modulus
 * mod[h] with mod[0].digits == mod[1].digits = N from big_vert_digits):
 *   big_vert_mul2_avx2: r[h] = a[h] b[h] R^-1 mod' w_h,
 *   big_vert_sqr2_avx2: r[h] = a[h]^2 R^-1 mod' w_h,
 * almost Montgomery (above): a[h], b[h] < 2 w_h in, r[h] < 2 w_h out.
 * Only r's N digits are written: its other words must be zero already
 * (as big_vert_from_chunks and these kernels leave them; writing them per
 * call cost about 1 % at 56 digits).  r may be a or b (the same array);
 * work is the caller's, two entries.
 */
void big_vert_mul2_avx2(struct big_vert_num *r, const struct big_vert_num *a,
			const struct big_vert_num *b, const struct big_vert_mod *mod,
			struct big_vert_work *work);
void big_vert_sqr2_avx2(struct big_vert_num *r, const struct big_vert_num *a,
			const struct big_vert_mod *mod, struct big_vert_work *work);
/* The same on AVX-512F (dual_avx512.c: both halves in one zmm), same
 * contract and the same words, and: work prepared for these two moduli
 * by big_vert_pair_mod_avx512 (the kernels read the moduli's pair copies
 * from it and leave them), a CPU with AVX-512F and an OS that saves the
 * ZMM state.  The preparation: once per pair of moduli, after mod[0] and
 * mod[1] are set; work's other words any. */
void big_vert_pair_mod_avx512(struct big_vert_work *work, const struct big_vert_mod *mod);
void big_vert_mul2_avx512(struct big_vert_num *r, const struct big_vert_num *a,
			  const struct big_vert_num *b, const struct big_vert_mod *mod,
			  struct big_vert_work *work);
void big_vert_sqr2_avx512(struct big_vert_num *r, const struct big_vert_num *a,
			  const struct big_vert_mod *mod, struct big_vert_work *work);

/*
 * The dual exponentiation of the CRT:
 *   m_p = a_p^dp mod p,  m_q = a_q^dq mod q,
 * p, q odd > 1 of len chunks each (big_vert_digits(len) != 0), a_p < p,
 * a_q < q, dp and dq of elen chunks, rr_p = B^(2 len) mod p and rr_q the
 * same mod q (B = 2^64, < p, < q: the radix-2^64 R^2 the key holds).
 * m_p, m_q: len chunks, fully reduced.  A fixed window of
 * big_mont_pow_ct_window(64 elen) bits, a table of 2^window entries a half
 * in 32-bit digits, every entry read per window.  Into Montgomery form by
 * radix-2^64 products with rr (R = B^len 2^s, s = 28 N - 64 len:
 * R mod p = mont64(rr, 2^s), a R = mont64(a, mont64(rr, R mod p))), out
 * by a vertical product with 1 (<= w) and big_mont_reduce_ct mod p: no
 * division.  Constant time in a_p, a_q, dp, dq, p, q.  No allocation:
 * scratch of big_vert_pow2_scratch(len, elen) words, the caller's, left
 * holding secrets (wipe it); the 16 KB of stack below the call and
 * ymm0-15 are zeroed before it returns.  Outputs may not overlap the
 * inputs.
 */
void big_vert_pow2_avx2(uint64_t *m_p, uint64_t *m_q, const uint64_t *a_p,
			const uint64_t *a_q, const uint64_t *dp,
			const uint64_t *dq, int elen, const uint64_t *p,
			const uint64_t *q, const uint64_t *rr_p,
			const uint64_t *rr_q, int len, uint64_t *scratch);
/* The same on the AVX-512F kernels (a CPU with AVX-512F and an OS that
 * saves the ZMM state: big_vert_cpu_has_avx512()); zmm0-31 and k1-7 are
 * zeroed with the stack. */
void big_vert_pow2_avx512(uint64_t *m_p, uint64_t *m_q, const uint64_t *a_p,
			  const uint64_t *a_q, const uint64_t *dp,
			  const uint64_t *dq, int elen, const uint64_t *p,
			  const uint64_t *q, const uint64_t *rr_p,
			  const uint64_t *rr_q, int len, uint64_t *scratch);
/* The same from one a of alen chunks (any length), reduced mod p and mod
 * q first (big_mont_reduce_ct): big_modexp_crt's vertical path, on the
 * zmm kernels where zmm is 1, else the ymm ones.  Scratch of
 * big_vert_crt_pow2_scratch(len, elen) words. */
void big_vert_crt_pow2(uint64_t *m_p, uint64_t *m_q, const uint64_t *a, int alen,
		       const uint64_t *dp, const uint64_t *dq, int elen,
		       const uint64_t *p, const uint64_t *q, const uint64_t *rr_p,
		       const uint64_t *rr_q, int len, int zmm, uint64_t *scratch);
#else
#define BIG_VERT_HAVE_AVX2_BUILD 0
#endif

/* 1 where the CPU has AVX-512F and the OS saves the ZMM and opmask
 * states (bignum/dispatch.c). */
__attribute__((visibility("default"))) int big_vert_cpu_has_avx512(void);

/* 1 where the tuning table (bignum/tuning.h, VERTICAL) or BIGMONT_TUNE
 * binds big_modexp_crt's vertical path, bound once at load
 * (bignum/dispatch.c); 0 in builds without the assembly. */
__attribute__((visibility("default"))) int big_vert_tuned(void);
/* 1 where the table (VERTICAL_ZMM) or BIGMONT_TUNE binds the vertical
 * path on the zmm kernels, where the CPU has AVX-512F; 0 in builds
 * without the assembly. */
__attribute__((visibility("default"))) int big_vert_zmm_tuned(void);

/* Words of big_vert_pow2_avx2's and big_vert_crt_pow2_avx2's scratch
 * (any alignment). */
size_t big_vert_pow2_scratch(int len, int elen);
size_t big_vert_crt_pow2_scratch(int len, int elen);

#ifndef __cplusplus
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
