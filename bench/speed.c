/*
 * bench/speed.c -- `bigmont speed`: options, and for each key the
 * orchestration: check every implementation against GMP, measure them
 * interleaved, measure thread scaling, print the tables, write the JSON.
 *
 * Nothing is printed for a key until every implementation has given the
 * right answer on it, and the JSON file is written (via a temporary file
 * and rename) only when the whole run succeeded.
 */
#define _GNU_SOURCE
#include "speed.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "keys.h"
#include "machine.h"
#include "measure.h"
#include "report.h"
#include "threads.h"
#include "worker.h"

/* Set by bench/CMakeLists.txt when the kernel benchmarks exist, so that
 * adding them rebuilds this file. */
#if BENCH_HAVE_KERNELS
#include "kernels.h"
#endif
#if BENCH_HAVE_MONT_KERNELS
#include "mont_kernels.h"
#endif

#define EXIT_USAGE 2
#define MAX_LIST 32
#define MAX_KEYS 32

static void error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("bigmont: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bigmont speed [options]\n"
		"\n"
		"Time the raw RSA private-key operation (CRT) of this build of bigmont,\n"
		"next to GMP and OpenSSL measured in the same run, interleaved.\n"
		"Every implementation's result is checked against GMP first.\n"
		"\n"
		"options:\n"
		"  --bits LIST       embedded keys to use: 1024,2048,3072,4096\n"
		"                    (default 1024,2048 unless --key is given)\n"
		"  --key FILE        a PEM private key (PKCS#1 or PKCS#8); repeatable\n"
		"  --seconds S       time per implementation and key (default 1)\n"
		"  --threads LIST    thread counts, e.g. 1,2,4 (default 1); T > 1 also\n"
		"                    measures T threads sharing one key\n"
		"  --compare LIST    gmp, openssl (with and without blinding, and without\n"
		"                    AVX-512 IFMA), or none (default gmp,openssl)\n"
		"  --json FILE       also write the results as JSON (see bench/README.md)\n"
		"  --kernels         print the kernels' cycles-per-limb tables (only them,\n"
		"                    unless --bits or --key is given too)\n"
		"  --build NAME      label of this build in the results (default from the\n"
		"                    configuration: chunk32, chunk64, chunk64-asm)\n"
		"  --help            this text\n"
		"\n"
		"Kernel variant: BIGMONT_CPU=c|baseline|adx in the environment.\n");
}

/* ---- options ------------------------------------------------------------ */
struct options {
	int bits[MAX_LIST], nbits, bits_given;
	const char *keyfiles[MAX_KEYS];
	int nkeyfiles;
	double seconds;
	int threads[MAX_LIST], nthreads;
	int gmp, openssl;
	const char *compare;
	const char *json;
	const char *build;
	int kernels;
};

/* Comma-separated positive integers within [lo, hi]. */
static int parse_int_list(int *out, int *n, const char *s, int lo, int hi,
			  const char *what)
{
	*n = 0;
	const char *p = s;
	for (;;) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v < lo || v > hi ||
		    (*end != ',' && *end != '\0')) {
			error("%s: '%s' is not a list of integers from %d to %d",
			      what, s, lo, hi);
			return -1;
		}
		if (*n == MAX_LIST) {
			error("%s: too many values (at most %d)", what, MAX_LIST);
			return -1;
		}
		out[(*n)++] = (int)v;
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
}

static int parse_compare(struct options *o, const char *s)
{
	o->gmp = o->openssl = 0;
	o->compare = s;
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", s);
	char *save = NULL;
	int none = 0, any = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		any = 1;
		if (!strcmp(t, "gmp"))
			o->gmp = 1;
		else if (!strcmp(t, "openssl"))
			o->openssl = 1;
		else if (!strcmp(t, "none"))
			none = 1;
		else {
			error("--compare: '%s' is not gmp, openssl or none", t);
			return -1;
		}
	}
	if (!any || (none && (o->gmp || o->openssl))) {
		error("--compare: '%s': give gmp and/or openssl, or none alone", s);
		return -1;
	}
	return 0;
}

