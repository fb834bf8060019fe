; big_lanes_mul37_avx2_asm -- the almost-Montgomery product of eight lane
; numbers of k = 37 digits of 28 bits (RSA-2048's CRT halves), each lane
; under its own modulus, AVX2 on ymm, scheduled by hand.
;
;   r_l = (a_l b_l + Y_l m_l) / 2^1036,   Y_l = -a_l b_l m_l^-1 mod 2^1036
;
; for every lane l: the value big_lanes_mul_c returns (lanes.h), word for
; word (T is one integer, its normalised digits one set of words).
;
; C prototype (bignum/lanes/lanes.h):
;   void big_lanes_mul37_avx2_asm(uint64_t *r, const uint64_t *a,
;                                 const uint64_t *b,
;                                 const struct big_lanes_mod *mod);
;
; Preconditions: mod->digits == 37, mod->m and mod->k0 as big_lanes_mod_init
; makes them; a, b normalised, each lane below 2 m_l; r may equal a and/or
; b, no partial overlap; AVX2 with the OS saving the YMM state
; (big_lanes_cpu_has_avx2).  Constant time: no branch or address depends
; on a digit.  Postcondition: r normalised, each lane below 2 m_l.
;
; Algorithm, per stream of four lanes (lanes_avx2.inc for the passes,
; the chain and the carry pass; lanes_mul_avx2.inc the body):
; 1. T = a b, rows of four: a_0..a_3 in ymm8-11 write columns 0..39 (and
;    zero 72, 73), groups 1..8 add rows 4g..4g+3 in a loop (each writing
;    its last four columns 4g+36..4g+39, which no pass before reached);
;    row 36 waits:
;    a_36 b_0 joins column 36 before its chain, a_36 b_{j+1} the carry
;    pass.
; 2. The reduction: chain of group 0 (right after group 0's product pass,
;    beside the passes after it), passes of groups 0..8 (each with the
;    next group's chain inside), the chain of row 36.
; 3. Both streams: columns 37..73 plus q_36 m_{j+1} and a_36 b_{j+1},
;    carried, into r.
; Lane bound: lanes.h's (at most 2k products below 2^56 and a carry below
; 2^36 in a column).
;
; Register map (lanes_avx2.inc: "Short encodings"):
;   rdi  r          rsi  a (this stream; in the reduction it walks m)
;   rdx  b (this stream; walks b in a product pass)
;   rcx  mod, then m of this stream (k0 at rcx + LN_MOD_K0)
;   rbx  T of this stream    r9   group counter   r10  stream counter
;   rax  the pass's column base, moving      r11  a of the group (then a)
;   ymm8-11  row digits (a, then q)          ymm4-7  window of b (then m)
;   ymm0-1   products        ymm2  column sum
;   ymm3, ymm12-14 the chain: product, column, q, carry   ymm15  a_36
;   the carry pass: ymm4 mask, ymm5-7 stream 0's carry, stream 1's carry
;   and sum, ymm8-9 stream 0's q_36 and a_36
; Frame (32-byte aligned): QBUF, stream 0's q_36, carry and a_36, T_0, T_1.
;
; Cycles a call (core cycles, `bigmont speed --kernels`, least of three
; runs alternating with the intrinsics; the bound: the 2(2k^2 + k) = 5550
; ymm vpmuludq at 2.0 a cycle (the measured peak: 1.96-2.04)):
;   CPU                                  NASM   intrinsics   bound
;   AMD EPYC family 25 model 1 (Zen 3)   3942   4279         2775
;   (results/amd-epyc-family25-model1/2026-11-29-1130-kernels.txt, NASM ahead in each
;   run; with 32-bit displacements and 3-byte VEX prefixes, 4427 against
;   4681 in 2026-11-29-0326-kernels.txt)

default rel

%define LN_K 37
%include "lanes_avx2.inc"
%include "lanes_mul_avx2.inc"

section .text
LANES_MUL_FUNCTION big_lanes_mul37_avx2_asm

section .note.GNU-stack noalloc noexec nowrite progbits
