; big_lanes_sqr37_avx2_asm -- the almost-Montgomery square of eight lane
; numbers of k = 37 digits of 28 bits (RSA-2048's CRT halves), each lane
; under its own modulus, AVX2 on ymm, scheduled by hand.
;
;   r_l = (a_l^2 + Y_l m_l) / 2^1036,   Y_l = -a_l^2 m_l^-1 mod 2^1036
;
; for every lane l: the value big_lanes_sqr_c returns (lanes.h), word for
; word.
;
; C prototype (bignum/lanes/lanes.h):
;   void big_lanes_sqr37_avx2_asm(uint64_t *r, const uint64_t *a,
;                                 const struct big_lanes_mod *mod);
;
; Preconditions: mod->digits == 37, mod->m and mod->k0 as big_lanes_mod_init
; makes them; a normalised, each lane below 2 m_l; r may equal a, no
; partial overlap; AVX2 with the OS saving the YMM state
; (big_lanes_cpu_has_avx2).  Constant time: no branch or address depends
; on a digit.  Postcondition: r normalised, each lane below 2 m_l.
;
; Algorithm, per stream of four lanes (lanes_avx2.inc for the reduction
; and the carry pass; lanes_sqr_avx2.inc the body):
; 1. T = a^2 by one level of Karatsuba (lanes_sqr_avx2.inc has the math,
;    the column bounds and the order): h = 19, lo = a_0..a_18, hi =
;    a_19..a_36, s = lo + hi (digits below 2^29, in the frame);
;    T = (1 - x^h)(lo^2 - x^h hi^2) + x^h s^2, x = 2^28, column by column:
;    551 products where the schoolbook square takes 703.  Each square is
;    rows of six, unrolled: rows i = 6g .. i + 5 take the doubled digits
;    D_r = 2 x_{i+r} (< 2^30) in ymm8-13 and, at column c = 2i .. i + n +
;    4, add D_r x_{c-i-r} where c - i - r > i + r and x_{i+r}^2 where
;    c - i - r = i + r (the window slot of x_{i+r} squared).
; 2. The reduction, as the product's (rows of four): chain of group 0
;    (right after lo^2's rows 0..5), passes of groups 0..8 with the next
;    chain inside, the chain of row 36.
; 3. Both streams: columns 37..73 plus q_36 m_{j+1}, carried, into r.
; Lane bound: lanes.h's (a doubled cross product counts as two): the
; square phase ends with the schoolbook columns.
;
; Register map (lanes_avx2.inc: "Short encodings"):
;   rdi  r          rsi  a (this stream)     rdx  mod at the call
;   rcx  mod, then m of this stream (k0 at rcx + LN_MOD_K0)
;   rbx  T of this stream    r9   group counter   r10  stream counter
;   rax  walks the columns (in the reduction: the pass's base, moving)
;   rdx  walks a, s or m     r8   walks s (its sums)
;   the square phase: ymm8-13 row digits (2a or 2s), ymm2-7 window of a
;   or s, ymm15 column sum (and zero in the fold), ymm14 group 0's carry
;   the reduction: ymm8-11 row digits q, ymm4-7 window of m, ymm2 column
;   sum, ymm3, ymm12-14 the chain: product, column, q, carry
;   ymm0-1   products
;   the carry pass: ymm4 mask, ymm5-7 stream 0's carry, stream 1's carry
;   and sum, ymm8 stream 0's q_36
; Frame (32-byte aligned): QBUF, stream 0's q_36 and carry, T_0, T_1, and
; s at 4096 bytes above each stream's T (lanes_sqr_avx2.inc says why).
;
; Cycles a call (core cycles, `bigmont speed --kernels`, least of three
; runs alternating with the intrinsics; the bound: the 2(k(k+1)/2 + k^2 +
; k) = 4218 ymm vpmuludq of the count it is held to at 2.0 a cycle; this
; kernel issues 2(551 + k^2 + k) = 3914):
;   CPU                                  NASM   intrinsics   bound
;   AMD EPYC family 25 model 1 (Zen 3)   3055   3534         2109
;   (results/amd-epyc-family25-model1/2026-11-29-1130-kernels.txt, NASM ahead in each
;   run; with 32-bit displacements and 3-byte VEX prefixes, 3245 against
;   3509 in 2026-11-29-0545-karatsuba-sqr.txt)

default rel

%define LN_K 37
%define LN_SQR_KARATSUBA 1
%include "lanes_avx2.inc"
%include "lanes_sqr_avx2.inc"

section .text
LANES_SQR_FUNCTION big_lanes_sqr37_avx2_asm

section .note.GNU-stack noalloc noexec nowrite progbits
