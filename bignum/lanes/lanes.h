/*
 * bignum/lanes/lanes.h -- every contract of the lane layer, once.
 *
 * What it is.  Eight independent modular exponentiations at once, one per
 * 64-bit vector lane: lane l holds a number of its own, under a modulus,
 * a Montgomery constant and an exponent of its own; only the digit count
 * k is shared.  No carry, shuffle or product crosses lanes, so the eight
 * dependency chains of eight exponentiations run side by side.  RSA uses
 * it for a batch of private-key operations: lane = (operation, CRT half),
 * four operations x two halves of equal length (rsa/private_batch.c).
 *
 * Lane layout.  A lane number of k digits is BIG_LANES_WORDS(k) 64-bit
 * words: digit j of lane l at index
 *   BIG_LANES * j + l                       (BIG_LANES_AT(j, l)),
 * so one digit position of lanes 0..3 is one 256-bit vector (stream 0)
 * and of lanes 4..7 the next (stream 1); a digit of all eight lanes is
 * one 64-byte line.  Digits are radix 2^28, each < 2^28 when normalised.
 *
 * Why 2^28 and the carry-free sums.  The products are vpmuludq's: the low
 * 32 bits of two lanes multiplied to 64 bits.  A product of two digits is
 * below 2^56, so a 64-bit lane takes 2^8 of them before it can overflow.
 * The Montgomery product adds, into each column of its 2k-column
 * accumulator, at most k products a_i b_j and at most k products q_i m_j
 * (the squaring: at most k, counting a doubled cross product 2 a_i a_j as
 * two, and k reduction products), plus the carry of the column below,
 * which is below 2^(64 - 28) = 2^36:
 *   column < 2k (2^28 - 1)^2 + 2^36 < 2k * 2^56 + 2^36 <= 2^64  for k <= 127.
 * (The NASM squarings at 37 and 55 digits reach the same columns by one
 * level of Karatsuba, asm/x86_64/lanes_sqr_avx2.inc: digit sums below
 * 2^29, columns added and subtracted whole, exact mod 2^64.)
 * Every size this layer serves has k <= BIG_LANES_MAX_DIGITS = 76, under
 * 2^63.3 for a column; the RSA halves of 512, 1024, 1536 and 2048 bits
 * have k = 19, 37, 55, 74 (big_lanes_digits): 2k = 38 .. 148 products.
 * So the products add up with no carry until the end of a product, where
 * one pass over k columns brings every digit below 2^28.  The inputs of
 * every product must be normalised (the bound, and vpmuludq reads only
 * the low 32 bits).  The Montgomery digit q_i = (t_i k0) mod 2^28 needs
 * only the low 28 bits of the column t_i, so the low 32 bits vpmuludq
 * reads suffice.
 *
 * Almost-Montgomery form, as in radix52.h.  R = 2^(28k).  A product gives
 *   T = (a b + Y m) / R,   Y = (-a b m^-1) mod R,
 * without the final subtraction: with m < R/4 and a, b < 2m, T < 2m.
 * The exponentiation's last product (by 1) is <= m, equal to m only when
 * the power is 0 mod m; one masked subtraction makes it fully reduced.
 *
 * Builds of one algorithm (lanes_impl.h, macros at its top):
 *   _c       the twin, vectors as arrays of four uint64_t (vec_c.h,
 *            lanes_c.c): every build has it; the tests compare with it;
 *   _avx2    the same steps in AVX2 intrinsics (vec_avx2.h, lanes_avx2.c),
 *            in the x86-64 builds with the assembly kernels; callable
 *            only where big_lanes_cpu_has_avx2();
 *   _avx512  the same steps on zmm, all eight lanes one vector (one
 *            stream: vec_avx512.h, lanes_avx512.c), in the same builds;
 *            callable only where big_lanes_cpu_has_avx512().
 * Same digits, same steps: all return the same words for the same input.
 *
 * Constant time: every function runs in time that depends on k (and the
 * exponent word count) only; no branch and no address depends on a digit,
 * a modulus or an exponent bit of any lane.  Table entries are read by a
 * masked scan of all 32, each lane taking its own entry.
 */
#ifndef BIGMONT_LANES_H
#define BIGMONT_LANES_H

#include <stddef.h>
#include <stdint.h>

