; big_lanes_mul19_avx2_asm -- the NASM lane product at k = 19 digits
; (RSA-1024's CRT halves): lanes_mul37_avx2.asm's algorithm, contract
; and register map with k = 19 = 4 * 4 + 3: rows 4G, 4G + 1 make a group of two
; after the whole groups (lanes_avx2.inc), the last row is alone.
;
; C prototype (bignum/lanes/lanes.h):
;   void big_lanes_mul19_avx2_asm(uint64_t *r, const uint64_t *a,
;                                 const uint64_t *b,
;                                 const struct big_lanes_mod *mod);
;
; Preconditions: mod->digits == 19; the rest as lanes_mul37_avx2.asm's.
;
; Cycles a call, AMD EPYC family 25 model 1 (Zen 3): `bigmont speed
; --kernels`, results/amd-epyc-family25-model1/ (asm mul).

default rel

%define LN_K 19
%include "lanes_avx2.inc"
%include "lanes_mul_avx2.inc"

section .text
LANES_MUL_FUNCTION big_lanes_mul19_avx2_asm

section .note.GNU-stack noalloc noexec nowrite progbits
