/*
 * bench/wheel.h -- the newest OpenSSL beside the system's: the OpenSSL
 * statically linked into PyPI's `cryptography` wheel, in a virtual
 * environment scripts/setup makes (pinned in bench/wheel-requirements.txt).
 *
 * It runs in a child process, the environment's python3 running
 * bench/wheel_worker.py (embedded in this library at configure time, so an
 * installed bigmont needs no source tree), spoken to over pipes like the
 * no-IFMA worker (worker.h; child.h).  The wheel's API has no raw RSA, so its
 * implementations (impl.h) sign or decrypt OAEP: bench_wheel_ops' decrypt
 * takes an EMSA-PKCS1-v1_5 encoding of a SHA-256 digest, sends the digest,
 * and returns the signature, which is that encoding's raw private
 * operation, checked against GMP's like every other answer;
 * bench_wheel_oaep_ops' takes an OAEP ciphertext and returns its message
 * (oaep.h says how that is checked).
 *
 * Where the environment is: $BIGMONT_WHEEL_VENV, else wheel-venv beside
 * the program: in a build tree a link to the one configured
 * (<source>/build/wheel-venv), in an install a copy of it
 * (cli/CMakeLists.txt).  An empty BIGMONT_WHEEL_VENV
 * turns the wheel off.  A missing environment, interpreter or wheel is not
 * an error: the run goes on without it and says why.
 *
 * Protocol (text lines, lines.h; the key follows its line as raw bytes):
 *   child at start: "hello <cryptography version> <OpenSSL version text>\n"
 *                   | "err <why>\n"
 *   parent: "key <len>\n" <len bytes of PEM>   child: "ok <size>\n" | "err <why>\n"
 *   parent: "sig <hex digest>\n"               child: "out <hex signature>\n"
 *   parent: "oaep <hex ciphertext>\n"          child: "out <hex message>\n"
 *   parent: "run <iters>\n"                    child: "ns <ns> 0\n": iters times the
 *                                                      last "sig" or "oaep"
 *   parent: "ovh <iters>\n"                    child: "ns <ns> 0\n": the same loop
 *                                                      calling a no-op function
 *   parent closes the pipe (or "quit\n")      child exits 0
 */
#ifndef BIGMONT_BENCH_WHEEL_H
#define BIGMONT_BENCH_WHEEL_H

#define BENCH_WHEEL_ENV "BIGMONT_WHEEL_VENV"

/* What the probe found; the caller owns it (the run: the header names
 * the wheel from it, and the lineup measures the wheel only where it is
 * available). */
struct bench_wheel_info {
	int probed;          /* 0: bench_wheel_probe was not called */
	int available;       /* 1: the child started and named its versions */
	char python[512];    /* the interpreter run */
	char cryptography[32]; /* "50.0.2" */
	char version[96];    /* "OpenSSL 4.0.3 29 Sep 2026" */
	char reason[320];    /* why it is not available; "" when it is */
};

#define BENCH_WHEEL_VENV_NAME "wheel-venv"

#include <stddef.h>

/* The environment used when BIGMONT_WHEEL_VENV is unset, into dir: 0, or
 * -1 (dir then holds a stand-in) when this program's path is unreadable
 * or too long. */
int bench_wheel_default_venv(char *dir, size_t cap);

/* Start the child, read its versions, stop it, all into *info; nothing
 * if info->probed already.  Never fails: an unavailable wheel is a state
 * with a reason. */
void bench_wheel_probe(struct bench_wheel_info *info);

#endif
