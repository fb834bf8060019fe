/*
 * bench/vertical_kernels.c -- ticks per pair of CRT exponentiations
 * (contract in vertical_kernels.h).  The best, over t->trials, of one pair
 * each, on random odd moduli of full size, bases below them and
 * exponents of the halves' length; the two sides alternating trial by
 * trial.  Each side's result is checked against the other's first.
 */
#include "vertical_kernels.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lanes/lanes.h"
#include "vertical/vertical.h"

static const int chunks[BENCH_VERTICAL_SIZES] = { 24, 32 };

#if BIG_VERT_HAVE_AVX2_BUILD
struct pair {
	int len, side;
	uint64_t n[2][32], rr[2][32], a[32], e[2][32], out[2][2][32];
	chunk_t *work;
};

/* The two sides as big_modexp_crt runs them (modexp_crt.c): two
 * radix-2^64 exponentiations, or the vertical pair. */
static void radix64_pair(struct pair *c)
{
	for (int h = 0; h < 2; h++)
		big_crt_exp_mod_prime(c->out[0][h], c->a, c->len, c->e[h], c->len, c->n[h],
				      c->rr[h], c->len, c->work);
}

static void vertical_pair(struct pair *c)
{
	big_vert_crt_pow2_avx2(c->out[1][0], c->out[1][1], c->a, c->len, c->e[0], c->e[1], c->len,
			       c->n[0], c->n[1], c->rr[0], c->rr[1], c->len, c->work);
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
 * a base below both (top chunk cleared), exponents of len chunks. */
static int setup(struct pair *c, int len, uint64_t *seed)
{
	memset(c, 0, offsetof(struct pair, work));
	c->len = len;
	for (int j = 0; j + 1 < len; j++)
		c->a[j] = bench_splitmix64(seed);
	for (int h = 0; h < 2; h++) {
		for (int j = 0; j < len; j++) {
			c->n[h][j] = bench_splitmix64(seed);
			c->e[h][j] = bench_splitmix64(seed);
		}
		c->n[h][0] |= 1;
		c->n[h][len - 1] |= UINT64_C(1) << 63;
		const BIGNUM n = { .size = len, .len = len, .sign = 1, .value = c->n[h] };
		if (big_mont_rr_vec(c->rr[h], NULL, &n, len) != BIG_OK)
			return -1;
	}
	return 0;
}
#endif

void bench_vertical_kernels_measure(struct bench_vertical_table *t, double trial_scale,
				    struct bench_cycle_clock *clock)
{
	memset(t, 0, sizeof(*t));
	t->trials = bench_kernel_trials(BENCH_VERTICAL_TRIALS, trial_scale);
#if BIG_VERT_HAVE_AVX2_BUILD
	if (!big_lanes_cpu_has_avx2())
		return;
	struct pair *c = calloc(1, sizeof(*c)); /* 3 KB of operands: off the stack */
	const size_t r64 = 4 * 32 + big_mont_pow_ct_scratch(32, 32);
	const size_t vert = big_vert_crt_pow2_scratch(32, 32);
	if (c == NULL || (c->work = malloc(sizeof(chunk_t) * (r64 > vert ? r64 : vert))) == NULL) {
		free(c);
		return;
	}
	uint64_t seed = 0x76657274u;
	t->row[0] = (struct bench_kernel_row){ .name = "radix64", .op = "pow" };
	t->row[1] = (struct bench_kernel_row){ .name = "vertical", .op = "pow" };
	for (int col = 0; col < BENCH_VERTICAL_SIZES; col++) {
		if (setup(c, chunks[col], &seed) != 0)
			goto out;
		radix64_pair(c);
		vertical_pair(c);
		if (memcmp(c->out[0], c->out[1], sizeof(c->out[0])) != 0) {
			fprintf(stderr, "bigmont: --kernels: the vertical exponentiation differs from "
				"the radix-2^64 one at %d chunks\n", chunks[col]);
			abort();
		}
		uint64_t best[2];
		bench_best_ticks_alternating(best, 2, take_side, run_side, c, t->trials, clock);
		t->row[0].ticks[col] = (double)best[0];
		t->row[1].ticks[col] = (double)best[1];
	}
	t->nrows = 2;
out:
	free(c->work);
	free(c);
#else
	(void)clock;
#endif
}

void bench_vertical_kernels_print(FILE *out, const struct bench_vertical_table *t,
				  double ticks_per_cycle)
{
#if defined(__x86_64__)
	fprintf(out, "CRT exponentiations of both halves, the two sides of VERTICAL (best of %d, "
		"alternating)%s\n", t->trials, t->nrows ? "" : ": not run here (no AVX2 or no vertical build)");
	if (!t->nrows)
		return;
	bench_print_kernel_head(out, "side", chunks, BENCH_VERTICAL_SIZES, "chunks per half");
	bench_print_kernel_pairs(out, t->row, t->nrows, BENCH_VERTICAL_SIZES, ticks_per_cycle);
#else
	/* An x86-64 path: the vector tables' line off x86-64 says so. */
	(void)out;
	(void)t;
	(void)ticks_per_cycle;
#endif
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
