/*
 * bench/spike/vpow_avx2.c -- spike, not part of the library or its build:
 * the whole constant-time dual exponentiation of the two CRT halves,
 *   m_p = a^dp mod p,  m_q = a^dq mod q,
 * in the vertical AVX2 layout of bench/spike/vsqr_avx2.c (radix 2^28, lazy
 * 64-bit columns, both halves in one instruction stream, the modulus n k0),
 * checked against GMP's mpz_powm and timed against what the library does
 * today for the same two exponentiations (modexp_crt.c's exp_mod_prime
 * twice: big_mont_reduce_ct, big_mont_pow_ct on the adx kernels, the
 * conversion out).  The findings are in docs/design-notes.md ("A vertical
 * AVX2 squaring for the single operation", the follow-up).
 *
 * Build (from the worktree root; includes the squaring spike and links an
 * existing chunk64-asm build, here /work/main/build/chunk64-asm):
 *   gcc -O2 -mavx2 -mbmi2 -o /tmp/vpow bench/spike/vpow_avx2.c \
 *       /work/main/build/chunk64-asm/bignum/libbigmont_bignum.a -lgmp
 * Run:
 *   taskset -c 1 /tmp/vpow [trials [seed]]   (default 101 trials, seed 44)
 * It checks the product kernel and the whole exponentiation against GMP
 * first (no timing if one fails), then prints core cycles per pair of
 * exponentiations, both sides alternating.
 *
 * What the vertical exponentiation does (vpow2), per half, both halves in
 * every call:
 *   1. a mod p plain, by the library's big_mont_reduce_ct (to_mont 0), the
 *      same constant-time reduction the library uses; to radix 2^28;
 *   2. into Montgomery form by one vertical product with RR = R^2 mod n
 *      (R = 2^(28 N), per key), one_m = RR * 1 / R by another;
 *   3. the table of 2^w entries, table[i] = base^i (even entries by
 *      squaring table[i/2], odd ones by a product with base), w from the
 *      library's big_mont_pow_ct_window (5 at 1024- and 1536-bit exponents,
 *      6 at 2048);
 *   4. every window of the exponent's elen chunks from the top (the top
 *      window takes the leftover bits), w squarings, a masked read of
 *      every table entry of both halves (vselect1), one product;
 *   5. out of Montgomery form by a reduction with the modulus n itself
 *      (key kn: m = u k0): r = (x + M n) / R < x / R + n < n + 1/2 for
 *      x < 2 n k0 < R / 2, so r <= n; to 64-bit chunks and one masked
 *      subtraction of n.
 * The product a*b (mul_product_loop): rows of four, the four digits of a
 * broadcast, b in four aligned copies shifted up by 0..3 digits, so that
 * row 4g + s times copy s block b' lands in output block g + b' without a
 * lane shuffle; G B 4 vpmuludq a half (G = ceil(N/4), B = ceil((N+3)/4)),
 * then the squaring's reduction and carry pass.  Column bound: N products
 * < 2^56 and N more from the reduction, the same as the squaring's
 * (which counts a doubled product twice): below 2^63.3 at N = 75.  Inputs
 * < 2w, output < 2w (R > 4w), as the squaring.
 * The table read (vselect1, per half): for up to 8 blocks at a time, a
 * compare mask per entry, and/or into 8 accumulators; every entry read, no
 * address depends on the index.  The packed variant keeps the table in
 * 32-bit digits (half the bytes) and widens the selected entry.  Two more
 * variants cut the packed read into units run inside the window's
 * squarings (read_unit, redc2_read): one a reduction group after its
 * chain steps, or before the serial carry pass.
 */
#define main vsqr_spike_main
#include "vsqr_avx2.c"
#undef main
#include <time.h>
#include <math.h>

typedef uint64_t chunk_t;
void big_mont_mul_vec(chunk_t *r, const chunk_t *a, const chunk_t *b, const chunk_t *n, chunk_t n0, int len);
void big_mont_reduce_ct(chunk_t *out, const chunk_t *x, int xlen, const chunk_t *n, chunk_t n0,
			const chunk_t *rr, int len, int to_mont);
void big_mont_pow_ct(chunk_t *out, const chunk_t *base_m, const chunk_t *e, int elen, const chunk_t *n, chunk_t n0,
		     const chunk_t *one_m, int len, chunk_t *scratch);
int big_mont_pow_ct_window(int ebits);
size_t big_mont_pow_ct_scratch(int len, int elen);
chunk_t big_n0(chunk_t n);

#define MAX_LEN 32
#define MAX_ENTRIES 64
#define ENTRY_STRIDE (4 * ((MAX_N + 3) / 4)) /* digits of a table entry, whole blocks */

/* t = a * b, lazy columns, blocks 0..2B+1 (a, b as struct vnum digits). */
static void __attribute__((noinline)) mul_product_loop(uint64_t *t, uint64_t ysh[4][4 * MAX_B + 4],
							 const uint64_t *a, const uint64_t *b, const int N, const int B)
{
	const __m256i zero = _mm256_setzero_si256();
	const uint64_t *ad = a + 4, *bd = b + 4;
	const int G = (N + 3) / 4;
	for (int k = 0; k < B; k++) {
		_mm256_store_si256((__m256i *)(ysh[0] + 4 * k), _mm256_load_si256((const __m256i *)(bd + 4 * k)));
		_mm256_store_si256((__m256i *)(ysh[1] + 4 * k), _mm256_loadu_si256((const __m256i *)(bd + 4 * k - 1)));
		_mm256_store_si256((__m256i *)(ysh[2] + 4 * k), _mm256_loadu_si256((const __m256i *)(bd + 4 * k - 2)));
		_mm256_store_si256((__m256i *)(ysh[3] + 4 * k), _mm256_loadu_si256((const __m256i *)(bd + 4 * k - 3)));
	}
	for (int k = B; k < 2 * B + 2; k++)
		_mm256_store_si256((__m256i *)(t + 4 * k), zero);
	for (int g = 0; g < G; g++) {
		const __m256i b0 = _mm256_set1_epi64x((long long)ad[4 * g]);
		const __m256i b1 = _mm256_set1_epi64x((long long)ad[4 * g + 1]);
		const __m256i b2 = _mm256_set1_epi64x((long long)ad[4 * g + 2]);
		const __m256i b3 = _mm256_set1_epi64x((long long)ad[4 * g + 3]);
		__m256i *tk = (__m256i *)(t + 4 * g);
		const uint64_t *y = ysh[0];
		for (int bp = 0; bp < B; bp++, tk++, y += 4) {
			__m256i p0 = _mm256_mul_epu32(b0, _mm256_load_si256((const __m256i *)y));
			__m256i p1 = _mm256_mul_epu32(b1, _mm256_load_si256((const __m256i *)(y + 4 * MAX_B + 4)));
			__m256i p2 = _mm256_mul_epu32(b2, _mm256_load_si256((const __m256i *)(y + 8 * MAX_B + 8)));
			__m256i p3 = _mm256_mul_epu32(b3, _mm256_load_si256((const __m256i *)(y + 12 * MAX_B + 12)));
			__m256i s = _mm256_add_epi64(_mm256_add_epi64(p0, p1), _mm256_add_epi64(p2, p3));
			if (g)
				s = _mm256_add_epi64(s, _mm256_load_si256(tk));
			_mm256_store_si256(tk, s);
		}
	}
}

