/*
 * bench/lanes_kernels.c -- ticks per lane product and squaring (contract
 * in lanes_kernels.h).  As for the other tables: the best, over t->trials,
 * of the mean over RUN dependent calls (x = mul(x, b) or x = sqr(x)), on
 * random odd moduli of 28k - 4 bits in every lane and operands below them;
 * the two sides of the LANES<k>_ASM choices alternating trial by trial.
 */
#include "lanes_kernels.h"

#include <string.h>

#include "lanes/lanes.h"

#define RUN 16

static const int digits[BENCH_LANES_SIZES] = { 19, 37, 55, 74 };

struct call {
	big_lanes_mul_fn *mul;
	big_lanes_sqr_fn *sqr;
	uint64_t *seed;
	struct big_lanes_mod mod;
	uint64_t x[BIG_LANES_MAX_WORDS], b[BIG_LANES_MAX_WORDS];
};

static uint64_t run_calls(void *ctx)
{
	struct call *c = ctx;
	const uint64_t t0 = bench_ticks();
	if (c->mul) {
		for (int i = 0; i < RUN; i++)
			c->mul(c->x, c->x, c->b, &c->mod);
	} else {
		for (int i = 0; i < RUN; i++)
			c->sqr(c->x, c->x, &c->mod);
	}
	return bench_ticks() - t0;
}

void bench_lane_operands(uint64_t *m, uint64_t *k0, uint64_t *x, uint64_t *b, int k,
			 int digit_bits, uint64_t (*k0_of)(uint64_t), uint64_t *seed)
{
	const uint64_t mask = (UINT64_C(1) << digit_bits) - 1;
	for (int l = 0; l < BIG_LANES; l++) {
		for (int j = 0; j < k; j++) {
			m[BIG_LANES_AT(j, l)] = bench_splitmix64(seed) & mask;
			x[BIG_LANES_AT(j, l)] = bench_splitmix64(seed) & mask;
			b[BIG_LANES_AT(j, l)] = bench_splitmix64(seed) & mask;
		}
		/* The top digit of digit_bits - 4 bits. */
		const uint64_t top = (UINT64_C(1) << (digit_bits - 5)) |
				     (m[BIG_LANES_AT(k - 1, l)] >> 5);
		m[BIG_LANES_AT(k - 1, l)] = top;
		x[BIG_LANES_AT(k - 1, l)] = b[BIG_LANES_AT(k - 1, l)] = top >> 1;
		m[BIG_LANES_AT(0, l)] |= 1;
		k0[l] = k0_of(m[BIG_LANES_AT(0, l)]);
	}
}

static void setup_column(void *ctx, int s)
{
	struct call *c = ctx;
	const int k = digits[s];
	memset(&c->mod, 0, sizeof(c->mod));
	memset(c->x, 0, sizeof(c->x));
	memset(c->b, 0, sizeof(c->b));
	c->mod.digits = k;
	bench_lane_operands(c->mod.m, c->mod.k0, c->x, c->b, k, BIG_LANES_DIGIT_BITS, big_lanes_k0,
			    c->seed);
}

#if BIG_LANES_HAVE_AVX2_BUILD
/* Both sides of the LANES<k>_ASM choices (bignum/tuning.h): the
 * intrinsics and the NASM kernels at every size, on the same operands,
 * their runs alternating trial by trial, so that a change in the
 * machine's speed during the measurement reaches both alike. */
enum { SIDES = 2 };
static const struct {
	const char *name;
	big_lanes_mul_fn *mul;
	big_lanes_sqr_fn *sqr;
} sides[SIDES] = {
	{ "intrin", big_lanes_mul_avx2_intrin, big_lanes_sqr_avx2_intrin },
	{ "asm", big_lanes_mul_avx2_asm, big_lanes_sqr_avx2_asm },
};

/* The runs of one column: each side from the same operands. */
struct sides_run {
	struct call *c;
	int op; /* 0 the product, 1 the squaring */
	uint64_t x0[BIG_LANES_MAX_WORDS];
};

