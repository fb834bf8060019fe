# profiles/selftest: a 2-second profile of this build's bigmont through
# profiles/record, whose table must parse and name a multiply kernel among
# its top three.  Skipped (status 77, reason printed) where neither perf nor
# callgrind can run, and in sanitizer builds, whose profile would show the
# sanitizer's run time (and which valgrind cannot run).
if(TARGET bigmont)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    if(BIGNUM_ASM)
      set(profiles_preset chunk64-asm)
    else()
      set(profiles_preset chunk${BIGNUM_CHUNK_BITS})
    endif()
    if(BIGMONT_SANITIZE)
      add_test(NAME profiles_selftest
        COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/profiles/selftest"
                --skip "sanitizer build (${BIGMONT_SANITIZE}): profiles are made of the release presets")
    else()
      add_test(NAME profiles_selftest
        COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/profiles/selftest"
                "$<TARGET_FILE:bigmont>" "${profiles_preset}"
                "${CMAKE_CURRENT_BINARY_DIR}/profiles_selftest")
    endif()
    set_tests_properties(profiles_selftest PROPERTIES
      SKIP_RETURN_CODE 77 TIMEOUT 120)
  else()
    message(WARNING "python3 not found: profiles_selftest is not registered")
  endif()
endif()
