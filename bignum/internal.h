/*
 * bignum/internal.h -- every internal contract of the bignum library, once.
 *
 * Kernels.  Each hot kernel exists in up to three builds with one
 * contract: `<name>_c` (portable C, bignum/generic/<name>.c), `<name>_base`
 * (baseline x86-64 mul/adc, asm/x86_64/<name>_base.asm) and `<name>_adx`
 * (BMI2+ADX mulx/adcx/adox, asm/x86_64/<name>_adx.asm); which variant
 * binds which is BIG_CPU_VARIANTS below, the one list of the variants.
 * The public name (e.g. big_mul_add_vec) is a GNU ifunc bound once at
 * load time (bignum/dispatch.c); tests call the builds by their own names.
 *
 * Sizes are chunk counts in `int`; a kernel handles its own edge cases
 * (len == 0 where allowed, len == 1) and callers do not guard for them.
 * Assembly sign-extends every `int len` (movsxd) before using it.
 *
 * Constant time: the Montgomery kernels (big_mont_mul_vec, big_mont_sqr_vec)
 * and the vector primitives run in time that depends on len only, never on
 * the values of their operands (no value-dependent branch or address).
 */
#ifndef BIGMONT_INTERNAL_H
#define BIGMONT_INTERNAL_H

#include <bigmont/bignum.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's internal names bind inside whatever module links the
 * archives: a consumer's shared object calls them and takes their
 * addresses directly, not through its PLT and GOT, which its ifunc
 * resolvers (bignum/dispatch.c) run before the dynamic linker has
 * filled.  The public headers keep their names visible, and so do the
 * names an ifunc binds (declared with visibility "default"): their GOT
 * entries are filled by calling their resolvers, and aarch64's linker
 * cannot take a hidden ifunc's address.  C only: the library is C, and
 * C++ (the tests) would make its types hidden too. */
#ifndef __cplusplus
#pragma GCC visibility push(hidden)
#endif

typedef BIG_CHUNK_TYPE chunk_t;
typedef BIG_CHUNK_DOUBLE_TYPE dchunk_t;

/* ---- kernel signatures: the one definition dispatch, bench and tests use */
/* big_mul_set_vec, big_mul_add_vec (contracts in bignum.h). */
typedef chunk_t big_mul_row_fn(chunk_t *r, const chunk_t *a, int len,
			       chunk_t digit);
/* big_mul_vec (bignum.h). */
typedef void big_mul_vec_fn(chunk_t *r, const chunk_t *a, int alen,
			    const chunk_t *b, int blen);
/* big_sqr_vec (bignum.h). */
typedef void big_sqr_vec_fn(chunk_t *r, const chunk_t *a, int len);
/* big_mont_mul_vec, big_mont_sqr_vec (bignum.h). */
typedef void big_mont_mul_vec_fn(chunk_t *r, const chunk_t *a,
				 const chunk_t *b, const chunk_t *n, chunk_t n0,
				 int len);
typedef void big_mont_sqr_vec_fn(chunk_t *r, const chunk_t *a,
				 const chunk_t *n, chunk_t n0, int len);

/* ---- the kernel variants: the one list --------------------------------- */
/*
 * BIG_CPU_VARIANTS(X, arg) calls X(arg, VARIANT, "name", sfx, here) for
 * every variant, weakest first:
 *   VARIANT  its enum big_cpu_variant, BIG_CPU_<VARIANT>;
 *   "name"   what BIGMONT_CPU and big_cpu_variant_name() call it;
 *   sfx      the suffix of the chunk kernels it binds (<kernel>_<sfx>):
 *            ifma binds adx's, and adds the radix-2^52 paths
 *            (radix52/radix52.h);
 *   here     1 if this build has those kernels (BIGMONT_HAVE_ASM for the
 *            assembly ones), for BIG_IF;
 *   arg      the caller's, passed through (dispatch.c: the kernel).
 * The enum below, the declarations of the kernels, dispatch.c's names and
 * resolvers, and the walks over the variants in bench/mont_kernels.c,
 * tests/test_mont_kernels.cpp, tests/test_asm_unwind.cpp and
 * tests/fuzz/fuzz_arith.cpp are all made from it: a variant is added here.
 */
