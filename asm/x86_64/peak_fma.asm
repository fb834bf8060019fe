; bench_peak_fma -- the AVX2 double-precision fused multiply-add's
; throughput on ymm, for `bigmont speed --kernels` (bench/peak.h): the
; multiplier of the FMA lanes (bignum/lanes/lanes52_fma.c).  `passes`
; passes of 48 vfmadd231pd in 12 independent chains:
;
;   chain c = 0..11, four times a pass:   A_c = A_c + X * Y   (per lane)
;
; bench_peak_fma_halves -- the same multiplier as those kernels use it:
; each digit product's two halves, `passes` passes of 24 products (48
; FMAs), issued as the kernels issue them:
;
;   P = X * Y + 2^104;  S = P - (2^104 + 2^52);  L = X * Y - S
;   HI_(i mod 2) += P;  LO_(i mod 2) += L          (64-bit integer adds)
;
; X and Y never change and the four sums are chains of one-cycle adds,
; so the loop runs at the throughput: where the subtraction and the adds
; take ports the FMAs need, below the vfmadd231pd peak.  Both count FMAs.
;
; bench_peak_fma_zmm, bench_peak_fma_halves_zmm -- the same two loops on
; zmm (AVX-512F), each FMA rounding toward minus infinity in the
; instruction ({rd-sae}), as the zmm FMA lanes (lanes52_fma512.c) issue it.
;
; C prototypes (bench/peak.h):
;   void bench_peak_fma(uint64_t passes);
;   void bench_peak_fma_halves(uint64_t passes);
;   void bench_peak_fma_zmm(uint64_t passes);
;   void bench_peak_fma_halves_zmm(uint64_t passes);
;
; Preconditions: passes >= 1; the CPU has AVX2 and FMA and the OS saves
; the YMM state (big_lanes52_cpu_has_fma; bench/peak.c checks); for the
; zmm loops AVX-512F and the ZMM state (big_lanes_cpu_has_avx512).  The
; values computed are thrown away; none is a denormal, an infinity or a
; NaN (X = 1, Y = 0 in the chains; 3 and 5 in the halves).
;
; Method: a chain's FMA waits for its previous one (4 or 5 cycles), so
; 12 chains keep more FMAs ready than the two FMA ports take.
;
; Register map:
;   bench_peak_fma:         rdi  passes left   ymm0-11  A_0 .. A_11
;                           ymm14  X   ymm15  Y
;   bench_peak_fma_halves:  rdi  passes left   ymm0-3  P, S of two products
;                           ymm4-7  LO_0, HI_0, LO_1, HI_1
;                           ymm12  2^104 + 2^52   ymm13  2^104
;                           ymm14  X   ymm15  Y
; Stack: nothing.

default rel

section .rodata
align 8
one:		dq 1.0
three:		dq 3.0
five:		dq 5.0
two104:		dq 0x4670000000000000	; 2^104
two104_52:	dq 0x4670000000000001	; 2^104 + 2^52

section .text

global bench_peak_fma:function
align 32
bench_peak_fma:
	CFI_STARTPROC
	vbroadcastsd ymm14, [one]
	vxorpd	ymm15, ymm15, ymm15
%assign c 0
%rep 12
	vmovapd	ymm %+ c, ymm14
%assign c c+1
%endrep
align 32
.pass:
%rep 4
%assign c 0
%rep 12
	vfmadd231pd ymm %+ c, ymm14, ymm15
%assign c c+1
%endrep
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC

global bench_peak_fma_halves:function
align 32
bench_peak_fma_halves:
	CFI_STARTPROC
	vbroadcastsd ymm14, [three]
	vbroadcastsd ymm15, [five]
	vbroadcastsd ymm13, [two104]
	vbroadcastsd ymm12, [two104_52]
%assign c 4
%rep 4
	vpxor	ymm %+ c, ymm %+ c, ymm %+ c
%assign c c+1
%endrep
align 32
.pass:
%rep 12
%assign p 0
%rep 2
	vmovapd	ymm %+ p, ymm13
	vfmadd231pd ymm %+ p, ymm14, ymm15
	vsubpd	ymm %+ %eval(p + 1), ymm %+ p, ymm12
	vfmsub231pd ymm %+ %eval(p + 1), ymm14, ymm15
	vpaddq	ymm %+ %eval(p + 5), ymm %+ %eval(p + 5), ymm %+ p
	vpaddq	ymm %+ %eval(p + 4), ymm %+ %eval(p + 4), ymm %+ %eval(p + 1)
%assign p p+2
%endrep
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC

; The two loops above on zmm (the same register numbers), each FMA with its
; rounding in the instruction.
global bench_peak_fma_zmm:function
align 32
bench_peak_fma_zmm:
	CFI_STARTPROC
	vbroadcastsd zmm14, [one]
	vpxorq	zmm15, zmm15, zmm15
%assign c 0
%rep 12
	vmovapd	zmm %+ c, zmm14
%assign c c+1
%endrep
align 32
.pass:
%rep 4
%assign c 0
%rep 12
	vfmadd231pd zmm %+ c, zmm14, zmm15, {rd-sae}
%assign c c+1
%endrep
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC

global bench_peak_fma_halves_zmm:function
align 32
bench_peak_fma_halves_zmm:
	CFI_STARTPROC
	vbroadcastsd zmm14, [three]
	vbroadcastsd zmm15, [five]
	vbroadcastsd zmm13, [two104]
	vbroadcastsd zmm12, [two104_52]
%assign c 4
%rep 4
	vpxorq	zmm %+ c, zmm %+ c, zmm %+ c
%assign c c+1
%endrep
align 32
.pass:
%rep 12
%assign p 0
%rep 2
	vmovapd	zmm %+ p, zmm13
	vfmadd231pd zmm %+ p, zmm14, zmm15, {rd-sae}
	vsubpd	zmm %+ %eval(p + 1), zmm %+ p, zmm12
	vfmsub231pd zmm %+ %eval(p + 1), zmm14, zmm15, {rd-sae}
	vpaddq	zmm %+ %eval(p + 5), zmm %+ %eval(p + 5), zmm %+ p
	vpaddq	zmm %+ %eval(p + 4), zmm %+ %eval(p + 4), zmm %+ %eval(p + 1)
%assign p p+2
%endrep
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
