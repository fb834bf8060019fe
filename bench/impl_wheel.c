/*
 * bench/impl_wheel.c -- the parent side of the cryptography wheel's child
 * process: finding the environment, the probe, and bench_wheel_ops
 * (contract and protocol in wheel.h).
 */
#define _GNU_SOURCE /* memrchr */
#include "wheel.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "emsa.h"
#include "impl.h"
#include "lines.h"
#include "oaep.h"

/* bench/wheel_worker.py, embedded at configure time (embed_text.cmake). */
extern const char bench_wheel_worker_py[];

struct wheel {
	struct bench_child c; /* first: bench_child_close */
	size_t size;
	int kind; /* BENCH_INPUT_EMSA: signs; BENCH_INPUT_OAEP: decrypts */
	/* Why the last request failed, for the benchmark's message
	 * (wheel_strerror); "" when its status says it all. */
	char last_error[320];
};

enum { WHEEL_FAILED = 1, WHEEL_NOT_EMSA = 2 };
/* The smallest modulus each kind of operation takes (emsa.h, oaep.h). */
#define KIND_MIN_SIZE(kind) \
	((kind) == BENCH_INPUT_OAEP ? BENCH_OAEP_MIN_SIZE : BENCH_EMSA_MIN_SIZE)

int bench_wheel_default_venv(char *dir, size_t cap)
{
	/* Beside the program, not at a path fixed at build time, so that an
	 * installed program does not use the tree it was built in. */
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash = n > 0 ? memrchr(self, '/', (size_t)n) : NULL;
	if (slash == NULL || (size_t)(slash - self) + sizeof("/" BENCH_WHEEL_VENV_NAME) > cap) {
		snprintf(dir, cap, "./" BENCH_WHEEL_VENV_NAME);
		return -1;
	}
	memcpy(dir, self, (size_t)(slash - self));
	memcpy(dir + (slash - self), "/" BENCH_WHEEL_VENV_NAME, sizeof("/" BENCH_WHEEL_VENV_NAME));
	return 0;
}

/* The interpreter to run, or -1 with the reason. */
static int find_python(char *python, size_t cap, char *why, size_t whylen)
{
	const char *venv = getenv(BENCH_WHEEL_ENV);
	/* Emulated (a cross build under qemu-user: cli/cli.h), this program
	 * would be timed against the host's own python and OpenSSL, natively:
	 * not the default venv's, only one named on purpose. */
	const char *emulator = getenv("BIGMONT_EMULATOR");
	if (venv == NULL && emulator != NULL && emulator[0] != '\0') {
		snprintf(why, whylen, "this build runs under an emulator (BIGMONT_EMULATOR=%s), "
			 "the wheel's python would not (%s names a venv anyway)", emulator,
			 BENCH_WHEEL_ENV);
		return -1;
	}
	if (venv != NULL && venv[0] == '\0') {
		snprintf(why, whylen, "%s is empty: the wheel is off", BENCH_WHEEL_ENV);
		return -1;
	}
	char beside[PATH_MAX];
	if (venv == NULL && bench_wheel_default_venv(beside, sizeof(beside)) != 0) {
		snprintf(why, whylen, "/proc/self/exe is unreadable: no %s beside this program "
			 "(%s names one)", BENCH_WHEEL_VENV_NAME, BENCH_WHEEL_ENV);
		return -1;
	}
	const char *dir = venv != NULL ? venv : beside;
	int n = snprintf(python, cap, "%s/bin/python3", dir);
	if (n < 0 || (size_t)n >= cap) {
		snprintf(why, whylen, "the Python environment's path is longer than %zu "
			 "characters (%s names another)", cap - sizeof("/bin/python3"),
			 BENCH_WHEEL_ENV);
		return -1;
	}
	if (access(python, X_OK) != 0) {
		snprintf(why, whylen, "no Python environment at %s (scripts/setup makes it; "
			 "%s names another)", dir, BENCH_WHEEL_ENV);
		return -1;
	}
	return 0;
}

/* The child running and its versions in *info (all but probed and
 * available); NULL with the reason. */
