/*
 * bench/worker.h -- OpenSSL in a child process with a different
 * environment, driven batch by batch over a pipe.
 *
 * OpenSSL reads OPENSSL_ia32cap once, when it initialises, so measuring it
 * with a CPU feature masked (the AVX-512 IFMA path: ":~0x200000", bit 21 of
 * CPUID leaf 7 EBX) needs another process.  The parent re-executes this
 * same binary (/proc/self/exe speed --worker) with the variable set; the
 * child loads the key and runs EVP_PKEY_decrypt batches on request, timing
 * each batch itself so that the pipe's latency is not measured.  Because
 * the parent asks for one batch at a time, the child still takes its turn
 * in the interleaved loop.
 *
 * Protocol (text lines; the key follows its line as raw bytes):
 *   parent: "key <len>\n" <len bytes of PEM>   child: "ok <size>\n" | "err <why>\n"
 *   parent: "dec <hex>\n"                      child: "out <hex>\n" | "err <why>\n"
 *   parent: "run <iters>\n"                    child: "ns <ns> <tsc ticks>\n" | "err <why>\n"
 *   parent closes the pipe (or "quit\n")      child exits 0
 */
#ifndef BIGMONT_BENCH_WORKER_H
#define BIGMONT_BENCH_WORKER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "measure.h"

#define BENCH_NOIFMA_ENV "OPENSSL_ia32cap"
#define BENCH_NOIFMA_VALUE ":~0x200000"

struct bench_worker;

/* Start a child with env_name=env_value and give it the key. */
struct bench_worker *bench_worker_start(const char *env_name,
					const char *env_value, const char *pem,
					size_t len, char *err, size_t errlen);
size_t bench_worker_size(const struct bench_worker *w);
int bench_worker_decrypt(struct bench_worker *w, uint8_t *out,
			 const uint8_t *in);
/* A bench_runner batch function; ctx is the worker. */
int bench_worker_batch(void *ctx, long iters, struct bench_batch *out);
void bench_worker_stop(struct bench_worker *w);

/* The child side: serve requests from `in` until EOF.  Exit status. */
int bench_worker_serve(FILE *in, FILE *out);

#endif
