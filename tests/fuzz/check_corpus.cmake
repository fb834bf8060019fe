# Fails if a committed fuzz seed is a byte copy of a file under tests/data.
# tests/fuzz/run feeds tests/data/bad and tests/data/keys to fuzz_key as
# seeds where they are, so a copy in the corpus is a second definition that
# drifts from its original (copying tests/data/bad wholesale once brought
# make-bad.sh along).
#   cmake -DCORPUS=<tests/fuzz/corpus> -DDATA=<tests/data> -P check_corpus.cmake
file(GLOB_RECURSE data_files LIST_DIRECTORIES false "${DATA}/*")
foreach(f IN LISTS data_files)
  file(SHA256 "${f}" hash)
  set(data_${hash} "${f}")
endforeach()
file(GLOB_RECURSE seeds LIST_DIRECTORIES false "${CORPUS}/*")
set(copies "")
foreach(f IN LISTS seeds)
  file(SHA256 "${f}" hash)
  if(DEFINED data_${hash})
    string(APPEND copies "\n  ${f} is a copy of ${data_${hash}}")
  endif()
endforeach()
list(LENGTH seeds count)
if(copies)
  message(FATAL_ERROR "fuzz corpus: seeds that copy tests/data (tests/fuzz/run reads those in place; delete the copies):${copies}")
endif()
message("fuzz corpus: ${count} seeds, none a copy of a file under tests/data")
