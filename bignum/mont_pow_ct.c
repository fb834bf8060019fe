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

void big_mont_pow_ct_using(chunk_t *out, const chunk_t *base_m, const chunk_t *e,
			   int elen, const chunk_t *n, chunk_t n0,
			   const chunk_t *one_m, int len, chunk_t *scratch,
			   big_mont_sqr_select_fn *sqr_select)
{
	const int ebits = elen * BIG_CHUNK_SIZE;
	const int w = big_mont_pow_ct_window(ebits);
	const int entries = 1 << w;
	chunk_t *table = scratch;
	chunk_t *sel = scratch + (size_t)entries * (size_t)len;
#define ENTRY(i) (table + (size_t)(i) * (size_t)len)

	for (int j = 0; j < len; j++) {
		ENTRY(0)[j] = one_m[j];
		ENTRY(1)[j] = base_m[j];
	}
	for (int i = 2; i < entries; i++) {
		if (i % 2 == 0)
			big_mont_sqr_vec(ENTRY(i), ENTRY(i / 2), n, n0, len);
		else
			big_mont_mul_vec(ENTRY(i), ENTRY(i - 1), base_m, n, n0, len);
	}

	/* The top window takes the leftover bits, so the others are whole. */
	int top = ebits % w;
	if (top == 0)
		top = w;
	int pos = ebits - top;
	big_ct_select(out, table, entries, window_at(e, elen, pos, top), len);
	while (pos > 0) {
		pos -= w;
		for (int s = 0; s < w - 1; s++)
			big_mont_sqr_vec(out, out, n, n0, len);
		sqr_select(out, out, n, n0, len, sel, table, entries,
			   window_at(e, elen, pos, w));
		big_mont_mul_vec(out, out, sel, n, n0, len);
	}
#undef ENTRY
}

void big_mont_pow_ct(chunk_t *out, const chunk_t *base_m, const chunk_t *e,
		     int elen, const chunk_t *n, chunk_t n0,
		     const chunk_t *one_m, int len, chunk_t *scratch)
{
	big_mont_pow_ct_using(out, base_m, e, elen, n, n0, one_m, len, scratch,
			      big_mont_sqr_select_vec);
}
