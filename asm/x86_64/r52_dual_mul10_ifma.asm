; big_r52_dual_mul10_ifma -- the almost-Montgomery product of both halves
; of two 10-digit radix-2^52 dual numbers (RSA-1024's halves), AVX-512
; IFMA on zmm pair groups.  The exponentiation squares by it too (b = a).
;
;   r_h = (a_h b_h + Y_h m_h) / 2^520,   Y_h = -a_h b_h m_h^-1 mod 2^520
;
; for h = p, q: the value big_r52_dual_mul_c returns (radix52.h), word for
; word.
;
; C prototype (bignum/radix52/radix52.h):
;   void big_r52_dual_mul10_ifma(uint64_t *r, const uint64_t *a,
;                                const uint64_t *b,
;                                const struct big_r52_dual_mod *mod);
;
; Preconditions: mod->digits == 10, mod->halves == 2 and mod->m_up filled
; (big_r52_dual_mod_prepare); a, b normalised, each half below 2 m (digits
; 10 and 11 of each half zero); r may equal a and/or b, no partial
; overlap; AVX512F/VL/IFMA/DQ/BW with the OS saving their state
; (big_r52_cpu_has_ifma).  Constant time: no branch or address depends on
; a digit.  The frame (704 bytes, 64-aligned below six pushes: at most
; 823 bytes below the caller's stack pointer) and the registers keep
; secret-derived values: the caller wipes them as it wipes the C kernels'
; at 10 digits, 1 KB (big_r52_stack_wipe_ifma, bignum/radix52/dual_ifma.c).
;
; Algorithm: the 20-digit kernels' (r52_dual20.inc, the intel tuning of
; its reduction step, R52_K = 10), all in registers but the chain's lane
; copies.  T = a b + Y m at absolute positions 0..19 in zmm0-4 (group g:
; positions 4g..4g+3 of both halves, 64-bit lane sums, not carried).  Row
; i = 4q + s multiplies digit i of b in both halves (vpermq from b's
; groups: the squaring's b is the last call's r, whose zmm stores forward
; to zmm loads but not to 8-byte loads of their upper half) by a shifted
; up s lanes within each half (A_s; A_4 = A_0 one group up): lo into
; groups q.. of the rows' sums, hi through A_(s+1).  The chain starts
; after rows 0..2 (positions 0..2 complete) and row i + 4 runs before
; step i, so every copy of T that the chain reads has its position's
; product terms.  Step 9 keeps group 2 (positions 8..11): 10
; and 11 are the result's.  r = positions 10..19, each half shifted down
; two lanes, plus the carry out of position 9, normalised.
; Lane bound: a position takes at most 20 product and 20 reduction terms,
; all below 2^52, and a carry below 2^12: below 2^58.
;
; The rows sum apart from the reduction's steps (R52_ROWS_AT): a T group
; takes terms from up to ten rows and ten steps, and one accumulator for
; both made a chain of multiply-adds through each group, the rows waiting
; behind the steps' terms, which wait on the scalar chain.  The chain's
; lane copies and the result take the sum of the two.
;
; Register map:
;   zmm0-4    T, the reduction's sums      zmm18-22  the rows' sums
;   zmm5-7    A_0 (a), then U (the result) zmm8-10   A_1 groups 0-2
;   zmm11-13  A_2 groups 0-2               zmm14-17  A_3 groups 0-3
;   zmm23     a lane copy's sum            zmm24     the row's digit
;   zmm25     scratch                      zmm26     y (r52_dual20.inc)
;   zmm27-30  vpermq indices: digit s of each half in its four lanes
;   zmm31     scratch
;   rsi       b (its groups are vpermq's memory operands); M_0..M_3 from
;   memory (mod->m_up, rcx); the chain's registers are those of
;   r52_dual20.inc.
;
; Core cycles, both halves (`taskset -c 1 bigmont speed --kernels`, the
; side table: best of 300 runs of 32 dependent calls, runs alternating;
; the pair rows are this kernel, as a product and as a squaring):
;   CPU (kernel tables)                  product  squaring  ymm product  ymm squaring
;   Intel Xeon family 6 model 207          213       223        258          239
;     (results/intel-r-xeon-r-processor-family6-model207/2026-11-30-1330-kernels.txt)
; 116 zmm multiply-adds (64 for the rows, 52 for the steps): the ports
; would take about 60 cycles.  A call is latency: the copies and rows
; before the chain's first lane, ten steps of the scalar chain, and the
; normalisation (about 45 cycles: docs/design-notes.md, "RSA-1024 on
; IFMA: the 10-digit product in NASM").

default rel
%define R52_TUNE_INTEL 1
%define R52_K 10
%define R52_M1_IN_REGS 0
%define R52_M0_IN_REGS 0
%define R52_ROWS_AT 18
%define R52_COPY_SUM 23
%include "r52_dual20.inc"

[section .rodata align=64]
	align	64
; vpermq: digit s of each half in that half's four lanes
mul10_spread:	dq 0, 0, 0, 0, 4, 4, 4, 4
		dq 1, 1, 1, 1, 5, 5, 5, 5
		dq 2, 2, 2, 2, 6, 6, 6, 6
		dq 3, 3, 3, 3, 7, 7, 7, 7
__SECT__

section .text

global big_r52_dual_mul10_ifma:function

; %xdefine MUL10_A: the register of group %2 of A_%1 (s = 0..4).
%macro MUL10_A_GROUP 2
%if (%1) == 0
%xdefine MUL10_A zmm%eval(5 + (%2))
%elif (%1) == 4
%xdefine MUL10_A zmm%eval(5 + (%2) - 1)
%else
%xdefine MUL10_A zmm%eval(8 + 3*((%1) - 1) + (%2))
%endif
%endmacro

; A_1..A_3 from A_0 (zmm5-7): group g of A_s is (group g - 1, group g)
; of a through vpermt2q, a's groups -1 and 3 zero.  Scratch: zmm31, zmm25.
%macro MUL10_SHIFTED_COPIES 0
	vpxorq	zmm25, zmm25, zmm25
%assign %%s 1
%rep 3
	vmovdqa64 zmm31, [r52_up_idx %+ %%s]
%assign %%g 0
%rep R52_COPY_GROUPS(%%s)
	MUL10_A_GROUP %%s, %%g
	vmovdqa64 MUL10_A, zmm%eval(%%g ? 4 + %%g : 25)
	vpermt2q MUL10_A, zmm31, zmm%eval(%%g < 3 ? 5 + %%g : 25)
%assign %%g %%g+1
%endrep
%assign %%s %%s+1
%endrep
%endmacro

; Row %1 into the rows' sums: lo from A_s, hi from A_(s+1) (s = 3:
; groups 1.. of A_4).  Rows 0..2 add their hi terms of group 0 into
; zmm25, a second sum the chain's first copy adds (MUL10_CHAIN_START):
; the first lanes the chain reads wait on three multiply-adds a sum, not
; six.
%macro MUL10_ROW 1
%assign %%q (%1) >> 2
%assign %%s (%1) & 3
	vpermq	zmm24, zmm%eval(27 + %%s), [rsi + 64*%%q]
%assign %%g 0
%rep R52_COPY_GROUPS(%%s)
	MUL10_A_GROUP %%s, %%g
	vpmadd52luq zmm%eval(R52_ROWS_AT + %%q + %%g), zmm24, MUL10_A
%assign %%g %%g+1
%endrep
%assign %%g (%%s == 3)
%rep R52_COPY_GROUPS(%%s + 1) - %%g
	MUL10_A_GROUP %%s + 1, %%g
%if (%1) < 3 && %%g == 0
	vpmadd52huq zmm25, zmm24, MUL10_A
%else
	vpmadd52huq zmm%eval(R52_ROWS_AT + %%q + %%g), zmm24, MUL10_A
%endif
%assign %%g %%g+1
%endrep
%endmacro

; r = positions 10..19 of T plus the carries out of position 9 (r9, r11),
; carried into 52-bit digits, as r52_dual20.inc's R52_NORMALISE does for
; 20 digits, and its R52_CARRIES_IN_GPR over three groups: U_g = T groups 2 + g and 3 + g
; shifted down two lanes in each half (zmm5-7), the carries into U_0's
; lanes 0 and 4; each lane keeps 52 bits and takes the bits above from
; the lane below; then the single carries, ((gen << 1) + prop) ^ prop
; over the compare masks (bit 8g + l: group g, lane l) once per half, the
; other half's lanes set to propagate; one masked add of 1 and the mask.
%macro MUL10_NORMALISE 0
	vpxorq	zmm27, zmm27, zmm27
	vmovdqa64 zmm25, [r52_up_idx2]
%assign %%g 2
%rep 3
	vpaddq	zmm%[%%g], zmm%[%%g], zmm%eval(R52_ROWS_AT + %%g)
%assign %%g %%g+1
%endrep
%assign %%g 0
%rep 3
	vmovdqa64 zmm%eval(5 + %%g), zmm%eval(2 + %%g)
	vpermt2q zmm%eval(5 + %%g), zmm25, zmm%eval(%%g < 2 ? 3 + %%g : 27)
%assign %%g %%g+1
%endrep
	mov	eax, 0x01
	kmovb	k5, eax
	mov	eax, 0x10
	kmovb	k6, eax
	vpbroadcastq zmm8{k5}{z}, r9
	vpbroadcastq zmm8{k6}, r11
	vpaddq	zmm5, zmm5, zmm8
	vpbroadcastq zmm31, r15
	vmovdqa64 zmm26, [r52_up_idx1]
%assign %%g 0
%rep 3
	vpsrlq	zmm%eval(8 + %%g), zmm%eval(5 + %%g), 52
	vpandq	zmm%eval(5 + %%g), zmm%eval(5 + %%g), zmm31
	vmovdqa64 zmm25, zmm%eval(%%g ? 7 + %%g : 27)
	vpermt2q zmm25, zmm26, zmm%eval(8 + %%g)
	vpaddq	zmm%eval(5 + %%g), zmm%eval(5 + %%g), zmm25
%assign %%g %%g+1
%endrep
	R52_CARRIES_IN_GPR 3
%endmacro

big_r52_dual_mul10_ifma:
	CFI_STARTPROC
	R52_ENTER rcx
%assign g 0
%rep 3
	vmovdqu64 zmm%eval(5 + g), [rsi + 64*g]
%assign g g+1
%endrep
	mov	rsi, rdx
%assign s 0
%rep 4
	vmovdqa64 zmm%eval(27 + s), [mul10_spread + 64*s]
%assign s s+1
%endrep
	MUL10_SHIFTED_COPIES
	R52_REDC_SETUP
	R52_LOAD_M01
%assign g 0
%rep 5
	vpxorq	zmm%[g], zmm%[g], zmm%[g]
	vpxorq	zmm%eval(R52_ROWS_AT + g), zmm%eval(R52_ROWS_AT + g), zmm%eval(R52_ROWS_AT + g)
%assign g g+1
%endrep
	vpxorq	zmm25, zmm25, zmm25
	MUL10_ROW 0
	MUL10_ROW 1
	MUL10_ROW 2
	; positions 0..2 are complete: the chain starts before row 3
	vpaddq	zmm%[R52_ROWS_AT], zmm%[R52_ROWS_AT], zmm25
	R52_REDC_START
	MUL10_ROW 3
%assign i 0
%rep 10
%if i + 4 <= 9
	MUL10_ROW i + 4
%endif
	R52_REDC_STEP i
%assign i i+1
%endrep
	MUL10_NORMALISE
	R52_LEAVE
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
