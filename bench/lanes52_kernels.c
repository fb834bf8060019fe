/*
 * bench/lanes52_kernels.c -- ticks per radix-2^52 lane product and
 * squaring (contract in lanes52_kernels.h).  As for the radix-2^28 lanes
 * (lanes_kernels.c): the best, over t->trials, of the mean over RUN
 * dependent calls (x = mul(x, b) or x = sqr(x)), on random odd moduli of
 * 52k - 4 bits in every lane and operands below them.
 */
#include "lanes52_kernels.h"

#include <string.h>

#include "lanes_kernels.h"

#include "lanes/lanes52.h"

#define RUN 16

static const int digits[BENCH_LANES52_SIZES] = { 10, 20, 30, 40 };

#if BIG_LANES52_HAVE_IFMA_BUILD
struct call {
	int squaring;
	uint64_t *seed;
	struct big_lanes52_mod mod;
	uint64_t x[BIG_LANES52_MAX_WORDS] __attribute__((aligned(64)));
	uint64_t b[BIG_LANES52_MAX_WORDS] __attribute__((aligned(64)));
};

static uint64_t run_calls(void *ctx)
{
	struct call *c = ctx;
	const uint64_t t0 = bench_ticks();
	if (c->squaring) {
		for (int i = 0; i < RUN; i++)
			big_lanes52_sqr_ifma(c->x, c->x, &c->mod);
	} else {
		for (int i = 0; i < RUN; i++)
			big_lanes52_mul_ifma(c->x, c->x, c->b, &c->mod);
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

void bench_lanes52_kernels_measure(struct bench_lanes52_table *t, double trial_scale,
				   struct bench_cycle_clock *clock)
{
	memset(t, 0, sizeof(*t));
	t->trials = bench_kernel_trials(BENCH_LANES52_TRIALS, trial_scale);
#if BIG_LANES52_HAVE_IFMA_BUILD
	if (!big_lanes52_cpu_has_ifma()) {
		t->why = "no AVX-512 IFMA on this CPU";
		return;
	}
	static struct call c; /* 8 KB of operands: off the stack */
	uint64_t seed = 0x6c616e35u;
	for (int op = 0; op < 2; op++) {
		struct bench_kernel_row *row = &t->row[t->nrows++];
		*row = (struct bench_kernel_row){ .name = "ifma", .op = op ? "sqr" : "mul" };
		c.squaring = op;
		c.seed = &seed;
		bench_best_ticks_each(row->ticks, BENCH_LANES52_SIZES, setup_column, run_calls, &c,
				      t->trials, RUN, clock);
	}
#else
	(void)clock;
	t->why = "no IFMA lane build (the builds with the assembly kernels have it)";
#endif
}

static const char *const formula[2] = { "4k^2 + k zmm vpmadd52",
					"3k^2 + 2k zmm vpmadd52" };

void bench_lanes52_kernels_print(FILE *out, const struct bench_lanes52_table *t,
				 double ticks_per_cycle, const struct bench_peak *peak)
{
	if (!BENCH_HAVE_X86_PEAKS)
		return;
	fprintf(out, "lane kernels, 8 lanes (4 RSA operations x 2 CRT halves) per call, radix "
		"2^52 on AVX-512 IFMA (best of %d runs of %d dependent calls)", t->trials, RUN);
	if (t->nrows == 0) {
		fprintf(out, ": not run: %s\n", t->why);
		return;
	}
	fprintf(out, "\n");
	bench_print_kernel_head(out, "build", digits, BENCH_LANES52_SIZES, "digits per lane");
	bench_print_kernel_pairs(out, t->row, t->nrows, BENCH_LANES52_SIZES, ticks_per_cycle);
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
	fprintf(out, "  the carries' 4k - 2 shifts and adds (5k - 2 up to %d digits) take the "
		"same two ports: in the register window (", BIG_LANES52_EARLY_Q_DIGITS);
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
			const int carries = k <= BIG_LANES52_EARLY_Q_DIGITS ? 5 * k - 2 : 4 * k - 2;
			fprintf(out, "%s %.1f %%", n++ ? "," : "",
				100 * bench_peak_lanes52_kernel_vpmadd52(NULL, k, op) /
					(own + carries));
		}
	}
	fprintf(out, " of the peak\n");
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
