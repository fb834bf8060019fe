/*
 * `bigmont speed`, in the program bigmont-speed (cli/speed_main.c): the
 * options of the benchmark, its keys and its output paths; bench/speed.h
 * runs it.  Usage errors exit 2, everything else that
 * fails exits 1, and every error is one "bigmont: error: ..." line.
 * Whatever can be checked before the timing is (the keys load, the JSON's
 * directory takes a file, standard output is open); the JSON file is
 * written whole at the end, or not at all.
 */
#define _GNU_SOURCE /* open_memstream */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cycles.h" /* BENCH_KERNEL_MIN_TRIALS */
#include "ipp.h"
#include "keys.h"
#include "lock_count.h"
#include "progress.h"
#include "speed.h"
#include "wheel.h"

#define MAX_LIST 32
#define MAX_KEYS 32
#define MAX_BUILD 31

/* The lines of the help that differ off x86-64, where there is no OpenSSL
 * without IFMA, no multiplier peak, no AVX2 lanes, no variant but c and
 * no ipp-crypto. */
#if defined(__x86_64__)
#define HELP_COMPARE                                                                    \
	"  --compare LIST    gmp, openssl (with and without blinding, without\n"            \
	"                    AVX-512 IFMA, and the newest OpenSSL, that of PyPI's\n"        \
	"                    cryptography wheel, where its environment is: below),\n"       \
	"                    or none (default gmp,openssl)\n"
#define HELP_KERNELS                                                                    \
	"  --kernels         print the kernels' cycles-per-limb tables, the CPU's\n"        \
	"                    multiplier peak and each Montgomery kernel's %% of it;\n"      \
	"                    each figure a best of N runs, N scaled by --seconds\n"
#define HELP_BATCH_LANES                                                                \
	"                    IFMA, AVX-512F FMA, AVX-512F, AVX2 FMA, AVX2 or C)\n"
#define HELP_VARIANTS                                                                   \
	"BIGMONT_CPU=c|baseline|adx|ifma in the environment; with --batch,\n"            \
	"BIGMONT_BATCH=ifma|fma512|avx512|fma|avx2|c times those lanes alone;\n"         \
	"BIGMONT_TUNE=name=0|1,... forces tuning choices (a misspelt name is an\n"       \
	"error that lists them).\n"
#else
#define HELP_COMPARE                                                                    \
	"  --compare LIST    gmp, openssl (with and without blinding, and the\n"            \
	"                    newest OpenSSL, that of PyPI's cryptography wheel,\n"          \
	"                    where its environment is: below), or none\n"                   \
	"                    (default gmp,openssl)\n"
#define HELP_KERNELS                                                                    \
	"  --kernels         print the C kernels' tables, ns per call; each\n"              \
	"                    figure a best of N runs, N scaled by --seconds\n"
#define HELP_BATCH_LANES "                    C)\n"
#define HELP_VARIANTS                                                                   \
	"BIGMONT_CPU=c in the environment (the assembly ones are x86-64's); with\n"      \
	"--batch, BIGMONT_BATCH=c times the C lanes alone.\n"
#endif

/* Not inlined: its path buffers (12 KB) would sit in cmd_speed's frame,
 * under every sample of a profile, and push main past the stack perf
 * copies to unwind (profiles/record). */
