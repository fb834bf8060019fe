; big_lanes_avx2_wipe -- zero the stack that the NASM lane kernels
; (lanes_{mul,sqr}<k>_avx2.asm) leave below their caller, and the vector
; and scratch registers they leave secret-derived values in.
;
; C prototypes (bignum/lanes/lanes.h):
;   void big_lanes_avx2_wipe(void);
;   void big_lanes_avx2_wipe_bytes(size_t bytes);
;
; big_lanes_avx2_wipe_bytes: the same, `bytes` (rounded up to 128) in
; place of LANES_WIPE_BYTES: the FMA lanes (bignum/lanes/lanes52.h:
; BIG_LANES52_FRAME_BYTES, deeper in the sanitizer builds).
;
; The kernels keep the accumulator's columns, the Montgomery digits, the
; squaring's digit sums lo + hi and a_{k-1} in a frame below the rsp at
; their call (lanes_avx2.inc: LN_FRAME, at most 8,768 bytes: the 55-digit
; squaring), and do not zero it: one wipe at the end of an exponentiation
; costs what zeroing it in every call would cost once.  Called from the
; function that called the kernels, directly or through the entry points'
; switch (big_lanes_pow in lanes_impl.h), this zeroes LANES_WIPE_BYTES
; below its own return address: the kernels' frames, their pushes and
; alignment lie within that, with over 7 KB to spare for the frames of
; the calls in between.
;
; The kernels also leave values of their operands in ymm0-15 and the
; caller-saved general registers; anything that saves the register state
; to the stack (the dynamic linker's lazy binding, a signal frame) would
; copy them there, so they are zeroed too.
;
; Cost: 512 ymm stores and vzeroall, once per exponentiation (a lane
; exponentiation at 37 digits is about 4.5 million cycles).

default rel
%include "cfi.inc"
%include "wipe.inc"

%define LANES_WIPE_BYTES 16384

section .text

global big_lanes_avx2_wipe:function
global big_lanes_avx2_wipe_bytes:function
align 32
big_lanes_avx2_wipe:
	CFI_STARTPROC
	mov	edi, LANES_WIPE_BYTES
big_lanes_avx2_wipe_bytes:
	CFI_PUSH	rbp
	mov	rbp, rsp
	CFI_CFA_REG	rbp, 16
	add	rdi, 127
	and	rdi, -128
	and	rsp, -32
	sub	rsp, rdi
	vpxor	xmm0, xmm0, xmm0
	mov	rax, rsp
	lea	rcx, [rsp + rdi]
.zero:
	vmovdqa	[rax], ymm0
	vmovdqa	[rax + 32], ymm0
	vmovdqa	[rax + 64], ymm0
	vmovdqa	[rax + 96], ymm0
	add	rax, 128
	cmp	rax, rcx
	jb	.zero
	vzeroall
	WIPE_SCRATCH_GPRS
	mov	rsp, rbp
	CFI_CFA_RSP	16
	CFI_POP	rbp
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
