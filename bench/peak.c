/*
 * bench/peak.c -- this CPU's multiplier and the kernels' bounds (contract
 * in peak.h).
 */
#include "peak.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lanes/lanes.h"
#include "lanes/lanes52.h"
#include "radix52/radix52.h"

#if BIGMONT_HAVE_ASM
#include <cpuid.h>

/* asm/x86_64/peak_mulx.asm, peak_ifma.asm: 48 multiplies a pass. */
void bench_peak_mulx(uint64_t passes);
void bench_peak_ifma_zmm(uint64_t passes);
void bench_peak_ifma_ymm(uint64_t passes);
void bench_peak_vpmuludq(uint64_t passes);
void bench_peak_vpmuludq_vpaddq(uint64_t passes);
void bench_peak_vpmuludq_zmm(uint64_t passes);
void bench_peak_vpmuludq_vpaddq_zmm(uint64_t passes);
void bench_peak_fma(uint64_t passes);
void bench_peak_fma_halves(uint64_t passes);
void bench_peak_fma_zmm(uint64_t passes);
void bench_peak_fma_halves_zmm(uint64_t passes);
#define PASS_OPS 48
/* A few thousand cycles a run: long beside the fences, short beside a
 * time slice. */
#define SHORT_PASSES 32
#define LONG_PASSES 64

struct loop {
	void (*fn)(uint64_t passes);
	uint64_t passes;
};

static uint64_t run_loop(void *ctx)
{
	const struct loop *l = ctx;
	uint64_t t0 = bench_ticks();
	l->fn(l->passes);
	return bench_ticks() - t0;
}

/* The best of the short runs and of the long ones, alternating, so both
 * see the same clock. */
static struct bench_peak_runs loop_runs(void (*fn)(uint64_t), struct bench_cycle_clock *clock)
{
	struct loop shorter = { fn, SHORT_PASSES }, longer = { fn, LONG_PASSES };
	uint64_t best_short = UINT64_MAX, best_long = UINT64_MAX;
	for (int t = 0; t < BENCH_PEAK_TRIALS; t++) {
		uint64_t s = run_loop(&shorter), l = run_loop(&longer);
		if (s < best_short)
			best_short = s;
		if (l < best_long)
			best_long = l;
		if (t % 16 == 0)
			bench_cycle_clock_sample(clock);
	}
	return (struct bench_peak_runs){ (double)best_short, (double)best_long };
}

static int cpu_has_bmi2(void)
{
	unsigned a, b, c, d;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 8));
}
#endif

/* Each loop's ticks: its long runs' best minus its short runs' (NAN if
 * either is), so that the call and the fences around it cancel. */
static void ticks_of_runs(struct bench_peak *p)
{
	p->mulx_ticks = p->mulx_runs.longer - p->mulx_runs.shorter;
	p->zmm_ticks = p->zmm_runs.longer - p->zmm_runs.shorter;
	p->ymm_ticks = p->ymm_runs.longer - p->ymm_runs.shorter;
	p->vpmuludq_ticks = p->vpmuludq_runs.longer - p->vpmuludq_runs.shorter;
	p->muladd_ticks = p->muladd_runs.longer - p->muladd_runs.shorter;
	p->zmm_vpmuludq_ticks = p->zmm_vpmuludq_runs.longer - p->zmm_vpmuludq_runs.shorter;
	p->zmm_muladd_ticks = p->zmm_muladd_runs.longer - p->zmm_muladd_runs.shorter;
	p->fma_ticks = p->fma_runs.longer - p->fma_runs.shorter;
	p->fma_halves_ticks = p->fma_halves_runs.longer - p->fma_halves_runs.shorter;
	p->fma512_ticks = p->fma512_runs.longer - p->fma512_runs.shorter;
	p->fma512_halves_ticks = p->fma512_halves_runs.longer - p->fma512_halves_runs.shorter;
}

