; lanes_mul37_hybrid_avx2.asm -- spike (issue 43): the lane product at 37
; digits with a passenger's two 16-chunk Montgomery products woven in (the
; product steps of the passenger's exponentiation, as
; lanes_sqr37_hybrid_avx2.asm carries its squarings).  Not in the build.
;
; Build (with lanes_sqr37_hybrid_avx2.asm's line; hybrid.c links both):
;   nasm -f elf64 -Iasm/x86_64/ -Ibench/spike/ -Pasm/x86_64/cfi.inc \
;     bench/spike/lanes_mul37_hybrid_avx2.asm -o /tmp/hybrid_mul.o
;
; The lane product (asm/x86_64/lanes_mul37_avx2.asm: the same macros, the
; same instructions in the same order but for one register) keeps b in
; rdx, which mulx needs, and a's group in r11, the rows' passenger
; pointer elsewhere.  So here b lives in r10 (the stream count moves to
; the frame), the passenger in rdi (r moves to the frame until the carry
; pass), and the rows use rax, rdx, r12 - r15 as in the squaring.
; Stretches per stream: 0 the product's group 0, 1 the product's group
; pass (x 8), 2 the reduction's group pass (x 8), 3 the last group pass.
; Default: a double row in each run of the reduction's group pass;
; -DPS_FIRE=(1 << 1) puts them in the product's.
;
; C prototype (spike):
;   void big_lanes_mul37_hybrid_avx2(uint64_t *r, const uint64_t *a,
;                                    const uint64_t *b,
;                                    const struct big_lanes_mod *mod,
;                                    struct passenger *p);
; The lanes: big_lanes_mul37_avx2_asm's contract and words; the
; passenger: as in lanes_sqr37_hybrid_avx2.asm.

default rel

%define PR_P rdi
%include "passenger_adx.inc"

%ifndef PS_FIRE
%define PS_FIRE (1 << 2)
%endif
%assign PS_STRETCH -1
%assign PS_ACTIVE 0
%assign PS_DONE 0
%assign PS_RUNS 0

%macro PASSENGER_STEP 3
%if (%1) == (%2)
%assign PS_STRETCH PS_STRETCH + 1
%assign PS_ACTIVE (PS_FIRE >> PS_STRETCH) & 1
%assign PS_DONE 0
%if PS_ACTIVE
%assign PS_RUNS PS_RUNS + ((PS_STRETCH == 1 || PS_STRETCH == 2) ? 8 : 1)
%endif
%endif
%if PS_ACTIVE
%assign %%upto (PR_DPIECES * ((%1) - (%2) + 1)) / ((%3) - (%2) + 1)
%rep %%upto - PS_DONE
	PR_DPIECE PS_DONE
%assign PS_DONE PS_DONE + 1
%endrep
%endif
%endmacro

%define LN_K 37
%include "lanes_avx2.inc"

%define SAVE_R 224			; r, in the frame's free slot
%define SAVE_N 232			; streams left

section .text

global big_lanes_mul37_hybrid_avx2:function
align 32
big_lanes_mul37_hybrid_avx2:
	CFI_STARTPROC
	CFI_PUSH	r12
	CFI_PUSH	r13
	CFI_PUSH	r14
	CFI_PUSH	r15
	CFI_PUSH	rbx
	CFI_PUSH	rbp
	mov	rbp, rsp
	CFI_CFA_REG	rbp, 56
	and	rsp, -32
	sub	rsp, LN_FRAME
	lea	rbx, [rsp + TCOLS]
	mov	[rsp + SAVE_R], rdi
	mov	rdi, r8				; the passenger
	PR_ZERO_T 0
	PR_ZERO_T 1
	mov	r12, rdi			; row 0
	mov	r10, rdx			; b
	mov	dword [rsp + SAVE_N], 2
.stream:
%assign row_ 0
%rep 4
	vmovdqu	ymm %+ row_, [rsi + LN_DIGIT * row_]
%assign row_ row_+1
%endrep
	ROWS_PASS rbx, r10, 1, 4, 0, LN_K + 2, 0
	FIRST_CHAIN
	vpxor	U, U, U
%assign j LN_K + 3
%rep LN_K - 3
	vmovdqa	[rbx + LN_COL * j], U
%assign j j+1
%endrep
	lea	r8, [rbx + 4 * LN_COL]
	lea	r11, [rsi + 4 * LN_DIGIT]
	mov	r9d, LN_G - 1
align 32
.ab:
%assign row_ 0
%rep 4
	vmovdqu	ymm %+ row_, [r11 + LN_DIGIT * row_]
%assign row_ row_+1
%endrep
	ROWS_PASS r8, r10, 0, 4, 0, LN_K + 2, 0
	add	r8, 4 * LN_COL
	add	r11, 4 * LN_DIGIT
	dec	r9d
	jnz	.ab
	vmovdqu	ymm15, [rsi + LN_DIGIT * (LN_K - 1)]
	REDUCE_STREAM
	vmovdqa	CX, [r8 + LN_COL * LONE_COL]
	vpmuludq CT, ymm15, [r10]
	vpaddq	CX, CX, CT
	vpaddq	CX, CX, CC
	CHAIN_DIGIT 0
	dec	dword [rsp + SAVE_N]
	jz	.carry
	vmovdqa	[rsp + SAVE_Q], CQ
	vmovdqa	[rsp + SAVE_C], CC
	vmovdqa	[rsp + SAVE_A], ymm15
	add	rsi, 32
	add	r10, 32
	add	rcx, 32
	add	rbx, TSIZE
	jmp	.stream
.carry:
	mov	rdx, r10
	mov	rdi, [rsp + SAVE_R]
	CARRY_OUT 1
	vzeroupper
	mov	rsp, rbp
	CFI_CFA_RSP	56
	CFI_POP	rbp
	CFI_POP	rbx
	CFI_POP	r15
	CFI_POP	r14
	CFI_POP	r13
	CFI_POP	r12
	ret
	CFI_ENDPROC

%if PS_STRETCH != 3
%error "lanes_mul37_hybrid_avx2: expected 4 stretches a stream"
%endif
%if PS_RUNS != 8
%error "lanes_mul37_hybrid_avx2: expected 8 double rows a stream"
%endif

section .note.GNU-stack noalloc noexec nowrite progbits