__attribute__((noinline)) static void usage(FILE *out)
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
		"  --key FILE        a private key, PKCS#1 or PKCS#8, PEM or DER; repeatable\n"
		"  --seconds S       time per implementation and key, %g to %g (default 1);\n"
		"                    at least %d batches of at least one operation each are\n"
		"                    timed after a warm-up, so slow operations take longer;\n"
		"                    with --kernels, also scales the tables' runs per\n"
		"                    figure: S times the default's, S = 1 (at least %d)\n"
		"  --threads LIST    thread counts, e.g. 1,2,4,8,16 (default 1); T > 1 also\n"
		"                    measures T threads sharing one key (above 16 a core\n"
		"                    the windows wait seconds for every thread: a note\n"
		"                    says so)\n"
		HELP_COMPARE
		"  --json FILE       also write the results as JSON (schema: bench/README.md\n"
		"                    in the source tree); '-' for standard output (the\n"
		"                    report then goes to standard error)\n"
		HELP_KERNELS
		"                    (only them, unless --bits or --key is given too,\n"
		"                    which --threads and --compare then need; with\n"
		"                    --json, also in the document, which has no\n"
		"                    records when no key is timed)\n"
		"  --batch           time rsa_private_batch (8 operations a call, four in\n"
		"                    the vector lanes of each exponentiation; lanes:\n"
		HELP_BATCH_LANES
		"                    beside our single operation and OpenSSL's, blinding\n"
		"                    off, per key of --bits/--key; with --threads, also\n"
		"                    both in T threads sharing the key, per core (not\n"
		"                    with --kernels or --compare)\n"
		"  --build NAME      label of this build in the results (default from the\n"
		"                    configuration: chunk32, chunk64, chunk64-asm)\n"
		"  --help            this text\n"
		"\n"
		"Every option but --key may be given once, and each size, thread count\n"
		"or key file once.  The report also counts the pthread locks each\n"
		"implementation takes per operation.  On a terminal, a progress line\n"
		"per key and step goes to standard error.  Kernel variant:\n"
		HELP_VARIANTS,
		BENCH_SPEED_MIN_SECONDS, BENCH_SPEED_MAX_SECONDS, BENCH_MIN_SAMPLES,
		BENCH_KERNEL_MIN_TRIALS);
	char path[PATH_MAX], why[2 * PATH_MAX + 160], self[PATH_MAX];
	bench_wheel_default_venv(path, sizeof(path));
	fprintf(out, "\nThe cryptography wheel's Python environment: $%s, else\n%s\n"
		"(beside this program: in a build tree a link to the one scripts/setup\n"
		"makes, in an install a copy of it); an empty %s leaves\n"
		"the wheel out.\n",
		BENCH_WHEEL_ENV, path, BENCH_WHEEL_ENV);
#if defined(__x86_64__)
	fprintf(out, "With openssl, Intel's ipp-crypto too (single and eight-lane RSA): its\n"
		"libraries from $%s, else that environment's lib/;\n"
		"an empty %s leaves it out.  An OPENSSL_ia32cap that masks\n"
		"AVX-512 IFMA (\":~0x200000\") masks it in ipp-crypto too (no mb8).\n",
		BENCH_IPP_ENV, BENCH_IPP_ENV);
#endif
	/* This is bigmont-speed, run by the command (cli/speed_exec.c), or by
	 * hand: say where the other one is. */
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	fprintf(out, "\nThis program is %s, which 'bigmont speed' runs;\n",
		n > 0 ? self : CLI_SPEED_PROGRAM);
	if (cli_find_program("bigmont", BIGMONT_BIN_FROM_SPEED, path, sizeof(path), why,
			     sizeof(why)) == 0)
		fprintf(out, "the bigmont command is %s.\n", path);
	else
		fprintf(out, "the bigmont command is missing: %s.\n", why);
}

struct options {
	int bits[MAX_LIST], nbits;
	const char *keyfiles[MAX_KEYS];
	int nkeyfiles;
	double seconds;
	int threads[MAX_LIST], nthreads;
	int compare;
	const char *compare_text, *json, *build;
	int kernels, help, batch;
};