void bench_peak_measure(struct bench_peak *p, struct bench_cycle_clock *clock)
{
	const struct bench_peak_runs untimed = { NAN, NAN };
	*p = (struct bench_peak){ .mulx = NAN, .zmm = NAN, .ymm = NAN,
				  .ymm_instructions = NAN, .vpmuludq = NAN, .muladd = NAN,
				  .zmm_vpmuludq = NAN, .zmm_muladd = NAN, .fma = NAN,
				  .fma_halves = NAN, .fma_runs = untimed,
				  .fma_halves_runs = untimed, .fma512 = NAN, .fma512_halves = NAN,
				  .fma512_runs = untimed, .fma512_halves_runs = untimed,
				  .mulx_runs = untimed, .zmm_runs = untimed,
				  .ymm_runs = untimed, .vpmuludq_runs = untimed,
				  .muladd_runs = untimed, .zmm_vpmuludq_runs = untimed,
				  .zmm_muladd_runs = untimed, .timings = 1 };
#if BIGMONT_HAVE_ASM
	p->ops = (double)PASS_OPS * (LONG_PASSES - SHORT_PASSES);
	if (cpu_has_bmi2())
		p->mulx_runs = loop_runs(bench_peak_mulx, clock);
	else
		p->mulx_why = "this CPU has no BMI2";
	if (big_r52_cpu_has_ifma()) {
		p->zmm_runs = loop_runs(bench_peak_ifma_zmm, clock);
		p->ymm_runs = loop_runs(bench_peak_ifma_ymm, clock);
	} else {
		p->ifma_why = "this CPU lacks AVX-512 IFMA";
	}
	if (big_lanes_cpu_has_avx2()) {
		p->vpmuludq_runs = loop_runs(bench_peak_vpmuludq, clock);
		p->muladd_runs = loop_runs(bench_peak_vpmuludq_vpaddq, clock);
	} else {
		p->vpmuludq_why = "this CPU lacks AVX2";
	}
	if (big_lanes_cpu_has_avx512()) {
		p->zmm_vpmuludq_runs = loop_runs(bench_peak_vpmuludq_zmm, clock);
		p->zmm_muladd_runs = loop_runs(bench_peak_vpmuludq_vpaddq_zmm, clock);
	} else {
		p->zmm_vpmuludq_why = "this CPU lacks AVX-512F";
	}
	if (big_lanes52_cpu_has_fma()) {
		p->fma_runs = loop_runs(bench_peak_fma, clock);
		p->fma_halves_runs = loop_runs(bench_peak_fma_halves, clock);
	} else {
		p->fma_why = "this CPU lacks AVX2 and FMA";
	}
	if (big_lanes_cpu_has_avx512()) {
		p->fma512_runs = loop_runs(bench_peak_fma_zmm, clock);
		p->fma512_halves_runs = loop_runs(bench_peak_fma_halves_zmm, clock);
	} else {
		p->fma512_why = "this CPU lacks AVX-512F";
	}
#else
	(void)clock;
	p->mulx_why = p->ifma_why = p->vpmuludq_why = p->zmm_vpmuludq_why = p->fma_why =
		p->fma512_why =
		BENCH_HAVE_X86_PEAKS ? "this build has no assembly: BIGNUM_ASM=OFF"
				     : BENCH_PEAK_NOT_X86;
#endif
	ticks_of_runs(p);
}

static void fewer_ticks(double *ticks, double again)
{
	if (!isnan(again) && (isnan(*ticks) || again < *ticks))
		*ticks = again;
}

static void fewer_runs(struct bench_peak_runs *runs, const struct bench_peak_runs *again)
{
	fewer_ticks(&runs->shorter, again->shorter);
	fewer_ticks(&runs->longer, again->longer);
}

