/*
 * bench/impl_ipp.c -- ipp-crypto's libippcp and libcrypto_mb, loaded at run
 * time: finding them, the probe, bench_ipp_ops and bench_ipp_mb8_ops
 * (contract in ipp.h).  Its own translation unit: none of our headers
 * but the benchmark's.
 */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include "ipp.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "impl.h"
#include "wheel.h"
#include "worker.h"

/* ---- the few declarations used, as ipp-crypto-include's headers give
 * them (ippcpdefs.h, ippcp.h, crypto_mb/{cpu_features,rsa,version}.h) --- */
typedef int IppStatus; /* 0: ippStsNoErr; below 0 an error */
typedef uint32_t Ipp32u;
typedef uint64_t Ipp64u;
typedef uint8_t Ipp8u;
typedef enum { ippBigNumNEG = 0, ippBigNumPOS = 1 } IppsBigNumSGN;
typedef struct _cpBigNum IppsBigNumState;
typedef struct _cpRSA_private_key IppsRSAPrivateKeyState;
/* CryptoLibraryVersion and mbxVersion have this layout. */
typedef struct {
	int major, minor, patch;
	char targetCpu[4];
	const char *name, *buildDate, *strVersion;
} ipp_version;
typedef uint32_t mbx_status; /* 4 bits per lane, 0: ok */
typedef struct _ifma_rsa_method mbx_RSA_Method;

struct ippcp_api {
	const ipp_version *(*version)(void);
	IppStatus (*init)(void);
	Ipp64u (*enabled_features)(void);
	IppStatus (*set_features)(Ipp64u features);
	const char *(*status_string)(IppStatus);
	IppStatus (*bn_get_size)(int length, int *size);
	IppStatus (*bn_init)(int length, IppsBigNumState *bn);
	IppStatus (*set_bn)(IppsBigNumSGN sgn, int length, const Ipp32u *data,
			    IppsBigNumState *bn);
	IppStatus (*get_bn)(IppsBigNumSGN *sgn, int *length, Ipp32u *data,
			    const IppsBigNumState *bn);
	IppStatus (*key_get_size)(int p_bits, int q_bits, int *size);
	IppStatus (*key_init)(int p_bits, int q_bits, IppsRSAPrivateKeyState *key,
			      int size);
	IppStatus (*key_set)(const IppsBigNumState *p, const IppsBigNumState *q,
			     const IppsBigNumState *dp, const IppsBigNumState *dq,
			     const IppsBigNumState *qinv, IppsRSAPrivateKeyState *key);
	IppStatus (*buffer_size)(int *size, const IppsRSAPrivateKeyState *key);
	IppStatus (*decrypt)(const IppsBigNumState *ct, IppsBigNumState *pt,
			     const IppsRSAPrivateKeyState *key, Ipp8u *scratch);
};
static const char *const ippcp_names[] = {
	"cryptoGetLibVersion", "ippcpInit", "ippcpGetEnabledCpuFeatures", "ippcpSetCpuFeatures",
	"ippcpGetStatusString",
	"ippsBigNumGetSize", "ippsBigNumInit", "ippsSet_BN", "ippsGet_BN",
	"ippsRSA_GetSizePrivateKeyType2", "ippsRSA_InitPrivateKeyType2",
	"ippsRSA_SetPrivateKeyType2", "ippsRSA_GetBufferSizePrivateKey", "ippsRSA_Decrypt",
};

