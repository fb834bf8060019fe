/*
 * bench/cycles.c -- calibration and best-of sampling for the kernel tables
 * (contract in cycles.h).
 */
#include "cycles.h"

#include <limits.h>

#define CHAIN_ADDS 4096

void bench_cycle_clock_sample(struct bench_cycle_clock *c)
{
#if defined(__x86_64__)
	uint64_t x = 1;
	uint64_t t0 = bench_ticks();
	for (int i = 0; i < CHAIN_ADDS / 64; i++)
		__asm__ volatile(".rept 64\n\tadd %0, %0\n\t.endr" : "+r"(x));
	uint64_t d = bench_ticks() - t0;
	if (c->best_ticks == 0 || d < c->best_ticks)
		c->best_ticks = d;
#endif
	c->samples++;
}

int bench_kernel_trials(int n, double scale)
{
	const double exact = (double)n * scale; /* NaN or below 0: the floor */
	const double rounded = exact > 0 ? exact + 0.5 : 0;
	int trials = rounded < INT_MAX ? (int)rounded : INT_MAX;
#ifdef BENCH_SANITIZED
	trials /= 10;
#endif
	return trials < BENCH_KERNEL_MIN_TRIALS ? BENCH_KERNEL_MIN_TRIALS : trials;
}

double bench_ticks_per_cycle(const struct bench_cycle_clock *c)
{
	return c->best_ticks ? (double)c->best_ticks / CHAIN_ADDS : 1.0;
}

uint64_t bench_best_ticks(uint64_t (*sample)(void *ctx), void *ctx, int trials,
			  struct bench_cycle_clock *clock)
{
	uint64_t best = UINT64_MAX;
	for (int t = 0; t < trials; t++) {
		uint64_t d = sample(ctx);
		if (d < best)
			best = d;
		if (t % 16 == 0)
			bench_cycle_clock_sample(clock);
	}
	return best;
}

void bench_best_ticks_alternating(uint64_t *best, int sides, void (*side)(void *ctx, int i),
				  uint64_t (*sample)(void *ctx), void *ctx, int trials,
				  struct bench_cycle_clock *clock)
{
	for (int i = 0; i < sides; i++)
		best[i] = UINT64_MAX;
	for (int t = 0; t < trials; t++) {
		for (int i = 0; i < sides; i++) {
			side(ctx, i);
			const uint64_t d = sample(ctx);
			if (d < best[i])
				best[i] = d;
		}
		if (t % 16 == 0)
			bench_cycle_clock_sample(clock);
	}
}

void bench_best_ticks_each(double *ticks, int n, void (*setup)(void *ctx, int i),
			   uint64_t (*sample)(void *ctx), void *ctx, int trials,
			   int calls, struct bench_cycle_clock *clock)
{
	for (int i = 0; i < n; i++) {
		setup(ctx, i);
		ticks[i] = (double)bench_best_ticks(sample, ctx, trials, clock) / calls;
	}
}

void bench_print_ticks(FILE *out, const double *ticks, int n, double scale,
		       const char *unit)
{
	for (int i = 0; i < n; i++)
		fprintf(out, " %8.0f", ticks[i] / scale);
	fprintf(out, "   %s\n", unit);
}

void bench_print_kernel_head(FILE *out, const char *first, const int *heads, int n,
			     const char *note)
{
	fprintf(out, "%-8s %-4s", first, "op");
	for (int i = 0; i < n; i++)
		fprintf(out, " %8d", heads[i]);
	fprintf(out, "   (%s)\n", note);
}

void bench_print_kernel_rows(FILE *out, const struct bench_kernel_row *rows, int nrows,
			     int n, double scale, const char *unit)
{
	for (int i = 0; i < nrows; i++) {
		if (rows[i].op != NULL)
			fprintf(out, "%-8s %-4s", rows[i].name, rows[i].op);
		else
			fprintf(out, "%-13s", rows[i].name);
		bench_print_ticks(out, rows[i].ticks, n, scale, unit);
	}
}

void bench_print_kernel_pairs(FILE *out, const struct bench_kernel_row *rows, int nrows,
			      int n, double ticks_per_cycle)
{
	for (int i = 0; i + 1 < nrows; i += 2) {
		bench_print_kernel_rows(out, rows + i, 2, n, 1.0, BENCH_TICKS_UNIT);
		if (BENCH_HAVE_CORE_CYCLES)
			bench_print_kernel_rows(out, rows + i, 2, n, ticks_per_cycle,
						"core cycles");
	}
}

uint64_t bench_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}