void bench_peak_keep_best(struct bench_peak *p, const struct bench_peak *again)
{
	fewer_runs(&p->mulx_runs, &again->mulx_runs);
	fewer_runs(&p->zmm_runs, &again->zmm_runs);
	fewer_runs(&p->ymm_runs, &again->ymm_runs);
	fewer_runs(&p->vpmuludq_runs, &again->vpmuludq_runs);
	fewer_runs(&p->muladd_runs, &again->muladd_runs);
	fewer_runs(&p->zmm_vpmuludq_runs, &again->zmm_vpmuludq_runs);
	fewer_runs(&p->zmm_muladd_runs, &again->zmm_muladd_runs);
	fewer_runs(&p->fma_runs, &again->fma_runs);
	fewer_runs(&p->fma_halves_runs, &again->fma_halves_runs);
	fewer_runs(&p->fma512_runs, &again->fma512_runs);
	fewer_runs(&p->fma512_halves_runs, &again->fma512_halves_runs);
	ticks_of_runs(p);
	p->timings += again->timings;
}

int bench_peak_check(double rate, const char *what, char *err, size_t errlen)
{
	if (rate >= BENCH_PEAK_MIN && rate <= BENCH_PEAK_MAX * BENCH_PEAK_SLACK)
		return 0;
	snprintf(err, errlen, "--kernels: the peak of %s measured %.3g a core cycle, outside "
		 "%.2f..%.0f: the loop or the calibration of ticks per cycle failed; no "
		 "percentage printed", what, rate, BENCH_PEAK_MIN, BENCH_PEAK_MAX);
	return -1;
}

/* A loop and its paired form (the multiplies alone, then with the
 * operations the kernels put beside each), both timed: their rates into
 * *alone and *paired, each checked.  A record made before the pair was
 * timed (ticks 0) leaves both as they are. */
static int pair_rates(double *alone, double *paired, const struct bench_peak *p,
		      double alone_ticks, double paired_ticks, double ticks_per_cycle,
		      const char *alone_name, const char *paired_name, char *err, size_t errlen)
{
	if (alone_ticks <= 0 || paired_ticks <= 0)
		return 0;
	*alone = p->ops / (alone_ticks / ticks_per_cycle);
	*paired = p->ops / (paired_ticks / ticks_per_cycle);
	return bench_peak_check(*alone, alone_name, err, errlen) != 0 ||
			       bench_peak_check(*paired, paired_name, err, errlen) != 0
		       ? -1
		       : 0;
}

int bench_peak_finish(struct bench_peak *p, double ticks_per_cycle, char *err,
		      size_t errlen)
{
	if (p->mulx_why == NULL) {
		p->mulx = p->ops / (p->mulx_ticks / ticks_per_cycle);
		if (bench_peak_check(p->mulx, "mulx", err, errlen) != 0)
			return -1;
	}
	/* A record made without the vpmuludq loop (ticks 0, no reason) has
	 * no vpmuludq rate: nothing to check or print. */
	if (p->vpmuludq_why == NULL && p->vpmuludq_ticks > 0) {
		p->vpmuludq = p->ops / (p->vpmuludq_ticks / ticks_per_cycle);
		if (bench_peak_check(p->vpmuludq, "vpmuludq ymm", err, errlen) != 0)
			return -1;
	}
	/* Likewise a record made before the pair loop. */
	if (p->vpmuludq_why == NULL && p->muladd_ticks > 0) {
		p->muladd = p->ops / (p->muladd_ticks / ticks_per_cycle);
		if (bench_peak_check(p->muladd, "vpmuludq + vpaddq ymm pairs", err, errlen) != 0)
			return -1;
	}
	if ((p->zmm_vpmuludq_why == NULL &&
	     pair_rates(&p->zmm_vpmuludq, &p->zmm_muladd, p, p->zmm_vpmuludq_ticks,
			p->zmm_muladd_ticks, ticks_per_cycle, "vpmuludq zmm",
			"vpmuludq + vpaddq zmm pairs", err, errlen) != 0) ||
	    (p->fma_why == NULL &&
	     pair_rates(&p->fma, &p->fma_halves, p, p->fma_ticks, p->fma_halves_ticks,
			ticks_per_cycle, "vfmadd231pd ymm", "vfmadd231pd ymm in half products",
			err, errlen) != 0) ||
	    (p->fma512_why == NULL &&
	     pair_rates(&p->fma512, &p->fma512_halves, p, p->fma512_ticks,
			p->fma512_halves_ticks, ticks_per_cycle, "vfmadd231pd zmm",
			"vfmadd231pd zmm in half products", err, errlen) != 0))
		return -1;
	if (p->ifma_why == NULL) {
		p->zmm = p->ops / (p->zmm_ticks / ticks_per_cycle);
		p->ymm_instructions = p->ops / (p->ymm_ticks / ticks_per_cycle);
		p->ymm = p->ymm_instructions / 2;
		if (bench_peak_check(p->zmm, "vpmadd52luq zmm (8-lane multiply-adds)", err,
				     errlen) != 0 ||
		    bench_peak_check(p->ymm, "vpmadd52luq ymm (8-lane multiply-adds)", err,
				     errlen) != 0)
			return -1;
	}
	return 0;
}

