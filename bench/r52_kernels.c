/*
 * bench/r52_kernels.c -- ticks per radix-2^52 dual product and squaring
 * (contract in r52_kernels.h).
 *
 * As for the Montgomery kernels (mont_kernels.c): the best, over the
 * table's trials (bench_kernel_trials of BENCH_R52_TRIALS and --seconds),
 * of the mean over RUN dependent calls (x = mul(x, b) or x = sqr(x)), on
 * random moduli of 52k - 4 bits (an RSA prime's length in k digits) and
 * operands below them.
 *
 * At 20 digits the ifma build's entry points call the NASM kernels and
 * then zero the stack frame those leave, which costs about a fifth of a
 * squaring; the exponentiation zeroes it once, after its last product.
 * So the runs call the NASM kernels themselves there and zero the frame
 * once after the RUN calls, as the exponentiation does.
 */
#include "r52_kernels.h"

#include <string.h>

#include "internal.h"
#include "radix52/radix52.h"

#define RUN 32

static const int digits[BENCH_R52_SIZES] = { 10, 20, 30, 40 };
static const int side_digits[BENCH_R52_SIDE_SIZES] = { 10, 30, 40 };

#if BIG_CHUNK_SIZE == 64 /* big_n0 gives the low 52 bits of k0 */
struct call {
	big_r52_dual_mul_fn *mul;
	big_r52_dual_sqr_fn *sqr;
	/* At 20 digits, call these NASM kernels instead (above); NULL: the
	 * build's own functions. */
	big_r52_dual_mul_fn *mul20;
	big_r52_dual_sqr_fn *sqr20;
	uint64_t *seed;
	struct big_r52_dual_mod mod;
	uint64_t x[BIG_R52_PAIR_MAX_WORDS], b[BIG_R52_PAIR_MAX_WORDS];
};

static uint64_t run_calls(void *ctx)
{
	struct call *c = ctx;
	big_r52_dual_mul_fn *mul = c->mul;
	big_r52_dual_sqr_fn *sqr = c->sqr;
#if BIG_R52_HAVE_IFMA_BUILD
	const int asm20 = c->mul20 != NULL && c->mod.digits == 20;
	if (asm20) {
		mul = mul ? c->mul20 : NULL;
		sqr = sqr ? c->sqr20 : NULL;
	}
#endif
	uint64_t t0 = bench_ticks();
	if (mul) {
		for (int i = 0; i < RUN; i++)
			mul(c->x, c->x, c->b, &c->mod);
	} else {
		for (int i = 0; i < RUN; i++)
			sqr(c->x, c->x, &c->mod);
	}
	const uint64_t ticks = bench_ticks() - t0;
#if BIG_R52_HAVE_IFMA_BUILD
	if (asm20)
		big_r52_dual20_ifma_wipe(); /* at the calls' depth, as its contract asks */
#endif
	return ticks;
}

/* Random odd moduli of 52k - 4 bits in both halves, x and b below them. */
static void random_operands(struct call *c, int k, uint64_t *seed)
{
	memset(c->x, 0, sizeof(c->x));
	memset(c->b, 0, sizeof(c->b));
	memset(&c->mod, 0, sizeof(c->mod));
	c->mod.digits = k;
	c->mod.halves = 2;
	for (int h = 0; h < 2; h++) {
		for (int j = 0; j < k; j++) {
			c->mod.m[BIG_R52_AT(h, j)] = bench_splitmix64(seed) & BIG_R52_DIGIT_MASK;
			c->x[BIG_R52_AT(h, j)] = bench_splitmix64(seed) & BIG_R52_DIGIT_MASK;
			c->b[BIG_R52_AT(h, j)] = bench_splitmix64(seed) & BIG_R52_DIGIT_MASK;
		}
		const uint64_t top = (UINT64_C(1) << 47) | (c->mod.m[BIG_R52_AT(h, k - 1)] >> 5);
		c->mod.m[BIG_R52_AT(h, k - 1)] = top;
		c->x[BIG_R52_AT(h, k - 1)] = c->b[BIG_R52_AT(h, k - 1)] = top >> 1;
		c->mod.m[BIG_R52_AT(h, 0)] |= 1;
		c->mod.k0[h] = (uint64_t)big_n0(c->mod.m[BIG_R52_AT(h, 0)]) & BIG_R52_DIGIT_MASK;
	}
	big_r52_dual_mod_prepare(&c->mod);
}

