; group_loop.asm -- spike (issue 43): the lane squaring's group pass at 37
; digits (REDUCE_PASS: four reduction rows over 36 columns, the next
; group's digit chain inside) as a small loop, alone, beside a passenger
; double row (bench/spike/passenger_adx.inc) woven into it or after it, and
; the double row alone.  The loop body is some 400-700 instructions,
; small enough for the op cache: this separates what the interleave gains
; in a small hot loop from what it gains inside the whole kernel
; (bench/spike/lanes_sqr37_hybrid_avx2.asm, the same woven pass run 16
; times a call).  Values are not checked: the pass runs over the same
; columns again and again (the instructions and their timing do not
; depend on them).  With -DPR_NOPS the rows are nops (passenger_adx.inc).
;
;   nasm -f elf64 -Iasm/x86_64/ -Ibench/spike/ -Pasm/x86_64/cfi.inc \
;     bench/spike/group_loop.asm -o /tmp/group_loop.o
;   gcc -O2 bench/spike/group_loop.c /tmp/group_loop.o -o /tmp/group_loop
;   taskset -c 1 /tmp/group_loop
;
; C prototypes (each runs its body iters times):
;   void group_vec(const struct big_lanes_mod *mod, struct passenger *p, long iters);
;   void group_rows, group_seq, group_woven: the same arguments.
; Registers: the lane squaring's for the pass (rcx m, r8 the columns,
; rbx T), r10 the count, r11 the passenger, rax, rdx, r12 - r15 the rows.

default rel

%include "passenger_adx.inc"

%assign PS_WEAVE 0
%assign PS_DONE 0
%macro PASSENGER_STEP 3
%if PS_WEAVE
%if (%1) == (%2)
%assign PS_DONE 0
%endif
%assign %%upto (PR_DPIECES * ((%1) - (%2) + 1)) / ((%3) - (%2) + 1)
%rep %%upto - PS_DONE
	PR_DPIECE PS_DONE
%assign PS_DONE PS_DONE + 1
%endrep
%endif
%endmacro

%define LN_K 37
%include "lanes_avx2.inc"

; GROUP_FN name, pass, rows, woven
%macro GROUP_FN 4
global %1:function
align 32
%1:
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
	vpxor	xmm0, xmm0, xmm0
%assign %%c 0
%rep (LN_FRAME - TCOLS) / 32
	vmovdqa	[rbx + 32 * %%c], ymm0
%assign %%c %%c+1
%endrep
%assign %%c 0
%rep 4
	vmovdqa	[rsp + QBUF + 32 * %%c], ymm0
%assign %%c %%c+1
%endrep
	vpxor	CQ, CQ, CQ
	vpxor	CC, CC, CC
	mov	rcx, rdi
	mov	r11, rsi
	mov	r10, rdx
	mov	r8, rbx
align 32
%%loop:
	mov	r12, r11
%if %2
%assign HOOK_ROWS 4
%assign PS_WEAVE %4
	REDUCE_PASS
%assign PS_WEAVE 0
%assign HOOK_ROWS 0
%endif
%if %3
	PR_DROW_WHOLE
%endif
	dec	r10
	jnz	%%loop
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
%endmacro

section .text
GROUP_FN group_vec, 1, 0, 0
GROUP_FN group_rows, 0, 1, 0
GROUP_FN group_seq, 1, 1, 0
GROUP_FN group_woven, 1, 0, 1

section .note.GNU-stack noalloc noexec nowrite progbits
