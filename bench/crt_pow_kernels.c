/*
 * bench/crt_pow_kernels.c -- ticks per pair of CRT exponentiations
 * (contract in crt_pow_kernels.h).  The best, over t->trials, of one pair
 * each, on random odd moduli of full size, bases below them and
 * exponents of the halves' length; the two sides alternating trial by
 * trial.  Each side's result is checked against the other's first.
 */
#include "crt_pow_kernels.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "lanes/lanes.h"
#include "vertical/vertical.h"

static const int paired_chunks[BENCH_CRT_POW_SIZES] = { 8, 16 };
static const int vertical_chunks[BENCH_CRT_POW_SIZES] = { 24, 32 };

#if BIG_CHUNK_SIZE == 64
enum side { RADIX64, PAIRED, VERTICAL, VERTICAL_ZMM };

struct pair {
	int len;
	enum side other, side;
	uint64_t n[2][32], rr[2][32], a[32], e[2][32], out[2][2][32];
	chunk_t *work;
};

/* The sides as big_modexp_crt runs them (modexp_crt.c): two radix-2^64
 * exponentiations one after the other, or side by side, or the vertical
 * pair on ymm or on zmm. */
static void run_pair(struct pair *c, enum side side)
{
	const int len = c->len;
	if (side == RADIX64) {
		for (int h = 0; h < 2; h++)
			big_crt_exp_mod_prime(c->out[0][h], c->a, len, c->e[h], len, c->n[h],
					      c->rr[h], len, c->work);
	} else if (side == PAIRED) {
		chunk_t *const out[2] = { c->out[1][0], c->out[1][1] };
		const chunk_t *const e[2] = { c->e[0], c->e[1] };
		const chunk_t *const n[2] = { c->n[0], c->n[1] };
		const chunk_t *const rr[2] = { c->rr[0], c->rr[1] };
		big_crt_exp_mod_primes(out, c->a, len, e, len, n, rr, len, 2, c->work);
	} else {
#if BIG_VERT_HAVE_AVX2_BUILD
		big_vert_crt_pow2(c->out[1][0], c->out[1][1], c->a, len, c->e[0], c->e[1], len,
				  c->n[0], c->n[1], c->rr[0], c->rr[1], len, side == VERTICAL_ZMM,
				  c->work);
#endif
	}
}

static void take_side(void *ctx, int i)
{
	struct pair *c = ctx;
	c->side = i ? c->other : RADIX64;
}

static uint64_t run_side(void *ctx)
{
	struct pair *c = ctx;
	const uint64_t t0 = bench_ticks();
	run_pair(c, c->side);
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

/* One table: radix64 against `other` at the sizes `chunks`. */
static void measure_table(struct bench_crt_pow_table *t, struct pair *c, enum side other,
			  const char *name, uint64_t seed, struct bench_cycle_clock *clock)
{
	t->row[0] = (struct bench_kernel_row){ .name = "radix64", .op = "pow" };
	t->row[1] = (struct bench_kernel_row){ .name = name, .op = "pow" };
	for (int col = 0; col < BENCH_CRT_POW_SIZES; col++) {
		if (setup(c, t->chunks[col], &seed) != 0)
			return;
		c->other = other; /* after setup, which clears the operands and sides */
		run_pair(c, RADIX64);
		run_pair(c, other);
		if (memcmp(c->out[0], c->out[1], sizeof(c->out[0])) != 0) {
			fprintf(stderr, "bigmont: --kernels: the %s exponentiations differ from "
				"the radix-2^64 ones at %d chunks\n", name, t->chunks[col]);
			abort();
		}
		uint64_t best[2];
		bench_best_ticks_alternating(best, 2, take_side, run_side, c, t->trials, clock);
		t->row[0].ticks[col] = (double)best[0];
		t->row[1].ticks[col] = (double)best[1];
	}
	t->nrows = 2;
}
#endif

void bench_crt_pow_kernels_measure(struct bench_crt_pow_table *paired,
				   struct bench_crt_pow_table *vertical,
				   struct bench_crt_pow_table *zmm, double trial_scale,
				   struct bench_cycle_clock *clock)
{
	memset(paired, 0, sizeof(*paired));
	memset(vertical, 0, sizeof(*vertical));
	memset(zmm, 0, sizeof(*zmm));
	paired->chunks = paired_chunks;
	vertical->chunks = zmm->chunks = vertical_chunks;
	paired->trials = vertical->trials = zmm->trials =
		bench_kernel_trials(BENCH_CRT_POW_TRIALS, trial_scale);
#if BIG_CHUNK_SIZE == 64
	struct pair *c = calloc(1, sizeof(*c)); /* 3 KB of operands: off the stack */
	const size_t r64 = 2 * (4 * 32 + big_mont_pow_ct_scratch(32, 32));
#if BIG_VERT_HAVE_AVX2_BUILD
	const size_t vert = big_vert_crt_pow2_scratch(32, 32);
#else
	const size_t vert = 0;
#endif
	if (c == NULL || (c->work = malloc(sizeof(chunk_t) * (r64 > vert ? r64 : vert))) == NULL) {
		free(c);
		return;
	}
	measure_table(paired, c, PAIRED, "paired", 0x70616972u, clock);
#if BIG_VERT_HAVE_AVX2_BUILD
	if (big_lanes_cpu_has_avx2())
		measure_table(vertical, c, VERTICAL, "vertical", 0x76657274u, clock);
	if (big_vert_cpu_has_avx512())
		measure_table(zmm, c, VERTICAL_ZMM, "zmm", 0x7a6d6d76u, clock);
#endif
	free(c->work);
	free(c);
#else
	(void)clock;
#endif
}

void bench_crt_pow_kernels_print(FILE *out, const struct bench_crt_pow_table *paired,
				 const struct bench_crt_pow_table *vertical,
				 const struct bench_crt_pow_table *zmm, double ticks_per_cycle)
{
	const struct {
		const struct bench_crt_pow_table *t;
		const char *choice, *missing;
	} tables[3] = {
		{ paired, "CRT_PAIRED8", "not run here (32-bit chunks)" },
		{ vertical, "VERTICAL", "not run here (no AVX2 or no vertical build)" },
		{ zmm, "VERTICAL_ZMM", "not run here (no AVX-512F or no vertical build)" },
	};
	/* The vertical layer is an x86-64 path: off x86-64 the vector tables'
	 * line says so. */
	for (int i = 0; i < (BENCH_HAVE_X86_PEAKS ? 3 : 1); i++) {
		const struct bench_crt_pow_table *t = tables[i].t;
		fprintf(out, "%sCRT exponentiations of both halves, the two sides of %s (best of %d, "
			"alternating)%s%s\n", i ? "\n" : "", tables[i].choice, t->trials,
			t->nrows ? "" : ": ", t->nrows ? "" : tables[i].missing);
		if (!t->nrows)
			continue;
		bench_print_kernel_head(out, "side", t->chunks, BENCH_CRT_POW_SIZES,
					"chunks per half");
		bench_print_kernel_pairs(out, t->row, t->nrows, BENCH_CRT_POW_SIZES,
					 ticks_per_cycle);
	}
}

void bench_crt_pow_kernels_json(struct json_writer *w, const struct bench_crt_pow_table *t,
				const char *count_key, double ticks_per_cycle)
{
	const struct bench_peak_json_table table = {
		.name_key = "side", .size_key = "chunks", .count_key = count_key,
		.heads = t->chunks, .n = BENCH_CRT_POW_SIZES, .rate = NAN,
	};
	bench_peak_json_rows(w, &table, t->row, t->nrows, ticks_per_cycle);
}