/* Column s: fresh moduli and operands of digits[s] digits. */
static void setup_column(void *ctx, int s)
{
	struct call *c = ctx;
	random_operands(c, digits[s], c->seed);
}

#if BIG_R52_HAVE_IFMA_BUILD
/* Both tunings of the 20-digit kernels (radix52.h) on the same operands,
 * their runs alternating trial by trial, so that a change in the
 * machine's speed during the measurement reaches both alike. */
enum { TUNINGS = 2 };
static const struct {
	const char *name;
	big_r52_dual_mul_fn *mul;
	big_r52_dual_sqr_fn *sqr;
} tunings[TUNINGS] = {
	{ "amd", big_r52_dual_mul20_ifma_amd, big_r52_dual_sqr20_ifma_amd },
	{ "intel", big_r52_dual_mul20_ifma_intel, big_r52_dual_sqr20_ifma_intel },
};

static void take_tuning(void *ctx, int i)
{
	struct call *c = ctx;
	c->mul20 = tunings[i].mul;
	c->sqr20 = tunings[i].sqr;
}

static void measure_tunings(struct bench_r52_table *t, struct call *c, uint64_t *seed,
			    struct bench_cycle_clock *clock)
{
	t->running = big_r52_kernels20_intel() ? "intel" : "amd";
	for (int op = 0; op < 2; op++) {
		uint64_t best[TUNINGS];
		c->mul = op ? NULL : big_r52_dual_mul_ifma;
		c->sqr = op ? big_r52_dual_sqr_ifma : NULL;
		random_operands(c, 20, seed);
		bench_best_ticks_alternating(best, TUNINGS, take_tuning, run_calls, c, t->trials,
					     clock);
		for (int i = 0; i < TUNINGS; i++)
			t->tuned[t->ntuned + 2 * i + op] = (struct bench_kernel_row){
				.name = tunings[i].name,
				.op = op ? "sqr" : "mul",
				.ticks = { (double)best[i] / RUN },
			};
	}
	t->ntuned += 2 * TUNINGS;
}

/* Each side of the IFMA choices at 10, 30 and 40 digits
 * (bignum/tuning.h): the product on the ymm halves and on pair groups,
 * the dedicated squaring on the ymm halves and the squaring on pair
 * groups (taken with the pair product; at 10 digits the square by it),
 * called by name on the same operands, their runs alternating trial by
 * trial. */
enum { SIDES = 4 };
static const struct {
	const char *name, *op;
	big_r52_dual_mul_fn *mul;
	big_r52_dual_sqr_fn *sqr;
} sides[SIDES] = {
	{ "ymm", "mul", big_r52_dual_mul_halves_ifma, NULL },
	{ "pairs", "mul", big_r52_dual_mul_pairs_ifma, NULL },
	{ "ymm", "sqr", NULL, big_r52_dual_sqr_dedicated_ifma },
	{ "pairs", "sqr", NULL, big_r52_dual_sqr_pairs_ifma },
};

static void take_side(void *ctx, int i)
{
	struct call *c = ctx;
	c->mul = sides[i].mul;
	c->sqr = sides[i].sqr;
}

