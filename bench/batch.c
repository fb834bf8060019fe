/*
 * bench/batch.c -- `bigmont speed --batch` (contract in batch.h).
 */
#include "batch.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bigmont/bignum.h>
#include <bigmont/rsa.h>

#include "impl.h"
#include "ipp.h"
#include "json.h"
#include "machine.h"
#include "records.h"
#include "threads.h"

enum { IMPL_SINGLE, IMPL_BATCH_IFMA, IMPL_BATCH_FMA512, IMPL_BATCH_AVX512, IMPL_BATCH_FMA,
       IMPL_BATCH_AVX2, IMPL_BATCH_C,
       IMPL_OPENSSL, IMPL_MB8, IMPLS };

static const char *const impl_name[IMPLS] = { "ours-single", "ours-batch-ifma",
					      "ours-batch-fma512", "ours-batch-avx512",
					      "ours-batch-fma",
					      "ours-batch-avx2",
					      "ours-batch-c", "openssl-noblind",
					      "ipp-crypto-mb8" };

/* The lane rows, fastest first (the library's own order of preference):
 * BIGMONT_BATCH's value for each, its kernel column, and why it is not
 * run where the library does not take it when asked, or where
 * BIGMONT_BATCH asked for another. */
static const struct lane_row {
	int impl;
	const char *env, *kernel, *absent, *not_asked;
} lane_rows[] = {
	{ IMPL_BATCH_IFMA, "ifma", "IFMA lanes", "not run: no IFMA build or CPU",
	  "not run: BIGMONT_BATCH=ifma" },
	{ IMPL_BATCH_FMA512, "fma512", "AVX-512F FMA lanes", "not run: no AVX-512F build or CPU",
	  "not run: BIGMONT_BATCH=fma512" },
	{ IMPL_BATCH_AVX512, "avx512", "AVX-512F lanes", "not run: no AVX-512F build or CPU",
	  "not run: BIGMONT_BATCH=avx512" },
	{ IMPL_BATCH_FMA, "fma", "AVX2 FMA lanes", "not run: no FMA build or CPU",
	  "not run: BIGMONT_BATCH=fma" },
	{ IMPL_BATCH_AVX2, "avx2", "AVX2 lanes", "not run: no AVX2 build or CPU",
	  "not run: BIGMONT_BATCH=avx2" },
	{ IMPL_BATCH_C, "c", "portable C lanes", "not run: no C lanes",
	  "not run: BIGMONT_BATCH=c" },
};
#define LANE_ROWS ((int)(sizeof(lane_rows) / sizeof(lane_rows[0])))

/* Implementation i's lane row, or NULL. */
static const struct lane_row *lane_row_of(int i)
{
	for (int r = 0; r < LANE_ROWS; r++)
		if (lane_rows[r].impl == i)
			return &lane_rows[r];
	return NULL;
}

#define MAX_ROUNDS 100000

/* Whether a row belongs in this build's table and JSON: the AVX2 and IFMA
 * lanes and ipp-crypto are x86-64's, and elsewhere not even a "not run"
 * row names them. */
static int listed(int i)
{
#if defined(__x86_64__)
	(void)i;
	return 1;
#else
	return i != IMPL_BATCH_AVX2 && i != IMPL_BATCH_AVX512 && i != IMPL_BATCH_IFMA &&
	       i != IMPL_BATCH_FMA && i != IMPL_BATCH_FMA512 &&
	       i != IMPL_MB8;
#endif
}

struct impl_run {
	int present;
	const char *note; /* the kernel or why absent */
	double *ns;       /* per round, wall-clock ns per operation */
	double *cpu;      /* per round, this thread's CPU ns per operation */
	int calls;        /* calls a round: BENCH_BATCH_MIN_SPAN_NS at least */
	int rounds;
	double median, min, cpu_median, cpu_min;
	/* Medians over rounds of this row's CPU time over the single
	 * operation's and mb8's in the same round (NAN where absent). */
	double single_rounds, mb8_rounds;
};

struct key_run {
	const struct bench_speed_key *key;
	int bits;
	size_t len;
	rsa_key *ours;
	void *ossl;
	void *mb8; /* ipp-crypto mb8, or NULL with the reason in mb8_why */
	char mb8_why[300];
	struct bench_gmp *gmp;
	struct bench_rsa_parts parts;
	uint8_t *in, *want, *got;
	void *scratch;
	size_t scratch_size;
	int *status;
	const rsa_key **keys;
	struct impl_run impl[IMPLS];
	/* The thread table: rows of thread_impls at each T of tlist. */
	int tlist[BENCH_THREAD_MAX_T], nt;
	int trows[IMPLS], ntrows;
	struct bench_record *trec; /* [row * nt + ti] */
};