/* Comma-separated integers within [lo, hi]. */
static int parse_int_list(int *out, int *n, const char *s, int lo, int hi,
			  const char *what)
{
	*n = 0;
	for (const char *p = s;;) {
		char *end;
		errno = 0;
		/* strtol would take leading blanks and a sign: digits only. */
		long v = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : (end = (char *)p, 0);
		if (end == p || errno || v < lo || v > hi || (*end != ',' && *end != '\0')) {
			cli_error("%s: '%s' is not a list of integers from %d to %d", what, s, lo, hi);
			return -1;
		}
		if (*n == MAX_LIST) {
			cli_error("%s: too many values (at most %d)", what, MAX_LIST);
			return -1;
		}
		out[(*n)++] = (int)v;
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
}

/* gmp and/or openssl, each once, or none alone. */
static int parse_compare(struct options *o, const char *s)
{
	static const struct { const char *name; int flag; } known[] = {
		{ "gmp", BENCH_COMPARE_GMP }, { "openssl", BENCH_COMPARE_OPENSSL }, { "none", 0 },
	};
	/* Long enough for any valid value, short enough to quote. */
	if (strlen(s) > 32) {
		cli_error("--compare: a value of %zu characters; give gmp and/or openssl "
			  "(comma-separated), or none", strlen(s));
		return -1;
	}
	int seen = 0, none = 0;
	for (const char *p = s;;) {
		size_t len = strcspn(p, ",");
		size_t k = 0;
		while (k < sizeof(known) / sizeof(known[0]) &&
		       (strlen(known[k].name) != len || strncmp(p, known[k].name, len)))
			k++;
		if (k == sizeof(known) / sizeof(known[0])) {
			cli_error("--compare: '%.*s' is not gmp, openssl or none", (int)len, p);
			return -1;
		}
		int flag = known[k].flag;
		if ((flag && (seen & flag)) || (!flag && none)) {
			cli_error("--compare: '%s' is given twice", known[k].name);
			return -1;
		}
		seen |= flag;
		none |= !flag;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	if (none && seen) {
		cli_error("--compare: '%s': give gmp and/or openssl, or none alone", s);
		return -1;
	}
	o->compare = seen;
	o->compare_text = s;
	return 0;
}

static int parse_seconds(struct options *o, const char *s)
{
	char *end;
	errno = 0;
	/* Decimal only, as the integer lists: no blanks, no hex (0x1). */
	const int decimal = strspn(s, "0123456789.eE+-") == strlen(s);
	o->seconds = strtod(s, &end);
	if (!decimal || end == s || *end || errno || !(o->seconds >= BENCH_SPEED_MIN_SECONDS) ||
	    o->seconds > BENCH_SPEED_MAX_SECONDS) {
		cli_error("--seconds: '%s' is not a number of seconds from %g to %g", s,
			  BENCH_SPEED_MIN_SECONDS, BENCH_SPEED_MAX_SECONDS);
		return -1;
	}
	return 0;
}

/* One option with its value; 0, or -1 after an error. */
static int parse_valued(struct options *o, const char *name, const char *v)
{
	if (!strcmp(name, "--bits"))
		return parse_int_list(o->bits, &o->nbits, v, 512, 16384, name);
	if (!strcmp(name, "--threads"))
		return parse_int_list(o->threads, &o->nthreads, v, 1, 1024, name);
	if (!strcmp(name, "--seconds"))
		return parse_seconds(o, v);
	if (!strcmp(name, "--compare"))
		return parse_compare(o, v);
	if (!strcmp(name, "--key")) {
		if (o->nkeyfiles == MAX_KEYS) {
			cli_error("--key: at most %d keys", MAX_KEYS);
			return -1;
		}
		o->keyfiles[o->nkeyfiles++] = v;
	} else if (!strcmp(name, "--build")) {
		if (strlen(v) > MAX_BUILD) {
			cli_error("--build: '%s' is longer than %d characters", v, MAX_BUILD);
			return -1;
		}
		/* The label stands in the report's lines and table cells. */
		for (const unsigned char *c = (const unsigned char *)v; *c; c++)
			if (*c < 0x20 || *c == 0x7f) {
				cli_error("--build: a control character (0x%02x) in the label", *c);
				return -1;
			}
		o->build = v;
	} else {
		o->json = v;
	}
	return 0;
}

static int given_twice(const char *name)
{
	int list = !strcmp(name, "--bits") || !strcmp(name, "--threads") ||
		   !strcmp(name, "--compare");
	cli_error("option '%s' given twice%s (try 'bigmont speed --help')", name,
		  list ? "; one takes a comma-separated list" : "");
	return -1;
}

static int parse_options(struct options *o, int argc, char **argv)
{
	static const char *const valued[] = { "--bits", "--key", "--seconds", "--threads",
					      "--compare", "--json", "--build" };
	memset(o, 0, sizeof(*o));
	if (cli_help_asked(argc, argv, valued, sizeof(valued) / sizeof(valued[0]))) {
		o->help = 1;
		return 0;
	}
	o->seconds = 1.0;
	o->threads[0] = 1;
	o->nthreads = 1;
	o->compare = BENCH_COMPARE_GMP | BENCH_COMPARE_OPENSSL;
	o->compare_text = "gmp,openssl";
	/* As decrypt does (docs/command.md): an option given twice is bad
	 * usage, not "the last one wins"; only --key adds to a list. */
	int given[sizeof(valued) / sizeof(valued[0])] = { 0 };
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v = NULL;
		size_t k = 0;
		while (k < sizeof(valued) / sizeof(valued[0]) &&
		       !cli_option_value(valued[k], argc, argv, &i, &v))
			k++;
		if (k < sizeof(valued) / sizeof(valued[0])) {
			if (v == NULL || *v == '\0') {
				cli_error(v == NULL ? "%s needs a value (try 'bigmont speed --help')"
						    : "%s has an empty value (try 'bigmont speed --help')",
					  valued[k]);
				return -1;
			}
			if (given[k]++ && strcmp(valued[k], "--key") != 0)
				return given_twice(valued[k]);
			if (parse_valued(o, valued[k], v) != 0)
				return -1;
		} else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			o->help = 1;
		} else if (!strcmp(arg, "--kernels")) {
			if (o->kernels++)
				return given_twice(arg);
		} else if (!strcmp(arg, "--batch")) {
			if (o->batch++)
				return given_twice(arg);
		} else {
			cli_error("unknown option '%s' (try 'bigmont speed --help')", arg);
			return -1;
		}
	}
	if (o->batch && (o->kernels || given[4])) {
		cli_error("--batch times the batch alone: not with --kernels or --compare");
		return -1;
	}
	if (o->kernels && o->nbits == 0 && o->nkeyfiles == 0 && (given[3] || given[4])) {
		cli_error("%s: --kernels alone times no key; give --bits or --key too",
			  given[3] ? "--threads" : "--compare");
		return -1;
	}
	if (o->nbits == 0 && o->nkeyfiles == 0 && !o->kernels) {
		o->bits[0] = 1024;
		o->bits[1] = 2048;
		o->nbits = 2;
	}
	/* A size or key twice would be measured twice and reported as two
	 * blocks of the same key. */
	for (int i = 0; i < o->nbits; i++)
		for (int j = 0; j < i; j++)
			if (o->bits[j] == o->bits[i]) {
				cli_error("--bits: %d is given twice", o->bits[i]);
				return -1;
			}
	for (int i = 0; i < o->nthreads; i++)
		for (int j = 0; j < i; j++)
			if (o->threads[j] == o->threads[i]) {
				cli_error("--threads: %d is given twice", o->threads[i]);
				return -1;
			}
	/* The same file by two paths (./k.pem, a link) is the same key; a
	 * path that does not open is left to load_keys' error. */
	struct stat seen[MAX_KEYS];
	int opened[MAX_KEYS];
	for (int i = 0; i < o->nkeyfiles; i++) {
		/* '-' is standard input's file, which a path can name too. */
		opened[i] = (strcmp(o->keyfiles[i], "-") == 0 ? fstat(STDIN_FILENO, &seen[i])
							      : stat(o->keyfiles[i], &seen[i])) == 0;
		for (int j = 0; j < i; j++) {
			if (!strcmp(o->keyfiles[j], o->keyfiles[i])) {
				cli_error("--key: '%s' is given twice", o->keyfiles[i]);
				return -1;
			}
			if (opened[i] && opened[j] && seen[i].st_dev == seen[j].st_dev &&
			    seen[i].st_ino == seen[j].st_ino) {
				cli_error("--key: '%s' and '%s' are the same file, given twice",
					  o->keyfiles[j], o->keyfiles[i]);
				return -1;
			}
		}
	}
	for (int i = 0; i < o->nbits; i++) {
		int found = 0;
		for (int k = 0; k < bench_embedded_key_count; k++)
			found |= bench_embedded_keys[k].bits == o->bits[i];
		if (!found) {
			cli_error("--bits: no embedded key of %d bits (there are 1024, 2048, 3072, "
				  "4096; use --key FILE for others)", o->bits[i]);
			return -1;
		}
	}
	return 0;
}

