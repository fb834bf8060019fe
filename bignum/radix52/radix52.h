/*
 * bignum/radix52/radix52.h -- every contract of the radix-2^52 layer, once.
 *
 * What it is.  The two CRT halves of an RSA private operation (x^dp mod p,
 * x^dq mod q, p and q of equal length) computed in one stream, in the
 * number representation of AVX-512 IFMA: a residue of k digits of 52 bits,
 * one digit per 64-bit lane, so that vpmadd52luq / vpmadd52huq (add bits
 * 0..51 / 52..103 of the 104-bit product of the low 52 bits of two lanes
 * to a 64-bit lane) form the products.  The 12 spare bits of each lane
 * take the sums of many products; carries are propagated once per product
 * (normalisation).  RSA-1024/2048/3072/4096 have primes of 8/16/24/32
 * 64-bit chunks: k = 10/20/30/40 digits, whose 52k bits hold the 64-bit
 * chunks with 8 to 32 bits to spare.
 *
 * Three builds of one algorithm.  The algorithm is written once, as a
 * template (dual_*_impl.h; its configuration is described at the top of
 * dual_step_impl.h), instantiated by each build against a small vector
 * API of four 64-bit lanes (r52v_*):
 *   _c     the twin: the API in portable C (vec_c.h), lanes in arrays,
 *          products through unsigned __int128 (dual_c.c);
 *   _ifma  the API as AVX-512 F/VL/IFMA intrinsics on ymm registers
 *          (vec_ifma.h, dual_ifma.c; x86-64 builds);
 *   _emu   (tests only) dual_ifma.c's mapping once more, against an exact
 *          software model of each intrinsic it uses (tests/radix52/),
 *          and _emu_pairs with the pair product taken everywhere.
 * Same digits: every build returns the same words for the same input,
 * which the tests check.  The steps are the same but where the IFMA build
 * takes, per CPU model (bignum/tuning.h), the product and table read on
 * zmm pair groups or the dedicated squaring in the exponentiation at 30
 * digits: the twin has neither, the _emu builds run both.
 *
 * Pair layout.  Both halves of a dual number live in one array of
 * BIG_R52_PAIR_WORDS(k) words: groups of four digits alternate between the
 * halves, digit j of half h (0 = p, 1 = q) at index
 *   8 * (j / 4) + 4 * h + j % 4          (BIG_R52_AT(h, j)),
 * so a ymm register holds four digits of one half and a zmm register the
 * same four digit positions of both.  Digits k .. 4*groups-1 of each half
 * are padding and always zero (inputs must have them zero; outputs do).
 *
 * Almost-Montgomery form.  R = 2^(52k).  A product returns
 *   T = (a*b + Y*m) / R,   Y = (-a*b*m^-1) mod R  (0 <= Y < R),
 * the exact value word-by-word Montgomery reduction produces, without the
 * final subtraction: T == a*b/R (mod m) and T < a*b/R + m.  With
 * m < R/4 and a, b < 2m, a*b < 4m^2 < m*R, so T < 2m: values stay below
 * 2m through the whole exponentiation and only the last product (by 1)
 * and one masked subtraction bring the result into [0, m).  That last
 * product is (x + Y*m)/R <= m, and it equals m when x == m (x == 0 mod
 * m, x != 0), so the subtraction is not optional (cf. CVE-2022-2274).
 *
 * Digits and lanes.  A digit is < 2^52; every input of a product must be
 * normalised (each digit < 2^52, padding zero): IFMA reads only the low 52
 * bits of a lane.  Between normalisations a lane holds a sum of at most
 * 4k + 2 values below 2^52 plus a carry below 2^12 (argued in
 * dual_mul_impl.h and dual_sqr_impl.h): < 2^60 for k <= BIG_R52_MAX_DIGITS.
 *
 * Constant time: every function here runs in time that depends on k (and
 * ewords for the exponentiation) only; no branch and no address depends
 * on a digit or exponent value.  Table entries are read by a masked scan
 * of all 32.
 */
#ifndef BIGMONT_RADIX52_H
#define BIGMONT_RADIX52_H

#include <stddef.h>
#include <stdint.h>

