/*
 * bench/lineup.c -- the table of implementations and the open step
 * (contract in lineup.h).
 */
#include "lineup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct entry {
	const char *name;
	const struct bench_impl_ops *ops;
	int mode;    /* the ops' open mode */
	int compare; /* 0: always; else the BENCH_COMPARE_* it belongs to */
	int in_thread_table;
	int optional; /* 1: an open that fails leaves it out, with the reason */
} lineup[] = {
	{ "ours", &bench_ours_ops, 0, 0, 1, 0 },
	{ "ours-blinded", &bench_ours_ops, 1, 0, 0, 0 },
	{ "gmp", &bench_gmp_ops, 0, BENCH_COMPARE_GMP, 0, 0 },
	{ "openssl", &bench_ossl_ops, BENCH_OSSL_EVP, BENCH_COMPARE_OPENSSL, 1, 0 },
	{ "openssl-noblind", &bench_ossl_ops, BENCH_OSSL_NOBLIND, BENCH_COMPARE_OPENSSL, 0, 0 },
#if defined(__x86_64__)
	/* OpenSSL with its IFMA code masked by OPENSSL_ia32cap (worker.h):
	 * x86-64's CPUID bits, meaningless on another CPU. */
	{ "openssl-noifma", &bench_worker_ops, 0, BENCH_COMPARE_OPENSSL, 0, 0 },
#endif
	/* The newest OpenSSL, where its environment is (wheel.h): a missing
	 * wheel leaves it out of the run, with the reason in the header. */
	{ "openssl-wheel", &bench_wheel_ops, 0, BENCH_COMPARE_WHEEL, 0, 0 },
	{ "openssl-wheel-oaep", &bench_wheel_oaep_ops, 0, BENCH_COMPARE_WHEEL, 0, 0 },
	/* Intel's ipp-crypto, where libippcp loaded (ipp.h); its eight-lane
	 * RSA only where the CPU and the library run it. */
	{ "ipp-crypto", &bench_ipp_ops, 0, BENCH_COMPARE_IPP, 0, 0 },
	{ "ipp-crypto-mb8", &bench_ipp_mb8_ops, 0, BENCH_COMPARE_IPP, 0, 1 },
};
#define LINEUP_SIZE ((int)(sizeof(lineup) / sizeof(lineup[0])))

static int wanted(const struct entry *e, int compare)
{
	return e->compare == 0 || (e->compare & compare) != 0;
}

int bench_lineup_names(const char **names, int cap, int compare)
{
	int n = 0;
	for (int i = 0; i < LINEUP_SIZE && n < cap; i++)
		if (wanted(&lineup[i], compare))
			names[n++] = lineup[i].name;
	return n;
}

void bench_lineup_close(struct bench_lineup *l)
{
	for (int i = 0; i < l->n; i++) {
		struct bench_impl *im = &l->impl[i];
		if (im->h != NULL)
			im->ops->close(im->h);
		free(im->out);
	}
	for (int i = 0; i < l->nskipped; i++)
		free(l->skipped_note[i]);
	memset(l, 0, sizeof(*l));
}

int bench_lineup_open(struct bench_lineup *l, const struct bench_key *k,
		      int compare, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	for (int i = 0; i < LINEUP_SIZE; i++) {
		const struct entry *e = &lineup[i];
		if (!wanted(e, compare))
			continue;
		const uint8_t *in;
		bench_key_timed(k, e->ops->input, &in, NULL);
		if (in == NULL) {
			l->skipped_input[l->nskipped] = e->ops->input;
			l->skipped[l->nskipped++] = e->name;
			continue;
		}
		struct bench_impl *im = &l->impl[l->n++];
		im->name = e->name;
		im->ops = e->ops;
		im->in_thread_table = e->in_thread_table;
		char why[256];
		im->h = e->ops->open(&k->input, e->mode, why, sizeof(why));
		if (im->h == NULL && e->optional) {
			memset(im, 0, sizeof(*im));
			l->n--;
			l->skipped_input[l->nskipped] = e->ops->input;
			l->skipped[l->nskipped] = e->name;
			if ((l->skipped_note[l->nskipped++] = strdup(why)) == NULL) {
				snprintf(err, errlen, "out of memory");
				bench_lineup_close(l);
				return -1;
			}
			continue;
		}
		if (im->h == NULL) {
			snprintf(err, errlen, "%s on the key %s: %s", e->name, k->label, why);
			bench_lineup_close(l);
			return -1;
		}
		im->blinding = e->ops->blinding(im->h);
		im->fault_check = e->ops->fault_check(im->h);
	}
	return 0;
}

const struct bench_impl *bench_lineup_find(const struct bench_lineup *l,
					   const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->impl[i].name, name))
			return &l->impl[i];
	return NULL;
}