/* --json -: the document takes standard output, the report standard error. */
static int json_to_stdout(const struct options *o)
{
	return o->json != NULL && !strcmp(o->json, "-");
}

/* A key file's bytes: private key material, wiped before it is freed. */
static void free_key_file(void *buf, size_t len)
{
	big_wipe(buf, len);
	free(buf);
}

/* The embedded keys asked for, then the key files. */
static int load_keys(const struct options *o, struct bench_speed_key *keys, int *nkeys)
{
	*nkeys = 0;
	for (int i = 0; i < o->nbits; i++)
		for (int k = 0; k < bench_embedded_key_count; k++)
			if (bench_embedded_keys[k].bits == o->bits[i]) {
				keys[(*nkeys)++] = (struct bench_speed_key){
					.label = bench_embedded_keys[k].label,
					.pem = bench_embedded_keys[k].pem,
					.len = bench_embedded_keys[k].len };
				break;
			}
	for (int i = 0; i < o->nkeyfiles; i++) {
		/* Our loader first, so that a key the benchmark cannot use is
		 * refused with the reason decrypt and key-info give, not GMP's or
		 * OpenSSL's. */
		uint8_t *buf;
		size_t len;
		rsa_key *key;
		int pem;
		if (cli_read_file(o->keyfiles[i], "key file", &buf, &len) != 0)
			return -1;
		if (cli_load_key_data(o->keyfiles[i], buf, len, &key, &pem) != 0) {
			free_key_file(buf, len);
			return -1;
		}
		int priv = rsa_key_is_private(key);
		rsa_key_format_t format = rsa_key_format(key);
		rsa_key_free(key);
		if (!priv) {
			cli_error("key file '%s': speed needs a private key, not a public key",
				  o->keyfiles[i]);
			free_key_file(buf, len);
			return -1;
		}
		if (!pem) {
			/* The benchmark reads PEM (bench/speed.h); the DER our loader
			 * took is the whole key, armoured with its own label. */
			const char *label = format == RSA_FORMAT_PKCS8_PRIVATE ? "PRIVATE KEY"
									       : "RSA PRIVATE KEY";
			char *text;
			size_t text_len;
			int rc = cli_pem_armor(label, buf, len, &text, &text_len);
			free_key_file(buf, len);
			if (rc != 0)
				return -1;
			buf = (uint8_t *)text;
			len = text_len;
		}
		keys[(*nkeys)++] = (struct bench_speed_key){ .label = o->keyfiles[i],
			.pem = (const char *)buf, .len = len };
	}
	return 0;
}

