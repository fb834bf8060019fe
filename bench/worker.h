/*
 * bench/worker.h -- OpenSSL in a child process with a different
 * environment, driven batch by batch over a pipe.
 *
 * OpenSSL reads OPENSSL_ia32cap once, when it initialises, so measuring it
 * with a CPU feature masked (the AVX-512 IFMA path: ":~0x200000", bit 21 of
 * CPUID leaf 7 EBX) needs another process.  The parent re-executes this
 * same binary (bigmont-speed: /proc/self/exe --worker) with the variable
 * set; the child loads the key and runs EVP_PKEY_decrypt batches on
 * request, timing each batch itself so that the pipe's latency is not
 * measured.  Because the parent asks for one batch at a time, the child
 * still takes its turn in the interleaved loop.
 *
 * Protocol (text lines; the key follows its line as raw bytes):
 *   parent: "key <len>\n" <len bytes of PEM>   child: "ok <size>\n" | "err <why>\n"
 *   parent: "dec <hex>\n"                      child: "out <hex>\n" | "err <why>\n"
 *   parent: "run <iters>\n"                    child: "ns <ns> <tsc ticks>\n" | "err <why>\n"
 *   parent closes the pipe (or "quit\n")      child exits 0
 */
#ifndef BIGMONT_BENCH_WORKER_H
#define BIGMONT_BENCH_WORKER_H

#include <stdio.h>

#define BENCH_NOIFMA_ENV "OPENSSL_ia32cap"
#define BENCH_NOIFMA_VALUE ":~0x200000"

/* The parent side is bench_worker_ops (impl.h).  The child side: serve
 * requests from `in` until EOF (0) or a line longer than the protocol's
 * (1, after an "err" reply); the exit status. */
int bench_worker_serve(FILE *in, FILE *out);

#endif