struct mb_api {
	int (*applicable)(Ipp64u features);
	const ipp_version *(*version)(void);
	const mbx_RSA_Method *(*crt_method)(int bits);
	int (*method_buffer_size)(const mbx_RSA_Method *m);
	mbx_status (*rsa_crt_mb8)(const Ipp8u *const from[8], Ipp8u *const to[8],
				  const Ipp64u *const p[8], const Ipp64u *const q[8],
				  const Ipp64u *const dp[8], const Ipp64u *const dq[8],
				  const Ipp64u *const iq[8], int bits, const mbx_RSA_Method *m,
				  Ipp8u *buffer);
};
static const char *const mb_names[] = {
	"mbx_is_crypto_mb_applicable", "mbx_getversion", "mbx_RSA_private_crt_Method",
	"mbx_RSA_Method_BufSize", "mbx_rsa_private_crt_mb8",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define LANES 8

/* ---- finding and loading ---------------------------------------------- */

/* The folder the libraries are in, or -1 with the reason. */
static int lib_dir(char *dir, size_t cap, char *why, size_t whylen)
{
	const char *env = getenv(BENCH_IPP_ENV);
	if (env != NULL) {
		if (env[0] == '\0') {
			snprintf(why, whylen, "%s is empty: ipp-crypto is off", BENCH_IPP_ENV);
			return -1;
		}
		snprintf(dir, cap, "%s", env);
		return 0;
	}
	const char *venv = getenv(BENCH_WHEEL_ENV);
	if (venv != NULL && venv[0] == '\0') {
		snprintf(why, whylen, "%s is empty and %s unset: ipp-crypto is off",
			 BENCH_WHEEL_ENV, BENCH_IPP_ENV);
		return -1;
	}
	char beside[PATH_MAX];
	if (venv == NULL && bench_wheel_default_venv(beside, sizeof(beside)) != 0) {
		snprintf(why, whylen, "/proc/self/exe is unreadable: no %s beside this program "
			 "(%s names the folder)", BENCH_WHEEL_VENV_NAME, BENCH_IPP_ENV);
		return -1;
	}
	const int n = snprintf(dir, cap, "%s/lib", venv != NULL ? venv : beside);
	if (n < 0 || (size_t)n >= cap) {
		snprintf(why, whylen, "the library folder's path is longer than %zu characters "
			 "(%s names another)", cap - 1, BENCH_IPP_ENV);
		return -1;
	}
	return 0;
}

/* Whether dir has no file, with the reason. */
static int missing(const char *dir, const char *file, const char *what, char *why,
		   size_t whylen)
{
	char path[640];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (access(path, F_OK) == 0)
		return 0;
	snprintf(why, whylen, "no %s in %s (%s; scripts/setup puts it in the "
		 "benchmark's environment, %s=DIR names another folder)", file, dir,
		 what, BENCH_IPP_ENV);
	return 1;
}

/* dir/file loaded for good (a library is not unloaded: its code may be
 * in use by another handle), or NULL with the reason. */
static void *load(const char *dir, const char *file, const char *what, char *why,
		  size_t whylen)
{
	char path[640];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (missing(dir, file, what, why, whylen))
		return NULL;
	dlerror();
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (h == NULL) {
		const char *e = dlerror();
		snprintf(why, whylen, "%s does not load: %s", path, e ? e : "dlopen failed");
	}
	return h;
}

/* Every name's address into slots (function pointers, in order), or -1
 * with the missing one. */
static int resolve(void *lib, const char *file, const char *const *names, size_t n,
		   void *slots, char *why, size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		void *sym = dlsym(lib, names[i]);
		if (sym == NULL) {
			snprintf(why, whylen, "%s has no %s", file, names[i]);
			return -1;
		}
		/* A function pointer from dlsym's object pointer, as POSIX allows. */
		memcpy((char *)slots + i * sizeof(void (*)(void)), &sym, sizeof(sym));
	}
	return 0;
}

