# tests/ct/dudect.c: the statistical constant-time test, run by hand
# (build/<preset>/tests/dudect --seconds 60; see its --help).  Its
# --self-test (can the harness see a known leak?) is a quick ctest.
add_executable(dudect "${CMAKE_CURRENT_SOURCE_DIR}/ct/dudect.c")
target_link_libraries(dudect PRIVATE bigmont_rsa bigmont_bignum GMP::GMP m)
target_include_directories(dudect PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/support")
target_compile_definitions(dudect PRIVATE TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data")
add_test(NAME dudect_self_test COMMAND dudect --self-test --seconds 2)
