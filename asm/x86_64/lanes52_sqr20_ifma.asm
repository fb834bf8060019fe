; big_lanes52_sqr20_ifma_asm -- the almost-Montgomery square of eight lane
; numbers of 20 radix-2^52 digits (RSA-2048's CRT halves), each lane under
; its own modulus, one zmm per digit position: AVX-512 IFMA.
;
;   r_l = (a_l^2 + Y_l m_l) / 2^1040,   Y_l = -a_l^2 m_l^-1 mod 2^1040
;
; for every lane l: the words big_lanes52_sqr_ifma's C returns at k = 20
; (bignum/lanes/lanes52_impl.h, ln52_sqr_window), word for word.
;
; C prototype (bignum/lanes/lanes52.h):
;   void big_lanes52_sqr20_ifma_asm(uint64_t *r, const uint64_t *a,
;                                   const struct big_lanes52_mod *mod);
;
; Preconditions: mod->digits == 20; a in the digit form (each digit in
; the low 52 bits of its word, bits above ignored), each lane below
; 2 m_l < R/2 (R = 2^1040); r may equal a, no partial overlap; AVX-512 F
; and IFMA with the OS saving their state (big_lanes52_cpu_has_ifma).
; Constant time: no branch or address
; depends on a digit.  Leaves the doubled digits on its frame and values
; of a, m and the square in zmm0-31: the exponentiation's caller wipes
; both (big_r52_stack_wipe_ifma, BIG_LANES52_FRAME_BYTES).
;
; Algorithm: lanes52_impl.h's register window with the early q, which
; the C takes only up to 12 digits (GCC spills the window at 20), taken
; two rows at a time so that each digit of m and of twice a's tail is
; loaded once for four multiply-adds: on Intel family 6 model 167 a zmm
; load into a register costs the multiply-adds about a quarter of a
; cycle (docs/design-notes.md).  The reduction's pairs, the first two q
; and the carry pass are lanes52_rows20.inc's, which the 20-digit product
; (lanes52_mul20_ifma.asm) shares.
; Column c of the 2k columns (sums of 52-bit halves, lanes52.h bounds
; them below 2^64) lives in zmm(c mod 22) while it is in the window of
; 22, columns i .. i + 21 at the pair of rows i, i + 1:
;   prologue  E_j = lo(2 a_j) (j >= 1) and D_j = E_j + hi(2 a_{j-1})
;             (j >= 2), the digits of twice a's tail, onto the frame;
;             square rows 0 and 1 (a_s^2, a_s E_{s+1}, a_s D_j) into
;             columns 0..21; q_0 = lo(t_0 k0); row 0's top, hi(q_0 m_0)
;             and lo(q_0 m_1) into column 1; q_1 = lo(t_1 k0)
;   pair i    (i even; q_i and q_{i+1} known, row i's terms of column
;             i + 1 in) row i + 1's top, where t_{i+1} passes on once
;             q_{i+1} m_0 is in it, (t + 2^52 - 1) >> 52, so lo(q m_0) is
;             never formed; the terms of columns i + 2 and i + 3 that
;             q_{i+2} and q_{i+3} wait for, each q taken as soon as its
;             column is whole, lo(q m_1) in a register of its own beside
;             hi(q m_0) (the chain from q to q is two multiply-adds and
;             an add), so that row i + 2's terms of column i + 3 are in
;             for the next pair; then both rows' q m_j for j = 4..19,
;             m_j loaded once for the four; columns i and i + 1 cleared
;             for i + 22 and i + 23; after every other pair (i = 0, 4,
;             ..., 16) square rows i/2 + 2 and i/2 + 3, a step ahead of
;             the columns whose q waits for them
;   epilogue  square rows 12..19 in pairs into columns 24..39, then the
;             carry pass over columns 20..39 into r (digits with the
;             carry's bits above 52, as the C stores them).
; Work: 420 multiply-adds for the square, 20 q digits and 780 for the
; reduction (no lo(q m_0)), 37 for E and D: 1257 vpmadd52[lh]uq, every
; one from registers (a multiply-add from memory costs more of the two
; ports on Intel family 6 model 167: docs/design-notes.md); 80 adds and
; shifts for the tops and lo(q m_1), 38 for the carry pass; 369 loads
; (630 with the rows one at a time).
;
; Register map:
;   zmm0-21   the window: column c in zmm(c mod 22)
;   zmm22-25  q_i in zmm(22 + i mod 4)  zmm26  k0
;   zmm27     the top; the carry        zmm28  m_j; a_s of square rows
;   zmm29     m_j; a_{s+1}              zmm30  lo(q m_1); D_j or E_j; 2
;   zmm31     2^52 - 1
;   rdi r, rsi a, rdx mod (m at offset 0, k0 at LN52_MOD_K0)
; Frame: E_j at 64 j (j = 1..19), D_j at 64 (20 + j) (j = 2..19).
;
; Core cycles a call (`bigmont speed --kernels`, the sides of
; LANES52_SQR20_ASM alternating, least of three runs; bound: 1257 at the
; vpmadd52luq peak of those runs, 1.83-1.89 a cycle):
;   CPU                              NASM     C (no scan)   bound
;   Intel family 6 model 167          862     921           665-687
;   (results/intel-r-xeon-r-processor-family6-model167/
;    2026-12-02-1748-kernels-lanes52-sqr20-pairs.txt)
; There the exponentiation by a 1024-bit exponent with this squaring and
; the table read ahead of it took 1234930 against 1372278 by the C
; squaring with the read in slices (0.90); with the rows one at a time
; the squaring took 916-975 and the exponentiation 1296952-1375709 in
; the same hour (`…-1747-kernels-sqr20-pairs-ab.txt`, alternating).
default rel

%define A(j) [rsi + 64 * (j)]
%define M(j) [rdx + 64 * (j)]
%include "lanes52_rows20.inc"

%define LN52_FRAME (64 * 2 * LN52_K)
%define AS0 zmm28
%define AS1 zmm29
%define DT zmm30
%define TWO zmm30
%define E(j) [rsp + 64 * (j)]
%define D(j) [rsp + 64 * (LN52_K + (j))]

[section .rodata align=64]
	align	8
ln52_two:	dq 2
__SECT__

; Square rows %1 and %1 + 1 into the columns 2s .. s + k of each: a_s^2,
; a_s E_{s+1}, a_s D_j; each D_j loaded once for both rows.
%macro SQUARE_PAIR 1
%define S0 (%1)
	vmovdqu64 AS0, A(S0)
	vmovdqu64 AS1, A(S0 + 1)
	vpmadd52luq COL(2 * S0), AS0, AS0
	vpmadd52huq COL(2 * S0 + 1), AS0, AS0
	vpmadd52luq COL(2 * S0 + 2), AS1, AS1
	vpmadd52huq COL(2 * S0 + 3), AS1, AS1
	vmovdqa64 DT, E(S0 + 1)
	vpmadd52luq COL(2 * S0 + 1), AS0, DT
	vpmadd52huq COL(2 * S0 + 2), AS0, DT
%if S0 + 2 < LN52_K
	vmovdqa64 DT, E(S0 + 2)
	vpmadd52luq COL(2 * S0 + 3), AS1, DT
	vpmadd52huq COL(2 * S0 + 4), AS1, DT
	vmovdqa64 DT, D(S0 + 2)
	vpmadd52luq COL(2 * S0 + 2), AS0, DT
	vpmadd52huq COL(2 * S0 + 3), AS0, DT
%endif
%assign %%j S0 + 3
%rep LN52_K - S0 - 3 > 0 ? LN52_K - S0 - 3 : 0
	vmovdqa64 DT, D(%%j)
	vpmadd52luq COL(S0 + %%j), AS0, DT
	vpmadd52huq COL(S0 + %%j + 1), AS0, DT
	vpmadd52luq COL(S0 + %%j + 1), AS1, DT
	vpmadd52huq COL(S0 + %%j + 2), AS1, DT
%assign %%j %%j + 1
%endrep
%undef S0
%endmacro

; Reduction rows %1 and %1 + 1 (even %1), as the header's "pair i" says.
%macro PAIR 1
	COLUMN_TOP (%1) + 1
	REDUCE_PAIR %1
	vpxorq	COL(%1), COL(%1), COL(%1)
	vpxorq	COL((%1) + 1), COL((%1) + 1), COL((%1) + 1)
%endmacro

section .text

global big_lanes52_sqr20_ifma_asm:function
align 64
big_lanes52_sqr20_ifma_asm:
	CFI_STARTPROC
	CFI_PUSH	rbp
	mov	rbp, rsp
	CFI_CFA_REG	rbp, 16
	and	rsp, -64
	sub	rsp, LN52_FRAME

	vpbroadcastq TWO, [ln52_two]
	vpbroadcastq MASK52, [ln52_mask52]
	vmovdqu64 K0, [rdx + LN52_MOD_K0]
	; E_j = lo(2 a_j), D_j = E_j + hi(2 a_{j-1}), in zmm0-21 for now.
%assign j 1
%rep LN52_K - 1
	vmovdqu64 zmm %+ %eval(j % 2), A(j)
	vpxorq	zmm %+ %eval(2 + j % 2), zmm %+ %eval(2 + j % 2), zmm %+ %eval(2 + j % 2)
	vpmadd52luq zmm %+ %eval(2 + j % 2), zmm %+ %eval(j % 2), TWO
	vmovdqa64 E(j), zmm %+ %eval(2 + j % 2)
%if j >= 2
	vpmadd52huq zmm %+ %eval(2 + j % 2), zmm %+ %eval((j - 1) % 2), TWO
	vmovdqa64 D(j), zmm %+ %eval(2 + j % 2)
%endif
%assign j j + 1
%endrep
%assign c 0
%rep LN52_WIN
	vpxorq	COL(c), COL(c), COL(c)
%assign c c + 1
%endrep

	SQUARE_PAIR 0
	FIRST_TWO_Q

%assign p 0
%rep LN52_K / 2
	PAIR 2 * p
%if p % 2 == 0
	SQUARE_PAIR p + 2
%endif
%assign p p + 1
%endrep

	; Square rows 12..19, past the pairs', into the last window.
%assign s LN52_K / 2 + 2
%rep (LN52_K - LN52_K / 2 - 2) / 2
	SQUARE_PAIR s
%assign s s + 2
%endrep

	CARRY_PASS

	vzeroupper
	mov	rsp, rbp
	CFI_CFA_RSP	16
	CFI_POP	rbp
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