unsigned long long bench_ipp_masked_by_ia32cap(const char *value)
{
	static const struct { int ebx_bit; Ipp64u ipp; } leaf7[] = {
		{ 5, 0x8000 /* avx2 */ },        { 16, 0x100000 /* avx512f */ },
		{ 17, 0x2000000 /* avx512dq */ }, { 19, 0x10000 /* adx */ },
		{ 21, BENCH_IPP_IFMA },          { 30, 0x1000000 /* avx512bw */ },
		{ 31, 0x4000000 /* avx512vl */ },
	};
	const char *word = value != NULL ? strchr(value, ':') : NULL;
	if (word == NULL)
		return 0;
	word++;
	const int clears = word[0] == '~';
	char *end;
	errno = 0;
	const unsigned long long v = strtoull(word + clears, &end, 0);
	if (end == word + clears || errno != 0)
		return 0;
	Ipp64u off = 0;
	for (size_t i = 0; i < COUNT(leaf7); i++)
		if ((int)((v >> leaf7[i].ebx_bit) & 1) == clears)
			off |= leaf7[i].ipp;
	/* OpenSSL runs no AVX-512 code without AVX-512F. */
	if (off & 0x100000)
		off |= BENCH_IPP_IFMA | 0x1000000 | 0x2000000 | 0x4000000;
	return off;
}

static int load_ippcp(struct ippcp_api *a, char *dir, size_t dircap, char *why,
		      size_t whylen)
{
	_Static_assert(sizeof(*a) == COUNT(ippcp_names) * sizeof(void (*)(void)),
		       "one slot per name");
	if (lib_dir(dir, dircap, why, whylen) != 0)
		return -1;
	void *lib = load(dir, "libippcp.so", "PyPI ipp-crypto", why, whylen);
	if (lib == NULL)
		return -1;
	if (resolve(lib, "libippcp.so", ippcp_names, COUNT(ippcp_names), a, why, whylen) != 0) {
		dlclose(lib);
		return -1;
	}
	/* Process-wide in the library, the same on every load; the features
	 * read after ippcpInit, which a first call would otherwise make. */
	const Ipp64u off = bench_ipp_masked_by_ia32cap(getenv(BENCH_NOIFMA_ENV));
	IppStatus st = a->init();
	const Ipp64u on = a->enabled_features();
	if (st < 0 || on == 0) {
		snprintf(why, whylen, "libippcp: ippcpInit fails (%d)", (int)st);
		return -1;
	}
	if ((on & off) != 0 && a->set_features(on & ~off) < 0) {
		snprintf(why, whylen, "ipp-crypto refuses the features %s leaves it (0x%llx)",
			 BENCH_NOIFMA_ENV, (unsigned long long)(on & ~off));
		return -1;
	}
	return 0; /* RTLD_NODELETE: the functions stay */
}

/* The Intel runtime libcrypto_mb is linked against, which the wheels do
 * not find by themselves (no RUNPATH): loaded first from the same folder,
 * so that libcrypto_mb's needs are met by their sonames. */
static const char *const mb_runtime[] = { "libintlc.so.5", "libimf.so", "libsvml.so",
					  "libirng.so" };

static int load_mb(struct mb_api *a, char *dir, size_t dircap, char *why, size_t whylen)
{
	_Static_assert(sizeof(*a) == COUNT(mb_names) * sizeof(void (*)(void)),
		       "one slot per name");
	if (lib_dir(dir, dircap, why, whylen) != 0)
		return -1;
	/* The library itself first: a folder without ipp-crypto is named so,
	 * as for libippcp, not by the first runtime library it lacks. */
	if (missing(dir, "libcrypto_mb.so", "PyPI ipp-crypto", why, whylen))
		return -1;
	for (size_t i = 0; i < COUNT(mb_runtime); i++)
		if (load(dir, mb_runtime[i], "the Intel runtime libcrypto_mb needs, PyPI "
			 "intel-cmplr-lib-rt", why, whylen) == NULL)
			return -1;
	void *lib = load(dir, "libcrypto_mb.so", "PyPI ipp-crypto", why, whylen);
	if (lib == NULL)
		return -1;
	if (resolve(lib, "libcrypto_mb.so", mb_names, COUNT(mb_names), a, why, whylen) != 0) {
		dlclose(lib);
		return -1;
	}
	/* Beside an OpenSSL without IFMA, no eight-lane IFMA peer. */
	if (bench_ipp_masked_by_ia32cap(getenv(BENCH_NOIFMA_ENV)) & BENCH_IPP_IFMA) {
		snprintf(why, whylen, "%s masks AVX-512 IFMA, which libcrypto_mb's RSA needs",
			 BENCH_NOIFMA_ENV);
		return -1;
	}
	/* Asked before any call: where the CPU lacks what it needs (AVX-512
	 * IFMA), the mb8 call dies with SIGILL instead of returning an
	 * error. */
	if (!a->applicable(0)) {
		snprintf(why, whylen, "libcrypto_mb: mbx_is_crypto_mb_applicable says this CPU "
			 "cannot run it (it needs AVX-512 IFMA)");
		return -1;
	}
	return 0;
}