double bench_peak_ifma(const struct bench_peak *p)
{
	if (p->ifma_why != NULL)
		return NAN;
	return p->zmm > p->ymm ? p->zmm : p->ymm;
}

double bench_peak_mont_mulx(int n, int squaring)
{
	const double product = squaring ? (double)n * (n + 1) / 2 : (double)n * n;
	return product + (double)n * n + n;
}

double bench_peak_r52_vpmadd52(int k, int squaring)
{
	const double products = squaring ? (double)k * (k + 1) / 2 + (double)k * k
					 : 2.0 * k * k;
	return 2 * 2 * products / 8;
}

/* Groups of the pair copy shifted s lanes that hold a digit. */
static int pair_copy_groups(int s, int k)
{
	const int groups = (k + 3) / 4;
	return groups + (s > 4 * groups - k);
}

/* Row or step j through copies s and s + 1 (copy 0 a group up at s =
 * 3), from window slot base (-1: that group left out). */
static int pair_row(int j, int base, int k)
{
	const int s = j % 4, up = s < 3 ? s + 1 : 0, at = s < 3 ? base : base + 1;
	return pair_copy_groups(s, k) - (base < 0) + pair_copy_groups(up, k) - (at < 0);
}

double bench_peak_r52_pairs_vpmadd52(int k, int squaring)
{
	double n = 0;
	/* the reduction: step j < k - 1 in pass (j + 2) / 4, the last after
	 * the passes, from slot j / 4 - pass */
	for (int j = 0; j < k; j++)
		n += pair_row(j, j / 4 - (j < k - 1 ? (j + 2) / 4 : k / 4), k);
	if (!squaring) {
		for (int i = 0; i < k; i++)
			n += pair_row(i, 0, k);
		return n;
	}
	for (int i = 0; i + 1 < k; i++) {
		const int q = i / 4, s = i % 4;
		n += (k - 1 + s) / 4 - (q + s / 2) + 1 + (k + s) / 4 - (q + (s + 1) / 2) + 1;
	}
	return n + 2 * ((k + 3) / 4);
}

double bench_peak_mont_kernel_mulx(const char *kernel, int n, int squaring)
{
	if (kernel != NULL && !squaring && n == 16 &&
	    (!strcmp(kernel, "adx") || !strcmp(kernel, "kara16")))
		return 3.0 * (n / 2) * (n / 2) + (double)n * n + n;
	return bench_peak_mont_mulx(n, squaring);
}

/* The pair kernels the library runs: at 10 digits the NASM product,
 * which squares too, else the C pair product and squaring. */
static double pair_kernel_vpmadd52(int k, int squaring)
{
	return k == 10 ? BENCH_R52_NASM10 : bench_peak_r52_pairs_vpmadd52(k, squaring);
}

