# The README's console example of the bigmont command (tests/readme_example.py),
# in the build it names (chunk64-asm).
if(BIGNUM_ASM AND NOT BIGMONT_SANITIZE AND TARGET bigmont)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME readme_example
      COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/readme_example.py"
              "${PROJECT_SOURCE_DIR}/README.md" "$<TARGET_FILE_DIR:bigmont>")
    set_tests_properties(readme_example PROPERTIES TIMEOUT 120)
  endif()
endif()
