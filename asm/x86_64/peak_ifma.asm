; bench_peak_ifma_zmm, bench_peak_ifma_ymm -- the AVX-512 IFMA
; multiply-add's throughput on 512- and 256-bit registers, for `bigmont
; speed --kernels` (bench/peak.h): `passes` passes of 48 vpmadd52luq in 12
; independent chains.
;
;   chain c = 0..11, four times a pass:   A_c += lo52(X * Y)   (per lane)
;
; so a call does 48 * passes instructions, 8 lane products each on zmm, 4
; on ymm.
;
; C prototypes (bench/peak.h):
;   void bench_peak_ifma_zmm(uint64_t passes);
;   void bench_peak_ifma_ymm(uint64_t passes);
;
; Preconditions: passes >= 1; the CPU has AVX512F, VL and IFMA and the OS
; saves their state (big_r52_cpu_has_ifma; bench/peak.c checks).  The
; values computed are thrown away.
;
; Method: a chain's multiply-add waits for its previous one (about 4
; cycles), so 12 chains keep at least 3 a cycle ready, more than the
; vector ports take: the loop runs at the throughput.  Registers 16-31
; only: they have no VEX encoding, so the ymm form is EVEX AVX-512 IFMA
; and never the AVX-IFMA of later CPUs.
;
; Register map:
;   rdi  passes left     zmm16-27 (ymm16-27)  A_0 .. A_11
;   zmm28, zmm29 (ymm28, ymm29)  X, Y
; Stack: nothing.

default rel

section .text

; One round: a multiply-add on each chain, registers of width %1.
%macro PEAK_IFMA_ROUND 1
%assign %%c 16
%rep 12
	vpmadd52luq %1 %+ %%c, %1 %+ 28, %1 %+ 29
%assign %%c %%c+1
%endrep
%endmacro

; The loop on registers of width %1 (zmm or ymm).
%macro PEAK_IFMA_LOOP 1
	CFI_STARTPROC
%assign %%c 16
%rep 14
	vpxorq	%1 %+ %%c, %1 %+ %%c, %1 %+ %%c
%assign %%c %%c+1
%endrep
align 32
.pass:
%rep 4
	PEAK_IFMA_ROUND	%1
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC
%endmacro

global bench_peak_ifma_zmm:function
align 32
bench_peak_ifma_zmm:
	PEAK_IFMA_LOOP	zmm

global bench_peak_ifma_ymm:function
align 32
bench_peak_ifma_ymm:
	PEAK_IFMA_LOOP	ymm

section .note.GNU-stack noalloc noexec nowrite progbits