#include <bigmont/bignum.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __cplusplus /* as in bignum/internal.h */
#pragma GCC visibility push(hidden)
#endif

#define BIG_LANES 8
#define BIG_LANES_DIGIT_BITS 28
#define BIG_LANES_DIGIT_MASK ((UINT64_C(1) << 28) - 1)
/* 76 digits: 2128 bits, a 2048-bit half (k = 74) and the tests' margin. */
#define BIG_LANES_MAX_DIGITS 76
#define BIG_LANES_MIN_DIGITS 5
#define BIG_LANES_WORDS(k) ((size_t)BIG_LANES * (size_t)(k))
#define BIG_LANES_MAX_WORDS BIG_LANES_WORDS(BIG_LANES_MAX_DIGITS)
#define BIG_LANES_AT(j, l) (BIG_LANES * (j) + (l))
#define BIG_LANES_WINDOW 5
#define BIG_LANES_TABLE_ENTRIES (1 << BIG_LANES_WINDOW)

/*
 * The eight moduli.
 *   digits  k, BIG_LANES_MIN_DIGITS <= k <= BIG_LANES_MAX_DIGITS
 *   m       lane l: an odd modulus 1 < m_l < 2^(28k - 2) = R/4
 *   k0      lane l: -m_l^-1 mod 2^28
 *   rr      lane l: R^2 mod m_l, any representative below 2 m_l
 * Made by big_lanes_mod_init.  Secret in RSA: wiped by its owner.
 */