typedef void vmul2_fn(struct vnum *, struct vnum *, const struct vnum *, const struct vnum *, const struct vnum *,
		      const struct vnum *, const struct vkey *, const struct vkey *, struct vscratch *,
		      struct vscratch *);

/* o_x = a_x b_x / R mod' key_x (almost Montgomery, < 2w), x = A, B; o may alias a or b. */
#define VMUL2(N)                                                                                        \
	static void __attribute__((noinline)) vmul2_##N(struct vnum *oa, struct vnum *ob, const struct vnum *aa, \
							const struct vnum *ab, const struct vnum *ba,             \
							const struct vnum *bb, const struct vkey *ka,             \
							const struct vkey *kb, struct vscratch *sa,               \
							struct vscratch *sb)                                      \
	{                                                                                               \
		mul_product_loop(sa->t, sa->ysh, aa->a, ba->a, N, (N + 6) / 4);                          \
		mul_product_loop(sb->t, sb->ysh, ab->a, bb->a, N, (N + 6) / 4);                          \
		vsqr2_n(oa, ob, ka, kb, sa, sb, N, PHASE_REDC | PHASE_CARRY | PHASE_FRIENDLY);             \
	}
VMUL2(38)
VMUL2(56)
VMUL2(75)

/* x_x = x_x / R mod n_x, <= n_x (x < R/2), by the key of n itself (kn: m = u k0). */
#define VFROM2(N)                                                                                       \
	static void __attribute__((noinline)) vfrom2_##N(struct vnum *xa, struct vnum *xb, const struct vkey *ka, \
							 const struct vkey *kb, struct vscratch *sa,              \
							 struct vscratch *sb)                                     \
	{                                                                                               \
		for (int k = 0; k < 4 * (2 * MAX_B + 2); k++) {                                          \
			sa->t[k] = k < N ? xa->a[4 + k] : 0;                                              \
			sb->t[k] = k < N ? xb->a[4 + k] : 0;                                              \
		}                                                                                       \
		vsqr2_n(xa, xb, ka, kb, sa, sb, N, PHASE_REDC | PHASE_CARRY);                              \
	}
VFROM2(38)
VFROM2(56)
VFROM2(75)

/*
 * Masked read of entry idx_x of table_x (entries of `stride` digits, nblk
 * blocks used) into out_x's digits, both halves: every entry read.
 */
ALWAYS_INLINE void vselect1(uint64_t *out, const uint64_t *table, const int entries, const uint64_t idx,
			    const int nblk, const int stride)
{
	const __m256i want = _mm256_set1_epi64x((long long)idx), one = _mm256_set1_epi64x(1);
	for (int c0 = 0; c0 < nblk; c0 += 8) {
		__m256i acc[8];
		const int nb = nblk - c0 < 8 ? nblk - c0 : 8;
#pragma GCC unroll 8
		for (int k = 0; k < 8; k++)
			acc[k] = _mm256_setzero_si256();
		__m256i i = _mm256_setzero_si256();
		const uint64_t *e = table + 4 * c0;
		for (int j = 0; j < entries; j++, e += stride) {
			const __m256i m = _mm256_cmpeq_epi64(i, want);
#pragma GCC unroll 8
			for (int k = 0; k < 8; k++)
				if (k < nb)
					acc[k] = _mm256_or_si256(acc[k], _mm256_and_si256(m, _mm256_load_si256((const __m256i *)(e + 4 * k))));
			i = _mm256_add_epi64(i, one);
		}
#pragma GCC unroll 8
		for (int k = 0; k < 8; k++)
			if (k < nb)
				_mm256_storeu_si256((__m256i *)(out + 4 * (c0 + k)), acc[k]);
	}
}

/* The same from a table of 32-bit digits (stride digits an entry, 8 per ymm), widened on the way out. */
ALWAYS_INLINE void vselect1_packed(uint64_t *out, const uint32_t *table, const int entries, const uint64_t idx,
				   const int nblk, const int stride)
{
	const int nh = (nblk + 1) / 2; /* ymm of 8 digits */
	const __m256i want = _mm256_set1_epi32((int)idx), one = _mm256_set1_epi32(1);
	for (int c0 = 0; c0 < nh; c0 += 8) {
		__m256i acc[8];
		const int nb = nh - c0 < 8 ? nh - c0 : 8;
#pragma GCC unroll 8
		for (int k = 0; k < 8; k++)
			acc[k] = _mm256_setzero_si256();
		__m256i i = _mm256_setzero_si256();
		const uint32_t *e = table + 8 * c0;
		for (int j = 0; j < entries; j++, e += stride) {
			const __m256i m = _mm256_cmpeq_epi32(i, want);
#pragma GCC unroll 8
			for (int k = 0; k < 8; k++)
				if (k < nb)
					acc[k] = _mm256_or_si256(acc[k], _mm256_and_si256(m, _mm256_load_si256((const __m256i *)(e + 8 * k))));
			i = _mm256_add_epi32(i, one);
		}
#pragma GCC unroll 8
		for (int k = 0; k < 8; k++)
			if (k < nb) {
				const int d = 8 * (c0 + k);
				_mm256_storeu_si256((__m256i *)(out + d), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(acc[k])));
				if (d + 4 < 4 * nblk)
					_mm256_storeu_si256((__m256i *)(out + d + 4),
							    _mm256_cvtepu32_epi64(_mm256_extracti128_si256(acc[k], 1)));
			}
	}
}

/*
 * The table read fused with the window's squarings: the window's index is
 * public in time (known before its squarings), so the read of the 32-bit
 * table is cut into units (one ymm of 8 digits of one half, over all
 * entries) and the squarings' reduction runs one unit after a group's
 * chain steps, in the cycles the chain leaves idle.
 */
struct read_job {
	const uint32_t *table[2];
	uint64_t *out[2];
	uint32_t idx[2];
	int entries, nh, nblk, stride;
	int next, total;
};

