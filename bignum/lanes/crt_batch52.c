/*
 * big_modexp_crt_batch in radix 2^52 (contract: lanes52.h): the steps of
 * crt_batch_impl.h on the radix-2^52 lane layer, operation i in lanes i
 * (mod p) and 4 + i (mod q), the moduli from big_lanes52_mod_init.
 *
 * Why four operations by two halves in one exponentiation, not eight
 * operations' p halves in one and their q halves in a second: the same
 * lane exponentiations per operation (a quarter of one), so the same
 * throughput for full batches, with half the latency of a batch, work in
 * steps of four operations (four operations, or a remainder of one to
 * four, are one exponentiation, not two half-empty ones), and
 * rsa/private_batch.c's batches of BIG_CRT_BATCH_MAX = 4 unchanged for
 * every build.  The halves of an RSA key have equal lengths
 * (big_crt_batch_len), so they share a digit count.
 */
#include "internal.h"
#include "lanes52.h"

/*
 * The inputs reduced in the lanes (crt_batch_impl.h), where the primes
 * leave four bits below R = 2^(52k): m < 2^B, B = len chunks' bits, and
 * 52k >= B + 4, so m < R/16 (RSA-1024 to 4096: 8 to 32 bits).  With a's
 * 2k digits (a < 2^(2B) <= R^2) as a_lo + a_hi R, a_lo and a_hi < R:
 *   one            1 in digit 0 of every lane;
 *   r1 = AMM(rr, one)     = R mod m, below (2m + R m) / R: r1 <= m;
 *   lo = AMM(a_lo, r1)    = a_lo mod m, below (R m + R m) / R = 2m;
 *   hi = AMM(a_hi, rr)    = a_hi R mod m, below (R 2m + R m) / R = 3m;
 *   base = lo + hi        = a mod m, below 5m < R/2;
 * which the exponentiation takes as it is (lanes52.h: any base below R/2;
 * its first product, by R^2, brings it below 2m).  Three lane products
 * for all eight lanes, where the chunk form takes a Montgomery reduction
 * and a product for each lane's half (big_mont_reduce_crt_ct, 16 a call):
 * about 2 % of an RSA-1024 batch on Intel family 6 model 167
 * (docs/design-notes.md).  lo and hi are x and y, tmp the out buffer:
 * k-digit lane numbers, clobbered.
 */
#define CB_INPUT_IN_LANES(k, len) (52L * (k) >= (long)(len) * BIG_CHUNK_SIZE + 4)
static void reduce_in_lanes(uint64_t *base, uint64_t *lo, uint64_t *hi, uint64_t *tmp,
			    const struct big_lanes52_mod *mod,
			    const struct big_lanes52_ops *lanes)
{
	const int k = mod->digits;
	const size_t words = BIG_LANES_WORDS(k);
	for (size_t j = 0; j < words; j++)
		tmp[j] = j < BIG_LANES;
	lanes->mul(base, mod->rr, tmp, mod);
	lanes->mul(lo, lo, base, mod);
	lanes->mul(hi, hi, mod->rr, mod);
	uint64_t carry[BIG_LANES] = { 0 };
	for (int j = 0; j < k; j++)
		for (int l = 0; l < BIG_LANES; l++) {
			const size_t at = BIG_LANES_AT(j, l);
			const uint64_t s = (lo[at] & BIG_LANES52_DIGIT_MASK) +
					   (hi[at] & BIG_LANES52_DIGIT_MASK) + carry[l];
			base[at] = s & BIG_LANES52_DIGIT_MASK;
			carry[l] = s >> BIG_LANES52_DIGIT_BITS;
		}
}
#define CB_REDUCE_IN_LANES(base, lo, hi, tmp, mod, lanes)                     \
	reduce_in_lanes(base, lo, hi, tmp, mod, lanes)

#define CB_LANES big_lanes52
#define CB_ENTRY big_modexp_crt_batch52_ops
#define CB_LEN_OK(len) big_lanes52_len_ok(len)
/* A length the radix refuses still gets a size: its largest. */
#define CB_LAYOUT_DIGITS(k) ((k) != 0 ? (k) : BIG_LANES52_MAX_DIGITS)
#include "crt_batch_impl.h"

size_t big_crt_batch52_scratch(int len)
{
	return layout_of(len).total;
}

int big_crt_batch52_fits(const big_crt_batch_op *ops, int count)
{
	if (ops == NULL || count < 1)
		return 0;
	const int len = big_crt_batch_len(ops[0].p, ops[0].q);
	return len != 0 && big_lanes52_len_ok(len);
}
