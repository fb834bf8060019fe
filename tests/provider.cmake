# Tests of the OpenSSL provider (provider/, bigmont.so):
#  - test_provider (GoogleTest, in process, every preset that builds the
#    provider, ASan included): agreement with the default provider,
#    refusals, key management, load/unload;
#  - provider_pkeyutl (the assembly build), provider_tls (python, the
#    `openssl` command loading the module) and provider_nginx (Debian's
#    nginx and curl): not in sanitizer builds, whose module needs the
#    sanitizer runtime the openssl binary does not load;
#  - bench_openssl_provider: bench/openssl_provider.py's parser and tables.
if(TARGET bigmont_provider AND TARGET test_provider)
  target_compile_definitions(test_provider PRIVATE
    BIGMONT_PROVIDER_DIR="$<TARGET_FILE_DIR:bigmont_provider>")
  add_dependencies(test_provider bigmont_provider)
  set_tests_properties(test_provider PROPERTIES TIMEOUT 600)
  # 100 messages per combination at RSA-1024 where the assembly runs
  # (chunk64-asm).  The portable builds (two to four times slower; chunk32
  # took 4.5 minutes at a quarter of the count on this shared machine) run
  # a twentieth (5 at RSA-1024, at least one at every size): the
  # provider's logic is the same there, and their arithmetic has its own
  # suites.
  if(NOT BIGNUM_ASM)
    set_tests_properties(test_provider PROPERTIES ENVIRONMENT "BIGMONT_TEST_SCALE=0.05")
  endif()
  find_package(Python3 COMPONENTS Interpreter)
  find_program(OPENSSL_COMMAND openssl)
  if(CMAKE_CROSSCOMPILING_EMULATOR)
    # The openssl command would load this build's module into itself: the
    # host's cannot load an aarch64 bigmont.so, and Debian's openssl
    # (Multi-Arch: foreign) has no arm64 package installable beside it.
    # test_provider still runs the module in process, under the emulator.
    foreach(test IN ITEMS provider_tls provider_nginx)
      add_test(NAME ${test} COMMAND ${CMAKE_COMMAND} -E echo
        "SKIPPED: cross build run under an emulator: the host's openssl cannot load its aarch64 bigmont.so, and Debian cannot install openssl:arm64 beside it")
      set_tests_properties(${test} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
    endforeach()
  elseif(NOT BIGMONT_SANITIZE AND Python3_Interpreter_FOUND AND OPENSSL_COMMAND)
    # provider_pkeyutl checks that the command line reaches the provider's
    # code, which is the same C in every chunk flavour: it runs in the
    # assembly build (the portable builds' 4096-bit operations made it their
    # longest entry); test_provider compares that code in process in every
    # preset, and provider_tls reaches it from the command line in each.
    if(BIGNUM_ASM)
      add_test(NAME provider_pkeyutl
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/provider_pkeyutl.py"
                --openssl "${OPENSSL_COMMAND}" --modules "$<TARGET_FILE_DIR:bigmont_provider>")
      set_tests_properties(provider_pkeyutl PROPERTIES TIMEOUT 900)
    endif()
    add_test(NAME provider_tls
      COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/provider_tls.py"
              --openssl "${OPENSSL_COMMAND}" --modules "$<TARGET_FILE_DIR:bigmont_provider>"
              --config "${PROJECT_SOURCE_DIR}/provider/bigmont.cnf")
    set_tests_properties(provider_tls PROPERTIES TIMEOUT 900)
    # nginx (found at run time, in /usr/sbin too) serving TLS 1.2 and 1.3
    # on 127.0.0.1 with the provider; skipped (77) without nginx or curl.
    add_test(NAME provider_nginx
      COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/provider_nginx.py"
              --openssl "${OPENSSL_COMMAND}" --modules "$<TARGET_FILE_DIR:bigmont_provider>"
              --config "${PROJECT_SOURCE_DIR}/provider/bigmont.cnf")
    set_tests_properties(provider_nginx PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
    # The command line is checked to reach the provider's code for every
    # key size, padding, direction and tampering, three messages each; the
    # many-message comparison of that code is test_provider's, in process,
    # where a message costs no process start (docs/testing.md).
    if(TEST provider_pkeyutl)
      set_property(TEST provider_pkeyutl APPEND PROPERTY ENVIRONMENT
        "BIGMONT_PKEYUTL_MESSAGES=3")
    endif()
  endif()
  # Pure python on canned input and stand-ins, no build: once, in the
  # build the README's first command measures (as bench_scripts).
  if(Python3_Interpreter_FOUND AND BIGNUM_ASM AND NOT BIGMONT_SANITIZE)
    add_test(NAME bench_openssl_provider
      COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/bench_openssl_provider_test.py")
    set_tests_properties(bench_openssl_provider PROPERTIES TIMEOUT 60)
  endif()
elseif(TARGET test_provider)
  message(STATUS "tests: no bigmont.so in this build: test_provider skips itself")
endif()
