# Cross build for aarch64 Linux on an x86-64 Debian host (the `aarch64`
# preset, `./tests/run aarch64`): Debian's cross compiler
# (gcc-aarch64-linux-gnu) with the arm64 libraries from multiarch
# (libgmp-dev:arm64, libssl-dev:arm64, libgtest-dev:arm64 in
# /usr/lib/aarch64-linux-gnu), and qemu-user running the results, so that
# ctest runs every suite.  scripts/setup aarch64 installs all of it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# find_library and find_package look in lib/aarch64-linux-gnu (never in
# the host's lib/x86_64-linux-gnu); pkg-config reads the arm64 .pc files.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
find_program(BIGMONT_QEMU_AARCH64 qemu-aarch64)
if(BIGMONT_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${BIGMONT_QEMU_AARCH64}")
endif()
