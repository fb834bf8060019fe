/*
 * bench_kernels_report: core cycles per chunk of the vector primitives,
 * ours next to GMP's, in one run.
 *
 * Method.  One sample is rdtsc (fenced by lfence on both sides, so it
 * neither starts early nor waits for nothing) around a run of back-to-back
 * calls of a kernel on the same buffers, a few thousand cycles long
 * (calls_per_sample), divided by the number of calls; a figure is the best
 * of BENCH_TRIALS samples.  The trials are interleaved: each round measures
 * every kernel at every size once, so ours and GMP's see the same clock,
 * the same other-core load and the same cache state.  Call overhead (entry,
 * tail, the return) is cancelled by taking the difference of two sizes:
 *     per chunk    = (t(n) - t(n/2)) / (n - n/2)          rows
 *     per chunk^2  = (t(n) - t(n/2)) / (n^2 - (n/2)^2)    squaring
 * i.e. the marginal cost of a chunk in the steady loop; the table also
 * gives t(n) itself.  rdtsc ticks at the TSC rate, not the core clock (they
 * differ under boost), so ticks are divided by the ticks per core cycle,
 * measured on a chain of dependent adds (one cycle each) during the run.
 *
 * GMP's kernels are whatever this libgmp runs (Debian's 6.2.1 is a
 * generic x86-64 build: mul/adc, no mulx/adx code).
 */
#include "kernels.h"

#include <stdint.h>
#include <string.h>

#include <gmp.h>

#include "internal.h"

#define BENCH_TRIALS 1000
#define BENCH_NSIZES 4
#define BENCH_MAXN 64

#if BIG_CHUNK_SIZE == 64 && defined(__x86_64__)
#include <x86intrin.h>

static inline uint64_t ticks_begin(void)
{
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}

static inline uint64_t ticks_end(void)
{
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}

/* TSC ticks per core cycle: 4096 dependent adds take 4096 cycles. */
static uint64_t adds_ticks(void)
{
	uint64_t x = 1;
	uint64_t t0 = ticks_begin();
	for (int i = 0; i < 64; i++)
		__asm__ volatile(".rept 64\n\tadd %0, %0\n\t.endr" : "+r"(x));
	return ticks_end() - t0;
}

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

enum op { OP_ADD, OP_SET, OP_SQR };

struct kernel {
	const char *name;
	enum op op;
	big_mul_row_fn *row;
	big_sqr_vec_fn *sqr;
	enum big_cpu_variant needs; /* BIG_CPU_C for GMP */
};

static const struct kernel kernels[] = {
	{ "mul_add_vec_c", OP_ADD, big_mul_add_vec_c, NULL, BIG_CPU_C },
#if BIGMONT_HAVE_ASM
	{ "mul_add_vec_base", OP_ADD, big_mul_add_vec_base, NULL, BIG_CPU_BASELINE },
	{ "mul_add_vec_adx", OP_ADD, big_mul_add_vec_adx, NULL, BIG_CPU_ADX },
#endif
	{ "mpn_addmul_1", OP_ADD, gmp_addmul_1, NULL, BIG_CPU_C },
	{ "mul_set_vec_c", OP_SET, big_mul_set_vec_c, NULL, BIG_CPU_C },
#if BIGMONT_HAVE_ASM
	{ "mul_set_vec_base", OP_SET, big_mul_set_vec_base, NULL, BIG_CPU_BASELINE },
	{ "mul_set_vec_adx", OP_SET, big_mul_set_vec_adx, NULL, BIG_CPU_ADX },
#endif
	{ "mpn_mul_1", OP_SET, gmp_mul_1, NULL, BIG_CPU_C },
	{ "sqr_vec_c", OP_SQR, NULL, big_sqr_vec_c, BIG_CPU_C },
#if BIGMONT_HAVE_ASM
	{ "sqr_vec_base", OP_SQR, NULL, big_sqr_vec_base, BIG_CPU_BASELINE },
	{ "sqr_vec_adx", OP_SQR, NULL, big_sqr_vec_adx, BIG_CPU_ADX },
#endif
	{ "mpn_sqr", OP_SQR, NULL, gmp_sqr, BIG_CPU_C },
};
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

static const int sizes[BENCH_NSIZES] = { 8, 16, 32, 64 };

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Calls per sample: a few thousand cycles' worth, since this TSC may step
 * in coarse increments (26 ticks on the EPYC this was written on). */
static int calls_per_sample(enum op op, int n)
{
	int c = op == OP_SQR ? 4096 / (n * n) : 2048 / n;
	return c < 8 ? 8 : c;
}

