# The vertical AVX2 suite (tests/test_vertical.cpp, run once) skips where
# the CPU lacks AVX2 or the build has no vertical layer (vertical.h).
if(TEST test_vertical)
  set_tests_properties(test_vertical PROPERTIES SKIP_REGULAR_EXPRESSION "skipped: no ")
endif()