static void measure_sides(struct bench_r52_table *t, struct call *c, uint64_t *seed,
			  struct bench_cycle_clock *clock)
{
	for (int i = 0; i < SIDES; i++)
		t->side[i] = (struct bench_kernel_row){ .name = sides[i].name, .op = sides[i].op };
	for (int col = 0; col < BENCH_R52_SIDE_SIZES; col++) {
		uint64_t best[SIDES];
		random_operands(c, side_digits[col], seed);
		c->mul20 = NULL;
		c->sqr20 = NULL;
		bench_best_ticks_alternating(best, SIDES, take_side, run_calls, c, t->trials,
					     clock);
		for (int i = 0; i < SIDES; i++)
			t->side[i].ticks[col] = (double)best[i] / RUN;
	}
	t->nsides = SIDES;
	int bound = 0;
	for (int col = 0; col < BENCH_R52_SIDE_SIZES; col++)
		if (big_r52_mul_pairs_wanted(side_digits[col]))
			bound |= 1 << col;
	static const char *const sets[8] = { "neither", "10", "30", "10 and 30",
					     "40", "10 and 40", "30 and 40", "10, 30 and 40" };
	snprintf(t->pairs_at, sizeof(t->pairs_at), "%s", sets[bound]);
	t->sqr30_by = big_r52_pow_sqr30_dedicated() ? "the dedicated squaring"
		      : big_r52_mul_pairs_wanted(30) ? "the pair squaring"
						     : "the product";
}
#endif
#endif

int bench_r52_kernels_measure(struct bench_r52_table *t, double trial_scale,
			      struct bench_cycle_clock *clock)
{
	memset(t, 0, sizeof(*t));
	t->trials = bench_kernel_trials(BENCH_R52_TRIALS, trial_scale);
#if BIG_CHUNK_SIZE == 64
	static struct call c; /* 5 KB of operands: off the stack */
	uint64_t seed = 0x72353275u;
	const struct {
		const char *name;
		big_r52_dual_mul_fn *mul;
		big_r52_dual_sqr_fn *sqr;
		int runs;
		big_r52_dual_mul_fn *mul20;
		big_r52_dual_sqr_fn *sqr20;
	} builds[] = {
		{ "c", big_r52_dual_mul_c, big_r52_dual_sqr_c, 1, NULL, NULL },
#if BIG_R52_HAVE_IFMA_BUILD
		{ "ifma", big_r52_dual_mul_ifma, big_r52_dual_sqr_ifma, big_r52_cpu_has_ifma(),
		  big_r52_dual_mul20_ifma_asm, big_r52_dual_sqr20_ifma_asm },
#endif
	};
	for (size_t b = 0; b < sizeof(builds) / sizeof(builds[0]); b++) {
		if (!builds[b].runs)
			continue;
		for (int op = 0; op < 2; op++) {
			struct bench_kernel_row *row = &t->row[t->nrows++];
			*row = (struct bench_kernel_row){ .name = builds[b].name, .op = op ? "sqr" : "mul" };
			c.mul = op ? NULL : builds[b].mul;
			c.sqr = op ? builds[b].sqr : NULL;
			c.mul20 = builds[b].mul20;
			c.sqr20 = builds[b].sqr20;
			c.seed = &seed;
			bench_best_ticks_each(row->ticks, BENCH_R52_SIZES, setup_column, run_calls,
					      &c, t->trials, RUN, clock);
		}
	}
#if BIG_R52_HAVE_IFMA_BUILD
	if (big_r52_cpu_has_ifma()) {
		measure_tunings(t, &c, &seed, clock);
		measure_sides(t, &c, &seed, clock);
	}
#endif
	return 0;
#else
	(void)clock;
	return 1;
#endif
}

static const char *const formula[2] = { "k^2 zmm vpmadd52", "(3k^2 + k)/4 zmm vpmadd52" };

/* The rows of the build that multiplies with IFMA: they follow the c
 * twin's, which have no vector multiplier to be bounded by. */
static int ifma_first(const struct bench_r52_table *t)
{
	return t->nrows > 2 ? 2 : t->nrows;
}