#include <bigmont/bignum.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __cplusplus /* as in bignum/internal.h */
#pragma GCC visibility push(hidden)
#endif

#define BIG_R52_DIGIT_BITS 52
#define BIG_R52_DIGIT_MASK ((UINT64_C(1) << 52) - 1)
/* Largest digit count: the RSA sizes use up to 40; the tests go to 41. */
#define BIG_R52_MAX_DIGITS 44
#define BIG_R52_LANES 4
#define BIG_R52_GROUPS(k) (((k) + BIG_R52_LANES - 1) / BIG_R52_LANES)
#define BIG_R52_MAX_GROUPS BIG_R52_GROUPS(BIG_R52_MAX_DIGITS)
/* Words of a dual number (both halves, padding included). */
#define BIG_R52_PAIR_WORDS(k) (2 * BIG_R52_LANES * BIG_R52_GROUPS(k))
#define BIG_R52_PAIR_MAX_WORDS BIG_R52_PAIR_WORDS(BIG_R52_MAX_DIGITS)
/* Index of digit j of half h in a dual number. */
#define BIG_R52_AT(h, j)                                                      \
	(2 * BIG_R52_LANES * ((j) / BIG_R52_LANES) + BIG_R52_LANES * (h) +   \
	 (j) % BIG_R52_LANES)
/* Window width of the exponentiation and its table size. */
#define BIG_R52_WINDOW 5
#define BIG_R52_TABLE_ENTRIES (1 << BIG_R52_WINDOW)

/*
 * The two moduli of a dual exponentiation.
 *   digits  k, 1 <= k <= BIG_R52_MAX_DIGITS
 *   m       both moduli (pair layout): odd, 1 < m < 2^(52k - 2) = R/4
 *   k0      -m^-1 mod 2^52 for each half
 *   rr      R^2 mod m for each half, any representative below 2m (pair
 *           layout; read by big_r52_dual_pow only)
 *   m_up    m shifted up s = 0..3 lanes within each half, for the kernels
 *           that add y m at absolute positions (the 20-digit assembly):
 *           for each s, BIG_R52_M_UP_GROUPS pair-layout groups, group 0
 *           zero and group g + 1 holding digit 4g + l - s of each half in
 *           lane l (zero outside 0 .. k-1); k <= 20 and two halves
 *           only, else all zero.
 *           Made by big_r52_dual_mod_prepare from m, digits and halves.
 *   halves  2; or 1 for a single modulus: only half 0 is computed, half 1
 *           of every operand is ignored and of every result left as it
 *           was (the products, squarings and big_r52_pow_public; the
 *           dual exponentiation needs 2).
 * The moduli are secret in RSA: the struct is wiped by its owner.
 */
