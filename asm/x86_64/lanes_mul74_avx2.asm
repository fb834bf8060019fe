; big_lanes_mul74_avx2_asm -- the NASM lane product at k = 74 digits
; (RSA-4096's CRT halves: 2048 bits): lanes_mul37_avx2.asm's algorithm,
; contract and register map with k = 74 = 4 * 18 + 2: the whole groups of
; four rows, then row 72 a short group of one (lanes_avx2.inc: LN_TAIL),
; then the lone last row.
;
; C prototype (bignum/lanes/lanes.h):
;   void big_lanes_mul74_avx2_asm(uint64_t *r, const uint64_t *a,
;                                 const uint64_t *b,
;                                 const struct big_lanes_mod *mod);
;
; Preconditions: mod->digits == 74; the rest as lanes_mul37_avx2.asm's.
;
; Cycles a call (core cycles, `bigmont speed --kernels`, least of three
; runs alternating with the intrinsics; the bound: the 2(2k^2 + k) = 22052
; ymm vpmuludq at 2.0 a cycle):
;   CPU                                  NASM    intrinsics   bound
;   AMD EPYC family 25 model 1 (Zen 3)   14884   15352        11026
;   (results/amd-epyc-family25-model1/2026-11-29-1645-kernels-lanes74.txt,
;   NASM ahead in each run)

default rel

%define LN_K 74
%include "lanes_avx2.inc"
%include "lanes_mul_avx2.inc"

section .text
LANES_MUL_FUNCTION big_lanes_mul74_avx2_asm

section .note.GNU-stack noalloc noexec nowrite progbits
