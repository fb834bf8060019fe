/*
 * bench/lanes52_kernels.c -- ticks per radix-2^52 lane product and
 * squaring (contract in lanes52_kernels.h).  As for the radix-2^28 lanes
 * (lanes_kernels.c): the best, over t->trials, of the mean over RUN
 * dependent calls (x = mul(x, b) or x = sqr(x)), on random odd moduli of
 * 52k - 4 bits in every lane and operands below them.
 */
#include "lanes52_kernels.h"

#include <math.h>
#include <string.h>

#include "lanes_kernels.h"

#include "lanes/lanes52.h"

#define RUN 16

static const int digits[BENCH_LANES52_SIZES] = { 10, 20, 30, 40 };

#if BIG_LANES52_HAVE_IFMA_BUILD
struct call {
	int squaring;
	int build; /* the IFMA build's kernels (0), the FMA build's (1), its zmm form's (2) */
	uint64_t *seed;
	struct big_lanes52_mod mod;
	uint64_t x[BIG_LANES52_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t b[BIG_LANES52_MAX_WORDS] __attribute__((aligned(64)));
};

static uint64_t run_calls(void *ctx)
{
	struct call *c = ctx;
	big_lanes52_sqr_fn *const sqrs[] = { big_lanes52_sqr_ifma, big_lanes52_sqr_fma,
					     big_lanes52_sqr_fma512 };
	big_lanes52_mul_fn *const muls[] = { big_lanes52_mul_ifma, big_lanes52_mul_fma,
					     big_lanes52_mul_fma512 };
	big_lanes52_sqr_fn *sqr = sqrs[c->build];
	big_lanes52_mul_fn *mul = muls[c->build];
	const uint64_t t0 = bench_ticks();
	if (c->squaring) {
		for (int i = 0; i < RUN; i++)
			sqr(c->x, c->x, &c->mod);
	} else {
		for (int i = 0; i < RUN; i++)
			mul(c->x, c->x, c->b, &c->mod);
	}
	return bench_ticks() - t0;
}

static void setup_column(void *ctx, int s)
{
	struct call *c = ctx;
	const int k = digits[s];
	memset(&c->mod, 0, sizeof(c->mod));
	memset(c->x, 0, sizeof(c->x));
	memset(c->b, 0, sizeof(c->b));
	c->mod.digits = k;
	bench_lane_operands(c->mod.m, c->mod.k0, c->x, c->b, k, BIG_LANES52_DIGIT_BITS,
			    big_lanes52_k0, c->seed);
}
#endif

static const int side_digits[1] = { 20 };

#if BIG_LANES52_HAVE_IFMA_BUILD
/* The two sides of LANES52_SQR20_ASM, on the same operands, their runs
 * alternating trial by trial. */
struct sides_run {
	struct call *c;
	int op; /* 0 the squaring (RUN calls), 1 the exponentiation (one) */
	int nasm20;
	uint64_t x0[BIG_LANES52_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t e[BIG_LANES * 16], out[BIG_LANES52_MAX_WORDS];
	/* big_lanes52_pow_scratch(20), as a constant */
	uint64_t scratch[((1 << BIG_LANES52_WINDOW_BITS(20)) + 3) * BIG_LANES_WORDS(20) + 8];
};

static void take_side(void *ctx, int i)
{
	struct sides_run *s = ctx;
	s->nasm20 = i == 0;
	memcpy(s->c->x, s->x0, sizeof(s->x0));
}

static uint64_t run_side(void *ctx)
{
	struct sides_run *s = ctx;
	struct call *c = s->c;
	const uint64_t t0 = bench_ticks();
	if (s->op == 0) {
		for (int i = 0; i < RUN; i++)
			big_lanes52_sqr_ifma_side(c->x, c->x, &c->mod, s->nasm20);
	} else {
		big_lanes52_pow_ifma_side(s->out, c->x, s->e, 16, &c->mod, s->scratch, s->nasm20);
	}
	return bench_ticks() - t0;
}

static void measure_sides(struct bench_lanes52_table *t, struct call *c, uint64_t *seed,
			  struct bench_cycle_clock *clock)
{
	static struct sides_run s; /* 50 KB: off the stack */
	s.c = c;
	c->seed = seed;
	setup_column(c, 1); /* 20 digits */
	memcpy(s.x0, c->x, sizeof(s.x0));
	for (size_t i = 0; i < sizeof(s.e) / sizeof(s.e[0]); i++)
		s.e[i] = bench_splitmix64(seed);
	/* Each side's result checked against the other's first: the
	 * squarings' digits (their carry bits above 52 follow the C's form,
	 * which the sanitizer builds change), the exponentiations' words. */
	static uint64_t got[2][BIG_LANES52_MAX_WORDS];
	for (int op = 0; op < 2; op++) {
		for (int i = 0; i < 2; i++) {
			if (op == 0)
				big_lanes52_sqr_ifma_side(got[i], s.x0, &c->mod, i == 0);
			else
				big_lanes52_pow_ifma_side(got[i], s.x0, s.e, 16, &c->mod, s.scratch,
							  i == 0);
		}
		uint64_t differ = 0;
		for (size_t j = 0; j < BIG_LANES_WORDS(20); j++)
			differ |= (got[0][j] ^ got[1][j]) &
				  (op ? ~UINT64_C(0) : BIG_LANES52_DIGIT_MASK);
		if (differ) {
			t->sides_why = op ? "the exponentiations' sides differ"
					  : "the squarings' sides differ";
			return;
		}
	}
	static const char *const names[2][2] = { { "nasm", "c" }, { "nasm", "scan" } };
	for (s.op = 0; s.op < 2; s.op++) {
		uint64_t best[2];
		bench_best_ticks_alternating(best, 2, take_side, run_side, &s, t->trials, clock);
		for (int i = 0; i < 2; i++) {
			struct bench_kernel_row *row = &t->side[t->nsides++];
			*row = (struct bench_kernel_row){ .name = names[s.op][i],
							  .op = s.op ? "pow" : "sqr" };
			row->ticks[0] = (double)best[i] / (s.op ? 1 : RUN);
		}
	}
}
#endif

#if BIG_LANES52_HAVE_IFMA_BUILD
/* An FMA build's product and squaring (build 1: ymm, 2: zmm) into rows. */
static void measure_fma_build(struct bench_lanes52_table *t, struct call *c, int build,
			      struct bench_kernel_row *rows, int *nrows, uint64_t *seed,
			      struct bench_cycle_clock *clock)
{
	c->build = build;
	for (int op = 0; op < 2; op++) {
		struct bench_kernel_row *row = &rows[(*nrows)++];
		*row = (struct bench_kernel_row){ .name = build == 2 ? "fma512" : "fma",
						  .op = op ? "sqr" : "mul" };
		c->squaring = op;
		c->seed = seed;
		bench_best_ticks_each(row->ticks, BENCH_LANES52_SIZES, setup_column, run_calls, c,
				      t->trials, RUN, clock);
	}
	c->build = 0;
}

/* The FMA builds' products and squarings, where the CPU runs them. */
static void measure_fma(struct bench_lanes52_table *t, struct call *c, uint64_t *seed,
			struct bench_cycle_clock *clock)
{
	if (big_lanes52_cpu_has_fma())
		measure_fma_build(t, c, 1, t->fma_row, &t->fma_nrows, seed, clock);
	else
		t->fma_why = "no AVX2 and FMA on this CPU";
	if (big_lanes_cpu_has_avx512())
		measure_fma_build(t, c, 2, t->fma512_row, &t->fma512_nrows, seed, clock);
	else
		t->fma512_why = "no AVX-512F on this CPU";
}
#endif

void bench_lanes52_kernels_measure(struct bench_lanes52_table *t, double trial_scale,
				   struct bench_cycle_clock *clock)
{
	memset(t, 0, sizeof(*t));
	t->trials = bench_kernel_trials(BENCH_LANES52_TRIALS, trial_scale);
#if BIG_LANES52_HAVE_IFMA_BUILD
	static struct call c; /* 8 KB of operands: off the stack */
	uint64_t seed = 0x6c616e35u;
	measure_fma(t, &c, &seed, clock);
	if (!big_lanes52_cpu_has_ifma()) {
		t->why = "no AVX-512 IFMA on this CPU";
		return;
	}
	for (int op = 0; op < 2; op++) {
		struct bench_kernel_row *row = &t->row[t->nrows++];
		*row = (struct bench_kernel_row){ .name = "ifma", .op = op ? "sqr" : "mul" };
		c.squaring = op;
		c.seed = &seed;
		bench_best_ticks_each(row->ticks, BENCH_LANES52_SIZES, setup_column, run_calls, &c,
				      t->trials, RUN, clock);
	}
	measure_sides(t, &c, &seed, clock);
#else
	(void)clock;
	t->why = "no IFMA lane build (the builds with the assembly kernels have it)";
	t->fma_why = "no FMA lane build (the builds with the assembly kernels have it)";
	t->fma512_why = t->fma_why;
#endif
}

static const char *const formula[2] = { "4k^2 + k zmm vpmadd52",
					"3k^2 + 2k zmm vpmadd52" };

/* The kernels against the vpmadd52luq peak, where it was measured. */
static void print_against_peak(FILE *out, const struct bench_lanes52_table *t,
			       double ticks_per_cycle, const struct bench_peak *peak)
{
	const double rate = bench_peak_ifma(peak);
	if (!bench_peak_print_heading(out, "radix-2^52 lane kernels", "vpmadd52luq",
				      peak->ifma_why ? peak->ifma_why : rate > 0 ? NULL : "no rate",
				      "zmm vpmadd52", rate))
		return;
	bench_peak_print_table(out, "build", digits, BENCH_LANES52_SIZES, t->row, t->nrows,
			       ticks_per_cycle, rate, bench_peak_lanes52_kernel_vpmadd52, formula);
	/* The carries' vector shifts and adds issue on the two ports the
	 * multiply-adds use (a loop of 16 madds and 4 of them takes 20
	 * madds' time): in the register window, the k column tops and the
	 * k - 1 carries of the last columns into digits (lanes52.h's digit
	 * form: no mask), a shift and an add each, and with the early q
	 * (BIG_LANES52_EARLY_Q_DIGITS) one more add a column top.  So the
	 * window's kernels cannot pass formula / (madds + carries). */
	fprintf(out, "  the carries' 4k - 2 shifts and adds (5k - 2 up to %d digits%s) take the "
		"same two ports: in the register window (", BIG_LANES52_EARLY_Q_DIGITS,
		bench_peak_lanes52_nasm20(20) ? ", 6k - 2 in the NASM kernels at 20" : "");
	for (int s = 0, n = 0; s < BENCH_LANES52_SIZES; s++)
		if (!BIG_LANES52_TILED(digits[s]))
			fprintf(out, "%s%d", n++ ? ", " : "", digits[s]);
	fprintf(out, " digits) at most");
	for (int op = 0; op < 2; op++) {
		fprintf(out, "%s", op ? "; the squaring" : " the product");
		for (int s = 0, n = 0; s < BENCH_LANES52_SIZES; s++) {
			const int k = digits[s];
			if (BIG_LANES52_TILED(k))
				continue;
			const double own = bench_peak_lanes52_kernel_vpmadd52("ifma", k, op);
			const int carries = k <= BIG_LANES52_EARLY_Q_DIGITS ? 5 * k - 2
					    : bench_peak_lanes52_nasm20(k)  ? 6 * k - 2
									    : 4 * k - 2;
			fprintf(out, "%s %.1f %%", n++ ? "," : "",
				100 * bench_peak_lanes52_kernel_vpmadd52(NULL, k, op) /
					(own + carries));
		}
	}
	fprintf(out, " of the peak\n");
}

/* The two sides of LANES52_SQR20_ASM (measure_sides). */
static void print_sides(FILE *out, const struct bench_lanes52_table *t, double ticks_per_cycle)
{
	if (!t->nsides && !t->sides_why)
		return;
	fprintf(out, "\nlane squarings and exponentiations (a 1024-bit exponent in each lane) at "
		"20 digits, the two sides of LANES52_SQR20_ASM (best of %d, alternating)%s%s\n",
		t->trials, t->sides_why ? ": not run: " : "", t->sides_why ? t->sides_why : "");
	if (!t->nsides)
		return;
	bench_print_kernel_head(out, "side", side_digits, 1, "digits per lane");
	bench_print_kernel_pairs(out, t->side, t->nsides, 1, ticks_per_cycle);
}

static double fma_count(const char *kernel, int k, int squaring)
{
	(void)kernel;
	return bench_peak_lanes52_fma(k, squaring);
}

static const char *const fma_formula[2] = { "8k^2 + 2k ymm vfmadd231pd",
					    "6k^2 + 4k ymm vfmadd231pd" };

/* The zmm form issues half the ymm form's FMAs (one stream of eight). */
static double fma512_count(const char *kernel, int k, int squaring)
{
	(void)kernel;
	return bench_peak_lanes52_fma(k, squaring) / 2;
}

static const char *const fma512_formula[2] = { "4k^2 + k zmm vfmadd231pd",
					       "3k^2 + 2k zmm vfmadd231pd" };

/* The zmm form's rows against the zmm FMA peak ({rd-sae}, peak.h). */
static void print_fma512_against_peak(FILE *out, const struct bench_lanes52_table *t,
				      double ticks_per_cycle, const struct bench_peak *peak)
{
	if (t->fma512_nrows == 0)
		return;
	const double rate = peak->fma512_why == NULL && peak->fma512 > 0 ? peak->fma512 : NAN;
	if (!bench_peak_print_heading(out, "zmm FMA lane kernels", "vfmadd231pd zmm",
				      peak->fma512_why ? peak->fma512_why
						       : rate > 0 ? NULL : "no rate",
				      "zmm vfmadd231pd", rate))
		return;
	bench_peak_print_table(out, "build", digits, BENCH_LANES52_SIZES, t->fma512_row,
			       t->fma512_nrows, ticks_per_cycle, rate, fma512_count,
			       fma512_formula);
	if (peak->fma512_halves > 0)
		fprintf(out, "  with each product's subtraction and two vpaddq on the same ports: "
			"%.2f FMAs a core cycle, %.0f %% of the peak (about the most these "
			"kernels reach here)\n", peak->fma512_halves,
			100 * peak->fma512_halves / rate);
}

/* The FMA build's table (measure_fma) and its share of the FMA peak. */
static void print_fma(FILE *out, const struct bench_lanes52_table *t, double ticks_per_cycle,
		      const struct bench_peak *peak)
{
	fprintf(out, "\nlane kernels, 8 lanes per call, radix 2^52 on AVX2 FMA (two ymm streams, "
		"two FMAs a digit product; fma512: the same in zmm, one stream; best of %d runs "
		"of %d dependent calls)", t->trials, RUN);
	if (t->fma_nrows == 0) {
		fprintf(out, ": not run: %s\n", t->fma_why);
		return;
	}
	fprintf(out, "\n");
	bench_print_kernel_head(out, "build", digits, BENCH_LANES52_SIZES, "digits per lane");
	bench_print_kernel_pairs(out, t->fma_row, t->fma_nrows, BENCH_LANES52_SIZES,
				 ticks_per_cycle);
	/* The zmm form's rows beside them (one stream, the rounding in each
	 * FMA), against their own peak after the ymm rows'. */
	if (t->fma512_nrows)
		bench_print_kernel_pairs(out, t->fma512_row, t->fma512_nrows, BENCH_LANES52_SIZES,
					 ticks_per_cycle);
	else
		fprintf(out, "fma512: not run: %s\n", t->fma512_why);
	const double rate = peak->fma_why == NULL && peak->fma > 0 ? peak->fma : NAN;
	if (!bench_peak_print_heading(out, "FMA lane kernels", "vfmadd231pd",
				      peak->fma_why ? peak->fma_why : rate > 0 ? NULL : "no rate",
				      "ymm vfmadd231pd", rate))
		return;
	bench_peak_print_table(out, "build", digits, BENCH_LANES52_SIZES, t->fma_row,
			       t->fma_nrows, ticks_per_cycle, rate, fma_count, fma_formula);
	/* A digit product's subtraction and two adds take the FMAs' ports
	 * (peak.h: the halves' loop): the kernels cannot pass that share. */
	if (peak->fma_halves > 0)
		fprintf(out, "  with each product's subtraction and two vpaddq on the same ports: "
			"%.2f FMAs a core cycle, %.0f %% of the peak (about the most these "
			"kernels reach here)\n", peak->fma_halves, 100 * peak->fma_halves / rate);
}

void bench_lanes52_kernels_print(FILE *out, const struct bench_lanes52_table *t,
				 double ticks_per_cycle, const struct bench_peak *peak)
{
	if (!BENCH_HAVE_X86_PEAKS)
		return;
	fprintf(out, "lane kernels, 8 lanes (4 RSA operations x 2 CRT halves) per call, radix "
		"2^52 on AVX-512 IFMA (best of %d runs of %d dependent calls)", t->trials, RUN);
	if (t->nrows == 0) {
		fprintf(out, ": not run: %s\n", t->why);
	} else {
		fprintf(out, "\n");
		bench_print_kernel_head(out, "build", digits, BENCH_LANES52_SIZES,
					"digits per lane");
		bench_print_kernel_pairs(out, t->row, t->nrows, BENCH_LANES52_SIZES,
					 ticks_per_cycle);
		print_against_peak(out, t, ticks_per_cycle, peak);
		print_sides(out, t, ticks_per_cycle);
	}
	print_fma(out, t, ticks_per_cycle, peak);
	print_fma512_against_peak(out, t, ticks_per_cycle, peak);
}

void bench_lanes52_kernels_json(struct json_writer *w, const struct bench_lanes52_table *t,
				double ticks_per_cycle, const struct bench_peak *peak)
{
	const struct bench_peak_json_table table = {
		.name_key = "build", .size_key = "digits", .count_key = "vpmadd52_zmm",
		.heads = digits, .n = BENCH_LANES52_SIZES, .rate = bench_peak_ifma(peak),
		.count = bench_peak_lanes52_kernel_vpmadd52,
	};
	bench_peak_json_rows(w, &table, t->row, t->nrows, ticks_per_cycle);
}

/* An FMA build's rows against its peak (NAN where that was not measured). */
static void fma_json(struct json_writer *w, const char *count_key, double rate,
		     double (*count)(const char *, int, int), const struct bench_kernel_row *rows,
		     int nrows, double ticks_per_cycle)
{
	const struct bench_peak_json_table table = {
		.name_key = "build", .size_key = "digits", .count_key = count_key,
		.heads = digits, .n = BENCH_LANES52_SIZES, .rate = rate, .count = count,
	};
	bench_peak_json_rows(w, &table, rows, nrows, ticks_per_cycle);
}

void bench_lanes52_kernels_fma_json(struct json_writer *w, const struct bench_lanes52_table *t,
				    double ticks_per_cycle, const struct bench_peak *peak)
{
	fma_json(w, "vfmadd231pd_ymm", peak->fma_why == NULL && peak->fma > 0 ? peak->fma : NAN,
		 fma_count, t->fma_row, t->fma_nrows, ticks_per_cycle);
}

void bench_lanes52_kernels_fma512_json(struct json_writer *w,
				       const struct bench_lanes52_table *t, double ticks_per_cycle,
				       const struct bench_peak *peak)
{
	fma_json(w, "vfmadd231pd_zmm",
		 peak->fma512_why == NULL && peak->fma512 > 0 ? peak->fma512 : NAN, fma512_count,
		 t->fma512_row, t->fma512_nrows, ticks_per_cycle);
}
