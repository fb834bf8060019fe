/* calib.c -- ticks (rdtsc) per instruction of gen_calib.py's probes, least of
 * 200 loops of 100 x 16, three rounds; "dep vpaddq" is one core cycle.
 *   python3 gen_calib.py /tmp/calib.asm && nasm -f elf64 /tmp/calib.asm -o /tmp/calib.o
 *   cc -O2 -o /tmp/calib calib.c /tmp/calib.o && /tmp/calib */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
typedef void fn(const void *p, long iters);
fn cal_mul, cal_load, cal_load128, cal_mulmem, cal_addmem, cal_add, cal_muladd, cal_mulmemadd, cal_store, cal_load_store, cal_dep, cal_storemix;
static const struct { const char *n; fn *f; int per; } p[] = {
	{"vpmuludq r", cal_mul, 16}, {"ymm load", cal_load, 16}, {"xmm load", cal_load128, 16},
	{"vpmuludq m", cal_mulmem, 16}, {"vpaddq m", cal_addmem, 16}, {"vpaddq r", cal_add, 16},
	{"mul+add r (pair)", cal_muladd, 16}, {"mul m+add r (pair)", cal_mulmemadd, 16}, {"store", cal_store, 16}, {"dep vpaddq (1 cycle)", cal_dep, 16}, {"mul+add+store", cal_storemix, 16}, {"load+store (pair)", cal_load_store, 16}};
int main(void)
{
	enum { NP = sizeof p / sizeof p[0], ROUNDS = 3 };
	double best[NP][ROUNDS];
	void *buf = aligned_alloc(4096, 16384);
	for (int i = 0; i < 16384 / 8; i++)
		((uint64_t *)buf)[i] = i;
	for (int round = 0; round < ROUNDS; round++)
		for (unsigned k = 0; k < NP; k++) {
			uint64_t least = UINT64_MAX;
			for (int t = 0; t < 200; t++) {
				uint64_t t0 = __rdtsc();
				p[k].f(buf, 100);
				uint64_t d = __rdtsc() - t0;
				if (d < least)
					least = d;
			}
			best[k][round] = (double)least / (100.0 * p[k].per);
		}
	for (unsigned k = 0; k < NP; k++) {
		printf("%-22s", p[k].n);
		for (int round = 0; round < ROUNDS; round++)
			printf(" %.3f", best[k][round]);
		printf("  ticks an instruction (a pair)\n");
	}
	return 0;
}
