/*
 * dudect: a statistical constant-time test in the style of dudect (Reparaz,
 * Balasch, Verbauwhede, "Dude, is my code constant time?", 2017).
 *
 * Two classes of secret inputs are fed, interleaved at random, to the
 * operation under test; each call is timed with the CPU's counter, fenced
 * (x86-64: rdtsc; aarch64: the generic timer cntvct_el0).  Welch's
 * t-test compares the two timing distributions: on all samples, and on
 * samples cropped at 20 upper percentiles (timing noise has a long upper
 * tail; cropping removes it).  |t| stays small when the classes are
 * indistinguishable; |t| >= 4.5 is dudect's threshold for "leaks".
 *
 * Targets (--target):
 *   rsa   rsa_private_raw on a real key, blinding OFF (blinding would hide
 *         any leak), fault check on unless --no-fault-check.  Classes:
 *         one fixed ciphertext vs a fresh random ciphertext per call.
 *         --fixed small-output picks the fixed ciphertext so that its
 *         plaintext is 128 bits shorter than n (a leak of the result's
 *         length shows up).
 *   batch rsa_private_batch of 4 operations on the key (the AVX2 lanes,
 *         or BIGMONT_BATCH's), blinding off: operation 0's ciphertext is
 *         the class (fixed vs random, as rsa), operations 1-3 fixed.
 *   crt   big_modexp_crt with GMP-made primes.  --vary input: fixed vs
 *         random base; --vary exponent: the key's dp, dq vs random
 *         exponents of the same bit lengths (random base in both).
 *   modexp_ct, modexp   big_modexp_ct / big_modexp mod n = pq, exponent
 *         of bits/2 - 1 bits: fixed 2^(bits/2-2) + 1 (the sparsest) vs
 *         random (random base).  big_modexp is the variable-time sliding
 *         window meant for public exponents: the positive control, which
 *         must show a leak at RSA sizes.
 *   batch  rsa_private_batch: BIG_CRT_BATCH_MAX (eight) operations on
 *         one key (--key), one batch call (two lane groups), blinding OFF,
 *         fault check as for rsa.  Operation --lane L (0..3) gets the
 *         class's ciphertext (fixed vs random); the others keep fixed
 *         ciphertexts.
 *   crt_batch   big_modexp_crt_batch, eight operations on GMP-made primes
 *         (one key), operation --lane L's secret varied: --vary input its
 *         base (fixed vs random), --vary exponent its dp, dq (the key's vs
 *         random of equal length, random base); the others fixed.
 *   crt_batch_leaky   the positive control of the batch targets: the same
 *         batch and classes as crt_batch --vary exponent, the fixed
 *         exponent the sparsest (as modexp's), and lane L's dp and dq
 *         also run through a textbook square-and-multiply mod n (a
 *         product on each 1 bit).  A leak of one lane's exponents, seen
 *         through the batch's time and noise.  Square-and-multiply, not
 *         big_modexp: the sliding window's leak is about a third as large,
 *         too small to show through an RSA-2048 batch in 60 s on a loaded
 *         machine.
 *   The batch targets run the lane build big_crt_batch_kernel() names
 *   (BIGMONT_BATCH=c|avx2|fma|avx512|fma512|ifma) and check, before timing, that the batch gives
 *   the single operations' results.
 *
 *   dudect [--target rsa|crt|modexp_ct|modexp|batch|crt_batch|crt_batch_leaky]
 *          [--seconds N] [--key PEM] [--bits B] [--lane L]
 *          [--fixed random|small-output] [--vary input|exponent]
 *          [--no-fault-check] [--seed S] [--self-test] [--check-only]
 *          [--until-leak]
 *
 * --self-test times a deliberately leaky comparison (early exit) and a
 * constant-time one, and exits 0 only if the first is caught: the check
 * that the harness can see a leak at all (the second is printed).
 * --check-only sets the target up (the batch targets check their results
 * there) and exits 0 without timing.  --until-leak stops as soon as max |t|
 * reaches the threshold (--seconds is then the limit): for a positive
 * control only, where it ends a run early on a quiet machine and runs on
 * through the noise of a loaded one; on a target expected not to leak it
 * would only make a false alarm likelier.
 *
 * Exit status: 0 no leak detected (|t| < 4.5), 1 leak detected, 2 usage or
 * setup error.  Not constant-time itself, nor meant to be: this is a tool.
 */
#define _GNU_SOURCE
#include <bigmont/bignum.h>
#include <bigmont/rsa.h>

#include <gmp.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "xoshiro.h"

#define T_THRESHOLD 4.5
#define N_CROPS 20
#define BATCH 2000 /* calls per batch: inputs are prepared before timing */
/* The batch targets' calls are eight operations each (over 200 ms in the
 * C twin at RSA-2048): fewer a batch, so the first (calibrating) one is
 * short. */
#define BATCH_OPS_CALLS 50

/* ---- random numbers (the tests' generator; not for keys) ------------- */
static uint64_t rng_state[4];

static uint64_t rng_next(void)
{
	return xoshiro256ss_next(rng_state);
}