static void take_side(void *ctx, int i)
{
	struct sides_run *s = ctx;
	s->c->mul = s->op ? NULL : sides[i].mul;
	s->c->sqr = s->op ? sides[i].sqr : NULL;
	memcpy(s->c->x, s->x0, sizeof(s->x0));
}

static uint64_t run_side(void *ctx)
{
	return run_calls(((struct sides_run *)ctx)->c);
}

static void measure_sides(struct bench_lanes_table *t, struct call *c, uint64_t *seed,
			  struct bench_cycle_clock *clock)
{
	static struct sides_run s; /* 5 KB: off the stack */
	s.c = c;
	for (s.op = 0; s.op < 2; s.op++) {
		struct bench_kernel_row *row = &t->row[t->nrows];
		for (int i = 0; i < SIDES; i++)
			row[i] = (struct bench_kernel_row){ .name = sides[i].name,
							    .op = s.op ? "sqr" : "mul" };
		for (int col = 0; col < BENCH_LANES_SIZES; col++) {
			uint64_t best[SIDES];
			c->seed = seed;
			setup_column(c, col);
			memcpy(s.x0, c->x, sizeof(s.x0));
			bench_best_ticks_alternating(best, SIDES, take_side, run_side, &s,
						     t->trials, clock);
			for (int i = 0; i < SIDES; i++)
				row[i].ticks[col] = (double)best[i] / RUN;
		}
		t->nrows += SIDES;
	}
}
#endif

void bench_lanes_kernels_measure(struct bench_lanes_table *t, double trial_scale,
				 struct bench_cycle_clock *clock)
{
	memset(t, 0, sizeof(*t));
	t->trials = bench_kernel_trials(BENCH_LANES_TRIALS, trial_scale);
	static struct call c; /* 20 KB of operands: off the stack */
	uint64_t seed = 0x6c616e65u;
	const struct {
		const char *name;
		big_lanes_mul_fn *mul;
		big_lanes_sqr_fn *sqr;
		int runs;
	} builds[] = {
		{ "c", big_lanes_mul_c, big_lanes_sqr_c, 1 },
#if BIG_LANES_HAVE_AVX2_BUILD
		{ "avx2", big_lanes_mul_avx2, big_lanes_sqr_avx2, big_lanes_cpu_has_avx2() },
#endif
	};
	for (size_t b = 0; b < sizeof(builds) / sizeof(builds[0]); b++) {
		if (!builds[b].runs)
			continue;
		for (int op = 0; op < 2; op++) {
			struct bench_kernel_row *row = &t->row[t->nrows++];
			*row = (struct bench_kernel_row){ .name = builds[b].name,
							  .op = op ? "sqr" : "mul" };
			c.mul = op ? NULL : builds[b].mul;
			c.sqr = op ? builds[b].sqr : NULL;
			c.seed = &seed;
			bench_best_ticks_each(row->ticks, BENCH_LANES_SIZES, setup_column, run_calls,
					      &c, t->trials, RUN, clock);
		}
	}
#if BIG_LANES_HAVE_AVX2_BUILD
	if (big_lanes_cpu_has_avx2())
		measure_sides(t, &c, &seed, clock);
#endif
#if BIG_LANES_HAVE_AVX512_BUILD
	if (big_lanes_cpu_has_avx512())
		for (int op = 0; op < 2; op++) {
			struct bench_kernel_row *row = &t->row[t->nrows++];
			t->nzmm++;
			*row = (struct bench_kernel_row){ .name = "avx512",
							  .op = op ? "sqr" : "mul" };
			c.mul = op ? NULL : big_lanes_mul_avx512;
			c.sqr = op ? big_lanes_sqr_avx512 : NULL;
			c.seed = &seed;
			bench_best_ticks_each(row->ticks, BENCH_LANES_SIZES, setup_column, run_calls,
					      &c, t->trials, RUN, clock);
		}
#endif
}

static const char *const formula[2] = { "2(2k^2 + k) ymm vpmuludq",
					"2(k(k+1)/2 + k^2 + k) ymm vpmuludq" };
static const char *const formula_zmm[2] = { "2k^2 + k zmm vpmuludq",
					    "k(k+1)/2 + k^2 + k zmm vpmuludq" };

