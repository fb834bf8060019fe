/* The emulated IFMA builds (dual_emu.c: as the IFMA build runs by
 * default; dual_emu_pairs.c: with the pair product and the dedicated
 * squaring at 30 digits): the contracts of radix52.h. */
#ifndef BIGMONT_TESTS_DUAL_EMU_H
#define BIGMONT_TESTS_DUAL_EMU_H

#include "radix52/radix52.h"

#ifdef __cplusplus
extern "C" {
#endif
BIG_R52_DECLARE_BUILD(emu)
BIG_R52_DECLARE_BUILD(emu_pairs)
BIG_R52_DECLARE_SIDES(emu_pairs)
#ifdef __cplusplus
}
#endif

#endif
