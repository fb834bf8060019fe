; big_r52_stack_wipe_ifma -- zero the stack that the IFMA build's C
; kernels leave below their caller, and the registers they leave
; secret-derived values in.
;
; C prototype (bignum/radix52/radix52.h):
;   void big_r52_stack_wipe_ifma(size_t bytes);
;
; Math: none.  Zeroes zmm0-31 and k1-k7, then the `bytes` below its own
; return address, [rsp - bytes, rsp) at entry (from the 64-byte boundary
; at or below its start, aligned stores, and the top 64 bytes by one
; more), then the caller-saved general registers.
;
; Preconditions: AVX-512F (every caller of the IFMA build has it);
; 64 <= bytes, a multiple of 64; that much stack mapped below the caller
; (the kernels it follows used as much).
;
; The C kernels of dual_ifma.c (at 10, 30 and 40 digits, and one half
; alone) keep shifted copies of their operands and of m, the square and
; their spills on their frames, and do not zero them.  Called from the
; function that called the kernels, at the same depth (no alloca in
; between), this covers their frames from the return-address slot they
; shared down: unlike a C function's local array, whose alignment and the
; sanitizers' padding leave a gap below the caller that a kernel's top
; locals may sit in.  Writing below rsp is safe here: the registers are
; zero first, so a signal frame written there meanwhile holds nothing.
;
; Registers: rax the store pointer, rcx the entry rsp, rdx rcx - 64, zmm0
; zero.  No frame, no pushes.
;
; Cost: bytes / 64 + 1 zmm stores, 32 vector and 7 mask clears: once
; per exponentiation (an RSA-3072 one is about 1.4 million rdtsc ticks
; on Intel family 6 model 207), and once per call of the product and
; squaring entry points, whose --kernels rows (ifma) include it where the
; sides' rows do not.

default rel
%include "cfi.inc"
%include "wipe.inc"

section .text

global big_r52_stack_wipe_ifma:function
align 32
big_r52_stack_wipe_ifma:
	CFI_STARTPROC
	WIPE_ZMM_AND_MASKS 0
	mov	rcx, rsp
	mov	rax, rsp
	sub	rax, rdi
	and	rax, -64
	lea	rdx, [rcx - 64]
.zero:
	vmovdqa64 [rax], zmm0
	add	rax, 64
	cmp	rax, rdx
	jbe	.zero
	vmovdqu64 [rcx - 64], zmm0
	WIPE_SCRATCH_GPRS
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
