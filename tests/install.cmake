# The installed package, used as a consumer would (tests/install/check).
# Not in sanitizer builds: a plain consumer cannot link sanitized libraries.
if(NOT BIGMONT_SANITIZE)
  add_test(NAME install_package
    COMMAND "${CMAKE_CURRENT_SOURCE_DIR}/install/check" "${PROJECT_BINARY_DIR}")
  if(CMAKE_CROSSCOMPILING_EMULATOR)
    set_property(TEST install_package APPEND PROPERTY ENVIRONMENT
      "BIGMONT_CHECK_CC=${CMAKE_C_COMPILER}" "BIGMONT_CHECK_TOOLCHAIN=${CMAKE_TOOLCHAIN_FILE}"
      "PKG_CONFIG_LIBDIR=/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/pkgconfig:/usr/share/pkgconfig")
  endif()
endif()
