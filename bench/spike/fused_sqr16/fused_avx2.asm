; fused_avx2.asm -- the fused squaring spike on AVX2 (run.sh): p's 16-chunk
; adx squaring with q's vertical squaring on ymm (vrow_avx2.inc) woven in,
; one vector row at each hook as fused.asm's ROWS_each.  Same prototypes
; as fused.asm: fused2_sqr16 (the pair), vsqr38_avx2 (the vector half
; alone).  Frame: T (256 bytes), q's digits, w's digits, q->out.
default rel
%define QA_OFF 256
%define QW_OFF 576
%define QOUT_OFF 896
%define FRAME 960
%include "vrow_avx2.inc"
%assign VR 0
%macro FUSED_HOOK_ROW 0
	VROW2	rsp + QA_OFF + 8*VR
%assign VR VR + 1
%endmacro
%macro FUSED_HOOK_COL 1
%if (%1) == 5 || (%1) == 10
	VROW2	rsp + QA_OFF + 8*VR
%assign VR VR + 1
%endif
%endmacro
%macro FUSED_HOOK_LOOP 0
%if VR != 23
%error "VR"
%endif
	VROW2	rbp + QA_OFF + 8*23
%endmacro
%macro FUSED_HOOK_LAST 0
	VNORM2
	VNORM2
	VSTORE2	QOUT_OFF
	vzeroupper
%endmacro
%include "mont_rows_adx.inc"
%include "mont_window8_adx.inc"
%include "mont_sqr16_adx.inc"

section .text
global fused2_sqr16
fused2_sqr16:
	CFI_STARTPROC
	CFI_PUSH_CALLEE_SAVED
	CFI_SUB_RSP	FRAME
	VSETUP2	r8, QOUT_OFF
	ADX_SQR_ARGS
	ADX_SQR16_PRODUCT_REG 16
	ADX_REDC_LOOPED 16
	ADX_FINAL 16
	CFI_ADD_RSP	FRAME
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

global vsqr38_avx2
vsqr38_avx2:
	sub	rsp, FRAME + 8
	VSETUP2	rdi, QOUT_OFF
%assign i 0
%rep 38
	VROW2	rsp + QA_OFF + 8*i
%assign i i + 1
%endrep
	VNORM2
	VNORM2
	VSTORE2	QOUT_OFF
	vzeroupper
	add	rsp, FRAME + 8
	ret
section .note.GNU-stack noalloc noexec nowrite progbits