/* "0xd8000fefff (avx2 adx avx512f ...)": the mask, and the bits that
 * choose RSA's code (ippcpdefs.h's ippCPUID_*). */
static void feature_text(char *buf, size_t cap, Ipp64u f)
{
	static const struct { Ipp64u bit; const char *name; } named[] = {
		{ 0x8000, "avx2" }, { 0x10000, "adx" }, { 0x100000, "avx512f" },
		{ 0x1000000, "avx512bw" }, { 0x2000000, "avx512dq" },
		{ 0x4000000, "avx512vl" }, { BENCH_IPP_IFMA, "avx512ifma" },
		{ 0x200000000ULL, "avx512-by-os" },
	};
	int n = snprintf(buf, cap, "0x%llx (", (unsigned long long)f);
	const char *sep = "";
	for (size_t i = 0; i < COUNT(named) && n > 0 && (size_t)n < cap; i++)
		if (f & named[i].bit) {
			n += snprintf(buf + n, cap - n, "%s%s", sep, named[i].name);
			sep = " ";
		}
	if (n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - n, "%s)", *sep ? "" : "none of avx2 adx avx512");
}

void bench_ipp_probe(struct bench_ipp_info *info)
{
	if (info->probed)
		return;
	*info = (struct bench_ipp_info){ .probed = 1 };
#if !defined(__x86_64__)
	/* Intel ships libippcp and libcrypto_mb for x86-64 only: nothing to
	 * look for, and a path in the reason would only mislead. */
	snprintf(info->reason, sizeof(info->reason), "%s", BENCH_IPP_NOT_X86);
	snprintf(info->mb_reason, sizeof(info->mb_reason), "%s", BENCH_IPP_NOT_X86);
	return;
#endif
	struct ippcp_api a;
	if (load_ippcp(&a, info->dir, sizeof(info->dir), info->reason,
		       sizeof(info->reason)) != 0) {
		snprintf(info->mb_reason, sizeof(info->mb_reason), "%s", info->reason);
		return;
	}
	const ipp_version *v = a.version();
	snprintf(info->version, sizeof(info->version), "%s",
		 v && v->strVersion ? v->strVersion : "(no version)");
	feature_text(info->features, sizeof(info->features), a.enabled_features());
	info->available = 1;
	struct mb_api mb;
	if (load_mb(&mb, info->dir, sizeof(info->dir), info->mb_reason,
		    sizeof(info->mb_reason)) != 0)
		return;
	v = mb.version();
	snprintf(info->mb_version, sizeof(info->mb_version), "%s",
		 v && v->strVersion ? v->strVersion : "(no version)");
	info->mb_available = 1;
}

/* ---- numbers ---------------------------------------------------------- */

/* Bits of a big-endian number. */
static int bit_length(const uint8_t *b, size_t len)
{
	size_t i = 0;
	while (i < len && b[i] == 0)
		i++;
	if (i == len)
		return 0;
	int bits = (int)(len - i) * 8;
	for (uint8_t top = b[i]; !(top & 0x80); top <<= 1)
		bits--;
	return bits;
}

/* Big-endian bytes as nw little-endian 32-bit words (ipp's order); -1 if
 * they do not fit. */
