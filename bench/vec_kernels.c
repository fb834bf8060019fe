/*
 * bench/vec_kernels.c -- core cycles per chunk of the vector primitives,
 * ours next to GMP's, in one run (contract in vec_kernels.h).
 *
 * Method.  One sample is the fenced rdtsc (cycles.h) around a run of
 * back-to-back calls of a kernel on the same buffers, a few thousand
 * cycles long (calls_per_sample), divided by the number of calls; a figure
 * is the best of t->trials samples.  The trials are interleaved: each round
 * measures every kernel at every size once, so ours and GMP's see the same
 * clock, the same other-core load and the same cache state.  Call overhead
 * (entry, tail, the return) is cancelled by taking the difference of two
 * sizes:
 *     per chunk    = (t(n) - t(n/2)) / (n - n/2)          rows
 *     per chunk^2  = (t(n) - t(n/2)) / (n^2 - (n/2)^2)    squaring
 * i.e. the marginal cost of a chunk in the steady loop; the table also
 * gives t(n) itself.
 *
 * GMP's kernels are whatever this libgmp runs (Debian's 6.2.1 is a
 * generic x86-64 build: mul/adc, no mulx/adx code).
 */
#include "vec_kernels.h"

#include <stdint.h>
#include <string.h>

#include <gmp.h>

#include "internal.h"

#define MAXN 64

static const int sizes[BENCH_VEC_SIZES] = { 8, 16, 32, 64 };

#if BIG_CHUNK_SIZE == 64 && defined(__x86_64__)

/* GMP's, with our signatures (mp_limb_t is a 64-bit chunk here). */
static chunk_t gmp_addmul_1(chunk_t *r, const chunk_t *a, int n, chunk_t d)
{
	return mpn_addmul_1((mp_limb_t *)r, (const mp_limb_t *)a, n, d);
}
static chunk_t gmp_mul_1(chunk_t *r, const chunk_t *a, int n, chunk_t d)
{
	return mpn_mul_1((mp_limb_t *)r, (const mp_limb_t *)a, n, d);
}
static void gmp_sqr(chunk_t *r, const chunk_t *a, int n)
{
	mpn_sqr((mp_limb_t *)r, (const mp_limb_t *)a, n);
}

#if BIGMONT_HAVE_ASM
#define ASM_TWINS(name) name##_base, name##_adx
#else
#define ASM_TWINS(name) NULL, NULL
#endif

/* Each family in the order c, base, adx, GMP; NULL where absent. */
enum { FAMILY_WIDTH = 4 };
static const char *const suffix[FAMILY_WIDTH] = { "_c", "_base", "_adx", NULL };
static const enum big_cpu_variant needs[FAMILY_WIDTH] = { BIG_CPU_C, BIG_CPU_BASELINE,
							  BIG_CPU_ADX, BIG_CPU_C };
static const struct family {
	const char *ours, *gmp;
	big_mul_row_fn *row[FAMILY_WIDTH];
	big_sqr_vec_fn *sqr[FAMILY_WIDTH];
} families[] = {
	{ "mul_add_vec", "mpn_addmul_1",
	  { big_mul_add_vec_c, ASM_TWINS(big_mul_add_vec), gmp_addmul_1 }, { NULL } },
	{ "mul_set_vec", "mpn_mul_1",
	  { big_mul_set_vec_c, ASM_TWINS(big_mul_set_vec), gmp_mul_1 }, { NULL } },
	{ "sqr_vec", "mpn_sqr", { NULL }, { big_sqr_vec_c, ASM_TWINS(big_sqr_vec), gmp_sqr } },
};

struct kernel {
	big_mul_row_fn *row; /* exactly one of row and sqr */
	big_sqr_vec_fn *sqr;
};

/* Calls per sample: a few thousand cycles' worth, since a TSC may step in
 * coarse increments of tens of ticks. */
static int calls_per_sample(const struct kernel *k, int n)
{
	int c = k->sqr ? 4096 / (n * n) : 2048 / n;
	return c < 8 ? 8 : c;
}

/* Ticks for `calls` calls of k at size n. */
static uint64_t sample(const struct kernel *k, int n, int calls, chunk_t *r,
		       const chunk_t *a, chunk_t digit)
{
	uint64_t t0 = bench_ticks();
	if (k->sqr) {
		for (int i = 0; i < calls; i++)
			k->sqr(r, a, n);
	} else {
		for (int i = 0; i < calls; i++)
			k->row(r, a, n, digit);
	}
	return bench_ticks() - t0;
}

