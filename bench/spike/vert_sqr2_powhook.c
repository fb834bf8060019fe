/* Spike (issue 44): bignum/vertical/pow_avx2.c with its squarings through
 * a pointer (vert_sqr_hook), for vert_sqr2_pow.c. */
#define big_vert_sqr2_avx2 (*vert_sqr_hook)
#define big_vert_pow2_avx2 hooked_pow2
#define big_vert_crt_pow2_avx2 hooked_crt_pow2
#include "bignum/vertical/pow_avx2.c"