static int parse_options(struct options *o, int argc, char **argv, int *help)
{
	memset(o, 0, sizeof(*o));
	o->seconds = 1.0;
	o->threads[0] = 1;
	o->nthreads = 1;
	o->gmp = o->openssl = 1;
	o->compare = "gmp,openssl";
	*help = 0;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = NULL;
		char name[32];
		const char *eq = strchr(arg, '=');
		if (!strncmp(arg, "--", 2) && eq != NULL && (size_t)(eq - arg) < sizeof(name)) {
			memcpy(name, arg, eq - arg);
			name[eq - arg] = '\0';
			val = eq + 1;
			arg = name;
		}
		int takes = !strcmp(arg, "--bits") || !strcmp(arg, "--key") ||
			    !strcmp(arg, "--seconds") || !strcmp(arg, "--threads") ||
			    !strcmp(arg, "--compare") || !strcmp(arg, "--json") ||
			    !strcmp(arg, "--build");
		if (takes && val == NULL) {
			if (i + 1 >= argc) {
				error("%s needs a value (try 'bigmont speed --help')", arg);
				return -1;
			}
			val = argv[++i];
		} else if (!takes && val != NULL) {
			error("%s takes no value", arg);
			return -1;
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			*help = 1;
		} else if (!strcmp(arg, "--bits")) {
			if (parse_int_list(o->bits, &o->nbits, val, 512, 16384, "--bits"))
				return -1;
			o->bits_given = 1;
		} else if (!strcmp(arg, "--key")) {
			if (o->nkeyfiles == MAX_KEYS) {
				error("--key: at most %d keys", MAX_KEYS);
				return -1;
			}
			o->keyfiles[o->nkeyfiles++] = val;
		} else if (!strcmp(arg, "--seconds")) {
			char *end;
			errno = 0;
			o->seconds = strtod(val, &end);
			if (end == val || *end || errno || !(o->seconds > 0) ||
			    o->seconds > 3600) {
				error("--seconds: '%s' is not a number of seconds in (0, 3600]", val);
				return -1;
			}
		} else if (!strcmp(arg, "--threads")) {
			if (parse_int_list(o->threads, &o->nthreads, val, 1, 1024, "--threads"))
				return -1;
		} else if (!strcmp(arg, "--compare")) {
			if (parse_compare(o, val))
				return -1;
		} else if (!strcmp(arg, "--json")) {
			o->json = val;
		} else if (!strcmp(arg, "--build")) {
			o->build = val;
		} else if (!strcmp(arg, "--kernels")) {
			o->kernels = 1;
		} else {
			error("unknown option '%s' (try 'bigmont speed --help')", argv[i]);
			return -1;
		}
	}
	if (!o->bits_given && o->nkeyfiles == 0) {
		o->bits[0] = 1024;
		o->bits[1] = 2048;
		o->nbits = 2;
	}
	for (int i = 0; i < o->nbits; i++) {
		int found = 0;
		for (int k = 0; k < bench_embedded_key_count; k++)
			found |= bench_embedded_keys[k].bits == o->bits[i];
		if (!found) {
			error("--bits: no embedded key of %d bits (there are 1024, "
			      "2048, 3072, 4096; use --key FILE for others)", o->bits[i]);
			return -1;
		}
	}
	return 0;
}

/* ---- keys --------------------------------------------------------------- */
struct key_text {
	char label[160];
	char *pem; /* owned when from a file */
	const char *text;
	size_t len;
};

static int read_file(struct key_text *k, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		error("cannot open key file '%s': %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	while (buf != NULL) {
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len < cap)
			break;
		if (cap >= (1u << 24)) {
			free(buf);
			buf = NULL;
			errno = EFBIG;
			break;
		}
		char *more = realloc(buf, 2 * cap + 1);
		if (more == NULL) {
			free(buf);
			buf = NULL;
		}
		buf = more;
		cap *= 2;
	}
	int bad = buf == NULL || ferror(f);
	fclose(f);
	if (bad) {
		error("cannot read key file '%s': %s", path, strerror(errno ? errno : EIO));
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	k->pem = buf;
	k->text = buf;
	k->len = len;
	snprintf(k->label, sizeof(k->label), "%s", path);
	return 0;
}

/* ---- one implementation, as the interleaved loop sees it ---------------- */
enum impl_kind { K_OURS, K_GMP, K_OSSL, K_WORKER };

struct impl {
	const char *name;
	enum impl_kind kind;
	void *h; /* bench_ours / bench_gmp / bench_ossl / bench_worker */
	int blinding, fault_check;
	char note[160];
	uint8_t *out;
	const uint8_t *in;
};

