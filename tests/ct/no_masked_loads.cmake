# No load under a writemask in the objects whose table reads select by a
# secret index (bignum/ct_select.c, radix52/dual_ifma.c, lanes/lanes_ifma.c):
# a writemasked load may leave the memory of the lanes not taken unread, so
# those reads are vpblendmq from memory, whose mask selects (the source
# says so where it writes them out; from the intrinsics GCC folds a load
# and a blend into a masked vmovdqu64).  Run by ctest with
#   -DOBJDUMP=<objdump> -DOBJECTS=<a;b;c>
set(found "")
foreach(object IN LISTS OBJECTS)
  execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${object}"
    OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${object} failed")
  endif()
  string(REGEX MATCHALL "[^\n]*vmovdq[au](32|64)[ \t]+[^\n]*\\([^\n]*\\),%[xyz]mm[0-9]+\\{%k[1-7]\\}[^\n]*" hits "${text}")
  foreach(hit IN LISTS hits)
    get_filename_component(name "${object}" NAME)
    string(APPEND found "  ${name}: ${hit}\n")
  endforeach()
  string(REGEX MATCHALL "vpblendmq[ \t]+[^\n]*\\(" blends "${text}")
  list(LENGTH blends nblends)
  get_filename_component(name "${object}" NAME)
  message(STATUS "${name}: ${nblends} vpblendmq from memory")
endforeach()
if(found)
  message(FATAL_ERROR "loads under a writemask in the secret-indexed table reads' objects:\n${found}")
endif()
message(STATUS "no load under a writemask")
