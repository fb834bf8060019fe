/*
 * bench/spike/group_loop.c -- times bench/spike/group_loop.asm's loops
 * (build line there): the lane squaring's group pass alone, a passenger
 * double row alone, the two one after the other, and the row woven into
 * the pass.  rdtsc ticks a loop iteration, least of 300 runs of 1000
 * iterations, the four alternating; five rounds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

/* big_lanes_mod's layout at 37 digits: m, then k0 at LN_MOD_K0 */
struct mod37 {
	uint64_t m[8 * 76], rr[8 * 76], k0[8];
	int digits;
} __attribute__((aligned(64)));
struct passenger {
	uint64_t w[256];
} __attribute__((aligned(64)));
typedef void group_fn(const struct mod37 *mod, struct passenger *p, long n);
group_fn group_vec, group_rows, group_seq, group_woven;

int main(void)
{
	static struct mod37 mod;
	static struct passenger p;
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (int i = 0; i < 8 * 76; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		mod.m[i] = x >> 36;
	}
	for (int i = 0; i < 8; i++)
		mod.k0[i] = (x >> 20) & 0xfffffff;
	for (int i = 0; i < 256; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		p.w[i] = x;
	}
	group_fn *f[4] = {group_vec, group_rows, group_seq, group_woven};
	for (int k = 0; k < 5; k++) {
		uint64_t best[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX,
				    UINT64_MAX};
		for (int r = 0; r < 300; r++)
			for (int v = 0; v < 4; v++) {
				uint64_t t = __rdtsc();
				f[v](&mod, &p, 1000);
				t = __rdtsc() - t;
				if (t < best[v])
					best[v] = t;
			}
		double d[4];
		for (int v = 0; v < 4; v++)
			d[v] = (double)best[v] / 1000.0;
		printf("ticks an iteration: pass %.1f  double row %.1f  one "
		       "after the other %.1f  woven %.1f  (woven / (pass + "
		       "row) %.2f, of the row hidden %.0f%%)\n", d[0], d[1],
		       d[2], d[3], d[3] / (d[0] + d[1]),
		       100 * (1 - (d[3] - d[0]) / d[1]));
	}
	return 0;
}
