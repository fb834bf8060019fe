/*
 * big_r52_from_words, big_r52_to_words: 64-bit words <-> one half of a
 * radix-2^52 dual number (contracts: radix52.h).  Digit j is bits
 * [52j, 52j + 52): word 52j / 64 from bit 52j % 64, and the next word too
 * when that offset is above 12.  Positions are public; no branch or
 * address depends on a value.
 */
#include "radix52.h"

void big_r52_from_words(uint64_t *x, int h, int k, const uint64_t *w,
			int nwords)
{
	for (int j = 0; j < BIG_R52_LANES * BIG_R52_GROUPS(k); j++) {
		const int idx = 52 * j / 64, shift = 52 * j % 64;
		uint64_t d = 0;
		if (j < k && idx < nwords)
			d = w[idx] >> shift;
		if (j < k && shift > 12 && idx + 1 < nwords)
			d |= w[idx + 1] << (64 - shift);
		x[BIG_R52_AT(h, j)] = d & BIG_R52_DIGIT_MASK;
	}
}

void big_r52_to_words(uint64_t *w, int nwords, const uint64_t *x, int h,
		      int k)
{
	for (int i = 0; i < nwords; i++)
		w[i] = 0;
	for (int j = 0; j < k; j++) {
		const int idx = 52 * j / 64, shift = 52 * j % 64;
		const uint64_t d = x[BIG_R52_AT(h, j)];
		if (idx < nwords)
			w[idx] |= d << shift;
		if (shift > 12 && idx + 1 < nwords)
			w[idx + 1] |= d >> (64 - shift);
	}
}
