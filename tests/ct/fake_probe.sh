#!/bin/sh
# A stand-in for tests/variant_probe in run_memcheck.cmake's own tests
# (tests/ct.cmake): the probe's answer for a variant this CPU lacks.
echo "variant_probe: '$1' is not available here; this CPU runs 'c'"
exit 3
