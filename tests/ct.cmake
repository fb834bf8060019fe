# The constant-time test of big_modexp_crt and big_modexp_ct under
# Valgrind Memcheck (tests/ct/ct_memcheck.cpp: secrets marked undefined,
# any secret-dependent branch or address is a Memcheck report), once per
# kernel variant this build has.  Skipped, visibly, in sanitizer builds and
# where valgrind is missing.
# Not built in sanitizer builds, whose entries only say why they skip.
if(NOT BIGMONT_SANITIZE)
  add_executable(ct_memcheck "${CMAKE_CURRENT_SOURCE_DIR}/ct/ct_memcheck.cpp")
  # the emulated IFMA build with the pairs (tests/radix52.cmake)
  target_link_libraries(ct_memcheck PRIVATE bigmont_testsupport r52_emu_pairs)
  target_include_directories(ct_memcheck PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/radix52")
endif()

find_program(VALGRIND_EXECUTABLE valgrind)
# A cross build's programs run under qemu-user: the host's valgrind cannot
# run them, and Debian's valgrind (no Multi-Arch) has no arm64 package
# installable beside the native one.
set(CT_MEMCHECK_CROSS_REASON
  "cross build run under an emulator: the host's valgrind cannot run its programs, and Debian cannot install valgrind:arm64 beside it")
set(CT_MEMCHECK_KEY "${CMAKE_CURRENT_SOURCE_DIR}/data/keys/rsa2048-e65537.pem")
foreach(variant IN LISTS TEST_VARIANTS)
  set(test_name ct_memcheck.${variant})
  if(BIGMONT_SANITIZE)
    add_test(NAME ${test_name} COMMAND ${CMAKE_COMMAND} -E echo
      "SKIPPED: ct_memcheck cannot run under valgrind in a sanitizer build")
    set_tests_properties(${test_name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
  elseif(CMAKE_CROSSCOMPILING_EMULATOR)
    add_test(NAME ${test_name} COMMAND ${CMAKE_COMMAND} -E echo
      "SKIPPED: ${CT_MEMCHECK_CROSS_REASON}")
    set_tests_properties(${test_name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
  elseif(NOT VALGRIND_EXECUTABLE)
    add_test(NAME ${test_name} COMMAND ${CMAKE_COMMAND} -E echo
      "SKIPPED: valgrind not found (apt-get install valgrind)")
    set_tests_properties(${test_name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
  else()
    add_test(NAME ${test_name} COMMAND ${CMAKE_COMMAND}
      -DVALGRIND=${VALGRIND_EXECUTABLE} -DEXE=$<TARGET_FILE:ct_memcheck>
      -DKEY=${CT_MEMCHECK_KEY} -DVARIANT=${variant} -DPROBE=$<TARGET_FILE:variant_probe>
      -P "${CMAKE_CURRENT_SOURCE_DIR}/ct/run_memcheck.cmake")
    # The AVX2 batch at 37 digits (the key's halves) through the NASM
    # kernels (bignum/tuning.h: LANES37_ASM), which Valgrind's synthetic
    # CPU would not bind from the table.
    set_tests_properties(${test_name} PROPERTIES
      ENVIRONMENT "BIGMONT_CPU=${variant};BIGMONT_TUNE=lanes37_asm=1"
      SKIP_REGULAR_EXPRESSION "SKIPPED:")
  endif()
endforeach()
if(CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME ct_memcheck_self_test COMMAND ${CMAKE_COMMAND} -E echo
    "SKIPPED: ${CT_MEMCHECK_CROSS_REASON}")
  set_tests_properties(ct_memcheck_self_test PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
elseif(VALGRIND_EXECUTABLE AND NOT BIGMONT_SANITIZE)
  add_test(NAME ct_memcheck_self_test COMMAND ${CMAKE_COMMAND}
    -DVALGRIND=${VALGRIND_EXECUTABLE} -DEXE=$<TARGET_FILE:ct_memcheck>
    -DKEY=${CMAKE_CURRENT_SOURCE_DIR}/data/keys/rsa1024-e65537.pem -DSELF_TEST=1
    -P "${CMAKE_CURRENT_SOURCE_DIR}/ct/run_memcheck.cmake")
endif()

# run_memcheck.cmake's probe, on stand-ins (no valgrind needed): a valgrind
# that fails is a failure, not a skip; the probe's own "not available"
# answer skips adx (and ifma), and fails baseline, which every x86-64 CPU
# runs.  The message, not the exit status, is what passes each.
set(ct_probe_cases
  "broken|/bin/false|$<TARGET_FILE:variant_probe>|adx|the variant probe under valgrind failed"
  "missing_adx|${CMAKE_CURRENT_SOURCE_DIR}/ct/fake_valgrind.sh|${CMAKE_CURRENT_SOURCE_DIR}/ct/fake_probe.sh|adx|SKIPPED: under valgrind the 'adx' kernels are not selectable"
  "missing_baseline|${CMAKE_CURRENT_SOURCE_DIR}/ct/fake_valgrind.sh|${CMAKE_CURRENT_SOURCE_DIR}/ct/fake_probe.sh|baseline|the variant probe under valgrind failed \\(exit 3\\)")
foreach(case IN LISTS ct_probe_cases)
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 name)
  list(GET case 1 valgrind)
  list(GET case 2 probe)
  list(GET case 3 variant)
  list(GET case 4 expect)
  add_test(NAME ct_memcheck_probe.${name} COMMAND ${CMAKE_COMMAND}
    -DVALGRIND=${valgrind} -DEXE=/bin/false -DKEY=${CT_MEMCHECK_KEY} -DVARIANT=${variant}
    -DPROBE=${probe} -P "${CMAKE_CURRENT_SOURCE_DIR}/ct/run_memcheck.cmake")
  set_tests_properties(ct_memcheck_probe.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${expect}")
endforeach()

# The objects whose masks may be secret hold no vector load or store
# under a writemask (tests/ct/no_masked_access.cmake says why); x86-64
# only, where that code is AVX-512, and not in the sanitizer builds,
# whose instrumented code is not what ships.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64" AND CMAKE_OBJDUMP AND NOT BIGMONT_SANITIZE)
  add_test(NAME ct_no_masked_access COMMAND ${CMAKE_COMMAND}
    -DOBJDUMP=${CMAKE_OBJDUMP}
    "-DOBJECTS=$<FILTER:$<TARGET_OBJECTS:bigmont_bignum>,INCLUDE,(ct_select|dual_ifma|lanes_ifma|lanes52_fma512)\\.c\\.o$>"
    -P "${CMAKE_CURRENT_SOURCE_DIR}/ct/no_masked_access.cmake")
endif()
