; fused_hi.asm -- the fused squaring and product with the vector half in
; zmm16-31 (vrow_hi.inc): fusedh_sqr16 (hooks as fused.asm's ROWS_each),
; fusedh_mul16 (the Karatsuba product's 24 register rows: rows 0..22 at
; the first 23, 23..37 in the looped reduction rows); vsqr38h, vmul38h the
; vector halves alone.  struct vjob { out, a, w, b }.
default rel
%define QA_OFF 256
%define QW_OFF 576
%define QOUT_OFF 896
%define FRAME 960
%include "vrow_hi.inc"
%assign VR 0
%macro FUSED_HOOK_ROW 0
%if VR < 23
	VROW_HI	rsp + QA_OFF + 8*VR
%endif
%assign VR VR + 1
%endmacro
%macro FUSED_HOOK_COL 1
%if (%1) == 5 || (%1) == 10
	FUSED_HOOK_ROW
%endif
%endmacro
%macro FUSED_HOOK_LOOP 0
	VROW_HI	rbp + QA_OFF + 8*23
%endmacro
%macro FUSED_HOOK_LAST 0
	VNORM_HI
	VNORM_HI
%endmacro
%include "mont_rows_adx.inc"
%include "mont_window8_adx.inc"
%include "mont_sqr16_adx.inc"

section .text
global fusedh_sqr16
fusedh_sqr16:
	CFI_STARTPROC
	CFI_PUSH_CALLEE_SAVED
	CFI_SUB_RSP	FRAME
	VSETUP_HI	r8, 1
	ADX_SQR_ARGS
	ADX_SQR16_PRODUCT_REG 16
%if VR != 23
%error "sqr hooks"
%endif
	ADX_REDC_LOOPED 16
	ADX_FINAL 16
	VSTORE_HI
	vzeroupper
	CFI_ADD_RSP	FRAME
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

%assign VR 0
%include "mont_mul16_adx.inc"
global fusedh_mul16
fusedh_mul16:
	CFI_STARTPROC
	CFI_PUSH_CALLEE_SAVED
	CFI_SUB_RSP	FRAME
	VSETUP_HI	r9, 0
	ADX_MUL_ARGS
	ADX_MUL16_PRODUCT_KARA 16
%if VR < 23
%error "mul hooks"
%endif
	ADX_REDC_LOOPED 16
	ADX_FINAL 16
	VSTORE_HI
	vzeroupper
	CFI_ADD_RSP	FRAME
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

%macro VALONE 2
global %1
%1:
	sub	rsp, FRAME + 8
	VSETUP_HI	rdi, %2
%assign i 0
%rep 38
	VROW_HI	rsp + QA_OFF + 8*i
%assign i i + 1
%endrep
	VNORM_HI
	VNORM_HI
	VSTORE_HI
	vzeroupper
	add	rsp, FRAME + 8
	ret
%endmacro
VALONE vsqr38h, 1
VALONE vmul38h, 0
section .note.GNU-stack noalloc noexec nowrite progbits