struct big_lanes_mod {
	uint64_t m[BIG_LANES_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t rr[BIG_LANES_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t k0[BIG_LANES] __attribute__((aligned(64)));
	int digits;
};

/*
 * Products, each lane under its own modulus:
 *   mul: r = a b / R (almost-Montgomery): the product, then the
 *        reduction, six rows a pass (lanes_impl.h);
 *   sqr: r = a a / R, the cross products once and doubled, then the
 *        reduction: the same value as mul(r, a, a).
 * Preconditions: a, b normalised lane numbers of mod->digits digits, each
 * lane below 2 m_l (below R suffices for the congruence).  r may equal a
 * and/or b; no partial overlap.  Postcondition: r normalised, each lane
 * below 2 m_l.  Constant time.
 */
typedef void big_lanes_mul_fn(uint64_t *r, const uint64_t *a,
			      const uint64_t *b,
			      const struct big_lanes_mod *mod);
typedef void big_lanes_sqr_fn(uint64_t *r, const uint64_t *a,
			      const struct big_lanes_mod *mod);

/*
 * The exponentiation:  out lane l = base_l ^ e_l mod m_l, fully reduced.
 * base: normalised, each lane below 2 m_l (plain, not Montgomery form).
 * e: lane l's exponent at e[l * ewords .. l * ewords + ewords), 64-bit
 * words little endian, ewords >= 1; every lane is scanned over all
 * 64 ewords bits.  mod->rr is read.  Window 5: a table of 32 powers per
 * lane, then per window 5 squarings, a masked scan of the table (each
 * lane its own entry) and one product; out of Montgomery form by a
 * product by 1 and a masked subtraction.  scratch:
 * big_lanes_pow_scratch(k) words, any 8-byte alignment (used from its
 * first 64-byte boundary), left dirty.  out must not overlap base, e or
 * scratch.  Constant time in base, e and m of every lane.
 */
typedef void big_lanes_pow_fn(uint64_t *out, const uint64_t *base,
			      const uint64_t *e, int ewords,
			      const struct big_lanes_mod *mod,
			      uint64_t *scratch);

static inline uint64_t *big_lanes_align64(uint64_t *scratch)
{
	return (uint64_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
}
/* A lane's exponent words (the pow's e): x[0..xlen) chunks as ewords
 * 64-bit words, little endian, zero above; ewords * 64 >= xlen *
 * BIG_CHUNK_SIZE. */
static inline void big_lanes_exponent_words(uint64_t *w, int ewords,
					    const BIG_CHUNK_TYPE *x, int xlen)
{
	for (int i = 0; i < ewords; i++)
		w[i] = 0;
	for (int i = 0; i < xlen; i++)
		w[i * BIG_CHUNK_SIZE / 64] |= (uint64_t)x[i]
					      << (i * BIG_CHUNK_SIZE % 64);
}
/* Bits pos .. pos + w - 1 of one lane's exponent words (pos public),
 * w < 64. */
static inline uint64_t big_lanes_window(const uint64_t *e, int ewords, int pos, int w)
{
	const int word = pos / 64, off = pos % 64;
	uint64_t v = e[word] >> off;
	if (off + w > 64 && word + 1 < ewords)
		v |= e[word + 1] << (64 - off);
	return v & ((UINT64_C(1) << w) - 1);
}
/* Every lane's window (big_lanes_window) into want[0 .. BIG_LANES), lane
 * l's exponent at e + l ewords. */
static inline void big_lanes_windows(uint64_t *want, const uint64_t *e, int ewords, int pos,
				     int w)
{
	for (int l = 0; l < BIG_LANES; l++)
		want[l] = big_lanes_window(e + (size_t)l * ewords, ewords, pos, w);
}
/* The table, the running power, the selected entry and 1. */
static inline size_t big_lanes_pow_scratch(int digits)
{
	return (size_t)(BIG_LANES_TABLE_ENTRIES + 3) * BIG_LANES_WORDS(digits) + 8;
}

#define BIG_LANES_DECLARE_BUILD(sfx)                                         \
	big_lanes_mul_fn big_lanes_mul_##sfx;                                \
	big_lanes_sqr_fn big_lanes_sqr_##sfx;                                \
	big_lanes_pow_fn big_lanes_pow_##sfx;

BIG_LANES_DECLARE_BUILD(c)
#if defined(__x86_64__) && BIGMONT_HAVE_ASM
#define BIG_LANES_HAVE_AVX2_BUILD 1
BIG_LANES_DECLARE_BUILD(avx2)
/*
 * At k = 19, 37, 55, 74 (RSA-1024, 2048, 3072 and 4096's halves) the avx2
 * build has two kernels of the same contract and the same words: its
 * intrinsics and the NASM kernels big_lanes_{mul,sqr}<k>_avx2_asm
 * (asm/x86_64/lanes_{mul,sqr}<k>_avx2.asm: mod->digits must be k).
 * big_lanes_mul_avx2 and _sqr_avx2 run the NASM ones at k where
 * big_lanes<k>_asm() is 1: bound once from the tuning table
 * (bignum/tuning.h: LANES19_ASM, LANES37_ASM, LANES55_ASM, LANES74_ASM) or
 * BIGMONT_TUNE (bignum/dispatch.c).  _intrin runs the intrinsics at every
 * k, _asm the NASM kernels at 19, 37, 55, 74 and the intrinsics elsewhere,
 * whatever the binding (the tests, the benchmark).
 */
big_lanes_mul_fn big_lanes_mul19_avx2_asm;
big_lanes_sqr_fn big_lanes_sqr19_avx2_asm;
big_lanes_mul_fn big_lanes_mul37_avx2_asm;
big_lanes_sqr_fn big_lanes_sqr37_avx2_asm;
big_lanes_mul_fn big_lanes_mul55_avx2_asm;
big_lanes_sqr_fn big_lanes_sqr55_avx2_asm;
big_lanes_mul_fn big_lanes_mul74_avx2_asm;
big_lanes_sqr_fn big_lanes_sqr74_avx2_asm;
big_lanes_mul_fn big_lanes_mul_avx2_intrin;
big_lanes_sqr_fn big_lanes_sqr_avx2_intrin;
big_lanes_mul_fn big_lanes_mul_avx2_asm;
big_lanes_sqr_fn big_lanes_sqr_avx2_asm;
__attribute__((visibility("default"))) int big_lanes19_asm(void);
__attribute__((visibility("default"))) int big_lanes37_asm(void);
__attribute__((visibility("default"))) int big_lanes55_asm(void);
__attribute__((visibility("default"))) int big_lanes74_asm(void);
/*
 * The NASM kernels leave their frame (the columns, the Montgomery digits,
 * the squaring's digit sums: up to 14,368 bytes below the rsp at
 * their call) and ymm0-15 holding secret-derived values.  big_lanes_avx2_wipe
 * (asm/x86_64/lanes_wipe_avx2.asm) zeroes the 16 KB below its own return
 * address, ymm0-15 and the caller-saved general registers: called from
 * the function that called the kernels, at the same stack depth, it
 * erases what they left.  big_lanes_pow_avx2 calls it before returning;
 * a caller of big_lanes_{mul,sqr}_avx2 or the kernels by name calls it
 * itself.
 */
void big_lanes_avx2_wipe(void);
/* The same over `bytes` (rounded up to 128) below its return address. */
void big_lanes_avx2_wipe_bytes(size_t bytes);
#define BIG_LANES_HAVE_AVX512_BUILD 1
BIG_LANES_DECLARE_BUILD(avx512)
/* What big_lanes_pow_avx512 zeroes below its return address before
 * returning, with zmm0-31 (big_r52_stack_wipe_ifma): the kernels' frames,
 * 21 KB for the product's entry point and 19 KB for the squaring's (their
 * 74-digit Karatsuba inlined), the sanitizers' deeper.  A caller of big_lanes_{mul,sqr}_avx512 by
 * name wipes as much itself. */
/* The frame sizes here and in lanes52.h and radix52/dual_ifma.c were
 * measured with GCC at -O2, as the presets build; any other compiler or
 * level (clang -O2 and GCC -O0 left secrets below these depths),
 * AddressSanitizer too, gets the deeper wipes. */
#if defined(__SANITIZE_ADDRESS__) || defined(__clang__) || !defined(__OPTIMIZE__)
#define BIG_LANES_FRAMES_UNMEASURED 1
#else
#define BIG_LANES_FRAMES_UNMEASURED 0
#endif
#if BIG_LANES_FRAMES_UNMEASURED
#define BIG_LANES_AVX512_WIPE_BYTES 49152
#else
#define BIG_LANES_AVX512_WIPE_BYTES 24576
#endif
#else
#define BIG_LANES_HAVE_AVX2_BUILD 0
#define BIG_LANES_HAVE_AVX512_BUILD 0
#endif

/* 1 if the CPU has AVX2 and the OS saves the YMM state; 1 if it has
 * AVX-512F and the OS saves the ZMM and opmask state (each bound once at
 * load: bignum/dispatch.c). */
__attribute__((visibility("default"))) int big_lanes_cpu_has_avx2(void);
__attribute__((visibility("default"))) int big_lanes_cpu_has_avx512(void);

/* pow2: two exponentiations at once (lanes52.h's big_lanes52_pow2_fn);
 * none of these builds has one (NULL: the caller runs pow twice). */
typedef void big_lanes_pow2_fn(uint64_t *const out[2], const uint64_t *const base[2],
			       const uint64_t *const e[2], int ewords,
			       const struct big_lanes_mod *const mod[2], uint64_t *const scratch[2]);
struct big_lanes_ops {
	big_lanes_mul_fn *mul;
	big_lanes_sqr_fn *sqr;
	big_lanes_pow_fn *pow;
	big_lanes_pow2_fn *pow2;
	const char *name;
};
#define BIG_LANES_OPS_INIT(sfx)                                              \
	{ big_lanes_mul_##sfx, big_lanes_sqr_##sfx, big_lanes_pow_##sfx, NULL, #sfx }

/*
 * The build the batch path runs (lanes_select.c): avx512 where this build
 * has it and the CPU can run it, else avx2 where it can, else c;
 * BIGMONT_BATCH=avx2 or c in the environment forces that one (avx2 only
 * where it runs; big_crt_batch_forced reads it).  Returns 1 if the batch
 * is worth running in lanes: avx512 or avx2, or c when forced (the
 * tests); 0 when only the twin is there unasked, which is slower than
 * single operations (callers then run singly).  Read at each call: the
 * choice is public and cheap beside the work.
 * The batch CRT asks big_lanes52_ops_choose (lanes52.h) first: radix
 * 2^52 on IFMA where the CPU has it, unless BIGMONT_BATCH is c, avx2 or
 * avx512.
 */
int big_lanes_ops_choose(struct big_lanes_ops *ops);

/* ---- sizes, conversion and the moduli (lanes.c) ---------------------- */
/* Digits for moduli of `bits` bits (rounded up to whole chunks by the
 * caller): the least k with 28k >= bits + 2 (m < R/4); 0 if that is not
 * within BIG_LANES_MIN_DIGITS .. BIG_LANES_MAX_DIGITS. */
int big_lanes_digits(int bits);
/* Both lane layers' conversions, for digits of `bits` bits (28 here, 52
 * in lanes52.h; at most 57): lane l of the lane number x (k digits) =
 * w[0..len) (chunks, little endian); bits of w at and above bits * k
 * must be zero (not checked); digits past w are zero; other lanes
 * untouched.  And w[0..len) = lane l of x (k digits, each the low `bits`
 * bits of its word: lanes52.h's digit form), bits past len chunks
 * dropped.  Constant time. */
void big_lanes_digits_from_chunks(uint64_t *x, int l, int k, int bits,
				  const BIG_CHUNK_TYPE *w, int len);
void big_lanes_digits_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x,
				int l, int k, int bits);
/* y (k digits of `bits` bits) = 2^e in every lane, 0 <= e < bits * k: the
 * second factor of both layers' R^2 (the *_mod_init below). */
void big_lanes_set_pow2(uint64_t *y, int k, long e, int bits);
/* big_lanes_digits_from_chunks and _to_chunks at 28 bits. */
void big_lanes_from_chunks(uint64_t *x, int l, int k, const BIG_CHUNK_TYPE *w,
			   int len);
void big_lanes_to_chunks(BIG_CHUNK_TYPE *w, int len, const uint64_t *x, int l,
			 int k);
/*
 * *mod for k = digits from lane l's modulus m[l] (len chunks, odd > 1,
 * below 2^(28k - 2)) and rr[l] = 2^(2 B) mod m[l] with B = len *
 * BIG_CHUNK_SIZE (below m[l], as big_mont_rr gives), R^2 mod m from it by
 * two almost-Montgomery products through ops->mul, with no division:
 *   T1 = AMM(rr, rr) = 2^(4B - 28k),  RR = AMM(T1, 2^e) = 2^(56k),
 * e = 112k - 4B, which needs 0 <= e < 28k (so 2^e <= R/2 and T1 2^e < m R:
 * RR < 2m): B <= 28k < 4B/3, true for k = big_lanes_digits(B) and B >= 140.
 * Returns 0, or -1 if e is out of that range (nothing written).  x, y:
 * BIG_LANES_WORDS(digits) words of scratch each, left dirty.  Constant
 * time in the moduli.
 */
int big_lanes_mod_init(struct big_lanes_mod *mod, int digits,
		       const BIG_CHUNK_TYPE *const m[BIG_LANES],
		       const BIG_CHUNK_TYPE *const rr[BIG_LANES], int len,
		       const struct big_lanes_ops *ops, uint64_t *x,
		       uint64_t *y);
/* -m0^-1 mod 2^64 of an odd m0, by Newton's iteration: x = m0 is right to
 * 3 bits (odd squares are 1 mod 8), each step doubles that.  The lane
 * layers' k0 are its low digit. */
static inline uint64_t big_lanes_neg_inverse64(uint64_t m0)
{
	uint64_t x = m0;
	for (int i = 0; i < 5; i++)
		x *= 2 - m0 * x;
	return 0 - x;
}
/* -m^-1 mod 2^28 of an odd m0 (the low word of m). */
uint64_t big_lanes_k0(uint64_t m0);

/* ---- a batch of CRT exponentiations (crt_batch.c, crt_batch_impl.h) -- */
/*
 * big_modexp_crt_batch (<bigmont/bignum.h>) through the given build, for
 * the tests and the benchmark.
 * Up to four CRT exponentiations in one lane exponentiation: operation i
 * takes lanes i (mod p) and 4 + i (mod q); the unused lanes of a smaller
 * batch compute a copy of operation 0's moduli on 0.  count 1..4; every
 * operation's p, q of len = big_crt_batch_len chunks, the same len for
 * all; a->len <= 2 len + 1, dp->len, dq->len, pinv->len <= len (zero-
 * padded to those, so a trimmed value costs the same).  result->len is 2
 * len, untrimmed, as big_modexp_crt's.  scratch: big_crt_batch_scratch(len)
 * bytes, wiped before return.  No allocation.  Constant time in every
 * operation's a, dp, dq, p, q and pinv.  Errors (BIG_INVALID_ARGS: count
 * or lengths out of range, a result too small) leave every result as it
 * was; results are written only once every exponentiation is done.
 */
BIG_ERR_CODE big_modexp_crt_batch_ops(const big_crt_batch_op *ops, int count,
				      const struct big_lanes_ops *lanes,
				      void *scratch, size_t scratch_size);

#ifndef __cplusplus
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* BIGMONT_LANES_H */