#ifndef BIGMONT_HAVE_ASM
#define BIGMONT_HAVE_ASM 0 /* as #if reads it undefined */
#endif
#define BIG_CPU_VARIANTS(X, arg)                                             \
	X(arg, C, "c", c, 1)                                                 \
	X(arg, BASELINE, "baseline", base, BIGMONT_HAVE_ASM)                 \
	X(arg, ADX, "adx", adx, BIGMONT_HAVE_ASM)                            \
	X(arg, IFMA, "ifma", adx, BIGMONT_HAVE_ASM)

/* BIG_IF(flag, ...): the tokens if flag is 1, nothing if 0 (flag may be a
 * macro, e.g. BIGMONT_HAVE_ASM). */
#define BIG_IF(flag, ...) BIG_IF_(flag, __VA_ARGS__)
#define BIG_IF_(flag, ...) BIG_IF_##flag(__VA_ARGS__)
#define BIG_IF_0(...)
#define BIG_IF_1(...) __VA_ARGS__

/* Every variant's kernels that this build has (ifma repeats adx's
 * declarations, which C allows). */
#define BIG_DECLARE_KERNELS(arg, V, name, sfx, here)                        \
	BIG_IF(here,                                                         \
	       big_mul_row_fn big_mul_set_vec_##sfx, big_mul_add_vec_##sfx;  \
	       big_mul_vec_fn big_mul_vec_##sfx;                             \
	       big_sqr_vec_fn big_sqr_vec_##sfx;                             \
	       big_mont_mul_vec_fn big_mont_mul_vec_##sfx;                   \
	       big_mont_sqr_vec_fn big_mont_sqr_vec_##sfx;)
BIG_CPU_VARIANTS(BIG_DECLARE_KERNELS, )
#undef BIG_DECLARE_KERNELS

/* big_mont_mul_vec, big_mont_sqr_vec: the fused Montgomery kernels, public
 * (contract in bignum.h) so the RSA layer can keep its blinding pair in
 * Montgomery form; the typedefs above type-check the public declarations.
 * Why b may be >= n: CIOS rows add a * b[i], the product-then-reduce forms
 * need a * b < n R; big_mont_reduce_ct passes unreduced blocks as b. */
big_mont_mul_vec_fn big_mont_mul_vec;
big_mont_sqr_vec_fn big_mont_sqr_vec;
#if BIGMONT_HAVE_ASM
/* big_mont_mul_vec_adx with the product by rows at len 16 where _adx
 * has Karatsuba's (asm/x86_64/mont_mul_vec_adx.asm); same contract. */
big_mont_mul_vec_fn big_mont_mul_vec_adx_rows16;
#endif
/* 1 where the adx variant's product at 16 chunks is Karatsuba's, bound
 * at load time (bignum/tuning.h, MONT_MUL16_KARATSUBA), else 0. */
__attribute__((visibility("default"))) int big_mont_mul16_karatsuba(void);

/*
 * Constant-time table read (bignum/ct_select.c):
 *
 *   out[0..len) = table[index * len .. index * len + len)
 *
 * reading all `entries` entries of len chunks each, whatever index is.
 * Preconditions: 1 <= entries <= 64, index < entries, len >= 1; out does
 * not overlap the table.  Time and addresses depend on entries and len
 * only.  big_ct_select is an ifunc bound once at load time: the AVX-512VL
 * build where the tuning table binds it (SELECT_VL, below), else the AVX2
 * build where the CPU and the OS support it, else the portable one;
 * BIGMONT_CPU does not change it (it is C in every build).
 */
typedef void big_ct_select_fn(chunk_t *out, const chunk_t *table, int entries,
			      chunk_t index, int len);
__attribute__((visibility("default"))) big_ct_select_fn big_ct_select;
void big_ct_select_c(chunk_t *out, const chunk_t *table, int entries,
		     chunk_t index, int len);
#if defined(__x86_64__)
void big_ct_select_avx2(chunk_t *out, const chunk_t *table, int entries,
			chunk_t index, int len);
/* The AVX-512VL build on ymm: only where big_ct_select_can_vl(). */
void big_ct_select_vl(chunk_t *out, const chunk_t *table, int entries,
		      chunk_t index, int len);
#endif
/* Whether the CPU and the OS run the AVX2 build (big_ct_select is bound
 * to it there unless to the AVX-512VL one). */
int big_ct_select_uses_avx2(void);
/* Whether they run the AVX-512VL builds (AVX512F and AVX512VL, the opmask
 * and ZMM states saved), and whether big_ct_select and the fused squaring
 * are bound to them: there, where the tuning table (SELECT_VL) or
 * BIGMONT_TUNE says so. */
int big_ct_select_can_vl(void);
int big_ct_select_uses_vl(void);

/*
 * A Montgomery squaring and a table read in one call (bound in
 * bignum/dispatch.c, which has _separate too):
 *
 *   r[0..len)   = a * a * 2^(-BIG_CHUNK_SIZE*len) mod n   (big_mont_sqr_vec)
 *   sel[0..len) = table[index * len .. index * len + len)  (big_ct_select)
 *
 * Each result under its own function's contract, and the same
 * constant-time guarantees; in addition sel must not overlap r, a, n or
 * the table, and r must not overlap the table.  The dispatched name is
 * bound once at load time: _adx where the variant is adx and the CPU has
 * AVX2 (asm/x86_64/mont_sqr_select_vec_adx.asm: one pass at 8 chunks and
 * 32 entries, _separate for the other shapes), or _adx_vl there where the
 * tuning table says so, else _separate (the two dispatched calls).
 */
typedef void big_mont_sqr_select_fn(chunk_t *r, const chunk_t *a,
				    const chunk_t *n, chunk_t n0, int len,
				    chunk_t *sel, const chunk_t *table,
				    int entries, chunk_t index);
__attribute__((visibility("default"))) big_mont_sqr_select_fn big_mont_sqr_select_vec;
big_mont_sqr_select_fn big_mont_sqr_select_vec_separate;
#if BIGMONT_HAVE_ASM
big_mont_sqr_select_fn big_mont_sqr_select_vec_adx;
/* The same with the read in AVX-512VL on ymm: only where
 * big_ct_select_can_vl(). */
big_mont_sqr_select_fn big_mont_sqr_select_vec_adx_vl;
#endif
/* Whether big_mont_sqr_select_vec is bound to an adx build (for reports),
 * and whether to the AVX-512VL one (there and where
 * big_ct_select_uses_vl()). */
int big_mont_sqr_select_uses_adx(void);
int big_mont_sqr_select_uses_vl(void);

/* ---- kernel variant choice (bignum/dispatch.c) ------------------------- */
/* BIG_CPU_C = 0 .. BIG_CPU_IFMA, in BIG_CPU_VARIANTS' order: a variant
 * runs where the best one is at least it. */
#define BIG_CPU_ENUM(arg, V, name, sfx, here) BIG_CPU_##V,
enum big_cpu_variant { BIG_CPU_VARIANTS(BIG_CPU_ENUM, ) BIG_CPU_VARIANT_COUNT };
#undef BIG_CPU_ENUM
/* The variant to bind: BIGMONT_CPU if set, valid and runnable here, else
 * the best one this CPU and build support.  Safe to call from an ifunc
 * resolver: it uses only cpuid and raw system calls, no libc. */
enum big_cpu_variant big_cpu_choose(void);
/* The best variant this CPU and build support, ignoring BIGMONT_CPU. */
enum big_cpu_variant big_cpu_best(void);
/* big_cpu_choose()'s answer, bound once at load time (an ifunc): for the
 * choices made per call, which must not read the environment each time. */
__attribute__((visibility("default"))) enum big_cpu_variant big_cpu_bound(void);

/* ---- small helpers ------------------------------------------------------ */
/* A window width for an exponent of ebits bits (a public length): 3, 4, 5
 * or 6 above above[0], above[1], above[2], above[3] (ascending: where each
 * width starts to pay, the caller's cost model), else narrow. */
static inline int big_window_width(int ebits, const int above[4], int narrow)
{
	int w = narrow;
	for (int i = 0; i < 4; i++)
		if (ebits > above[i])
			w = 3 + i;
	return w;
}

/* All-ones if x != 0, else 0, without a branch. */
static inline chunk_t big_ct_mask_nonzero(chunk_t x)
{
	return (chunk_t)0 - (chunk_t)((x | ((chunk_t)0 - x)) >> (BIG_CHUNK_SIZE - 1));
}

/* Length of a without high zero chunks (>= 1; 1 for zero or len 0). */
static inline int big_trimmed_len(const BIGNUM *a)
{
	int l = a->len;
	while (l > 1 && a->value[l - 1] == 0)
		l--;
	return l < 1 ? 1 : l;
}

/* Significant chunks of |a|: 0 for zero (any len, len 0 included). */
static inline int big_sig_len(const BIGNUM *a)
{
	if (a->len < 1)
		return 0;
	const int len = big_trimmed_len(a);
	return (len == 1 && a->value[0] == 0) ? 0 : len;
}

/* r->len = len less r's high zero chunks (zero for len < 1, writing
 * value[0]); a zero result gets sign 1.  r has at least one chunk. */
static inline void big_normalise(BIGNUM *r, int len)
{
	while (len > 1 && r->value[len - 1] == 0)
		len--;
	if (len < 1) {
		r->value[0] = 0;
		len = 1;
	}
	r->len = len;
	if (len == 1 && r->value[0] == 0)
		r->sign = 1;
}

/* r[0..rlen) = a[0..alen) zero-padded; alen <= rlen (alen <= 0: all
 * zero, a is not read).  r and a do not overlap.  Time depends on the
 * lengths only. */
static inline void big_copy_pad_vec(chunk_t *r, int rlen, const chunk_t *a,
				    int alen)
{
	int j = 0;
	for (; j < alen; j++)
		r[j] = a[j];
	for (; j < rlen; j++)
		r[j] = 0;
}

/* ---- C vector routines (bignum/generic/<name>.c) -------------------------
 * Portable C only: no asm variant, no dispatch.  Loops run over the given
 * lengths whatever the values (constant time); no value-dependent branch
 * or address.  An output may equal an input where the contract says so
 * (the same start: each chunk is read before the same chunk is written),
 * and must not overlap it otherwise.
 */
/* r[0..alen) = a[0..alen) + b[0..blen) mod B^alen; returns the carry out
 * (0 or 1).  alen >= blen >= 0.  r may equal a or b. */
chunk_t big_add_vec(chunk_t *r, const chunk_t *a, int alen, const chunk_t *b,
		    int blen);
/* r[0..alen) = a[0..alen) - b[0..blen) mod B^alen; returns the borrow out
 * (0 or 1).  alen >= blen >= 0.  r may equal a or b. */
chunk_t big_sub_vec(chunk_t *r, const chunk_t *a, int alen, const chunk_t *b,
		    int blen);
/* One conditional subtraction: r[0..len) = (top:t) - n if (top:t) >= n,
 * else (top:t), chosen by a mask.  (top:t) = top*B^len + t[0..len) < 2n,
 * top in {0, 1}, 1 <= len <= BIG_MAX_MODULUS_CHUNKS.  r may equal t and
 * must not overlap n.  The last step of every Montgomery product in C and
 * of a modular sum. */
void big_sub_if_ge_vec(chunk_t *r, const chunk_t *t, chunk_t top,
		       const chunk_t *n, int len);
/* r[0..len) = (a - b) mod n for a, b < n: a subtraction and an add-back of
 * n under the borrow's mask.  len >= 1; r may equal a or b, must not
 * overlap n. */
void big_sub_mod_vec(chunk_t *r, const chunk_t *a, const chunk_t *b,
		     const chunk_t *n, int len);
/*
 * r[0..len) += a[0..len) * d; returns the carry chunk: the row every C
 * product kernel is made of (big_mul_add_vec_c, big_mont_mul_vec_c's
 * a*b[i] pass, big_mont_sqr_vec_c's triangle and REDC rows).  len >= 0; r
 * and a do not overlap.  a[i]*d + r[i] + carry <= (B-1)^2 + 2(B-1) =
 * B^2 - 1, so the double-chunk sum never overflows.  Inline, not a file
 * of its own, for the reason big_sqr_diag_vec below is: it runs once per
 * row of the Montgomery kernels, where the loop must stay in the caller.
 */
static inline chunk_t big_mul_add_row(chunk_t *r, const chunk_t *a, int len, chunk_t d)
{
	chunk_t carry = 0;
	for (int i = 0; i < len; i++) {
		const dchunk_t p = (dchunk_t)a[i] * d + r[i] + carry;
		r[i] = (chunk_t)p;
		carry = (chunk_t)(p >> BIG_CHUNK_SIZE);
	}
	return carry;
}
/*
 * The second half of a schoolbook square (big_sqr_vec_c and
 * big_mont_sqr_vec_c): on entry r[0..2*len) holds the off-diagonal sum,
 * sum over i < j of a[i]*a[j] B^(i+j); on exit r = a^2 = 2*r + sum of
 * a[i]^2 B^(2i).  len >= 1; r does not overlap a.  Inline, not a file
 * of its own: it runs once per squaring in the C kernels, where a call
 * cost about 0.5% of an RSA-1024 private operation (callgrind instruction
 * count).
 *
 * The doubling is a one-bit shift across all 2 len chunks.  Each diagonal
 * step adds a two-chunk square and a carry (0 or 1) to two chunks of r: lo
 * = r[2i] + low(sq) + carry <= 2B - 1 and hi = r[2i+1] + high(sq) +
 * high(lo) <= (B-1) + (B-2) + 1, so the carry stays 0 or 1; the total is
 * a^2 < B^(2 len), so none leaves the top.
 */
static inline void big_sqr_diag_vec(chunk_t *r, const chunk_t *a, int len)
{
	chunk_t carry = 0;
	for (int i = 0; i < 2 * len; i++) {
		const chunk_t w = r[i];
		r[i] = (w << 1) | carry;
		carry = w >> (BIG_CHUNK_SIZE - 1);
	}
	carry = 0;
	for (int i = 0; i < len; i++) {
		const dchunk_t sq = (dchunk_t)a[i] * a[i];
		const dchunk_t lo = (dchunk_t)r[2 * i] + (chunk_t)sq + carry;
		r[2 * i] = (chunk_t)lo;
		const dchunk_t hi = (dchunk_t)r[2 * i + 1] +
				    (chunk_t)(sq >> BIG_CHUNK_SIZE) +
				    (chunk_t)(lo >> BIG_CHUNK_SIZE);
		r[2 * i + 1] = (chunk_t)hi;
		carry = (chunk_t)(hi >> BIG_CHUNK_SIZE);
	}
}

/* ---- BIGNUM <-> chunk vectors (bignum/vec.c) ----------------------------- */
/* r[0..len) = |x| zero-padded (x->len 0 reads as zero).  BIG_INVALID_ARGS,
 * r partly written, if x has a non-zero chunk at or past len.  Time
 * depends on the lengths only, except that a refusal returns at the first
 * such chunk. */
BIG_ERR_CODE big_load_vec(chunk_t *r, int len, const BIGNUM *x);
/* r = v[0..len), sign 1, r->len = len: NOT trimmed (the caller trims where
 * it may branch on the value).  r grows as needed (BIG_NO_MEM leaves it
 * untouched); v must not lie in r's chunks. */
BIG_ERR_CODE big_store_vec(BIGNUM *r, const chunk_t *v, int len);

/* ---- Montgomery pieces on chunk vectors (bignum/mont*.c, modexp*.c) ------
 * Shared by the exponentiations (big_modexp, big_modexp_ct, big_modexp_crt,
 * big_modexp_ct_base) and the BIGNUM-level products (big_mont_mul,
 * big_mod_mul).
 */
/* BIG_OK and *len = n's trimmed length if n is a modulus the Montgomery
 * code accepts: odd, > 1, at most BIG_MAX_MODULUS_CHUNKS chunks; else
 * BIG_INVALID_ARGS.  Variable time (n is public). */
BIG_ERR_CODE big_check_modulus(const BIGNUM *n, int *len);

/* The start of a product or power mod n on fixed-length vectors
 * (big_mont_mul, big_mod_mul, big_modexp_ct_base; bignum/mont.c):
 * n checked by big_check_modulus, *len its trimmed length (0 when n is
 * refused), then vecs[i][0..*len) = nums[i] by big_load_vec for i <
 * count, in order.  BIG_OK, or the first error (the vectors before it
 * loaded). */
BIG_ERR_CODE big_load_mod_vecs(int *len, const BIGNUM *n, int count,
			       chunk_t *const vecs[], const BIGNUM *const nums[]);

/* result = B^(2*len) mod n (B = 2^BIG_CHUNK_SIZE): R^2 for a Montgomery
 * radix of `len` chunks, len >= n's trimmed length.  n odd > 1.  Variable
 * time (divides): a per-key precomputation. */
BIG_ERR_CODE big_mont_rr_len(BIGNUM *result, const BIGNUM *n, int len);

/* rr[0..len) = R^2 mod n for R = B^len: the caller's `given` (loaded with
 * big_load_vec: BIG_INVALID_ARGS if it has more than len chunks), or, when
 * given is NULL, computed by big_mont_rr_len (allocates, divides: variable
 * time in n, which is public). */
BIG_ERR_CODE big_mont_rr_vec(chunk_t *rr, const BIGNUM *given, const BIGNUM *n,
			     int len);

/*
 * The frame of an exponentiation on one modulus (big_modexp,
 * big_modexp_ct; bignum/modexp_frame.c).  big_modexp_open checks n
 * (big_check_modulus), then makes one allocation of vectors * len chunks
 * (len = n's trimmed length), plus alen - len more when alen > len (room
 * for an alen-chunk operand where a len-chunk vector would do; alen 0 for
 * none), and puts R^2 mod n (n_rr, or computed: big_mont_rr_vec) in its
 * first len chunks and 1 in the next len; vectors >= 2.  BIG_OK, or the
 * error with nothing left allocated.  big_modexp_close wipes the scratch
 * and frees it.
 */
struct big_modexp_frame {
	int len;          /* n's trimmed length */
	chunk_t n0;       /* big_n0(n[0]) */
	chunk_t *scratch; /* R^2 mod n, 1, then the caller's vectors */
	size_t total;     /* chunks in scratch */
};
BIG_ERR_CODE big_modexp_open(struct big_modexp_frame *f, const BIGNUM *n,
			     const BIGNUM *n_rr, int vectors, int alen);
void big_modexp_close(struct big_modexp_frame *f);

/*
 * out[0..len) = x * R^k mod n, fully reduced, for x of any length xlen >= 1
 * (R = B^len), with k = 1 if to_mont (Montgomery form) else k = 0 (plain
 * residue).  rr = R^2 mod n as len chunks (< n); n0 = big_n0(n[0]); n odd,
 * n > 1, n < B^len.  out must not overlap x.  Constant time in the values
 * of x and n (ceil(xlen/len) blocks of len chunks taken in by Montgomery
 * products by rr and masked modular sums, a count fixed by xlen and len):
 * no division.
 */
void big_mont_reduce_ct(chunk_t *out, const chunk_t *x, int xlen,
			const chunk_t *n, chunk_t n0, const chunk_t *rr,
			int len, int to_mont);
/* out[0..len) = x mod n, fully reduced, for x of 2 len chunks below n R
 * (R = B^len): a CRT input a < pq reduced modulo the prime p where q <
 * R, that is q no longer than p in chunks.  One Montgomery reduction of
 * x (len rows of big_mul_add_vec, x R^-1 below 2n, a masked subtraction)
 * and one product by rr: about 1.5 products where big_mont_reduce_ct
 * takes 4.  rr, n0, n as there.  A larger x gives a wrong residue (and
 * nothing worse).  out must not overlap x.  Constant time in x and n. */
void big_mont_reduce_below_ct(chunk_t *out, const chunk_t *x, const chunk_t *n,
			      chunk_t n0, const chunk_t *rr, int len);
/* out[0..len) = x mod n, fully reduced, for a CRT value x (an input or a
 * result, below pq) of xlen chunks, n one of primes p, q of len chunks
 * each: big_mont_reduce_below_ct where xlen is 2 len (then x < pq < n R),
 * else big_mont_reduce_ct's blocks (any x).  The choice follows the
 * lengths alone. */
void big_mont_reduce_crt_ct(chunk_t *out, const chunk_t *x, int xlen, const chunk_t *n,
			    chunk_t n0, const chunk_t *rr, int len);

/* Digits of the radix-2^52 CRT path for primes of lp and lq chunks in
 * the variant bound here, 0 for the radix-2^64 one (bignum/modexp_crt.c,
 * where the choice is made). */
int big_crt_r52_digits(int lp, int lq);

/* acc[0..len) = x^e mod n, fully reduced, by left-to-right square and
 * multiply on the radix-2^64 kernels (bignum/modexp_ct_base.c): ebits =
 * big_bitlength(e), public, decides the products; constant time in x
 * (any len-chunk value, even >= n: the first product takes rr, reduced)
 * and n.  rr = R^2 mod n, clobbered (it becomes 1); xm: len chunks of
 * scratch, left holding x R mod n.  acc overlaps nothing. */
void big_pow_public_vec(chunk_t *acc, const chunk_t *x, chunk_t *rr, const BIGNUM *e,
			int ebits, const chunk_t *nv, chunk_t n0, int len, chunk_t *xm);

/* big_modexp_crt (bignum/modexp_crt.c) with the two exponentiations done
 * by big_crt_r52_pow through `ops` (radix52/radix52.h), whatever the
 * variant: for the tests.  BIG_INVALID_ARGS where big_r52_crt_digits(
 * p->len, q->len) is 0.  64-bit chunks only. */
struct big_r52_ops;
BIG_ERR_CODE big_modexp_crt_r52(BIGNUM *result, const BIGNUM *a,
				const BIGNUM *dmodpminus1,
				const BIGNUM *dmodqminus1, const BIGNUM *p,
				const BIGNUM *q, const BIGNUM *pinvmodq,
				const BIGNUM *p_rr, const BIGNUM *q_rr,
				const struct big_r52_ops *ops);

/* big_modexp_crt with m_p and m_q from the vertical AVX2 dual
 * exponentiation (bignum/vertical/), whatever the variant and the tuning:
 * for the tests.  BIG_INVALID_ARGS where it cannot serve: p->len !=
 * q->len, a length other than 24 and 32 chunks, a build without the
 * vertical layer (vertical.h) or a CPU without AVX2. */
BIG_ERR_CODE big_modexp_crt_vertical(BIGNUM *result, const BIGNUM *a,
				     const BIGNUM *dmodpminus1,
				     const BIGNUM *dmodqminus1, const BIGNUM *p,
				     const BIGNUM *q, const BIGNUM *pinvmodq,
				     const BIGNUM *p_rr, const BIGNUM *q_rr);

/* big_modexp_crt_vertical on the zmm kernels (bignum/vertical/
 * dual_avx512.c), whatever the tuning: for the tests.  BIG_INVALID_ARGS
 * where big_modexp_crt_vertical gives it or the CPU lacks AVX-512F. */
BIG_ERR_CODE big_modexp_crt_vertical_zmm(BIGNUM *result, const BIGNUM *a,
					 const BIGNUM *dmodpminus1,
					 const BIGNUM *dmodqminus1, const BIGNUM *p,
					 const BIGNUM *q, const BIGNUM *pinvmodq,
					 const BIGNUM *p_rr, const BIGNUM *q_rr);

/* big_modexp_crt with m_p and m_q from big_crt_exp_mod_primes side by
 * side, whatever the tuning: for the tests.  BIG_INVALID_ARGS where
 * p->len != q->len. */
BIG_ERR_CODE big_modexp_crt_paired(BIGNUM *result, const BIGNUM *a,
				   const BIGNUM *dmodpminus1,
				   const BIGNUM *dmodqminus1, const BIGNUM *p,
				   const BIGNUM *q, const BIGNUM *pinvmodq,
				   const BIGNUM *p_rr, const BIGNUM *q_rr);

/* out = a^d mod m (len chunks, below m), a of alen chunks (any length),
 * d of dlen chunks, rr = R^2 mod m: one of big_modexp_crt's radix-2^64
 * exponentiations (modexp_crt.c).  work: 4 len +
 * big_mont_pow_ct_scratch(len, dlen) chunks.  Constant time in a, d, m. */
void big_crt_exp_mod_prime(chunk_t *out, const chunk_t *av, int alen,
			   const chunk_t *dv, int dlen, const chunk_t *mv,
			   const chunk_t *rr, int len, chunk_t *work);
/* count (1 or 2) of big_crt_exp_mod_prime, out[k] = a^dv[k] mod mv[k],
 * the exponentiations side by side (big_mont_pow_ct_halves), each of
 * len-chunk modulus and dlen-chunk exponent.  work: count times
 * (4 len + big_mont_pow_ct_scratch(len, dlen)) chunks. */
void big_crt_exp_mod_primes(chunk_t *const *out, const chunk_t *av, int alen,
			    const chunk_t *const *dv, int dlen, const chunk_t *const *mv,
			    const chunk_t *const *rr, int len, int count, chunk_t *work);

/* Fixed window width for an exponent of ebits bits (public length). */
int big_mont_pow_ct_window(int ebits);
/* Scratch chunks big_mont_pow_ct needs for modulus len and exponent
 * elen chunks: len times big_mont_pow_ct_scratch(1, elen) (big_modexp_ct
 * counts it in modulus-length vectors). */
size_t big_mont_pow_ct_scratch(int len, int elen);
/*
 * out[0..len) = base^e in Montgomery form: base_m = base*R mod n (< n),
 * one_m = R mod n, e = e[0..elen) (elen >= 1, every window of all elen
 * chunks is processed, whatever e's value).  Constant time in base, e and
 * n: fixed window, table read by a masked scan of every entry, products
 * through big_mont_mul_vec / big_mont_sqr_vec.  scratch holds
 * big_mont_pow_ct_scratch(len, elen) chunks (left dirty: the caller wipes
 * it).  out must not overlap the other arguments.
 */
void big_mont_pow_ct(chunk_t *out, const chunk_t *base_m, const chunk_t *e,
		     int elen, const chunk_t *n, chunk_t n0,
		     const chunk_t *one_m, int len, chunk_t *scratch);
/* big_mont_pow_ct with the window's last squaring and table read by
 * sqr_select (big_mont_pow_ct passes big_mont_sqr_select_vec): for the
 * benchmark, which times the builds of that call side by side. */
void big_mont_pow_ct_using(chunk_t *out, const chunk_t *base_m, const chunk_t *e,
			   int elen, const chunk_t *n, chunk_t n0,
			   const chunk_t *one_m, int len, chunk_t *scratch,
			   big_mont_sqr_select_fn *sqr_select);

/* 1 where the tuning table (CRT_PAIRED8, bignum/tuning.h) or BIGMONT_TUNE
 * has big_modexp_crt run its radix-2^64 exponentiations side by side
 * (big_crt_exp_mod_primes) for primes of 8 chunks each, else 0. */
__attribute__((visibility("default"))) int big_crt_paired8_tuned(void);

/* One of the exponentiations big_mont_pow_ct_halves runs side by side:
 * big_mont_pow_ct's arguments, scratch its own
 * big_mont_pow_ct_scratch(len, elen) chunks. */
struct big_mont_pow_half {
	chunk_t *out;
	const chunk_t *base_m, *e, *n, *one_m;
	chunk_t n0;
	chunk_t *scratch;
};
/* count (1 or 2) exponentiations big_mont_pow_ct_using(h[k]...), of one
 * modulus length len and one exponent length elen, step by step in
 * turn: each kernel call of one is followed by the same call of the
 * other, so the out-of-order core runs one's latency chains under the
 * other's (the CRT's halves at 8 chunks, where a kernel call waits on
 * its reduction's chain).  Same words, same guarantees. */
void big_mont_pow_ct_halves(const struct big_mont_pow_half *h, int count, int elen, int len,
			    big_mont_sqr_select_fn *sqr_select);

#ifndef __cplusplus
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* BIGMONT_INTERNAL_H */
