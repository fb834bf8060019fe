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
; the C takes only up to 12 digits (GCC spills the window at 20).  Column
; c of the 2k columns (sums of 52-bit halves, lanes52.h bounds them below
; 2^64) lives in zmm(c mod 22) while it is in the window of 22, columns
; i .. i + 21 at row i:
;   prologue  E_j = lo(2 a_j) (j >= 1) and D_j = E_j + hi(2 a_{j-1})
;             (j >= 2), the digits of twice a's tail, onto the frame;
;             square row 0 (a_0^2, a_0 E_1, a_0 D_j) into columns 0..20;
;             q_0 = lo(t_0 k0)
;   row i     (q_i known) the top t_i passes on once q_i m_0 is in it,
;             (t_i + 2^52 - 1) >> 52, so lo(q_i m_0) is never formed;
;             hi(q_i m_0), lo(q_i m_1) and the top into column i + 1,
;             then q_{i+1} = lo(t_{i+1} k0) at once, so that the chain
;             from q to q is two multiply-adds and an add (lo(q_i m_1)
;             beside it, in a register of its own), ahead of the row's
;             36 other multiply-adds in program order; those, q_i m_j
;             for j = 2..19; square row i/2 + 1 for even i (its columns
;             start at i + 2, so it is on no chain until row i + 1);
;             column i's register cleared for column i + 22
;   epilogue  square rows 11..19 into columns 22..39, then the carry
;             pass over columns 20..39 into r (digits with the carry's
;             bits above 52, as the C stores them).
; Work: 420 multiply-adds for the square, 20 q digits and 780 for the
; reduction (no lo(q m_0)), 37 for E and D: 1257 vpmadd52[lh]uq, every
; one from registers (a multiply-add from memory costs more of the two
; ports on Intel family 6 model 167: docs/design-notes.md); 80 adds and
; shifts for the tops and lo(q m_1), 38 for the carry pass.
;
; Register map:
;   zmm0-21   the window: column c in zmm(c mod 22)
;   zmm22     k0                     zmm23, zmm24  q of even, odd rows
;   zmm25-26  m_j (by j's parity)    zmm27         a_s of a square row
;   zmm28     E or D of a square row zmm29         the top; the carry
;   zmm30     2^52 - 1               zmm31         2, then lo(q m_1)
;   rdi r, rsi a, rdx mod (m at offset 0, k0 at LN52_MOD_K0)
; Frame: E_j at 64 j (j = 1..19), D_j at 64 (20 + j) (j = 2..19).
;
; Core cycles a call (`bigmont speed --kernels`, the sides of
; LANES52_SQR20_ASM alternating, least of three runs; bound: 1257 at the
; vpmadd52luq peak of that run, 1.73 a cycle):
;   CPU                              NASM     C (no scan)   bound
;   Intel family 6 model 167          971     997           727
;   (results/intel-r-xeon-r-processor-family6-model167/
;    2026-12-02-0320-kernels-lanes52-sqr20.txt)
; There the exponentiation by a 1024-bit exponent with this squaring and
; the table read ahead of it took 1433273 against 1528265 by the C
; squaring with the read in slices (0.94).

default rel

%define LN52_K 20
%define LN52_WIN 22
%define LN52_MOD_K0 (2 * 8 * 8 * 41)	; offsetof(struct big_lanes52_mod, k0)
%define LN52_FRAME (64 * 2 * LN52_K)

%define COL(c) zmm %+ %eval((c) % LN52_WIN)
%define K0 zmm22
%define QR(i) zmm %+ %eval(23 + (i) % 2)
%define MJ(j) zmm %+ %eval(25 + (j) % 2)
%define AS zmm27
%define DT zmm28
%define TOP zmm29
%define MASK52 zmm30
%define TWO zmm31
%define LOQM1 zmm31
%define A(j) [rsi + 64 * (j)]
%define M(j) [rdx + 64 * (j)]
%define E(j) [rsp + 64 * (j)]
%define D(j) [rsp + 64 * (LN52_K + (j))]

[section .rodata align=64]
	align	8
ln52_two:	dq 2
ln52_mask52:	dq 0xfffffffffffff
__SECT__

; Square row s into the columns 2s .. s + k: a_s^2, a_s E_{s+1}, a_s D_j.
%macro SQUARE_ROW 1
	vmovdqu64 AS, A(%1)
	vpmadd52luq COL(2 * (%1)), AS, AS
	vpmadd52huq COL(2 * (%1) + 1), AS, AS
%if (%1) + 1 < LN52_K
	vmovdqa64 DT, E(%1 + 1)
	vpmadd52luq COL(2 * (%1) + 1), AS, DT
	vpmadd52huq COL(2 * (%1) + 2), AS, DT
%endif
%assign %%j (%1) + 2
%rep LN52_K - (%1) - 2 > 0 ? LN52_K - (%1) - 2 : 0
	vmovdqa64 DT, D(%%j)
	vpmadd52luq COL(%1 + %%j), AS, DT
	vpmadd52huq COL(%1 + %%j + 1), AS, DT
%assign %%j %%j + 1
%endrep
%endmacro

; Row %1 of the reduction (q in QR(%1)), as the header says.
%macro ROW 1
	vpaddq	TOP, COL(%1), MASK52
	vpsrlq	TOP, TOP, 52
	vmovdqu64 MJ(0), M(0)
	vmovdqu64 MJ(1), M(1)
	vpxorq	LOQM1, LOQM1, LOQM1
	vpmadd52luq LOQM1, QR(%1), MJ(1)
	vpaddq	COL(%1 + 1), COL(%1 + 1), TOP
	vpmadd52huq COL(%1 + 1), QR(%1), MJ(0)
	vpmadd52huq COL(%1 + 2), QR(%1), MJ(1)
	vpaddq	COL(%1 + 1), COL(%1 + 1), LOQM1
%if (%1) + 1 < LN52_K
	vpxorq	QR(%1 + 1), QR(%1 + 1), QR(%1 + 1)
	vpmadd52luq QR(%1 + 1), COL(%1 + 1), K0
%endif
%assign %%j 2
%rep LN52_K - 2
	vmovdqu64 MJ(%%j), M(%%j)
	vpmadd52luq COL(%1 + %%j), QR(%1), MJ(%%j)
	vpmadd52huq COL(%1 + %%j + 1), QR(%1), MJ(%%j)
%assign %%j %%j + 1
%endrep
%if (%1) % 2 == 0 && (%1) / 2 + 1 < LN52_K
	SQUARE_ROW (%1) / 2 + 1
%endif
	vpxorq	COL(%1), COL(%1), COL(%1)
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

	SQUARE_ROW 0
	vpxorq	QR(0), QR(0), QR(0)
	vpmadd52luq QR(0), COL(0), K0

%assign i 0
%rep LN52_K
	ROW i
%assign i i + 1
%endrep

	; Square rows past the loop's, into the last window (columns 20..41).
%assign s LN52_K / 2 + 1
%rep LN52_K - LN52_K / 2 - 1
	SQUARE_ROW s
%assign s s + 1
%endrep

	; The carry pass: digit j = column 20 + j plus the carry below,
	; stored with its carry bits; the carry is its bits 52 and up.
	vmovdqu64 [rdi], COL(LN52_K)
	vpsrlq	TOP, COL(LN52_K), 52
%assign j 1
%rep LN52_K - 1
	vpaddq	COL(LN52_K + j), COL(LN52_K + j), TOP
	vmovdqu64 [rdi + 64 * j], COL(LN52_K + j)
%if j + 1 < LN52_K
	vpsrlq	TOP, COL(LN52_K + j), 52
%endif
%assign j j + 1
%endrep

	vzeroupper
	mov	rsp, rbp
	CFI_CFA_RSP	16
	CFI_POP	rbp
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
