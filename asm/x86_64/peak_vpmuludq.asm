; bench_peak_vpmuludq -- the AVX2 32x32->64-bit vector multiply's
; throughput on ymm, for `bigmont speed --kernels` (bench/peak.h): the
; multiplier of the lane kernels (bignum/lanes/).  `passes` passes of 48
; vpmuludq in 12 independent chains.
;
;   chain c = 0..11, four times a pass:   A_c = lo32(A_c) * lo32(Y)   (per lane)
;
; so a call does 48 * passes instructions of 4 lane products each.
;
; C prototype (bench/peak.h):
;   void bench_peak_vpmuludq(uint64_t passes);
;
; Preconditions: passes >= 1; the CPU has AVX2 and the OS saves the YMM
; state (big_lanes_cpu_has_avx2; bench/peak.c checks).  The values
; computed are thrown away.
;
; Method: a chain's multiply waits for its previous one (3 to 5 cycles),
; so 12 chains keep more multiplies ready than the vector ports take: the
; loop runs at the throughput.
;
; Register map:
;   rdi  passes left     ymm0-11  A_0 .. A_11     ymm15  Y
; Stack: nothing.

default rel

section .text

%macro PEAK_VPMULUDQ_ROUND 0
%assign %%c 0
%rep 12
	vpmuludq ymm %+ %%c, ymm %+ %%c, ymm15
%assign %%c %%c+1
%endrep
%endmacro

global bench_peak_vpmuludq:function
align 32
bench_peak_vpmuludq:
	CFI_STARTPROC
	vpcmpeqq ymm15, ymm15, ymm15
%assign c 0
%rep 12
	vmovdqa	ymm %+ c, ymm15
%assign c c+1
%endrep
align 32
.pass:
%rep 4
	PEAK_VPMULUDQ_ROUND
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
