/*
 * bench/ipp.h -- Intel's Cryptography Primitives Library (ipp-crypto) beside
 * OpenSSL: its libippcp (one private-key operation, code picked per CPU)
 * and its libcrypto_mb (eight operations at once in AVX-512 IFMA lanes),
 * from PyPI's ipp-crypto wheel, which scripts/setup puts in the benchmark's
 * virtual environment (pinned in bench/ipp-requirements.txt, with the Intel
 * runtime libcrypto_mb links, intel-cmplr-lib-rt).
 *
 * Nothing at build time needs them: the libraries are loaded with dlopen
 * at run time from $BIGMONT_IPP_LIB if set (an empty value turns ipp-crypto
 * off), else from the lib/ folder of the wheel's environment (wheel.h:
 * $BIGMONT_WHEEL_VENV, else the path configured at build time).  The few
 * prototypes used are declared in impl_ipp.c, as the headers of the
 * ipp-crypto-include wheel give them.  A library that is missing, does not
 * load or lacks a function is not an error: the run goes on without it and
 * says why.
 *
 * The implementations (impl.h), both on the raw private operation, the
 * key's numbers converted to the library's once when opened, the input on
 * each decrypt, outside the timed loop (their batch times the library's
 * call alone on the input of the last decrypt):
 *   bench_ipp_ops      ippsRSA_Decrypt on a type-2 (CRT) private key; it
 *                      neither blinds nor checks its result.
 *   bench_ipp_mb8_ops  mbx_rsa_private_crt_ssl_mb8: eight operations per
 *                      call, the key in all eight lanes, each lane's input
 *                      the one given; a batch of `iters` operations is
 *                      ceil(iters / 8) calls, its time scaled to iters
 *                      operations (time per operation = call time / 8).
 *                      Every lane's answer must equal the first lane's.
 *                      Opened only where mbx_is_crypto_mb_applicable says
 *                      the CPU runs it (without AVX-512 IFMA the call dies
 *                      with SIGILL rather than returning an error), for
 *                      keys of 1024, 2048, 3072 or 4096 bits.
 */
#ifndef BIGMONT_BENCH_IPP_H
#define BIGMONT_BENCH_IPP_H

#define BENCH_IPP_ENV "BIGMONT_IPP_LIB"
/* The reason on any other CPU than x86-64, where nothing is loaded. */
#define BENCH_IPP_NOT_X86 "ipp-crypto is x86-64 only (Intel's libippcp has no other build): not loaded"

/* What the probe found; the caller owns it (the header names the library
 * and its code path from it, and the lineup measures ipp-crypto only where
 * libippcp loaded). */
struct bench_ipp_info {
	int probed;           /* 0: bench_ipp_probe was not called */
	int available;        /* 1: libippcp loaded with every function used */
	char dir[512];        /* where the libraries were looked for */
	char version[192];    /* "Intel® Cryptography Primitives Library (l9)
			       * (ver: 2.3.0 (13.3) ...)" */
	char features[192];   /* ippcpGetEnabledCpuFeatures: "0xd8000fefff
			       * (avx2 adx ...)" */
	char reason[384];     /* why libippcp is not available; "" when it is */
	int mb_available;     /* 1: libcrypto_mb loaded and applicable */
	char mb_version[192]; /* mbx_getversion()->strVersion */
	char mb_reason[384];  /* why mb8 is not measured; "" when it is */
};

/* Load the libraries, read their versions and features, all into *info;
 * nothing if info->probed already; off x86-64, only the reason
 * BENCH_IPP_NOT_X86.  Never fails. */
void bench_ipp_probe(struct bench_ipp_info *info);

#endif
