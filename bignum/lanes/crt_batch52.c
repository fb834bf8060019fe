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