int bench_vec_kernels_measure(struct bench_vec_table *t, double trial_scale,
			      struct bench_cycle_clock *clock)
{
	struct kernel ks[BENCH_VEC_MAX_KERNELS];
	const enum big_cpu_variant cpu = big_cpu_best();
	memset(t, 0, sizeof(*t));
	t->trials = bench_kernel_trials(BENCH_VEC_TRIALS, trial_scale);
	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		for (int v = 0; v < FAMILY_WIDTH; v++) {
			const struct family *fam = &families[f];
			if ((fam->row[v] == NULL && fam->sqr[v] == NULL) || needs[v] > cpu)
				continue;
			ks[t->n] = (struct kernel){ fam->row[v], fam->sqr[v] };
			snprintf(t->k[t->n].name, sizeof(t->k[t->n].name), "%s%s",
				 suffix[v] ? fam->ours : fam->gmp, suffix[v] ? suffix[v] : "");
			t->k[t->n].family = (int)f;
			t->k[t->n].squaring = fam->sqr[v] != NULL;
			for (int l = 0; l < 2 * BENCH_VEC_SIZES; l++)
				t->k[t->n].best[l] = 1e300;
			t->n++;
		}

	/* Every size n and its half n/2 (the overhead-cancelling partner). */
	int lens[2 * BENCH_VEC_SIZES];
	for (int s = 0; s < BENCH_VEC_SIZES; s++) {
		lens[2 * s] = sizes[s];
		lens[2 * s + 1] = sizes[s] / 2;
	}
	chunk_t a[MAXN], r[2 * MAXN];
	uint64_t seed = 0x6b65726eu;
	for (int i = 0; i < MAXN; i++)
		a[i] = (chunk_t)bench_splitmix64(&seed);
	for (int i = 0; i < 2 * MAXN; i++)
		r[i] = (chunk_t)bench_splitmix64(&seed);
	const chunk_t digit = (chunk_t)bench_splitmix64(&seed);

	for (int trial = 0; trial < t->trials; trial++) {
		for (int l = 0; l < 2 * BENCH_VEC_SIZES; l++)
			for (int k = 0; k < t->n; k++) {
				const int calls = calls_per_sample(&ks[k], lens[l]);
				double d = (double)sample(&ks[k], lens[l], calls, r, a, digit) / calls;
				if (d < t->k[k].best[l])
					t->k[k].best[l] = d;
			}
		if (trial % 16 == 0)
			bench_cycle_clock_sample(clock);
	}
	return 0;
}

#else

int bench_vec_kernels_measure(struct bench_vec_table *t, double trial_scale,
			      struct bench_cycle_clock *clock)
{
	(void)clock;
	memset(t, 0, sizeof(*t));
	t->trials = bench_kernel_trials(BENCH_VEC_TRIALS, trial_scale);
	return BIG_CHUNK_SIZE != 64; /* elsewhere: not an x86-64 CPU, said by the print */
}

#endif

void bench_vec_kernels_print(FILE *out, const struct bench_vec_table *t,
			     double ticks_per_cycle)
{
	if (t->n == 0) {
#if defined(__x86_64__)
		fprintf(out, "vector kernels: not measured (their core-cycle table needs 64-bit chunks on x86-64: rdtsc, and GMP's limbs)\n");
#else
		fprintf(out, "x86-64 vector kernels and peaks: not part of this build (the tables below are the C kernels, in ns of the clock)\n");
#endif
		return;
	}
	fprintf(out, "Vector kernels, core cycles (rdtsc ticks / ticks per cycle)\n");
	fprintf(out, "best of %d interleaved samples (each 8..512 back-to-back calls); per chunk = (t(n) - t(n/2)) / (n/2),\n"
		     "sqr per chunk^2 = (t(n) - t(n/2)) / (n^2 - (n/2)^2); t(n) = cycles per call\n",
		t->trials);
	fprintf(out, "%-22s", "kernel");
	for (int s = 0; s < BENCH_VEC_SIZES; s++)
		fprintf(out, "  n=%-3d", sizes[s]);
	fprintf(out, " |");
	for (int s = 0; s < BENCH_VEC_SIZES; s++)
		fprintf(out, " t(%d)", sizes[s]);
	fprintf(out, "\n");
	for (int k = 0; k < t->n; k++) {
		if (k > 0 && t->k[k].family != t->k[k - 1].family)
			fprintf(out, "\n");
		fprintf(out, "%-22s", t->k[k].name);
		for (int s = 0; s < BENCH_VEC_SIZES; s++) {
			double hi = t->k[k].best[2 * s] / ticks_per_cycle;
			double lo = t->k[k].best[2 * s + 1] / ticks_per_cycle;
			double n = sizes[s], h = sizes[s] / 2;
			double units = t->k[k].squaring ? n * n - h * h : n - h;
			fprintf(out, " %6.2f", (hi - lo) / units);
		}
		fprintf(out, " |");
		for (int s = 0; s < BENCH_VEC_SIZES; s++)
			fprintf(out, " %5.0f", t->k[k].best[2 * s] / ticks_per_cycle);
		fprintf(out, "   %s\n", t->k[k].squaring ? "(per chunk^2)" : "(per chunk)");
	}
}
