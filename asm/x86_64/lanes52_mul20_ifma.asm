; big_lanes52_mul20_ifma_asm -- the almost-Montgomery product of two sets
; of eight lane numbers of 20 radix-2^52 digits (RSA-2048's CRT halves),
; each lane under its own modulus, one zmm per digit position: AVX-512
; IFMA.
;
;   r_l = (a_l b_l + Y_l m_l) / 2^1040,   Y_l = -a_l b_l m_l^-1 mod 2^1040
;
; for every lane l: the words big_lanes52_mul_ifma's C returns at k = 20
; (bignum/lanes/lanes52_impl.h, ln52_mul_window), word for word.
;
; C prototype (bignum/lanes/lanes52.h):
;   void big_lanes52_mul20_ifma_asm(uint64_t *r, const uint64_t *a,
;                                   const uint64_t *b,
;                                   const struct big_lanes52_mod *mod);
;
; Preconditions: mod->digits == 20; a and b in the digit form (each digit
; in the low 52 bits of its word; a's bits above ignored, b's too), each
; lane of a and b below 2 m_l < R/2 (R = 2^1040) or as lanes52.h allows
; the C; r may equal a or b, no partial overlap; AVX-512 F and IFMA with
; the OS saving their state (big_lanes52_cpu_has_ifma).  Constant time:
; no branch or address depends on a digit.  No frame; leaves values of
; a, b, m and the product in zmm0-31, which the exponentiation's caller
; wipes (big_r52_stack_wipe_ifma).
;
; Algorithm: the 20-digit squaring's reduction rows two at a time
; (lanes52_rows20.inc; lanes52_sqr20_ifma.asm says why: each m_j loaded
; once for four multiply-adds), with the product's rows in pairs too, b_j
; loaded once for both.  A product row starts at its own column, so it
; cannot lag the reduction as the square rows do: columns i + 2 and i + 3,
; whose q the head of the pair of rows i, i + 1 takes, need product rows
; i + 2 and i + 3, which reach column i + 23 while the window holds
; i .. i + 21.  So each pair takes row i + 1's top first, clears columns
; i and i + 1 (both done) for i + 22 and i + 23, adds product rows i + 2
; and i + 3, then the rest of its rows (REDUCE_PAIR):
;   prologue  product rows 0 and 1 into columns 0..21; q_0, q_1
;   pair i    (i even) the top of column i + 1; columns i, i + 1
;             cleared and product rows i + 2, i + 3 added (i + 2 < 20);
;             the reduction rows i, i + 1 and q_{i+2}, q_{i+3}
;   epilogue  the carry pass over columns 20..39 into r.
; Work: 800 multiply-adds for the product, 20 q digits and 780 for the
; reduction (no lo(q m_0)): 1600 vpmadd52[lh]uq from registers; 80 adds
; and shifts for the tops and lo(q m_1), 38 for the carry pass; 441
; loads (the C's: 679, and 20 multiply-adds from memory).
;
; Register map: lanes52_rows20.inc's, with a_i, a_{i+1} in zmm28, zmm29
; and b_j in zmm30 while product rows go in; rdi r, rsi a, rdx b, rcx mod
; (m at offset 0, k0 at LN52_MOD_K0).
;
; Core cycles a call (`bigmont speed --kernels`, its "ifma mul" row at 20
; digits, three runs each, the builds with and without this kernel
; alternating; bound: 1600 at the vpmadd52luq peak of those runs,
; 1.83-1.89 a cycle):
;   CPU                              NASM         C             bound
;   Intel family 6 model 167          980-1067     1098-1163     847-874
;   (results/intel-r-xeon-r-processor-family6-model167/
;    2026-12-02-1919-kernels-mul20-pairs-ab.txt)
; There an 8-operation rsa_private_batch at RSA-2048 took 0.976-0.978 of
; the time with the C product (both builds in one process, alternating).

default rel

%define A(j) [rsi + 64 * (j)]
%define B(j) [rdx + 64 * (j)]
%define M(j) [rcx + 64 * (j)]
%include "lanes52_rows20.inc"

%define AI0 zmm28
%define AI1 zmm29
%define BJ zmm30

; Product rows %1 and %1 + 1 into columns %1 .. %1 + 21: lo(a_i b_j) into
; column i + j, hi into i + j + 1; each b_j loaded once for both rows.
%macro PRODUCT_PAIR 1
	vmovdqu64 AI0, A(%1)
	vmovdqu64 AI1, A((%1) + 1)
%assign %%j 0
%rep LN52_K
	vmovdqu64 BJ, B(%%j)
	vpmadd52luq COL((%1) + %%j), AI0, BJ
	vpmadd52huq COL((%1) + %%j + 1), AI0, BJ
	vpmadd52luq COL((%1) + %%j + 1), AI1, BJ
	vpmadd52huq COL((%1) + %%j + 2), AI1, BJ
%assign %%j %%j + 1
%endrep
%endmacro

section .text

global big_lanes52_mul20_ifma_asm:function
align 64
big_lanes52_mul20_ifma_asm:
	CFI_STARTPROC
	vpbroadcastq MASK52, [ln52_mask52]
	vmovdqu64 K0, [rcx + LN52_MOD_K0]
%assign c 0
%rep LN52_WIN
	vpxorq	COL(c), COL(c), COL(c)
%assign c c + 1
%endrep

	PRODUCT_PAIR 0
	FIRST_TWO_Q

%assign i 0
%rep LN52_K / 2
	COLUMN_TOP i + 1
%if i + 2 < LN52_K
	vpxorq	COL(i), COL(i), COL(i)
	vpxorq	COL(i + 1), COL(i + 1), COL(i + 1)
	PRODUCT_PAIR i + 2
%endif
	REDUCE_PAIR i
%assign i i + 2
%endrep

	CARRY_PASS

	vzeroupper
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