/* The zmm build's vpmuludq: one stream, half the ymm build's. */
static double zmm_count(const char *kernel, int k, int squaring)
{
	(void)kernel;
	return bench_peak_lanes_vpmuludq(k, squaring) / 2;
}

void bench_lanes_kernels_print(FILE *out, const struct bench_lanes_table *t,
			       double ticks_per_cycle, const struct bench_peak *peak)
{
	const int zmm_first = t->nrows - t->nzmm;
	fprintf(out, "lane kernels, 8 lanes (4 RSA operations x 2 CRT halves) per call, radix "
		"2^28 (best of %d runs of %d dependent calls)%s\n", t->trials, RUN,
		BENCH_HAVE_X86_PEAKS && t->nrows < 4 ? "; avx2: not run here" : "");
	bench_print_kernel_head(out, "build", digits, BENCH_LANES_SIZES, "digits per lane");
	bench_print_kernel_pairs(out, t->row, t->nrows, BENCH_LANES_SIZES, ticks_per_cycle);
	const char *why = peak->vpmuludq_why ? peak->vpmuludq_why
			  : peak->vpmuludq > 0 ? NULL : "no rate";
	if (!bench_peak_print_heading(out, "lane kernels", "vpmuludq", why, "ymm vpmuludq",
				      peak->vpmuludq) ||
	    zmm_first < 4)
		return;
	bench_peak_print_table(out, "build", digits, BENCH_LANES_SIZES, t->row + 2,
			       zmm_first - 2, ticks_per_cycle, peak->vpmuludq,
			       bench_peak_lanes_kernel_vpmuludq, formula);
	/* Each product needs its sum too (a column's first two share one):
	 * where the adds take the multiplies' ports, that, not the vpmuludq
	 * peak, is about where these kernels stop. */
	if (peak->muladd > 0)
		fprintf(out, "  with the vpaddq each product needs: %.2f pairs a core cycle, %.0f %% "
			"of the vpmuludq peak (about the most these kernels reach here)\n",
			peak->muladd, 100 * peak->muladd / peak->vpmuludq);
	if (t->nrows == zmm_first)
		return;
	const char *zwhy = peak->zmm_vpmuludq_why ? peak->zmm_vpmuludq_why
			   : peak->zmm_vpmuludq > 0 ? NULL : "no rate";
	if (!bench_peak_print_heading(out, "zmm lane kernels", "vpmuludq zmm", zwhy,
				      "zmm vpmuludq", peak->zmm_vpmuludq))
		return;
	bench_peak_print_table(out, "build", digits, BENCH_LANES_SIZES, t->row + zmm_first,
			       t->nrows - zmm_first, ticks_per_cycle, peak->zmm_vpmuludq,
			       zmm_count, formula_zmm);
	if (peak->zmm_muladd > 0)
		fprintf(out, "  with the vpaddq each product needs, on the same two ports: %.2f "
			"pairs a core cycle, %.0f %% of the zmm vpmuludq peak (about the most "
			"these kernels reach here)\n", peak->zmm_muladd,
			100 * peak->zmm_muladd / peak->zmm_vpmuludq);
}

void bench_lanes_kernels_json(struct json_writer *w, const struct bench_lanes_table *t,
			      double ticks_per_cycle, const struct bench_peak *peak)
{
	const int zmm_first = t->nrows - t->nzmm;
	struct bench_peak_json_table table = {
		.name_key = "build", .size_key = "digits", .count_key = "vpmuludq_ymm",
		.heads = digits, .n = BENCH_LANES_SIZES, .rate = peak->vpmuludq,
	};
	const int first = zmm_first > 2 ? 2 : zmm_first;
	bench_peak_json_rows(w, &table, t->row, first, ticks_per_cycle);
	table.count = bench_peak_lanes_kernel_vpmuludq;
	bench_peak_json_rows(w, &table, t->row + first, zmm_first - first, ticks_per_cycle);
	table.count_key = "vpmuludq_zmm";
	table.rate = peak->zmm_vpmuludq;
	table.count = zmm_count;
	bench_peak_json_rows(w, &table, t->row + zmm_first, t->nrows - zmm_first,
			     ticks_per_cycle);
}