/* Ticks for `calls` calls of k at size n. */
static uint64_t sample(const struct kernel *k, int n, int calls, chunk_t *r, const chunk_t *a,
		       chunk_t digit)
{
	uint64_t t0 = ticks_begin();
	if (k->op == OP_SQR) {
		for (int i = 0; i < calls; i++)
			k->sqr(r, a, n);
	} else {
		for (int i = 0; i < calls; i++)
			k->row(r, a, n, digit);
	}
	return ticks_end() - t0;
}

int bench_kernels_report(FILE *out)
{
	/* Every size n and its half n/2 (the overhead-cancelling partner). */
	int lens[2 * BENCH_NSIZES];
	for (int s = 0; s < BENCH_NSIZES; s++) {
		lens[2 * s] = sizes[s];
		lens[2 * s + 1] = sizes[s] / 2;
	}
	const int nlens = 2 * BENCH_NSIZES;
	double best[NKERNELS][2 * BENCH_NSIZES]; /* ticks per call */
	chunk_t a[BENCH_MAXN], r[2 * BENCH_MAXN];
	uint64_t seed = 0x6b65726eu;
	const enum big_cpu_variant cpu = big_cpu_best();
	uint64_t adds_best = UINT64_MAX;

	for (int i = 0; i < BENCH_MAXN; i++)
		a[i] = (chunk_t)next_random(&seed);
	for (int i = 0; i < 2 * BENCH_MAXN; i++)
		r[i] = (chunk_t)next_random(&seed);
	const chunk_t digit = (chunk_t)next_random(&seed);
	for (size_t k = 0; k < NKERNELS; k++)
		for (int l = 0; l < nlens; l++)
			best[k][l] = 1e300;

	for (int t = 0; t < BENCH_TRIALS; t++) {
		for (int l = 0; l < nlens; l++)
			for (size_t k = 0; k < NKERNELS; k++) {
				if (kernels[k].needs > cpu)
					continue;
				const int calls = calls_per_sample(kernels[k].op, lens[l]);
				double d = (double)sample(&kernels[k], lens[l], calls, r, a, digit) / calls;
				if (d < best[k][l])
					best[k][l] = d;
			}
		if (t % 16 == 0) {
			uint64_t d = adds_ticks();
			if (d < adds_best)
				adds_best = d;
		}
	}
	const double tpc = (double)adds_best / 4096.0; /* ticks per core cycle */

	fprintf(out, "Vector kernels, core cycles (rdtsc ticks / %.3f ticks per cycle)\n", tpc);
	fprintf(out, "best of %d interleaved samples (each 8..512 back-to-back calls); per chunk = (t(n) - t(n/2)) / (n/2),\n"
		     "sqr per chunk^2 = (t(n) - t(n/2)) / (n^2 - (n/2)^2); t(n) = cycles per call\n",
		BENCH_TRIALS);
	fprintf(out, "%-22s", "kernel");
	for (int s = 0; s < BENCH_NSIZES; s++)
		fprintf(out, "  n=%-3d", sizes[s]);
	fprintf(out, " |");
	for (int s = 0; s < BENCH_NSIZES; s++)
		fprintf(out, " t(%d)", sizes[s]);
	fprintf(out, "\n");
	for (size_t k = 0; k < NKERNELS; k++) {
		const struct kernel *kk = &kernels[k];
		if (kk->needs > cpu)
			continue;
		if (k > 0 && kk->op != kernels[k - 1].op)
			fprintf(out, "\n");
		fprintf(out, "%-22s", kk->name);
		for (int s = 0; s < BENCH_NSIZES; s++) {
			double hi = best[k][2 * s] / tpc;
			double lo = best[k][2 * s + 1] / tpc;
			double n = sizes[s], h = sizes[s] / 2;
			double units = kk->op == OP_SQR ? n * n - h * h : n - h;
			fprintf(out, " %6.2f", (hi - lo) / units);
		}
		fprintf(out, " |");
		for (int s = 0; s < BENCH_NSIZES; s++)
			fprintf(out, " %5.0f", best[k][2 * s] / tpc);
		fprintf(out, "   %s\n", kk->op == OP_SQR ? "(per chunk^2)" : "(per chunk)");
	}
	return 0;
}

#else

int bench_kernels_report(FILE *out)
{
	fprintf(out, "vector kernels: not measured (needs 64-bit chunks on x86-64 to compare with GMP's limbs)\n");
	return 1;
}

#endif