ALWAYS_INLINE void read_unit(struct read_job *j)
{
	const int u = j->next++;
	const int h = u >= j->nh;
	const int k = u - h * j->nh;
	const uint32_t *e = j->table[h] + 8 * k;
	const __m256i want = _mm256_set1_epi32((int)j->idx[h]), two = _mm256_set1_epi32(2);
	__m256i i0 = _mm256_setzero_si256(), i1 = _mm256_set1_epi32(1);
	__m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
	for (int n = 0; n < j->entries; n += 2, e += 2 * j->stride) {
		acc0 = _mm256_or_si256(acc0, _mm256_and_si256(_mm256_cmpeq_epi32(i0, want), _mm256_load_si256((const __m256i *)e)));
		acc1 = _mm256_or_si256(acc1, _mm256_and_si256(_mm256_cmpeq_epi32(i1, want),
							       _mm256_load_si256((const __m256i *)(e + j->stride))));
		i0 = _mm256_add_epi32(i0, two);
		i1 = _mm256_add_epi32(i1, two);
	}
	const __m256i acc = _mm256_or_si256(acc0, acc1);
	uint64_t *out = j->out[h] + 8 * k;
	_mm256_storeu_si256((__m256i *)out, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(acc)));
	if (8 * k + 4 < 4 * j->nblk)
		_mm256_storeu_si256((__m256i *)(out + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(acc, 1)));
}

/*
 * vsqr2_n's reduction and carry pass (modulus n k0), with up to `units`
 * read units: one a group after its chain steps (at_carry 0), or all of
 * them before the serial carry pass (at_carry 1).
 */
ALWAYS_INLINE void redc2_read(struct vnum *xa, struct vnum *xb, const struct vkey *ka, const struct vkey *kb,
			      struct vscratch *sa, struct vscratch *sb, const int N, struct read_job *job, int units,
			      const int at_carry)
{
	const int B = (N + 3 + 3) / 4;
	const int G = (N + 3) / 4;
	uint64_t ca = 0, cb = 0, ma[4], mb_[4], u[4];
	__m256i va[4], vb[4];
	block_lanes(u, _mm256_load_si256((const __m256i *)sa->t));
	mont_digits(ma, &ca, u, ka, 0, N, 1);
	block_lanes(u, _mm256_load_si256((const __m256i *)sb->t));
	mont_digits(mb_, &cb, u, kb, 0, N, 1);
	for (int g = 0; g < G; g++) {
		broadcast4(va, ma);
		broadcast4(vb, mb_);
		const int last = g == G - 1;
		if (last && (N & 3)) {
			redc_block(sa->t, ka, va, g, 0);
			redc_block(sb->t, kb, vb, g, 0);
		}
		__m256i na = redc_block(sa->t, ka, va, g, 1);
		__m256i nb = redc_block(sb->t, kb, vb, g, 1);
		if (!last) {
			block_lanes(u, na);
			mont_digits(ma, &ca, u, ka, g + 1, N, 1);
			block_lanes(u, nb);
			mont_digits(mb_, &cb, u, kb, g + 1, N, 1);
		}
		if (!at_carry && units > 0 && job->next < job->total) {
			read_unit(job);
			units--;
		}
#pragma GCC unroll 32
		for (int b = 2; b < B; b++) {
			redc_block(sa->t, ka, va, g, b);
			redc_block(sb->t, kb, vb, g, b);
		}
	}
	for (; at_carry && units > 0 && job->next < job->total; units--)
		read_unit(job);
	uint64_t *ta = sa->t + N, *tb = sb->t + N, *oa = xa->a + 4, *ob = xb->a + 4;
	ca += ta[0];
	cb += tb[0];
	oa[0] = ca & DIGIT_MASK;
	ob[0] = cb & DIGIT_MASK;
	for (int k = 1; k < N; k++) {
		ca = (ca >> RADIX_BITS) + ta[k];
		cb = (cb >> RADIX_BITS) + tb[k];
		oa[k] = ca & DIGIT_MASK;
		ob[k] = cb & DIGIT_MASK;
	}
}

typedef void vsqr2r_fn(struct vnum *, struct vnum *, const struct vkey *, const struct vkey *, struct vscratch *,
		       struct vscratch *, struct read_job *, int);
#define VSQR2R(name, N, call, at_carry)                                                                            	static void __attribute__((noinline)) name(struct vnum *xa, struct vnum *xb, const struct vkey *ka,     						   const struct vkey *kb, struct vscratch *sa,                 						   struct vscratch *sb, struct read_job *job, int units)       	{                                                                                                  		if (call) {                                                                                			sqr_product_rows_call(sa->t, sa->ysh, xa->a, N);                                    			sqr_product_rows_call(sb->t, sb->ysh, xb->a, N);                                    		} else {                                                                                   			sqr_product_loop(sa->t, sa->ysh, xa->a, N, (N + 6) / 4);                            			sqr_product_loop(sb->t, sb->ysh, xb->a, N, (N + 6) / 4);                            		}                                                                                          		redc2_read(xa, xb, ka, kb, sa, sb, N, job, units, at_carry);                                 	}
VSQR2R(vsqr2r_38, 38, 1, 0)
VSQR2R(vsqr2r_56, 56, 0, 0)
VSQR2R(vsqr2r_75, 75, 0, 0)
VSQR2R(vsqr2c_38, 38, 1, 1)
VSQR2R(vsqr2c_56, 56, 0, 1)
VSQR2R(vsqr2c_75, 75, 0, 1)

/* Entry digits of one number, 64-bit or packed 32-bit. */
ALWAYS_INLINE void table_store(void *table, const int packed, const int i, const uint64_t *d, const int stride)
{
	if (packed) {
		uint32_t *e = (uint32_t *)table + (size_t)i * stride;
		for (int k = 0; k < stride; k++)
			e[k] = (uint32_t)d[k];
	} else {
		memcpy((uint64_t *)table + (size_t)i * stride, d, 8 * (size_t)stride);
	}
}

ALWAYS_INLINE void table_load(uint64_t *d, const void *table, const int packed, const int i, const int stride)
{
	if (packed) {
		const uint32_t *e = (const uint32_t *)table + (size_t)i * stride;
		for (int k = 0; k < stride; k++)
			d[k] = e[k];
	} else {
		memcpy(d, (const uint64_t *)table + (size_t)i * stride, 8 * (size_t)stride);
	}
}

/* One half's key data for the vertical exponentiation: immutable once set up. */
struct vpow_key {
	struct vkey kf;  /* n k0: the exponentiation's products and squarings */
	struct vkey kn;  /* n: the conversion out */
	struct vnum rr;  /* R^2 mod n, R = 2^(28 N) */
	uint64_t n[MAX_LEN], rr64[MAX_LEN], n0; /* 64-bit chunks, for big_mont_reduce_ct */
	int len;
};

/* Caller's scratch of one dual exponentiation. */
struct vpow_scratch {
	uint64_t table[2][MAX_ENTRIES * ENTRY_STRIDE] __attribute__((aligned(32)));
	struct vnum acc[2], base[2], sel[2], one;
	struct vscratch s[2];
	uint64_t plain[2][MAX_LEN];
};

static inline uint64_t window_bits(const uint64_t *e, int elen, int pos, int width)
{
	const int idx = pos / 64, shift = pos % 64;
	uint64_t v = e[idx] >> shift;
	if (shift + width > 64 && idx + 1 < elen)
		v |= e[idx + 1] << (64 - shift);
	return v & (((uint64_t)1 << width) - 1);
}

