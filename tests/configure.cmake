# Configure-time refusals (CMakeLists.txt): a build type that would build
# without optimisation flags, and a sanitizer -fsanitize= does not take,
# each refused with its message before anything is built.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME configure_refusals COMMAND sh -c "
    set -u; tmp=$(mktemp -d); trap 'rm -rf \"$tmp\"' EXIT
    for case in 'CMAKE_BUILD_TYPE=Foo|must be RelWithDebInfo, Release, Debug or MinSizeRel, not .Foo.' \\
                'BIGMONT_SANITIZE=address,foo|BIGMONT_SANITIZE: .foo. is not one of'; do
      value=\${case%%|*}; want=\${case#*|}
      if cmake -S '${PROJECT_SOURCE_DIR}' -B \"$tmp/b\" -G Ninja -D\"$value\" >\"$tmp/out\" 2>&1; then
        echo \"configure_refusals: -D$value configured\"; exit 1
      fi
      tr '\\n' ' ' <\"$tmp/out\" | tr -s ' ' | grep -q \"$want\" ||
        { echo \"configure_refusals: -D$value: no '$want' in:\"; cat \"$tmp/out\"; exit 1; }
      rm -rf \"$tmp/b\"
    done
    echo 'configure_refusals: both refused'")
endif()
