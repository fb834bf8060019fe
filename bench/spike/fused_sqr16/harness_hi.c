/* fused_hi.asm's and fused_hw.asm's check and timing (-DHW for the
 * second; run.sh builds both): the squaring and the product, each against
 * GMP on 2000 random pairs (odd ones fused, even ones apart; q also
 * 2^1024 - 1, operands 2w - 1), then chains of 32 dependent calls of
 * eight variants, alternating, best of `trials`, rdtsc ticks a call. */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

void big_mont_sqr_vec_adx(uint64_t *r, const uint64_t *a, const uint64_t *n, uint64_t n0, int len);
void big_mont_mul_vec_adx(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *n, uint64_t n0, int len);
struct vjob { uint64_t *out; const uint64_t *a; const uint64_t *w; const uint64_t *b; };
#ifdef HW
#define fusedh_sqr16 fusedw_sqr16
#define fusedh_mul16 fusedw_mul16
#define vsqr38h vsqr38w
#define vmul38h vmul38w
#endif
void fusedh_sqr16(uint64_t *r, const uint64_t *a, const uint64_t *n, uint64_t n0, const struct vjob *q);
void fusedh_mul16(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *n, uint64_t n0, const struct vjob *q);
void vsqr38h(const struct vjob *q);
void vmul38h(const struct vjob *q);

#define L 16
#define N 38
static void to_words(uint64_t *w, int k, const mpz_t x) { memset(w, 0, 8 * k); mpz_export(w, NULL, -1, 8, 0, 0, x); }
static void from_words(mpz_t x, const uint64_t *w, int k) { mpz_import(x, k, -1, 8, 0, 0, w); }
static void to_digits(uint64_t *d, const mpz_t x) {
	mpz_t t; mpz_init_set(t, x); memset(d, 0, 8 * 40);
	for (int i = 0; i < 40; i++) { d[i] = mpz_get_ui(t) & ((1u << 28) - 1); mpz_fdiv_q_2exp(t, t, 28); }
	mpz_clear(t);
}
static void from_digits(mpz_t x, const uint64_t *d) {
	mpz_set_ui(x, 0);
	for (int i = 39; i >= 0; i--) { mpz_mul_2exp(x, x, 28); mpz_add_ui(x, x, d[i]); }
}

