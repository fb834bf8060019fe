/*
 * tests/support/ipp_standin.c -- a stand-in for ipp-crypto's libippcp and
 * libcrypto_mb (and the Intel runtime libcrypto_mb needs), exporting the
 * functions bench/impl_ipp.c loads, with their prototypes as
 * ipp-crypto-include declares them.  Every private-key operation answers
 * zero, a wrong answer the benchmark must catch (tests/bench_smoke.py links
 * it under each library's name in a folder named by BIGMONT_IPP_LIB).
 * Its big number is a word count and the words; the key holds nothing.
 * Like the real library it refuses to run with fewer CPU features than its
 * baseline (here AVX2): ippcpSetCpuFeatures without 0x8000 fails, and
 * ippcpInit fails when IPP_STANDIN_INIT_FAILS is set (the benchmark's
 * refusals of both, tests/bench_smoke.py).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int IppStatus;
typedef struct {
	int major, minor, patch;
	char targetCpu[4];
	const char *name, *buildDate, *strVersion;
} standin_version;
typedef struct _cpBigNum {
	int cap, len;
	uint32_t d[];
} IppsBigNumState;

static const standin_version version = { 0, 0, 0, "st", "stand-in", "",
					 "ipp-crypto stand-in (st) (ver: 0.0.0) answering zero" };

const standin_version *cryptoGetLibVersion(void) { return &version; }
IppStatus ippcpInit(void) { return getenv("IPP_STANDIN_INIT_FAILS") ? -1 : 0; }
uint64_t ippcpGetEnabledCpuFeatures(void) { return 0x8000; /* avx2 */ }
IppStatus ippcpSetCpuFeatures(uint64_t features) { return features & 0x8000 ? 0 : -1; }
const char *ippcpGetStatusString(IppStatus st) { return st ? "stand-in error" : "no error"; }

IppStatus ippsBigNumGetSize(int length, int *size)
{
	*size = (int)(sizeof(IppsBigNumState) + (size_t)length * sizeof(uint32_t));
	return length > 0 ? 0 : -1;
}

IppStatus ippsBigNumInit(int length, IppsBigNumState *bn)
{
	bn->cap = length;
	bn->len = 1;
	memset(bn->d, 0, (size_t)length * sizeof(uint32_t));
	return 0;
}

IppStatus ippsSet_BN(int sgn, int length, const uint32_t *data, IppsBigNumState *bn)
{
	(void)sgn;
	if (length < 1 || length > bn->cap)
		return -1;
	memcpy(bn->d, data, (size_t)length * sizeof(uint32_t));
	bn->len = length;
	return 0;
}

IppStatus ippsGet_BN(int *sgn, int *length, uint32_t *data, const IppsBigNumState *bn)
{
	*sgn = 1;
	*length = bn->len;
	memcpy(data, bn->d, (size_t)bn->len * sizeof(uint32_t));
	return 0;
}

IppStatus ippsRSA_GetSizePrivateKeyType2(int p_bits, int q_bits, int *size)
{
	(void)p_bits, (void)q_bits;
	*size = 16;
	return 0;
}

IppStatus ippsRSA_InitPrivateKeyType2(int p_bits, int q_bits, void *key, int size)
{
	(void)p_bits, (void)q_bits, (void)key, (void)size;
	return 0;
}

IppStatus ippsRSA_SetPrivateKeyType2(const void *p, const void *q, const void *dp,
				     const void *dq, const void *qinv, void *key)
{
	(void)p, (void)q, (void)dp, (void)dq, (void)qinv, (void)key;
	return 0;
}

IppStatus ippsRSA_GetBufferSizePrivateKey(int *size, const void *key)
{
	(void)key;
	*size = 16;
	return 0;
}

IppStatus ippsRSA_Decrypt(const IppsBigNumState *ct, IppsBigNumState *pt, const void *key,
			  uint8_t *scratch)
{
	(void)ct, (void)key, (void)scratch;
	pt->len = 1;
	pt->d[0] = 0;
	return 0;
}

/* libcrypto_mb: applicable everywhere, every lane zero. */
int mbx_is_crypto_mb_applicable(uint64_t features)
{
	(void)features;
	return 1;
}

const standin_version *mbx_getversion(void) { return &version; }

/* The CRT method: a token for the sizes the real one serves, else NULL
 * (and always NULL under IPP_STANDIN_NO_CRT_METHOD: the benchmark's
 * refusal of that, tests/bench_smoke.py). */
static const char crt_method_token;

const void *mbx_RSA_private_crt_Method(int bits)
{
	if (getenv("IPP_STANDIN_NO_CRT_METHOD"))
		return NULL;
	return bits >= 1024 && bits <= 4096 && bits % 1024 == 0 ? &crt_method_token : NULL;
}

int mbx_RSA_Method_BufSize(const void *m) { return m == &crt_method_token ? 64 : 0; }

uint32_t mbx_rsa_private_crt_mb8(const uint8_t *const from[8], uint8_t *const to[8],
				 const uint64_t *const p[8], const uint64_t *const q[8],
				 const uint64_t *const dp[8], const uint64_t *const dq[8],
				 const uint64_t *const iq[8], int bits, const void *m,
				 uint8_t *buffer)
{
	(void)from, (void)p, (void)q, (void)dp, (void)dq, (void)iq, (void)m, (void)buffer;
	for (int l = 0; l < 8; l++)
		memset(to[l], 0, (size_t)bits / 8);
	return 0;
}