static int impl_decrypt(struct impl *im, uint8_t *out, const uint8_t *in)
{
	switch (im->kind) {
	case K_OURS: return bench_ours_decrypt(im->h, out, in);
	case K_GMP: return bench_gmp_decrypt(im->h, out, in);
	case K_OSSL: return bench_ossl_decrypt(im->h, out, in);
	case K_WORKER: return bench_worker_decrypt(im->h, out, in);
	}
	return -1;
}

static int impl_op(void *ctx)
{
	struct impl *im = ctx;
	return impl_decrypt(im, im->out, im->in);
}

static int impl_batch(void *ctx, long iters, struct bench_batch *b)
{
	struct impl *im = ctx;
	if (im->kind == K_WORKER)
		return bench_worker_batch(im->h, iters, b);
	return bench_time_ops(impl_op, im, iters, b);
}

static void impl_close(struct impl *im)
{
	switch (im->kind) {
	case K_OURS: bench_ours_close(im->h); break;
	case K_GMP: bench_gmp_close(im->h); break;
	case K_OSSL: bench_ossl_close(im->h); break;
	case K_WORKER: bench_worker_stop(im->h); break;
	}
	im->h = NULL;
	free(im->out);
	im->out = NULL;
}

/* ---- the run ------------------------------------------------------------ */
struct run {
	const struct options *o;
	struct bench_record *rec;
	int nrec, caprec;
	int ours_blind_state; /* -1 unknown, 0 refused, 1 measured */
	int ours_fault_check;
	int ours_blinding;    /* of the plain `ours` key */
};

static struct bench_record *new_record(struct run *run)
{
	if (run->nrec == run->caprec) {
		int cap = run->caprec ? 2 * run->caprec : 32;
		struct bench_record *r = realloc(run->rec, cap * sizeof(*r));
		if (r == NULL)
			return NULL;
		run->rec = r;
		run->caprec = cap;
	}
	struct bench_record *r = &run->rec[run->nrec++];
	memset(r, 0, sizeof(*r));
	r->efficiency = NAN;
	r->single_ops_per_s = NAN;
	bench_stats_of(&r->st, NULL, NULL, 0, 0);
	return r;
}

static int ours_shared_op(const void *h, uint8_t *out, const uint8_t *in)
{
	return bench_ours_decrypt(h, out, in);
}

