/*
 * bench/spike/hybrid.c -- spike (issue 43): checks and times
 * big_lanes_sqr37_hybrid_avx2 and big_lanes_mul37_hybrid_avx2
 * (bench/spike/lanes_{sqr,mul}37_hybrid_avx2.asm; the squaring's head
 * comment has the build line and the math).  Not in the build.  Built
 * with -DPR_NOPS (and the assembly with it) the rows are nops and only
 * the lanes are checked.
 *
 *   /tmp/hybrid [trials [seed [passenger offset mod 4096]]]
 *
 * (the offset: where the passenger's words sit against the kernel's
 * frame, for 4 KiB aliasing; it moved nothing above the noise).
 *
 * 1. The passenger rows alone (passenger_mont_mul16_adx) against GMP:
 *    random odd 1024-bit moduli (top bit set, random bit density), the
 *    all-ones modulus and 2^1023 + 1, operands < n with the edges 0, 1,
 *    n - 1 and all-ones limbs: t < 2n and t = a b 2^-1024 mod n.
 * 2. The fused kernels: their lane words equal big_lanes_sqr37_avx2_asm's
 *    and big_lanes_mul37_avx2_asm's bit for bit over chains of calls, and
 *    their two passenger results are GMP's (as in 1).
 * 3. Timing, rdtsc, one process, the squaring then the product, the five
 *    variants alternating within each trial, a trial = 16 dependent
 *    calls (for the product: big_mont_mul_vec_adx in (c), the passenger's
 *    b kept as its table entry):
 *    (a) fused (and the passenger's final subtraction in C, so its next
 *        input is < n: the chain is dependent on both sides);
 *    (b) the lane squaring alone;
 *    (c) the lane squaring, then two big_mont_sqr_vec_adx at 16 chunks
 *        (in place: dependent);
 *    (d) the lane squaring, then the two passenger products unwoven
 *        (passenger_mont_mul16x2_adx: the same double rows) and the same
 *        final subtraction;
 *    (e) as (d) with the products one after the other
 *        (passenger_mont_mul16_adx twice);
 *    (f), (g): (a), (d) without the final subtraction (the passenger's
 *        inputs then stay as they are: the rows' cost alone).
 *    Least and median over the trials, ticks a call; the rdtsc ticks a
 *    core cycle from a chain of dependent adds in the same run.
 */
#include <gmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "lanes/lanes.h"

struct passenger_job {
	uint64_t a[16], b[16], n[16], t[18], k0;
	uint64_t pad[128 - 67];
};
struct passenger {
	struct passenger_job job[2];
} __attribute__((aligned(64)));
_Static_assert(offsetof(struct passenger_job, b) == 128, "PR_B");
_Static_assert(offsetof(struct passenger_job, n) == 256, "PR_N");
_Static_assert(offsetof(struct passenger_job, t) == 384, "PR_T");
_Static_assert(offsetof(struct passenger_job, k0) == 528, "PR_K0");
_Static_assert(sizeof(struct passenger_job) == 1024, "PR_JOB");

void big_lanes_sqr37_hybrid_avx2(uint64_t *r, const uint64_t *a,
				 const struct big_lanes_mod *mod,
				 struct passenger *p);
void passenger_mont_mul16_adx(struct passenger *p, int job);
void passenger_mont_mul16x2_adx(struct passenger *p);
void big_lanes_mul37_hybrid_avx2(uint64_t *r, const uint64_t *a,
				 const uint64_t *b,
				 const struct big_lanes_mod *mod,
				 struct passenger *p);
big_lanes_sqr_fn big_lanes_sqr37_avx2_asm;
big_lanes_mul_fn big_lanes_mul37_avx2_asm;
void big_mont_mul_vec_adx(uint64_t *r, const uint64_t *a, const uint64_t *b,
			  const uint64_t *n, uint64_t n0, int len);
void big_mont_sqr_vec_adx(uint64_t *r, const uint64_t *a, const uint64_t *n,
			  uint64_t n0, int len);

#define K 37

static gmp_randstate_t rs;
static int failures;

static void fail(const char *what, long i)
{
	if (failures++ < 10)
		printf("FAIL %s (case %ld)\n", what, i);
}

static void to_words(uint64_t *w, int len, const mpz_t x)
{
	memset(w, 0, 8 * (size_t)len);
	size_t count;
	mpz_export(w, &count, -1, 8, 0, 0, x);
}

