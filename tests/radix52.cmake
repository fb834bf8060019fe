# The radix-2^52 kernel suite (tests/test_radix52.cpp, run once) takes the
# IFMA source compiled against its emulated intrinsics (tests/radix52/);
# its tests of the IFMA build itself (the "/ifma" instances) run as one
# more entry, which ctest shows skipped ("skipped: no AVX-512 IFMA") where
# the CPU lacks it, and the main entry leaves them out.
target_sources(test_radix52 PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/radix52/dual_emu.c")
set_source_files_properties("${CMAKE_CURRENT_SOURCE_DIR}/radix52/dual_emu.c" PROPERTIES
  COMPILE_OPTIONS "${R52_TEMPLATE_OPTIONS}")
set_property(TEST test_radix52 APPEND PROPERTY ENVIRONMENT "GTEST_FILTER=-*/ifma")
# The IFMA build is in the builds with the assembly (radix52.h).
if(BIGNUM_ASM AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  add_test(NAME test_radix52.ifma_build COMMAND test_radix52 --gtest_filter=*/ifma)
  set_tests_properties(test_radix52.ifma_build PROPERTIES
    SKIP_REGULAR_EXPRESSION "skipped: no AVX-512 IFMA")
endif()