static int ossl_shared_op(const void *h, uint8_t *out, const uint8_t *in)
{
	return bench_ossl_decrypt_shared(h, out, in);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define THREAD_WINDOWS 3

/*
 * Thread scaling for ours and OpenSSL: for T = 1 and every T > 1 asked
 * for, THREAD_WINDOWS windows per implementation, interleaved, each
 * seconds / THREAD_WINDOWS long.  One record per implementation and T > 1.
 */
static int measure_threads(struct run *run, const char *key, int bits,
			   const struct bench_ours *ours,
			   const struct bench_ossl *ossl, const uint8_t *in,
			   size_t size)
{
	const struct options *o = run->o;
	int any = 0;
	for (int i = 0; i < o->nthreads; i++)
		any |= o->threads[i] > 1;
	if (!any)
		return 0;
	struct {
		const char *name;
		bench_shared_op op;
		const void *h;
		int blinding, fault_check;
		double single;
	} who[2] = {
		{ "ours", ours_shared_op, ours, 0, run->ours_fault_check, NAN },
		{ "openssl", ossl_shared_op, ossl, 1, -1, NAN },
	};
	int nwho = ossl != NULL ? 2 : 1;
	double window = o->seconds / THREAD_WINDOWS;
	int list[MAX_LIST + 1], nlist = 0;
	list[nlist++] = 1;
	for (int i = 0; i < o->nthreads; i++)
		if (o->threads[i] > 1)
			list[nlist++] = o->threads[i];
	for (int t = 0; t < nlist; t++) {
		double v[2][THREAD_WINDOWS];
		long ops[2] = { 0, 0 };
		for (int w = 0; w < THREAD_WINDOWS; w++) {
			for (int k = 0; k < nwho; k++) {
				struct bench_threads_result res;
				if (bench_threads_run(who[k].op, who[k].h, in, size,
						      list[t], window, &res) != 0) {
					error("%s with %d threads failed on the %s key",
					      who[k].name, list[t], key);
					return -1;
				}
				v[k][w] = res.ops_per_s;
				ops[k] += res.ops;
			}
		}
		for (int k = 0; k < nwho; k++) {
			qsort(v[k], THREAD_WINDOWS, sizeof(double), cmp_double);
			double med = v[k][THREAD_WINDOWS / 2];
			if (list[t] == 1) {
				who[k].single = med;
				continue;
			}
			struct bench_record *r = new_record(run);
			if (r == NULL)
				return -1;
			snprintf(r->impl, sizeof(r->impl), "%s", who[k].name);
			snprintf(r->key, sizeof(r->key), "%.159s", key);
			r->bits = bits;
			r->threads = list[t];
			r->blinding = who[k].blinding;
			r->fault_check = who[k].fault_check;
			r->st.samples = THREAD_WINDOWS;
			r->st.ops = ops[k];
			r->st.ops_per_s = med;
			/* Wall time per operation at that throughput. */
			r->st.median_ns = 1e9 / med;
			r->st.min_ns = 1e9 / v[k][THREAD_WINDOWS - 1];
			r->st.max_ns = 1e9 / v[k][0];
			r->st.cycles_per_op = NAN;
			r->single_ops_per_s = who[k].single;
			r->efficiency = med / (list[t] * who[k].single);
		}
	}
	return 0;
}

/* A deterministic input below n: same bytes in every run and build. */
static void make_input(uint8_t *in, size_t size, const uint8_t *n, uint64_t seed)
{
	uint64_t x = 0x9e3779b97f4a7c15u ^ seed;
	for (size_t i = 0; i < size; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		in[i] = (uint8_t)(x >> 24);
	}
	in[0] = (uint8_t)(in[0] % n[0]); /* n[0] != 0: n has exactly size bytes */
}

static int bench_key(struct run *run, const struct key_text *kt)
{
	const struct options *o = run->o;
	char err[256];
	struct bench_rsa_parts parts;
	if (bench_ossl_parts(&parts, kt->text, kt->len, err, sizeof(err)) != 0) {
		error("cannot read the key %s: %s", kt->label, err);
		return -1;
	}
	struct bench_gmp *ref = bench_gmp_open(&parts, err, sizeof(err));
	if (ref == NULL) {
		bench_rsa_parts_free(&parts);
		error("the key %s: %s", kt->label, err);
		return -1;
	}
	size_t size = bench_gmp_size(ref);
	int bits = (int)(parts.len[RSA_PART_N] * 8);
	for (uint8_t top = parts.v[RSA_PART_N][0]; top < 0x80; top <<= 1)
		bits--;
	uint8_t *in = malloc(size), *want = malloc(size), *got = malloc(size);
	struct impl im[8];
	int nim = 0, rc = -1;
	memset(im, 0, sizeof(im));
	if (in == NULL || want == NULL || got == NULL) {
		error("out of memory");
		goto out;
	}
	make_input(in, size, parts.v[RSA_PART_N], 0);
	if (bench_gmp_decrypt(ref, want, in) != 0 ||
	    bench_gmp_verify(ref, want, in) != 0) {
		error("GMP's own result on the key %s does not verify", kt->label);
		goto out;
	}

	/* Open everything first: a key or implementation that fails stops
	 * the run before any number is printed for this key. */
	int refused = 0;
	im[nim] = (struct impl){ .name = "ours", .kind = K_OURS };
	im[nim].h = bench_ours_open(kt->text, kt->len, 0, &refused, err, sizeof(err));
	if (im[nim].h == NULL && !refused) {
		error("ours: %s (key %s)", err, kt->label);
		goto out;
	}
	if (im[nim].h != NULL) {
		im[nim].blinding = bench_ours_blinding(im[nim].h);
		im[nim].fault_check = bench_ours_fault_check(im[nim].h);
	} else {
		/* The library insists on blinding: measure it as it is. */
		im[nim].h = bench_ours_open(kt->text, kt->len, 1, &refused, err, sizeof(err));
		if (im[nim].h == NULL) {
			error("ours: %s (key %s)", err, kt->label);
			goto out;
		}
		im[nim].blinding = bench_ours_blinding(im[nim].h);
		im[nim].fault_check = bench_ours_fault_check(im[nim].h);
	}
	run->ours_fault_check = im[nim].fault_check;
	run->ours_blinding = im[nim].blinding;
	nim++;

	im[nim] = (struct impl){ .name = "ours-blinded", .kind = K_OURS };
	im[nim].h = bench_ours_open(kt->text, kt->len, 1, &refused, err, sizeof(err));
	if (im[nim].h == NULL && !refused) {
		error("ours-blinded: %s (key %s)", err, kt->label);
		goto out;
	}
	if (im[nim].h == NULL || im[0].blinding == 1) {
		/* Refused, or the plain key is blinded already. */
		if (im[nim].h != NULL)
			bench_ours_close(im[nim].h);
		im[nim].h = NULL;
		snprintf(im[nim].note, sizeof(im[nim].note), "%s",
			 refused ? "blinding not available: rsa_key_set_blinding(key, 1) "
				   "returns an error"
				 : "same as ours (the library always blinds)");
		run->ours_blind_state = 0;
	} else {
		im[nim].blinding = bench_ours_blinding(im[nim].h);
		im[nim].fault_check = bench_ours_fault_check(im[nim].h);
		run->ours_blind_state = 1;
	}
	nim++;

	if (o->gmp) {
		im[nim] = (struct impl){ .name = "gmp", .kind = K_GMP, .blinding = 0,
					 .fault_check = 0 };
		im[nim].h = bench_gmp_open(&parts, err, sizeof(err));
		if (im[nim].h == NULL) {
			error("gmp: %s", err);
			goto out;
		}
		nim++;
	}
	if (o->openssl) {
		static const struct { const char *name; enum bench_ossl_mode mode; int blind; }
		modes[] = { { "openssl", BENCH_OSSL_EVP, 1 },
			    { "openssl-noblind", BENCH_OSSL_NOBLIND, 0 } };
		for (int m = 0; m < 2; m++) {
			im[nim] = (struct impl){ .name = modes[m].name, .kind = K_OSSL,
						 .blinding = modes[m].blind,
						 .fault_check = 1 };
			im[nim].h = bench_ossl_open(kt->text, kt->len, modes[m].mode,
						    err, sizeof(err));
			if (im[nim].h == NULL) {
				error("%s: %s", modes[m].name, err);
				goto out;
			}
			nim++;
		}
		im[nim] = (struct impl){ .name = "openssl-noifma", .kind = K_WORKER,
					 .blinding = 1, .fault_check = 1 };
		im[nim].h = bench_worker_start(BENCH_NOIFMA_ENV, BENCH_NOIFMA_VALUE,
					       kt->text, kt->len, err, sizeof(err));
		if (im[nim].h == NULL) {
			error("openssl-noifma: %s", err);
			goto out;
		}
		nim++;
	}

	/* Every answer must be GMP's before any timing: on 1, n - 1, another
	 * random value, and last the timed input (the worker times the input
	 * it saw last). */
	struct bench_runner runners[8];
	int nrun = 0;
	uint8_t *extra = malloc(3 * size), *extra_want = malloc(3 * size);
	if (extra == NULL || extra_want == NULL) {
		free(extra);
		free(extra_want);
		error("out of memory");
		goto out;
	}
	memset(extra, 0, size);
	extra[size - 1] = 1;
	memcpy(extra + size, parts.v[RSA_PART_N], size);
	extra[2 * size - 1] -= 1; /* n is odd: no borrow */
	make_input(extra + 2 * size, size, parts.v[RSA_PART_N], 1);
	for (int k = 0; k < 3; k++)
		bench_gmp_decrypt(ref, extra_want + k * size, extra + k * size);
	int wrong = 0;
	for (int i = 0; i < nim && !wrong; i++) {
		if (im[i].h == NULL)
			continue;
		for (int k = 0; k < 4 && !wrong; k++) {
			const uint8_t *x = k < 3 ? extra + k * size : in;
			const uint8_t *y = k < 3 ? extra_want + k * size : want;
			memset(got, 0xa5, size);
			int st = impl_decrypt(&im[i], got, x);
			if (st != 0) {
				error("%s failed on the key %s (%s); no numbers reported",
				      im[i].name, kt->label,
				      im[i].kind == K_OURS ? bench_ours_strerror(st) : "error");
				wrong = 1;
			} else if (memcmp(got, y, size) != 0) {
				error("%s gives a wrong result on the key %s (input %s; it "
				      "differs from GMP's); no numbers reported", im[i].name,
				      kt->label, k == 0 ? "1" : k == 1 ? "n-1" : "random");
				wrong = 1;
			}
		}
	}
	free(extra);
	free(extra_want);
	if (wrong)
		goto out;
	for (int i = 0; i < nim; i++) {
		if (im[i].h == NULL)
			continue;
		im[i].in = in;
		im[i].out = malloc(size);
		if (im[i].out == NULL) {
			error("out of memory");
			goto out;
		}
		runners[nrun++] = (struct bench_runner){ .name = im[i].name,
			.batch = impl_batch, .ctx = &im[i] };
	}

	if (bench_measure(runners, nrun, o->seconds) != 0) {
		for (int i = 0; i < nrun; i++)
			if (runners[i].failed)
				error("%s failed while being timed on the key %s",
				      runners[i].name, kt->label);
		goto out;
	}
	/* Timed results must still be right (a fault under load, a worker
	 * that lost its state). */
	for (int i = 0; i < nim; i++) {
		if (im[i].h == NULL)
			continue;
		if (impl_decrypt(&im[i], got, in) != 0 || memcmp(got, want, size)) {
			error("%s gave a wrong result after timing on the key %s",
			      im[i].name, kt->label);
			goto out;
		}
	}

	for (int i = 0, k = 0; i < nim; i++) {
		struct bench_record *r = new_record(run);
		if (r == NULL) {
			error("out of memory");
			goto out;
		}
		snprintf(r->impl, sizeof(r->impl), "%s", im[i].name);
		snprintf(r->key, sizeof(r->key), "%.159s", kt->label);
		r->bits = bits;
		r->threads = 1;
		r->blinding = im[i].h ? im[i].blinding : -1;
		r->fault_check = im[i].kind == K_GMP ? 0 :
				 im[i].h ? im[i].fault_check : -1;
		snprintf(r->note, sizeof(r->note), "%s", im[i].note);
		if (im[i].h != NULL)
			r->st = runners[k++].stats;
	}
	const struct bench_ours *ours_h = im[0].h;
	const struct bench_ossl *ossl_h = NULL;
	for (int i = 0; i < nim; i++)
		if (!strcmp(im[i].name, "openssl"))
			ossl_h = im[i].h;
	if (measure_threads(run, kt->label, bits, ours_h, ossl_h, in, size) != 0)
		goto out;
	bench_report_key(stdout, run->rec, run->nrec, kt->label, o->seconds);
	bench_report_threads(stdout, run->rec, run->nrec, kt->label);
	fflush(stdout);
	rc = 0;
out:
	for (int i = 0; i < nim + 1 && i < 8; i++)
		if (im[i].h != NULL || im[i].out != NULL)
			impl_close(&im[i]);
	bench_gmp_close(ref);
	bench_rsa_parts_free(&parts);
	free(in);
	free(want);
	free(got);
	return rc;
}

static int write_json(const char *path, const struct bench_machine *m,
		      const struct bench_settings *s, const struct run *run)
{
	if (!strcmp(path, "-"))
		return bench_report_json(stdout, m, s, run->rec, run->nrec);
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	if (tmp == NULL)
		return -1;
	snprintf(tmp, n, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (f == NULL) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	int rc = bench_report_json(f, m, s, run->rec, run->nrec);
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		remove(tmp);
	}
	free(tmp);
	return rc;
}

static int print_kernels(void)
{
	int rc = 0, any = 0;
#if BENCH_HAVE_KERNELS
	printf("\n");
	rc |= bench_kernels_report(stdout);
	any = 1;
#endif
#if BENCH_HAVE_MONT_KERNELS
	printf("\n");
	rc |= bench_mont_kernels_report(stdout);
	any = 1;
#endif
	if (!any)
		printf("\n(no kernel tables in this build)\n");
	fflush(stdout);
	if (rc)
		error("--kernels: this build cannot time its kernels; the tables need "
		      "64-bit chunks (the chunk64 and chunk64-asm builds)");
	return rc;
}

int bigmont_speed_main(int argc, char **argv)
{
	/* A dead OpenSSL worker must show as an error, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 2 && !strcmp(argv[1], "--worker"))
		return bench_worker_serve(stdin, stdout);

	struct options o;
	int help;
	if (parse_options(&o, argc, argv, &help) != 0)
		return EXIT_USAGE;
	if (help) {
		usage(stdout);
		return 0;
	}

	/* On the heap: 64 keys' labels would make this frame 12 KB, more
	 * than the stack perf --call-graph dwarf copies per sample, so the
	 * profiles' chains would stop here short of main. */
	struct key_text *keys = calloc(MAX_LIST + MAX_KEYS, sizeof(*keys));
	int nkeys = 0, rc = 1;
	if (keys == NULL) {
		error("out of memory");
		return 1;
	}
	for (int i = 0; i < o.nbits; i++)
		for (int k = 0; k < bench_embedded_key_count; k++)
			if (bench_embedded_keys[k].bits == o.bits[i]) {
				struct key_text *kt = &keys[nkeys++];
				snprintf(kt->label, sizeof(kt->label), "embedded:%s",
					 bench_embedded_keys[k].name);
				kt->text = bench_embedded_keys[k].pem;
				kt->len = bench_embedded_keys[k].len;
				break;
			}
	for (int i = 0; i < o.nkeyfiles; i++)
		if (read_file(&keys[nkeys++], o.keyfiles[i]) != 0)
			goto done;

	/* Every key must be a readable private key before anything prints. */
	for (int i = 0; i < nkeys; i++) {
		char err[256];
		struct bench_rsa_parts parts;
		if (bench_ossl_parts(&parts, keys[i].text, keys[i].len, err,
				     sizeof(err)) != 0) {
			error("cannot read the key %s: %s", keys[i].label, err);
			goto done;
		}
		bench_rsa_parts_free(&parts);
	}

	/* Our library's settings, for the header: load the first key the
	 * way the run will. */
	char security[256] = "";
	if (nkeys > 0 && !(o.kernels && !o.bits_given && o.nkeyfiles == 0)) {
		char err[256];
		int refused = 0;
		struct bench_ours *probe = bench_ours_open(keys[0].text, keys[0].len, 0,
							   &refused, err, sizeof(err));
		if (probe == NULL && !refused) {
			error("ours: %s (key %s)", err, keys[0].label);
			goto done;
		}
		int fc = probe ? bench_ours_fault_check(probe) : -1;
		int bl = probe ? bench_ours_blinding(probe) : 1;
		bench_ours_close(probe);
		probe = bench_ours_open(keys[0].text, keys[0].len, 1, &refused, err,
					sizeof(err));
		int blind_ok = probe != NULL;
		bench_ours_close(probe);
		snprintf(security, sizeof(security),
			 "fault check %s, blinding %s; blinded run: %s",
			 fc < 0 ? "?" : fc ? "on" : "off", bl ? "on" : "off",
			 blind_ok ? "measured as ours-blinded"
				  : "n/a (rsa_key_set_blinding(key, 1) returns an error)");
	}

	struct bench_machine m;
	bench_machine_probe(&m, o.build);
	bench_machine_print(stdout, &m, security[0] ? security : NULL);
	fflush(stdout);

	if (o.kernels) {
		rc = print_kernels() ? 1 : 0;
		if (!o.bits_given && o.nkeyfiles == 0)
			goto done;
	}

	struct run run = { .o = &o, .ours_blind_state = -1, .ours_fault_check = -1 };
	for (int i = 0; i < nkeys; i++) {
		if (bench_key(&run, &keys[i]) != 0) {
			free(run.rec);
			rc = 1;
			goto done;
		}
	}
	printf("\nours: fault check %s, blinding %s (blinded run: %s); "
	       "ratios are time per operation, ours/other\n",
	       run.ours_fault_check < 0 ? "?" : run.ours_fault_check ? "on" : "off",
	       run.ours_blinding ? "on" : "off",
	       run.ours_blind_state == 1 ? "measured as ours-blinded" : "n/a");

	const char *claimed[8];
	int nclaimed = 0;
	claimed[nclaimed++] = "ours";
	if (run.ours_blind_state == 1)
		claimed[nclaimed++] = "ours-blinded";
	if (o.gmp)
		claimed[nclaimed++] = "gmp";
	if (o.openssl) {
		claimed[nclaimed++] = "openssl";
		claimed[nclaimed++] = "openssl-noblind";
		claimed[nclaimed++] = "openssl-noifma";
	}
	struct bench_settings s = { .seconds = o.seconds, .threads = o.threads,
				    .nthreads = o.nthreads, .compare = o.compare,
				    .claimed = claimed, .nclaimed = nclaimed };
	rc = 0;
	if (o.json != NULL && write_json(o.json, &m, &s, &run) != 0)
		rc = 1;
	free(run.rec);
done:
	for (int i = 0; i < nkeys; i++)
		free(keys[i].pem);
	free(keys);
	return rc;
}
