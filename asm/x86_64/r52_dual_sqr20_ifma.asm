; big_r52_dual_sqr20_ifma_asm -- the almost-Montgomery square of both
; halves of a 20-digit radix-2^52 dual number, AVX-512 IFMA on zmm.
;
;   r_h = (a_h^2 + Y_h m_h) / 2^1040,   Y_h = -a_h^2 m_h^-1 mod 2^1040
;
; for h = p, q: the value big_r52_dual_sqr_c returns (radix52.h), word for
; word.
;
; C prototype (bignum/radix52/radix52.h):
;   void big_r52_dual_sqr20_ifma_asm(uint64_t *r, const uint64_t *a,
;                                    const struct big_r52_dual_mod *mod);
;
; Preconditions: mod->digits == 20 and mod->m_up filled
; (big_r52_dual_mod_prepare); a normalised, each half below 2 m; r may
; equal a, no partial overlap; AVX512F/VL/IFMA/DQ/BW with the OS saving
; their state (big_r52_cpu_has_ifma).  Constant time: no branch or
; address depends on a digit.
;
; Algorithm (the same value as dual_sqr.h, with the window never moving;
; the lanes, the reduction and the normalisation: r52_dual20.inc):
; 1. The cross products once, a_i a_j for j > i, into T at absolute
;    positions: row i = 4q + s multiplies digit i of both halves (vpermq)
;    by a shifted up s lanes within each half (S_s; S_0 is a, S_4 a one
;    group up), lo into groups from q + s/2 and hi (one position up) with
;    S_(s+1); the lanes with j <= i are masked out of the first group.
; 2. T = 2 T, then the squares a_i^2: a digit pair spread over a group
;    (vpermq) and squared into the even (lo) and odd (hi) lanes.
; 3. 20 reduction steps and the normalisation of groups 5..9 into r.
; Lane bound: a position takes at most 20 cross terms doubled, a square
; term and 40 reduction terms, all below 2^52: below 2^58.
;
; Register map during the product (the reduction's is in r52_dual20.inc):
;   zmm0-9    T                   zmm10-15  S_1   zmm16-21  S_2
;   zmm22-25  vpermq indices for digit s of both halves
;   zmm26     the row's digit     zmm27-28  square spreading indices
;   zmm29     scratch             k1-k3     first-group masks (both halves)
;   rsi       a                   rcx       mod->m_up     S_3 in the frame
;
; Core cycles per call, both halves (`taskset -c 1 bigmont speed --kernels`:
; best of 300 runs of 32 dependent calls):
;   CPU                                   this kernel   dual_sqr.h (C intrinsics)
;   AMD EPYC family 25 model 17 (Zen 4)       500             587
; 369 zmm multiply-adds (Zen 4 issues one a cycle) are the floor; most of
; the rest is latency: making the shifted copies, the normalisation, the
; call.

default rel
%include "r52_dual20.inc"

[section .rodata align=64]
	align	64
; vpermq: digits 4g, 4g+1 (first) or 4g+2, 4g+3 (second) of both halves,
; each in two lanes
sqr_spread_lo:	dq 0, 0, 1, 1, 4, 4, 5, 5
sqr_spread_hi:	dq 2, 2, 3, 3, 6, 6, 7, 7
__SECT__

section .text

global big_r52_dual_sqr20_ifma_asm:function

; %xdefine SQR_SA: group %2 of S_%1 (s = 0..4).
%macro SQR_S_GROUP 2
%if (%1) == 0
%xdefine SQR_SA [rsi + 64*(%2)]
%elif (%1) == 4
%xdefine SQR_SA [rsi + 64*((%2) - 1)]
%elif (%1) == 1
%xdefine SQR_SA zmm%eval(10 + (%2))
%elif (%1) == 2
%xdefine SQR_SA zmm%eval(16 + (%2))
%else
%xdefine SQR_SA [rsp + R52_UP(3, %2)]
%endif
%endmacro

; Row %1 of the cross products.  First groups and masks (j > i):
;   lo: group q + s/2, lanes {1,2,3} (s even) or {3} (s odd)
;   hi: group q + (s+1)/2, lanes {2,3} (s even) or all (s odd)
%macro SQR_ROW 1
%assign %%q (%1) >> 2
%assign %%s (%1) & 3
	vpermq	zmm26, zmm%eval(22 + %%s), [rsi + 64*%%q]
%assign %%first %%q + (%%s >> 1)
%assign %%g %%first
%rep ((19 + %%s) >> 2) - %%first + 1
	SQR_S_GROUP %%s, %%g
%if %%g > %%first
	vpmadd52luq zmm%eval(%%q + %%g), zmm26, SQR_SA
%elif %%s & 1
	vpmadd52luq zmm%eval(%%q + %%g){k2}, zmm26, SQR_SA
%else
	vpmadd52luq zmm%eval(%%q + %%g){k1}, zmm26, SQR_SA
%endif
%assign %%g %%g+1
%endrep
%assign %%first %%q + ((%%s + 1) >> 1)
%assign %%g %%first
%rep ((20 + %%s) >> 2) - %%first + 1
	SQR_S_GROUP %%s + 1, %%g
%if %%g == %%first && (%%s & 1) == 0
	vpmadd52huq zmm%eval(%%q + %%g){k3}, zmm26, SQR_SA
%else
	vpmadd52huq zmm%eval(%%q + %%g), zmm26, SQR_SA
%endif
%assign %%g %%g+1
%endrep
%endmacro

; T = 2 T plus the squares: group j takes a_(2j)^2, a_(2j+1)^2 (each
; half), lo in the even lanes (k5 = 0x55), hi in the odd (k6 = 0xaa).
%macro SQR_DOUBLE_ADD_SQUARES 0
%assign %%j 0
%rep 10
	vpaddq	zmm%[%%j], zmm%[%%j], zmm%[%%j]
	vpermq	zmm29, zmm%eval(27 + (%%j & 1)), [rsi + 64*(%%j >> 1)]
	vpmadd52luq zmm%[%%j]{k5}, zmm29, zmm29
	vpmadd52huq zmm%[%%j]{k6}, zmm29, zmm29
%assign %%j %%j+1
%endrep
%endmacro

big_r52_dual_sqr20_ifma_asm:
	CFI_STARTPROC
	R52_ENTER rdx
	R52_SHIFTED_COPIES 1
	R52_REDC_SETUP
	mov	eax, 0xee
	kmovb	k1, eax
	mov	eax, 0x88
	kmovb	k2, eax
	mov	eax, 0xcc
	kmovb	k3, eax
	mov	eax, 0x55
	kmovb	k5, eax
	mov	eax, 0xaa
	kmovb	k6, eax
%assign j 0
%rep 10
	vpxorq	zmm%[j], zmm%[j], zmm%[j]
%assign j j+1
%endrep
	R52_LOAD_BCAST_IDX
	vmovdqa64 zmm27, [sqr_spread_lo]
	vmovdqa64 zmm28, [sqr_spread_hi]
%assign i 0
%rep 19
	SQR_ROW i
%assign i i+1
%endrep
	R52_LOAD_M01
	SQR_DOUBLE_ADD_SQUARES
	R52_REDC_START
%assign i 0
%rep 20
	R52_REDC_STEP i
%assign i i+1
%endrep
	R52_NORMALISE
	R52_LEAVE
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
