/* The emulated IFMA build (dual_emu.c): the contracts of radix52.h. */
#ifndef BIGMONT_TESTS_DUAL_EMU_H
#define BIGMONT_TESTS_DUAL_EMU_H

#include "radix52/radix52.h"

#ifdef __cplusplus
extern "C" {
#endif
BIG_R52_DECLARE_BUILD(emu)
#ifdef __cplusplus
}
#endif

#endif