#define BIG_R52_M_UP_GROUPS 7
#define BIG_R52_M_UP_WORDS (4 * BIG_R52_M_UP_GROUPS * 2 * BIG_R52_LANES)
struct big_r52_dual_mod {
	uint64_t m[BIG_R52_PAIR_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t rr[BIG_R52_PAIR_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t k0[2];
	int digits;
	int halves;
	uint64_t m_up[BIG_R52_M_UP_WORDS] __attribute__((aligned(64)));
};

/* mod->m_up from mod->m, mod->digits and mod->halves (dual_mod.c); every
 * owner of a big_r52_dual_mod calls it once those are set, before any
 * product. */
void big_r52_dual_mod_prepare(struct big_r52_dual_mod *mod);

/*
 * Products (both halves at once, each half under its own modulus):
 *
 *   mul: r = a * b / R (almost-Montgomery, above), dual_mul_impl.h
 *   sqr: r = a * a / R, a dedicated squaring (cross products once,
 *        doubled), dual_sqr_impl.h -- the same value as mul(r, a, a)
 *
 * Preconditions: a, b normalised dual numbers of mod->digits digits, each
 * half below 2 * its modulus (below 2^(52k) suffices for r's congruence,
 * but only < 2m keeps r < 2m).  r may equal a and/or b; no partial
 * overlap.  Postcondition: r normalised, each half < 2m.  Constant time.
 */
typedef void big_r52_dual_mul_fn(uint64_t *r, const uint64_t *a,
				 const uint64_t *b,
				 const struct big_r52_dual_mod *mod);
typedef void big_r52_dual_sqr_fn(uint64_t *r, const uint64_t *a,
				 const struct big_r52_dual_mod *mod);

/*
 * The dual exponentiation (dual_pow_impl.h):
 *
 *   out half h = base_h ^ e_h mod m_h     (plain residues, fully reduced)
 *
 * base: a normalised dual number, each half below 2 * its modulus (plain,
 * not Montgomery form).  e_p, e_q: ewords 64-bit words each (little
 * endian), ewords >= 1; both are scanned over all 64 * ewords bits, so
 * their values (bit lengths included) do not change the sequence of
 * operations.  mod->rr is read.  Window 5: a table of 32 powers per half
 * built by products, then 5 squarings and one product per window; the
 * entry for each half is read by a masked scan of all 32 entries (the two
 * halves' windows differ, their positions do not).  The result goes out
 * of Montgomery form by a product by 1 and a masked subtraction of m.
 * scratch: big_r52_dual_pow_scratch(k) words, any 8-byte alignment (the
 * words used start at its first 64-byte boundary), left dirty (the caller
 * wipes it).  out must not overlap base, the exponents or scratch.
 * Constant time in base, e and m.
 */
typedef void big_r52_dual_pow_fn(uint64_t *out, const uint64_t *base,
				 const uint64_t *e_p, const uint64_t *e_q,
				 int ewords,
				 const struct big_r52_dual_mod *mod,
				 uint64_t *scratch);
/* Scratch is used from its first 64-byte boundary: the kernels' zmm loads
 * and stores of the table and the working numbers would otherwise split
 * cache lines in some processes and not in others, wherever the caller's
 * malloc put it (measured: docs/design-notes.md, "Scratch alignment"). */
#define BIG_R52_ALIGN_WORDS 8
static inline uint64_t *big_r52_align64(uint64_t *scratch)
{
	return (uint64_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
}

/* The table of 32 entries and three working dual numbers. */
static inline size_t big_r52_dual_pow_scratch(int digits)
{
	return (size_t)(BIG_R52_TABLE_ENTRIES + 3) * BIG_R52_PAIR_WORDS(digits) +
	       BIG_R52_ALIGN_WORDS;
}

/*
 * The exponentiation by a public exponent (dual_pow_impl.h), for one modulus
 * (mod->halves == 1) or two:
 *
 *   out half h = base_h ^ e mod m_h     (plain residues, fully reduced)
 *
 * e: ebits >= 0 bits of e[] (64-bit words, little endian), the same for
 * both halves and public: left-to-right square and multiply, the products
 * follow its bits.  base: normalised, each half below R/4 (not
 * necessarily below m: a value of up to 52k - 2 bits).  mod->rr is read.
 * e == 0 gives 1.  scratch: big_r52_pow_public_scratch(k) words, used
 * from its first 64-byte boundary, left dirty.  out must not overlap base
 * or scratch.  Constant time in base and m; the time depends on e.
 *
 * Bounds: a product by base has its other factor below 2m, so the
 * almost-Montgomery bound gives (2m)(R/4)/R + m = 1.5m; the others are of
 * values below 2m, as everywhere here.
 */
typedef void big_r52_pow_public_fn(uint64_t *out, const uint64_t *base,
				   const uint64_t *e, int ebits,
				   const struct big_r52_dual_mod *mod,
				   uint64_t *scratch);
/* base * R, the running power and 1. */
static inline size_t big_r52_pow_public_scratch(int digits)
{
	return 3 * (size_t)BIG_R52_PAIR_WORDS(digits) + BIG_R52_ALIGN_WORDS;
}

#define BIG_R52_DECLARE_BUILD(sfx)                                           \
	big_r52_dual_mul_fn big_r52_dual_mul_##sfx;                          \
	big_r52_dual_sqr_fn big_r52_dual_sqr_##sfx;                          \
	big_r52_dual_pow_fn big_r52_dual_pow_##sfx;                          \
	big_r52_pow_public_fn big_r52_pow_public_##sfx;

BIG_R52_DECLARE_BUILD(c)
/* The IFMA build is in the builds with the assembly kernels, whose ifma
 * variant runs it; a portable build has no CPU-specific code. */
#if defined(__x86_64__) && BIGMONT_HAVE_ASM
#define BIG_R52_HAVE_IFMA_BUILD 1
/* Callable only where big_r52_cpu_has_ifma() (bignum/dispatch.c). */
BIG_R52_DECLARE_BUILD(ifma)
#else
#define BIG_R52_HAVE_IFMA_BUILD 0
#endif

/* Each side of the IFMA build's product and squaring choices, called by
 * name whatever the CPU binds (bench --kernels, tests): the product and
 * the squaring of both halves on zmm pair groups (_mul_pairs,
 * _sqr_pairs; at the fixed window's sizes the squaring is the square by
 * the pair product, at 10 digits the NASM one in the IFMA build), the
 * product on the ymm halves (_halves) and the dedicated squaring on them
 * (_sqr_dedicated), with the contracts of big_r52_dual_mul and _sqr for
 * mod->halves == 2 (at 20 digits the C intrinsics, not the NASM
 * kernels).  They leave their frames to their caller, as the kernels do.
 * The emulated build with the pairs (tests/radix52/dual_emu_pairs.c) has
 * them too. */
#define BIG_R52_DECLARE_SIDES(sfx)                                           \
	big_r52_dual_mul_fn big_r52_dual_mul_pairs_##sfx;                    \
	big_r52_dual_sqr_fn big_r52_dual_sqr_pairs_##sfx;                    \
	big_r52_dual_mul_fn big_r52_dual_mul_halves_##sfx;                   \
	big_r52_dual_sqr_fn big_r52_dual_sqr_dedicated_##sfx;

#if BIG_R52_HAVE_IFMA_BUILD
/* The 20-digit product and squaring in NASM (asm/x86_64/r52_dual_*20_
 * ifma.asm, in builds with the assembly kernels): the contracts above
 * with mod->digits == 20 and mod->m_up prepared, on CPUs with AVX512F/VL/
 * IFMA/DQ/BW.  The IFMA build calls them at 20 digits there.  Two
 * tunings of each, _amd and _intel (the same words, either runs on any
 * such CPU); the _asm names are bound at load time to the one for this
 * CPU (bignum/dispatch.c), which big_r52_kernels20_intel() tells. */
__attribute__((visibility("default"))) big_r52_dual_mul_fn big_r52_dual_mul20_ifma_asm;
__attribute__((visibility("default"))) big_r52_dual_sqr_fn big_r52_dual_sqr20_ifma_asm;
big_r52_dual_mul_fn big_r52_dual_mul20_ifma_amd;
big_r52_dual_sqr_fn big_r52_dual_sqr20_ifma_amd;
big_r52_dual_mul_fn big_r52_dual_mul20_ifma_intel;
big_r52_dual_sqr_fn big_r52_dual_sqr20_ifma_intel;
__attribute__((visibility("default"))) int big_r52_kernels20_intel(void);
/* The 10-digit pair product in NASM (asm/x86_64/r52_dual_mul10_ifma.asm):
 * the contract of big_r52_dual_mul with mod->digits == 10, two halves
 * and mod->m_up prepared, on CPUs with AVX512F/VL/IFMA/DQ/BW.  The IFMA
 * build multiplies and squares by it at 10 digits where the tuning table
 * binds the pairs there (big_r52_mul_pairs_wanted).  Its frame, at most
 * 1 KB below the caller's stack pointer, and its registers are wiped as
 * the C kernels' are at 10 digits (big_r52_stack_wipe_ifma). */
big_r52_dual_mul_fn big_r52_dual_mul10_ifma;
/* 1 where the IFMA exponentiations square by the dedicated squaring at
 * 30 digits, 0 where by the product.  Each of these predicates is bound
 * at load time from the tuning table (bignum/tuning.h: per CPU model,
 * only where measured) or BIGMONT_TUNE (bignum/dispatch.c). */
__attribute__((visibility("default"))) int big_r52_pow_sqr30_dedicated(void);
/* 1 where the IFMA build's product of both halves at `digits` works on
 * zmm pair groups (30 and 40 digits only), 0 where on the ymm halves.
 * The same words either way. */
__attribute__((visibility("default"))) int big_r52_mul_pairs_wanted(int digits);
/* Zeroes the stack frame those two leave (secret-derived words) and the
 * vector, mask and caller-saved general registers: to be called from the
 * function that called them, at the same stack depth, after the last of
 * them (asm/x86_64/r52_dual20_wipe.asm). */
void big_r52_dual20_ifma_wipe(void);
/* Zeroes zmm0-31, k1-k7, the `bytes` (a multiple of 64) below its return
 * address and the caller-saved general registers: called by the function
 * that called the IFMA build's C kernels, at the same depth, after the
 * last of them (asm/x86_64/r52_stack_wipe.asm; bignum/radix52/
 * dual_ifma.c says how deep their frames reach). */
void big_r52_stack_wipe_ifma(size_t bytes);
BIG_R52_DECLARE_SIDES(ifma)
#endif

/* 1 if the CPU has AVX512F, VL, IFMA, DQ and BW and the OS saves the
 * opmask and ZMM state (XCR0 bits 1, 2, 5, 6, 7), else 0.  cpuid and
 * xgetbv only: safe in an ifunc resolver. */
int big_r52_cpu_has_ifma(void);

/* The product, squaring and exponentiation of one build, for callers that
 * take the build as an argument (the CRT path, tests). */
struct big_r52_ops {
	big_r52_dual_mul_fn *mul;
	big_r52_dual_sqr_fn *sqr;
	big_r52_dual_pow_fn *pow;
	big_r52_pow_public_fn *pow_public;
};
/* The initialiser of build sfx's four: `struct big_r52_ops ops =
 * BIG_R52_OPS_INIT(ifma);`.  Made where it is used, on the stack: a const
 * table of function pointers in the library would be relocated, writable,
 * data (tests/install/check refuses any). */
#define BIG_R52_OPS_INIT(sfx)                                                \
	{ big_r52_dual_mul_##sfx, big_r52_dual_sqr_##sfx,                    \
	  big_r52_dual_pow_##sfx, big_r52_pow_public_##sfx }

/* ---- conversion (convert.c): 64-bit words <-> 52-bit digits ---------- */
/* Half h of the dual number x (k digits) = w[0..nwords), digit j = bits
 * [52j, 52j + 52) of w, zero past nwords; the padding digits are zeroed.
 * Bits of w at and above 52k must be zero (not checked).  The other half
 * is not touched.  Constant time. */
void big_r52_from_words(uint64_t *x, int h, int k, const uint64_t *w,
			int nwords);
/* w[0..nwords) = half h of the dual number x (k normalised digits); the
 * value must be below 2^(64 nwords) (bits past it are dropped).
 * Constant time. */
void big_r52_to_words(uint64_t *w, int nwords, const uint64_t *x, int h,
		      int k);

#if BIG_CHUNK_SIZE == 64
/* ---- the moduli from 64-bit words (dual_mod.c) ----------------------- */
/*
 * *mod for `halves` (1 or 2) moduli m[h] of len 64-bit words (odd > 1,
 * below 2^(64 len)) and `digits` = 10 len / 8 digits: the digits of m,
 * k0 = -m^-1 mod 2^52 (the low 52 bits of the radix-2^64 n0, since 2^52
 * divides 2^64), m_up, and R^2 mod m from rr64[h] = 2^(128 len) mod m[h]
 * (below m: big_mont_rr) by two almost-Montgomery products through
 * ops->mul, as OpenSSL derives it, in constant time and without a
 * division.  With L = len, R64 = 2^(64L), R = 2^(52k):
 *   T1 = AMM(RR64, RR64) = R64^4 / R          = 2^(256L - 52k)
 *   RR = AMM(T1, 2^e)    = 2^(256L - 104k + e) = 2^(104k) = R^2,
 * all mod m, with e = 208k - 256L = 4L (32, 64, 96, 128 for the RSA
 * sizes): 0 <= e < 52k, so 2^e is a k-digit number, and both products
 * stay below 2m (RR64 < m; T1 * 2^e < 2m * 2^(52k - 1) = m R); the
 * exponentiations accept an R^2 below 2m.  x, y: BIG_R52_PAIR_WORDS(k)
 * words of scratch each, left dirty.  Constant time in m.
 */
void big_r52_mod_init(struct big_r52_dual_mod *mod, int digits, int halves,
		      const uint64_t *const m[2], const uint64_t *const rr64[2],
		      int len, const struct big_r52_ops *ops, uint64_t *x,
		      uint64_t *y);

/* ---- the CRT path (crt_pow.c) ---------------------------------------- */
/* Digits of the CRT path for primes of lp and lq 64-bit chunks: for equal
 * lengths of 7 to 32 chunks the least k with 52 k >= 64 lp + 2 (10, 20,
 * 30, 40 at 8, 16, 24, 32 chunks, whose kernels are compiled for them;
 * the others run the run-time-k bodies), else 0 (the radix-2^64 path).
 * big_modexp_crt takes it in the ifma variant (bignum/modexp_crt.c, the
 * one place that decides). */
int big_r52_crt_digits(int lp, int lq);
/*
 * m_p = a^dp mod p and m_q = a^dq mod q (plain, fully reduced, len chunks
 * each) in one radix-2^52 dual exponentiation of `digits` =
 * big_r52_crt_digits(len, len) digits, through the given build (crt_pow.c).
 *   a[0..alen): any length >= 1;  dp[0..dplen), dq[0..dqlen): >= 1 chunk
 *   p, q: odd > 1, len chunks;  rr_p, rr_q: 2^(128 len) mod p, mod q (< p,
 *   < q: big_mont_rr), len chunks
 * The moduli go in by big_r52_mod_init; a by big_mont_reduce_ct.
 * scratch: big_crt_r52_scratch(digits, len, max(dplen, dqlen)) chunks,
 * left dirty.  Outputs must not overlap inputs.  Constant time in a, dp,
 * dq, p, q (lengths may leak).
 */
size_t big_crt_r52_scratch(int digits, int len, int ewords);
void big_crt_r52_pow(uint64_t *m_p, uint64_t *m_q, const uint64_t *a,
		     int alen, const uint64_t *dp, int dplen,
		     const uint64_t *dq, int dqlen, const uint64_t *p,
		     const uint64_t *q, const uint64_t *rr_p,
		     const uint64_t *rr_q, int len, int digits,
		     const struct big_r52_ops *ops, uint64_t *scratch);

/* ---- one modulus, a public exponent (public_pow.c) ------------------ */
/* Digits of big_modexp_ct_base's path for a modulus of len 64-bit chunks:
 * 20 and 40 for 16 and 32 chunks (the fault checks of RSA-1024 and
 * RSA-2048), else 0.  What the code can do; big_modexp_ct_base takes it
 * in the ifma variant (bignum/modexp_ct_base.c). */
int big_r52_ct_base_digits(int len);
/*
 * out = a^e mod n (fully reduced, len chunks) through the given build,
 * n alone in half 0: big_modexp_ct_base's radix-2^52 path.
 *   a: len chunks, any value (a >= n too);  e: ebits bits, public;
 *   n: odd > 1, len chunks;  n_rr = 2^(128 len) mod n (< n: big_mont_rr);
 *   digits = big_r52_ct_base_digits(len)
 * scratch: big_r52_ct_base_scratch(digits) chunks, left dirty.  out may
 * equal a.  Constant time in a and n.
 */
size_t big_r52_ct_base_scratch(int digits);
/* At least big_r52_ct_base_scratch(k) for every k: for a stack buffer. */
#define BIG_R52_CT_BASE_SCRATCH_MAX (6 * BIG_R52_PAIR_MAX_WORDS)
void big_r52_ct_base_pow(uint64_t *out, const uint64_t *a,
			 const uint64_t *e, int ebits, const uint64_t *n,
			 const uint64_t *n_rr, int len, int digits,
			 const struct big_r52_ops *ops, uint64_t *scratch);
#endif

#ifndef __cplusplus
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* BIGMONT_RADIX52_H */
