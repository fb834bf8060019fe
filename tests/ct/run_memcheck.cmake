# Run ct_memcheck under Valgrind Memcheck and fail on any report that a
# branch, conditional move or address depends on a secret ("uninitialised")
# value -- checked in valgrind's output, not only through its exit code.
#   cmake -DVALGRIND=<valgrind> -DEXE=<ct_memcheck> -DKEY=<pem> [-DSELF_TEST=1]
#         -P run_memcheck.cmake
# SELF_TEST=1 runs a variable-time exponentiation on the secret exponent
# alone and passes only if Memcheck DOES report it: proof that the harness
# can see.
# One round runs every path (a second runs the same instructions on
# another secret input: a path that a secret value chooses is itself a
# report in the first).
if(SELF_TEST)
  set(extra 1 --leaky)
else()
  set(extra 1)
endif()
# Valgrind's synthetic CPU may lack a variant's features (ADX, AVX-512):
# the library would fall back to a variant that has its own entry, so ask
# first (variant_probe under valgrind, a second) rather than prove that
# one again.  Only adx and ifma may be missing, and only the probe's own
# answer (exit 3 and its line, tests/variant_probe.c) says so: any other
# failure of the probe under valgrind (valgrind missing a library, unable
# to start, a crash) fails this entry.
if(VARIANT AND PROBE)
  execute_process(COMMAND "${VALGRIND}" -q "${PROBE}" "${VARIANT}"
    RESULT_VARIABLE probe_rc OUTPUT_VARIABLE probe_out ERROR_VARIABLE probe_err)
  if(probe_rc EQUAL 3 AND VARIANT MATCHES "^(adx|ifma)$"
      AND probe_out MATCHES "variant_probe: '${VARIANT}' is not available here")
    message("SKIPPED: under valgrind the '${VARIANT}' kernels are not selectable "
      "(the CPU valgrind emulates lacks them): ${probe_out}")
    return()
  elseif(NOT probe_rc EQUAL 0)
    message(FATAL_ERROR "ct_memcheck: the variant probe under valgrind failed "
      "(exit ${probe_rc}), which is not a missing '${VARIANT}':\n${probe_out}${probe_err}")
  endif()
endif()
# Without --track-origins, which only says where a reported value came
# from and made the run about a third longer; a run with a report is
# repeated with it, so a failure still shows which secret reached it.
set(memcheck "${VALGRIND}" --error-exitcode=1)
execute_process(
  COMMAND ${memcheck} "${EXE}" "${KEY}" ${extra}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT SELF_TEST AND NOT rc EQUAL 0)
  execute_process(
    COMMAND ${memcheck} --track-origins=yes "${EXE}" "${KEY}" ${extra}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
endif()
message("${out}")
message("${err}")
if(NOT out MATCHES "results match GMP")
  message(FATAL_ERROR "ct_memcheck did not report matching results")
endif()
if(SELF_TEST)
  if(NOT err MATCHES "Conditional jump or move depends on uninitialised value")
    message(FATAL_ERROR "ct_memcheck self-test: Memcheck did not see the variable-time exponentiation")
  endif()
  return()
endif()
foreach(pattern
    "Conditional jump or move depends on uninitialised value"
    "Use of uninitialised value of size"
    "Syscall param .* contains uninitialised byte")
  if(err MATCHES "${pattern}")
    message(FATAL_ERROR "ct_memcheck: secret-dependent behaviour reported by Memcheck: ${pattern}")
  endif()
endforeach()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ct_memcheck under valgrind exited with ${rc}")
endif()
# The probe said the variant runs, so the run must have bound it.
if(VARIANT AND NOT out MATCHES "kernels '${VARIANT}'")
  message(FATAL_ERROR "ct_memcheck: the probe ran '${VARIANT}' under valgrind but "
    "ct_memcheck did not bind it")
endif()
