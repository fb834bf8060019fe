/*
 * bench_mont_kernels_report: rdtsc ticks per Montgomery kernel call.
 *
 * Each figure is the best, over many trials, of the mean over a run of
 * dependent calls (x = mont(x, b) or x = mont(x, x)), the shape of a
 * modular exponentiation, so latency between calls counts.  rdtsc ticks at
 * the TSC rate, which differs from the core clock under boost or when the
 * other core is busy, so the report also gives core cycles: ticks divided
 * by the ticks one cycle takes, measured on a chain of dependent adds
 * (one cycle each) right before each figure.
 * Operands are random with the modulus' top bit set (RSA-like).
 */
#include "mont_kernels.h"

#include <stdint.h>
#include <string.h>

#include "internal.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define BENCH_TICKS() __rdtsc()
#else
#include <time.h>
static uint64_t bench_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#define BENCH_TICKS() bench_ns()
#endif

struct variant {
	const char *name;
	big_mont_mul_vec_fn *mul;
	big_mont_sqr_vec_fn *sqr;
	enum big_cpu_variant needs;
};

static const struct variant variants[] = {
	{ "c", big_mont_mul_vec_c, big_mont_sqr_vec_c, BIG_CPU_C },
#if BIGMONT_HAVE_ASM
	{ "base", big_mont_mul_vec_base, big_mont_sqr_vec_base, BIG_CPU_BASELINE },
	{ "adx", big_mont_mul_vec_adx, big_mont_sqr_vec_adx, BIG_CPU_ADX },
#endif
};

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* -n^-1 mod 2^BIG_CHUNK_SIZE by Newton's iteration (n odd). */
static chunk_t neg_inverse(chunk_t n)
{
	chunk_t x = n; /* correct to 3 bits */
	for (int i = 0; i < 6; i++)
		x *= 2 - n * x;
	return (chunk_t)0 - x;
}

#if defined(__x86_64__)
/* TSC ticks per core cycle: 4096 dependent adds take 4096 cycles. */
static double ticks_per_cycle(void)
{
	uint64_t best = UINT64_MAX;
	for (int t = 0; t < 50; t++) {
		uint64_t x = 1;
		uint64_t t0 = BENCH_TICKS();
		for (int i = 0; i < 64; i++)
			__asm__ volatile(".rept 64\n\tadd %0, %0\n\t.endr" : "+r"(x));
		uint64_t d = BENCH_TICKS() - t0;
		if (d < best)
			best = d;
	}
	return (double)best / 4096.0;
}
#else
static double ticks_per_cycle(void)
{
	return 1.0;
}
#endif

#define BENCH_RUN 32
#define BENCH_TRIALS 300

static double ticks_mul(const struct variant *v, chunk_t *x, const chunk_t *b,
			const chunk_t *n, chunk_t n0, int len)
{
	uint64_t best = UINT64_MAX;
	for (int t = 0; t < BENCH_TRIALS; t++) {
		uint64_t t0 = BENCH_TICKS();
		for (int i = 0; i < BENCH_RUN; i++)
			v->mul(x, x, b, n, n0, len);
		uint64_t d = BENCH_TICKS() - t0;
		if (d < best)
			best = d;
	}
	return (double)best / BENCH_RUN;
}

static double ticks_sqr(const struct variant *v, chunk_t *x, const chunk_t *n,
			chunk_t n0, int len)
{
	uint64_t best = UINT64_MAX;
	for (int t = 0; t < BENCH_TRIALS; t++) {
		uint64_t t0 = BENCH_TICKS();
		for (int i = 0; i < BENCH_RUN; i++)
			v->sqr(x, x, n, n0, len);
		uint64_t d = BENCH_TICKS() - t0;
		if (d < best)
			best = d;
	}
	return (double)best / BENCH_RUN;
}

/* One table read of `entries` entries of len chunks; the index walks so
 * that every entry is taken in turn. */
static double ticks_select(big_ct_select_fn *sel, chunk_t *out,
			   const chunk_t *table, int entries, int len)
{
	uint64_t best = UINT64_MAX;
	chunk_t index = 0;
	for (int t = 0; t < BENCH_TRIALS; t++) {
		uint64_t t0 = BENCH_TICKS();
		for (int i = 0; i < BENCH_RUN; i++) {
			sel(out, table, entries, index, len);
			index = (index + 1) % (chunk_t)entries;
		}
		uint64_t d = BENCH_TICKS() - t0;
		if (d < best)
			best = d;
	}
	return (double)best / BENCH_RUN;
}

/* The constant-time table read of the window exponentiation, for the
 * 5-bit (32-entry) and 6-bit (64-entry) windows. */
static void report_select(FILE *out, const int *lens, int nlens)
{
	static chunk_t table[64 * 32];
	chunk_t sel[32];
	uint64_t seed = 0x73656c65u;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		table[i] = (chunk_t)next_random(&seed);
	const struct {
		const char *name;
		big_ct_select_fn *fn;
		int usable;
	} impls[] = {
		{ "c", big_ct_select_c, 1 },
#if defined(__x86_64__)
		{ "avx2", big_ct_select_avx2, big_ct_select_uses_avx2() },
#endif
	};
	for (int entries = 32; entries <= 64; entries *= 2) {
		fprintf(out, "table read of %d entries (big_ct_select, bound to %s), rdtsc ticks per call\n",
			entries, big_ct_select_uses_avx2() ? "avx2" : "c");
		for (size_t k = 0; k < sizeof(impls) / sizeof(impls[0]); k++) {
			if (!impls[k].usable)
				continue;
			fprintf(out, "%-8s %-4s", impls[k].name, "sel");
			for (int i = 0; i < nlens; i++)
				fprintf(out, " %8.0f", ticks_select(impls[k].fn, sel, table,
								     entries, lens[i]));
			fprintf(out, "   ticks\n");
		}
	}
}