static void from_words(mpz_t x, const uint64_t *w, int len)
{
	mpz_import(x, (size_t)len, -1, 8, 0, 0, w);
}

static uint64_t inv_neg64(uint64_t n0)
{
	uint64_t x = n0; /* n0 x = 1 mod 8 */
	for (int i = 0; i < 6; i++)
		x *= 2 - n0 * x;
	return -x;
}

/* random with random bit density: AND/OR of a few random values */
static void rand_dense(mpz_t x, int bits)
{
	mpz_t y;
	mpz_init(y);
	mpz_urandomb(x, rs, bits);
	int mode = (int)gmp_urandomm_ui(rs, 5);
	for (int i = 0; i < 2 && mode; i++) {
		mpz_urandomb(y, rs, bits);
		if (mode <= 2)
			mpz_and(x, x, y);
		else
			mpz_ior(x, x, y);
	}
	mpz_clear(y);
}

static void rand_modulus(mpz_t n, long i)
{
	if (i == 0) { /* all ones */
		mpz_set_ui(n, 1);
		mpz_mul_2exp(n, n, 1024);
		mpz_sub_ui(n, n, 1);
	} else if (i == 1) { /* 2^1023 + 1 */
		mpz_set_ui(n, 1);
		mpz_mul_2exp(n, n, 1023);
		mpz_add_ui(n, n, 1);
	} else {
		rand_dense(n, 1024);
		mpz_setbit(n, 1023);
		mpz_setbit(n, 0);
	}
}

static void rand_operand(mpz_t a, const mpz_t n, long i)
{
	switch (i % 8) {
	case 0: mpz_set_ui(a, 0); break;
	case 1: mpz_set_ui(a, 1); break;
	case 2: mpz_sub_ui(a, n, 1); break;
	case 3: /* all-ones limbs below n: 2^(64 w) - 1 */
		mpz_set_ui(a, 1);
		mpz_mul_2exp(a, a, 64 * (1 + gmp_urandomm_ui(rs, 15)));
		mpz_sub_ui(a, a, 1);
		break;
	default: rand_dense(a, 1024); mpz_mod(a, a, n); break;
	}
}

static void set_job(struct passenger_job *j, const mpz_t n, const mpz_t a,
		    const mpz_t b)
{
	to_words(j->n, 16, n);
	to_words(j->a, 16, a);
	to_words(j->b, 16, b);
	j->k0 = inv_neg64(j->n[0]);
}

/* t < 2n and t = a b 2^-1024 mod n (built with -DPR_NOPS, as the
 * assembly, the rows are nops: nothing to check) */
static int job_ok(const struct passenger_job *j)
{
#ifdef PR_NOPS
	(void)j;
	return 1;
#endif
	mpz_t n, a, b, t, e, r, n2;
	mpz_inits(n, a, b, t, e, r, n2, NULL);
	from_words(n, j->n, 16);
	from_words(a, j->a, 16);
	from_words(b, j->b, 16);
	from_words(t, j->t, 17); /* t_17 is the rows' scratch */
	mpz_mul(e, a, b);
	mpz_set_ui(r, 1);
	mpz_mul_2exp(r, r, 1024);
	mpz_invert(r, r, n);
	mpz_mul(e, e, r);
	mpz_mod(e, e, n);
	mpz_mul_2exp(n2, n, 1);
	int ok = mpz_cmp(t, n2) < 0;
	mpz_mod(t, t, n);
	ok = ok && mpz_cmp(t, e) == 0;
	mpz_clears(n, a, b, t, e, r, n2, NULL);
	return ok;
}

/* the final subtraction: a = t mod n (t < 2n), constant time; b too for a
 * squaring (square != 0), b kept for a product (the passenger's table
 * entry) */
static void passenger_finish(struct passenger *p, int square)
{
	for (int k = 0; k < 2; k++) {
		struct passenger_job *j = &p->job[k];
		uint64_t u[16];
		unsigned char borrow = 0;
		for (int i = 0; i < 16; i++)
			borrow = _subborrow_u64(borrow, j->t[i], j->n[i],
						(unsigned long long *)&u[i]);
		unsigned long long top;
		borrow = _subborrow_u64(borrow, j->t[16], 0, &top);
		uint64_t keep = -(uint64_t)borrow; /* t < n: keep t */
		for (int i = 0; i < 16; i++) {
			uint64_t v = (j->t[i] & keep) | (u[i] & ~keep);
			j->a[i] = v;
			if (square)
				j->b[i] = v;
		}
	}
}

