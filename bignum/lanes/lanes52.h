/*
 * bignum/lanes/lanes52.h -- the contracts of the lane layer in radix 2^52,
 * for AVX-512 IFMA, once.
 *
 * What it is.  The same eight independent exponentiations as lanes.h (one
 * per 64-bit lane, each lane with a modulus, a Montgomery constant and an
 * exponent of its own, only the digit count shared), with digits of 52
 * bits multiplied by vpmadd52luq / vpmadd52huq: one zmm register holds
 * digit j of all eight lanes, so a product step is one instruction for
 * eight numbers, with no carry, shuffle or product across lanes.
 *
 * Lane layout: lanes.h's, with 52-bit digits.  A lane number of k digits
 * is BIG_LANES_WORDS(k) 64-bit words, digit j of lane l at index
 * BIG_LANES_AT(j, l) = 8 j + l: digit j of the eight lanes is one 64-byte
 * line, one zmm.  Digits are radix 2^52, each < 2^52 when normalised.
 *
 * Digit form.  Word j of a lane holds digit j in its low 52 bits.  The
 * products and squarings below write each word as the digit plus 2^52
 * times the carry they passed on to digit j + 1 (below 2^12), not masked:
 * every product reads only the low 52 bits of its multiplicands (vpmadd52
 * does), so the next one takes the words as they are, and what reads a
 * lane as a value masks them (big_lanes52_to_chunks, the exponentiations'
 * final subtraction).  Masking a word is a vector operation on the
 * multiply-adds' ports, k of them a product (ipp-crypto's mb8 kernels
 * leave the carries the same way).  "Normalised" below means digits in
 * this form.
 *
 * Why 2^52 and the carry-free sums.  vpmadd52luq adds the low 52 bits of
 * the 104-bit product of the low 52 bits of two lanes to a 64-bit lane,
 * vpmadd52huq its high 52 bits: every term is below 2^52, so a 64-bit lane
 * takes 2^12 of them before it can overflow.  A digit product a_i b_j
 * puts its low half into column i + j and its high half into column
 * i + j + 1, so the Montgomery product adds into each column of its
 * 2k-column accumulator at most k low and k high halves of a b and as
 * many of q m, plus, once, the carry of the column below (< 2^12):
 *   column < 4k (2^52 - 1) + 2^12 <= 2^64   for k <= 1023.
 * The squaring adds its doubled cross products (at most 2k - 1 halves
 * after doubling, a column below k 2^52 before it) and one half of a
 * diagonal square, so no more.  Every size this layer serves has
 * k <= BIG_LANES52_MAX_DIGITS = 41: 164 halves, a column below 2^60; the
 * RSA halves of 512, 1024, 1536 and 2048 bits have k = 10, 20, 30, 40.
 * So the halves add up with no carry until the end of a product, where
 * one pass over k columns brings every digit below 2^52.  The inputs of
 * every product must be normalised (vpmadd52 reads only 52 bits).  The
 * Montgomery digit q_i = (t_i k0) mod 2^52 is one vpmadd52luq from zero:
 * it reads exactly the low 52 bits of the column t_i, which is all it
 * needs.
 *
 * Almost-Montgomery form, as in lanes.h, with R = 2^(52k): a product
 * gives T = (a b + Y m) / R, Y = (-a b m^-1) mod R, with no final
 * subtraction: with m < R/4 and a, b < 2m, T < 2m.  The exponentiation's
 * last product (by 1) is <= m; one masked subtraction reduces it fully.
 *
 * Two builds of one algorithm (lanes52_impl.h on the vector API of
 * vec52_ifma.h):
 *   _ifma  AVX-512 F and IFMA intrinsics on zmm (lanes_ifma.c), in the
 *          x86-64 builds with the assembly kernels; callable only where
 *          big_lanes52_cpu_has_ifma();
 *   _emu   the tests' build of the same source against an exact software
 *          model of those intrinsics (tests/lanes/), which runs anywhere.
 * Same source, same instruction semantics: both return the same words.
 * And the same contracts by another algorithm on AVX2 and FMA (each half
 * product by double-precision multiply-adds, product scanning):
 *   _fma   lanes52_fma.c, below; the same values (T is unique), its words'
 *          carry bits above 52 its own.
 *
 * Constant time: every function runs in time that depends on k (and the
 * exponent word count) only; no branch and no address depends on a digit,
 * a modulus or an exponent bit of any lane.  Table entries are read by a
 * scan of all 32, each lane taking its own entry by a merge mask.
 */
