# tests/ct/dudect.c: the statistical constant-time test, run by hand
# (build/<preset>/tests/dudect --seconds 60; see its --help).  Its
# --self-test (can the harness see a known leak?) is a quick ctest, and so
# is the batch targets' positive control (one lane's exponents through the
# variable-time big_modexp beside the batch: the leak must be seen; it stops
# once it is, within seconds on a quiet machine) and their setup's check
# that the timed batch gives the single operations' results, in each lane
# build (BIGMONT_BATCH=c, avx2, avx512, fma, fma512, ifma: a build or CPU without one runs the
# best lanes it has).
add_executable(dudect "${CMAKE_CURRENT_SOURCE_DIR}/ct/dudect.c")
target_link_libraries(dudect PRIVATE bigmont_rsa bigmont_bignum GMP::GMP m)
target_include_directories(dudect PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/support")
target_compile_definitions(dudect PRIVATE TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data")
# The self-test times a comparison in dudect.c alone (no library code):
# the release builds without the assembly compile it to the same machine
# code as chunk64-asm's, so on x86-64 only that build and the sanitizer
# builds (instrumented: other code) run it.
if(NOT BIGNUM_ASM AND NOT BIGMONT_SANITIZE AND NOT CMAKE_CROSSCOMPILING
   AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$")
  add_test(NAME dudect_self_test COMMAND ${CMAKE_COMMAND} -E echo
    "SKIPPED: dudect's self-test is the same machine code in the chunk64-asm build, which runs it")
  set_tests_properties(dudect_self_test PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
else()
  add_test(NAME dudect_self_test COMMAND dudect --self-test --seconds 2)
endif()
if(CMAKE_CROSSCOMPILING_EMULATOR)
  # Under qemu the counter ticks the emulator's time, whose noise hides the
  # control's leak at this size within the entry's 30 s.
  add_test(NAME dudect_batch_control COMMAND ${CMAKE_COMMAND} -E echo
    "SKIPPED: under an emulator the batch control's leak is not timed on the CPU it runs on")
  set_tests_properties(dudect_batch_control PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
else()
  add_test(NAME dudect_batch_control
    COMMAND dudect --target crt_batch_leaky --bits 512 --seconds 30 --until-leak)
  set_tests_properties(dudect_batch_control PROPERTIES
    PASS_REGULAR_EXPRESSION "verdict: LEAK DETECTED")
endif()
foreach(lanes IN ITEMS c avx2 avx512 fma fma512 ifma)
  add_test(NAME dudect_batch_check.${lanes} COMMAND dudect --target batch --check-only)
  set_tests_properties(dudect_batch_check.${lanes} PROPERTIES
    ENVIRONMENT "BIGMONT_BATCH=${lanes}"
    PASS_REGULAR_EXPRESSION "check: the batch's four results equal rsa_private_raw's")
endforeach()