static void print_bounds(FILE *out, const struct bench_r52_table *t, double ticks_per_cycle,
			 const struct bench_peak *peak)
{
	const double rate = bench_peak_ifma(peak);
	if (!bench_peak_print_heading(out, "radix-2^52 dual kernels", "vpmadd52luq",
				      peak->ifma_why, "zmm vpmadd52", rate))
		return;
	fprintf(out, "(one zmm vpmadd52: 8 lane products, lo or hi; k^2 + k^2 products per half, "
		"k(k+1)/2 + k^2 squaring)\n");
	const int first = ifma_first(t);
	bench_peak_print_table(out, "build", digits, BENCH_R52_SIZES, t->row + first,
			       t->nrows - first, ticks_per_cycle, rate, bench_peak_r52_kernel_vpmadd52,
			       formula);
	if (t->ntuned > 0)
		bench_peak_print_table(out, "tuning", digits + 1, 1, t->tuned, t->ntuned,
				       ticks_per_cycle, rate, bench_peak_r52_kernel_vpmadd52, formula);
	if (t->nsides > 0)
		bench_peak_print_table(out, "side", side_digits, BENCH_R52_SIDE_SIZES, t->side,
				       t->nsides, ticks_per_cycle, rate, bench_peak_r52_kernel_vpmadd52,
				       formula);
}

void bench_r52_kernels_json(struct json_writer *w, const struct bench_r52_table *t,
			    double ticks_per_cycle, const struct bench_peak *peak)
{
	struct bench_peak_json_table table = {
		.name_key = "build", .size_key = "digits", .count_key = "vpmadd52_zmm",
		.heads = digits, .n = BENCH_R52_SIZES, .rate = bench_peak_ifma(peak),
	};
	const int first = ifma_first(t);
	bench_peak_json_rows(w, &table, t->row, first, ticks_per_cycle);
	table.count = bench_peak_r52_kernel_vpmadd52;
	bench_peak_json_rows(w, &table, t->row + first, t->nrows - first, ticks_per_cycle);
	table.build = "ifma";
	table.heads = digits + 1;
	table.n = 1;
	bench_peak_json_rows(w, &table, t->tuned, t->ntuned, ticks_per_cycle);
	table.heads = side_digits;
	table.n = BENCH_R52_SIDE_SIZES;
	bench_peak_json_rows(w, &table, t->side, t->nsides, ticks_per_cycle);
}

void bench_r52_kernels_print(FILE *out, const struct bench_r52_table *t,
			     double ticks_per_cycle, const struct bench_peak *peak)
{
	if (t->nrows == 0) {
		fprintf(out, "radix-2^52 dual kernels: not measured (needs 64-bit chunks)\n");
		return;
	}
	fprintf(out, "radix-2^52 dual kernels, both CRT halves per call (best of %d runs of %d "
		"dependent calls)%s\n", t->trials, RUN,
		BENCH_HAVE_X86_PEAKS && t->nrows < 4 ? "; ifma: not run, this CPU lacks AVX-512 IFMA"
						      : "");
	bench_print_kernel_head(out, "build", digits, BENCH_R52_SIZES, "digits per half");
	bench_print_kernel_pairs(out, t->row, t->nrows, BENCH_R52_SIZES, ticks_per_cycle);
	if (t->ntuned > 0) {
		fprintf(out, "the 20-digit NASM kernels in each tuning, runs alternating (this "
			"CPU's: %s, the ifma rows' 20 column)\n", t->running);
		bench_print_kernel_head(out, "tuning", digits + 1, 1, "digits per half");
		bench_print_kernel_pairs(out, t->tuned, t->ntuned, 1, ticks_per_cycle);
	}
	if (t->nsides > 0) {
		fprintf(out, "the product and the squaring at 10, 30 and 40 digits on the ymm halves "
			"and on pair groups (at 10 the pair squaring is the square by the pair "
			"product), runs alternating (this CPU binds the pairs at: %s; squares at 30 "
			"in the exponentiation by %s)\n", t->pairs_at, t->sqr30_by);
		bench_print_kernel_head(out, "side", side_digits, BENCH_R52_SIDE_SIZES,
					"digits per half");
		bench_print_kernel_rows(out, t->side, t->nsides, BENCH_R52_SIDE_SIZES, 1.0, "ticks");
		bench_print_kernel_rows(out, t->side, t->nsides, BENCH_R52_SIDE_SIZES,
					ticks_per_cycle, "core cycles");
	}
	print_bounds(out, t, ticks_per_cycle, peak);
}