/* Digits of x[0..len) (64-bit chunks) into d[0..N): positions public. */
static inline void chunks_to_digits(uint64_t *d, const uint64_t *x, int len, int N)
{
	for (int i = 0; i < N; i++) {
		const int bit = RADIX_BITS * i, w = bit / 64, s = bit % 64;
		uint64_t v = w < len ? x[w] >> s : 0;
		if (s > 64 - RADIX_BITS && w + 1 < len)
			v |= x[w + 1] << (64 - s);
		d[i] = v & DIGIT_MASK;
	}
}

/* x[0..len) from digits d[0..N) whose value is < 2^(64 len). */
static inline void digits_to_chunks(uint64_t *x, const uint64_t *d, int len, int N)
{
	for (int j = 0; j < len; j++)
		x[j] = 0;
	for (int i = 0; i < N; i++) {
		const int bit = RADIX_BITS * i, w = bit / 64, s = bit % 64;
		if (w < len)
			x[w] |= d[i] << s;
		if (s > 64 - RADIX_BITS && w + 1 < len)
			x[w + 1] |= d[i] >> (64 - s);
	}
}

/* x = x - n if x >= n, for x <= n (masked, no branch on x). */
static inline void sub_if_ge(uint64_t *x, const uint64_t *n, int len)
{
	uint64_t d[MAX_LEN];
	unsigned char borrow = 0;
	for (int j = 0; j < len; j++)
		borrow = _subborrow_u64(borrow, x[j], n[j], (unsigned long long *)&d[j]);
	const uint64_t keep = 0 - (uint64_t)borrow; /* all ones: x < n, keep x */
	for (int j = 0; j < len; j++)
		x[j] = (x[j] & keep) | (d[j] & ~keep);
}

/*
 * out_p = a^dp mod p, out_q = a^dq mod q (len chunks each), a of alen
 * chunks, dp and dq of elen chunks; sq / mul / from: the N-digit kernels.
 */
ALWAYS_INLINE void vpow2(uint64_t *out_p, uint64_t *out_q, const uint64_t *a, int alen, const uint64_t *dp,
			 const uint64_t *dq, int elen, const struct vpow_key *kp, const struct vpow_key *kq,
			 struct vpow_scratch *s, const int N, vsqr2_fn *sq, vmul2_fn *mul,
			 vsqr2_fn *from, const int packed, const int wdelta, vsqr2r_fn *sq_read)
{
	const int len = kp->len, nblk = (N + 3) / 4, stride = packed ? 8 * ((nblk + 1) / 2) : 4 * nblk;
	const int ebits = elen * 64, w = big_mont_pow_ct_window(ebits) + wdelta, entries = 1 << w;
	struct vnum *xa = &s->acc[0], *xb = &s->acc[1];
	big_mont_reduce_ct(s->plain[0], a, alen, kp->n, kp->n0, kp->rr64, len, 0);
	big_mont_reduce_ct(s->plain[1], a, alen, kq->n, kq->n0, kq->rr64, len, 0);
	memset(xa, 0, sizeof(*xa));
	memset(xb, 0, sizeof(*xb));
	chunks_to_digits(xa->a + 4, s->plain[0], len, N);
	chunks_to_digits(xb->a + 4, s->plain[1], len, N);
	memset(&s->one, 0, sizeof(s->one));
	s->one.a[4] = 1;
	memset(s->base, 0, sizeof(s->base));
	memset(s->sel, 0, sizeof(s->sel));
	mul(&s->base[0], &s->base[1], xa, xb, &kp->rr, &kq->rr, &kp->kf, &kq->kf, &s->s[0], &s->s[1]);
	mul(xa, xb, &kp->rr, &kq->rr, &s->one, &s->one, &kp->kf, &kq->kf, &s->s[0], &s->s[1]);
	table_store(s->table[0], packed, 0, xa->a + 4, stride);
	table_store(s->table[1], packed, 0, xb->a + 4, stride);
	table_store(s->table[0], packed, 1, s->base[0].a + 4, stride);
	table_store(s->table[1], packed, 1, s->base[1].a + 4, stride);
	for (int i = 2; i < entries; i++) {
		if (i % 2 == 0) {
			table_load(xa->a + 4, s->table[0], packed, i / 2, stride);
			table_load(xb->a + 4, s->table[1], packed, i / 2, stride);
			sq(xa, xb, &kp->kf, &kq->kf, &s->s[0], &s->s[1]);
		} else {
			mul(xa, xb, xa, xb, &s->base[0], &s->base[1], &kp->kf, &kq->kf, &s->s[0], &s->s[1]);
		}
		table_store(s->table[0], packed, i, xa->a + 4, stride);
		table_store(s->table[1], packed, i, xb->a + 4, stride);
	}
	int top = ebits % w;
	if (top == 0)
		top = w;
	int pos = ebits - top;
	if (packed) {
		vselect1_packed(xa->a + 4, (const uint32_t *)s->table[0], entries, window_bits(dp, elen, pos, top), nblk, stride);
		vselect1_packed(xb->a + 4, (const uint32_t *)s->table[1], entries, window_bits(dq, elen, pos, top), nblk, stride);
	} else {
		vselect1(xa->a + 4, s->table[0], entries, window_bits(dp, elen, pos, top), nblk, stride);
		vselect1(xb->a + 4, s->table[1], entries, window_bits(dq, elen, pos, top), nblk, stride);
	}
	while (pos > 0) {
		pos -= w;
		if (sq_read) { /* packed only */
			struct read_job job = {{(const uint32_t *)s->table[0], (const uint32_t *)s->table[1]},
					       {s->sel[0].a + 4, s->sel[1].a + 4},
					       {(uint32_t)window_bits(dp, elen, pos, w), (uint32_t)window_bits(dq, elen, pos, w)},
					       entries, (nblk + 1) / 2, nblk, stride, 0, 2 * ((nblk + 1) / 2)};
			const int per = (job.total + w - 1) / w;
			for (int k = 0; k < w; k++)
				sq_read(xa, xb, &kp->kf, &kq->kf, &s->s[0], &s->s[1], &job, per);
			while (job.next < job.total)
				read_unit(&job);
			mul(xa, xb, xa, xb, &s->sel[0], &s->sel[1], &kp->kf, &kq->kf, &s->s[0], &s->s[1]);
			continue;
		}
		for (int k = 0; k < w; k++)
			sq(xa, xb, &kp->kf, &kq->kf, &s->s[0], &s->s[1]);
		if (packed) {
			vselect1_packed(s->sel[0].a + 4, (const uint32_t *)s->table[0], entries, window_bits(dp, elen, pos, w), nblk, stride);
			vselect1_packed(s->sel[1].a + 4, (const uint32_t *)s->table[1], entries, window_bits(dq, elen, pos, w), nblk, stride);
		} else {
			vselect1(s->sel[0].a + 4, s->table[0], entries, window_bits(dp, elen, pos, w), nblk, stride);
			vselect1(s->sel[1].a + 4, s->table[1], entries, window_bits(dq, elen, pos, w), nblk, stride);
		}
		mul(xa, xb, xa, xb, &s->sel[0], &s->sel[1], &kp->kf, &kq->kf, &s->s[0], &s->s[1]);
	}
	from(xa, xb, &kp->kn, &kq->kn, &s->s[0], &s->s[1]);
	digits_to_chunks(out_p, xa->a + 4, len, N);
	digits_to_chunks(out_q, xb->a + 4, len, N);
	sub_if_ge(out_p, kp->n, len);
	sub_if_ge(out_q, kq->n, len);
}

