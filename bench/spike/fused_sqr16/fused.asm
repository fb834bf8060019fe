; fused.asm -- the fused squaring spike (run.sh builds and runs it): p's
; 16-chunk adx Montgomery squaring (mont_sqr16_adx.inc, unchanged but for
; the empty-by-default hooks of hooks.patch) with q's vertical squaring
; (vrow.inc) scheduled into it row by row.
;
;   void fused_sqr16(uint64_t *r, const uint64_t *a, const uint64_t *n,
;                    uint64_t n0, const struct vjob *q);
;   struct vjob { uint64_t *out; const uint64_t *a; const uint64_t *w; };
;
; r = a^2 2^-1024 mod n as big_mont_sqr_vec_adx at len 16; q->out = the
; almost-Montgomery square of q->a (40 words, digits in the low 28 bits, a
; < 2w) mod q->w, digits below 2^29.  vsqr38(q) is the vector half alone.
; Frame: T (256 bytes) as the adx kernel's, then q's digits (the
; broadcasts' source), then q->out.  Not constant-time reviewed; no wipe.
default rel
%include "vrow.inc"
%define QA_OFF 256
%define QOUT_OFF 576
%define FRAME 912
%define EV_OFF 656
%define OD_OFF 784
; The hooks: ROWS_each (one vector row a hook point: 21 product rows, two
; in the doubling pass, one a looped reduction row), ROWS_loop2 (a row at
; every third product hook for rows 0..7, then two a reduction row, from
; copies of digits 8, 10, .. and 9, 11, .. at 8-byte strides), ROWS_front
; (rows 0..37 at the 23 product hooks, two at each of the first 15).
%assign VR 0
%assign HP 0
%macro VHOOK 0
%ifdef ROWS_each
	VROW	rsp + QA_OFF + 8*VR
%assign VR VR + 1
%elifdef ROWS_loop2
%if (HP % 3) == 0 && VR < 8
	VROW	rsp + QA_OFF + 8*VR
%assign VR VR + 1
%endif
%else
	VROW	rsp + QA_OFF + 8*VR
%assign VR VR + 1
%if HP < 15
	VROW	rsp + QA_OFF + 8*VR
%assign VR VR + 1
%endif
%endif
%assign HP HP + 1
%endmacro
%macro FUSED_HOOK_ROW 0
	VHOOK
%endmacro
%macro FUSED_HOOK_COL 1
%if (%1) == 5 || (%1) == 10
	VHOOK
%endif
%endmacro
%macro FUSED_HOOK_LOOP 0
%ifdef ROWS_each
%if VR != 23
%error "VR"
%endif
	VROW	rbp + QA_OFF + 8*23
%elifdef ROWS_loop2
%if VR != 8
%error "VR"
%endif
	VROW	rbp + EV_OFF
	VROW	rbp + OD_OFF
%elif VR != 38
%error "VR"
%endif
%endmacro
%macro FUSED_HOOK_LAST 0
	VNORM
	VNORM
%endmacro
%include "mont_rows_adx.inc"
%include "mont_window8_adx.inc"
%include "mont_sqr16_adx.inc"

section .text
; void fused_sqr16(uint64_t *r, const uint64_t *a, const uint64_t *n, uint64_t n0, const struct vjob *q)
global fused_sqr16
fused_sqr16:
	CFI_STARTPROC
	CFI_PUSH_CALLEE_SAVED
	CFI_SUB_RSP	FRAME
	VSETUP	r8, QA_OFF, QOUT_OFF
%ifdef ROWS_loop2
%assign k 0
%rep 15
	mov	rax, [rsp + QA_OFF + 8*(8 + 2*k)]
	mov	[rsp + EV_OFF + 8*k], rax
	mov	rax, [rsp + QA_OFF + 8*(9 + 2*k)]
	mov	[rsp + OD_OFF + 8*k], rax
%assign k k + 1
%endrep
%endif
	ADX_SQR_ARGS
	ADX_SQR16_PRODUCT_REG 16
	ADX_REDC_LOOPED 16
	vzeroupper
	ADX_FINAL 16
	VSTORE	QOUT_OFF
	vzeroupper
	CFI_ADD_RSP	FRAME
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

; the vector half alone: void vsqr38(const struct vjob *q)
global vsqr38
vsqr38:
	sub	rsp, 648
	VSETUP	rdi, 0, 320
%assign i 0
%rep 38
	VROW	rsp + 8*i
%assign i i + 1
%endrep
	VNORM
	VNORM
	VSTORE	320
	vzeroupper
	add	rsp, 648
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
