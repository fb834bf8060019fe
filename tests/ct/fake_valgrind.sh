#!/bin/sh
# A stand-in for valgrind in run_memcheck.cmake's own tests (tests/ct.cmake):
# runs the command without it.
[ "$1" = -q ] && shift
exec "$@"