#ifndef BIGMONT_LANES52_H
#define BIGMONT_LANES52_H

#include <stddef.h>
#include <stdint.h>

#include "lanes.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __cplusplus /* as in bignum/internal.h */
#pragma GCC visibility push(hidden)
#endif

#define BIG_LANES52_DIGIT_BITS 52
#define BIG_LANES52_DIGIT_MASK ((UINT64_C(1) << 52) - 1)
/* 41 digits: 2132 bits, a 2048-bit half (k = 40) and the tests' margin. */
#define BIG_LANES52_MAX_DIGITS 41
#define BIG_LANES52_MIN_DIGITS 3
#define BIG_LANES52_MAX_WORDS BIG_LANES_WORDS(BIG_LANES52_MAX_DIGITS)

/*
 * The eight moduli.
 *   digits  k, BIG_LANES52_MIN_DIGITS <= k <= BIG_LANES52_MAX_DIGITS
 *   m       lane l: an odd modulus 1 < m_l < 2^(52k - 2) = R/4
 *   k0      lane l: -m_l^-1 mod 2^52
 *   rr      lane l: R^2 mod m_l, any representative below 2 m_l
 * Made by big_lanes52_mod_init.  Secret in RSA: wiped by its owner.
 */
struct big_lanes52_mod {
	uint64_t m[BIG_LANES52_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t rr[BIG_LANES52_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t k0[BIG_LANES] __attribute__((aligned(64)));
	int digits;
};

/*
 * Products, each lane under its own modulus:
 *   mul: r = a b / R (almost-Montgomery), operand scanning with the
 *        reduction interleaved;
 *   sqr: r = a a / R, the cross products once, doubled, the diagonal,
 *        and the reduction: the same value as mul(r, a, a).
 * (lanes52_impl.h has the three forms: a register window at 10 and 20
 * digits, tiles at 30 and 40 (BIG_LANES52_TILED), rows two at a time at
 * the other sizes.)
 * Preconditions: a, b normalised lane numbers of mod->digits digits, each
 * lane below 2 m_l (for mul, below R suffices for the congruence; sqr
 * needs a below R/2, which 2 m_l < R/2 gives).  r may equal a
 * and/or b; no partial overlap.  Postcondition: r normalised, each lane
 * below 2 m_l.  Constant time.
 */
/* The digit counts of RSA-1024 .. 4096's halves, which the IFMA build
 * compiles apart with k a constant (lanes52_impl.h, LN52_FIXED_SIZES): the
 * register window at those up to LN52_WINDOW_DIGITS, the tiles above. */
#define BIG_LANES52_FIXED(k) ((k) == 10 || (k) == 20 || (k) == 30 || (k) == 40)
/* Digit counts whose product and squaring go in tiles (lanes52_impl.h,
 * LN52_USE_TILES), and what the benchmark counts their madds by
 * (bench/peak.h). */
#define BIG_LANES52_TILED(k) ((k) == 30 || (k) == 40)
/* Up to this many digits the register window takes each row's next q
 * early, and never forms lo(q m_0) (lanes52_impl.h, LN52_EARLY_Q); the
 * benchmark counts its madds by it too. */
#define BIG_LANES52_EARLY_Q_DIGITS 12
typedef void big_lanes52_mul_fn(uint64_t *r, const uint64_t *a,
				const uint64_t *b,
				const struct big_lanes52_mod *mod);
typedef void big_lanes52_sqr_fn(uint64_t *r, const uint64_t *a,
				const struct big_lanes52_mod *mod);

/*
 * The exponentiation:  out lane l = base_l ^ e_l mod m_l, fully reduced.
 * base: normalised, each lane below R/2, not only below 2 m_l (plain, not
 * Montgomery form: its first product, base rr / R with rr < 2 m_l, is
 * below 2 m_l for any such base; the CRT batch passes a mod m below 5m).
 * e: lane l's exponent at e[l * ewords .. l * ewords + ewords), 64-bit
 * words little endian, ewords >= 1; every lane is scanned over all
 * 64 ewords bits.  mod->rr is read.  Window w (5, BIG_LANES_WINDOW; 4 up
 * to 10 digits: BIG_LANES52_WINDOW_BITS): a table of 2^w powers per lane, then
 * per window w squarings, a scan of the whole table (each lane takes its
 * own entry by a merge mask) and one product;
 * out of Montgomery form by a product by 1 and a masked subtraction.
 * scratch: big_lanes52_pow_scratch(k) words, any 8-byte alignment (used
 * from its first 64-byte boundary), left dirty.  out must not overlap
 * base, e or scratch.  Constant time in base, e and m of every lane.
 */
typedef void big_lanes52_pow_fn(uint64_t *out, const uint64_t *base,
				const uint64_t *e, int ewords,
				const struct big_lanes52_mod *mod,
				uint64_t *scratch);
/*
 * Two exponentiations of one digit count and ewords (two lane groups of a
 * batch), each as big_lanes52_pow with its own operands, modulus and
 * scratch: up to BIG_LANES52_LOCKSTEP_DIGITS in lockstep, each step of one
 * beside the other's (two independent chains: at 10 digits one chain of
 * squarings leaves the ports idle part of the time, and two alternating
 * took 0.92 of its time a squaring, the exponentiations 0.95-0.96 on Intel
 * family 6 model 167, docs/design-notes.md), above it one after the other.
 */
typedef void big_lanes52_pow2_fn(uint64_t *const out[2], const uint64_t *const base[2],
				 const uint64_t *const e[2], int ewords,
				 const struct big_lanes52_mod *const mod[2],
				 uint64_t *const scratch[2]);
#define BIG_LANES52_LOCKSTEP_DIGITS 10

/*
 * A public exponent:  out lane l = base_l ^ e_l mod m_l, fully reduced, by
 * left-to-right square and multiply over the exponents' bits, which are
 * public (the fault check's e): from the highest bit any lane has set,
 * every lane squares at each bit, and where any lane has the bit every
 * lane multiplies by its base, each keeping the product only where its own
 * exponent has the bit (a merge mask made from the public bits).  Where
 * every lane has the top bit the power starts at the base; where every
 * lane has bit 0 the last product takes the base out of Montgomery form
 * (x^(e-1) R times x), with no product by 1.  For e = 65537 in every
 * lane: 16 squarings and 2 products (one of them the base into Montgomery
 * form).  e, ewords and mod as big_lanes52_pow; base
 * normalised, each lane below 2 m_l, or any value below R where m_l <
 * R/16 (a faulty signature may be >= m): then every value stays below
 * 3 m_l < R/2, which the squaring needs (bignum/lanes/public_batch52.c).
 * scratch: big_lanes52_pow_public_scratch(k) words, the same terms.
 * Constant time in base and m; the sequence of products follows the
 * exponents.
 */
static inline size_t big_lanes52_pow_public_scratch(int digits)
{
	return (size_t)4 * BIG_LANES_WORDS(digits) + 8;
}
/* The public exponents' plan, which every build's pow_public follows: the
 * highest bit any lane's exponent has (-1 if none), and the lanes whose
 * exponent has bit i, as a mask (bit l: lane l). */
static inline int big_lanes52_public_top(const uint64_t *e, int ewords)
{
	int top = -1;
	for (int l = 0; l < BIG_LANES; l++)
		for (int w = ewords - 1; w >= 0 && 64 * w + 63 > top; w--) {
			const uint64_t v = e[(size_t)l * (size_t)ewords + (size_t)w];
			if (v != 0) {
				const int b = 64 * w + 63 - __builtin_clzll(v);
				top = b > top ? b : top;
				break;
			}
		}
	return top;
}
static inline unsigned big_lanes52_public_lanes(const uint64_t *e, int ewords, int i)
{
	unsigned take = 0;
	for (int l = 0; l < BIG_LANES; l++)
		take |= (unsigned)((e[(size_t)l * (size_t)ewords + (size_t)(i / 64)] >> (i % 64)) & 1)
			<< l;
	return take;
}
/* A build's steps for big_lanes52_pow_public_by: its product and squaring
 * (lanes52.h's, under mod), out = r - m where r >= m else r, lane by lane
 * (r < 2m; out must not overlap r), and acc's lanes in take (bit l: lane
 * l) from t.  ctx: the build's own (the modulus as it needs it). */
struct big_lanes52_public_steps {
	const void *ctx;
	void (*mul)(const void *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b);
	void (*sqr)(const void *ctx, uint64_t *r, const uint64_t *a);
	void (*reduce)(const void *ctx, uint64_t *out, const uint64_t *r);
	void (*keep)(const void *ctx, uint64_t *acc, const uint64_t *t, unsigned take);
};
/*
 * big_lanes52_pow_public's square and multiply (its contract above) on a
 * build's steps.  Where every lane has the top bit (one e in every lane:
 * the fault check), the power starts at the base, in place of 1 (R mod m)
 * and a product by it; where every exponent is odd (every RSA e), the
 * last product, by the base itself, (x^(e-1) R)(x) / R = x^e, takes the
 * power out of Montgomery form with no product by 1: acc < 2m after the
 * squaring, so that product is below 2m (base < 2m, m < R/4) or 3m (base
 * < R, m < R/16), and two subtractions reduce it.
 */
static inline void big_lanes52_pow_public_by(uint64_t *out, const uint64_t *base,
					     const uint64_t *e, int ewords,
					     const struct big_lanes52_mod *mod, uint64_t *scratch,
					     const struct big_lanes52_public_steps *s)
{
	const size_t words = BIG_LANES_WORDS(mod->digits);
	const unsigned every = (1u << BIG_LANES) - 1;
	uint64_t *xm = big_lanes_align64(scratch);
	uint64_t *acc = xm + words, *t = acc + words, *one = t + words;
	const int top = big_lanes52_public_top(e, ewords);
	const unsigned take_top = top >= 0 ? big_lanes52_public_lanes(e, ewords, top) : 0;

	for (size_t j = 0; j < words; j++)
		one[j] = j < BIG_LANES;
	s->mul(s->ctx, xm, base, mod->rr);
	int i = top;
	if (take_top == every) {
		for (size_t j = 0; j < words; j++)
			acc[j] = xm[j];
		i--;
	} else {
		s->mul(s->ctx, acc, mod->rr, one);
	}
	for (; i >= 0; i--) {
		if (i < top)
			s->sqr(s->ctx, acc, acc);
		const unsigned take = big_lanes52_public_lanes(e, ewords, i);
		if (take == 0)
			continue;
		if (i == 0 && take == every) {
			s->mul(s->ctx, acc, acc, base);
			s->reduce(s->ctx, t, acc);
			s->reduce(s->ctx, out, t);
			return;
		}
		s->mul(s->ctx, t, acc, xm);
		s->keep(s->ctx, acc, t, take);
	}
	s->mul(s->ctx, acc, acc, one);
	s->reduce(s->ctx, out, acc);
}

/*
 * The exponent window: 4 bits up to 10 digits (RSA-1024's halves), where
 * the table scan is the larger share (a tenth of the exponentiation at
 * window 5: 32 entries for 6 products), else BIG_LANES_WINDOW.
 */
#define BIG_LANES52_WINDOW_BITS(k) ((k) <= 10 ? 4 : BIG_LANES_WINDOW)

/* The table (2^w entries), the running power, the selected entry and 1:
 * at 10 digits 19 lane numbers, not 35, which the caller wipes. */
static inline size_t big_lanes52_pow_scratch(int digits)
{
	return (size_t)((1 << BIG_LANES52_WINDOW_BITS(digits)) + 3) *
		       BIG_LANES_WORDS(digits) +
	       8;
}

#define BIG_LANES52_DECLARE_BUILD(sfx)                                       \
	big_lanes52_mul_fn big_lanes52_mul_##sfx;                            \
	big_lanes52_sqr_fn big_lanes52_sqr_##sfx;                            \
	big_lanes52_pow_fn big_lanes52_pow_##sfx;                            \
	big_lanes52_pow_fn big_lanes52_pow_public_##sfx;                     \
	big_lanes52_pow2_fn big_lanes52_pow2_##sfx;

/* The depth of a build's wipe (struct big_lanes52_ops), below. */
#if BIG_LANES_FRAMES_UNMEASURED /* lanes.h */
#define BIG_LANES52_FRAME_BYTES 32768
#else
#define BIG_LANES52_FRAME_BYTES 16384
#endif

#if defined(__x86_64__) && BIGMONT_HAVE_ASM
#define BIG_LANES52_HAVE_IFMA_BUILD 1
BIG_LANES52_DECLARE_BUILD(ifma)
/*
 * The IFMA build's kernels (C intrinsics) leave spills on their frames
 * (copies of m's and the operands' digits, column sums) and secret-derived
 * values in zmm and mask registers, and do not zero them.  The functions
 * that call into the build (big_modexp_crt_batch, big_modexp_public_batch)
 * zero, once done, the BIG_LANES52_FRAME_BYTES below their frame and those
 * registers by the radix-2^52 build's wipe (asm/x86_64/r52_stack_wipe.asm,
 * declared in radix52.h too), called from the same function so that it
 * starts where their callees' frames did.  The deepest chain measured:
 * the CRT wrapper, big_lanes52_mod_init, the product's dispatch and the
 * 40-digit product, about 12 KB (9.9 KB at 20 digits);
 * Lanes52Ifma.FramesAreWipedByTheirCaller checks it.  The sanitizers'
 * frames are deeper.
 */
void big_r52_stack_wipe_ifma(size_t bytes);
#define big_lanes52_wipe_ifma big_r52_stack_wipe_ifma
/*
 * At k = 20 (RSA-2048's halves) the build has a NASM squaring and a NASM
 * product of the same contracts and the register window's words (the C's
 * where k is a constant; the sanitizer builds' C may take the rows, the
 * same values with other carry bits above 52) (asm/x86_64/
 * lanes52_sqr20_ifma.asm, lanes52_mul20_ifma.asm: mod->digits must be 20;
 * the squaring's frame, 2.6 KB, lies within the wipe's; the product has
 * none).  Where big_lanes52_sqr20_asm() is 1, bound once from the tuning
 * table (bignum/tuning.h: LANES52_SQR20_ASM) or BIGMONT_TUNE
 * (bignum/dispatch.c), big_lanes52_sqr_ifma and big_lanes52_mul_ifma run
 * them at 20 digits, and big_lanes52_pow_ifma there reads the window's
 * table entry ahead of the squarings, by the NASM one, rather than in
 * slices within the C squarings (lanes52_impl.h, struct ln52_scan).  The _side entries take the side asked
 * (nasm20 = 1: the NASM one) whatever the binding: the tests, the
 * benchmark.
 */
big_lanes52_sqr_fn big_lanes52_sqr20_ifma_asm;
big_lanes52_mul_fn big_lanes52_mul20_ifma_asm;
void big_lanes52_sqr_ifma_side(uint64_t *r, const uint64_t *a,
			       const struct big_lanes52_mod *mod, int nasm20);
void big_lanes52_mul_ifma_side(uint64_t *r, const uint64_t *a, const uint64_t *b,
			       const struct big_lanes52_mod *mod, int nasm20);
void big_lanes52_pow_ifma_side(uint64_t *out, const uint64_t *base, const uint64_t *e,
			       int ewords, const struct big_lanes52_mod *mod, uint64_t *scratch,
			       int nasm20);
__attribute__((visibility("default"))) int big_lanes52_sqr20_asm(void);
#else
#define BIG_LANES52_HAVE_IFMA_BUILD 0
#endif

#if defined(__x86_64__) && BIGMONT_HAVE_ASM
/*
 * The same contracts on AVX2 and FMA (lanes52_fma.c): each half product
 * by double-precision multiply-adds, four lanes a ymm; the IFMA build's
 * words.  Callable only where big_lanes52_cpu_has_fma().  Its frames
 * (the operands and the modulus as doubles: about 12 KB deep below the
 * batch CRT at 41 digits at -O2, deeper in the sanitizer builds) and ymm
 * registers are left dirty: the callers wipe them as the IFMA build's,
 * BIG_LANES52_FRAME_BYTES deep (struct big_lanes52_ops: wipe), from the
 * same function; Lanes52Fma.WipeIsAsDeepAsTheFrames compares the depths.
 */
#define BIG_LANES52_HAVE_FMA_BUILD 1
BIG_LANES52_DECLARE_BUILD(fma)
#define big_lanes52_wipe_fma big_lanes_avx2_wipe_bytes
/* 1 if the rounding mode the build sets takes effect (it does on every
 * CPU; not under an emulator that ignores it, as Valgrind does): asked,
 * with AVX2 and FMA known, by big_lanes52_cpu_has_fma. */
int big_lanes52_fma_rounds_down(void);
#else
#define BIG_LANES52_HAVE_FMA_BUILD 0
#endif
#if defined(__x86_64__) && BIGMONT_HAVE_ASM
/*
 * The FMA build's arithmetic in zmm (lanes52_fma512.c): eight lanes a
 * register, the rounding in each instruction; the IFMA build's words.
 * Callable only where big_lanes_cpu_has_avx512() (lanes.h).  Its frames
 * and zmm registers are left dirty like the IFMA build's, and wiped by its
 * wipe (big_r52_stack_wipe_ifma needs AVX-512 F only).
 */
#define BIG_LANES52_HAVE_FMA512_BUILD 1
BIG_LANES52_DECLARE_BUILD(fma512)
#define big_lanes52_wipe_fma512 big_r52_stack_wipe_ifma
#else
#define BIG_LANES52_HAVE_FMA512_BUILD 0
#endif
/* 1 if the CPU has AVX2 and FMA and the OS saves the YMM state (bound at
 * load: bignum/dispatch.c); big_lanes52_cpu_has_fma also asks, at each
 * call, whether the FMA build's rounding mode takes
 * (big_lanes52_fma_rounds_down: a few instructions, which a resolver run
 * at load, before the sanitizers' runtime, could not run). */
int big_lanes52_cpu_can_fma(void);
__attribute__((visibility("default"))) int big_lanes52_cpu_has_fma(void);

/* 1 if the CPU has AVX-512 F and IFMA and the OS saves the opmask and ZMM
 * state (big_r52_cpu_has_ifma's test, which asks for DQ, BW and VL too:
 * every IFMA CPU has them). */
__attribute__((visibility("default"))) int big_lanes52_cpu_has_ifma(void);

/* A build's functions.  wipe: zeroes what its kernels leave below their
 * caller's frame and in the vector registers (lanes52.h: the IFMA build's
 * BIG_LANES52_FRAME_BYTES and zmm registers, the FMA build's as deep and
 * ymm registers), called with BIG_LANES52_FRAME_BYTES from the function
 * that called the kernels, whose depth it starts from; NULL where the
 * build leaves nothing to wipe (the tests' emulated build). */
struct big_lanes52_ops {
	big_lanes52_mul_fn *mul;
	big_lanes52_sqr_fn *sqr;
	big_lanes52_pow_fn *pow;
	big_lanes52_pow_fn *pow_public;
	big_lanes52_pow2_fn *pow2; /* NULL: the caller runs pow twice */
	void (*wipe)(size_t bytes);
	const char *name;
};
#define BIG_LANES52_OPS_INIT(sfx)                                            \
	{ big_lanes52_mul_##sfx, big_lanes52_sqr_##sfx, big_lanes52_pow_##sfx, \
	  big_lanes52_pow_public_##sfx, NULL, big_lanes52_wipe_##sfx, #sfx }
/* The builds of lanes52_impl.h (IFMA, and the tests' emulated one), which
 * have big_lanes52_pow2. */
#define BIG_LANES52_OPS_INIT_LOCKSTEP(sfx)                                   \
	{ big_lanes52_mul_##sfx, big_lanes52_sqr_##sfx, big_lanes52_pow_##sfx, \
	  big_lanes52_pow_public_##sfx, big_lanes52_pow2_##sfx,              \
	  big_lanes52_wipe_##sfx, #sfx }

/*
 * Whether the batch path runs a radix-2^52 build (lanes_select.c): 1 and
 * *ops set to the IFMA build where this build has it, the CPU can run it
 * and BIGMONT_BATCH names no other build (big_crt_batch_forced: unset,
 * "ifma", or no build's name); else to the zmm FMA build where the CPU
 * has AVX-512 F and BIGMONT_BATCH is not "fma" (ahead of the radix-2^28
 * zmm build: 0.80-0.88 of its time a batch on Intel family 6 model 167,
 * docs/design-notes.md); else to the ymm FMA build where the CPU has AVX2
 * and FMA and BIGMONT_BATCH is not "fma512"; else 0 (*ops untouched) and
 * the batch path takes big_lanes_ops_choose's build: BIGMONT_BATCH=c,
 * =avx2 or =avx512 ask for those.
 */
int big_lanes52_ops_choose(struct big_lanes52_ops *ops);

/* ---- sizes, conversion and the moduli (lanes52.c) -------------------- */
/* Digits for moduli of `bits` bits (rounded up to whole chunks by the
 * caller): the least k with 52k >= bits + 2 (m < R/4); 0 if that is not
 * within BIG_LANES52_MIN_DIGITS .. BIG_LANES52_MAX_DIGITS. */
int big_lanes52_digits(int bits);
/* big_lanes_digits_from_chunks and _to_chunks (lanes.h) at 52 bits. */
void big_lanes52_from_chunks(uint64_t *x, int l, int k,
			     const BIG_CHUNK_TYPE *w, int len);
void big_lanes52_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x,
			   int l, int k);
/* -m^-1 mod 2^52 of an odd m0 (the low 52 bits of m, or more). */
uint64_t big_lanes52_k0(uint64_t m0);
/*
 * 1 if moduli of len chunks (B = len * BIG_CHUNK_SIZE bits) have their
 * R^2 by big_lanes52_mod_init: k = big_lanes52_digits(B) is not 0 and
 *   e = 208k - 4B  has  0 <= e < 52k,  that is  B <= 52k < 4B/3,
 * true for every B from 160 bits on (52k <= B + 53); else 0.
 */
int big_lanes52_len_ok(int len);
/*
 * *mod for k = digits from lane l's modulus m[l] (len chunks, odd > 1,
 * below 2^(52k - 2)) and rr[l] = 2^(2B) mod m[l], B = len *
 * BIG_CHUNK_SIZE (below m[l], as big_mont_rr gives); R^2 mod m from it by
 * two almost-Montgomery products through ops->mul, with no division:
 *   T1 = AMM(rr, rr) = 2^(4B - 52k),  RR = AMM(T1, 2^e) = 2^(104k)
 * (congruences mod m), e = 208k - 4B, which needs 0 <= e < 52k (so
 * 2^e <= R/2 and T1 2^e < m R: RR < 2m): big_lanes52_len_ok.  Returns 0,
 * or -1 if k or e is out of range (nothing written).  x, y:
 * BIG_LANES_WORDS(digits) words of scratch each, left dirty.  Constant
 * time in the moduli.
 */
int big_lanes52_mod_init(struct big_lanes52_mod *mod, int digits,
			 const BIG_CHUNK_TYPE *const m[BIG_LANES],
			 const BIG_CHUNK_TYPE *const rr[BIG_LANES], int len,
			 const struct big_lanes52_ops *ops, uint64_t *x,
			 uint64_t *y);

/* ---- a batch of CRT exponentiations (crt_batch52.c, crt_batch_impl.h) */
/*
 * big_modexp_crt_batch_ops's contract (lanes.h) in radix 2^52 through the
 * given build: operation i in lanes i (mod p) and 4 + i (mod q), up to
 * four operations; the unused lanes compute a copy of operation 0's
 * moduli on 0.  Also BIG_INVALID_ARGS where !big_lanes52_len_ok(len).
 * scratch: big_crt_batch52_scratch(len) bytes (big_crt_batch_scratch(len)
 * is never less), wiped before return.  No allocation.  Constant time in
 * every operation's a, dp, dq, p, q and pinv.  Results are written only
 * once every exponentiation is done.
 */
BIG_ERR_CODE big_modexp_crt_batch52_ops(const big_crt_batch_op *ops,
					int count,
					const struct big_lanes52_ops *lanes,
					void *scratch, size_t scratch_size);
size_t big_crt_batch52_scratch(int len);
/* 1 if big_modexp_crt_batch runs this batch in radix 2^52 where the IFMA
 * build is chosen: its first operation's primes are of one length that
 * big_crt_batch_len and big_lanes52_len_ok accept (a batch whose other
 * operations disagree is refused there as in radix 2^28). */
int big_crt_batch52_fits(const big_crt_batch_op *ops, int count);

#ifndef __cplusplus
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* BIGMONT_LANES52_H */
