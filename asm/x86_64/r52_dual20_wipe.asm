; big_r52_dual20_ifma_wipe -- zero the stack frame that the 20-digit
; radix-2^52 kernels (r52_dual_{mul,sqr}20_ifma.asm) leave behind.
;
; C prototype (bignum/radix52/radix52.h):
;   void big_r52_dual20_ifma_wipe(void);
;
; The kernels keep copies of T, of their operands, k0 and m_2 in a frame
; whose place depends only on rsp at the call (r52_dual20.inc), and do
; not zero it: per call that would cost a fifth of a squaring.  Called
; from the function that called the kernels, at the same stack depth (no
; alloca in between), this builds the same frame and zeroes it: one wipe
; for a whole exponentiation.  Its zmm stores need AVX-512F, which every
; caller of the kernels has.
;
; The kernels also leave secret-derived values in zmm0-31, k1-k6 (the
; carry masks of the normalisation; k0 and k7 hold lane constants) and
; the caller-saved general registers (the ABI lets them: the last chain
; values of the reduction), and anything that saves the register state
; to the stack -- the dynamic linker's lazy binding
; (_dl_runtime_resolve_xsavec, which also saves the argument registers),
; a signal frame -- would copy them there, below the caller
; (Radix52Asm.KernelFramesAreWipedByTheirCaller checks it under ASan).
; So the wipe zeroes those registers too.
;
; Cost: 39 zmm stores and 48 register clears, once per exponentiation:
; about 100 cycles on AMD EPYC family 25 model 17 (a squaring that zeroed
; the frame at its end took 561 cycles against 464; docs/design-notes.md).

default rel
%include "r52_dual20.inc"
%include "wipe.inc"

section .text

global big_r52_dual20_ifma_wipe:function

big_r52_dual20_ifma_wipe:
	CFI_STARTPROC
	R52_FRAME_OPEN
	vpxorq	zmm0, zmm0, zmm0
%assign i 0
%rep R52_FRAME / 64
	vmovdqa64 [rsp + 64*i], zmm0
%assign i i+1
%endrep
	WIPE_ZMM_AND_MASKS 1
	WIPE_SCRATCH_GPRS
	R52_LEAVE
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
