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

; The setup instructions of each width: VEX on ymm (AVX2 alone), EVEX on
; zmm (AVX-512F).
%macro ALL_ONES 1
%ifidn %1, ymm
	vpcmpeqq ymm15, ymm15, ymm15
%else
	vpternlogq zmm15, zmm15, zmm15, 0xff
%endif
%endmacro
%macro COPY15 2
%ifidn %1, ymm
	vmovdqa	ymm %+ %2, ymm15
%else
	vmovdqa64 zmm %+ %2, zmm15
%endif
%endmacro
%macro ZERO 2
%ifidn %1, ymm
	vpxor	ymm %+ %2, ymm %+ %2, ymm %+ %2
%else
	vpxorq	zmm %+ %2, zmm %+ %2, zmm %+ %2
%endif
%endmacro

; PEAK_VPMULUDQ name, ymm|zmm: the chains' loop.
%macro PEAK_VPMULUDQ 2
global %1:function
align 32
%1:
	CFI_STARTPROC
	ALL_ONES %2
%assign c 0
%rep 12
	COPY15	%2, c
%assign c c+1
%endrep
align 32
%%pass:
%rep 4
%assign c 0
%rep 12
	vpmuludq %2 %+ c, %2 %+ c, %2 %+ 15
%assign c c+1
%endrep
%endrep
	dec	rdi
	jnz	%%pass
	vzeroupper
	ret
	CFI_ENDPROC
%endmacro

; PEAK_PAIRS name, ymm|zmm: the pairs' loop.
%macro PEAK_PAIRS 2
global %1:function
align 32
%1:
	CFI_STARTPROC
	ALL_ONES %2
	COPY15	%2, 14
%assign c 6
%rep 6
	ZERO	%2, c
%assign c c+1
%endrep
align 32
%%pass:
%rep 8
%assign p 0
%rep 3
	vpmuludq %2 %+ p, %2 %+ 14, %2 %+ 15
	vpmuludq %2 %+ %eval(p + 1), %2 %+ 14, %2 %+ 15
	vpaddq	%2 %+ %eval(p + 6), %2 %+ %eval(p + 6), %2 %+ p
	vpaddq	%2 %+ %eval(p + 7), %2 %+ %eval(p + 7), %2 %+ %eval(p + 1)
%assign p p+2
%endrep
%endrep
	dec	rdi
	jnz	%%pass
	vzeroupper
	ret
	CFI_ENDPROC
%endmacro

PEAK_VPMULUDQ bench_peak_vpmuludq, ymm
PEAK_PAIRS bench_peak_vpmuludq_vpaddq, ymm
PEAK_VPMULUDQ bench_peak_vpmuludq_zmm, zmm
PEAK_PAIRS bench_peak_vpmuludq_vpaddq_zmm, zmm

section .note.GNU-stack noalloc noexec nowrite progbits
