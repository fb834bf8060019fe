/*
 * variant_probe <variant>: exit 0 if this process runs the kernel variant
 * named (big_cpu_variant_name(), which follows BIGMONT_CPU where the CPU
 * allows it), else print the variant it falls back to and exit
 * VARIANT_MISSING (3), an exit of its own: a caller skips on that exit
 * and that line only, and takes any other failure (a crash, a broken
 * valgrind around it) for one.  2 on a usage error.  Used by
 * tests/CMakeLists.txt and tests/ct/run_memcheck.cmake to skip, visibly,
 * the suites of a variant this CPU lacks.
 */
#include <stdio.h>
#include <string.h>

#include <bigmont/bignum.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: variant_probe <c|baseline|adx|ifma>\n");
		return 2;
	}
	if (strcmp(argv[1], big_cpu_variant_name()) == 0)
		return 0;
	printf("variant_probe: '%s' is not available here; this CPU runs '%s'\n", argv[1],
	       big_cpu_variant_name());
	return 3; /* VARIANT_MISSING */
}
