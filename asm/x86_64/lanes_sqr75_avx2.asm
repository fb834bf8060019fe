; big_lanes_sqr75_avx2_asm -- the NASM lane squaring at k = 75 digits
; (RSA-4096's CRT halves: 2048 bits need 74 digits, and the avx2 build
; takes 75 where this kernel is bound, lanes.h: big_lanes_digits_avx2):
; lanes_sqr37_avx2.asm's algorithm, contract and register map with
; k = 75 = 4 * 18 + 3: rows 4G, 4G + 1 make a group of two after the whole
; groups (lanes_avx2.inc), the last row is alone.  The square phase is
; Karatsuba's (h = 38: 2185 products for the schoolbook's 2850), each
; half-square's passes after the first looped (lanes_sqr_avx2.inc:
; SQR_REST_LOOP; 26 KB of code where the unrolled passes took 44).  The
; columns of a stream (4800 bytes) outgrow 4 KiB, so the digit sums sit
; 8192 bytes above them (lanes_sqr_avx2.inc: SDIG); the frame is 14,464
; bytes.  Registers: lanes_sqr37_avx2.asm's, and r8-r11 for the loop, the
; stream counter in the frame (SQ_STREAMS).
;
; C prototype (bignum/lanes/lanes.h):
;   void big_lanes_sqr75_avx2_asm(uint64_t *r, const uint64_t *a,
;                                 const struct big_lanes_mod *mod);
;
; Preconditions: mod->digits == 75; the rest as lanes_sqr37_avx2.asm's.
;
; Cycles a call (core cycles, `bigmont speed --kernels`, the 2048-bit
; column, where the intrinsics run 74 digits; least of three runs, the
; sides alternating; bound: the vpmuludq count at 2.0 a cycle):
;   CPU                                  NASM (75)   intrinsics (74)   bound (74)
;   AMD EPYC family 25 model 1 (Zen 3)   12038       12534             8155
;   (results/amd-epyc-family25-model1/2026-11-29-1400-kernels-lanes75.txt,
;   NASM ahead in each run, by 2-8 %: most in the host's slow mode)

default rel

%define LN_K 75
%define LN_SQR_KARATSUBA 1
%include "lanes_avx2.inc"
%include "lanes_sqr_avx2.inc"

section .text
LANES_SQR_FUNCTION big_lanes_sqr75_avx2_asm

section .note.GNU-stack noalloc noexec nowrite progbits