static int words_of(Ipp32u *w, int nw, const uint8_t *b, size_t len)
{
	memset(w, 0, (size_t)nw * sizeof(*w));
	for (size_t i = 0; i < len; i++) {
		size_t at = len - 1 - i; /* the byte's place from the low end */
		if (at / 4 >= (size_t)nw) {
			if (b[i] != 0)
				return -1;
			continue;
		}
		w[at / 4] |= (Ipp32u)b[i] << (8 * (at % 4));
	}
	return 0;
}

/* nw words as exactly len big-endian bytes (the number < 256^len). */
static void bytes_of(uint8_t *b, size_t len, const Ipp32u *w, int nw)
{
	for (size_t at = 0; at < len; at++)
		b[len - 1 - at] = at / 4 < (size_t)nw ? (uint8_t)(w[at / 4] >> (8 * (at % 4))) : 0;
}

/* ---- ipp-crypto: ippsRSA_Decrypt, type-2 key -------------------------- */

struct ipp {
	struct ippcp_api a;
	size_t size; /* modulus bytes */
	int nw;      /* 32-bit words of the modulus */
	IppsRSAPrivateKeyState *key;
	IppsBigNumState *ct, *pt; /* the input and the answer */
	Ipp8u *scratch;
	Ipp32u *w;   /* nw words: an input or an answer on its way */
	IppStatus last;
	char last_error[160];
};

static IppsBigNumState *bn_new(const struct ippcp_api *a, int nw)
{
	int size;
	if (a->bn_get_size(nw, &size) != 0)
		return NULL;
	IppsBigNumState *bn = calloc(1, (size_t)size);
	if (bn != NULL && a->bn_init(nw, bn) != 0) {
		free(bn);
		return NULL;
	}
	return bn;
}

/* A big number holding the key's part, or NULL. */
static IppsBigNumState *bn_of_part(const struct ippcp_api *a, const struct bench_rsa_parts *parts,
				   int part)
{
	int nw = (int)((parts->len[part] + 3) / 4);
	nw = nw > 0 ? nw : 1;
	Ipp32u *w = calloc((size_t)nw, sizeof(*w));
	IppsBigNumState *bn = w != NULL ? bn_new(a, nw) : NULL;
	if (bn != NULL && (words_of(w, nw, parts->v[part], parts->len[part]) != 0 ||
			   a->set_bn(ippBigNumPOS, nw, w, bn) != 0)) {
		free(bn);
		bn = NULL;
	}
	if (w != NULL)
		memset(w, 0, (size_t)nw * sizeof(*w));
	free(w);
	return bn;
}

static void ipp_close(void *h)
{
	struct ipp *x = h;
	if (x == NULL)
		return;
	free(x->key); /* the key's numbers: a secret, but ipp's layout is its own */
	free(x->ct);
	free(x->pt);
	free(x->scratch);
	free(x->w);
	free(x);
}

