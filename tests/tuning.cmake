# Each side of the adx product's choice at 16 chunks (bignum/tuning.h,
# MONT_MUL16_KARATSUBA) bound through the dispatched name by BIGMONT_TUNE,
# whatever this CPU model's row says (both sides are also called by name
# in every adx entry of test_mont_kernels).  The IFMA choices' entries are
# test_radix52.ifma_build.tune0 and tune1 (radix52.cmake).  The AVX2 lane
# kernels at 19, 37, 55, 74 digits (LANES<k>_ASM): test_lanes's avx2 instances
# with each side bound through the build's entry points (the suite's
# LanesNasm test calls both sides by name, in every build); about 0.2 s an
# entry, not in the sanitizer builds (1 s there, and the binding is the
# release build's to prove).  The IFMA lane squaring at 20 digits
# (LANES52_SQR20_ASM): test_lanes52's ifma instances and its Lanes52Ifma
# tests (the batch's frames wiped) with each side bound (its ifma_nasm20
# and ifma_c20 instances take each side by name, and Lanes52Ifma checks
# the two sides' words against each other and the NASM frame's wipe, in
# test_lanes52.ifma_build too); about 0.6 s an entry.  The vertical CRT path (VERTICAL): test_modexp_crt
# in the adx variant with each side bound (its vertical test also calls the
# path by name; the other suites' adx entries run the side this CPU's row
# binds, their baseline entries the radix-2^64 one); about 1 s an entry,
# not in the sanitizer builds either.  The table reads in AVX-512VL
# (SELECT_VL): test_modexp_crt in the adx variant with each side bound
# (test_ct_select and test_mont_kernels's SquareWithTableRead call both
# builds by name); about 4 s an entry; where the CPU lacks AVX-512VL both
# entries run the AVX2 side.  The CRT's halves side by side at 8 chunks
# (CRT_PAIRED8): test_modexp_crt in the adx variant with each side bound
# (its paired test also calls the path by name at every size, and the
# RSA-1024 keys take the bound side).  The vertical path on zmm
# (VERTICAL_ZMM): test_modexp_crt in the adx variant with each side bound
# (its zmm test calls the path by name; where the CPU lacks AVX-512F both
# entries run the other path).  These eight entries run the CRT's own
# tests (ModexpCrt.*): the choices bind the private exponentiation, not the
# fault check's public one, which CrtCheck.* proves in every variant entry.
if(BIGNUM_ASM AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  if(NOT BIGMONT_SANITIZE)
    foreach(side 0 1)
      add_test(NAME test_lanes.avx2.nasm_${side} COMMAND test_lanes
        --gtest_filter=Builds/Lanes.*/avx2)
      set_tests_properties(test_lanes.avx2.nasm_${side} PROPERTIES
        ENVIRONMENT "BIGMONT_TUNE=lanes19_asm=${side},lanes37_asm=${side},lanes55_asm=${side},lanes74_asm=${side}"
        SKIP_REGULAR_EXPRESSION "skipped: no AVX2")
    endforeach()
    foreach(side 0 1)
      add_test(NAME test_lanes52.ifma.sqr20_${side} COMMAND test_lanes52
        --gtest_filter=*/ifma:Lanes52Ifma.*)
      set_tests_properties(test_lanes52.ifma.sqr20_${side} PROPERTIES
        ENVIRONMENT "BIGMONT_TUNE=lanes52_sqr20_asm=${side}"
        SKIP_REGULAR_EXPRESSION "skipped: no AVX-512 IFMA")
    endforeach()
    foreach(choice vertical vertical_zmm crt_paired8 select_vl)
      foreach(side 0 1)
        add_test(NAME test_modexp_crt.adx.${choice}_${side} COMMAND test_modexp_crt
          --gtest_filter=ModexpCrt.*)
        set_tests_properties(test_modexp_crt.adx.${choice}_${side} PROPERTIES
          ENVIRONMENT "BIGMONT_CPU=adx;BIGMONT_TUNE=${choice}=${side}")
      endforeach()
    endforeach()
  endif()
  foreach(side 0 1)
    add_test(NAME test_mont_kernels.adx.karatsuba16_${side} COMMAND test_mont_kernels
      --gtest_filter=MontKernels.Mul16*)
    set_tests_properties(test_mont_kernels.adx.karatsuba16_${side} PROPERTIES
      ENVIRONMENT "BIGMONT_CPU=adx;BIGMONT_TUNE=mont_mul16_karatsuba=${side}"
      SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
  endforeach()
endif()
