/*
 * bench/mont_kernels.c -- ticks per Montgomery kernel call (contract in
 * mont_kernels.h).
 *
 * Each figure is the best, over the table's trials (bench_kernel_trials
 * of BENCH_MONT_TRIALS and --seconds), of the mean over a run of RUN
 * dependent calls (x = mont(x, b) or x = mont(x, x)), the shape of a
 * modular exponentiation, so latency between calls counts.  The table
 * reads walk their index so that every entry is taken in turn.  Operands
 * are random with the modulus' top bit set (RSA-like).
 */
#include "mont_kernels.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define RUN 32
#define MAXLEN 32

static const int lens[BENCH_MONT_LENS] = { 8, 12, 16, 24, 32 };
/* The window exponentiations' lengths (measure_pow). */
static const int pow_lens[BENCH_POW_LENS] = { 8, 16, 24, 32 };

/* Each variant of this build (BIG_CPU_VARIANTS), named by its kernels'
 * suffix; ifma's, adx's kernels again, is skipped below. */
#define VARIANT_ROW(arg, V, name, sfx, here)                                 \
	BIG_IF(here, { #sfx, big_mont_mul_vec_##sfx, big_mont_sqr_vec_##sfx, BIG_CPU_##V },)
static const struct variant {
	const char *name;
	big_mont_mul_vec_fn *mul;
	big_mont_sqr_vec_fn *sqr;
	enum big_cpu_variant needs;
} variants[] = { BIG_CPU_VARIANTS(VARIANT_ROW, ) };
#undef VARIANT_ROW

/* The operands of one sample; which function runs is the one set. */
struct call {
	big_mont_mul_vec_fn *mul;
	big_mont_sqr_vec_fn *sqr;
	big_ct_select_fn *select;
	big_mont_sqr_select_fn *sqr_select;
	int len, entries;
	uint64_t *seed; /* the operands' generator, shared by all rows */
	chunk_t n0, index;
	chunk_t n[MAXLEN], x[MAXLEN], b[MAXLEN], sel[MAXLEN];
	const chunk_t *table;
};

static uint64_t run_calls(void *ctx)
{
	struct call *c = ctx;
	uint64_t t0 = bench_ticks();
	if (c->mul) {
		for (int i = 0; i < RUN; i++)
			c->mul(c->x, c->x, c->b, c->n, c->n0, c->len);
	} else if (c->sqr) {
		for (int i = 0; i < RUN; i++)
			c->sqr(c->x, c->x, c->n, c->n0, c->len);
	} else if (c->select) {
		for (int i = 0; i < RUN; i++) {
			c->select(c->sel, c->table, c->entries, c->index, c->len);
			c->index = (c->index + 1) % (chunk_t)c->entries;
		}
	} else {
		for (int i = 0; i < RUN; i++) {
			c->sqr_select(c->x, c->x, c->n, c->n0, c->len, c->sel, c->table,
				      c->entries, c->index);
			c->index = (c->index + 1) % (chunk_t)c->entries;
		}
	}
	return bench_ticks() - t0;
}

/* A random odd modulus of len chunks with its top bit set, and x, b
 * below it. */
static void random_operands(struct call *c, int len, uint64_t *seed)
{
	c->len = len;
	for (int j = 0; j < len; j++) {
		c->n[j] = (chunk_t)bench_splitmix64(seed);
		c->x[j] = (chunk_t)bench_splitmix64(seed);
		c->b[j] = (chunk_t)bench_splitmix64(seed);
	}
	c->n[0] |= 1;
	c->n[len - 1] |= (chunk_t)1 << (BIG_CHUNK_SIZE - 1);
	c->x[len - 1] = c->b[len - 1] = c->n[len - 1] >> 1;
	c->n0 = big_n0(c->n[0]);
}

/* Column k: fresh operands of lens[k] chunks. */
static void setup_column(void *ctx, int k)
{
	struct call *c = ctx;
	random_operands(c, lens[k], c->seed);
}

/* One row: c's function at every length. */
static void measure_row(struct bench_kernel_row *row, struct call *c, uint64_t *seed,
			int trials, struct bench_cycle_clock *clock)
{
	c->seed = seed;
	bench_best_ticks_each(row->ticks, BENCH_MONT_LENS, setup_column, run_calls, c,
			      trials, RUN, clock);
}

#if BIGMONT_HAVE_ASM
/* Both sides of the adx product's choice at 16 chunks (bignum/tuning.h):
 * Karatsuba's (big_mont_mul_vec_adx) and the rows (_rows16), on the same
 * operands, their runs alternating trial by trial, so that a change in
 * the machine's speed during the measurement reaches both alike. */
enum { SIDES = 2 };
static const struct {
	const char *name;
	big_mont_mul_vec_fn *mul;
} sides[SIDES] = {
	{ "kara16", big_mont_mul_vec_adx },
	{ "rows16", big_mont_mul_vec_adx_rows16 },
};

/* The runs of the 16-chunk product: each side from the same operands. */
struct sides_run {
	struct call *c;
	chunk_t x0[MAXLEN];
};

static void take_side(void *ctx, int i)
{
	struct sides_run *s = ctx;
	s->c->mul = sides[i].mul;
	memcpy(s->c->x, s->x0, sizeof(s->x0));
}

static uint64_t run_side(void *ctx)
{
	return run_calls(((struct sides_run *)ctx)->c);
}

static void measure_mul16(struct bench_mont_table *t, struct call *c, uint64_t *seed,
			  struct bench_cycle_clock *clock)
{
	uint64_t best[SIDES];
	struct sides_run s = { .c = c };
	*c = (struct call){ .mul = sides[0].mul };
	random_operands(c, 16, seed);
	memcpy(s.x0, c->x, sizeof(s.x0));
	bench_best_ticks_alternating(best, SIDES, take_side, run_side, &s, t->trials, clock);
	for (int i = 0; i < SIDES; i++)
		t->mul16[i] = (struct bench_kernel_row){
			.name = sides[i].name, .op = "mul", .ticks = { (double)best[i] / RUN },
		};
	t->nmul16 = SIDES;
	t->mul16_bound = big_mont_mul16_karatsuba() ? "kara16" : "rows16";
}
#endif

#if BIGMONT_HAVE_ASM
/* The window exponentiation (an exponent as long as the modulus) with each
 * side of SELECT_VL (bignum/tuning.h) as the dispatch binds them in the
 * adx variant: the fused squaring and read at 8 chunks, the squaring and
 * big_ct_select's build elsewhere.  Trials alternating, both sides from
 * the same operands. */
static const struct {
	big_mont_sqr_select_fn *fused; /* 8 chunks, 32 entries */
	big_ct_select_fn *read;        /* elsewhere, after the squaring */
} pow_reads[2] = {
	{ big_mont_sqr_select_vec_adx, big_ct_select_avx2 },
	{ big_mont_sqr_select_vec_adx_vl, big_ct_select_vl },
};

static void sqr_read(int side, chunk_t *r, const chunk_t *a, const chunk_t *n, chunk_t n0,
		     int len, chunk_t *sel, const chunk_t *table, int entries, chunk_t index)
{
	if (len == 8 && entries == 32) {
		pow_reads[side].fused(r, a, n, n0, len, sel, table, entries, index);
		return;
	}
	big_mont_sqr_vec(r, a, n, n0, len);
	pow_reads[side].read(sel, table, entries, index, len);
}

static void sqr_read_avx2(chunk_t *r, const chunk_t *a, const chunk_t *n, chunk_t n0, int len,
			  chunk_t *sel, const chunk_t *table, int entries, chunk_t index)
{
	sqr_read(0, r, a, n, n0, len, sel, table, entries, index);
}

static void sqr_read_vl(chunk_t *r, const chunk_t *a, const chunk_t *n, chunk_t n0, int len,
			chunk_t *sel, const chunk_t *table, int entries, chunk_t index)
{
	sqr_read(1, r, a, n, n0, len, sel, table, entries, index);
}

static big_mont_sqr_select_fn *const pow_sides[2] = { sqr_read_avx2, sqr_read_vl };

struct pow_run {
	int side, len;
	chunk_t n[MAXLEN], base[MAXLEN], one[MAXLEN], e[MAXLEN], out[2][MAXLEN];
	chunk_t n0;
	chunk_t *scratch;
};

static void pow_side(void *ctx, int i)
{
	((struct pow_run *)ctx)->side = i;
}

static uint64_t pow_sample(void *ctx)
{
	struct pow_run *p = ctx;
	const uint64_t t0 = bench_ticks();
	big_mont_pow_ct_using(p->out[p->side], p->base, p->e, p->len, p->n, p->n0, p->one, p->len,
			      p->scratch, pow_sides[p->side]);
	return bench_ticks() - t0;
}

/* A random odd modulus of len chunks with its top bit set, R mod n and the
 * base in Montgomery form by the library's products, a random exponent. */
static void pow_operands(struct pow_run *p, int len, uint64_t *seed)
{
	chunk_t rr[MAXLEN];
	p->len = len;
	for (int j = 0; j < len; j++) {
		p->n[j] = (chunk_t)bench_splitmix64(seed);
		p->base[j] = (chunk_t)bench_splitmix64(seed);
		p->e[j] = (chunk_t)bench_splitmix64(seed);
		p->one[j] = 0;
	}
	p->n[0] |= 1;
	p->n[len - 1] |= (chunk_t)1 << (BIG_CHUNK_SIZE - 1);
	p->base[len - 1] = p->n[len - 1] >> 1;
	p->n0 = big_n0(p->n[0]);
	const BIGNUM n = { .size = len, .len = len, .sign = 1, .value = p->n };
	if (big_mont_rr_vec(rr, NULL, &n, len) != BIG_OK)
		abort();
	p->one[0] = 1;
	big_mont_mul_vec(p->one, rr, p->one, p->n, p->n0, len);
	big_mont_mul_vec(p->base, rr, p->base, p->n, p->n0, len);
}

static void measure_pow(struct bench_mont_table *t, uint64_t *seed, struct bench_cycle_clock *clock)
{
	if (big_cpu_best() < BIG_CPU_ADX || !big_ct_select_uses_avx2() || !big_ct_select_can_vl())
		return;
	struct pow_run *p = calloc(1, sizeof(*p));
	if (p == NULL ||
	    (p->scratch = malloc(sizeof(chunk_t) * big_mont_pow_ct_scratch(MAXLEN, MAXLEN))) == NULL) {
		free(p);
		return;
	}
	t->pow[0] = (struct bench_kernel_row){ .name = "avx2", .op = "pow" };
	t->pow[1] = (struct bench_kernel_row){ .name = "vl", .op = "pow" };
	for (int col = 0; col < BENCH_POW_LENS; col++) {
		pow_operands(p, pow_lens[col], seed);
		for (int s = 0; s < 2; s++) {
			p->side = s;
			pow_sample(p);
		}
		if (memcmp(p->out[0], p->out[1], sizeof(chunk_t) * (size_t)p->len) != 0) {
			fprintf(stderr, "bigmont: --kernels: the exponentiation with the AVX-512VL "
				"table read differs from the AVX2 one at %d chunks\n", pow_lens[col]);
			abort();
		}
		uint64_t best[2];
		bench_best_ticks_alternating(best, 2, pow_side, pow_sample, p, t->pow_trials,
					     clock);
		t->pow[0].ticks[col] = (double)best[0];
		t->pow[1].ticks[col] = (double)best[1];
	}
	t->npow = 2;
	t->pow_bound = big_ct_select_uses_vl() ? "vl" : "avx2";
	free(p->scratch);
	free(p);
}
#endif

int bench_mont_kernels_measure(struct bench_mont_table *t, double trial_scale,
			       struct bench_cycle_clock *clock)
{
	memset(t, 0, sizeof(*t));
	t->trials = bench_kernel_trials(BENCH_MONT_TRIALS, trial_scale);
	if (BIG_CHUNK_SIZE != 64)
		return 1;
	static chunk_t table[64 * MAXLEN];
	struct call c;
	uint64_t seed = 0x6d6f6e74u;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		table[i] = (chunk_t)bench_splitmix64(&seed);
	const enum big_cpu_variant best = big_cpu_best();
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		if (variants[v].needs > best ||
		    (v > 0 && variants[v].mul == variants[v - 1].mul))
			continue;
		for (int op = 0; op < 2; op++) {
			struct bench_kernel_row *row = &t->kernel[t->nkernels++];
			*row = (struct bench_kernel_row){ .name = variants[v].name, .op = op ? "sqr" : "mul" };
			c = (struct call){ .mul = op ? NULL : variants[v].mul,
					   .sqr = op ? variants[v].sqr : NULL };
			measure_row(row, &c, &seed, t->trials, clock);
		}
	}

#if BIGMONT_HAVE_ASM
	if (best >= BIG_CPU_ADX)
		measure_mul16(t, &c, &seed, clock);
#endif

	const struct {
		const char *name;
		big_ct_select_fn *fn;
		int usable;
	} reads[] = {
		{ "c", big_ct_select_c, 1 },
#if defined(__x86_64__)
		{ "avx2", big_ct_select_avx2, big_ct_select_uses_avx2() },
		{ "vl", big_ct_select_vl, big_ct_select_can_vl() },
#endif
	};
	t->select_bound = big_ct_select_uses_vl()     ? "vl"
			  : big_ct_select_uses_avx2() ? "avx2"
						      : "c";
	for (int e = 0; e < 2; e++)
		for (size_t k = 0; k < sizeof(reads) / sizeof(reads[0]); k++) {
			if (!reads[k].usable)
				continue;
			struct bench_kernel_row *row = &t->select[e][t->nselect[e]++];
			*row = (struct bench_kernel_row){ .name = reads[k].name, .op = "sel" };
			c = (struct call){ .select = reads[k].fn, .entries = 32 << e, .table = table };
			measure_row(row, &c, &seed, t->trials, clock);
		}

	const struct {
		const char *name;
		big_mont_sqr_select_fn *fn;
	} fused[] = {
		{ "one call", big_mont_sqr_select_vec },
		{ "two", big_mont_sqr_select_vec_separate },
	};
	t->sqr_select_bound = big_mont_sqr_select_uses_vl()    ? "adx_vl"
			      : big_mont_sqr_select_uses_adx() ? "adx"
								: "separate";
	for (int k = 0; k < 2; k++) {
		t->sqr_select[k] = (struct bench_kernel_row){ .name = fused[k].name };
		c = (struct call){ .sqr_select = fused[k].fn, .entries = 32, .table = table };
		measure_row(&t->sqr_select[k], &c, &seed, t->trials, clock);
	}
	t->pow_trials = bench_kernel_trials(BENCH_POW_TRIALS, trial_scale);
#if BIGMONT_HAVE_ASM
	measure_pow(t, &seed, clock);
#endif
	return 0;
}

static const char *const formula[2] = { "n^2 + n^2 + n mulx", "n(n+1)/2 + n^2 + n mulx" };

static void print_bounds(FILE *out, const struct bench_mont_table *t, double ticks_per_cycle,
			 const struct bench_peak *peak)
{
	if (!bench_peak_print_heading(out, "Montgomery kernels", "mulx", peak->mulx_why, "mulx",
				      peak->mulx))
		return;
	bench_peak_print_table(out, "variant", lens, BENCH_MONT_LENS, t->kernel, t->nkernels,
			       ticks_per_cycle, peak->mulx, bench_peak_mont_kernel_mulx, formula);
	if (t->nmul16 > 0)
		bench_peak_print_table(out, "product", lens + 2, 1, t->mul16, t->nmul16,
				       ticks_per_cycle, peak->mulx, bench_peak_mont_kernel_mulx,
				       formula);
}

void bench_mont_kernels_json(struct json_writer *w, const struct bench_mont_table *t,
			     double ticks_per_cycle, const struct bench_peak *peak)
{
	struct bench_peak_json_table table = {
		.name_key = "variant", .size_key = "chunks", .count_key = "mulx",
		.heads = lens, .n = BENCH_MONT_LENS, .rate = peak->mulx,
		.count = bench_peak_mont_kernel_mulx,
	};
	bench_peak_json_rows(w, &table, t->kernel, t->nkernels, ticks_per_cycle);
	table.build = "adx";
	table.heads = lens + 2; /* 16 */
	table.n = 1;
	bench_peak_json_rows(w, &table, t->mul16, t->nmul16, ticks_per_cycle);
}

void bench_mont_kernels_print(FILE *out, const struct bench_mont_table *t,
			      double ticks_per_cycle, const struct bench_peak *peak)
{
	if (t->nkernels == 0) {
		fprintf(out, "Montgomery kernels: not measured (needs 64-bit chunks)\n");
		return;
	}
	fprintf(out, "Montgomery kernels, per call (best of %d runs of %d dependent calls)\n",
		t->trials, RUN);
	bench_print_kernel_head(out, "variant", lens, BENCH_MONT_LENS, "len, chunks");
	bench_print_kernel_pairs(out, t->kernel, t->nkernels, BENCH_MONT_LENS, ticks_per_cycle);
	if (t->nmul16 > 0) {
		fprintf(out, "the adx product at 16 chunks each way, runs alternating (the adx "
			"rows time kara16; this CPU binds %s)\n", t->mul16_bound);
		bench_print_kernel_head(out, "product", lens + 2, 1, "len, chunks");
		bench_print_kernel_pairs(out, t->mul16, t->nmul16, 1, ticks_per_cycle);
	}
	print_bounds(out, t, ticks_per_cycle, peak);
	for (int e = 0; e < 2; e++) {
		fprintf(out, "table read of %d entries (big_ct_select, bound to %s), " BENCH_TICKS_NAME " per call\n",
			32 << e, t->select_bound);
		bench_print_kernel_rows(out, t->select[e], t->nselect[e], BENCH_MONT_LENS, 1.0,
					BENCH_TICKS_UNIT);
	}
	fprintf(out, "squaring + table read of 32 entries (big_mont_sqr_select_vec, bound to %s), " BENCH_TICKS_NAME " per call\n",
		t->sqr_select_bound);
	bench_print_kernel_rows(out, t->sqr_select, 2, BENCH_MONT_LENS, 1.0, BENCH_TICKS_UNIT);
	if (t->npow == 0)
		return;
	fprintf(out, "window exponentiation (big_mont_pow_ct, exponent of len chunks) with each "
		"table read, the two sides of SELECT_VL (best of %d, alternating; this CPU "
		"binds %s)\n", t->pow_trials, t->pow_bound);
	bench_print_kernel_head(out, "side", pow_lens, BENCH_POW_LENS, "len, chunks");
	bench_print_kernel_pairs(out, t->pow, t->npow, BENCH_POW_LENS, ticks_per_cycle);
}
