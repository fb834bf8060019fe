# The radix-2^52 lane suite (tests/test_lanes52.cpp, run once) takes the
# IFMA lane source compiled against its emulated intrinsics (tests/lanes/),
# in every build: the emulation is portable C.  Its tests of the IFMA
# build itself (the "/ifma" instances, and "/ifma_nasm20", "/ifma_c20": each
# side of LANES52_SQR20_ASM) run as one more entry, which ctest
# shows skipped ("skipped: no AVX-512 IFMA") where the CPU lacks it; the
# main entry leaves them out.
# Part of the arithmetic suites (BIGMONT_TEST_ARITHMETIC, CMakeLists.txt).
if(NOT BIGMONT_TEST_ARITHMETIC)
  return()
endif()
add_library(lanes52_emu STATIC "${CMAKE_CURRENT_SOURCE_DIR}/lanes/lanes52_emu.c")
target_include_directories(lanes52_emu PRIVATE "${PROJECT_SOURCE_DIR}/bignum")
target_link_libraries(lanes52_emu PRIVATE bigmont_bignum)
target_compile_options(lanes52_emu PRIVATE ${LANES_TEMPLATE_OPTIONS})
target_compile_definitions(lanes52_emu PRIVATE BIGMONT_HAVE_ASM=$<BOOL:${BIGNUM_ASM}>)
target_link_libraries(test_lanes52 PRIVATE lanes52_emu)
# The IFMA build is in the builds with the assembly (lanes52.h).
if(BIGNUM_ASM AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  add_test(NAME test_lanes52.ifma_build COMMAND test_lanes52 --gtest_filter=*/ifma*)
  set_tests_properties(test_lanes52.ifma_build PROPERTIES
    SKIP_REGULAR_EXPRESSION "skipped: no AVX-512 IFMA")
endif()
# Memcheck on the emulated build with its secrets marked undefined
# (Lanes52Memcheck: a report is a branch or an address on a secret), and
# its positive control, which must be reported.  The lane code does not
# depend on the chunk size: in the assembly build only, and not in
# sanitizer builds; without valgrind the entries say why they skip.
set_property(TEST test_lanes52 APPEND PROPERTY ENVIRONMENT
  "GTEST_FILTER=-*/ifma*:Lanes52MemcheckControl.*")
find_program(VALGRIND_EXECUTABLE valgrind)
if(BIGNUM_ASM)
  foreach(entry IN ITEMS memcheck memcheck_control)
    set(filter Lanes52Memcheck.*)
    if(entry STREQUAL "memcheck_control")
      set(filter Lanes52MemcheckControl.*)
    endif()
    if(BIGMONT_SANITIZE OR NOT VALGRIND_EXECUTABLE)
      add_test(NAME test_lanes52.${entry} COMMAND ${CMAKE_COMMAND} -E echo
        "SKIPPED: no valgrind, or a sanitizer build")
      set_tests_properties(test_lanes52.${entry} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
    else()
      add_test(NAME test_lanes52.${entry} COMMAND ${VALGRIND_EXECUTABLE} -q --error-exitcode=1
        $<TARGET_FILE:test_lanes52> --gtest_filter=${filter})
      if(entry STREQUAL "memcheck_control")
        set_tests_properties(test_lanes52.${entry} PROPERTIES WILL_FAIL TRUE)
      endif()
    endif()
  endforeach()
endif()
