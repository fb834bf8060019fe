# profiles/selftest: a 2-second profile of this build's bigmont through
# profiles/record, whose table must parse and name a multiply kernel among
# its top three.  Skipped (status 77) where neither perf nor callgrind can
# run; not registered in sanitizer builds, whose profiles mean nothing and
# which valgrind cannot run.
if(TARGET bigmont AND NOT BIGMONT_SANITIZE)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    if(BIGNUM_ASM)
      set(profiles_preset chunk64-asm)
    else()
      set(profiles_preset chunk${BIGNUM_CHUNK_BITS})
    endif()
    add_test(NAME profiles_selftest
      COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/profiles/selftest"
              "$<TARGET_FILE:bigmont>" "${profiles_preset}"
              "${CMAKE_CURRENT_BINARY_DIR}/profiles_selftest")
    set_tests_properties(profiles_selftest PROPERTIES
      SKIP_RETURN_CODE 77 TIMEOUT 120 RUN_SERIAL TRUE)
  else()
    message(WARNING "python3 not found: profiles_selftest is not registered")
  endif()
endif()
