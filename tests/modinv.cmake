# test_modinv also checks big_mod_inverse's bitwise fallback: modinv.c
# compiled again under another name with the batched algorithm's round
# bound at 0 (tests/modinv/bitwise.c), so that every call takes it.
if(NOT TARGET test_modinv)
  return() # BIGMONT_TEST_ARITHMETIC off (CMakeLists.txt)
endif()
target_sources(test_modinv PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/modinv/bitwise.c")
target_include_directories(test_modinv PRIVATE "${PROJECT_SOURCE_DIR}/bignum")
set_source_files_properties("${CMAKE_CURRENT_SOURCE_DIR}/modinv/bitwise.c" PROPERTIES
  SKIP_PRECOMPILE_HEADERS ON)
