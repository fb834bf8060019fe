; bench_peak_vpmuludq -- the AVX2 32x32->64-bit vector multiply's
; throughput on ymm, for `bigmont speed --kernels` (bench/peak.h): the
; multiplier of the lane kernels (bignum/lanes/).  `passes` passes of 48
; vpmuludq in 12 independent chains.
;
;   chain c = 0..11, four times a pass:   A_c = lo32(A_c) * lo32(Y)   (per lane)
;
; so a call does 48 * passes instructions of 4 lane products each.
;
; bench_peak_vpmuludq_vpaddq -- the same multiply with the sum each
; product of a lane kernel needs (a column's t += x y): `passes` passes of
; 48 pairs, issued as the kernels issue them (multiply multiply add add):
;
;   pair i = 0..47 of a pass:   P = lo32(X) * lo32(Y);  S_(i mod 6) += P
;
; The products are independent (X and Y never change) and the six sums
; are chains of one-cycle adds, so again the loop runs at the throughput:
; where the adds take ports the multiplies need, below the vpmuludq peak.
;
; bench_peak_vpmuludq_zmm, bench_peak_vpmuludq_vpaddq_zmm -- the same two
; loops on zmm (8 lane products an instruction): the multiplier of the
; lanes on AVX-512F (bignum/lanes/lanes_avx512.c).
;
; C prototypes (bench/peak.h):
;   void bench_peak_vpmuludq(uint64_t passes);
;   void bench_peak_vpmuludq_vpaddq(uint64_t passes);
;   void bench_peak_vpmuludq_zmm(uint64_t passes);
;   void bench_peak_vpmuludq_vpaddq_zmm(uint64_t passes);
;
; Preconditions: passes >= 1; the CPU has AVX2 and the OS saves the YMM
; state (big_lanes_cpu_has_avx2; bench/peak.c checks); for the _zmm
; loops AVX-512F and the ZMM state (big_lanes_cpu_has_avx512).  The
; values computed are thrown away.
;
; Method: a chain's multiply waits for its previous one (3 to 5 cycles),
; so 12 chains keep more multiplies ready than the vector ports take: the
; loop runs at the throughput.
;
; Register map:
;   bench_peak_vpmuludq:         rdi  passes left   ymm0-11  A_0 .. A_11
;                                ymm15  Y
;   bench_peak_vpmuludq_vpaddq:  rdi  passes left   ymm0-5  products
;                                ymm6-11  S_0 .. S_5   ymm14  X   ymm15  Y
;   the _zmm loops: the same registers as zmm
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

%macro PEAK_PAIRS_ROUND 0
%assign %%p 0
%rep 3
	vpmuludq ymm %+ %%p, ymm14, ymm15
	vpmuludq ymm %+ %eval(%%p + 1), ymm14, ymm15
	vpaddq	ymm %+ %eval(%%p + 6), ymm %+ %eval(%%p + 6), ymm %+ %%p
	vpaddq	ymm %+ %eval(%%p + 7), ymm %+ %eval(%%p + 7), ymm %+ %eval(%%p + 1)
%assign %%p %%p+2
%endrep
%endmacro

global bench_peak_vpmuludq_vpaddq:function
align 32
bench_peak_vpmuludq_vpaddq:
	CFI_STARTPROC
	vpcmpeqq ymm15, ymm15, ymm15
	vmovdqa	ymm14, ymm15
%assign c 6
%rep 6
	vpxor	ymm %+ c, ymm %+ c, ymm %+ c
%assign c c+1
%endrep
align 32
.pass:
%rep 8
	PEAK_PAIRS_ROUND
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC

%macro PEAK_VPMULUDQ_ROUND_ZMM 0
%assign %%c 0
%rep 12
	vpmuludq zmm %+ %%c, zmm %+ %%c, zmm15
%assign %%c %%c+1
%endrep
%endmacro

global bench_peak_vpmuludq_zmm:function
align 32
bench_peak_vpmuludq_zmm:
	CFI_STARTPROC
	vpternlogq zmm15, zmm15, zmm15, 0xff
%assign c 0
%rep 12
	vmovdqa64 zmm %+ c, zmm15
%assign c c+1
%endrep
align 32
.pass:
%rep 4
	PEAK_VPMULUDQ_ROUND_ZMM
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC

%macro PEAK_PAIRS_ROUND_ZMM 0
%assign %%p 0
%rep 3
	vpmuludq zmm %+ %%p, zmm14, zmm15
	vpmuludq zmm %+ %eval(%%p + 1), zmm14, zmm15
	vpaddq	zmm %+ %eval(%%p + 6), zmm %+ %eval(%%p + 6), zmm %+ %%p
	vpaddq	zmm %+ %eval(%%p + 7), zmm %+ %eval(%%p + 7), zmm %+ %eval(%%p + 1)
%assign %%p %%p+2
%endrep
%endmacro

global bench_peak_vpmuludq_vpaddq_zmm:function
align 32
bench_peak_vpmuludq_vpaddq_zmm:
	CFI_STARTPROC
	vpternlogq zmm15, zmm15, zmm15, 0xff
	vmovdqa64 zmm14, zmm15
%assign c 6
%rep 6
	vpxorq	zmm %+ c, zmm %+ c, zmm %+ c
%assign c c+1
%endrep
align 32
.pass:
%rep 8
	PEAK_PAIRS_ROUND_ZMM
%endrep
	dec	rdi
	jnz	.pass
	vzeroupper
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
