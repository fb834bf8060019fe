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

; The two loops, in the registers %1 names (ymm or zmm), each FMA with
; FMA_RND after its operands (nothing, or the rounding in the instruction)
; and the sums cleared by %2 (vpxor, or vpxorq on zmm).
%macro PEAK_FMA_LOOPS 3
global bench_peak_fma%3:function
align 32
bench_peak_fma%3:
	CFI_STARTPROC
	vbroadcastsd %1 %+ 14, [one]
	%2	%1 %+ 15, %1 %+ 15, %1 %+ 15
%assign c 0
%rep 12
	vmovapd	%1 %+ c, %1 %+ 14
%assign c c+1
%endrep
align 32
%%pass:
%rep 4
%assign c 0
%rep 12
	vfmadd231pd %1 %+ c, %1 %+ 14, %1 %+ 15 FMA_RND
%assign c c+1
%endrep
%endrep
	dec	rdi
	jnz	%%pass
	vzeroupper
	ret
	CFI_ENDPROC

global bench_peak_fma_halves%3:function
align 32
bench_peak_fma_halves%3:
	CFI_STARTPROC
	vbroadcastsd %1 %+ 14, [three]
	vbroadcastsd %1 %+ 15, [five]
	vbroadcastsd %1 %+ 13, [two104]
	vbroadcastsd %1 %+ 12, [two104_52]
%assign c 4
%rep 4
	%2	%1 %+ c, %1 %+ c, %1 %+ c
%assign c c+1
%endrep
align 32
%%halves_pass:
%rep 12
%assign p 0
%rep 2
	vmovapd	%1 %+ p, %1 %+ 13
	vfmadd231pd %1 %+ p, %1 %+ 14, %1 %+ 15 FMA_RND
	vsubpd	%1 %+ %eval(p + 1), %1 %+ p, %1 %+ 12
	vfmsub231pd %1 %+ %eval(p + 1), %1 %+ 14, %1 %+ 15 FMA_RND
	vpaddq	%1 %+ %eval(p + 5), %1 %+ %eval(p + 5), %1 %+ p
	vpaddq	%1 %+ %eval(p + 4), %1 %+ %eval(p + 4), %1 %+ %eval(p + 1)
%assign p p+2
%endrep
%endrep
	dec	rdi
	jnz	%%halves_pass
	vzeroupper
	ret
	CFI_ENDPROC
%endmacro

%define FMA_RND
	PEAK_FMA_LOOPS ymm, vpxor, {}
; The same on zmm (the same register numbers), the rounding in each FMA.
%define FMA_RND , {rd-sae}
	PEAK_FMA_LOOPS zmm, vpxorq, _zmm

section .note.GNU-stack noalloc noexec nowrite progbits
