/*
 * big_mod_inverse with the batched algorithm's round bound at 0, under
 * another name: every call with a round to run takes the bitwise fallback
 * (bignum/modinv.c), which the batched algorithm's own bound keeps from
 * running in the library.  test_modinv checks it against GMP.
 */
#define MODINV_BATCHED_ROUNDS(len) 0L
#define big_mod_inverse big_mod_inverse_bitwise_for_test
#include "../../bignum/modinv.c"
