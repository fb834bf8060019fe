# bigmont_library(<part> <public include dir> <sources>...): the static
# library bigmont_<part>, its alias bigmont::<part> and exported name
# <part>, with the public headers of <dir> (installed under the include
# dir) and its own directory as private include path.  bignum and rsa are
# built the same way; this is that way once.
function(bigmont_library part include_dir)
  add_library(bigmont_${part} STATIC ${ARGN})
  add_library(bigmont::${part} ALIAS bigmont_${part})
  target_include_directories(bigmont_${part}
    PUBLIC
      "$<BUILD_INTERFACE:${include_dir}>"
      "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>"
    PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
  set_target_properties(bigmont_${part} PROPERTIES EXPORT_NAME ${part})
endfunction()
