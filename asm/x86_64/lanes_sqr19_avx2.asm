; big_lanes_sqr19_avx2_asm -- the NASM lane squaring at k = 19 digits
; (RSA-1024's CRT halves): lanes_sqr37_avx2.asm's algorithm, contract
; and register map with k = 19 = 4 * 4 + 3: rows 4G, 4G + 1 make a group of two
; after the whole groups (lanes_avx2.inc), the last row is alone.  The
; square phase is schoolbook (rows of six over all 19 digits; the
; Karatsuba phase of lanes_sqr_avx2.inc measured 3 % slower at 19 digits).
;
; C prototype (bignum/lanes/lanes.h):
;   void big_lanes_sqr19_avx2_asm(uint64_t *r, const uint64_t *a,
;                                 const struct big_lanes_mod *mod);
;
; Preconditions: mod->digits == 19; the rest as lanes_sqr37_avx2.asm's.
;
; Cycles a call (core cycles, `bigmont speed --kernels`, least of three
; runs alternating with the intrinsics; bound: the vpmuludq count at 2.0 a
; cycle (the measured peak: 1.96-2.04)):
;   CPU                                  NASM   intrinsics   bound
;   AMD EPYC family 25 model 1 (Zen 3)     979   1213          570
;   (results/amd-epyc-family25-model1/2026-11-29-1130-kernels.txt)

default rel

%define LN_K 19
%include "lanes_avx2.inc"
%include "lanes_sqr_avx2.inc"

section .text
LANES_SQR_FUNCTION big_lanes_sqr19_avx2_asm

section .note.GNU-stack noalloc noexec nowrite progbits