static void free_keys(const struct options *o, struct bench_speed_key *keys, int nkeys)
{
	for (int i = o->nbits; i < nkeys; i++)
		free_key_file((void *)keys[i].pem, keys[i].len);
}

/* --json's document, built in memory and written whole only once the run
 * has succeeded: a failed run leaves no partial file behind. */
struct json_doc {
	char *text;
	size_t len;
	FILE *f; /* NULL without --json */
};

static int json_doc_open(const struct options *o, struct json_doc *d)
{
	*d = (struct json_doc){ 0 };
	if (o->json != NULL && (d->f = open_memstream(&d->text, &d->len)) == NULL) {
		cli_error("out of memory");
		return -1;
	}
	return 0;
}

/* The run's status, err its message, then the document written. */
static int json_doc_finish(const struct options *o, struct json_doc *d, int status, char *err,
			   size_t err_size)
{
	if (d->f != NULL && fclose(d->f) != 0 && status == 0) {
		snprintf(err, err_size, "cannot write the JSON document: %s", strerror(errno));
		status = CLI_EXIT_FAILURE;
	}
	if (status != 0)
		cli_error("%s", err);
	else if (o->json != NULL && cli_write_output(o->json, (const uint8_t *)d->text, d->len) != 0)
		status = CLI_EXIT_FAILURE;
	free(d->text);
	return status;
}

static int run(const struct options *o, const struct bench_speed_key *keys, int nkeys)
{
	struct json_doc doc;
	if (json_doc_open(o, &doc) != 0)
		return CLI_EXIT_FAILURE;
	struct bench_speed_options so = {
		.keys = keys, .nkeys = nkeys, .seconds = o->seconds,
		.threads = o->threads, .nthreads = o->nthreads, .compare = o->compare,
		.compare_text = o->compare_text, .build = o->build, .kernels = o->kernels,
		.out = json_to_stdout(o) ? stderr : stdout, .json = doc.f,
		/* Only for a person watching: not into a file or a pipe, and not
		 * into the report when --json - sends it to standard error. */
		.progress = !json_to_stdout(o) && isatty(STDERR_FILENO) ? stderr : NULL,
		.read_locks = bench_lock_count_active() ? bench_lock_count_read : NULL,
	};
	char err[512] = "";
	int status = bench_speed_run(&so, err, sizeof(err));
	bench_progress_clear(so.progress); /* left by a step that failed */
	return json_doc_finish(o, &doc, status, err, sizeof(err));
}

