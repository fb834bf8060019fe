/*
 * bench/vertical_kernels.c -- ticks per pair of CRT exponentiations
 * (contract in vertical_kernels.h).  The best, over TRIALS, of one pair
 * each, on random odd moduli of full size, bases below them and
 * exponents of the halves' length; the two sides alternating trial by
 * trial.  Each side's result is checked against the other's first.
 */
#include "vertical_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lanes/lanes.h"
#include "vertical/vertical.h"

#define TRIALS BENCH_KERNEL_TRIALS(30)

static const int chunks[BENCH_VERTICAL_SIZES] = { 24, 32 };

#if BIG_VERT_HAVE_AVX2_BUILD
struct pair {
	int len, side;
	uint64_t n[2][32], rr[2][32], a[2][32], e[2][32], out[2][2][32];
	chunk_t *work;
};

/* The radix-2^64 side, per half: modexp_crt.c's exp_mod_prime. */
static void radix64_pair(struct pair *c)
{
	const int len = c->len;
	chunk_t *one = c->work, *one_m = one + len, *base_m = one_m + len, *acc = base_m + len;
	chunk_t *pow = acc + len;
	for (int h = 0; h < 2; h++) {
		const chunk_t n0 = big_n0(c->n[h][0]);
		for (int j = 0; j < len; j++)
			one[j] = j == 0;
		big_mont_mul_vec(one_m, c->rr[h], one, c->n[h], n0, len);
		big_mont_reduce_ct(base_m, c->a[h], len, c->n[h], n0, c->rr[h], len, 1);
		big_mont_pow_ct(acc, base_m, c->e[h], len, c->n[h], n0, one_m, len, pow);
		big_mont_mul_vec(c->out[0][h], acc, one, c->n[h], n0, len);
	}
}

static void vertical_pair(struct pair *c)
{
	const int len = c->len;
	chunk_t *a_p = c->work, *a_q = a_p + len;
	big_mont_reduce_ct(a_p, c->a[0], len, c->n[0], big_n0(c->n[0][0]), c->rr[0], len, 0);
	big_mont_reduce_ct(a_q, c->a[1], len, c->n[1], big_n0(c->n[1][0]), c->rr[1], len, 0);
	big_vert_pow2_avx2(c->out[1][0], c->out[1][1], a_p, a_q, c->e[0], c->e[1], len, c->n[0],
			   c->n[1], c->rr[0], c->rr[1], len, a_q + len);
}

static void take_side(void *ctx, int i)
{
	((struct pair *)ctx)->side = i;
}

static uint64_t run_side(void *ctx)
{
	struct pair *c = ctx;
	const uint64_t t0 = bench_ticks();
	if (c->side)
		vertical_pair(c);
	else
		radix64_pair(c);
	return bench_ticks() - t0;
}

/* Random odd moduli with the top bit set, R^2 mod each by the library,
 * bases below them (top chunk cleared), exponents of len chunks. */
static int setup(struct pair *c, int len, uint64_t *seed)
{
	memset(c->n, 0, sizeof(c->n));
	c->len = len;
	for (int h = 0; h < 2; h++) {
		for (int j = 0; j < len; j++) {
			c->n[h][j] = bench_splitmix64(seed);
			c->a[h][j] = j + 1 < len ? bench_splitmix64(seed) : 0;
			c->e[h][j] = bench_splitmix64(seed);
		}
		c->n[h][0] |= 1;
		c->n[h][len - 1] |= UINT64_C(1) << 63;
		BIGNUM n, rr;
		if (big_init(&n, len) != BIG_OK)
			return -1;
		if (big_init(&rr, len) != BIG_OK) {
			big_finish(&n);
			return -1;
		}
		memcpy(n.value, c->n[h], sizeof(uint64_t) * (size_t)len);
		n.len = len;
		n.sign = 1;
		const BIG_ERR_CODE err = big_mont_rr(&rr, &n);
		memset(c->rr[h], 0, sizeof(c->rr[h]));
		if (err == BIG_OK)
			memcpy(c->rr[h], rr.value, sizeof(uint64_t) * (size_t)rr.len);
		big_finish(&n);
		big_finish(&rr);
		if (err != BIG_OK)
			return -1;
	}
	return 0;
}
#endif

void bench_vertical_kernels_measure(struct bench_vertical_table *t, struct bench_cycle_clock *clock)
{
	memset(t, 0, sizeof(*t));
#if BIG_VERT_HAVE_AVX2_BUILD
	if (!big_lanes_cpu_has_avx2())
		return;
	static struct pair c; /* 3 KB of operands: off the stack */
	const size_t r64 = 4 * 32 + big_mont_pow_ct_scratch(32, 32);
	const size_t vert = 2 * 32 + big_vert_pow2_scratch(32, 32);
	c.work = malloc(sizeof(chunk_t) * (r64 > vert ? r64 : vert));
	if (c.work == NULL)
		return;
	uint64_t seed = 0x76657274u;
	t->row[0] = (struct bench_kernel_row){ .name = "radix64", .op = "pow" };
	t->row[1] = (struct bench_kernel_row){ .name = "vertical", .op = "pow" };
	for (int col = 0; col < BENCH_VERTICAL_SIZES; col++) {
		if (setup(&c, chunks[col], &seed) != 0)
			goto out;
		radix64_pair(&c);
		vertical_pair(&c);
		if (memcmp(c.out[0], c.out[1], sizeof(c.out[0])) != 0) {
			fprintf(stderr, "bigmont: --kernels: the vertical exponentiation differs from "
				"the radix-2^64 one at %d chunks\n", chunks[col]);
			abort();
		}
		uint64_t best[2];
		bench_best_ticks_alternating(best, 2, take_side, run_side, &c, TRIALS, clock);
		t->row[0].ticks[col] = (double)best[0];
		t->row[1].ticks[col] = (double)best[1];
	}
	t->nrows = 2;
out:
	free(c.work);
	c.work = NULL;
#else
	(void)clock;
#endif
}

void bench_vertical_kernels_print(FILE *out, const struct bench_vertical_table *t,
				  double ticks_per_cycle)
{
#if !defined(__x86_64__)
	/* An x86-64 path: the vector tables' line off x86-64 says so. */
	(void)out;
	(void)t;
	(void)ticks_per_cycle;
	return;
#endif
	fprintf(out, "CRT exponentiations of both halves, the two sides of VERTICAL (best of %d, "
		"alternating)%s\n", TRIALS, t->nrows ? "" : ": not run here (no AVX2 or no vertical build)");
	if (!t->nrows)
		return;
	bench_print_kernel_head(out, "side", chunks, BENCH_VERTICAL_SIZES, "chunks per half");
	bench_print_kernel_pairs(out, t->row, t->nrows, BENCH_VERTICAL_SIZES, ticks_per_cycle);
}

void bench_vertical_kernels_json(struct json_writer *w, const struct bench_vertical_table *t,
				 double ticks_per_cycle)
{
	const struct bench_peak_json_table table = {
		.name_key = "side", .size_key = "chunks", .count_key = "vpmuludq_ymm",
		.heads = chunks, .n = BENCH_VERTICAL_SIZES, .rate = NAN,
	};
	bench_peak_json_rows(w, &table, t->row, t->nrows, ticks_per_cycle);
}
