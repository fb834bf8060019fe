; fused_hw.asm -- fused_hi.asm with w in zmm10-14 (vrow_hw.inc); run.sh
; assembles it with vex.patch applied (the Karatsuba product's and the
; wipe's SSE moves VEX-encoded), as legacy SSE beside dirty upper halves
; of zmm0-15 costs a merge a move.  fusedw_sqr16, fusedw_mul16, vsqr38w,
; vmul38w as fused_hi.asm's fusedh_ and h names.  struct vjob { out, a,
; w, b }.
default rel
%define QA_OFF 256
%define QW_OFF 576
%define QOUT_OFF 896
%define FRAME 960
%include "vrow_hw.inc"
%assign VR 0
%macro FUSED_HOOK_ROW 0
%if VR < 23
	VROW_HW	rsp + QA_OFF + 8*VR
%endif
%assign VR VR + 1
%endmacro
%macro FUSED_HOOK_COL 1
%if (%1) == 5 || (%1) == 10
	FUSED_HOOK_ROW
%endif
%endmacro
%macro FUSED_HOOK_LOOP 0
	VROW_HW	rbp + QA_OFF + 8*23
%endmacro
%macro FUSED_HOOK_LAST 0
	VNORM_HW
	VNORM_HW
%endmacro
%include "mont_rows_adx.inc"
%include "mont_window8_adx.inc"
%include "mont_sqr16_adx.inc"

section .text
global fusedw_sqr16
fusedw_sqr16:
	CFI_STARTPROC
	CFI_PUSH_CALLEE_SAVED
	CFI_SUB_RSP	FRAME
	VSETUP_HW	r8, 1
	ADX_SQR_ARGS
	ADX_SQR16_PRODUCT_REG 16
%if VR != 23
%error "sqr hooks"
%endif
	ADX_REDC_LOOPED 16
	vzeroupper
	ADX_FINAL 16
	VSTORE_HW
	vzeroupper
	CFI_ADD_RSP	FRAME
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

%assign VR 0
%include "mont_mul16_adx.inc"
global fusedw_mul16
fusedw_mul16:
	CFI_STARTPROC
	CFI_PUSH_CALLEE_SAVED
	CFI_SUB_RSP	FRAME
	VSETUP_HW	r9, 0
	ADX_MUL_ARGS
	ADX_MUL16_PRODUCT_KARA 16
%if VR < 23
%error "mul hooks"
%endif
	ADX_REDC_LOOPED 16
	vzeroupper
	ADX_FINAL 16
	VSTORE_HW
	vzeroupper
	CFI_ADD_RSP	FRAME
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

%macro VALONE 2
global %1
%1:
	sub	rsp, FRAME + 8
	VSETUP_HW	rdi, %2
%assign i 0
%rep 38
	VROW_HW	rsp + QA_OFF + 8*i
%assign i i + 1
%endrep
	VNORM_HW
	VNORM_HW
	VSTORE_HW
	vzeroupper
	add	rsp, FRAME + 8
	ret
%endmacro
VALONE vsqr38w, 1
VALONE vmul38w, 0
section .note.GNU-stack noalloc noexec nowrite progbits
