# profiles/selftest: a 1-second profile of this build's bigmont through
# profiles/record, whose table must parse and name a multiply kernel among
# its top three.  Skipped (status 77, reason printed) where neither perf nor
# callgrind can run, and in sanitizer builds, whose profile would show the
# sanitizer's run time (and which valgrind cannot run).  Not without the
# benchmark: the profiles are of `bigmont speed`.
if(TARGET bigmont AND TARGET bigmont_bench)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    if(BIGNUM_ASM)
      set(profiles_preset chunk64-asm)
    else()
      set(profiles_preset chunk${BIGNUM_CHUNK_BITS})
    endif()
    if(CMAKE_CROSSCOMPILING_EMULATOR)
      add_test(NAME profiles_selftest
        COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/profiles/selftest"
                --skip "cross build under an emulator: perf and callgrind would profile the emulator, not this build's code")
    elseif(BIGMONT_SANITIZE)
      add_test(NAME profiles_selftest
        COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/profiles/selftest"
                --skip "sanitizer build (${BIGMONT_SANITIZE}): profiles are made of the release presets")
    else()
      add_test(NAME profiles_selftest
        COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/profiles/selftest"
                "${BIGMONT_TEST_EXE}" "${profiles_preset}"
                "${CMAKE_CURRENT_BINARY_DIR}/profiles_selftest")
    endif()
    set_tests_properties(profiles_selftest PROPERTIES
      SKIP_RETURN_CODE 77 TIMEOUT 120)
    # profiles/record's count of samples in NASM kernels, on a canned perf
    # profile with the tuned kernel names, and the kernels it finds in this
    # build's bigmont.
    if(BIGNUM_ASM)
      set(profiles_asm asm)
    else()
      set(profiles_asm noasm)
    endif()
    add_test(NAME profiles_record_accounting
      COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tests/profiles_record_test.py"
              "$<TARGET_FILE:bigmont>" ${profiles_asm})
    set_tests_properties(profiles_record_accounting PROPERTIES TIMEOUT 60)
  else()
    message(WARNING "python3 not found: profiles_selftest is not registered")
  endif()
endif()
