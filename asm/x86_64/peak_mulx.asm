; bench_peak_mulx -- the multiplier's throughput, for `bigmont speed
; --kernels` (bench/peak.h): `passes` passes of 48 mulx in 12 independent
; chains.
;
;   chain c = 0..11, four times a pass:   x_c = lo(x_c * d)
;
; so a call does 48 * passes multiplications, none of them waiting on
; another chain.
;
; C prototype (bench/peak.h):
;   void bench_peak_mulx(uint64_t passes);
;
; Preconditions: passes >= 1; the CPU has BMI2 (bench/peak.c checks).  The
; values computed are thrown away.
;
; Method: a chain's mulx waits for its previous one (a few cycles of
; latency), so 12 chains keep at least 3 multiplications a cycle ready:
; more than a core issues, so the loop runs at the multiplier's
; throughput, not at its latency.  Every high half goes to one register,
; which renaming makes free; dec/jnz issue beside the mulx.
;
; Register map:
;   rdi  passes left        rdx  d, the mulx source        rbp  high halves
;   rax, rcx, rsi, r8-r15, rbx  x_0 .. x_11
; Stack: saves rbx, rbp, r12-r15; nothing else.

default rel

section .text

%define PEAK_CHAINS rax, rcx, rsi, r8, r9, r10, r11, rbx, r12, r13, r14, r15

; One round: a mulx on each chain.
%macro PEAK_MULX_ROUND 12
%rep 12
	mulx	rbp, %1, %1
%rotate 1
%endrep
%endmacro

global bench_peak_mulx:function
align 32
bench_peak_mulx:
	CFI_STARTPROC
	CFI_PUSH_CALLEE_SAVED
	mov	rdx, 0x9e3779b97f4a7c15		; odd: the chains never reach zero
	mov	rax, rdx
	mov	rcx, rdx
	mov	rsi, rdx
	mov	r8, rdx
	mov	r9, rdx
	mov	r10, rdx
	mov	r11, rdx
	mov	rbx, rdx
	mov	r12, rdx
	mov	r13, rdx
	mov	r14, rdx
	mov	r15, rdx
align 32
.pass:
%rep 4
	PEAK_MULX_ROUND	PEAK_CHAINS
%endrep
	dec	rdi
	jnz	.pass
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
