# Tests of the benchmark (bench/): the python scripts' tables and merge
# (tests/bench_scripts_test.py), and a smoke run of `bigmont speed` with
# tiny settings whose JSON must parse and hold every implementation it
# claims (tests/bench_smoke.py).  The C JSON writer has its own GoogleTest
# (tests/test_bench_json.cpp).
if(TARGET bigmont_bench)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    # The scripts' tests use no build: once, in the build the README's
    # first command measures.
    if(BIGNUM_ASM AND NOT BIGMONT_SANITIZE)
      add_test(NAME bench_scripts
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/bench_scripts_test.py")
      set_tests_properties(bench_scripts PROPERTIES TIMEOUT 60)
    endif()
    # A stand-in for ipp-crypto's libraries that answers wrongly
    # (tests/support/ipp_standin.c), loaded by the benchmark at run time.
    add_library(ipp_standin SHARED "${CMAKE_CURRENT_SOURCE_DIR}/support/ipp_standin.c")
    add_test(NAME bench_smoke
      COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/bench_smoke.py"
              "${BIGMONT_TEST_EXE}" "${CMAKE_CURRENT_BINARY_DIR}/bench_smoke"
              "$<TARGET_FILE:ipp_standin>")
    # bench_smoke: about 4 s on the 2-core Zen 3 (chunk64-asm): its two
    # --kernels runs pass a small --seconds, which scales the tables'
    # trials (bench/cycles.h, bench_kernel_trials; a tenth of that again
    # under the sanitizers).
    set_tests_properties(bench_smoke PROPERTIES TIMEOUT 150)
    if(CMAKE_CROSSCOMPILING_EMULATOR)
      # Every program of the run is emulated, the workers too: about ten
      # times slower than on the CPU itself.
      set_tests_properties(bench_smoke PROPERTIES TIMEOUT 600)
    endif()
  else()
    message(WARNING "python3 not found: the bench script tests are skipped")
  endif()
endif()

# The lock counter (bench/lock_count.c) is linked into its test as into the
# benchmark's executable (bigmont-speed), with a shared library that takes
# known locks.
if(TARGET test_lock_count)
  add_library(lock_probe SHARED "${CMAKE_CURRENT_SOURCE_DIR}/support/lock_probe.c")
  target_link_libraries(lock_probe PRIVATE Threads::Threads)
  target_link_libraries(test_lock_count PRIVATE bigmont_lock_count lock_probe)
endif()
