/*
 * bench/worker.c -- both ends of the OpenSSL child process (contract and
 * protocol in worker.h): bench_worker_ops for the parent, and
 * bench_worker_serve for the child.
 */
#include "worker.h"

#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "impl.h"
#include "lines.h"

struct bench_worker {
	struct bench_child c; /* first: bench_child_close */
	size_t size;
};

/* Lines and hex: lines.h.  The largest key the parent sends: what the
 * command reads of a key file. */
#define WORKER_KEY_MAX (4 << 20)

/* ---- parent side -------------------------------------------------------- */
static void *worker_start(const struct bench_key_input *key, int mode, char *err,
			  size_t errlen)
{
	(void)mode;
	struct bench_worker *w = calloc(1, sizeof(*w));
	if (w == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* This executable is bigmont-speed (cli/speed_main.c), whose options
	 * come right after its name.  Our own kernel choice need not be kept
	 * from the child: it runs OpenSSL only. */
	char *const argv[] = { "bigmont-speed", "--worker", NULL };
	if (bench_child_start(&w->c, "the OpenSSL worker", "/proc/self/exe", argv,
			      BENCH_NOIFMA_ENV, BENCH_NOIFMA_VALUE, err, errlen) != 0 ||
	    bench_child_key(&w->c, key->pem, key->len, &w->size, err, errlen) != 0) {
		bench_child_close(w);
		return NULL;
	}
	return w;
}

static int worker_decrypt(void *h, uint8_t *out, const uint8_t *in)
{
	struct bench_worker *w = h;
	char err[200];
	char *line = bench_child_hex_request(&w->c, "dec", in, w->size, err, sizeof(err));
	if (line == NULL)
		return -1;
	int rc = bench_hex_read(out, w->size, line + 4);
	free(line);
	return rc;
}

static int worker_batch(void *h, long iters, struct bench_batch *out)
{
	struct bench_worker *w = h;
	char err[200];
	return bench_child_batch(&w->c, "run", iters, out, err, sizeof(err));
}

static int worker_on(const void *h)
{
	(void)h;
	return 1; /* OpenSSL's EVP default: blinded, result checked */
}

const struct bench_impl_ops bench_worker_ops = {
	.open = worker_start, .decrypt = worker_decrypt, .batch = worker_batch,
	.other_process = 1,
	.blinding = worker_on, .fault_check = worker_on, .close = bench_child_close,
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
	while ((line = bench_read_line(in, &too_long)) != NULL) {
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
			if (bench_hex_read(a, size, line + 4) != 0)
				fprintf(out, "err bad hex\n");
			else if (ossl->decrypt(k, b, a) != 0)
				fprintf(out, "err EVP_PKEY_decrypt failed\n");
			else {
				fputs("out ", out);
				bench_hex_write(out, b, size);
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
		fprintf(out, "err a request longer than %d bytes\n", BENCH_LINE_MAX);
		fflush(out);
	}
	ossl->close(k);
	free(a);
	free(b);
	return too_long;
}
