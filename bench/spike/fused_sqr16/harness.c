/* The fused squaring spike's check and timing (run.sh builds it): 2000
 * random pairs (p and q random 1024-bit odd, q also 2^1024 - 1; q's operand
 * random below 2w, also 2w - 1), the fused kernel on odd ones and the two
 * squarings apart on even ones, against GMP: p's result exact, q's
 * congruent to a^2 R^-1 mod w, below 2w, digits below 2^29, lanes 38 and 39
 * zero.  Then chains of 32 dependent calls of four variants, alternating,
 * best of `trials`, rdtsc ticks a call. */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

void big_mont_sqr_vec_adx(uint64_t *r, const uint64_t *a, const uint64_t *n, uint64_t n0, int len);
struct vjob { uint64_t *out; const uint64_t *a; const uint64_t *w; };
/* fused.asm's pair, or fused_avx2.asm's with -DAVX2 */
#ifdef AVX2
#define fused_sqr16 fused2_sqr16
#define vsqr38 vsqr38_avx2
#endif
void fused_sqr16(uint64_t *r, const uint64_t *a, const uint64_t *n, uint64_t n0, const struct vjob *q);
void vsqr38(const struct vjob *q);

#define L 16
#define N 38
static gmp_randstate_t rs;

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
	gmp_randinit_default(rs); gmp_randseed_ui(rs, 1234);
	mpz_t p, q, w, k0, b, t, a, r, e, R64, R28;
	mpz_inits(p, q, w, k0, b, t, a, r, e, R64, R28, NULL);
	mpz_setbit(R64, 1024); mpz_setbit(R28, 28 * N);
	uint64_t P[L], PA[L], PR[L], QW[40], QA[40], QO[40];
	int bad = 0;
	for (int rep = 0; rep < 2000; rep++) {
		mpz_urandomb(p, rs, 1024); mpz_setbit(p, 1023); mpz_setbit(p, 0);
		mpz_urandomb(q, rs, 1024); mpz_setbit(q, 1023); mpz_setbit(q, 0);
		if (rep % 3 == 1) { mpz_set_ui(q, 0); mpz_setbit(q, 1024); mpz_sub_ui(q, q, 1); }
		mpz_set_ui(b, 1); mpz_mul_2exp(b, b, 28);
		mpz_invert(k0, q, b); mpz_sub(k0, b, k0);
		mpz_mul(w, q, k0);
		to_digits(QW, w);
		/* n0 */
		mpz_set_ui(b, 1); mpz_mul_2exp(b, b, 64); mpz_invert(t, p, b); mpz_sub(t, b, t);
		uint64_t n0 = mpz_get_ui(t);
		to_words(P, L, p);
		mpz_urandomm(a, rs, p); to_words(PA, L, a);
		mpz_mul_2exp(t, w, 1); mpz_urandomm(e, rs, t);
		if (rep % 5 == 2) mpz_sub_ui(e, t, 1);
		to_digits(QA, e);
		struct vjob job = { QO, QA, QW };
		int mode = rep & 1;
		if (mode) fused_sqr16(PR, PA, P, n0, &job);
		else { big_mont_sqr_vec_adx(PR, PA, P, n0, L); vsqr38(&job); }
		/* check p */
		mpz_mul(t, a, a); mpz_invert(b, R64, p); mpz_mul(t, t, b); mpz_mod(t, t, p);
		from_words(r, PR, L);
		if (mpz_cmp(r, t) != 0) { if (bad++ < 5) printf("p wrong rep %d\n", rep); }
		/* check q: out = e^2 / R28 mod w, < 2w, digits < 2^29 */
		mpz_mul(t, e, e); mpz_invert(b, R28, w); mpz_mul(t, t, b); mpz_mod(t, t, w);
		from_digits(r, QO);
		mpz_mod(b, r, w);
		mpz_mul_2exp(k0, w, 1);
		int dig = 1; for (int i = 0; i < 40; i++) if (QO[i] >> 29) dig = 0;
		if (mpz_cmp(b, t) != 0 || mpz_cmp(r, k0) >= 0 || !dig || QO[38] || QO[39]) { if (bad++ < 5) printf("q wrong rep %d mode %d\n", rep, mode); }
	}
	printf("checks: %d bad of 2000\n", bad);
	if (bad) return 1;
	/* timing: chains of 32 dependent calls */
	struct vjob job = { QA, QA, QW };
	uint64_t n0 = 0; { mpz_set_ui(b, 1); mpz_mul_2exp(b, b, 64); mpz_invert(t, p, b); mpz_sub(t, b, t); n0 = mpz_get_ui(t); }
	uint64_t best[4] = { ~0ull, ~0ull, ~0ull, ~0ull };
	uint64_t QB[16];
	mpz_urandomm(a, rs, p); to_words(QB, L, a);
	for (long tr = 0; tr < trials; tr++) {
		for (int v = 0; v < 4; v++) {
			uint64_t t0 = __rdtsc();
			for (int c = 0; c < 32; c++) {
				switch (v) {
				case 0: big_mont_sqr_vec_adx(PA, PA, P, n0, L); big_mont_sqr_vec_adx(QB, QB, P, n0, L); break;
				case 1: fused_sqr16(PA, PA, P, n0, &job); break;
				case 2: big_mont_sqr_vec_adx(PA, PA, P, n0, L); vsqr38(&job); break;
				case 3: vsqr38(&job); break;
				}
			}
			uint64_t d = __rdtsc() - t0;
			if (d < best[v]) best[v] = d;
		}
	}
	const char *nm[4] = { "two adx sqr16", "fused", "adx + vsqr38", "vsqr38 alone" };
	for (int v = 0; v < 4; v++) printf("%-16s %7.1f ticks/call  %.3f of two adx\n", nm[v], best[v] / 32.0, (double)best[v] / best[0]);
	return 0;
}
