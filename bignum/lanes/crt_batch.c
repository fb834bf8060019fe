/*
 * big_modexp_crt_batch: up to eight CRT exponentiations, four in the eight
 * lanes of each lane exponentiation, in radix 2^52 where a build of that radix
 * (IFMA or FMA) is chosen (crt_batch52.c), else in radix 2^28 (contract:
 * lanes.h), here: the steps
 * are crt_batch_impl.h's, on the radix-2^28 lane layer, whose moduli come
 * from big_lanes_mod_init (R^2 mod m in radix 2^28 from the key's R^2 mod
 * m in radix B by two products, no division).
 */
#include "internal.h"
#include "lanes.h"
#include "lanes52.h"

/* Whether primes of len chunks go into the lanes. */
static int batch_len_ok(int len)
{
	if (len < 1 || len > BIG_MAX_MODULUS_CHUNKS)
		return 0;
	const int bits = len * BIG_CHUNK_SIZE;
	const int k = big_lanes_digits(bits);
	const long e = 112L * k - 4L * bits;
	return k != 0 && e >= 0 && e < (long)BIG_LANES_DIGIT_BITS * k;
}

int big_crt_batch_len(const BIGNUM *p, const BIGNUM *q)
{
	if (p == NULL || q == NULL || p->len != q->len || !batch_len_ok(p->len))
		return 0;
	return p->len;
}

#define CB_LANES big_lanes
#define CB_ENTRY big_modexp_crt_batch_ops
#define CB_LEN_OK(len) 1
#define CB_LAYOUT_DIGITS(k) (k)
/* The inputs reduced in chunks (crt_batch_impl.h). */
#define CB_INPUT_IN_LANES(k, len) 0
#define CB_REDUCE_IN_LANES(base, lo, hi, r1, mod, lanes) ((void)(r1))
/* Nor are the results checked here (the caller checks: *fault = -1). */
#define CB_CHECK_IN_LANES(equal, base, lo, hi, t, r1, e, ewords, mod, lanes, scratch)  \
	((void)(equal))
#include "crt_batch_impl.h"

size_t big_crt_batch_scratch(int len)
{
	if (!batch_len_ok(len))
		return 0;
	/* Enough for the radix-2^52 path too (crt_batch52.c). */
	const size_t s28 = layout_of(len).total, s52 = big_crt_batch52_scratch(len);
	return s28 > s52 ? s28 : s52;
}

BIG_ERR_CODE big_modexp_crt_batch(const big_crt_batch_op *ops, int count,
				  void *scratch, size_t scratch_size)
{
	/* The size the header asks for, whichever lanes run: the IFMA
	 * layout needs less, and a caller whose short buffer passed on an
	 * IFMA CPU would fail on another. */
	if (ops != NULL && count >= 1 && count <= BIG_CRT_BATCH_MAX &&
	    scratch_size < big_crt_batch_scratch(big_crt_batch_len(ops[0].p, ops[0].q)))
		return BIG_INVALID_ARGS;
	struct big_lanes52_ops lanes52;
	if (big_lanes52_ops_choose(&lanes52) && big_crt_batch52_fits(ops, count)) {
		const BIG_ERR_CODE err52 = big_modexp_crt_batch52_ops(ops, count, &lanes52,
								      scratch, scratch_size);
		/* What the kernels left below (lanes52.h). */
		lanes52.wipe(BIG_LANES52_FRAME_BYTES);
		return err52;
	}
	struct big_lanes_ops lanes;
	big_lanes_ops_choose(&lanes);
	const BIG_ERR_CODE err =
		big_modexp_crt_batch_ops(ops, count, &lanes, scratch, scratch_size);
#if BIG_LANES_HAVE_AVX2_BUILD
	/* What the kernels left below (lanes.h: big_lanes_avx2_wipe,
	 * BIG_LANES_AVX512_WIPE_BYTES), big_lanes_mod_init's products too,
	 * which big_lanes_pow's own wipe, deeper in the stack, may not
	 * reach. */
	if (lanes.pow == big_lanes_pow_avx512)
		big_r52_stack_wipe_ifma(BIG_LANES_AVX512_WIPE_BYTES);
	else if (big_lanes_cpu_has_avx2())
		big_lanes_avx2_wipe();
#endif
	return err;
}

const char *big_crt_batch_kernel(void)
{
	struct big_lanes52_ops lanes52;
	if (big_lanes52_ops_choose(&lanes52))
		return lanes52.name;
	struct big_lanes_ops lanes;
	return big_lanes_ops_choose(&lanes) ? lanes.name : "none";
}