/* --batch: bench/batch.h, the report and JSON as run() sends them. */
static int run_batch(const struct options *o, const struct bench_speed_key *keys, int nkeys)
{
	struct json_doc doc;
	if (json_doc_open(o, &doc) != 0)
		return CLI_EXIT_FAILURE;
	const struct bench_batch_options bo = {
		.keys = keys, .nkeys = nkeys, .seconds = o->seconds, .build = o->build,
		.threads = o->threads, .nthreads = o->nthreads,
		.out = json_to_stdout(o) ? stderr : stdout, .json = doc.f,
	};
	char err[512] = "";
	int status = bench_batch_run(&bo, err, sizeof(err));
	return json_doc_finish(o, &doc, status, err, sizeof(err));
}

int cmd_speed(int argc, char **argv)
{
	/* A reader that goes away is a write error (exit 1), not SIGPIPE; the
	 * same holds for the pipes to and from the OpenSSL child. */
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 2 && !strcmp(argv[1], "--worker"))
		return bench_speed_worker();
	struct options o;
	if (parse_options(&o, argc, argv) != 0)
		return CLI_EXIT_USAGE;
	if (o.help) {
		usage(stdout);
		if (fflush(stdout) == 0)
			return 0;
		cli_error("cannot write standard output: %s", strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	if (cli_check_environment() != 0)
		return CLI_EXIT_USAGE;
	if (fcntl(STDOUT_FILENO, F_GETFL) < 0) {
		cli_error("standard output is closed: the %s has nowhere to go",
			  json_to_stdout(&o) ? "JSON document" : "report");
		return CLI_EXIT_FAILURE;
	}
	/* A key file named as --json (by any path) would be replaced by the
	 * report.  An explicit path only: a shell's '>' has truncated the
	 * file before the key is read. */
	for (int i = 0; o.json != NULL && strcmp(o.json, "-") != 0 && i < o.nkeyfiles; i++)
		if (cli_same_file(o.keyfiles[i], STDIN_FILENO, o.json, STDOUT_FILENO)) {
			cli_error("--json: output file '%s' is the key file '%s'; writing it would "
				  "replace the key (choose another --json)", o.json, o.keyfiles[i]);
			return CLI_EXIT_USAGE;
		}
	/* A file or pipe that is also standard output (/dev/stdout, or the
	 * file a shell's '>' opened) would get the report and the JSON mixed,
	 * or the report replaced by the JSON; standard error's, its progress
	 * and errors.  A terminal or /dev/null takes both harmlessly. */
	for (int fd = STDOUT_FILENO; o.json != NULL && strcmp(o.json, "-") != 0 &&
				     fd <= STDERR_FILENO; fd++) {
		struct stat st;
		if (cli_same_file(o.json, fd, "-", fd) && fstat(fd, &st) == 0 &&
		    !S_ISCHR(st.st_mode)) {
			cli_error("--json: '%s' is standard %s, which gets the %s too (give "
				  "--json - for the JSON on standard output, the report then on "
				  "standard error)", o.json, fd == STDOUT_FILENO ? "output" : "error",
				  fd == STDOUT_FILENO ? "report" : "progress and errors");
			return CLI_EXIT_USAGE;
		}
	}
	/* Where the JSON goes at the end must take it: checked before any
	 * timing, as cli_write_output will see it. */
	if (o.json != NULL && cli_check_output(o.json) != 0)
		return CLI_EXIT_FAILURE;
	struct bench_speed_key keys[MAX_LIST + MAX_KEYS];
	int nkeys = 0, status = CLI_EXIT_FAILURE;
	if (load_keys(&o, keys, &nkeys) == 0)
		status = o.batch ? run_batch(&o, keys, nkeys) : run(&o, keys, nkeys);
	free_keys(&o, keys, nkeys);
	return status;
}