typedef void vpow2_fn(uint64_t *, uint64_t *, const uint64_t *, int, const uint64_t *, const uint64_t *, int,
		      const struct vpow_key *, const struct vpow_key *, struct vpow_scratch *);
#define VPOW2(name, N, sq, packed, wdelta, sq_read)                                                                      \
	static void __attribute__((noinline)) name(uint64_t *op, uint64_t *oq, const uint64_t *a, int alen,       \
						   const uint64_t *dp, const uint64_t *dq, int elen,           \
						   const struct vpow_key *kp, const struct vpow_key *kq,       \
						   struct vpow_scratch *s)                                     \
	{                                                                                                  \
		vpow2(op, oq, a, alen, dp, dq, elen, kp, kq, s, N, sq, vmul2_##N, vfrom2_##N, packed, wdelta, sq_read);\
	}
VPOW2(vpow2_38, 38, vsqr2_38fc, 0, 0, NULL)
VPOW2(vpow2_56, 56, vsqr2_56fl, 0, 0, NULL)
VPOW2(vpow2_75, 75, vsqr2_75fl, 0, 0, NULL)
VPOW2(vpow2_38p, 38, vsqr2_38fc, 1, 0, NULL)
VPOW2(vpow2_56p, 56, vsqr2_56fl, 1, 0, NULL)
VPOW2(vpow2_75p, 75, vsqr2_75fl, 1, 0, NULL)
VPOW2(vpow2_56p4, 56, vsqr2_56fl, 1, -1, NULL)
VPOW2(vpow2_75p5, 75, vsqr2_75fl, 1, -1, NULL)
VPOW2(vpow2_38pf, 38, vsqr2_38fc, 1, 0, vsqr2r_38)
VPOW2(vpow2_56pf, 56, vsqr2_56fl, 1, 0, vsqr2r_56)
VPOW2(vpow2_75pf, 75, vsqr2_75fl, 1, 0, vsqr2r_75)
VPOW2(vpow2_38pc, 38, vsqr2_38fc, 1, 0, vsqr2c_38)
VPOW2(vpow2_56pc, 56, vsqr2_56fl, 1, 0, vsqr2c_56)
VPOW2(vpow2_75pc, 75, vsqr2_75fl, 1, 0, vsqr2c_75)

/* The library's exp_mod_prime (bignum/modexp_crt.c), for one half. */
static void lib_exp(uint64_t *out, const uint64_t *a, int alen, const uint64_t *d, int dlen, const uint64_t *n,
		    uint64_t n0, const uint64_t *rr, int len, uint64_t *work)
{
	uint64_t *one = work, *one_m = one + len, *base_m = one_m + len, *acc = base_m + len, *pow = acc + len;
	for (int j = 0; j < len; j++)
		one[j] = j == 0;
	big_mont_mul_vec(one_m, rr, one, n, n0, len);
	big_mont_reduce_ct(base_m, a, alen, n, n0, rr, len, 1);
	big_mont_pow_ct(acc, base_m, d, dlen, n, n0, one_m, len, pow);
	big_mont_mul_vec(out, acc, one, n, n0, len);
}

static void set_vpow_key(struct vpow_key *k, const mpz_t p, int bits, int N)
{
	memset(k, 0, sizeof(*k));
	const int len = bits / 64;
	k->len = len;
	set_key(&k->kf, p, N, 1);
	set_key(&k->kn, p, N, 0);
	mpz_t r;
	mpz_init(r);
	mpz_ui_pow_ui(r, 2, 2UL * RADIX_BITS * N);
	mpz_mod(r, r, p);
	set_num(&k->rr, r, N);
	mpz_ui_pow_ui(r, 2, 2UL * 64 * len);
	mpz_mod(r, r, p);
	to_chunks(k->rr64, len, r);
	to_chunks(k->n, len, p);
	k->n0 = big_n0(k->n[0]);
	mpz_clear(r);
}

/* ---- checks ---- */

static void check_mul(vmul2_fn *mul, int bits, int N, gmp_randstate_t rs)
{
	static struct vkey ka, kb;
	static struct vnum aa, ab, ba, bb;
	static struct vscratch sa, sb;
	mpz_t m[2], w2[2], x[2], y[2], ref, got, rinv, R;
	for (int h = 0; h < 2; h++)
		mpz_inits(m[h], w2[h], x[h], y[h], NULL);
	mpz_inits(ref, got, rinv, R, NULL);
	mpz_ui_pow_ui(R, 2, (unsigned long)RADIX_BITS * N);
	int before = fails;
	for (int t = 0; t < 300 && fails == before; t++) {
		for (int h = 0; h < 2; h++) {
			if (t >= 200 && h == 0 && t % 3 == 1)
				mpz_ui_pow_ui(m[h], 2, bits), mpz_sub_ui(m[h], m[h], 1);
			else if (t >= 200 && h == 0 && t % 3 == 2)
				mpz_ui_pow_ui(m[h], 2, bits - 1), mpz_add_ui(m[h], m[h], 1);
			else if (t % 3 == 0)
				mpz_rrandomb(m[h], rs, bits), mpz_setbit(m[h], bits - 1), mpz_setbit(m[h], 0);
			else
				random_modulus(m[h], rs, bits);
			working_modulus(w2[h], m[h], 1);
			mpz_mul_2exp(w2[h], w2[h], 1);
			/* random < 2w, or an edge: 0, 1, m-1, 2^bits-1, 2w-1 */
			for (int v = 0; v < 2; v++) {
				mpz_ptr z = v ? y[h] : x[h];
				const int e = t < 200 ? -1 : (int)((t * 7 + 3 * v + h) % 6);
				if (e < 0 || e == 5)
					mpz_urandomm(z, rs, w2[h]);
				else if (e == 0)
					mpz_set_ui(z, 0);
				else if (e == 1)
					mpz_set_ui(z, 1);
				else if (e == 2)
					mpz_sub_ui(z, m[h], 1);
				else if (e == 3)
					mpz_ui_pow_ui(z, 2, bits), mpz_sub_ui(z, z, 1);
				else
					mpz_sub_ui(z, w2[h], 1);
			}
		}
		set_key(&ka, m[0], N, 1);
		set_key(&kb, m[1], N, 1);
		set_num(&aa, x[0], N), set_num(&ab, x[1], N);
		set_num(&ba, y[0], N), set_num(&bb, y[1], N);
		/* chained: o = o * b, 8 times (the output fed back as input) */
		for (int step = 0; step < (t < 20 ? 32 : 2); step++) {
			mul(&aa, &ab, &aa, &ab, &ba, &bb, &ka, &kb, &sa, &sb);
			for (int h = 0; h < 2; h++) {
				mpz_invert(rinv, R, m[h]);
				mpz_mul(x[h], x[h], y[h]);
				mpz_mul(x[h], x[h], rinv);
				mpz_mod(x[h], x[h], m[h]);
				const struct vnum *o = h ? &ab : &aa;
				from_digits(got, o->a + 4, N);
				int ok = mpz_cmp(got, w2[h]) < 0;
				for (int p = 4 + N; p < 4 + 4 * MAX_B + 4; p++)
					ok = ok && o->a[p] == 0;
				mpz_mod(got, got, m[h]);
				if (!ok || mpz_cmp(got, x[h]) != 0) {
					gmp_fprintf(stderr, "FAIL vmul2 %d half %d trial %d step %d\n m=%Zx\n", bits, h, t, step, m[h]);
					fails++;
					break;
				}
			}
		}
	}
	printf("check %4d %2d %-56s %s\n", bits, N, "product a*b/R, n k0 (300 pairs, 32 or 2 chained)",
	       fails == before ? "ok" : "FAILED");
	for (int h = 0; h < 2; h++)
		mpz_clears(m[h], w2[h], x[h], y[h], NULL);
	mpz_clears(ref, got, rinv, R, NULL);
}

static struct vpow_scratch vps;
static uint64_t lib_work[5 * MAX_LEN + MAX_ENTRIES * MAX_LEN + MAX_LEN];

/* Both exponentiations, vertical and library, against mpz_powm. */
static int check_one(vpow2_fn *fn, int bits, int N, const mpz_t p, const mpz_t q, const mpz_t a, const mpz_t dp,
		     const mpz_t dq, const char *what)
{
	static struct vpow_key kp, kq;
	const int len = bits / 64;
	uint64_t av[2 * MAX_LEN], dpv[MAX_LEN], dqv[MAX_LEN], op[MAX_LEN], oq[MAX_LEN], lp[MAX_LEN], lq[MAX_LEN];
	set_vpow_key(&kp, p, bits, N);
	set_vpow_key(&kq, q, bits, N);
	to_chunks(av, 2 * len, a);
	to_chunks(dpv, len, dp);
	to_chunks(dqv, len, dq);
	fn(op, oq, av, 2 * len, dpv, dqv, len, &kp, &kq, &vps);
	lib_exp(lp, av, 2 * len, dpv, len, kp.n, kp.n0, kp.rr64, len, lib_work);
	lib_exp(lq, av, 2 * len, dqv, len, kq.n, kq.n0, kq.rr64, len, lib_work);
	mpz_t ref, got;
	mpz_inits(ref, got, NULL);
	int ok = 1;
	for (int h = 0; h < 2; h++) {
		mpz_powm(ref, a, h ? dq : dp, h ? q : p);
		mpz_import(got, len, -1, 8, 0, 0, h ? oq : op);
		if (mpz_cmp(got, ref) != 0) {
			gmp_fprintf(stderr, "FAIL vpow2 %d %s half %d\n p=%Zx\n q=%Zx\n a=%Zx\n e=%Zx\n", bits, what, h, p, q,
				    a, h ? dq : dp);
			ok = 0;
		}
		mpz_import(got, len, -1, 8, 0, 0, h ? lq : lp);
		if (mpz_cmp(got, ref) != 0) {
			gmp_fprintf(stderr, "FAIL library %d %s half %d\n", bits, what, h);
			ok = 0;
		}
	}
	mpz_clears(ref, got, NULL);
	if (!ok)
		fails++;
	return ok;
}

static void check_pow(vpow2_fn *fn, int bits, int N, gmp_randstate_t rs, const char *what)
{
	mpz_t p, q, a, dp, dq, pq;
	mpz_inits(p, q, a, dp, dq, pq, NULL);
	int before = fails, count = 0;
	for (int t = 0; t < 24; t++) {
		random_modulus(p, rs, bits);
		random_modulus(q, rs, bits);
		if (t % 4 == 1)
			mpz_rrandomb(p, rs, bits), mpz_setbit(p, bits - 1), mpz_setbit(p, 0);
		mpz_mul(pq, p, q);
		mpz_urandomm(a, rs, pq);
		mpz_urandomb(dp, rs, bits);
		mpz_urandomb(dq, rs, bits);
		if (t % 4 == 2)
			mpz_rrandomb(dp, rs, bits);
		check_one(fn, bits, N, p, q, a, dp, dq, "random"), count++;
	}
	/* Edges: moduli random, 2^bits-1, 2^(bits-1)+1; a in {0, 1, 2, p-1, p, q, pq-1};
	 * exponents {0, 1, 2, 2^bits-1, a random one with its low windows zero}. */
	for (int mk = 0; mk < 3; mk++) {
		if (mk == 0)
			random_modulus(p, rs, bits);
		else if (mk == 1)
			mpz_ui_pow_ui(p, 2, bits), mpz_sub_ui(p, p, 1);
		else
			mpz_ui_pow_ui(p, 2, bits - 1), mpz_add_ui(p, p, 1);
		random_modulus(q, rs, bits);
		mpz_mul(pq, p, q);
		for (int ak = 0; ak < 7; ak++) {
			if (ak < 3)
				mpz_set_ui(a, (unsigned long)ak);
			else if (ak == 3)
				mpz_sub_ui(a, p, 1);
			else if (ak == 4)
				mpz_set(a, p);
			else if (ak == 5)
				mpz_set(a, q);
			else
				mpz_sub_ui(a, pq, 1);
			for (int ek = 0; ek < 5; ek++) {
				if (ek < 3)
					mpz_set_ui(dp, (unsigned long)ek);
				else if (ek == 3)
					mpz_ui_pow_ui(dp, 2, bits), mpz_sub_ui(dp, dp, 1);
				else
					mpz_urandomb(dp, rs, bits), mpz_tdiv_q_2exp(dp, dp, 40), mpz_mul_2exp(dp, dp, 40);
				mpz_urandomb(dq, rs, bits);
				if (ek == 3)
					mpz_set(dq, dp);
				check_one(fn, bits, N, p, q, a, dp, dq, "edge"), count++;
				check_one(fn, bits, N, q, p, a, dq, dp, "edge, halves swapped"), count++;
			}
		}
	}
	printf("check %4d %2d %-56s %s (%d pairs of exponentiations)\n", bits, N, what,
	       fails == before ? "ok" : "FAILED", count);
	mpz_clears(p, q, a, dp, dq, pq, NULL);
}

/* ---- timing ---- */

static int cmp_u64(const void *x, const void *y)
{
	const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double median_u64(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return n % 2 ? (double)v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
}

struct vpow_variant {
	vpow2_fn *fn;
	const char *what;
};

/* The library's pair and each variant alternating in every trial: min and median core cycles. */
static void time_pow(const struct vpow_variant *var, int nvar, int bits, int N, int trials, gmp_randstate_t rs)
{
	static struct vpow_key kp, kq;
	const int len = bits / 64;
	uint64_t av[2 * MAX_LEN], dpv[MAX_LEN], dqv[MAX_LEN], op[MAX_LEN], oq[MAX_LEN], lp[MAX_LEN], lq[MAX_LEN];
	mpz_t p, q, pq, a, dp, dq;
	mpz_inits(p, q, pq, a, dp, dq, NULL);
	random_modulus(p, rs, bits);
	random_modulus(q, rs, bits);
	mpz_mul(pq, p, q);
	mpz_urandomm(a, rs, pq);
	mpz_urandomb(dp, rs, bits);
	mpz_urandomb(dq, rs, bits);
	for (int v = 0; v < nvar; v++)
		if (!check_one(var[v].fn, bits, N, p, q, a, dp, dq, "timed operands")) {
			fprintf(stderr, "vpow: the timed operands fail; no timing\n");
			exit(1);
		}
	set_vpow_key(&kp, p, bits, N);
	set_vpow_key(&kq, q, bits, N);
	to_chunks(av, 2 * len, a);
	to_chunks(dpv, len, dp);
	to_chunks(dqv, len, dq);
	const int cols = 1 + nvar;
	uint64_t *tk = malloc(sizeof(uint64_t) * (size_t)(3 * cols) * (size_t)trials); /* ticks, ns, ratios */
	uint64_t *ns = tk + (size_t)cols * trials, *ratio = ns + (size_t)cols * trials;
	for (int w = 0; w < 3; w++) {
		lib_exp(lp, av, 2 * len, dpv, len, kp.n, kp.n0, kp.rr64, len, lib_work);
		for (int v = 0; v < nvar; v++)
			var[v].fn(op, oq, av, 2 * len, dpv, dqv, len, &kp, &kq, &vps);
	}
	for (int t = 0; t < trials; t++) {
		uint64_t n0 = now_ns(), t0 = __rdtsc();
		lib_exp(lp, av, 2 * len, dpv, len, kp.n, kp.n0, kp.rr64, len, lib_work);
		lib_exp(lq, av, 2 * len, dqv, len, kq.n, kq.n0, kq.rr64, len, lib_work);
		uint64_t t1 = __rdtsc(), n1 = now_ns();
		tk[t] = t1 - t0, ns[t] = n1 - n0;
		for (int v = 0; v < nvar; v++) {
			n0 = now_ns(), t0 = __rdtsc();
			var[v].fn(op, oq, av, 2 * len, dpv, dqv, len, &kp, &kq, &vps);
			t1 = __rdtsc(), n1 = now_ns();
			tk[(size_t)(v + 1) * trials + t] = t1 - t0;
			ns[(size_t)(v + 1) * trials + t] = n1 - n0;
			ratio[(size_t)(v + 1) * trials + t] = (uint64_t)(1e6 * (double)(t1 - t0) / (double)tk[t]);
		}
	}
	const double tpc = ticks_per_cycle();
	double lib_min = 0;
	for (int c = 0; c < cols; c++) {
		uint64_t *T = tk + (size_t)c * trials, *S = ns + (size_t)c * trials, *Q = ratio + (size_t)c * trials;
		const double mt = median_u64(T, trials), ms = median_u64(S, trials);
		if (c == 0) {
			lib_min = (double)T[0];
			printf("%5d %3d  %-40s %2d %10.0f %10.0f %9.0f %9.0f\n", bits, N, "library: exp_mod_prime x 2 (adx)",
			       big_mont_pow_ct_window(bits), T[0] / tpc, mt / tpc, (double)S[0], ms);
		} else {
			const double mq = median_u64(Q, trials) / 1e6;
			printf("%5d %3d  %-40s %2s %10.0f %10.0f %9.0f %9.0f  %.3f  %.3f\n", bits, N, var[c - 1].what, "",
			       T[0] / tpc, mt / tpc, (double)S[0], ms, (double)T[0] / lib_min, mq);
		}
	}
	printf("      ticks/cycle %.3f\n", tpc);
	free(tk);
	mpz_clears(p, q, pq, a, dp, dq, NULL);
}

/* Core cycles of the pieces, each the least of `trials` runs of 16 calls. */
static void time_parts(vsqr2_fn *sq, vmul2_fn *mul, int bits, int N, int trials, gmp_randstate_t rs)
{
	static struct vpow_key kp, kq;
	const int len = bits / 64, nblk = (N + 3) / 4, w = big_mont_pow_ct_window(bits), entries = 1 << w;
	mpz_t p, q, x;
	mpz_inits(p, q, x, NULL);
	random_modulus(p, rs, bits);
	random_modulus(q, rs, bits);
	set_vpow_key(&kp, p, bits, N);
	set_vpow_key(&kq, q, bits, N);
	struct vpow_scratch *s = &vps;
	memset(s, 0, sizeof(*s));
	mpz_urandomm(x, rs, p);
	set_num(&s->acc[0], x, N), set_num(&s->base[0], x, N);
	mpz_urandomm(x, rs, q);
	set_num(&s->acc[1], x, N), set_num(&s->base[1], x, N);
	uint64_t ya[MAX_LEN], yb[MAX_LEN], za[MAX_LEN], zb[MAX_LEN];
	mpz_urandomm(x, rs, p), to_chunks(ya, len, x), to_chunks(za, len, x);
	mpz_urandomm(x, rs, q), to_chunks(yb, len, x), to_chunks(zb, len, x);
	uint64_t best[6];
	for (int k = 0; k < 6; k++)
		best[k] = UINT64_MAX;
	uint64_t idx = 0;
	for (int t = 0; t < trials; t++) {
		uint64_t t0 = __rdtsc();
		for (int r = 0; r < REPS; r++)
			sq(&s->acc[0], &s->acc[1], &kp.kf, &kq.kf, &s->s[0], &s->s[1]);
		uint64_t t1 = __rdtsc();
		for (int r = 0; r < REPS; r++)
			mul(&s->acc[0], &s->acc[1], &s->acc[0], &s->acc[1], &s->base[0], &s->base[1], &kp.kf, &kq.kf,
			    &s->s[0], &s->s[1]);
		uint64_t t2 = __rdtsc();
		for (int r = 0; r < REPS; r++) {
			vselect1(s->sel[0].a + 4, s->table[0], entries, idx, nblk, 4 * nblk);
			vselect1(s->sel[1].a + 4, s->table[1], entries, idx ^ 1, nblk, 4 * nblk);
			idx = (idx + s->sel[0].a[5] + 1) & (uint64_t)(entries - 1);
		}
		uint64_t t3 = __rdtsc();
		for (int r = 0; r < REPS; r++) {
			big_mont_sqr_vec_adx(ya, ya, kp.n, kp.n0, len);
			big_mont_sqr_vec_adx(yb, yb, kq.n, kq.n0, len);
		}
		uint64_t t4 = __rdtsc();
		for (int r = 0; r < REPS; r++) {
			big_mont_mul_vec(ya, ya, za, kp.n, kp.n0, len);
			big_mont_mul_vec(yb, yb, zb, kq.n, kq.n0, len);
		}
		uint64_t t5 = __rdtsc();
		for (int r = 0; r < REPS; r++) {
			const int stride = 8 * ((nblk + 1) / 2);
			vselect1_packed(s->sel[0].a + 4, (const uint32_t *)s->table[0], entries, idx, nblk, stride);
			vselect1_packed(s->sel[1].a + 4, (const uint32_t *)s->table[1], entries, idx ^ 1, nblk, stride);
			idx = (idx + s->sel[0].a[5] + 1) & (uint64_t)(entries - 1);
		}
		uint64_t t6 = __rdtsc();
		const uint64_t d[6] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5};
		for (int k = 0; k < 6; k++)
			if (d[k] < best[k])
				best[k] = d[k];
	}
	const double tpc = ticks_per_cycle();
	printf("%5d %3d %7.0f %7.0f %7.0f %7.0f  %7.0f %7.0f\n", bits, N, best[0] / tpc / REPS, best[1] / tpc / REPS,
	       best[2] / tpc / REPS, best[5] / tpc / REPS, best[3] / tpc / REPS, best[4] / tpc / REPS);
	mpz_clears(p, q, x, NULL);
}

int main(int argc, char **argv)
{
	int trials = argc > 1 ? atoi(argv[1]) : 101;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 44;
	if (trials < 1) {
		fprintf(stderr, "vpow: usage: vpow [trials >= 1] [seed]\n");
		return 2;
	}
	unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
	char brand[49] = {0};
	for (unsigned i = 0; i < 3; i++) {
		__get_cpuid(0x80000002u + i, &eax, &ebx, &ecx, &edx);
		memcpy(brand + 16 * i, (unsigned[]){eax, ebx, ecx, edx}, 16);
	}
	__get_cpuid(1, &eax, &ebx, &ecx, &edx);
	const unsigned family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
	const unsigned model = ((eax >> 4) & 0xf) | (((eax >> 16) & 0xf) << 4);
	printf("vpow: %s, family %u model %u; seed %lu; %d alternating trials\n", brand, family, model, seed, trials);
	gmp_randstate_t rs;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, seed);
	static const struct {
		int bits, N;
		vsqr2_fn *sq;
		vmul2_fn *mul;
		vpow2_fn *pow, *pow_packed;
		struct vpow_variant var[5];
		int nvar;
	} size[] = {
		{1024, 38, vsqr2_38fc, vmul2_38, vpow2_38, vpow2_38p,
		 {{vpow2_38, "vertical, 64-bit table"}, {vpow2_38p, "vertical, 32-bit table"},
		  {vpow2_38pf, "vertical, 32-bit, read in the reductions"},
		  {vpow2_38pc, "vertical, 32-bit, read before carry pass"}}, 4},
		{1536, 56, vsqr2_56fl, vmul2_56, vpow2_56, vpow2_56p,
		 {{vpow2_56, "vertical, 64-bit table"}, {vpow2_56p, "vertical, 32-bit table"},
		  {vpow2_56p4, "vertical, 32-bit table, window 4"},
		  {vpow2_56pf, "vertical, 32-bit, read in the reductions"},
		  {vpow2_56pc, "vertical, 32-bit, read before carry pass"}}, 5},
		{2048, 75, vsqr2_75fl, vmul2_75, vpow2_75, vpow2_75p,
		 {{vpow2_75, "vertical, 64-bit table"}, {vpow2_75p, "vertical, 32-bit table"},
		  {vpow2_75p5, "vertical, 32-bit table, window 5"},
		  {vpow2_75pf, "vertical, 32-bit, read in the reductions"},
		  {vpow2_75pc, "vertical, 32-bit, read before carry pass"}}, 5},
	};
	for (int i = 0; i < 3; i++)
		check_mul(size[i].mul, size[i].bits, size[i].N, rs);
	printf("exponentiations against mpz_powm (vertical and library): 24 random pairs (odd moduli, a\n"
	       "quarter with long runs of ones and zeros; a < pq; exponents of the half's size), and edges:\n"
	       "moduli {random, 2^b-1, 2^(b-1)+1} x a {0, 1, 2, p-1, p, q, pq-1} x exponents {0, 1, 2,\n"
	       "2^b-1, random with 40 low zero bits}, the halves swapped too\n");
	for (int i = 0; i < 3; i++) {
		check_pow(size[i].pow, size[i].bits, size[i].N, rs, "vertical exponentiation, 64-bit table");
		check_pow(size[i].pow_packed, size[i].bits, size[i].N, rs, "vertical exponentiation, 32-bit table");
	}
	check_pow(vpow2_56p4, 1536, 56, rs, "vertical exponentiation, 32-bit table, window 4");
	check_pow(vpow2_75p5, 2048, 75, rs, "vertical exponentiation, 32-bit table, window 5");
	check_pow(vpow2_38pf, 1024, 38, rs, "vertical exponentiation, read in the squarings");
	check_pow(vpow2_56pf, 1536, 56, rs, "vertical exponentiation, read in the squarings");
	check_pow(vpow2_75pf, 2048, 75, rs, "vertical exponentiation, read in the squarings");
	check_pow(vpow2_38pc, 1024, 38, rs, "vertical exponentiation, read before carry passes");
	check_pow(vpow2_56pc, 1536, 56, rs, "vertical exponentiation, read before carry passes");
	check_pow(vpow2_75pc, 2048, 75, rs, "vertical exponentiation, read before carry passes");
	if (fails) {
		fprintf(stderr, "vpow: %d checks failed; no timing\n", fails);
		return 1;
	}
	printf("\ncore cycles and ns for a^dp mod p and a^dq mod q (halves of the given bits, exponents of as\n"
	       "many chunks): the library = modexp_crt.c's exp_mod_prime twice (big_mont_reduce_ct,\n"
	       "big_mont_pow_ct on the adx kernels, the conversion out); each vertical variant = one dual\n"
	       "exponentiation; all alternating in each trial; min and median of %d trials; ratios to the\n"
	       "library: min/min, and the median of the trials' ratios\n"
	       " bits   N  side                                      w  cycles min     median    ns min    median  ratio  median ratio\n",
	       trials);
	for (int i = 0; i < 3; i++)
		time_pow(size[i].var, size[i].nvar, size[i].bits, size[i].N, trials, rs);
	printf("\nparts, core cycles a call for both halves (least of %d trials of %d calls):\n"
	       " bits   N  vsqr2   vmul2  select  select32  2xadx sqr  2x mul\n",
	       trials, REPS);
	for (int i = 0; i < 3; i++)
		time_parts(size[i].sq, size[i].mul, size[i].bits, size[i].N, trials, rs);
	return 0;
}
