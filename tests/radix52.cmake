# The radix-2^52 kernel suite (tests/test_radix52.cpp, run once) takes the
# IFMA source compiled twice against its emulated intrinsics
# (tests/radix52/: as by default, and with the pair product);
# its tests of the IFMA build itself (the "/ifma" instances) run as one
# more entry, which ctest shows skipped ("skipped: no AVX-512 IFMA") where
# the CPU lacks it, and the main entry leaves them out.
# The emulated build with the pairs is compiled once, an object library
# that ct_memcheck links too (tests/ct.cmake): about 8 CPU seconds a build.
add_library(r52_emu_pairs OBJECT "${CMAKE_CURRENT_SOURCE_DIR}/radix52/dual_emu_pairs.c")
target_link_libraries(r52_emu_pairs PRIVATE bigmont_testsupport)
target_compile_options(r52_emu_pairs PRIVATE ${LANES_TEMPLATE_OPTIONS})
if(NOT TARGET test_radix52)
  return() # BIGMONT_TEST_ARITHMETIC off (CMakeLists.txt); ct_memcheck still links it
endif()
target_sources(test_radix52 PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/radix52/dual_emu.c")
set_source_files_properties("${CMAKE_CURRENT_SOURCE_DIR}/radix52/dual_emu.c" PROPERTIES
  COMPILE_OPTIONS "${LANES_TEMPLATE_OPTIONS}" SKIP_PRECOMPILE_HEADERS ON)
target_link_libraries(test_radix52 PRIVATE r52_emu_pairs)
set_property(TEST test_radix52 APPEND PROPERTY ENVIRONMENT "GTEST_FILTER=-*/ifma")
# The IFMA build is in the builds with the assembly (radix52.h).
if(BIGNUM_ASM AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  add_test(NAME test_radix52.ifma_build COMMAND test_radix52 --gtest_filter=*/ifma)
  set_tests_properties(test_radix52.ifma_build PROPERTIES
    SKIP_REGULAR_EXPRESSION "skipped: no AVX-512 IFMA")
  # Each side of each choice of the tuning table (bignum/tuning.h) on the
  # IFMA build, forced by BIGMONT_TUNE: the default entry above runs this
  # CPU's, these two every one's other side (all on, all off).
  foreach(side 1 0)
    add_test(NAME test_radix52.ifma_build.tune${side} COMMAND sh -c
      "\"$1\" ifma; rc=$?; [ $rc = 3 ] && { echo 'skipped: no AVX-512 IFMA'; exit 0; }; [ $rc = 0 ] || exit $rc; shift; exec \"$@\""
      sh $<TARGET_FILE:variant_probe> $<TARGET_FILE:test_radix52> --gtest_filter=*/ifma)
    set_tests_properties(test_radix52.ifma_build.tune${side} PROPERTIES
      SKIP_REGULAR_EXPRESSION "skipped: no AVX-512 IFMA"
      ENVIRONMENT "BIGMONT_TUNE=r52_mul_pairs10=${side},r52_mul_pairs30=${side},r52_mul_pairs40=${side},r52_pow_sqr30_dedicated=${side},r52_kernels20_intel=${side}")
  endforeach()
endif()
