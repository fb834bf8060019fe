/*
 * big_mont_pow_ct: out = base^e in Montgomery form, fixed window, constant
 * time in the values of base, e and n (the lengths len and elen may leak).
 *
 * Every window of all elen chunks is processed, so e's value (its bit
 * length included) never changes the sequence of operations: w squarings
 * and one product per window, whatever the window's bits.  The table entry
 * is read by a masked scan over the whole table (big_ct_select), so no
 * address depends on e; the read comes with the window's last squaring
 * (big_mont_sqr_select_vec), which runs the two together where a kernel
 * can.  The products are the fixed-length fused kernels,
 * fully reduced with a masked final subtraction.
 *
 * Table: table[i] = base^i (Montgomery form), i < 2^w, even entries by
 * squaring.  Scratch: 2^w * len chunks for the table plus len for the
 * selected entry.
 *
 * big_mont_pow_ct_halves runs one or two such exponentiations (the CRT's
 * halves) with each kernel call of one followed by the same call of the
 * other: the sequence of each is unchanged, each with its own table.
 */
#include "internal.h"

int big_mont_pow_ct_window(int ebits)
{
	/* Products per exponent bit ~ 1 + 1/w, plus 2^w for the table and a
	 * 2^w*len chunk scan per window: these are the minima measured by
	 * that count. */
	static const int above[4] = { 24, 96, 384, 1536 };
	return big_window_width(ebits, above, 2);
}

size_t big_mont_pow_ct_scratch(int len, int elen)
{
	const int w = big_mont_pow_ct_window(elen * BIG_CHUNK_SIZE);
	return ((size_t)1 << w) * (size_t)len + (size_t)len;
}

/* Bits [pos, pos+width) of e[0..elen); positions are public.  Forced
 * inline: GCC kept it a call in the window loop, a measurable cost at
 * RSA-1024 (docs/design-notes.md). */
static inline __attribute__((always_inline)) chunk_t window_at(const chunk_t *e, int elen, int pos, int width)
{
	const int idx = pos / BIG_CHUNK_SIZE, shift = pos % BIG_CHUNK_SIZE;
	chunk_t v = e[idx] >> shift;
	if (shift + width > BIG_CHUNK_SIZE && idx + 1 < elen)
		v |= e[idx + 1] << (BIG_CHUNK_SIZE - shift);
	return v & (((chunk_t)1 << width) - 1);
}

void big_mont_pow_ct_halves(const struct big_mont_pow_half *h, int count, int elen, int len,
			    big_mont_sqr_select_fn *sqr_select)
{
	const int ebits = elen * BIG_CHUNK_SIZE;
	const int w = big_mont_pow_ct_window(ebits);
	const int entries = 1 << w;
#define TABLE(k) (h[k].scratch)
#define ENTRY(k, i) (TABLE(k) + (size_t)(i) * (size_t)len)
#define SEL(k) ENTRY(k, entries)
#define EACH(k) for (int k = 0; k < count; k++)

	EACH(k) {
		for (int j = 0; j < len; j++) {
			ENTRY(k, 0)[j] = h[k].one_m[j];
			ENTRY(k, 1)[j] = h[k].base_m[j];
		}
	}
	for (int i = 2; i < entries; i++) {
		EACH(k) {
			if (i % 2 == 0)
				big_mont_sqr_vec(ENTRY(k, i), ENTRY(k, i / 2), h[k].n, h[k].n0, len);
			else
				big_mont_mul_vec(ENTRY(k, i), ENTRY(k, i - 1), h[k].base_m, h[k].n,
						 h[k].n0, len);
		}
	}

	/* The top window takes the leftover bits, so the others are whole. */
	int top = ebits % w;
	if (top == 0)
		top = w;
	int pos = ebits - top;
	EACH(k) big_ct_select(h[k].out, TABLE(k), entries, window_at(h[k].e, elen, pos, top), len);
	while (pos > 0) {
		pos -= w;
		for (int s = 0; s < w - 1; s++) {
			EACH(k) big_mont_sqr_vec(h[k].out, h[k].out, h[k].n, h[k].n0, len);
		}
		EACH(k) {
			sqr_select(h[k].out, h[k].out, h[k].n, h[k].n0, len, SEL(k), TABLE(k),
				   entries, window_at(h[k].e, elen, pos, w));
		}
		EACH(k) big_mont_mul_vec(h[k].out, h[k].out, SEL(k), h[k].n, h[k].n0, len);
	}
#undef EACH
#undef SEL
#undef ENTRY
#undef TABLE
}

void big_mont_pow_ct_using(chunk_t *out, const chunk_t *base_m, const chunk_t *e,
			   int elen, const chunk_t *n, chunk_t n0,
			   const chunk_t *one_m, int len, chunk_t *scratch,
			   big_mont_sqr_select_fn *sqr_select)
{
	const struct big_mont_pow_half half = {
		.out = out, .base_m = base_m, .e = e, .n = n, .one_m = one_m, .n0 = n0,
		.scratch = scratch,
	};
	big_mont_pow_ct_halves(&half, 1, elen, len, sqr_select);
}

void big_mont_pow_ct(chunk_t *out, const chunk_t *base_m, const chunk_t *e,
		     int elen, const chunk_t *n, chunk_t n0,
		     const chunk_t *one_m, int len, chunk_t *scratch)
{
	big_mont_pow_ct_using(out, base_m, e, elen, n, n0, one_m, len, scratch,
			      big_mont_sqr_select_vec);
}
