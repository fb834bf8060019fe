# cmake --install: headers, static libraries, the bigmont command, a CMake
# package (find_package(bigmont): bigmont::bignum, bigmont::rsa) and
# lib/pkgconfig/bigmont.pc.
include(CMakePackageConfigHelpers)

install(FILES "${PROJECT_BINARY_DIR}/bignum/include/bigmont/bignum.h"
              "${PROJECT_SOURCE_DIR}/rsa/include/bigmont/rsa.h"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/bigmont")
# (the targets' INSTALL_INTERFACE names the include directory:
# cmake/bigmont_library.cmake)
install(TARGETS bigmont_bignum bigmont_rsa EXPORT bigmontTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(EXPORT bigmontTargets NAMESPACE bigmont::
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/bigmont")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/bigmontConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/bigmontConfig.cmake"
  INSTALL_DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/bigmont")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/bigmontConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/bigmontConfig.cmake"
              "${PROJECT_BINARY_DIR}/bigmontConfigVersion.cmake"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/bigmont")

# The .pc file finds its prefix from where it lies (${pcfiledir}), so the
# package works wherever `cmake --install --prefix` puts it, not only at the
# prefix known at configure time.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(BIGMONT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(BIGMONT_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(BIGMONT_PC_PREFIX "\${pcfiledir}")
  string(REPLACE "/" ";" _libdir_parts "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  foreach(_part IN LISTS _libdir_parts)
    string(APPEND BIGMONT_PC_PREFIX "/..")
  endforeach()
  set(BIGMONT_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(BIGMONT_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(BIGMONT_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  # Away from the prefix the file cannot find it from where it lies: it
  # names the prefix `cmake --install --prefix` gives, at install time.
  set(BIGMONT_PC_PREFIX "@BIGMONT_INSTALL_PREFIX@")
  configure_file("${PROJECT_SOURCE_DIR}/cmake/bigmont.pc.in"
    "${PROJECT_BINARY_DIR}/bigmont.pc.in" @ONLY)
  install(CODE "
    set(BIGMONT_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    set(_pc \"${CMAKE_INSTALL_LIBDIR}/pkgconfig/bigmont.pc\")
    configure_file(\"${PROJECT_BINARY_DIR}/bigmont.pc.in\" \"\$ENV{DESTDIR}\${_pc}\" @ONLY)
    message(STATUS \"Installing: \$ENV{DESTDIR}\${_pc}\")
    list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${_pc}\")
  ")
else()
  configure_file("${PROJECT_SOURCE_DIR}/cmake/bigmont.pc.in"
    "${PROJECT_BINARY_DIR}/bigmont.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/bigmont.pc"
          DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