double bench_peak_r52_kernel_vpmadd52(const char *kernel, int k, int squaring)
{
	const double groups = (k + 3) / 4;
	if (kernel == NULL)
		return bench_peak_r52_vpmadd52(k, squaring);
	const int nasm = !strcmp(kernel, "amd") || !strcmp(kernel, "intel");
	int pairs = !strcmp(kernel, "pairs");
	if (!strcmp(kernel, "ifma")) {
		if (k == 20)
			return squaring ? BENCH_R52_NASM20_SQR : BENCH_R52_NASM20_MUL;
#if BIG_R52_HAVE_IFMA_BUILD
		pairs |= big_r52_cpu_has_ifma() && big_r52_mul_pairs_wanted(k);
#endif
		if (pairs)
			return pair_kernel_vpmadd52(k, squaring);
		return squaring ? 3 * k * groups + 2 * groups : 4 * k * groups;
	}
	if (!strcmp(kernel, "ymm"))
		return squaring ? 3 * k * groups + 2 * groups : 4 * k * groups;
	if (nasm && k == 20)
		return squaring ? BENCH_R52_NASM20_SQR : BENCH_R52_NASM20_MUL;
	return pairs ? pair_kernel_vpmadd52(k, squaring) : bench_peak_r52_vpmadd52(k, squaring);
}

double bench_peak_lanes_vpmuludq(int k, int squaring)
{
	const double products = squaring ? (double)k * (k + 1) / 2 + (double)k * k
					 : 2.0 * k * k;
	return 2 * (products + k);
}

/* The NASM squarings at 37, 55 and 74 digits square by one level of
 * Karatsuba (asm/x86_64/lanes_sqr_avx2.inc): lo^2, hi^2 and (lo + hi)^2
 * with h = (k + 1) / 2, in place of the k(k + 1)/2 square products. */
static int lanes_sqr_karatsuba(const char *kernel, int k)
{
	if (kernel == NULL || (k != 37 && k != 55 && k != 74))
		return 0;
	if (!strcmp(kernel, "asm"))
		return 1;
#if BIG_LANES_HAVE_AVX2_BUILD
	if (!strcmp(kernel, "avx2"))
		return k == 37 ? big_lanes37_asm() : k == 55 ? big_lanes55_asm() : big_lanes74_asm();
#endif
	return 0;
}

double bench_peak_lanes_kernel_vpmuludq(const char *kernel, int k, int squaring)
{
	if (!squaring || !lanes_sqr_karatsuba(kernel, k))
		return bench_peak_lanes_vpmuludq(k, squaring);
	const double h = (k + 1) / 2, l = k - h;
	const double square = h * (h + 1) + l * (l + 1) / 2;
	return 2 * (square + (double)k * k + k);
}

double bench_peak_lanes52_fma(int k, int squaring)
{
	return squaring ? 6.0 * k * k + 4 * k : 8.0 * k * k + 2 * k;
}

int bench_peak_lanes52_nasm20(int k)
{
#if BIG_LANES52_HAVE_IFMA_BUILD
	return k == 20 && big_lanes52_sqr20_asm();
#else
	(void)k;
	return 0;
#endif
}

double bench_peak_lanes52_kernel_vpmadd52(const char *kernel, int k, int squaring)
{
	const double need = squaring ? 3.0 * k * k + 2 * k : 4.0 * k * k + k;
	if (kernel == NULL || strcmp(kernel, "ifma") != 0)
		return need;
	/* The IFMA build compiles the register window at its fixed sizes
	 * below the tiles; the other sizes but the tiles take the rows. */
	const int window = BIG_LANES52_FIXED(k) && !BIG_LANES52_TILED(k);
	double own = need;
	/* No lo(q m_0): the tiles, the window's early q, and the NASM kernels
	 * at 20 digits where they are bound (LANES52_SQR20_ASM). */
	if (BIG_LANES52_TILED(k) || (window && k <= BIG_LANES52_EARLY_Q_DIGITS) ||
	    bench_peak_lanes52_nasm20(k))
		own -= k;
	/* The window's doubled digits by madds with 2: 3k - 5 in the source,
	 * 2k - 3 as GCC compiles the plain squaring (the one timed), where
	 * each square row's lo(2 a_{s+1}) for s >= 1 is dd[s+1]'s first madd;
	 * the squaring with the table scan, whose stores may alias a, issues
	 * all 3k - 5; the NASM squaring the same 2k - 3. */
	if (window && squaring)
		own += 2 * k - 3;
	return own;
}