/* A row of the thread table: what its threads share (only read). */
struct thread_row {
	const struct key_run *k;
	int impl;
};

static double clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The lane build a batch row runs, in the environment the library reads
 * at each call: set by the main thread only, when no timed thread runs. */
static void choose_lanes(int i)
{
	/* BIGMONT_BATCH also makes the library take the lanes where it would
	 * run singly by default (keys below RSA-1024): the rows time the
	 * lanes. */
	const struct lane_row *row = lane_row_of(i);
	if (row != NULL)
		setenv("BIGMONT_BATCH", row->env, 1);
}

static void unchoose_lanes(void)
{
	unsetenv("BIGMONT_BATCH");
}

/* BENCH_BATCH_OPS operations of implementation i (its lanes chosen) on in
 * into out, with the caller's statuses and scratch (k is only read); 0 or
 * the first failure's status. */
static int run_ops(const struct key_run *k, int i, uint8_t *out, const uint8_t *in,
		   int *status, void *scratch)
{
	const size_t len = k->len;
	int rc = 0;
	switch (i) {
	case IMPL_SINGLE:
		for (int j = 0; j < BENCH_BATCH_OPS && rc == 0; j++)
			rc = rsa_private_raw(k->ours, out + j * len, in + j * len, len);
		return rc;
	case IMPL_BATCH_IFMA:
	case IMPL_BATCH_FMA512:
	case IMPL_BATCH_AVX512:
	case IMPL_BATCH_FMA:
	case IMPL_BATCH_AVX2:
	case IMPL_BATCH_C:
		return rsa_private_batch(k->keys, out, in, len, BENCH_BATCH_OPS, status, scratch,
					 k->scratch_size);
	case IMPL_MB8:
		/* One call: eight operations, each lane on the first input (the
		 * one answer checked; mb8's decrypt checks the lanes agree). */
		return bench_ipp_mb8_ops.decrypt(k->mb8, out, in);
	default:
		for (int j = 0; j < BENCH_BATCH_OPS && rc == 0; j++)
			rc = bench_ossl_ops.decrypt(k->ossl, out + j * len, in + j * len);
		return rc;
	}
}