static struct wheel *wheel_spawn(struct bench_wheel_info *info, char *err, size_t errlen)
{
	if (find_python(info->python, sizeof(info->python), err, errlen) != 0)
		return NULL;
	struct wheel *w = calloc(1, sizeof(*w));
	if (w == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* argv[0] is the path: Python finds its environment from it (a bare
	 * "python3" is looked up in PATH, another Python).  -I: no PYTHON*
	 * variables and no user site, so that only the environment's packages
	 * are imported. */
	char *const argv[] = { info->python, "-I", "-c", (char *)bench_wheel_worker_py, NULL };
	char *hello = NULL;
	if (bench_child_start(&w->c, "the wheel's python", info->python, argv, NULL, NULL, err,
			      errlen) != 0 ||
	    (hello = bench_child_expect(&w->c, "hello", err, errlen)) == NULL) {
		bench_child_close(w);
		return NULL;
	}
	/* "hello 50.0.2 OpenSSL 4.0.3 29 Sep 2026" */
	const char *p = hello + 6;
	size_t n = strcspn(p, " ");
	snprintf(info->cryptography, sizeof(info->cryptography), "%.*s", (int)n, p);
	snprintf(info->version, sizeof(info->version), "%s", p[n] ? p + n + 1 : "");
	if (info->version[0] == '\0' || n == 0) {
		snprintf(err, errlen, "the wheel's python named no versions ('%.200s')", hello);
		bench_child_close(w);
		w = NULL;
	}
	free(hello);
	return w;
}

void bench_wheel_probe(struct bench_wheel_info *info)
{
	if (info->probed)
		return;
	*info = (struct bench_wheel_info){ .probed = 1 };
	struct wheel *w = wheel_spawn(info, info->reason, sizeof(info->reason));
	if (w == NULL)
		return;
	info->available = 1;
	bench_child_close(w);
}

static void *wheel_open(const struct bench_key_input *key, int kind, char *err,
			size_t errlen)
{
	/* Found again, not taken from the run's probe: the environment it
	 * looks in is the same, and the handle then depends on nothing
	 * outside it. */
	struct bench_wheel_info info = { 0 };
	struct wheel *w = wheel_spawn(&info, err, errlen);
	if (w == NULL)
		return NULL;
	w->kind = kind;
	if (bench_child_key(&w->c, key->pem, key->len, &w->size, err, errlen) != 0) {
		bench_child_close(w);
		return NULL;
	}
	if (w->size < KIND_MIN_SIZE(kind)) {
		snprintf(err, errlen, "a key of %zu bytes cannot hold a %s (%d bytes at least; "
			 "an empty %s leaves the wheel out)", w->size,
			 kind == BENCH_INPUT_OAEP ? "32-byte OAEP SHA-256 message"
						  : "PKCS #1 v1.5 SHA-256 signature",
			 KIND_MIN_SIZE(kind), BENCH_WHEEL_ENV);
		bench_child_close(w);
		return NULL;
	}
	return w;
}

static void *wheel_open_sign(const struct bench_key_input *key, int mode, char *err,
			     size_t errlen)
{
	(void)mode;
	return wheel_open(key, BENCH_INPUT_EMSA, err, errlen);
}

static void *wheel_open_oaep(const struct bench_key_input *key, int mode, char *err,
			     size_t errlen)
{
	(void)mode;
	return wheel_open(key, BENCH_INPUT_OAEP, err, errlen);
}

/* Signs the digest of an encoding, or decrypts a ciphertext; the answer
 * as impl.h's enum bench_input says. */
static int wheel_decrypt(void *h, uint8_t *out, const uint8_t *in)
{
	struct wheel *w = h;
	w->last_error[0] = '\0';
	char *line;
	size_t got = w->size;
	if (w->kind == BENCH_INPUT_OAEP) {
		got = BENCH_OAEP_MSG_LEN;
		memset(out, 0, w->size - got);
		line = bench_child_hex_request(&w->c, "oaep", in, w->size, w->last_error,
					       sizeof(w->last_error));
	} else {
		const uint8_t *digest = bench_emsa_sha256_digest(in, w->size);
		if (digest == NULL)
			return WHEEL_NOT_EMSA;
		line = bench_child_hex_request(&w->c, "sig", digest, BENCH_SHA256_LEN,
					       w->last_error, sizeof(w->last_error));
	}
	if (line == NULL)
		return WHEEL_FAILED;
	int rc = bench_hex_read(out + w->size - got, got, line + 4);
	free(line);
	if (rc != 0)
		snprintf(w->last_error, sizeof(w->last_error), "the wheel's python sent an "
			 "answer that is not %zu bytes of hex", got);
	return rc ? WHEEL_FAILED : 0;
}

static int wheel_batch(void *h, long iters, struct bench_batch *out)
{
	struct wheel *w = h;
	return bench_child_batch(&w->c, "run", iters, out, w->last_error,
				 sizeof(w->last_error));
}

/* The Python loop's own cost: the median of 5 loops of a no-op call, each
 * long enough (10 ms) for the clock's resolution not to matter. */
static double wheel_overhead(void *h)
{
	enum { RUNS = 5 };
	struct wheel *w = h;
	struct bench_batch b;
	long iters = 1000;
	for (;;) {
		if (bench_child_batch(&w->c, "ovh", iters, &b, w->last_error,
				      sizeof(w->last_error)) != 0)
			return NAN;
		if (b.ns >= 10000000 || iters >= (1L << 26))
			break;
		iters *= 4;
	}
	double per[RUNS];
	for (int i = 0; i < RUNS; i++) {
		if (bench_child_batch(&w->c, "ovh", iters, &b, w->last_error,
				      sizeof(w->last_error)) != 0)
			return NAN;
		per[i] = (double)b.ns / (double)iters;
	}
	return bench_median(per, RUNS);
}

static const char *wheel_strerror(const void *h, int status)
{
	const struct wheel *w = h;
	if (w->last_error[0] != '\0')
		return w->last_error;
	if (status == WHEEL_NOT_EMSA)
		return "not an EMSA-PKCS1-v1_5 SHA-256 encoding: the wheel's API signs digests";
	return "the wheel's python failed";
}

static int wheel_on(const void *h)
{
	(void)h;
	return 1; /* OpenSSL's default blinding and its CRT check; cryptography
		   * changes neither */
}

const struct bench_impl_ops bench_wheel_ops = {
	.open = wheel_open_sign, .decrypt = wheel_decrypt, .batch = wheel_batch,
	.other_process = 1,
	.blinding = wheel_on, .fault_check = wheel_on, .strerror = wheel_strerror,
	.input = BENCH_INPUT_EMSA,
	.call_overhead_ns = wheel_overhead, .close = bench_child_close,
};

const struct bench_impl_ops bench_wheel_oaep_ops = {
	.open = wheel_open_oaep, .decrypt = wheel_decrypt, .batch = wheel_batch,
	.other_process = 1,
	.blinding = wheel_on, .fault_check = wheel_on, .strerror = wheel_strerror,
	.input = BENCH_INPUT_OAEP,
	.call_overhead_ns = wheel_overhead, .close = bench_child_close,
};