static void *ipp_open(const struct bench_key_input *key, int mode, char *err, size_t errlen)
{
	(void)mode;
	struct ipp *x = calloc(1, sizeof(*x));
	char dir[512];
	if (x == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (load_ippcp(&x->a, dir, sizeof(dir), err, errlen) != 0) {
		free(x);
		return NULL;
	}
	const struct bench_rsa_parts *parts = key->parts;
	const struct ippcp_api *a = &x->a;
	x->size = parts->len[RSA_PART_N];
	x->nw = (int)((x->size + 3) / 4);
	int pbits = bit_length(parts->v[RSA_PART_P], parts->len[RSA_PART_P]);
	int qbits = bit_length(parts->v[RSA_PART_Q], parts->len[RSA_PART_Q]);
	IppsBigNumState *num[5] = { 0 };
	static const int part_of[5] = { RSA_PART_P, RSA_PART_Q, RSA_PART_DP, RSA_PART_DQ,
					RSA_PART_QINV };
	int ok = 1, key_size = 0, buf_size = 0;
	IppStatus st = 0;
	for (int i = 0; i < 5; i++)
		ok = ok && (num[i] = bn_of_part(a, parts, part_of[i])) != NULL;
	ok = ok && (st = a->key_get_size(pbits, qbits, &key_size)) == 0 &&
	     (x->key = calloc(1, (size_t)key_size)) != NULL &&
	     (st = a->key_init(pbits, qbits, x->key, key_size)) == 0 &&
	     (st = a->key_set(num[0], num[1], num[2], num[3], num[4], x->key)) == 0 &&
	     (st = a->buffer_size(&buf_size, x->key)) == 0 &&
	     (x->scratch = calloc(1, (size_t)buf_size)) != NULL &&
	     (x->ct = bn_new(a, x->nw)) != NULL && (x->pt = bn_new(a, x->nw)) != NULL &&
	     (x->w = calloc((size_t)x->nw, sizeof(*x->w))) != NULL;
	for (int i = 0; i < 5; i++)
		free(num[i]);
	if (!ok) {
		if (st != 0)
			snprintf(err, errlen, "ipp-crypto refuses the key (%d-bit p, %d-bit q): %s",
				 pbits, qbits, a->status_string(st));
		else
			snprintf(err, errlen, "ipp-crypto: out of memory or a big number refused");
		ipp_close(x);
		return NULL;
	}
	return x;
}

/* The timed call: the input already in ipp's big number. */
static int ipp_call(void *h)
{
	struct ipp *x = h;
	x->last = x->a.decrypt(x->ct, x->pt, x->key, x->scratch);
	return x->last != 0;
}

enum { IPP_FAILED = 1, IPP_BAD_NUMBER = 2, IPP_LANES_DIFFER = 3 };

static int ipp_decrypt(void *h, uint8_t *out, const uint8_t *in)
{
	struct ipp *x = h;
	x->last = 0;
	x->last_error[0] = '\0';
	if (words_of(x->w, x->nw, in, x->size) != 0 ||
	    (x->last = x->a.set_bn(ippBigNumPOS, x->nw, x->w, x->ct)) != 0)
		return IPP_BAD_NUMBER;
	if (ipp_call(x) != 0)
		return IPP_FAILED;
	IppsBigNumSGN sgn;
	int len = 0;
	if ((x->last = x->a.get_bn(&sgn, &len, x->w, x->pt)) != 0 || len > x->nw)
		return IPP_BAD_NUMBER;
	bytes_of(out, x->size, x->w, len);
	return 0;
}

static int ipp_batch(void *h, long iters, struct bench_batch *out)
{
	return bench_time_ops(ipp_call, h, iters, out) ? IPP_FAILED : 0;
}

static const char *ipp_strerror(const void *h, int status)
{
	struct ipp *x = (struct ipp *)h;
	if (x->last != 0)
		snprintf(x->last_error, sizeof(x->last_error), "ipp-crypto: %s",
			 x->a.status_string(x->last));
	else if (status == IPP_BAD_NUMBER)
		snprintf(x->last_error, sizeof(x->last_error), "ipp-crypto: a number does not "
			 "fit the modulus' length");
	else
		snprintf(x->last_error, sizeof(x->last_error), "ipp-crypto failed");
	return x->last_error;
}

/* ippsRSA_Decrypt takes no random source: it neither blinds nor checks
 * its result. */
static int ipp_off(const void *h)
{
	(void)h;
	return 0;
}

const struct bench_impl_ops bench_ipp_ops = {
	.open = ipp_open, .decrypt = ipp_decrypt, .batch = ipp_batch,
	.blinding = ipp_off, .fault_check = ipp_off, .strerror = ipp_strerror,
	.input = BENCH_INPUT_RAW, .close = ipp_close,
};

/* ---- ipp-crypto mb8: mbx_rsa_private_crt_mb8 -------------------------- *
 * Its raw form: the key's parts as 64-bit words, converted once here, and
 * the CRT method's work buffer made once, as a server keeping a key would
 * call it.  The form taking OpenSSL's BIGNUMs (mbx_rsa_private_crt_ssl_mb8)
 * converts the five parts of every lane on each call: 1.07 and 1.03 of
 * this one's time at RSA-1024 and 2048 on Intel family 6 model 167
 * (bench/README.md). */

#define MB8_PARTS 5 /* p, q, dp, dq, qinv */

struct ipp_mb8 {
	struct mb_api a;
	size_t size;
	int bits;
	const mbx_RSA_Method *method;
	Ipp64u *words; /* MB8_PARTS parts of `half` words each */
	int half;      /* 64-bit words of a prime: bits / 128 */
	const Ipp64u *lanes[MB8_PARTS][LANES]; /* each part in every lane */
	Ipp8u *work;   /* the method's buffer */
	size_t work_size;
	Ipp8u *buf;    /* LANES inputs, then LANES answers */
	const Ipp8u *from[LANES];
	Ipp8u *to[LANES];
	mbx_status last;
	int bad_lane;
	char last_error[160];
};

static void mb8_close(void *h)
{
	struct ipp_mb8 *x = h;
	if (x == NULL)
		return;
	if (x->words != NULL) /* the key's secret parts */
		memset(x->words, 0, (size_t)MB8_PARTS * (size_t)x->half * sizeof(Ipp64u));
	if (x->work != NULL)
		memset(x->work, 0, x->work_size);
	free(x->words);
	free(x->work);
	free(x->buf);
	free(x);
}

/* Big-endian bytes as nw little-endian 64-bit words; -1 if they do not
 * fit. */
static int qwords_of(Ipp64u *w, int nw, const uint8_t *b, size_t len)
{
	Ipp32u *half = calloc((size_t)nw * 2, sizeof(Ipp32u));
	int rc = half == NULL || words_of(half, 2 * nw, b, len) != 0 ? -1 : 0;
	for (int i = 0; i < nw && rc == 0; i++)
		w[i] = half[2 * i] | (Ipp64u)half[2 * i + 1] << 32;
	if (half != NULL)
		memset(half, 0, (size_t)nw * 2 * sizeof(Ipp32u));
	free(half);
	return rc;
}

static void *mb8_open(const struct bench_key_input *key, int mode, char *err, size_t errlen)
{
	(void)mode;
	struct ipp_mb8 *x = calloc(1, sizeof(*x));
	char dir[512];
	if (x == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (load_mb(&x->a, dir, sizeof(dir), err, errlen) != 0) {
		free(x);
		return NULL;
	}
	const struct bench_rsa_parts *parts = key->parts;
	x->size = parts->len[RSA_PART_N];
	x->bits = bit_length(parts->v[RSA_PART_N], x->size);
	if (x->bits % 1024 != 0 || x->bits < 1024 || x->bits > 4096) {
		snprintf(err, errlen, "libcrypto_mb's mb8 RSA takes 1024, 2048, 3072 and "
			 "4096-bit keys, not %d bits", x->bits);
		free(x);
		return NULL;
	}
	/* Its CRT takes two primes of half n's bits (it refuses others with
	 * status bits per lane): n/a for such a key, not a failed run. */
	const int pbits = bit_length(parts->v[RSA_PART_P], parts->len[RSA_PART_P]);
	const int qbits = bit_length(parts->v[RSA_PART_Q], parts->len[RSA_PART_Q]);
	if (pbits != x->bits / 2 || qbits != x->bits / 2) {
		snprintf(err, errlen, "libcrypto_mb's mb8 RSA takes primes of half the "
			 "modulus's %d bits, not %d and %d", x->bits, pbits, qbits);
		free(x);
		return NULL;
	}
	x->method = x->a.crt_method(x->bits);
	const int work = x->method != NULL ? x->a.method_buffer_size(x->method) : 0;
	if (work <= 0) {
		snprintf(err, errlen, "libcrypto_mb: no CRT method for %d-bit keys "
			 "(mbx_RSA_private_crt_Method)", x->bits);
		free(x);
		return NULL;
	}
	static const int part_of[MB8_PARTS] = { RSA_PART_P, RSA_PART_Q, RSA_PART_DP,
						RSA_PART_DQ, RSA_PART_QINV };
	x->half = x->bits / 128;
	x->work_size = ((size_t)work + 63) & ~(size_t)63;
	x->words = calloc((size_t)MB8_PARTS * (size_t)x->half, sizeof(Ipp64u));
	x->work = aligned_alloc(64, x->work_size);
	int ok = x->words != NULL && x->work != NULL &&
		 (x->buf = calloc(2 * LANES, x->size)) != NULL;
	if (!ok) {
		snprintf(err, errlen, "out of memory");
		mb8_close(x);
		return NULL;
	}
	for (int i = 0; i < MB8_PARTS; i++)
		if (qwords_of(x->words + (size_t)i * (size_t)x->half, x->half,
			      parts->v[part_of[i]], parts->len[part_of[i]]) != 0) {
			snprintf(err, errlen, "libcrypto_mb: the key's CRT part %d does not fit "
				 "in %d bits", i, 64 * x->half);
			mb8_close(x);
			return NULL;
		}
	for (int l = 0; l < LANES; l++) {
		x->from[l] = x->buf + l * x->size;
		x->to[l] = x->buf + (LANES + l) * x->size;
		for (int i = 0; i < MB8_PARTS; i++)
			x->lanes[i][l] = x->words + (size_t)i * (size_t)x->half;
	}
	return x;
}

/* The timed call: eight operations, the inputs already in place. */
static int mb8_call(void *h)
{
	struct ipp_mb8 *x = h;
	x->last = x->a.rsa_crt_mb8(x->from, x->to, x->lanes[0], x->lanes[1], x->lanes[2],
				   x->lanes[3], x->lanes[4], x->bits, x->method, x->work);
	return x->last != 0;
}

static int mb8_decrypt(void *h, uint8_t *out, const uint8_t *in)
{
	struct ipp_mb8 *x = h;
	x->last = 0;
	x->bad_lane = 0;
	for (int l = 0; l < LANES; l++)
		memcpy((Ipp8u *)x->from[l], in, x->size);
	memset(x->to[0], 0xa5, LANES * x->size);
	if (mb8_call(x) != 0)
		return IPP_FAILED;
	for (int l = 1; l < LANES; l++)
		if (memcmp(x->to[l], x->to[0], x->size) != 0) {
			x->bad_lane = l;
			return IPP_LANES_DIFFER;
		}
	memcpy(out, x->to[0], x->size);
	return 0;
}

/* iters operations: ceil(iters / 8) calls, the time scaled to iters. */
static int mb8_batch(void *h, long iters, struct bench_batch *out)
{
	long calls = (iters + LANES - 1) / LANES;
	struct bench_batch b;
	if (bench_time_ops(mb8_call, h, calls, &b) != 0)
		return IPP_FAILED;
	double scale = (double)iters / (double)(calls * LANES);
	out->ns = (uint64_t)llround((double)b.ns * scale);
	out->cycles = (uint64_t)llround((double)b.cycles * scale);
	return 0;
}

static const char *mb8_strerror(const void *h, int status)
{
	struct ipp_mb8 *x = (struct ipp_mb8 *)h;
	if (status == IPP_LANES_DIFFER)
		snprintf(x->last_error, sizeof(x->last_error), "libcrypto_mb: lane %d's answer "
			 "differs from lane 0's on the same input", x->bad_lane);
	else
		snprintf(x->last_error, sizeof(x->last_error), "libcrypto_mb: "
			 "mbx_rsa_private_crt_mb8 status 0x%08x (4 bits per lane)",
			 (unsigned)x->last);
	return x->last_error;
}

const struct bench_impl_ops bench_ipp_mb8_ops = {
	.open = mb8_open, .decrypt = mb8_decrypt, .batch = mb8_batch,
	.blinding = ipp_off, .fault_check = ipp_off, .strerror = mb8_strerror,
	.input = BENCH_INPUT_RAW, .close = mb8_close,
};