/* lane numbers: lane l's value x into digit words */
static void lane_set(uint64_t *w, int l, const mpz_t x)
{
	mpz_t y;
	mpz_init_set(y, x);
	for (int j = 0; j < K; j++) {
		w[BIG_LANES_AT(j, l)] = mpz_getlimbn(y, 0) & BIG_LANES_DIGIT_MASK;
		mpz_fdiv_q_2exp(y, y, 28);
	}
	mpz_clear(y);
}

static void lanes_setup(struct big_lanes_mod *mod, uint64_t *x)
{
	memset(mod, 0, sizeof *mod);
	mod->digits = K;
	mpz_t m, a;
	mpz_inits(m, a, NULL);
	for (int l = 0; l < BIG_LANES; l++) {
		rand_modulus(m, 2 + l);
		lane_set(mod->m, l, m);
		uint64_t k0 = inv_neg64(mpz_getlimbn(m, 0));
		mod->k0[l] = k0 & BIG_LANES_DIGIT_MASK;
		rand_dense(a, 1024);
		mpz_mod(a, a, m);
		lane_set(x, l, a);
	}
	mpz_clears(m, a, NULL);
}

/* rdtsc ticks a core cycle: least time of a chain of dependent adds (one
 * cycle each) */
static double ticks_per_cycle(void)
{
	uint64_t best = UINT64_MAX;
	for (int r = 0; r < 200; r++) {
		uint64_t x = 1, t = __rdtsc();
		for (int i = 0; i < 100; i++)
			__asm__ volatile(".rept 100\n\tadd %0, %0\n\t.endr"
					 : "+r"(x));
		t = __rdtsc() - t;
		if (t < best)
			best = t;
	}
	return (double)best / 10000.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* What the timing runs: the lanes (x, and b's lanes yb), the passenger
 * for the woven and unwoven rows, and the library's operands (xs, ys). */
struct timing_ctx {
	uint64_t *x, *yb;
	const struct big_lanes_mod *mod;
	struct passenger *p;
	uint64_t xs[2][16], ys[2][16], ns[2][16], k0s[2];
};

enum { NV = 7, CALLS = 16 };

/* One call of variant v (the letters of the head comment) of kind 0
 * (squaring) or 1 (product). */
static void run_variant(int kind, int v, struct timing_ctx *c)
{
	if (v == 5) { /* (f): (a) without the final subtraction */
		if (kind)
			big_lanes_mul37_hybrid_avx2(c->x, c->x, c->yb, c->mod,
						    c->p);
		else
			big_lanes_sqr37_hybrid_avx2(c->x, c->x, c->mod, c->p);
		return;
	}
	if (v == 0) {
		if (kind)
			big_lanes_mul37_hybrid_avx2(c->x, c->x, c->yb, c->mod,
						    c->p);
		else
			big_lanes_sqr37_hybrid_avx2(c->x, c->x, c->mod, c->p);
		passenger_finish(c->p, !kind);
		return;
	}
	if (kind)
		big_lanes_mul37_avx2_asm(c->x, c->x, c->yb, c->mod);
	else
		big_lanes_sqr37_avx2_asm(c->x, c->x, c->mod);
	switch (v) {
	case 2:
		for (int k = 0; k < 2; k++)
			if (kind)
				big_mont_mul_vec_adx(c->xs[k], c->xs[k],
						     c->ys[k], c->ns[k],
						     c->k0s[k], 16);
			else
				big_mont_sqr_vec_adx(c->xs[k], c->xs[k],
						     c->ns[k], c->k0s[k], 16);
		break;
	case 3:
		passenger_mont_mul16x2_adx(c->p);
		passenger_finish(c->p, !kind);
		break;
	case 4:
		passenger_mont_mul16_adx(c->p, 0);
		passenger_mont_mul16_adx(c->p, 1);
		passenger_finish(c->p, !kind);
		break;
	case 6: /* (g): (d) without the final subtraction */
		passenger_mont_mul16x2_adx(c->p);
		break;
	}
}

static void time_kind(int kind, struct timing_ctx *c, int trials, double tpc)
{
	uint64_t *tk = malloc(sizeof(uint64_t) * NV * (size_t)trials);
	if (!tk) {
		fprintf(stderr, "hybrid: out of memory\n");
		exit(1);
	}
	for (int w = -20; w < trials; w++)
		for (int v = 0; v < NV; v++) {
			uint64_t t0 = __rdtsc();
			for (int i = 0; i < CALLS; i++)
				run_variant(kind, v, c);
			uint64_t d = __rdtsc() - t0;
			if (w >= 0)
				tk[(size_t)v * trials + w] = d;
		}
	static const char *const what[2][3] = {
		{"squaring", "big_mont_sqr_vec_adx", "squarings"},
		{"product", "big_mont_mul_vec_adx", "products"}};
	char name[NV][64];
	snprintf(name[0], 64, "(a) fused lane %s + passenger", what[kind][0]);
	snprintf(name[1], 64, "(b) lane %s alone", what[kind][0]);
	snprintf(name[2], 64, "(c) (b) + 2 %s(16)", what[kind][1]);
	snprintf(name[3], 64, "(d) (b) + the double rows unwoven");
	snprintf(name[4], 64, "(e) (b) + 2 CIOS products one by one");
	snprintf(name[5], 64, "(f) (a) without the final subtraction");
	snprintf(name[6], 64, "(g) (d) without the final subtraction");
	printf("%s: rdtsc ticks a call, %d trials of %d dependent calls, "
	       "alternating (%.3f ticks a core cycle):\n", what[kind][0],
	       trials, CALLS, tpc);
	double lo[NV], med[NV];
	for (int v = 0; v < NV; v++) {
		uint64_t *s = tk + (size_t)v * trials;
		qsort(s, (size_t)trials, sizeof *s, cmp_u64);
		lo[v] = (double)s[0] / CALLS;
		med[v] = (double)s[trials / 2] / CALLS;
		printf("  %-44s least %7.0f  median %7.0f  (least %5.0f "
		       "core cycles)\n", name[v], lo[v], med[v], lo[v] / tpc);
	}
	for (int q = 0; q < 2; q++) {
		double *m = q ? med : lo;
		double lib = m[2] - m[1], own = m[3] - m[1], extra = m[0] - m[1];
		printf("%s: (a)/(c) %.3f  (a)/(b) %.3f  scalar cost: lib %.0f, "
		       "own unwoven %.0f, woven %.0f (hidden: %.0f%% of own, "
		       "%.0f%% of lib)\n",
		       q ? "median" : "least ", m[0] / m[2], m[0] / m[1], lib,
		       own, extra, 100 * (1 - extra / own),
		       100 * (1 - extra / lib));
		printf("        without the final subtraction: woven %.0f, "
		       "unwoven %.0f (hidden: %.0f%%)\n", m[5] - m[1],
		       m[6] - m[1], 100 * (1 - (m[5] - m[1]) / (m[6] - m[1])));
		printf("        per RSA op: lanes 4 ops (b)/4 = %.0f, fused 5 ops "
		       "(a)/5 = %.0f; against one op's two lib %s %.0f: "
		       "%.3f -> %.3f (x%.3f)\n",
		       m[1] / 4, m[0] / 5, what[kind][2], lib, m[1] / 4 / lib,
		       m[0] / 5 / lib, (m[0] / 5) / (m[1] / 4));
	}
	free(tk);
}

int main(int argc, char **argv)
{
	int trials = argc > 1 ? atoi(argv[1]) : 400;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 0) : 43;
	long shift = argc > 3 ? strtol(argv[3], NULL, 0) : 0;
	if (trials < 1 || shift < 0 || shift >= 4096 || shift % 64) {
		fprintf(stderr, "hybrid: usage: hybrid [trials [seed "
				"[passenger offset mod 4096, 0..4032, a "
				"multiple of 64]]]\n");
		return 2;
	}
	printf("seed %lu, passenger at offset %ld mod 4096 (replay: hybrid "
	       "%d %lu %ld)\n", seed, shift, trials, seed, shift);
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, seed);

	/* the passenger at a chosen offset mod 4096 (4 KiB aliasing with
	 * the kernel's frame) */
	static unsigned char pbuf[2 * 4096 + sizeof(struct passenger)]
		__attribute__((aligned(4096)));
	struct passenger *const pp = (struct passenger *)(pbuf + shift);
#define P (*pp)
	static struct big_lanes_mod mod;
	static uint64_t x[8 * K] __attribute__((aligned(64)));
	static uint64_t y[8 * K] __attribute__((aligned(64)));
	static uint64_t yb[8 * K] __attribute__((aligned(64)));
	mpz_t n, a, b;
	mpz_inits(n, a, b, NULL);

	/* 1. the rows alone */
	long cases = 0;
	for (long i = 0; i < 4000; i++, cases++) {
		rand_modulus(n, i % 50);
		rand_operand(a, n, i);
		rand_operand(b, n, i / 8 + (long)gmp_urandomm_ui(rs, 8));
		int k = (int)(i & 1);
		set_job(&P.job[k], n, a, b);
		passenger_mont_mul16_adx(&P, k);
		if (!job_ok(&P.job[k]))
			fail("passenger_mont_mul16_adx vs GMP", i);
		if (k == 1) {
			passenger_mont_mul16x2_adx(&P);
			if (!job_ok(&P.job[0]) || !job_ok(&P.job[1]))
				fail("passenger_mont_mul16x2_adx vs GMP", i);
		}
	}
	printf("rows alone: %ld products against GMP, %d failures\n", cases,
	       failures);

	/* 2. the fused kernel */
	int f0 = failures;
	cases = 0;
	for (long i = 0; i < 300; i++) {
		lanes_setup(&mod, x);
		memcpy(y, x, sizeof x);
		for (int k = 0; k < 2; k++) {
			rand_modulus(n, (i + k) % 50);
			rand_operand(a, n, i + 3 * k);
			rand_operand(b, n, i / 8 + k);
			set_job(&P.job[k], n, a, b);
		}
		for (int s = 0; s < 4; s++, cases++) {
			big_lanes_sqr37_hybrid_avx2(x, x, &mod, &P);
			big_lanes_sqr37_avx2_asm(y, y, &mod);
			if (memcmp(x, y, sizeof x) != 0)
				fail("fused lanes vs big_lanes_sqr37_avx2_asm", i);
			for (int k = 0; k < 2; k++)
				if (!job_ok(&P.job[k]))
					fail("fused passenger vs GMP", i);
			passenger_finish(&P, 1);
		}
	}
	printf("fused squaring: %ld calls, lanes bit for bit and both "
	       "passengers against GMP, %d failures\n", cases, failures - f0);
	f0 = failures;
	cases = 0;
	for (long i = 0; i < 300; i++) {
		lanes_setup(&mod, x);
		lanes_setup(&mod, yb); /* b's lanes under the same moduli */
		lanes_setup(&mod, x);
		memcpy(y, x, sizeof x);
		for (int k = 0; k < 2; k++) {
			rand_modulus(n, (i + 7 * k) % 50);
			rand_operand(a, n, i + 5 * k);
			rand_operand(b, n, i / 8 + 3 * k);
			set_job(&P.job[k], n, a, b);
		}
		for (int s = 0; s < 4; s++, cases++) {
			big_lanes_mul37_hybrid_avx2(x, x, yb, &mod, &P);
			big_lanes_mul37_avx2_asm(y, y, yb, &mod);
			if (memcmp(x, y, sizeof x) != 0)
				fail("fused lanes vs big_lanes_mul37_avx2_asm", i);
			for (int k = 0; k < 2; k++)
				if (!job_ok(&P.job[k]))
					fail("fused product's passenger vs GMP", i);
			passenger_finish(&P, 0);
		}
	}
	printf("fused product: %ld calls, lanes bit for bit and both "
	       "passengers against GMP, %d failures\n", cases, failures - f0);
	if (failures)
		return 1;

	/* 3. timing */
	lanes_setup(&mod, yb);
	lanes_setup(&mod, x);
	struct timing_ctx c = {.x = x, .yb = yb, .mod = &mod, .p = &P};
	for (int k = 0; k < 2; k++) {
		rand_modulus(n, 2 + k);
		rand_operand(a, n, 5);
		rand_operand(b, n, 6);
		set_job(&P.job[k], n, a, a);
		to_words(c.xs[k], 16, a);
		to_words(c.ys[k], 16, b);
		memcpy(c.ns[k], P.job[k].n, sizeof c.ns[k]);
		c.k0s[k] = P.job[k].k0;
	}
	double tpc = ticks_per_cycle();
	time_kind(0, &c, trials, tpc);
	for (int k = 0; k < 2; k++)
		memcpy(P.job[k].b, c.ys[k], sizeof c.ys[k]);
	time_kind(1, &c, trials, tpc);
	mpz_clears(n, a, b, NULL);
	return 0;
}