int main(int argc, char **argv)
{
	long trials = argc > 1 ? atol(argv[1]) : 300;
	gmp_randstate_t rs; gmp_randinit_default(rs); gmp_randseed_ui(rs, 4321);
	mpz_t p, q, w, k0, t, u, a, b, e, f, r, R64, R28;
	mpz_inits(p, q, w, k0, t, u, a, b, e, f, r, R64, R28, NULL);
	mpz_setbit(R64, 1024); mpz_setbit(R28, 28 * N);
	uint64_t P[L], PA[L], PB[L], PR[L], QW[40], QA[40], QB[40], QO[40], n0 = 0;
	int bad = 0;
	for (int rep = 0; rep < 4000; rep++) {
		mpz_urandomb(p, rs, 1024); mpz_setbit(p, 1023); mpz_setbit(p, 0);
		mpz_urandomb(q, rs, 1024); mpz_setbit(q, 1023); mpz_setbit(q, 0);
		if (rep % 3 == 1) { mpz_set_ui(q, 0); mpz_setbit(q, 1024); mpz_sub_ui(q, q, 1); }
		mpz_set_ui(t, 1); mpz_mul_2exp(t, t, 28); mpz_invert(k0, q, t); mpz_sub(k0, t, k0);
		mpz_mul(w, q, k0); to_digits(QW, w);
		mpz_set_ui(t, 1); mpz_mul_2exp(t, t, 64); mpz_invert(u, p, t); mpz_sub(u, t, u); n0 = mpz_get_ui(u);
		to_words(P, L, p);
		mpz_urandomm(a, rs, p); to_words(PA, L, a);
		mpz_urandomm(b, rs, p); to_words(PB, L, b);
		mpz_mul_2exp(t, w, 1); mpz_urandomm(e, rs, t); mpz_urandomm(f, rs, t);
		if (rep % 5 == 2) mpz_sub_ui(e, t, 1);
		if (rep % 7 == 3) mpz_sub_ui(f, t, 1);
		to_digits(QA, e); to_digits(QB, f);
		const int mul = (rep >> 1) & 1, fused = rep & 1;
		struct vjob job = { QO, QA, QW, QB };
		if (!mul) {
			if (fused) fusedh_sqr16(PR, PA, P, n0, &job);
			else { big_mont_sqr_vec_adx(PR, PA, P, n0, L); vsqr38h(&job); }
			mpz_set(b, a); mpz_set(f, e);
		} else {
			if (fused) fusedh_mul16(PR, PA, PB, P, n0, &job);
			else { big_mont_mul_vec_adx(PR, PA, PB, P, n0, L); vmul38h(&job); }
		}
		mpz_mul(t, a, b); mpz_invert(u, R64, p); mpz_mul(t, t, u); mpz_mod(t, t, p);
		from_words(r, PR, L);
		if (mpz_cmp(r, t)) { if (bad++ < 5) printf("p wrong rep %d mul %d fused %d\n", rep, mul, fused); }
		mpz_mul(t, e, f); mpz_invert(u, R28, w); mpz_mul(t, t, u); mpz_mod(t, t, w);
		from_digits(r, QO); mpz_mod(u, r, w); mpz_mul_2exp(k0, w, 1);
		int dig = 1; for (int i = 0; i < 40; i++) if (QO[i] >> 29) dig = 0;
		if (mpz_cmp(u, t) || mpz_cmp(r, k0) >= 0 || !dig || QO[38] || QO[39]) { if (bad++ < 5) printf("q wrong rep %d mul %d fused %d\n", rep, mul, fused); }
	}
	printf("checks: %d bad of 4000\n", bad);
	if (bad) return 1;
	struct vjob job = { QA, QA, QW, QB };
	uint64_t best[8]; for (int v = 0; v < 8; v++) best[v] = ~0ull;
	uint64_t X[L]; memcpy(X, PB, sizeof X);
	for (long tr = 0; tr < trials; tr++)
		for (int v = 0; v < 8; v++) {
			uint64_t t0 = __rdtsc();
			for (int c = 0; c < 32; c++)
				switch (v) {
				case 0: big_mont_sqr_vec_adx(PA, PA, P, n0, L); big_mont_sqr_vec_adx(X, X, P, n0, L); break;
				case 1: fusedh_sqr16(PA, PA, P, n0, &job); break;
				case 2: big_mont_sqr_vec_adx(PA, PA, P, n0, L); vsqr38h(&job); break;
				case 3: vsqr38h(&job); break;
				case 4: big_mont_mul_vec_adx(PA, PA, PB, P, n0, L); big_mont_mul_vec_adx(X, X, PB, P, n0, L); break;
				case 5: fusedh_mul16(PA, PA, PB, P, n0, &job); break;
				case 6: big_mont_mul_vec_adx(PA, PA, PB, P, n0, L); vmul38h(&job); break;
				case 7: vmul38h(&job); break;
				}
			uint64_t d = __rdtsc() - t0;
			if (d < best[v]) best[v] = d;
		}
	const char *nm[8] = { "two adx sqr16", "fused sqr", "adx sqr + vsqr38", "vsqr38 alone",
			      "two adx mul16", "fused mul", "adx mul + vmul38", "vmul38 alone" };
	for (int v = 0; v < 8; v++)
		printf("%-18s %7.1f ticks/call  %.3f of two adx\n", nm[v], best[v] / 32.0,
		       (double)best[v] / best[v < 4 ? 0 : 4]);
	return 0;
}
