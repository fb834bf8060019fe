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
 * four, are one exponentiation, not two half-empty ones) for every build.
 * A call's eight operations are two such groups, whose exponentiations
 * the IFMA build steps in lockstep at 10 digits (big_lanes52_pow2).  The
 * halves of an RSA key have equal lengths (big_crt_batch_len), so they
 * share a digit count.
 */
#include "internal.h"
#include "lanes52.h"

/*
 * The inputs reduced in the lanes (crt_batch_impl.h), where the primes
 * leave four bits below R = 2^(52k): m < 2^B, B = len chunks' bits, and
 * 52k >= B + 4, so m < R/16 (RSA-1024 to 4096: 8 to 32 bits).  With a's
 * 2k digits (a < 2^(2B) <= R^2) as a_lo + a_hi R, a_lo and a_hi < R:
 *   r1 = AMM(rr, 1)       = R mod m, below (2m + R m) / R: r1 <= m;
 *   lo = AMM(a_lo, r1)    = a_lo mod m, below (R m + R m) / R = 2m;
 *   hi = AMM(a_hi, rr)    = a_hi R mod m, below (R 2m + R m) / R = 3m;
 *   base = lo + hi        = a mod m, below 5m < R/2;
 * which the exponentiation takes as it is (lanes52.h: any base below R/2;
 * its first product, by R^2, brings it below 2m).  Three lane products
 * for all eight lanes, where the chunk form takes a Montgomery reduction
 * and a product for each lane's half (big_mont_reduce_crt_ct, 16 a call):
 * about 2 % of an RSA-1024 batch on Intel family 6 model 167
 * (docs/design-notes.md).  lo and hi are a's digits (clobbered), r1 is
 * kept for the check below.
 */
#define CB_INPUT_IN_LANES(k, len) (52L * (k) >= (long)(len) * BIG_CHUNK_SIZE + 4)

/* out = a + b, lane by lane, normalised: the words' digits (their carry
 * bits above 52 dropped: lanes52.h's digit form), for a sum below R. */
static void lanes_add(uint64_t *out, const uint64_t *a, const uint64_t *b, int k)
{
	uint64_t carry[BIG_LANES] = { 0 };
	for (int j = 0; j < k; j++)
		for (int l = 0; l < BIG_LANES; l++) {
			const size_t at = BIG_LANES_AT(j, l);
			const uint64_t s = (a[at] & BIG_LANES52_DIGIT_MASK) +
					   (b[at] & BIG_LANES52_DIGIT_MASK) + carry[l];
			out[at] = s & BIG_LANES52_DIGIT_MASK;
			carry[l] = s >> BIG_LANES52_DIGIT_BITS;
		}
}

/* x mod m of each lane (below 5m) from its 2k digits in lo and hi. */
static void lanes_reduce(uint64_t *out, uint64_t *lo, uint64_t *hi, const uint64_t *r1,
			 const struct big_lanes52_mod *mod, const struct big_lanes52_ops *lanes)
{
	lanes->mul(lo, lo, r1, mod);
	lanes->mul(hi, hi, mod->rr, mod);
	lanes_add(out, lo, hi, mod->digits);
}

static void reduce_in_lanes(uint64_t *base, uint64_t *lo, uint64_t *hi, uint64_t *r1,
			    const struct big_lanes52_mod *mod,
			    const struct big_lanes52_ops *lanes)
{
	const size_t words = BIG_LANES_WORDS(mod->digits);
	for (size_t j = 0; j < words; j++)
		base[j] = j < BIG_LANES;
	lanes->mul(r1, mod->rr, base, mod);
	lanes_reduce(base, lo, hi, r1, mod, lanes);
}
#define CB_REDUCE_IN_LANES(base, lo, hi, r1, mod, lanes)                      \
	reduce_in_lanes(base, lo, hi, r1, mod, lanes)

/*
 * The fault check in the lanes (crt_batch_impl.h): each result s (2k
 * digits in lo and hi, as a was) reduced as above, s^e mod m by
 * big_lanes52_pow_public (fully reduced; its base may be any value below
 * R, m < R/16), against a mod m: AMM(base, r1) = base mod m below
 * (5m m + R m) / R < 2m, less m where that is not negative.  equal[l]: 1
 * where lane l's two agree.  A check modulo the primes trusts them: the
 * template compares p q with n beside it, as big_crt_check does.
 * Constant time in s, a and m: the comparison runs over every digit of
 * every lane; e is public.
 */
static void check_in_lanes(int *equal, const uint64_t *base, uint64_t *lo, uint64_t *hi,
			   uint64_t *t, const uint64_t *r1, const uint64_t *e, int ewords,
			   const struct big_lanes52_mod *mod,
			   const struct big_lanes52_ops *lanes, uint64_t *scratch)
{
	const int k = mod->digits;
	lanes_reduce(t, lo, hi, r1, mod, lanes);
	lanes->pow_public(lo, t, e, ewords, mod, scratch);
	lanes->mul(hi, base, r1, mod);
	for (int l = 0; l < BIG_LANES; l++) {
		uint64_t borrow = 0, diff_v = 0, diff_d = 0;
		for (int j = 0; j < k; j++) {
			const size_t at = BIG_LANES_AT(j, l);
			const uint64_t v = hi[at] & BIG_LANES52_DIGIT_MASK;
			const uint64_t d = v - mod->m[at] - borrow;
			borrow = d >> 63;
			diff_v |= v ^ lo[at];
			diff_d |= (d & BIG_LANES52_DIGIT_MASK) ^ lo[at];
		}
		/* v - m borrowed: a mod m is v, else v - m (by a mask). */
		const uint64_t keep_v = 0 - borrow;
		equal[l] = ((diff_v & keep_v) | (diff_d & ~keep_v)) == 0;
	}
}
#define CB_CHECK_IN_LANES(equal, base, lo, hi, t, r1, e, ewords, mod, lanes, scratch)  \
	check_in_lanes(equal, base, lo, hi, t, r1, e, ewords, mod, lanes, scratch)

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
