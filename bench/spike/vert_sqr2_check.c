/*
 * Spike (issue 44, not in the build): big_vert_sqr2_avx2_asm
 * (vert_sqr2_avx2.asm) against the library's big_vert_sqr2_avx2.  Checks
 * first: moduli 2^b - 1, 2^(b-1) + 1, random with long runs and random
 * (b = 64 len, len 24 and 32), each pair of halves with operands 0, 1,
 * w - 1, 2w - 1, all ones below w's top bit and random below 2w, chained
 * through 20 squarings (r == a on every other call): the asm's num must
 * equal the C kernel's word for word (padding included) and be the exact
 * almost-Montgomery value (a^2 + M w) / R against GMP, below 2w.  Then
 * timing: 16 chained calls a trial, C then asm, the least and median of
 * the per-trial ratios.  Usage: vert_sqr2_check SEED TRIALS (run.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <gmp.h>
#include <x86intrin.h>
#include "bignum/vertical/vertical.h"
void big_vert_sqr2_avx2_asm(struct big_vert_num *r, const struct big_vert_num *a, const struct big_vert_mod *mod, struct big_vert_work *work);

static gmp_randstate_t rs;
static int cmp_double(const void *x, const void *y) { double d = *(const double *)x - *(const double *)y; return (d > 0) - (d < 0); }
static void to_num(struct big_vert_num *x, const mpz_t v, int N) {
	memset(x, 0, sizeof *x); size_t c = 0;
	if (mpz_sgn(v)) mpz_export(x->d + 4, &c, -1, 8, 0, 36, v);
	if ((int)c > N) { printf("too long\n"); exit(1); }
}
static void from_num(mpz_t v, const struct big_vert_num *x, int N) { mpz_import(v, N, -1, 8, 0, 36, x->d + 4); }
static void mod_from(struct big_vert_mod *m, mpz_t p, int len) {
	uint64_t c[32] = {0}; size_t cnt; mpz_export(c, &cnt, -1, 8, 0, 0, p);
	big_vert_mod_init(m, c, len);
}
static void w_of(mpz_t w, const struct big_vert_mod *m) {
	struct big_vert_num t; memset(&t, 0, sizeof t);
	memcpy(t.d + 4, m->nsh[0], 8 * m->digits); from_num(w, &t, m->digits);
}
static void pick_mod(mpz_t p, int len, int kind) {
	int b = 64 * len;
	if (kind == 0) { mpz_ui_pow_ui(p, 2, b); mpz_sub_ui(p, p, 1); }
	else if (kind == 1) { mpz_ui_pow_ui(p, 2, b - 1); mpz_add_ui(p, p, 1); }
	else if (kind == 2) { mpz_rrandomb(p, rs, b); mpz_setbit(p, b - 1); mpz_setbit(p, 0); }
	else { mpz_urandomb(p, rs, b); mpz_setbit(p, b - 1); mpz_setbit(p, 0); }
}
static int check_gmp(const struct big_vert_num *r, const struct big_vert_num *a, const mpz_t w, int N) {
	mpz_t x, y, R, t; mpz_inits(x, y, R, t, NULL);
	from_num(x, a, N); from_num(y, r, N);
	mpz_mul(x, x, x); mpz_ui_pow_ui(R, 2, 28 * N);
	mpz_mul(t, y, R); mpz_sub(t, t, x); mpz_mod(t, t, w);
	int ok = mpz_sgn(t) == 0; mpz_mul_ui(t, w, 2); ok &= mpz_cmp(y, t) < 0;
	for (int i = 0; i < 4; i++) ok &= r->d[i] == 0;
	for (int i = 4 + N; i < BIG_VERT_NUM_WORDS; i++) ok &= r->d[i] == 0;
	for (int i = 0; i < N; i++) ok &= r->d[4 + i] < (1u << 28);
	mpz_clears(x, y, R, t, NULL); return ok;
}
static struct big_vert_mod mod[2]; static struct big_vert_work work[2], work2[2];
static struct big_vert_num A[2], RC[2], RA[2];
int main(int argc, char **argv) {
	unsigned long seed = argc > 1 ? strtoul(argv[1], 0, 10) : 44;
	int trials = argc > 2 ? atoi(argv[2]) : 300;
	printf("seed %lu\n", seed); gmp_randinit_default(rs); gmp_randseed_ui(rs, seed);
	mpz_t p, q, w[2], v, t; mpz_inits(p, q, w[0], w[1], v, t, NULL);
	long checks = 0, bad = 0;
	for (int li = 0; li < 2; li++) {
		int len = li ? 32 : 24, N = big_vert_digits(len);
		for (int kp = 0; kp < 4; kp++) for (int kq = 0; kq < 4; kq++) for (int rep = 0; rep < (kp >= 2 || kq >= 2 ? 3 : 1); rep++) {
			pick_mod(p, len, kp); pick_mod(q, len, kq);
			mod_from(&mod[0], p, len); mod_from(&mod[1], q, len);
			w_of(w[0], &mod[0]); w_of(w[1], &mod[1]);
			for (int e = 0; e < 8; e++) {
				for (int h = 0; h < 2; h++) {
					switch (e) {
					case 0: mpz_set_ui(v, 0); break;
					case 1: mpz_set_ui(v, 1); break;
					case 2: mpz_sub_ui(v, w[h], 1); break;
					case 3: mpz_mul_ui(v, w[h], 2); mpz_sub_ui(v, v, 1); break;
					case 4: mpz_set_ui(v, 1); mpz_mul_2exp(v, v, mpz_sizeinbase(w[h], 2) - 1); mpz_sub_ui(v, v, 1); break;
					default: mpz_mul_ui(t, w[h], 2); mpz_urandomm(v, rs, t); break;
					}
					to_num(&A[h], v, N);
				}
				/* chain of 20, comparing each step; alternate aliasing */
				struct big_vert_num a2[2]; memcpy(a2, A, sizeof A); memset(RC, 0, sizeof RC); memset(RA, 0, sizeof RA);
				for (int s = 0; s < 20; s++) {
					big_vert_sqr2_avx2(RC, a2, mod, work);
					if (s & 1) { memcpy(RA, a2, sizeof RA); big_vert_sqr2_avx2_asm(RA, RA, mod, work2); }
					else { memset(RA, 0, sizeof RA); big_vert_sqr2_avx2_asm(RA, a2, mod, work2); }
					checks++;
					if (memcmp(RC, RA, sizeof RC)) { if (bad++ < 5) { printf("MISMATCH len %d kp %d kq %d e %d s %d\n", len, kp, kq, e, s); for (int h=0;h<2;h++) for (int i=0;i<4+N+4;i++) if (RC[h].d[i]!=RA[h].d[i]) printf(" h%d d[%d] %lx %lx\n",h,i,RC[h].d[i],RA[h].d[i]); } }
					for (int h = 0; h < 2; h++) if (!check_gmp(&RA[h], &a2[h], w[h], N)) { if (bad++ < 5) printf("GMP FAIL len %d h %d e %d s %d\n", len, h, e, s); }
					memcpy(a2, RC, sizeof a2);
				}
			}
		}
	}
	printf("checks %ld bad %ld\n", checks, bad);
	if (bad) return 1;
	/* timing: alternating, 16 chained calls per trial */
	for (int li = 0; li < 2; li++) {
		int len = li ? 32 : 24, N = big_vert_digits(len);
		pick_mod(p, len, 3); pick_mod(q, len, 3); mod_from(&mod[0], p, len); mod_from(&mod[1], q, len);
		w_of(w[0], &mod[0]); w_of(w[1], &mod[1]);
		for (int h = 0; h < 2; h++) { mpz_urandomm(v, rs, w[h]); to_num(&A[h], v, N); }
		memcpy(RC, A, sizeof A); memcpy(RA, A, sizeof A);
		double *ratio = malloc(sizeof(double) * trials); uint64_t bc = ~0ull, ba = ~0ull;
		for (int tr = 0; tr < trials + 20; tr++) {
			uint64_t t0 = __rdtsc();
			for (int k = 0; k < 16; k++) big_vert_sqr2_avx2(RC, RC, mod, work);
			uint64_t t1 = __rdtsc();
			for (int k = 0; k < 16; k++) big_vert_sqr2_avx2_asm(RA, RA, mod, work2);
			uint64_t t2 = __rdtsc();
			if (tr < 20) continue;
			uint64_t c = t1 - t0, a = t2 - t1;
			if (c < bc) bc = c; if (a < ba) ba = a;
			ratio[tr - 20] = (double)a / c;
		}
		qsort(ratio, trials, sizeof *ratio, cmp_double);
		if (memcmp(RC, RA, sizeof RC)) printf("timing chains differ!\n");
		printf("N=%d  C min %lu  asm min %lu ticks/16 calls  asm/C: least %.3f median %.3f  min/min %.3f  q1 %.3f q3 %.3f\n", N, bc, ba, ratio[0], ratio[trials/2], (double)ba/bc, ratio[trials/4], ratio[3*trials/4]);
		free(ratio);
	}
	return 0;
}
