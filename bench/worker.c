/*
 * bench/worker.c -- both ends of the OpenSSL child process (contract and
 * protocol in worker.h): bench_worker_ops for the parent, and
 * bench_worker_serve for the child.
 */
#define _GNU_SOURCE
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "impl.h"

struct bench_worker {
	pid_t pid;
	FILE *to, *from;
	size_t size;
};

/* ---- hex ---------------------------------------------------------------- */
static void hex_write(FILE *f, const uint8_t *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		fputc(digits[b[i] >> 4], f);
		fputc(digits[b[i] & 15], f);
	}
}

static int hex_nibble(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly n bytes of hex from s; -1 on anything else. */
static int hex_read(uint8_t *b, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++) {
		int hi = hex_nibble((unsigned char)s[2 * i]);
		int lo = hi < 0 ? -1 : hex_nibble((unsigned char)s[2 * i + 1]);
		if (lo < 0)
			return -1;
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	char end = s[2 * n];
	return end == '\0' || end == '\n' ? 0 : -1;
}

/* The longest line either side sends: "dec " or "out " and a 16384-bit
 * number in hex; "err " and a reason of at most 256 bytes. */
#define WORKER_LINE_MAX 8192
/* The largest key the parent sends: what the command reads of a key file. */
#define WORKER_KEY_MAX (4 << 20)

/* One line with its newline, or NULL at the end of the input and on a
 * line longer than any the protocol has (then *too_long is 1; the worker
 * can be run by hand, and no input may make it grow without bound). */
static char *read_line(FILE *f, int *too_long)
{
	*too_long = 0;
	char *line = malloc(WORKER_LINE_MAX + 1);
	if (line == NULL)
		return NULL;
	size_t n = 0;
	int c = 0;
	while (n < WORKER_LINE_MAX && c != '\n' && (c = getc(f)) != EOF)
		line[n++] = (char)c;
	line[n] = '\0';
	if (n == WORKER_LINE_MAX && c != '\n')
		*too_long = 1;
	if (n == 0 || *too_long) {
		free(line);
		return NULL;
	}
	return line;
}

/* ---- parent side -------------------------------------------------------- */
static char *expect_reply(struct bench_worker *w, const char *tag, char *err,
			  size_t errlen)
{
	int too_long;
	char *line = read_line(w->from, &too_long);
	if (line == NULL) {
		snprintf(err, errlen, "no reply from the OpenSSL worker (it died, or sent a line "
				      "longer than its protocol's)");
		return NULL;
	}
	size_t n = strlen(tag);
	if (strncmp(line, tag, n) != 0 || line[n] != ' ') {
		line[strcspn(line, "\n")] = '\0';
		snprintf(err, errlen, "OpenSSL worker: %s",
			 !strncmp(line, "err ", 4) ? line + 4 : line);
		free(line);
		return NULL;
	}
	return line;
}

static void worker_stop(void *h);

static void *worker_start(const struct bench_key_input *key, int mode, char *err,
			  size_t errlen)
{
	(void)mode;
	const char *pem = key->pem;
	size_t len = key->len;
	int down[2], up[2];
	if (pipe2(down, O_CLOEXEC) != 0)
		goto sys_fail;
	if (pipe2(up, O_CLOEXEC) != 0) {
		close(down[0]);
		close(down[1]);
		goto sys_fail;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(down[0]); close(down[1]); close(up[0]); close(up[1]);
		goto sys_fail;
	}
	if (pid == 0) {
		if (dup2(down[0], 0) < 0 || dup2(up[1], 1) < 0)
			_exit(127);
		setenv(BENCH_NOIFMA_ENV, BENCH_NOIFMA_VALUE, 1);
		/* Our own kernel choice must not leak into OpenSSL's child, but
		 * it is harmless: the child runs OpenSSL only. */
		execl("/proc/self/exe", "bigmont", "speed", "--worker", (char *)NULL);
		_exit(127);
	}
	close(down[0]);
	close(up[1]);
	struct bench_worker *w = calloc(1, sizeof(*w));
	if (w == NULL) {
		close(down[1]);
		close(up[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->pid = pid;
	w->to = fdopen(down[1], "w");
	w->from = fdopen(up[0], "r");
	if (w->to == NULL || w->from == NULL) {
		snprintf(err, errlen, "fdopen: %s", strerror(errno));
		goto fail;
	}
	fprintf(w->to, "key %zu\n", len);
	fwrite(pem, 1, len, w->to);
	fflush(w->to);
	char *line = expect_reply(w, "ok", err, errlen);
	if (line == NULL)
		goto fail;
	w->size = strtoul(line + 3, NULL, 10);
	free(line);
	if (w->size == 0) {
		snprintf(err, errlen, "OpenSSL worker: bad key size");
		goto fail;
	}
	return w;
sys_fail:
	snprintf(err, errlen, "cannot start the OpenSSL worker: %s",
		 strerror(errno));
	return NULL;
fail:
	worker_stop(w);
	return NULL;
}

static int worker_decrypt(void *h, uint8_t *out, const uint8_t *in)
{
	struct bench_worker *w = h;
	char err[200];
	fputs("dec ", w->to);
	hex_write(w->to, in, w->size);
	fputc('\n', w->to);
	if (fflush(w->to) != 0)
		return -1;
	char *line = expect_reply(w, "out", err, sizeof(err));
	if (line == NULL)
		return -1;
	int rc = hex_read(out, w->size, line + 4);
	free(line);
	return rc;
}

static int worker_batch(void *h, long iters, struct bench_batch *out)
{
	struct bench_worker *w = h;
	char err[200];
	fprintf(w->to, "run %ld\n", iters);
	if (fflush(w->to) != 0)
		return -1;
	char *line = expect_reply(w, "ns", err, sizeof(err));
	if (line == NULL)
		return -1;
	unsigned long long ns = 0, cyc = 0;
	int got = sscanf(line + 3, "%llu %llu", &ns, &cyc);
	free(line);
	if (got != 2)
		return -1;
	out->ns = ns;
	out->cycles = cyc;
	return 0;
}

static void worker_stop(void *h)
{
	struct bench_worker *w = h;
	if (w == NULL)
		return;
	if (w->to != NULL)
		fclose(w->to); /* EOF: the child exits */
	if (w->from != NULL)
		fclose(w->from);
	if (w->pid > 0)
		waitpid(w->pid, NULL, 0);
	free(w);
}

static int worker_on(const void *h)
{
	(void)h;
	return 1; /* OpenSSL's EVP default: blinded, result checked */
}

const struct bench_impl_ops bench_worker_ops = {
	.open = worker_start, .decrypt = worker_decrypt, .batch = worker_batch,
	.blinding = worker_on, .fault_check = worker_on, .close = worker_stop,
};

/* ---- child side --------------------------------------------------------- */
struct serve_op {
	void *k;
	uint8_t *out;
	const uint8_t *in;
};

static int serve_one(void *ctx)
{
	struct serve_op *op = ctx;
	return bench_ossl_ops.decrypt(op->k, op->out, op->in);
}

int bench_worker_serve(FILE *in, FILE *out)
{
	const struct bench_impl_ops *ossl = &bench_ossl_ops;
	void *k = NULL;
	uint8_t *a = NULL, *b = NULL;
	size_t size = 0;
	char *line;
	char err[256];
	int too_long;
	while ((line = read_line(in, &too_long)) != NULL) {
		if (!strncmp(line, "key ", 4)) {
			size_t len = strtoul(line + 4, NULL, 10);
			char *pem = len && len <= WORKER_KEY_MAX ? malloc(len) : NULL;
			if (pem == NULL || fread(pem, 1, len, in) != len) {
				fprintf(out, "err cannot read the key\n");
			} else {
				struct bench_key_input key = { .pem = pem, .len = len };
				ossl->close(k);
				k = ossl->open(&key, BENCH_OSSL_EVP, err, sizeof(err));
				if (k == NULL) {
					fprintf(out, "err %s\n", err);
				} else {
					size = bench_ossl_size(k);
					free(a);
					free(b);
					a = calloc(1, size);
					b = calloc(1, size);
					fprintf(out, "ok %zu\n", size);
				}
			}
			free(pem);
		} else if (!strncmp(line, "dec ", 4) && k != NULL && a && b) {
			if (hex_read(a, size, line + 4) != 0)
				fprintf(out, "err bad hex\n");
			else if (ossl->decrypt(k, b, a) != 0)
				fprintf(out, "err EVP_PKEY_decrypt failed\n");
			else {
				fputs("out ", out);
				hex_write(out, b, size);
				fputc('\n', out);
			}
		} else if (!strncmp(line, "run ", 4) && k != NULL && a && b) {
			long iters = strtol(line + 4, NULL, 10);
			struct serve_op op = { k, b, a };
			struct bench_batch t;
			if (iters < 1 || bench_time_ops(serve_one, &op, iters, &t) != 0)
				fprintf(out, "err EVP_PKEY_decrypt failed\n");
			else
				fprintf(out, "ns %llu %llu\n",
					(unsigned long long)t.ns,
					(unsigned long long)t.cycles);
		} else if (!strncmp(line, "quit", 4)) {
			free(line);
			break;
		} else {
			fprintf(out, "err unexpected request\n");
		}
		free(line);
		fflush(out);
	}
	if (too_long) {
		fprintf(out, "err a request longer than %d bytes\n", WORKER_LINE_MAX);
		fflush(out);
	}
	ossl->close(k);
	free(a);
	free(b);
	return too_long;
}