/* x = x^2 with the read of a 32-entry table in the same call, in a run of
 * dependent calls; the index walks as in ticks_select. */
static double ticks_sqr_select(big_mont_sqr_select_fn *fn, chunk_t *x,
			       const chunk_t *n, chunk_t n0, int len,
			       chunk_t *sel, const chunk_t *table)
{
	uint64_t best = UINT64_MAX;
	chunk_t index = 0;
	for (int t = 0; t < BENCH_TRIALS; t++) {
		uint64_t t0 = BENCH_TICKS();
		for (int i = 0; i < BENCH_RUN; i++) {
			fn(x, x, n, n0, len, sel, table, 32, index);
			index = (index + 1) % 32;
		}
		uint64_t d = BENCH_TICKS() - t0;
		if (d < best)
			best = d;
	}
	return (double)best / BENCH_RUN;
}

/* The window's last squaring and the table read of 32 entries, in one call
 * (big_mont_sqr_select_vec) and as the two calls it stands for. */
static void report_sqr_select(FILE *out, const int *lens, int nlens)
{
	static chunk_t table[32 * 32];
	chunk_t n[32], x[32], sel[32];
	uint64_t seed = 0x73717365u;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		table[i] = (chunk_t)next_random(&seed);
	fprintf(out, "squaring + table read of 32 entries (big_mont_sqr_select_vec, bound to %s), rdtsc ticks per call\n",
		big_mont_sqr_select_uses_adx() ? "adx" : "separate");
	const struct {
		const char *name;
		big_mont_sqr_select_fn *fn;
	} impls[] = {
		{ "one call", big_mont_sqr_select_vec },
		{ "two", big_mont_sqr_select_vec_separate },
	};
	for (size_t k = 0; k < sizeof(impls) / sizeof(impls[0]); k++) {
		fprintf(out, "%-13s", impls[k].name);
		for (int i = 0; i < nlens; i++) {
			const int len = lens[i];
			for (int j = 0; j < len; j++) {
				n[j] = (chunk_t)next_random(&seed);
				x[j] = (chunk_t)next_random(&seed);
			}
			n[0] |= 1;
			n[len - 1] |= (chunk_t)1 << (BIG_CHUNK_SIZE - 1);
			x[len - 1] = n[len - 1] >> 1;
			fprintf(out, " %8.0f", ticks_sqr_select(impls[k].fn, x, n, neg_inverse(n[0]),
								  len, sel, table));
		}
		fprintf(out, "   ticks\n");
	}
}

int bench_mont_kernels_report(FILE *out)
{
	static const int lens[] = { 8, 12, 16, 24, 32 };
	const int nlens = (int)(sizeof(lens) / sizeof(lens[0]));
	chunk_t n[32], a[32], b[32];
	uint64_t seed = 0x6d6f6e74u;
	enum big_cpu_variant best = big_cpu_best();

	if (BIG_CHUNK_SIZE != 64) {
		fprintf(out, "Montgomery kernels: not measured (needs 64-bit chunks)\n");
		return 1;
	}
	fprintf(out, "Montgomery kernels, rdtsc ticks per call (best of %d runs of %d dependent calls)\n",
		BENCH_TRIALS, BENCH_RUN);
	fprintf(out, "%-8s %-4s", "variant", "op");
	for (int k = 0; k < nlens; k++)
		fprintf(out, " %8d", lens[k]);
	fprintf(out, "   (len, chunks)\n");
	for (size_t vi = 0; vi < sizeof(variants) / sizeof(variants[0]); vi++) {
		const struct variant *v = &variants[vi];
		if (v->needs > best)
			continue;
		double mul[5], sqr[5], ratio = 0;
		for (int k = 0; k < nlens; k++) {
			int len = lens[k];
			for (int j = 0; j < len; j++) {
				n[j] = (chunk_t)next_random(&seed);
				a[j] = (chunk_t)next_random(&seed);
				b[j] = (chunk_t)next_random(&seed);
			}
			n[0] |= 1;
			n[len - 1] |= (chunk_t)1 << (BIG_CHUNK_SIZE - 1);
			a[len - 1] = n[len - 1] >> 1;
			b[len - 1] = n[len - 1] >> 1;
			chunk_t n0 = neg_inverse(n[0]);
			double r0 = ticks_per_cycle();
			mul[k] = ticks_mul(v, a, b, n, n0, len);
			sqr[k] = ticks_sqr(v, a, n, n0, len);
			ratio += r0 + ticks_per_cycle();
		}
		ratio /= 2 * nlens;
		fprintf(out, "%-8s %-4s", v->name, "mul");
		for (int k = 0; k < nlens; k++)
			fprintf(out, " %8.0f", mul[k]);
		fprintf(out, "   ticks\n%-8s %-4s", v->name, "sqr");
		for (int k = 0; k < nlens; k++)
			fprintf(out, " %8.0f", sqr[k]);
		fprintf(out, "   ticks\n%-8s %-4s", v->name, "mul");
		for (int k = 0; k < nlens; k++)
			fprintf(out, " %8.0f", mul[k] / ratio);
		fprintf(out, "   core cycles (%.3f ticks/cycle)\n%-8s %-4s", ratio, v->name, "sqr");
		for (int k = 0; k < nlens; k++)
			fprintf(out, " %8.0f", sqr[k] / ratio);
		fprintf(out, "   core cycles\n");
	}
	report_select(out, lens, nlens);
	report_sqr_select(out, lens, nlens);
	return 0;
}