double bench_peak_bound(double multiplies, double rate)
{
	return rate > 0 ? multiplies / rate : NAN;
}

double bench_peak_pct(double bound, double cycles)
{
	return cycles > 0 ? 100 * bound / cycles : NAN;
}

void bench_peak_print(FILE *out, const struct bench_peak *p)
{
	if (!BENCH_HAVE_X86_PEAKS)
		return;
	if (p->mulx_why != NULL)
		fprintf(out, "peak mulx: not measured (%s)\n", p->mulx_why);
	else
		fprintf(out, "peak mulx: %.2f multiplies a core cycle (%d independent chains, "
			"best of %d runs in each of %d timings: before the tables, after%s)\n",
			p->mulx, BENCH_PEAK_CHAINS, BENCH_PEAK_TRIALS, p->timings,
			p->timings > 2 ? ", again while a rate read outside the range" : "");
	if (p->ifma_why != NULL)
		fprintf(out, "peak vpmadd52luq: not measured (%s)\n", p->ifma_why);
	else
		fprintf(out, "peak vpmadd52luq: zmm %.2f, ymm %.2f 8-lane multiply-adds a core "
			"cycle (ymm: %.2f instructions)\n", p->zmm, p->ymm, p->ymm_instructions);
	if (p->vpmuludq_why != NULL)
		fprintf(out, "peak vpmuludq: not measured (%s)\n", p->vpmuludq_why);
	else if (p->vpmuludq > 0)
		fprintf(out, "peak vpmuludq: %.2f ymm multiplies (4 lane products each) a core "
			"cycle\n", p->vpmuludq);
	if (p->vpmuludq_why == NULL && p->vpmuludq > 0 && p->muladd > 0)
		fprintf(out, "peak vpmuludq + vpaddq: %.2f ymm products with their sums a core "
			"cycle, %.0f %% of the vpmuludq peak\n", p->muladd,
			100 * p->muladd / p->vpmuludq);
	if (p->zmm_vpmuludq_why != NULL)
		fprintf(out, "peak vpmuludq zmm: not measured (%s)\n", p->zmm_vpmuludq_why);
	else if (p->zmm_vpmuludq > 0 && p->zmm_muladd > 0)
		fprintf(out, "peak vpmuludq zmm: %.2f zmm multiplies (8 lane products each) a "
			"core cycle; with their vpaddq %.2f, %.0f %% of it\n", p->zmm_vpmuludq,
			p->zmm_muladd, 100 * p->zmm_muladd / p->zmm_vpmuludq);
	if (p->fma_why != NULL)
		fprintf(out, "peak vfmadd231pd: not measured (%s)\n", p->fma_why);
	else if (p->fma > 0 && p->fma_halves > 0)
		fprintf(out, "peak vfmadd231pd: %.2f ymm FMAs a core cycle; in half products (two "
			"a digit product, with a subtraction and two vpaddq) %.2f, %.0f %% of it\n",
			p->fma, p->fma_halves, 100 * p->fma_halves / p->fma);
	if (p->fma512_why != NULL)
		fprintf(out, "peak vfmadd231pd zmm: not measured (%s)\n", p->fma512_why);
	else if (p->fma512 > 0 && p->fma512_halves > 0)
		fprintf(out, "peak vfmadd231pd zmm {rd-sae}: %.2f zmm FMAs a core cycle; in half "
			"products %.2f, %.0f %% of it\n", p->fma512, p->fma512_halves,
			100 * p->fma512_halves / p->fma512);
}

int bench_peak_print_heading(FILE *out, const char *table, const char *peak_name,
			     const char *why_not, const char *multiply, double rate)
{
	if (!BENCH_HAVE_X86_PEAKS)
		return 0;
	if (why_not != NULL) {
		fprintf(out, "%s against the peak: no bound (peak %s not measured)\n", table,
			peak_name);
		return 0;
	}
	fprintf(out, "%s against the peak: bound = the %s a call needs / %.2f a cycle\n", table,
		multiply, rate);
	return 1;
}

