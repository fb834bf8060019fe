/* The emulated IFMA lane build (lanes52_emu.c): the contracts of
 * bignum/lanes/lanes52.h. */
#ifndef BIGMONT_TESTS_LANES52_EMU_H
#define BIGMONT_TESTS_LANES52_EMU_H

#include "lanes/lanes52.h"

#ifdef __cplusplus
extern "C" {
#endif
BIG_LANES52_DECLARE_BUILD(emu)
/* Nothing to wipe: the tests' build (struct big_lanes52_ops). */
#define big_lanes52_wipe_emu NULL
#ifdef __cplusplus
}
#endif

#endif
