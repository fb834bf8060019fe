/*
 * The builds of the radix-2^52 algorithm a test can run (bignum/radix52/
 * radix52.h): the twin, the IFMA source on emulated intrinsics
 * (dual_emu.c, and dual_emu_pairs.c with the choices some CPU models
 * bind) and the IFMA build, which runs only where the CPU has
 * AVX-512 IFMA (`runnable`).
 */
#ifndef BIGMONT_TESTS_RADIX52_BUILDS_H
#define BIGMONT_TESTS_RADIX52_BUILDS_H

#include <ostream>
#include <vector>

#include "dual_emu.h"

namespace r52t {

struct Build {
	const char *name;
	big_r52_ops ops;
	bool runnable;
};

inline void PrintTo(const Build &b, std::ostream *os)
{
	*os << b.name;
}

inline Build twin()
{
	return { "twin", BIG_R52_OPS_INIT(c), true };
}

inline Build emulated()
{
	return { "emulated", BIG_R52_OPS_INIT(emu), true };
}

/* The IFMA source on emulated intrinsics with the pair product and the
 * dedicated squaring at 30 digits (dual_emu_pairs.c). */
inline Build emulated_pairs()
{
	return { "emulated_pairs", BIG_R52_OPS_INIT(emu_pairs), true };
}

/* The IFMA build where this is an x86-64 build, runnable or not. */
inline std::vector<Build> ifma()
{
#if BIG_R52_HAVE_IFMA_BUILD
	return { { "ifma", BIG_R52_OPS_INIT(ifma), big_r52_cpu_has_ifma() != 0 } };
#else
	return {};
#endif
}

} // namespace r52t

#endif