void bench_peak_print_table(FILE *out, const char *first, const int *heads, int n,
			    const struct bench_kernel_row *rows, int nrows,
			    double ticks_per_cycle, double rate, bench_peak_count_fn *count,
			    const char *const formula[2])
{
	bench_print_kernel_head(out, first, heads, n, "bound, % of peak");
	for (int sq = 0; sq < 2; sq++) {
		fprintf(out, "%-8s %-4s", "bound", sq ? "sqr" : "mul");
		for (int i = 0; i < n; i++)
			fprintf(out, " %8.0f", bench_peak_bound(count(NULL, heads[i], sq), rate));
		fprintf(out, "   core cycles: %s\n", formula[sq]);
	}
	int above = 0;
	for (int r = 0; r < nrows; r++) {
		const int sq = rows[r].op != NULL && !strcmp(rows[r].op, "sqr");
		fprintf(out, "%-8s %-4s", rows[r].name, rows[r].op ? rows[r].op : "");
		for (int i = 0; i < n; i++) {
			const double pct =
				bench_peak_pct(bench_peak_bound(count(rows[r].name, heads[i], sq), rate),
					       rows[r].ticks[i] / ticks_per_cycle);
			/* '*': above 100 %, which no kernel can do (the note below) */
			fprintf(out, " %7.1f%%%s", pct, pct > 100 ? "*" : "");
			above |= pct > 100;
		}
		fprintf(out, "   of peak: bound / core cycles\n");
	}
	for (int r = 0; r < nrows; r++) {
		const int sq = rows[r].op != NULL && !strcmp(rows[r].op, "sqr");
		for (int i = 0; i < n; i++) {
			const double own = count(rows[r].name, heads[i], sq);
			if (own != count(NULL, heads[i], sq))
				fprintf(out, "  %s %s at %d: its own count, %.0f multiplies, bound %.0f "
					"core cycles\n", rows[r].name, rows[r].op ? rows[r].op : "",
					heads[i], own, bench_peak_bound(own, rate));
		}
	}
	if (above)
		fprintf(out, "  * above 100 %% of peak: a measurement error (the clock's "
			"calibration or the run disturbed); rerun on a quiet machine\n");
}

void bench_peak_json_rows(struct json_writer *w, const struct bench_peak_json_table *t,
			  const struct bench_kernel_row *rows, int nrows,
			  double ticks_per_cycle)
{
	for (int r = 0; r < nrows; r++) {
		const int sq = rows[r].op != NULL && !strcmp(rows[r].op, "sqr");
		for (int i = 0; i < t->n; i++) {
			const double cycles = BENCH_HAVE_CORE_CYCLES ? rows[r].ticks[i] / ticks_per_cycle
								     : NAN;
			const double count = t->count ? t->count(rows[r].name, t->heads[i], sq) : NAN;
			const double bound = t->count ? bench_peak_bound(count, t->rate) : NAN;
			const double pct = bench_peak_pct(bound, cycles);
			json_object_begin(w);
			json_kv_string(w, t->name_key, t->build ? t->build : rows[r].name);
			if (t->build)
				json_kv_string(w, "tuning", rows[r].name);
			json_kv_string(w, "op", rows[r].op);
			json_kv_int(w, t->size_key, t->heads[i]);
			json_kv_double(w, "ticks", rows[r].ticks[i], 6);
			json_kv_double(w, "cycles", cycles, 6);
			json_kv_double(w, t->count_key, count, 6);
			json_kv_double(w, "bound_cycles", bound, 6);
			if (isnan(pct))
				json_kv_double(w, "above_peak", NAN, 0); /* null */
			else
				json_kv_bool(w, "above_peak", pct > 100);
			json_kv_double(w, "pct_of_peak", pct, 4);
			json_object_end(w);
		}
	}
}
