# The installed package, used as a consumer would (tests/install/check).
# Not in sanitizer builds: a plain consumer cannot link sanitized libraries.
if(NOT BIGMONT_SANITIZE)
  add_test(NAME install_package
    COMMAND "${CMAKE_CURRENT_SOURCE_DIR}/install/check" "${PROJECT_BINARY_DIR}")
endif()