/* run_ops on the key's own buffers, lanes chosen around it. */
static int run_own(struct key_run *k, int i)
{
	choose_lanes(i);
	const int rc = run_ops(k, i, k->got, k->in, k->status, k->scratch);
	unchoose_lanes();
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void close_key(struct key_run *k)
{
	if (k->ours)
		bench_ours_ops.close(k->ours);
	if (k->ossl)
		bench_ossl_ops.close(k->ossl);
	if (k->mb8)
		bench_ipp_mb8_ops.close(k->mb8);
	if (k->gmp)
		bench_gmp_close(k->gmp);
	bench_rsa_parts_free(&k->parts);
	free(k->in);
	free(k->want);
	free(k->got);
	free(k->scratch);
	free(k->status);
	free(k->keys);
	free(k->trec);
	for (int i = 0; i < IMPLS; i++) {
		free(k->impl[i].ns);
		free(k->impl[i].cpu);
	}
}

/* only: the one lane row BIGMONT_BATCH asked for (IMPL_BATCH_C,
 * IMPL_BATCH_AVX2, IMPL_BATCH_FMA, IMPL_BATCH_AVX512, IMPL_BATCH_FMA512 or IMPL_BATCH_IFMA;
 * a profile of one lane build,
 * profiles/record --batch --lanes), or -1 for all. */
static int open_key(struct key_run *k, const struct bench_speed_key *key, int only,
		    char *err, size_t errlen)
{
	memset(k, 0, sizeof(*k));
	k->key = key;
	char why[300] = "";
	if (bench_ossl_parts(&k->parts, key->pem, key->len, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", key->label, why);
		return 1;
	}
	const struct bench_key_input input = { key->pem, key->len, &k->parts };
	k->gmp = bench_gmp_open(&k->parts, why, sizeof(why));
	if (k->gmp == NULL || (k->ours = bench_ours_ops.open(&input, 0, why, sizeof(why))) == NULL ||
	    (k->ossl = bench_ossl_ops.open(&input, BENCH_OSSL_NOBLIND, why, sizeof(why))) == NULL) {
		snprintf(err, errlen, "%s: %s", key->label, why);
		return 1;
	}
	/* BENCH_BATCH_OPS is mb8's eight: a row's call is one mb8 call. */
	_Static_assert(BENCH_BATCH_OPS == 8, "a row's call is one mb8 call");
#if defined(__x86_64__)
	k->mb8 = bench_ipp_mb8_ops.open(&input, 0, k->mb8_why, sizeof(k->mb8_why));
#else
	snprintf(k->mb8_why, sizeof(k->mb8_why), "%s", BENCH_IPP_NOT_X86);
#endif
	k->len = rsa_key_size(k->ours);
	k->bits = rsa_key_bits(k->ours);
	const size_t all = k->len * BENCH_BATCH_OPS;
	k->in = malloc(all);
	k->want = malloc(all);
	k->got = malloc(all);
	k->scratch_size = rsa_private_batch_scratch_size(k->len);
	k->scratch = malloc(k->scratch_size);
	k->status = malloc(sizeof(int) * BENCH_BATCH_OPS);
	k->keys = malloc(sizeof(*k->keys) * BENCH_BATCH_OPS);
	for (int i = 0; i < IMPLS; i++) {
		k->impl[i].ns = malloc(sizeof(double) * MAX_ROUNDS);
		k->impl[i].cpu = malloc(sizeof(double) * MAX_ROUNDS);
	}
	for (int i = 0; i < IMPLS; i++)
		if (k->impl[i].ns == NULL || k->impl[i].cpu == NULL)
			k->in = NULL;
	if (!k->in || !k->want || !k->got || !k->scratch || !k->status || !k->keys) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	for (int j = 0; j < BENCH_BATCH_OPS; j++)
		k->keys[j] = k->ours;
	/* Random inputs below n: the top byte zero. */
	uint64_t seed = 0x62617463ULL + (uint64_t)k->bits;
	for (size_t j = 0; j < all; j++)
		k->in[j] = (uint8_t)next_random(&seed);
	for (int j = 0; j < BENCH_BATCH_OPS; j++) {
		k->in[j * k->len] = 0;
		if (bench_gmp_decrypt(k->gmp, k->want + j * k->len, k->in + j * k->len) != 0 ||
		    bench_gmp_verify(k->gmp, k->want + j * k->len, k->in + j * k->len) != 0) {
			snprintf(err, errlen, "%s: GMP's reference answer is wrong", key->label);
			return 1;
		}
	}
	/* Which implementations run here: a lane row where the library takes
	 * that build when asked for it (on an IFMA CPU its default is the
	 * IFMA lanes, and the AVX2 row asks for the AVX2 lanes). */
	for (int i = 0; i < IMPLS; i++)
		k->impl[i].present = 1;
	k->impl[IMPL_SINGLE].note = big_cpu_variant_name();
	k->impl[IMPL_OPENSSL].note = "blinding off";
	k->impl[IMPL_MB8].note = "8 lanes a call";
	if (k->mb8 == NULL) {
		k->impl[IMPL_MB8].present = 0;
		k->impl[IMPL_MB8].note = k->mb8_why;
	}
	for (int r = 0; r < LANE_ROWS; r++) {
		const struct lane_row *row = &lane_rows[r];
		choose_lanes(row->impl);
		const char *kernel = big_crt_batch_kernel();
		unchoose_lanes(); /* run_own and time_rounds set it for each row */
		const int runs = strcmp(kernel, row->env) == 0;
		k->impl[row->impl].present = runs;
		k->impl[row->impl].note = runs ? row->kernel : row->absent;
	}
	/* A lane build asked for alone where it runs; asked for where it
	 * cannot, the library falls back, and every row runs. */
	if (only >= 0 && k->impl[only].present)
		for (int r = 0; r < LANE_ROWS; r++) {
			struct impl_run *x = &k->impl[lane_rows[r].impl];
			if (lane_rows[r].impl != only && x->present) {
				x->present = 0;
				x->note = lane_row_of(only)->not_asked;
			}
		}
	return 0;
}

/* The lane row the library takes by default: the fastest present one. */
static int default_lane_row(const struct key_run *k)
{
	for (int r = 0; r < LANE_ROWS; r++)
		if (k->impl[lane_rows[r].impl].present)
			return lane_rows[r].impl;
	return IMPL_BATCH_C;
}

/* Every present implementation's answers against GMP's. */
static int check_answers(struct key_run *k, char *err, size_t errlen)
{
	for (int i = 0; i < IMPLS; i++) {
		if (!k->impl[i].present)
			continue;
		memset(k->got, 0, k->len * BENCH_BATCH_OPS);
		const int rc = run_own(k, i);
		if (rc != 0) {
			if (i == IMPL_MB8)
				snprintf(err, errlen, "%s: %s failed (%s)", k->key->label,
					 impl_name[i], bench_ipp_mb8_ops.strerror(k->mb8, rc));
			else
				snprintf(err, errlen, "%s: %s failed (status %d)", k->key->label,
					 impl_name[i], rc);
			return 1;
		}
		/* mb8 answers the first input (in every lane). */
		const size_t answered = k->len * (i == IMPL_MB8 ? 1 : BENCH_BATCH_OPS);
		if (memcmp(k->got, k->want, answered) != 0) {
			snprintf(err, errlen, "%s: %s gives a wrong answer (not GMP's)", k->key->label,
				 impl_name[i]);
			return 1;
		}
	}
	return 0;
}

/*
 * The order of a round's rows.  A ratio is taken round by round (below),
 * so the rows it compares run next to each other: mb8 beside the IFMA
 * batch, before it in odd rounds and after it in even ones (whichever runs
 * second finds the core already in its AVX-512 state), the single
 * operation first, and the portable C lanes, which take longer than all
 * the others together, last.
 */
static const int round_order[2][IMPLS] = {
	{ IMPL_SINGLE, IMPL_BATCH_IFMA, IMPL_MB8, IMPL_BATCH_FMA512, IMPL_BATCH_AVX512,
	  IMPL_BATCH_FMA, IMPL_BATCH_AVX2, IMPL_OPENSSL, IMPL_BATCH_C },
	{ IMPL_SINGLE, IMPL_MB8, IMPL_BATCH_IFMA, IMPL_BATCH_FMA512, IMPL_BATCH_AVX512,
	  IMPL_BATCH_FMA, IMPL_BATCH_AVX2, IMPL_OPENSSL, IMPL_BATCH_C },
};

/* The median over r rounds of x's CPU time over y's in the same round;
 * v: room for r values. */
static double round_ratio(const struct impl_run *x, const struct impl_run *y, int r,
			  double *v)
{
	if (!x->present || !y->present || r < 1)
		return NAN;
	for (int i = 0; i < r; i++)
		v[i] = x->cpu[i] / y->cpu[i];
	qsort(v, (size_t)r, sizeof(double), cmp_double);
	return r % 2 ? v[r / 2] : (v[r / 2 - 1] + v[r / 2]) / 2;
}

/* The calls a round times of a row whose warm-up call took call_ns. */
static int calls_for(double call_ns)
{
	const double n = ceil(BENCH_BATCH_MIN_SPAN_NS / (call_ns > 1 ? call_ns : 1));
	return n < 1 ? 1 : n > 1000 ? 1000 : (int)n;
}

/* Not inlined: profiles/record's loop check finds the batch's loop by
 * this name (profiles/proflib.py), also with frame-pointer chains. */
__attribute__((noinline)) static int time_rounds(struct key_run *k, double seconds, char *err,
						 size_t errlen)
{
	/* A warm-up round, untimed but for each row's number of calls. */
	for (int i = 0; i < IMPLS; i++)
		if (k->impl[i].present) {
			const double t0 = now_ns();
			(void)run_own(k, i);
			k->impl[i].calls = calls_for(now_ns() - t0);
		}
	const double start = now_ns();
	int r = 0;
	while (r < MAX_ROUNDS &&
	       (r < BENCH_BATCH_MIN_ROUNDS || now_ns() - start < seconds * 1e9)) {
		for (int o = 0; o < IMPLS; o++) {
			const int i = round_order[r % 2][o];
			if (!k->impl[i].present)
				continue;
			choose_lanes(i); /* the environment call outside the timed span */
			const double c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t0 = now_ns();
			const int calls = k->impl[i].calls;
			int rc = 0;
			for (int c = 0; c < calls && rc == 0; c++)
				rc = run_ops(k, i, k->got, k->in, k->status, k->scratch);
			const double t1 = now_ns(), c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			unchoose_lanes();
			if (rc != 0) {
				snprintf(err, errlen, "%s: %s failed while timed (status %d)",
					 k->key->label, impl_name[i], rc);
				return 1;
			}
			k->impl[i].ns[r] = (t1 - t0) / (BENCH_BATCH_OPS * calls);
			k->impl[i].cpu[r] = (c1 - c0) / (BENCH_BATCH_OPS * calls);
		}
		r++;
	}
	double *v = malloc(sizeof(double) * (size_t)(r > 0 ? r : 1));
	if (v == NULL) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	for (int i = 0; i < IMPLS; i++) {
		struct impl_run *x = &k->impl[i];
		x->single_rounds = round_ratio(x, &k->impl[IMPL_SINGLE], r, v);
		x->mb8_rounds = round_ratio(x, &k->impl[IMPL_MB8], r, v);
	}
	free(v);
	for (int i = 0; i < IMPLS; i++) {
		struct impl_run *x = &k->impl[i];
		if (!x->present)
			continue;
		x->rounds = r;
		qsort(x->ns, (size_t)r, sizeof(double), cmp_double);
		x->median = r % 2 ? x->ns[r / 2] : (x->ns[r / 2 - 1] + x->ns[r / 2]) / 2;
		x->min = x->ns[0];
		qsort(x->cpu, (size_t)r, sizeof(double), cmp_double);
		x->cpu_median = r % 2 ? x->cpu[r / 2] : (x->cpu[r / 2 - 1] + x->cpu[r / 2]) / 2;
		x->cpu_min = x->cpu[0];
	}
	/* Checked again after timing, by a fresh call of each row. */
	return check_answers(k, err, errlen);
}

/* ---- threads (threads.h's windows and rounds) ------------------------- */

static size_t align64(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

/* A thread's block: in holds the BENCH_BATCH_OPS inputs; out, the
 * thread's own as much (threads.h), the outputs, then the batch's
 * statuses and scratch.  A multiple of 64 bytes, so that out (in + size)
 * is as aligned as malloc's in. */
static size_t status_offset(const struct key_run *k)
{
	return align64(k->len * BENCH_BATCH_OPS);
}

static size_t scratch_offset(const struct key_run *k)
{
	return status_offset(k) + align64(sizeof(int) * BENCH_BATCH_OPS);
}

static size_t block_size(const struct key_run *k)
{
	return align64(scratch_offset(k) + k->scratch_size);
}

static int thread_op(const void *shared, uint8_t *out, const uint8_t *in)
{
	const struct thread_row *row = shared;
	const struct key_run *k = row->k;
	return run_ops(k, row->impl, out, in, (int *)(void *)(out + status_offset(k)),
		       out + scratch_offset(k));
}

static void thread_before(const void *shared)
{
	choose_lanes(((const struct thread_row *)shared)->impl);
}

static void thread_after(const void *shared)
{
	(void)shared;
	unchoose_lanes();
}

/* Our single operation and the batch the library takes here (IFMA, else
 * AVX2, else the C lanes), at every T of the plan: amortised per
 * operation, per core, against T x one thread.  The block the threads
 * run on is checked against GMP first, through thread_op. */
static int time_threads(struct key_run *k, const struct bench_thread_plan *p, char *err,
			size_t errlen)
{
	k->nt = bench_threads_list(k->tlist, p);
	if (k->nt < 2)
		return 0;
	k->ntrows = 0;
	k->trows[k->ntrows++] = IMPL_SINGLE;
	k->trows[k->ntrows++] = default_lane_row(k);
	const size_t size = block_size(k);
	uint8_t *block = calloc(2, size);
	struct thread_row rows[IMPLS];
	struct bench_thread_series *s = calloc((size_t)k->ntrows, sizeof(*s));
	k->trec = calloc((size_t)(k->ntrows * k->nt), sizeof(*k->trec));
	int rc = -1;
	if (block == NULL || s == NULL || k->trec == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memcpy(block, k->in, k->len * BENCH_BATCH_OPS);
	for (int r = 0; r < k->ntrows; r++) {
		const int i = k->trows[r];
		rows[r] = (struct thread_row){ k, i };
		thread_before(&rows[r]);
		const int failed = thread_op(&rows[r], block + size, block);
		thread_after(&rows[r]);
		if (failed || memcmp(block + size, k->want, k->len * BENCH_BATCH_OPS) != 0) {
			snprintf(err, errlen, "%s: %s in a thread's buffers gives a wrong answer "
				 "(not GMP's)", k->key->label, impl_name[i]);
			goto out;
		}
		memset(block + size, 0, size);
		s[r] = (struct bench_thread_series){
			.name = impl_name[i],
			.job = { .op = thread_op, .shared = &rows[r], .in = block, .size = size,
				 .want = k->want, .want_len = k->len * BENCH_BATCH_OPS },
			.ops_per_call = BENCH_BATCH_OPS,
			.call_ns = k->impl[i].median * BENCH_BATCH_OPS,
			.before = thread_before, .after = thread_after };
	}
	if (bench_threads_measure(s, k->ntrows, k->tlist, k->nt, p, k->bits, k->key->label, err,
				  errlen) != 0)
		goto out;
	for (int r = 0; r < k->ntrows; r++)
		for (int ti = 0; ti < k->nt; ti++) {
			struct bench_record *x = &k->trec[r * k->nt + ti];
			bench_record_init(x);
			snprintf(x->impl, sizeof(x->impl), "%s", impl_name[k->trows[r]]);
			x->bits = k->bits;
			x->threads = k->tlist[ti];
			x->blinding = 0;
			x->fault_check = 1;
			bench_threads_record(x, &s[r], ti, k->tlist[ti], p);
			if (ti == 0) { /* the baseline: its own efficiency is no measure */
				x->efficiency = x->efficiency_min = x->efficiency_max = NAN;
				x->note[0] = '\0';
			}
		}
	rc = 0;
out:
	free(block);
	free(s);
	return rc;
}

/* Operations per second of each core the T threads could have. */
static double per_core(const struct bench_record *x, int cores)
{
	return x->st.ops_per_s / (x->threads < cores ? x->threads : cores);
}

static void print_threads(FILE *out, const struct key_run *k, int cores)
{
	if (k->nt < 2)
		return;
	fprintf(out, "  threads on one shared key, %d rounds (1 thread interleaved); per core: "
		"of min(T, %d cores); efficiency against min(T, cores) x 1 thread ('-': "
		"the baseline, or withheld as the note says)\n",
		BENCH_THREAD_ROUNDS, cores);
	fprintf(out, "  %-17s %4s %12s %12s %14s %11s %9s %8s  %s\n", "implementation", "T",
		"ops/s", "ops/s/core", "ns/op per core", "efficiency", "cpu share", "/single",
		"note");
	for (int r = 0; r < k->ntrows; r++)
		for (int ti = 0; ti < k->nt; ti++) {
			const struct bench_record *x = &k->trec[r * k->nt + ti];
			const struct bench_record *one = &k->trec[ti]; /* ours-single */
			char eff[16] = "-";
			/* "*": above 100 %, as the speed table marks it (the note
			 * says why) */
			if (isfinite(x->efficiency))
				snprintf(eff, sizeof(eff), "%.0f%%%s", 100 * x->efficiency,
					 x->efficiency > 1.0 ? "*" : "");
			fprintf(out, "  %-17s %4d %12.0f %12.0f %14.0f %11s %8.0f%% %8.3f  %s\n",
				x->impl, x->threads, x->st.ops_per_s, per_core(x, cores),
				1e9 / per_core(x, cores), eff, 100 * x->cpu_share,
				one->st.ops_per_s / x->st.ops_per_s, x->note);
		}
}

static void json_threads(struct json_writer *w, const struct key_run *k, int cores)
{
	json_key(w, "threads");
	json_array_begin(w);
	for (int r = 0; r < k->ntrows && k->nt > 1; r++)
		for (int ti = 0; ti < k->nt; ti++) {
			const struct bench_record *x = &k->trec[r * k->nt + ti];
			json_object_begin(w);
			json_kv_string(w, "name", x->impl);
			json_kv_int(w, "threads", x->threads);
			json_kv_double(w, "ops_per_s", x->st.ops_per_s, 9);
			json_kv_double(w, "ops_per_s_per_core", per_core(x, cores), 9);
			json_kv_double(w, "ns_per_op_per_core", 1e9 / per_core(x, cores), 9);
			json_kv_double(w, "efficiency", x->efficiency, 4);
			json_kv_double(w, "efficiency_min", x->efficiency_min, 4);
			json_kv_double(w, "efficiency_max", x->efficiency_max, 4);
			json_kv_double(w, "cpu_share", x->cpu_share, 4);
			json_kv_double(w, "single_thread_ops_per_cpu_s", x->single_ops_per_s, 9);
			json_kv_double(w, "ratio_to_single",
				       k->trec[ti].st.ops_per_s / x->st.ops_per_s, 6);
			json_kv_string(w, "note", x->note[0] ? x->note : NULL);
			json_object_end(w);
		}
	json_array_end(w);
}

static void print_key(FILE *out, const struct key_run *k, double seconds)
{
	const struct impl_run *single = &k->impl[IMPL_SINGLE], *ossl = &k->impl[IMPL_OPENSSL];
	fprintf(out, "\nRSA-%d private key (%s): %d operations a call, calls of at least %.0f ms a "
		"row and round, %d rounds in %.2f s, interleaved\n", k->bits, k->key->label,
		BENCH_BATCH_OPS, BENCH_BATCH_MIN_SPAN_NS / 1e6, single->rounds, seconds);
	fprintf(out, "  %-17s %-19s %12s %12s %12s %12s %9s %8s %8s\n", "implementation",
		"kernel", "median ns/op", "min ns/op", "cpu ns/op", "min cpu ns", "ops/s",
		"/single", "/openssl");
	for (int i = 0; i < IMPLS; i++) {
		const struct impl_run *x = &k->impl[i];
		if (!listed(i))
			continue;
		if (!x->present) {
			fprintf(out, "  %-17s %s\n", impl_name[i], x->note);
			continue;
		}
		fprintf(out, "  %-17s %-19s %12.0f %12.0f %12.0f %12.0f %9.0f %8.3f %8.3f\n",
			impl_name[i], x->note, x->median, x->min, x->cpu_median, x->cpu_min,
			1e9 / x->cpu_median, x->cpu_median / single->cpu_median,
			x->cpu_median / ossl->cpu_median);
	}
	for (int r = 0; r < LANE_ROWS; r++) {
		const int i = lane_rows[r].impl;
		const struct impl_run *b = &k->impl[i];
		if (i == IMPL_BATCH_C || !b->present)
			continue;
		const char *name = impl_name[i] + strlen("ours-");
		fprintf(out, "  ratio %s/single: %.3f round median, %.3f cpu median, %.3f cpu "
			"min, %.3f wall median, %.3f wall min; %s/openssl %.3f (cpu median); "
			"ops/s per core x%.2f over single\n", name, b->single_rounds,
			b->cpu_median / single->cpu_median, b->cpu_min / single->cpu_min,
			b->median / single->median, b->min / single->min, name,
			b->cpu_median / ossl->cpu_median, single->cpu_median / b->cpu_median);
		const struct impl_run *mb8 = &k->impl[IMPL_MB8];
		if (mb8->present)
			fprintf(out, "  ratio %s/ipp-crypto-mb8: %.3f round median, %.3f cpu median, "
				"%.3f cpu min\n", name, b->mb8_rounds,
				b->cpu_median / mb8->cpu_median, b->cpu_min / mb8->cpu_min);
	}
}

static void json_key_run(struct json_writer *w, const struct key_run *k, int cores)
{
	json_object_begin(w);
	json_kv_string(w, "key", k->key->label);
	json_kv_int(w, "bits", k->bits);
	json_kv_int(w, "ops_per_call", BENCH_BATCH_OPS);
	json_key(w, "implementations");
	json_array_begin(w);
	for (int i = 0; i < IMPLS; i++) {
		const struct impl_run *x = &k->impl[i];
		if (!listed(i))
			continue;
		json_object_begin(w);
		json_kv_string(w, "name", impl_name[i]);
		json_kv_string(w, "kernel", x->note);
		json_kv_bool(w, "measured", x->present);
		json_kv_int(w, "rounds", x->present ? x->rounds : 0);
		json_kv_int(w, "calls_per_round", x->present ? x->calls : 0);
		json_kv_double(w, "median_ns_per_op", x->present ? x->median : NAN, 9);
		json_kv_double(w, "min_ns_per_op", x->present ? x->min : NAN, 9);
		json_kv_double(w, "cpu_median_ns_per_op", x->present ? x->cpu_median : NAN, 9);
		json_kv_double(w, "cpu_min_ns_per_op", x->present ? x->cpu_min : NAN, 9);
		json_kv_double(w, "ops_per_s", x->present ? 1e9 / x->cpu_median : NAN, 9);
		json_kv_double(w, "ratio_to_single",
			       x->present ? x->cpu_median / k->impl[IMPL_SINGLE].cpu_median : NAN, 6);
		json_kv_double(w, "ratio_to_openssl",
			       x->present ? x->cpu_median / k->impl[IMPL_OPENSSL].cpu_median : NAN, 6);
		json_kv_double(w, "ratio_to_single_rounds", x->single_rounds, 6);
		json_kv_double(w, "ratio_to_mb8_rounds", x->mb8_rounds, 6);
		json_object_end(w);
	}
	json_array_end(w);
	json_threads(w, k, cores);
	json_object_end(w);
}

int bench_batch_run(const struct bench_batch_options *o, char *err, size_t errlen)
{
	/* Read before the rows set and unset it (a name the command let
	 * through: cli_check_cpu_env). */
	const char *asked = big_crt_batch_forced();
	int only = -1;
	for (int r = 0; r < LANE_ROWS && asked != NULL; r++)
		if (strcmp(asked, lane_rows[r].env) == 0)
			only = lane_rows[r].impl;
	struct bench_machine m;
	bench_machine_probe(&m, o->build, NULL);
	bench_machine_print(o->out, &m, NULL);
	const char *kernel = big_crt_batch_kernel(); /* under the caller's BIGMONT_BATCH */
	char only_note[96] = "";
	if (only >= 0) {
		/* Asked where it cannot run, the library falls back and every
		 * lane row that runs is timed (open_key). */
		choose_lanes(only);
		const int runs = strcmp(big_crt_batch_kernel(), asked) == 0;
		unchoose_lanes();
		snprintf(only_note, sizeof only_note,
			 runs ? " (BIGMONT_BATCH=%s: only that lane row)"
			      : " (BIGMONT_BATCH=%s: not in this build or CPU, so every lane row)",
			 asked);
	}
	fprintf(o->out, "  batch     rsa_private_batch: %d operations a call, 4 per lane "
		"exponentiation (2 CRT halves each, 8 lanes); lane kernel '%s'%s\n",
		BENCH_BATCH_OPS, kernel, only_note);
	fprintf(o->out, "  settings  blinding off on every side; ours: fault check on, single "
		"and batch alike; answers checked against GMP before and after timing\n");
	struct key_run *runs = calloc((size_t)o->nkeys, sizeof(*runs));
	if (runs == NULL) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	const struct bench_thread_plan plan = { .threads = o->threads, .nthreads = o->nthreads,
						.seconds = o->seconds, .cores = m.usable_cores };
	int status = 0, done = 0;
	for (int i = 0; i < o->nkeys && status == 0; i++, done++) {
		struct key_run *k = &runs[i];
		status = open_key(k, &o->keys[i], only, err, errlen) || check_answers(k, err, errlen) ||
			 time_rounds(k, o->seconds, err, errlen) ||
			 time_threads(k, &plan, err, errlen) != 0;
		if (status == 0) {
			print_key(o->out, k, o->seconds);
			print_threads(o->out, k, m.usable_cores);
			fflush(o->out);
		}
	}
	if (status == 0 && o->json != NULL) {
		struct json_writer w;
		json_begin(&w, o->json);
		json_object_begin(&w);
		json_kv_string(&w, "schema", "bigmont-speed-batch/1");
		json_key(&w, "machine");
		json_object_begin(&w);
		bench_machine_json(&w, &m);
		json_object_end(&w);
		json_kv_string(&w, "batch_kernel", kernel); /* as the header printed it */
		json_kv_int(&w, "min_rounds", BENCH_BATCH_MIN_ROUNDS);
		json_kv_int(&w, "cores", m.usable_cores);
		json_key(&w, "thread_counts");
		json_array_begin(&w);
		for (int i = 0; i < o->nthreads; i++)
			json_int(&w, o->threads[i]);
		json_array_end(&w);
		json_key(&w, "keys");
		json_array_begin(&w);
		for (int i = 0; i < o->nkeys; i++)
			json_key_run(&w, &runs[i], m.usable_cores);
		json_array_end(&w);
		json_object_end(&w);
		if (json_finish(&w) != 0) {
			snprintf(err, errlen, "cannot write the JSON document");
			status = 1;
		}
	}
	if (status == 0 && (fflush(o->out) != 0 || ferror(o->out))) {
		snprintf(err, errlen, "cannot write the report");
		status = 1;
	}
	for (int i = 0; i < done; i++)
		close_key(&runs[i]);
	free(runs);
	return status;
}
