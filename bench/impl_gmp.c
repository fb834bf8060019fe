/*
 * bench/impl_gmp.c -- GMP's RSA private operation, the reference every
 * other result is checked against, done the way gmpbench's rsa does it:
 * m^dp mod p and m^dq mod q with mpz_powm (variable time, GMP's fastest),
 * recombined with Garner's formula: h = qinv (m_p - m_q) mod p,
 * out = m_q + h q.  Also the reference every answer is checked against,
 * and the parts shared by every implementation (the key's numbers as
 * bytes).
 */
#include "impl.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bench_gmp {
	mpz_t n, e, p, q, dp, dq, qinv;
	mpz_t m, mp, mq, h; /* scratch, so the timed loop never allocates */
	size_t size;
};

void bench_rsa_parts_free(struct bench_rsa_parts *parts)
{
	for (int i = 0; i < RSA_PART_COUNT; i++) {
		if (parts->v[i] != NULL) {
			memset(parts->v[i], 0, parts->len[i]);
			free(parts->v[i]);
		}
		parts->v[i] = NULL;
		parts->len[i] = 0;
	}
}

static void import(mpz_t z, const uint8_t *b, size_t len)
{
	mpz_import(z, len, 1, 1, 1, 0, b);
}

/* z as exactly len big-endian bytes (z < 256^len). */
static void export_fixed(uint8_t *out, size_t len, const mpz_t z)
{
	size_t count = (mpz_sizeinbase(z, 2) + 7) / 8;
	memset(out, 0, len);
	if (mpz_sgn(z) != 0)
		mpz_export(out + (len - count), NULL, 1, 1, 1, 0, z);
}

struct bench_gmp *bench_gmp_open(const struct bench_rsa_parts *parts,
				 char *err, size_t errlen)
{
	struct bench_gmp *g = calloc(1, sizeof(*g));
	if (g == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	mpz_inits(g->n, g->e, g->p, g->q, g->dp, g->dq, g->qinv, g->m, g->mp,
		  g->mq, g->h, NULL);
	import(g->n, parts->v[RSA_PART_N], parts->len[RSA_PART_N]);
	import(g->e, parts->v[RSA_PART_E], parts->len[RSA_PART_E]);
	import(g->p, parts->v[RSA_PART_P], parts->len[RSA_PART_P]);
	import(g->q, parts->v[RSA_PART_Q], parts->len[RSA_PART_Q]);
	import(g->dp, parts->v[RSA_PART_DP], parts->len[RSA_PART_DP]);
	import(g->dq, parts->v[RSA_PART_DQ], parts->len[RSA_PART_DQ]);
	import(g->qinv, parts->v[RSA_PART_QINV], parts->len[RSA_PART_QINV]);
	g->size = (mpz_sizeinbase(g->n, 2) + 7) / 8;
	/* Make room once for the largest values the loop produces. */
	mpz_realloc2(g->m, 2 * mpz_sizeinbase(g->n, 2) + 64);
	mpz_realloc2(g->h, 2 * mpz_sizeinbase(g->n, 2) + 64);
	mpz_mul(g->m, g->p, g->q);
	if (mpz_cmp(g->m, g->n) != 0 || mpz_even_p(g->p) || mpz_even_p(g->q)) {
		snprintf(err, errlen, "GMP: the key's p*q is not n");
		bench_gmp_close(g);
		return NULL;
	}
	return g;
}

size_t bench_gmp_size(const struct bench_gmp *g) { return g->size; }

int bench_gmp_decrypt(struct bench_gmp *g, uint8_t *out, const uint8_t *in)
{
	import(g->m, in, g->size);
	if (mpz_cmp(g->m, g->n) >= 0)
		return -1;
	mpz_mod(g->mp, g->m, g->p);
	mpz_powm(g->mp, g->mp, g->dp, g->p);
	mpz_mod(g->mq, g->m, g->q);
	mpz_powm(g->mq, g->mq, g->dq, g->q);
	mpz_sub(g->h, g->mp, g->mq);
	mpz_mul(g->h, g->h, g->qinv);
	mpz_mod(g->h, g->h, g->p); /* mpz_mod's result is never negative */
	mpz_mul(g->h, g->h, g->q);
	mpz_add(g->m, g->mq, g->h);
	export_fixed(out, g->size, g->m);
	return 0;
}

int bench_gmp_verify(struct bench_gmp *g, const uint8_t *out,
		     const uint8_t *in)
{
	mpz_t x, y;
	mpz_inits(x, y, NULL);
	import(x, out, g->size);
	import(y, in, g->size);
	int ok = mpz_cmp(x, g->n) < 0;
	mpz_powm(x, x, g->e, g->n);
	ok = ok && mpz_cmp(x, y) == 0;
	mpz_clears(x, y, NULL);
	return ok ? 0 : -1;
}

void bench_gmp_close(struct bench_gmp *g)
{
	if (g == NULL)
		return;
	mpz_clears(g->n, g->e, g->p, g->q, g->dp, g->dq, g->qinv, g->m, g->mp,
		   g->mq, g->h, NULL);
	free(g);
}

const char *bench_gmp_version(void) { return gmp_version; }

static void *gmp_open(const struct bench_key_input *key, int mode, char *err,
		      size_t errlen)
{
	(void)mode;
	return bench_gmp_open(key->parts, err, errlen);
}

static int gmp_decrypt(void *h, uint8_t *out, const uint8_t *in)
{
	return bench_gmp_decrypt(h, out, in);
}

/* Neither blinding nor a check of the result. */
static int gmp_off(const void *h)
{
	(void)h;
	return 0;
}

static void gmp_close(void *h)
{
	bench_gmp_close(h);
}

const struct bench_impl_ops bench_gmp_ops = {
	.open = gmp_open, .decrypt = gmp_decrypt, .blinding = gmp_off, .fault_check = gmp_off,
	.close = gmp_close,
};
