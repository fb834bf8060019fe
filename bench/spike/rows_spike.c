/* rows_spike.c -- ticks (rdtsc) per product of gen_rows.py's variants of
 * the lane kernels' column step, every side alternating in one process,
 * least of TRIALS calls (each REPS passes over the rows) per side, for
 * ROUNDS rounds; each round also prints every side over a4win's in the
 * same form.
 *   python3 gen_rows.py /tmp/rows_spike.asm
 *   nasm -f elf64 /tmp/rows_spike.asm -o /tmp/rows_spike.o
 *   cc -O2 -o /tmp/rows_spike rows_spike.c /tmp/rows_spike.o
 *   /tmp/rows_spike [ROUNDS [TRIALS [REPS]]]
 * Timing only: the columns wrap and are never checked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#define K 37
#define NROWS 40
typedef void fn(uint64_t *t, const uint64_t *y, const uint64_t *x, long reps);
#define V(n) fn spike_##n##_loop, spike_##n##_flat, spike_##n##_flat2;
V(a4win) V(b8mem) V(c6mem) V(e4mem) V(c6win) V(a4s) V(a4s8) V(c6s) V(c6s8)
#define S(n, r) {#n, r, {spike_##n##_loop, spike_##n##_flat, spike_##n##_flat2}}
static const struct { const char *name; int rows; fn *f[3]; } side[] = {
	S(a4win, 4), S(b8mem, 8), S(c6mem, 6), S(e4mem, 4), S(c6win, 6),
	S(a4s, 4), S(a4s8, 4), S(c6s, 6), S(c6s8, 6),
};
static const char *form[3] = {"loop", "flat", "flat2"};
#define NS (int)(sizeof side / sizeof side[0])

static int products(int s, int f)
{
	return (f == 2 ? 2 : NROWS / side[s].rows) * side[s].rows * K;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5, trials = argc > 2 ? atoi(argv[2]) : 300;
	long reps = argc > 3 ? atol(argv[3]) : 4;
	uint64_t *buf = aligned_alloc(4096, 1 << 16);
	memset(buf, 0, 1 << 16);
	/* columns at 0 (up to 85 x 32 bytes), y 13 KiB up, x 32 KiB up */
	uint64_t *t = buf, *y = buf + (12288 + 1024) / 8, *x = buf + 4096;
	for (int i = 0; i < K * 8; i++)
		y[i] = (uint64_t)rand() & 0x0fffffff;
	for (int i = 0; i < 64; i++)
		x[i] = (uint64_t)rand() & 0x0fffffff;
	for (int round = 0; round < rounds; round++) {
		double best[NS][3];
		for (int s = 0; s < NS; s++)
			for (int f = 0; f < 3; f++)
				best[s][f] = 1e300;
		for (int tr = 0; tr < trials; tr++)
			for (int f = 0; f < 3; f++)
				for (int s = 0; s < NS; s++) {
					uint64_t t0 = __rdtsc();
					side[s].f[f](t, y, x, reps);
					double d = (double)(__rdtsc() - t0) / reps / products(s, f);
					if (d < best[s][f])
						best[s][f] = d;
				}
		for (int f = 0; f < 3; f++) {
			printf("round %d %-5s ticks/product:", round, form[f]);
			for (int s = 0; s < NS; s++)
				printf(" %s %.3f", side[s].name, best[s][f]);
			printf("\n              over a4win:");
			for (int s = 1; s < NS; s++)
				printf(" %s %.3f", side[s].name, best[s][f] / best[0][f]);
			printf("\n");
		}
		fflush(stdout);
	}
	return 0;
}