static void rng_bytes(uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (uint8_t)rng_next();
}

/* ---- Welch's t-test, online (Welford) ---------------------------------- */
struct ttest {
	double mean[2], m2[2], n[2];
};

static void t_push(struct ttest *t, int cls, double x)
{
	t->n[cls] += 1;
	double delta = x - t->mean[cls];
	t->mean[cls] += delta / t->n[cls];
	t->m2[cls] += delta * (x - t->mean[cls]);
}

static double t_value(const struct ttest *t)
{
	if (t->n[0] < 2 || t->n[1] < 2)
		return 0;
	double v0 = t->m2[0] / (t->n[0] - 1), v1 = t->m2[1] / (t->n[1] - 1);
	double den = sqrt(v0 / t->n[0] + v1 / t->n[1]);
	return den > 0 ? (t->mean[0] - t->mean[1]) / den : 0;
}

struct stats {
	struct ttest all, crop[N_CROPS];
	double thresholds[N_CROPS];
	int have_thresholds;
	long samples;
	int min_crop; /* samples a cropped test needs to count */
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Crop points as dudect picks them: percentiles 1 - 0.5^(10 (k+1) / N),
 * dense near the top where the noise is. */
static void set_thresholds(struct stats *st, const uint64_t *cycles, int n)
{
	uint64_t *sorted = malloc(sizeof(uint64_t) * (size_t)n);
	memcpy(sorted, cycles, sizeof(uint64_t) * (size_t)n);
	qsort(sorted, (size_t)n, sizeof(uint64_t), cmp_u64);
	for (int k = 0; k < N_CROPS; k++) {
		double p = 1 - pow(0.5, 10.0 * (k + 1) / N_CROPS);
		st->thresholds[k] = (double)sorted[(int)(p * (n - 1))];
	}
	free(sorted);
	st->have_thresholds = 1;
}

static void push_batch(struct stats *st, const uint64_t *cycles,
		       const uint8_t *cls, int n)
{
	if (!st->have_thresholds) {
		set_thresholds(st, cycles, n);
		return; /* the first batch only calibrates (and warms up) */
	}
	for (int i = 0; i < n; i++) {
		double x = (double)cycles[i];
		t_push(&st->all, cls[i], x);
		for (int k = 0; k < N_CROPS; k++)
			if (x < st->thresholds[k])
				t_push(&st->crop[k], cls[i], x);
	}
	st->samples += n;
}

/* The largest |t| over every test with enough samples; *which: -1 for
 * "all samples", else the crop index. */
static double max_t(const struct stats *st, int *which)
{
	double best = fabs(t_value(&st->all));
	*which = -1;
	for (int k = 0; k < N_CROPS; k++) {
		const struct ttest *t = &st->crop[k];
		if (t->n[0] + t->n[1] < st->min_crop)
			continue;
		double v = fabs(t_value(t));
		if (v > best) {
			best = v;
			*which = k;
		}
	}
	return best;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The counter read so that the operation neither starts before it nor
 * ends after the next one.  aarch64's generic timer ticks at cntfrq_el0
 * (often 25 MHz to 1 GHz, not the core clock), coarser than rdtsc: an RSA
 * operation still spans thousands of its ticks. */
#if defined(__x86_64__)
#define COUNTER_NAME "rdtsc"
static inline uint64_t cycles_now(void)
{
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}
#elif defined(__aarch64__)
#define COUNTER_NAME "cntvct_el0"
static inline uint64_t cycles_now(void)
{
	uint64_t t;
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(t) : : "memory");
	return t;
}
#else
#define COUNTER_NAME "clock_gettime"
static inline uint64_t cycles_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* ---- the operations under test ----------------------------------------- */
struct target {
	const char *name;
	size_t input_len;
	/* Fill one input of class cls (0 fixed, 1 random) into in. */
	void (*prepare)(struct target *t, uint8_t *in, int cls);
	/* Run the operation once on in; nonzero on failure. */
	int (*run)(struct target *t, const uint8_t *in);
	void *ctx;
	int calls; /* per batch of measurements; 0: BATCH */
};

static int die_usage(const char *msg)
{
	fprintf(stderr, "dudect: %s (try --help)\n", msg);
	exit(2);
}

/* rsa: rsa_private_raw, blinding off. */
struct rsa_ctx {
	rsa_key *key;
	size_t size;
	uint8_t *fixed, *out;
	uint8_t top_mask; /* keeps random inputs below n: top byte < n's */
};

static void rsa_prepare(struct target *t, uint8_t *in, int cls)
{
	struct rsa_ctx *c = t->ctx;
	if (cls == 0) {
		memcpy(in, c->fixed, c->size);
		return;
	}
	rng_bytes(in, c->size);
	in[0] &= c->top_mask; /* below n: n's top byte is > top_mask */
}

static int rsa_run(struct target *t, const uint8_t *in)
{
	struct rsa_ctx *c = t->ctx;
	return rsa_private_raw(c->key, c->out, in, c->size);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	do {
		if (n + 4096 > cap) {
			cap = 2 * cap + 4096;
			buf = realloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*len = n;
	return buf;
}

/* A private key from keyfile with blinding off (it would randomise the
 * very values under test) and the fault check as asked; *top_mask keeps a
 * random input's top byte, and so the input, below n. */
static rsa_key *load_key(const char *keyfile, int fault_check, uint8_t *top_mask)
{
	rsa_key *key;
	size_t len;
	char *pem = read_file(keyfile, &len);
	if (!pem) {
		fprintf(stderr, "dudect: cannot read %s: %s\n", keyfile, strerror(errno));
		exit(2);
	}
	char err[256];
	if (rsa_key_load_pem(&key, pem, len, err, sizeof(err)) != RSA_OK) {
		fprintf(stderr, "dudect: %s: %s\n", keyfile, err);
		exit(2);
	}
	free(pem);
	if (!rsa_key_is_private(key))
		die_usage("--key must be a private key");
	if (rsa_key_set_blinding(key, 0) != RSA_OK ||
	    rsa_key_set_fault_check(key, fault_check) != RSA_OK)
		die_usage("cannot set the key's options");
	/* The top byte strictly below half of n's top byte range keeps a
	 * random input < n; n's top byte is >= 1. */
	int top_bits = rsa_key_bits(key) - 8 * ((int)rsa_key_size(key) - 1);
	*top_mask = (uint8_t)((1u << (top_bits - 1)) - 1);
	return key;
}

static void setup_rsa(struct target *t, const char *keyfile, int fault_check,
		      int small_output)
{
	static struct rsa_ctx c;
	c.key = load_key(keyfile, fault_check, &c.top_mask);
	c.size = rsa_key_size(c.key);
	c.fixed = malloc(c.size);
	c.out = malloc(c.size);
	int bits = rsa_key_bits(c.key);
	if (small_output) {
		/* Plaintext 128 bits shorter than n; the fixed input is its
		 * ciphertext, so the fixed class always yields a short result. */
		uint8_t *m = calloc(1, c.size);
		rng_bytes(m + 16, c.size - 16);
		if (rsa_public_raw(c.key, c.fixed, m, c.size) != RSA_OK)
			die_usage("rsa_public_raw failed");
		free(m);
	} else {
		rng_bytes(c.fixed, c.size);
		c.fixed[0] &= c.top_mask;
	}
	t->name = "rsa_private_raw";
	t->input_len = c.size;
	t->prepare = rsa_prepare;
	t->run = rsa_run;
	t->ctx = &c;
	printf("target: rsa_private_raw, %s (%d bits), blinding off, fault check %s, fixed %s\n",
	       keyfile, bits, fault_check ? "on" : "off",
	       small_output ? "ciphertext of a 128-bit-short plaintext" : "random ciphertext");
}

/* batch: rsa_private_batch, BIG_CRT_BATCH_MAX operations on one key,
 * blinding off.  Input layout: their ciphertexts, operation `lane`'s of
 * the class. */
struct batch_ctx {
	rsa_key *key;
	const rsa_key *keys[BIG_CRT_BATCH_MAX];
	size_t size;
	int lane;
	uint8_t *fixed; /* the four fixed ciphertexts */
	uint8_t *out;
	int status[BIG_CRT_BATCH_MAX];
	void *scratch;
	size_t scratch_size;
	uint8_t top_mask;
};

static void batch_prepare(struct target *t, uint8_t *in, int cls)
{
	struct batch_ctx *c = t->ctx;
	memcpy(in, c->fixed, BIG_CRT_BATCH_MAX * c->size);
	if (cls == 1) {
		uint8_t *x = in + (size_t)c->lane * c->size;
		rng_bytes(x, c->size);
		x[0] &= c->top_mask;
	}
}

static int batch_run(struct target *t, const uint8_t *in)
{
	struct batch_ctx *c = t->ctx;
	return rsa_private_batch(c->keys, c->out, in, c->size, BIG_CRT_BATCH_MAX,
				 c->status, c->scratch, c->scratch_size);
}

/* The batch's results against rsa_private_raw's, on inputs of both
 * classes: a timing of wrong results would prove nothing. */
static void batch_check(struct target *t)
{
	struct batch_ctx *c = t->ctx;
	uint8_t *in = malloc(BIG_CRT_BATCH_MAX * c->size), *one = malloc(c->size);
	for (int cls = 0; cls < 2; cls++) {
		batch_prepare(t, in, cls);
		if (batch_run(t, in) != RSA_OK)
			die_usage("rsa_private_batch failed");
		for (int i = 0; i < BIG_CRT_BATCH_MAX; i++)
			if (rsa_private_raw(c->key, one, in + (size_t)i * c->size, c->size) != RSA_OK ||
			    memcmp(one, c->out + (size_t)i * c->size, c->size)) {
				fprintf(stderr, "dudect: rsa_private_batch operation %d differs from "
					"rsa_private_raw\n", i);
				exit(2);
			}
	}
	free(in);
	free(one);
	printf("check: the batch's four results equal rsa_private_raw's (both classes)\n");
}

static void setup_batch(struct target *t, const char *keyfile, int fault_check, int lane)
{
	static struct batch_ctx c;
	c.key = load_key(keyfile, fault_check, &c.top_mask);
	c.size = rsa_key_size(c.key);
	c.lane = lane;
	for (int i = 0; i < BIG_CRT_BATCH_MAX; i++)
		c.keys[i] = c.key;
	c.fixed = malloc(BIG_CRT_BATCH_MAX * c.size);
	c.out = malloc(BIG_CRT_BATCH_MAX * c.size);
	for (int i = 0; i < BIG_CRT_BATCH_MAX; i++) {
		uint8_t *x = c.fixed + (size_t)i * c.size;
		rng_bytes(x, c.size);
		x[0] &= c.top_mask;
	}
	c.scratch_size = rsa_private_batch_scratch_size(c.size);
	c.scratch = malloc(c.scratch_size);
	t->name = "rsa_private_batch";
	t->input_len = BIG_CRT_BATCH_MAX * c.size;
	t->prepare = batch_prepare;
	t->run = batch_run;
	t->ctx = &c;
	t->calls = BATCH_OPS_CALLS;
	printf("target: rsa_private_batch, %s (%d bits), %d operations on the key, lane kernel '%s', "
	       "blinding off, fault check %s; operation %d fixed vs random ciphertext, the others fixed\n",
	       keyfile, rsa_key_bits(c.key), BIG_CRT_BATCH_MAX, big_crt_batch_kernel(),
	       fault_check ? "on" : "off", lane);
	batch_check(t);
}

/* crt: big_modexp_crt on GMP-made primes. */
enum crt_mode { MODE_CRT, MODE_MODEXP, MODE_MODEXP_CT, MODE_BATCH, MODE_BATCH_LEAKY };

struct crt_ctx {
	BIGNUM p, q, n, dp, dq, pinv, result, a, e1, e2;
	size_t half_bytes, size;
	int vary_exponent;
	enum crt_mode mode;
	uint8_t top_mask;
	uint8_t *fixed;
	/* The batch modes: operation `lane` takes the class's secret, the
	 * others base[j] and the fixed dp, dq; every one the same p, q. */
	int lane;
	BIGNUM base[BIG_CRT_BATCH_MAX], res[BIG_CRT_BATCH_MAX], p_rr, q_rr;
	/* The control's square-and-multiply mod n: R^2, n0, a R, the power. */
	BIGNUM n_rr, am, acc;
	BIG_CHUNK_TYPE n0;
	void *scratch;
	size_t scratch_size;
};

static void to_bignum(BIGNUM *b, const mpz_t z)
{
	size_t chunks = (mpz_sizeinbase(z, 2) + BIG_CHUNK_SIZE - 1) / BIG_CHUNK_SIZE;
	if (big_init(b, (int)chunks + 1) != BIG_OK)
		die_usage("out of memory");
	memset(b->value, 0, sizeof(BIG_CHUNK_TYPE) * (chunks + 1));
	mpz_export(b->value, NULL, -1, sizeof(BIG_CHUNK_TYPE), 0, 0, z);
	b->len = (int)chunks;
	b->sign = 1;
}

/* Input layout: the base (size bytes), then for --vary exponent the two
 * exponents (half_bytes each). */
static void crt_prepare(struct target *t, uint8_t *in, int cls)
{
	struct crt_ctx *c = t->ctx;
	if (!c->vary_exponent) {
		if (cls == 0)
			memcpy(in, c->fixed, c->size);
		else {
			rng_bytes(in, c->size);
			in[0] &= c->top_mask;
		}
		return;
	}
	rng_bytes(in, c->size);
	in[0] &= c->top_mask;
	uint8_t *e1 = in + c->size, *e2 = e1 + c->half_bytes;
	if (cls == 0) {
		bignum2bytestring(e1, &c->dp, c->half_bytes);
		bignum2bytestring(e2, &c->dq, c->half_bytes);
	} else {
		/* Bit length bits/2 - 1, as the fixed class's. */
		rng_bytes(e1, c->half_bytes);
		rng_bytes(e2, c->half_bytes);
		e1[0] = (uint8_t)((e1[0] & 0x3f) | 0x40);
		e2[0] = (uint8_t)((e2[0] & 0x3f) | 0x40);
	}
}

/* The textbook leak: left-to-right square-and-multiply mod n with a
 * product on each 1 bit of e, so its time counts e's 1 bits (the power is
 * left in Montgomery form: only its time matters). */
static int binary_pow_leaky(struct crt_ctx *c, const BIGNUM *e)
{
	if (big_mont_conv(&c->am, &c->a, &c->n, c->n0, &c->n_rr) != BIG_OK ||
	    big_mont_conv(&c->acc, &c->a, &c->n, c->n0, &c->n_rr) != BIG_OK)
		return 1;
	for (int i = big_bitlength(e) - 2; i >= 0; i--) {
		if (big_mont_mul(&c->acc, &c->acc, &c->acc, &c->n, c->n0) != BIG_OK)
			return 1;
		if ((e->value[i / BIG_CHUNK_SIZE] >> (i % BIG_CHUNK_SIZE)) & 1)
			if (big_mont_mul(&c->acc, &c->acc, &c->am, &c->n, c->n0) != BIG_OK)
				return 1;
	}
	return 0;
}

static int crt_run(struct target *t, const uint8_t *in)
{
	struct crt_ctx *c = t->ctx;
	if (bytestring2bignum(&c->a, in, c->size) != BIG_OK)
		return 1;
	const BIGNUM *dp = &c->dp, *dq = &c->dq;
	if (c->vary_exponent) {
		if (bytestring2bignum(&c->e1, in + c->size, c->half_bytes) != BIG_OK ||
		    bytestring2bignum(&c->e2, in + c->size + c->half_bytes, c->half_bytes) != BIG_OK)
			return 1;
		dp = &c->e1;
		dq = &c->e2;
	}
	if (c->mode == MODE_BATCH || c->mode == MODE_BATCH_LEAKY) {
		big_crt_batch_op ops[BIG_CRT_BATCH_MAX];
		for (int j = 0; j < BIG_CRT_BATCH_MAX; j++)
			ops[j] = (big_crt_batch_op){ &c->res[j], &c->base[j], &c->dp, &c->dq,
						     &c->p, &c->q, &c->pinv, &c->p_rr, &c->q_rr,
						     NULL, NULL, NULL };
		ops[c->lane].a = &c->a;
		ops[c->lane].dp = dp;
		ops[c->lane].dq = dq;
		if (big_modexp_crt_batch(ops, BIG_CRT_BATCH_MAX, c->scratch, c->scratch_size) != BIG_OK)
			return 1;
		/* The control's leak: the lane's exponents through square-and-
		 * multiply mod n. */
		return c->mode == MODE_BATCH_LEAKY &&
		       (binary_pow_leaky(c, dp) || binary_pow_leaky(c, dq));
	}
	if (c->mode == MODE_MODEXP)
		return big_modexp(&c->result, &c->a, dp, &c->n, NULL) != BIG_OK;
	if (c->mode == MODE_MODEXP_CT)
		return big_modexp_ct(&c->result, &c->a, dp, &c->n, NULL) != BIG_OK;
	return big_modexp_crt(&c->result, &c->a, dp, dq, &c->p, &c->q, &c->pinv,
			      NULL, NULL) != BIG_OK;
}

/* The batch modes' results against big_modexp_crt's on the same inputs,
 * both classes. */
static void crt_batch_check(struct target *t)
{
	struct crt_ctx *c = t->ctx;
	uint8_t *in = malloc(t->input_len), *got = malloc(c->size), *want = malloc(c->size);
	BIGNUM single;
	big_init(&single, 1);
	for (int cls = 0; cls < 2; cls++) {
		crt_prepare(t, in, cls);
		if (crt_run(t, in))
			die_usage("big_modexp_crt_batch failed");
		for (int j = 0; j < BIG_CRT_BATCH_MAX; j++) {
			const int mine = j == c->lane;
			if (big_modexp_crt(&single, mine ? &c->a : &c->base[j],
					   mine && c->vary_exponent ? &c->e1 : &c->dp,
					   mine && c->vary_exponent ? &c->e2 : &c->dq, &c->p, &c->q,
					   &c->pinv, NULL, NULL) != BIG_OK ||
			    bignum2bytestring(want, &single, c->size) != BIG_OK ||
			    bignum2bytestring(got, &c->res[j], c->size) != BIG_OK ||
			    memcmp(got, want, c->size)) {
				fprintf(stderr, "dudect: big_modexp_crt_batch operation %d differs from "
					"big_modexp_crt\n", j);
				exit(2);
			}
		}
	}
	big_finish(&single);
	free(in);
	free(got);
	free(want);
	printf("check: the batch's four results equal big_modexp_crt's (both classes)\n");
}

static void setup_crt(struct target *t, int bits, int vary_exponent,
		      enum crt_mode mode, int lane)
{
	static struct crt_ctx c;
	c.mode = mode;
	if (bits < 256 || bits > 8192 || bits % 16)
		die_usage("--bits must be a multiple of 16 in 256..8192");
	gmp_randstate_t gr;
	gmp_randinit_default(gr);
	gmp_randseed_ui(gr, rng_next());
	mpz_t p, q, n, e, d, phi, pm1, qm1, dp, dq, pinv;
	mpz_inits(p, q, n, e, d, phi, pm1, qm1, dp, dq, pinv, NULL);
	mpz_set_ui(e, 65537);
	do {
		mpz_urandomb(p, gr, (mp_bitcnt_t)bits / 2);
		mpz_setbit(p, (mp_bitcnt_t)bits / 2 - 1);
		mpz_setbit(p, (mp_bitcnt_t)bits / 2 - 2);
		mpz_nextprime(p, p);
		mpz_urandomb(q, gr, (mp_bitcnt_t)bits / 2);
		mpz_setbit(q, (mp_bitcnt_t)bits / 2 - 1);
		mpz_setbit(q, (mp_bitcnt_t)bits / 2 - 2);
		mpz_nextprime(q, q);
		mpz_sub_ui(pm1, p, 1);
		mpz_sub_ui(qm1, q, 1);
		mpz_mul(phi, pm1, qm1);
	} while (mpz_cmp(p, q) == 0 || !mpz_invert(d, e, phi) ||
		 mpz_sizeinbase(p, 2) != (size_t)bits / 2 ||
		 mpz_sizeinbase(q, 2) != (size_t)bits / 2);
	mpz_mul(n, p, q);
	mpz_mod(dp, d, pm1);
	mpz_mod(dq, d, qm1);
	mpz_invert(pinv, p, q);
	to_bignum(&c.p, p);
	to_bignum(&c.q, q);
	to_bignum(&c.dp, dp);
	to_bignum(&c.dq, dq);
	to_bignum(&c.pinv, pinv);
	to_bignum(&c.n, n);
	c.lane = lane;
	if (mode == MODE_BATCH || mode == MODE_BATCH_LEAKY) {
		const int len = (int)((size_t)bits / 2 / BIG_CHUNK_SIZE);
		big_init(&c.p_rr, len + 1);
		big_init(&c.q_rr, len + 1);
		if (big_mont_rr(&c.p_rr, &c.p) != BIG_OK || big_mont_rr(&c.q_rr, &c.q) != BIG_OK ||
		    big_crt_batch_len(&c.p, &c.q) != len)
			die_usage("--bits: no batch at this size");
		for (int j = 0; j < BIG_CRT_BATCH_MAX; j++) {
			mpz_t b;
			mpz_init(b);
			mpz_urandomm(b, gr, n);
			to_bignum(&c.base[j], b);
			mpz_clear(b);
			big_init(&c.res[j], 2 * len + 1);
		}
		c.scratch_size = big_crt_batch_scratch(len);
		c.scratch = malloc(c.scratch_size);
		const int nlen = c.n.len;
		big_init(&c.n_rr, nlen + 1);
		big_init(&c.am, nlen + 1);
		big_init(&c.acc, nlen + 1);
		c.n0 = big_n0(c.n.value[0]);
		if (big_mont_rr(&c.n_rr, &c.n) != BIG_OK)
			die_usage("big_mont_rr failed");
	}
	big_init(&c.result, 1);
	big_init(&c.a, 1);
	big_init(&c.e1, 1);
	big_init(&c.e2, 1);
	c.size = (mpz_sizeinbase(n, 2) + 7) / 8;
	c.half_bytes = (size_t)bits / 16;
	c.vary_exponent = vary_exponent;
	int top_bits = (int)mpz_sizeinbase(n, 2) - 8 * ((int)c.size - 1);
	c.top_mask = (uint8_t)((1u << (top_bits - 1)) - 1);
	c.fixed = malloc(c.size);
	rng_bytes(c.fixed, c.size);
	c.fixed[0] &= c.top_mask;
	if (vary_exponent) {
		/* The fixed class gets the random class's shape: bit length
		 * bits/2 - 1 (below p - 1, q - 1: their top two bits are set). */
		mpz_clrbit(dp, (mp_bitcnt_t)bits / 2 - 1);
		mpz_setbit(dp, (mp_bitcnt_t)bits / 2 - 2);
		mpz_clrbit(dq, (mp_bitcnt_t)bits / 2 - 1);
		mpz_setbit(dq, (mp_bitcnt_t)bits / 2 - 2);
		if (mode != MODE_CRT && mode != MODE_BATCH) {
			/* The extreme of the same length: 2^(bits/2-2) + 1, the
			 * fewest multiplications a window method can do, so a
			 * variable-time exponentiation cannot hide. */
			mpz_set_ui(dp, 1);
			mpz_setbit(dp, (mp_bitcnt_t)bits / 2 - 2);
		}
		big_finish(&c.dp);
		big_finish(&c.dq);
		to_bignum(&c.dp, dp);
		to_bignum(&c.dq, dq);
	}
	mpz_clears(p, q, n, e, d, phi, pm1, qm1, dp, dq, pinv, NULL);
	gmp_randclear(gr);
	t->name = mode == MODE_MODEXP	    ? "big_modexp"
		  : mode == MODE_MODEXP_CT  ? "big_modexp_ct"
		  : mode == MODE_BATCH	    ? "big_modexp_crt_batch"
		  : mode == MODE_BATCH_LEAKY ? "big_modexp_crt_batch + square-and-multiply (control)"
					    : "big_modexp_crt";
	t->input_len = c.size + (vary_exponent ? 2 * c.half_bytes : 0);
	t->prepare = crt_prepare;
	t->run = crt_run;
	t->ctx = &c;
	printf("target: %s, %d-bit modulus from GMP primes, classes: %s\n",
	       t->name, bits, vary_exponent ? "fixed exponents vs random exponents of equal length (random base)"
				   : "fixed base vs random base");
	if (mode == MODE_BATCH || mode == MODE_BATCH_LEAKY) {
		printf("batch: %d operations, lane kernel '%s'; operation %d takes the classes, "
		       "the others fixed\n", BIG_CRT_BATCH_MAX, big_crt_batch_kernel(), lane);
		t->calls = BATCH_OPS_CALLS;
		crt_batch_check(t);
	}
}

/* self-test: a leaky and a constant-time comparison of 512 bytes. */
struct cmp_ctx {
	uint8_t secret[512];
};

static void cmp_prepare(struct target *t, uint8_t *in, int cls)
{
	struct cmp_ctx *c = t->ctx;
	if (cls == 0)
		memcpy(in, c->secret, sizeof(c->secret)); /* equal: runs to the end */
	else
		rng_bytes(in, sizeof(c->secret));         /* differs early */
}

static int leaky_run(struct target *t, const uint8_t *in)
{
	struct cmp_ctx *c = t->ctx;
	for (size_t i = 0; i < sizeof(c->secret); i++)
		if (((volatile const uint8_t *)in)[i] != c->secret[i])
			return 0;
	return 0;
}

static int ct_run(struct target *t, const uint8_t *in)
{
	struct cmp_ctx *c = t->ctx;
	volatile uint8_t acc = 0;
	for (size_t i = 0; i < sizeof(c->secret); i++)
		acc |= (uint8_t)(in[i] ^ c->secret[i]);
	return acc & 0;
}

/* ---- the measurement loop ---------------------------------------------- */
/* Returns the final max |t|. */
static double measure(struct target *t, double seconds, int quiet, int until_leak)
{
	struct stats *st = calloc(1, sizeof(*st));
	const int calls = t->calls > 0 ? t->calls : BATCH;
	/* 1000 samples for a cropped test; 200 for the batch targets, whose
	 * calls are 40 times longer and fewer (their noise is preemption:
	 * the cropped tests are what see through it). */
	st->min_crop = calls < BATCH ? 200 : 1000;
	uint8_t *inputs = malloc(t->input_len * (size_t)calls);
	uint8_t cls[BATCH];
	uint64_t cycles[BATCH];
	double start = now_seconds(), last_report = start;
	int which = -1;
	double tmax = 0;
	while ((now_seconds() - start < seconds && !(until_leak && tmax >= T_THRESHOLD)) ||
	       !st->have_thresholds) {
		for (int i = 0; i < calls; i++) {
			cls[i] = (uint8_t)(rng_next() & 1);
			t->prepare(t, inputs + (size_t)i * t->input_len, cls[i]);
		}
		for (int i = 0; i < calls; i++) {
			const uint8_t *in = inputs + (size_t)i * t->input_len;
			uint64_t t0 = cycles_now();
			int rc = t->run(t, in);
			uint64_t t1 = cycles_now();
			if (rc) {
				fprintf(stderr, "dudect: %s failed\n", t->name);
				exit(2);
			}
			cycles[i] = t1 - t0;
		}
		push_batch(st, cycles, cls, calls);
		tmax = max_t(st, &which);
		if (!quiet && now_seconds() - last_report >= 10) {
			last_report = now_seconds();
			printf("  %6.0f s  %9ld samples  max |t| = %6.2f  (mean cycles fixed %.0f, random %.0f)\n",
			       last_report - start, st->samples, tmax, st->all.mean[0], st->all.mean[1]);
			fflush(stdout);
		}
	}
	if (!quiet) {
		printf("samples: %ld (%.0f fixed, %.0f random) in %.0f s\n", st->samples,
		       st->all.n[0], st->all.n[1], now_seconds() - start);
		printf("mean cycles: fixed %.0f, random %.0f\n", st->all.mean[0], st->all.mean[1]);
		printf("t (all samples) = %.2f\n", t_value(&st->all));
		if (which >= 0)
			printf("max |t| = %.2f (samples below the %.2f percentile, %.0f ticks)\n", tmax,
			       100 * (1 - pow(0.5, 10.0 * (which + 1) / N_CROPS)), st->thresholds[which]);
		else
			printf("max |t| = %.2f (all samples)\n", tmax);
	}
	free(inputs);
	free(st);
	return tmax;
}

static int self_test(double seconds)
{
	static struct cmp_ctx c;
	rng_bytes(c.secret, sizeof(c.secret));
	struct target leaky = {"leaky compare", sizeof(c.secret), cmp_prepare, leaky_run, &c, BATCH};
	struct target ct = {"constant-time compare", sizeof(c.secret), cmp_prepare, ct_run, &c, BATCH};
	double t_leaky = measure(&leaky, seconds / 2, 1, 0);
	double t_ct = measure(&ct, seconds / 2, 1, 0);
	/* Only the leak must be seen: on a loaded machine a short run of the
	 * constant-time compare can wander near the threshold (the max over
	 * 21 tests), and a flaky self-test would teach people to ignore it. */
	int ok = t_leaky >= T_THRESHOLD;
	printf("self-test: early-exit compare max |t| = %.1f (must be >= %.1f): %s; "
	       "constant-time compare max |t| = %.1f (for information)\n",
	       t_leaky, T_THRESHOLD, ok ? "PASS" : "FAIL", t_ct);
	return ok ? 0 : 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dudect [--target rsa|crt|modexp_ct|modexp|batch|crt_batch|crt_batch_leaky]\n"
		"              [--seconds N] [--key PEM] [--bits B] [--lane 0..3]\n"
		"              [--fixed random|small-output] [--vary input|exponent]\n"
		"              [--no-fault-check] [--seed S] [--self-test] [--check-only]\n"
		"              [--until-leak]\n"
		"Welch t-test on rdtsc timings of two classes of secret inputs;\n"
		"|t| < %.1f passes.  Default: --target rsa --seconds 60 --key %s\n",
		T_THRESHOLD, TEST_DATA_DIR "/keys/rsa2048-e65537.pem");
}

int main(int argc, char **argv)
{
	const char *target = "rsa", *key = TEST_DATA_DIR "/keys/rsa2048-e65537.pem";
	const char *fixed = "random", *vary = "input";
	const char *seconds_arg = "60", *bits_arg = "2048", *seed_arg = NULL, *lane_arg = "0";
	int fault_check = 1, selftest = 0, check_only = 0, until_leak = 0;
	const struct {
		const char *flag;
		const char **value;
	} words[] = {
		{ "--target", &target }, { "--key", &key }, { "--fixed", &fixed }, { "--vary", &vary },
		{ "--seconds", &seconds_arg }, { "--bits", &bits_arg }, { "--seed", &seed_arg },
		{ "--lane", &lane_arg },
	};
	const size_t n_words = sizeof(words) / sizeof(words[0]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t w = 0;
		while (w < n_words && strcmp(a, words[w].flag))
			w++;
		if (w < n_words) {
			if (i + 1 >= argc)
				die_usage("missing value");
			*words[w].value = argv[++i];
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--no-fault-check")) {
			fault_check = 0;
		} else if (!strcmp(a, "--self-test")) {
			selftest = 1;
		} else if (!strcmp(a, "--check-only")) {
			check_only = 1;
		} else if (!strcmp(a, "--until-leak")) {
			until_leak = 1;
		} else {
			fprintf(stderr, "dudect: unknown argument '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}
	double seconds = atof(seconds_arg);
	if (!(seconds > 0))
		die_usage("--seconds must be positive");
	int bits = atoi(bits_arg);
	char *lane_end;
	long lane = strtol(lane_arg, &lane_end, 10);
	if (*lane_arg == '\0' || *lane_end != '\0' || lane < 0 || lane >= BIG_CRT_BATCH_MAX)
		die_usage("--lane must be 0..3");
	uint64_t seed;
	if (seed_arg)
		seed = strtoull(seed_arg, NULL, 0);
	else if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)time(NULL);
	xoshiro256ss_seed(rng_state, seed);
	printf("dudect: seed %llu, kernels '%s'\n", (unsigned long long)seed,
	       big_cpu_variant_name());
	if (selftest)
		return self_test(seconds);

	struct target t = {0};
	if (!strcmp(target, "rsa")) {
		if (strcmp(fixed, "random") && strcmp(fixed, "small-output"))
			die_usage("--fixed must be random or small-output");
		setup_rsa(&t, key, fault_check, !strcmp(fixed, "small-output"));
	} else if (!strcmp(target, "crt")) {
		if (strcmp(vary, "input") && strcmp(vary, "exponent"))
			die_usage("--vary must be input or exponent");
		setup_crt(&t, bits, !strcmp(vary, "exponent"), MODE_CRT, 0);
	} else if (!strcmp(target, "modexp") || !strcmp(target, "modexp_ct")) {
		/* The secret is the exponent (bits/2 long, like a CRT half's). */
		setup_crt(&t, bits, 1, !strcmp(target, "modexp") ? MODE_MODEXP : MODE_MODEXP_CT, 0);
	} else if (!strcmp(target, "batch")) {
		setup_batch(&t, key, fault_check, lane);
	} else if (!strcmp(target, "crt_batch")) {
		if (strcmp(vary, "input") && strcmp(vary, "exponent"))
			die_usage("--vary must be input or exponent");
		setup_crt(&t, bits, !strcmp(vary, "exponent"), MODE_BATCH, lane);
	} else if (!strcmp(target, "crt_batch_leaky")) {
		setup_crt(&t, bits, 1, MODE_BATCH_LEAKY, lane);
	} else {
		die_usage("--target must be rsa, crt, modexp, modexp_ct, batch, crt_batch or "
			  "crt_batch_leaky");
	}
	fflush(stdout);
	if (check_only)
		return 0;
	double tmax = measure(&t, seconds, 0, until_leak);
	int leak = tmax >= T_THRESHOLD;
	printf("verdict: %s (max |t| = %.2f, threshold %.1f)\n",
	       leak ? "LEAK DETECTED" : "no leak detected", tmax, T_THRESHOLD);
	return leak ? 1 : 0;
}
