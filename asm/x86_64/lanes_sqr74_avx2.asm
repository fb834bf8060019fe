; big_lanes_sqr74_avx2_asm -- the NASM lane squaring at k = 74 digits
; (RSA-4096's CRT halves: 2048 bits): lanes_sqr37_avx2.asm's algorithm,
; contract and register map with k = 74 = 4 * 18 + 2: the whole groups of
; four rows, then row 72 a short group of one (lanes_avx2.inc: LN_TAIL),
; then the lone last row.  The square phase is Karatsuba's (h = 37: 2109
; products for the schoolbook's 2775), each half-square's passes after
; the first looped (lanes_sqr_avx2.inc: SQR_REST_LOOP; the unrolled passes
; made 44 KB of code at 75 digits).  The columns of a stream (4736 bytes)
; outgrow 4 KiB, so the digit sums sit 8192 bytes above them
; (lanes_sqr_avx2.inc: SDIG); the frame is 14,368 bytes.  Registers:
; lanes_sqr37_avx2.asm's, and r8-r11 for the loop, the stream counter in
; the frame (SQ_STREAMS).
;
; C prototype (bignum/lanes/lanes.h):
;   void big_lanes_sqr74_avx2_asm(uint64_t *r, const uint64_t *a,
;                                 const struct big_lanes_mod *mod);
;
; Preconditions: mod->digits == 74; the rest as lanes_sqr37_avx2.asm's.
;
; Cycles a call (core cycles, `bigmont speed --kernels`, least of three
; runs alternating with the intrinsics; the bound: the
; 2(k(k+1)/2 + k^2 + k) = 16650 ymm vpmuludq at 2.0 a cycle):
;   CPU                                  NASM    intrinsics   bound
;   AMD EPYC family 25 model 1 (Zen 3)   11251   12440        8325
;   (results/amd-epyc-family25-model1/2026-11-29-1645-kernels-lanes74.txt,
;   NASM ahead in each run)

default rel

%define LN_K 74
%define LN_SQR_KARATSUBA 1
%include "lanes_avx2.inc"
%include "lanes_sqr_avx2.inc"

section .text
LANES_SQR_FUNCTION big_lanes_sqr74_avx2_asm

section .note.GNU-stack noalloc noexec nowrite progbits
