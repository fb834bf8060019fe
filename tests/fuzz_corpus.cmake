# tests/fuzz/check_corpus.cmake: no committed fuzz seed is a copy of a file
# under tests/data (tests/fuzz/run reads those in place).
add_test(NAME fuzz_corpus_no_copies COMMAND ${CMAKE_COMMAND}
  -DCORPUS=${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus -DDATA=${CMAKE_CURRENT_SOURCE_DIR}/data
  -P "${CMAKE_CURRENT_SOURCE_DIR}/fuzz/check_corpus.cmake")
