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
 *   bench_ipp_mb8_ops  mbx_rsa_private_crt_mb8 (the key's parts as 64-bit
 *                      words and the CRT method's buffer made at open):
 *                      eight operations per
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

/*
 * The CPU features ipp-crypto runs without, to stand beside an OpenSSL
 * limited by OPENSSL_ia32cap = value (NULL: unset): ippcpdefs.h's
 * ippCPUID_* bits (AVX2, ADX, AVX-512F, DQ, BW, VL, IFMA) of the features
 * OpenSSL 3 reads from its second word, CPUID leaf 7 (EBX in the low 32
 * bits): after "~" the bits named are off, else those not named; without
 * AVX-512F every AVX-512 bit.  0 when value has no second word.  Where it
 * is not 0, loading libippcp sets its features to the CPU's less these
 * (ippcpSetCpuFeatures, process-wide), and mb8, which needs IFMA, is left
 * out when IFMA is among them; the header's feature list is then the
 * limited one.  So ":~0x200000" runs both without their IFMA code.
 */
#define BENCH_IPP_IFMA 0x100000000ULL /* ippCPUID_AVX512IFMA */
unsigned long long bench_ipp_masked_by_ia32cap(const char *value);

/* Load the libraries, read their versions and features, all into *info;
 * nothing if info->probed already; off x86-64, only the reason
 * BENCH_IPP_NOT_X86.  Never fails. */
void bench_ipp_probe(struct bench_ipp_info *info);

#endif
