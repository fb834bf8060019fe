; big_lanes_sqr55_avx2_asm -- the NASM lane squaring at k = 55 digits
; (RSA-3072's CRT halves): lanes_sqr37_avx2.asm's algorithm, contract
; and register map with k = 55 = 4 * 13 + 3: rows 4G, 4G + 1 make a group of two
; after the whole groups (lanes_avx2.inc), the last row is alone.  The
; square phase is Karatsuba's (h = 28: 1190 products for the schoolbook's
; 1540).
;
; C prototype (bignum/lanes/lanes.h):
;   void big_lanes_sqr55_avx2_asm(uint64_t *r, const uint64_t *a,
;                                 const struct big_lanes_mod *mod);
;
; Preconditions: mod->digits == 55; the rest as lanes_sqr37_avx2.asm's.
;
; Cycles a call (core cycles, `bigmont speed --kernels`, least of three
; runs alternating with the intrinsics; bound: the vpmuludq count at 2.0 a
; cycle (the measured peak: 1.96-2.04)):
;   CPU                                  NASM   intrinsics   bound
;   AMD EPYC family 25 model 1 (Zen 3)    6509   7071         4620
;   (results/amd-epyc-family25-model1/2026-11-29-1130-kernels.txt, NASM ahead in each
;   run: bound; with 32-bit displacements and 3-byte VEX prefixes, 7170
;   against 6987 in 2026-11-29-0545-karatsuba-sqr.txt)

default rel

%define LN_K 55
%define LN_SQR_KARATSUBA 1
%include "lanes_avx2.inc"
%include "lanes_sqr_avx2.inc"

section .text
LANES_SQR_FUNCTION big_lanes_sqr55_avx2_asm

section .note.GNU-stack noalloc noexec nowrite progbits
