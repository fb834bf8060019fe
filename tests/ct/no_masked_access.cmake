# No vector load or store under a writemask in the objects whose masks
# may be secret (bignum/ct_select.c, radix52/dual_ifma.c,
# lanes/lanes_ifma.c, lanes/lanes52_fma512.c: table reads that select by
# a secret index, final subtractions that keep r or r - m by a secret
# mask).  Under a secret mask neither is constant time: a
# writemasked load may leave the memory of the lanes not taken unread, so
# which table lines were read could follow the index, and a writemasked
# store's time was seen to follow its mask (docs/security.md). So those
# reads are vpblendmq from memory, whose mask selects (ct_blend.h), and
# blends are stored whole; from the intrinsics GCC folds a load and a
# blend into a masked vmovdqu64, and a blend and a store into a masked
# store.  (Broadcasts under a public mask, such as a pair's half, are
# not vector loads of a table and pass.)  Run by ctest with
#   -DOBJDUMP=<objdump> -DOBJECTS=<a;b;c>
set(found "")
set(nobjects 0)
foreach(object IN LISTS OBJECTS)
  execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${object}"
    OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${object} failed")
  endif()
  math(EXPR nobjects "${nobjects} + 1")
  get_filename_component(name "${object}" NAME)
  # A load: memory source, masked vector destination. A store: vector
  # source, masked memory destination.
  string(REGEX MATCHALL "[^\n]*vmovdq[au](32|64)[ \t]+[^\n]*\\([^\n]*\\),%[xyz]mm[0-9]+\\{%k[1-7]\\}[^\n]*" loads "${text}")
  string(REGEX MATCHALL "[^\n]*%[xyz]mm[0-9]+,[^\n]*\\([^\n]*\\)\\{%k[1-7]\\}[^\n]*" stores "${text}")
  foreach(hit IN LISTS loads stores)
    string(APPEND found "  ${name}: ${hit}\n")
  endforeach()
  string(REGEX MATCHALL "vpblendmq[ \t]+[^\n]*\\(" blends "${text}")
  list(LENGTH blends nblends)
  if(nblends GREATER 0)
    message(STATUS "${name}: ${nblends} vpblendmq from memory")
  endif()
endforeach()
if(nobjects EQUAL 0)
  message(FATAL_ERROR "no objects to check")
endif()
if(found)
  message(FATAL_ERROR "loads or stores under a writemask in the secret-masked objects:\n${found}")
endif()
message(STATUS "no load or store under a writemask in ${nobjects} objects")
