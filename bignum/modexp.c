/*
 * big_modexp: result = a^e mod n, sliding window, VARIABLE TIME (branches
 * and table addresses follow the bits of e and the size of a): for public
 * exponents (RSA public operation, fault checks, blinding factors).
 *
 * n odd and > 1 (else BIG_INVALID_ARGS); a any length (reduced by division
 * when >= n); n_rr = R^2 mod n or NULL (then computed here).  e == 0 gives
 * 1.  The window width grows with e's bit length; the table holds the odd
 * powers a, a^3, ..., a^(2^w - 1) in Montgomery form.  Scratch is one
 * allocation per call (big_modexp_open), wiped before it is freed.
 * result is normalised and may alias any input.
 */
#include "internal.h"

#include <string.h>

static int window_width(int ebits)
{
	/* Balance 2^(w-1) table products against ebits/(w+1) window products. */
	static const int above[4] = { 23, 79, 239, 671 };
	return big_window_width(ebits, above, 1);
}

static int bit_at(const BIGNUM *e, int i)
{
	return (int)((e->value[i / BIG_CHUNK_SIZE] >> (i % BIG_CHUNK_SIZE)) & 1);
}

BIG_ERR_CODE big_modexp(BIGNUM *result, const BIGNUM *a, const BIGNUM *e,
			const BIGNUM *n, const BIGNUM *n_rr)
{
	const int ebits = e->len > 0 ? big_bitlength(e) : 0;
	const int w = window_width(ebits);
	const int entries = 1 << (w - 1);
	struct big_modexp_frame f;
	/* rr, one, a_m, a2, acc and the table's entries */
	BIG_ERR_CODE err = big_modexp_open(&f, n, n_rr, 5 + entries, 0);
	if (err != BIG_OK)
		return err;
	const int len = f.len;
	chunk_t *rr = f.scratch, *one = rr + len, *a_m = one + len;
	chunk_t *a2 = a_m + len, *acc = a2 + len, *table = acc + len;

	/* a mod n, zero-padded into a_m. */
	const int alen = a->len > 0 ? big_trimmed_len(a) : 1;
	BIGNUM tmp;
	int tmp_live = 0;
	const BIGNUM *ar = a;
	if (a->len > 0 && (alen > len || big_cmp_abs(a, n) >= 0)) {
		err = big_init(&tmp, len);
		if (err == BIG_OK) {
			tmp_live = 1;
			err = big_div_pos(NULL, &tmp, a, n);
		}
		ar = &tmp;
	}
	if (err == BIG_OK)
		err = big_load_vec(a_m, len, ar);
	if (err != BIG_OK)
		goto out;

	const chunk_t *nv = n->value;
	const chunk_t n0 = f.n0;
	if (ebits == 0) {
		memcpy(acc, one, sizeof(chunk_t) * (size_t)len);
	} else {
		big_mont_mul_vec(a_m, a_m, rr, nv, n0, len);
		memcpy(table, a_m, sizeof(chunk_t) * (size_t)len);
		if (entries > 1)
			big_mont_sqr_vec(a2, a_m, nv, n0, len);
		for (int i = 1; i < entries; i++)
			big_mont_mul_vec(table + (size_t)i * len,
					 table + (size_t)(i - 1) * len, a2, nv,
					 n0, len);

		int started = 0;
		int i = ebits - 1;
		while (i >= 0) {
			if (!bit_at(e, i)) {
				big_mont_sqr_vec(acc, acc, nv, n0, len);
				i--;
				continue;
			}
			/* Longest window of <= w bits from i ending in a 1. */
			int low = i - w + 1 < 0 ? 0 : i - w + 1;
			while (!bit_at(e, low))
				low++;
			int value = 0;
			for (int k = i; k >= low; k--)
				value = (value << 1) | bit_at(e, k);
			const chunk_t *entry = table + (size_t)(value >> 1) * len;
			if (!started) {
				memcpy(acc, entry, sizeof(chunk_t) * (size_t)len);
				started = 1;
			} else {
				for (int k = i; k >= low; k--)
					big_mont_sqr_vec(acc, acc, nv, n0, len);
				big_mont_mul_vec(acc, acc, entry, nv, n0, len);
			}
			i = low - 1;
		}
		big_mont_mul_vec(acc, acc, one, nv, n0, len);
	}

	err = big_store_vec(result, acc, len);
	if (err == BIG_OK)
		result->len = big_trimmed_len(result);
out:
	if (tmp_live)
		big_finish(&tmp);
	big_modexp_close(&f);
	return err;
}
