/*
 * big_modexp_ct_base: result = a^e mod n, constant time in the value of a,
 * variable time in the public exponent e (contract in bignum.h).
 *
 * Left-to-right square and multiply in Montgomery form on fixed-length
 * vectors: the sequence of products follows the bits of e, which is
 * public, and never the value of a; every product is a fused constant-time
 * kernel with a masked final subtraction, and nothing trims, compares or
 * divides a.
 *
 * The first product, R^2 * a, takes R^2 (< n) as its reduced factor, so a
 * may be any len-chunk value, even >= n.  The product for e's last bit
 * takes a itself, not a*R: (a^(e-1) R) * a / R is a^e mod n already out of
 * Montgomery form, so no conversion product follows (for an even e that
 * product is by 1 instead).
 *
 * Scratch: four vectors of BIG_MAX_MODULUS_CHUNKS chunks on the stack, the
 * ones that held a value derived from a wiped before the return.
 *
 * In the ifma variant, for the moduli big_r52_ct_base_digits serves (16
 * and 32 chunks: the fault checks of RSA-1024 and RSA-2048), the same
 * left-to-right square and multiply runs in radix 2^52 on AVX-512 IFMA
 * instead (radix52/public_pow.c), its scratch on the stack too: it was
 * measured faster than adx at both (docs/design-notes.md, "The fault
 * check in radix 2^52").
 */
#include "internal.h"
#include "radix52/radix52.h"

#include <string.h>

static int bit_at(const BIGNUM *e, int i)
{
	return (int)((e->value[i / BIG_CHUNK_SIZE] >> (i % BIG_CHUNK_SIZE)) & 1);
}

void big_pow_public_vec(chunk_t *acc, const chunk_t *x, chunk_t *rr, const BIGNUM *e,
			int ebits, const chunk_t *nv, chunk_t n0, int len, chunk_t *xm)
{
	if (ebits == 0) {
		for (int j = 0; j < len; j++)
			acc[j] = j == 0;
	} else {
		big_mont_mul_vec(xm, rr, x, nv, n0, len); /* a*R mod n */
		chunk_t *one = rr; /* R^2 served the first product only */
		for (int j = 0; j < len; j++)
			one[j] = j == 0;
		memcpy(acc, xm, sizeof(chunk_t) * (size_t)len);
		for (int bit = ebits - 2; bit >= 1; bit--) {
			big_mont_sqr_vec(acc, acc, nv, n0, len);
			if (bit_at(e, bit))
				big_mont_mul_vec(acc, acc, xm, nv, n0, len);
		}
		const chunk_t *last = one; /* e == 1: a*R times 1 */
		if (ebits >= 2) {
			big_mont_sqr_vec(acc, acc, nv, n0, len);
			last = bit_at(e, 0) ? x : one;
		}
		big_mont_mul_vec(acc, acc, last, nv, n0, len);
	}
}

BIG_ERR_CODE big_modexp_ct_base(BIGNUM *result, const BIGNUM *a,
				const BIGNUM *e, const BIGNUM *n,
				BIG_CHUNK_TYPE n0, const BIGNUM *n_rr)
{
	chunk_t x[BIG_MAX_MODULUS_CHUNKS], xm[BIG_MAX_MODULUS_CHUNKS];
	chunk_t acc[BIG_MAX_MODULUS_CHUNKS], rr[BIG_MAX_MODULUS_CHUNKS];
	int len;
	BIG_ERR_CODE err = big_load_mod_vecs(&len, n, 2, (chunk_t *[]){ x, rr },
					     (const BIGNUM *[]){ a, n_rr });
	if (err == BIG_OK) {
		const chunk_t *nv = n->value;
		const int ebits = big_bitlength(e);
#if BIG_CHUNK_SIZE == 64 && BIG_R52_HAVE_IFMA_BUILD
		const int digits = big_cpu_bound() == BIG_CPU_IFMA ? big_r52_ct_base_digits(len) : 0;
		if (digits) {
			const struct big_r52_ops ifma = BIG_R52_OPS_INIT(ifma);
			uint64_t work[BIG_R52_CT_BASE_SCRATCH_MAX];
			big_r52_ct_base_pow(acc, x, e->value, ebits, nv, rr, len,
					    digits, &ifma, work);
			big_wipe(work, sizeof(work));
		} else
#endif
			big_pow_public_vec(acc, x, rr, e, ebits, nv, n0, len, xm);
		/* Every input is consumed: result may be grown even if it
		 * aliases one. */
		err = big_store_vec(result, acc, len);
	}
	big_wipe(x, sizeof(chunk_t) * (size_t)len);
	big_wipe(xm, sizeof(chunk_t) * (size_t)len);
	big_wipe(acc, sizeof(chunk_t) * (size_t)len);
	return err;
}
