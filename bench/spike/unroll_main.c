/*
 * bench/spike/unroll_main.c -- times bench/spike/unroll_gen.py's loops
 * (build line there): least rdtsc ticks per body copy over 200 runs of
 * 1000 iterations, the three alternating, five rounds.
 *   unroll U   (U: the copies of the body unroll_gen.py was run with)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

typedef void loop_fn(uint64_t *col, uint64_t *win, uint64_t *sc, long n);
loop_fn vec_only, sca_only, both;
static uint64_t col[64 * 4] __attribute__((aligned(64)));
static uint64_t win[64 * 4] __attribute__((aligned(64)));
static uint64_t sc[32];

int main(int argc, char **argv)
{
	long u = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	if (u < 1) {
		fprintf(stderr, "unroll: give U, the copies of the body "
				"unroll_gen.py emitted (a positive number)\n");
		return 2;
	}
	for (int i = 0; i < 32; i++)
		sc[i] = UINT64_C(0x123456789abcdef) * (uint64_t)(i + 1);
	for (int i = 0; i < 256; i++)
		win[i] = (uint64_t)i * 7919;
	loop_fn *f[3] = {vec_only, sca_only, both};
	for (int k = 0; k < 5; k++) {
		uint64_t best[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
		for (int r = 0; r < 200; r++)
			for (int v = 0; v < 3; v++) {
				uint64_t t = __rdtsc();
				f[v](col, win, sc, 1000);
				t = __rdtsc() - t;
				if (t < best[v])
					best[v] = t;
			}
		double d[3];
		for (int v = 0; v < 3; v++)
			d[v] = (double)best[v] / 1000.0 / (double)u;
		printf("ticks a body: vec %.1f  sca %.1f  both %.1f  (sum %.1f; "
		       "both / sum %.2f)\n", d[0], d[1], d[2], d[0] + d[1],
		       d[2] / (d[0] + d[1]));
	}
	return 0;
}
