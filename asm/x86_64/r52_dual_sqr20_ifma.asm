; big_r52_dual_sqr20_ifma_amd (r52_dual_sqr20_ifma_intel.asm: _intel) --
; the almost-Montgomery square of both halves of a 20-digit radix-2^52
; dual number, AVX-512 IFMA on zmm.  big_r52_dual_sqr20_ifma_asm is bound
; to one of the two at load time (bignum/dispatch.c).
;
;   r_h = (a_h^2 + Y_h m_h) / 2^1040,   Y_h = -a_h^2 m_h^-1 mod 2^1040
;
; for h = p, q: the value big_r52_dual_sqr_c returns (radix52.h), word for
; word.
;
; C prototype (bignum/radix52/radix52.h):
;   void big_r52_dual_sqr20_ifma_amd(uint64_t *r, const uint64_t *a,
;                                    const struct big_r52_dual_mod *mod);
;   (and _intel, the same)
;
; Preconditions: mod->digits == 20 and mod->m_up filled
; (big_r52_dual_mod_prepare); a normalised, each half below 2 m; r may
; equal a, no partial overlap; AVX512F/VL/IFMA/DQ/BW with the OS saving
; their state (big_r52_cpu_has_ifma).  Constant time: no branch or
; address depends on a digit.
;
; Algorithm (the same value as dual_sqr_impl.h, with the window never moving;
; the lanes, the reduction and the normalisation: r52_dual20.inc):
; 1. The cross products once, a_i a_j for j > i, into T at absolute
;    positions: row i = 4q + s multiplies digit i of both halves (two
;    broadcasts) by a shifted up s lanes within each half (S_s; S_0 is
;    a, S_4 a one group up), lo into groups from q + s/2 and hi (one
;    position up) with S_(s+1); the lanes with j <= i are masked out of
;    the first group.
; 2. T = 2 T, then the squares a_i^2: a digit pair spread over a group
;    (vpermq) and squared into the even (lo) and odd (hi) lanes; group by
;    group, as soon as its last row is in.
; 3. 20 reduction steps, interleaved with the rows, and the
;    normalisation of groups 5..9 into r.
; Lane bound: a position takes at most 20 cross terms, doubled, 2 square
; terms and 40 reduction terms, all below 2^52, and a carry below 2^12:
; below 83 * 2^52 < 2^59.
;
; Two schedules, one per tuning (r52_dual20.inc):
; amd    rows 0..11 first (they complete T groups 0..5, which reduction
;        step 0 reaches), then two rows a group of four steps.  Register
;        map during the product (the reduction's is in r52_dual20.inc):
;          zmm0-9   T      rows 0..11: zmm10-15  S_1, zmm17-21  S_2 groups
;                          1-5, zmm22-25, zmm16  S_3 groups 1-5
;          zmm26    the row's digit    zmm27-28  square spreading indices
;          zmm29    scratch            k1-k3     first-group masks
;          rsi      a                  rcx       mod->m_up
;          rows 12..18: S_1 groups 3-5, S_2 and S_3 groups 4-5 from the
;          frame
; intel  rows 0..3 first (T groups 0 and 1, which the chain reads
;        first), then a row a step.  The reduction's terms for groups
;        2..9 go to U_g = zmm(8 + g) until group g's cross products are
;        doubled; a group below 5 then takes U_g in, before the chain
;        copies it, and the reduction adds to it from there on; groups
;        5..9 take theirs before the normalisation.  So the chain starts
;        after four rows and the rows fill its latency.  Register map:
;          zmm0-9   T                  zmm10-17  U_2 .. U_9
;          zmm18-22 M_0 groups 0-4     zmm24     the row's digit
;          zmm26    y                  zmm27-29  as above
;          S_1..S_3 and M_1..M_3 from memory (the frame, mod->m_up)
;
; Core cycles, both halves (`taskset -c 1 bigmont speed --kernels`: best
; of 300 runs of 32 dependent calls; the C column, dual_sqr_impl.h's
; intrinsics at 20 digits, is bignum/radix52/dual_ifma.c's table):
;   CPU (kernel tables)                    tuning  per call  per digit       C
;   AMD EPYC family 25 model 17 (Zen 4)     amd       464      23.2        594
;     (results/amd-epyc-family25-model17/2026-11-26-2153-kernels.txt)
;   Intel Xeon family 6 model 207           amd       504      25.2
;     (results/intel-r-xeon-r-processor-   intel      399      20.0
;     family6-model207/2026-11-27-1838-kernels.txt; the tunings alternating)
; Zen 4's floor is the 349 zmm multiply-adds (one a cycle); the carry
; resolution and the making of the shifted copies each add about 20
; cycles that nothing can fill, the next squaring needing every digit.
; Intel's is the two vector ports, which the multiply-adds share with the
; broadcasts, shuffles and the chain's mulx (about 555 operations), and
; the scalar chain (docs/design-notes.md).

default rel
%ifdef R52_TUNE_INTEL
%define R52_M1_IN_REGS 0
%define R52_M0_REG 18
%define SQR_DIGIT zmm24

; Where the reduction's terms for T group %1 go: T itself once the group
; has taken U_g in (groups below SQR_MERGED), else U_g.
%macro R52_ACC_REG 1
%if (%1) < SQR_MERGED
%xdefine R52_AR zmm%eval(%1)
%else
%xdefine R52_AR zmm%eval(8 + (%1))
%endif
%endmacro
%else
%define SQR_DIGIT zmm26
%endif
%include "r52_dual20.inc"

[section .rodata align=64]
	align	64
; vpermq: digits 4g, 4g+1 (first) or 4g+2, 4g+3 (second) of both halves,
; each in two lanes
sqr_spread_lo:	dq 0, 0, 1, 1, 4, 4, 5, 5
sqr_spread_hi:	dq 2, 2, 3, 3, 6, 6, 7, 7
__SECT__

section .text

%define SQR20 R52_TUNED(big_r52_dual_sqr20_ifma)
global SQR20:function

; The groups of S_s the rows read: from group s/2 (a row's first group
; is q + s/2 for S_s, q + (s+1)/2 for S_(s+1)), so never group 0 of S_2
; or S_3.
%define SHIFTED_COPY_READ(s, g) ((g) >= ((s) >> 1))
%ifdef R52_TUNE_INTEL
; Every row reads them from the frame.
%define SHIFTED_COPY_STORED(s, g) SHIFTED_COPY_READ(s, g)
%define SHIFTED_COPY_REG(s, g) -1
%else
; Rows 12..18, after S_1..S_3 have left the registers, read only groups
; 3.. of S_1 and 4.. of S_2 and S_3, the only ones stored.
%define SHIFTED_COPY_STORED(s, g) ((g) >= ((s) == 1 ? 3 : 4))

; The register of group g of S_s for rows 0..11: S_1 in zmm10-15, S_2
; groups 1..5 in zmm17-21, S_3 groups 1..5 in zmm22-25 and zmm16.
%define SHIFTED_COPY_REG(s, g) ((s) == 1 ? 10 + (g) : (s) == 2 ? 16 + (g) : (g) < 5 ? 21 + (g) : 16)
%endif

; %xdefine SQR_SA: group %2 of S_%1 (s = 0..4); S_1..S_3 from their
; registers while SQR_S_IN_REGS is 1, else from the frame.
%macro SQR_S_GROUP 2
%if (%1) == 0
%xdefine SQR_SA [rsi + 64*(%2)]
%elif (%1) == 4
%xdefine SQR_SA [rsi + 64*((%2) - 1)]
%elif SQR_S_IN_REGS
%xdefine SQR_SA zmm%eval(SHIFTED_COPY_REG(%1, %2))
%elif SHIFTED_COPY_STORED(%1, %2)
%xdefine SQR_SA [rsp + R52_UP(%1, %2)]
%else
%error "a row after row 11 reads a group of S_s that is not stored"
%endif
%endmacro

; Row %1 of the cross products.  First groups and masks (j > i):
;   lo: group q + s/2, lanes {1,2,3} (s even) or {3} (s odd)
;   hi: group q + (s+1)/2, lanes {2,3} (s even) or all (s odd)
%macro SQR_ROW 1
%assign %%q (%1) >> 2
%assign %%s (%1) & 3
	vpbroadcastq SQR_DIGIT, [rsi + 64*%%q + 8*%%s]
	vpbroadcastq SQR_DIGIT{k4}, [rsi + 64*%%q + 32 + 8*%%s]
%assign %%first %%q + (%%s >> 1)
%assign %%g %%first
%rep ((19 + %%s) >> 2) - %%first + 1
	SQR_S_GROUP %%s, %%g
%if %%g > %%first
	vpmadd52luq zmm%eval(%%q + %%g), SQR_DIGIT, SQR_SA
%elif %%s & 1
	vpmadd52luq zmm%eval(%%q + %%g){k2}, SQR_DIGIT, SQR_SA
%else
	vpmadd52luq zmm%eval(%%q + %%g){k1}, SQR_DIGIT, SQR_SA
%endif
%assign %%g %%g+1
%endrep
%assign %%first %%q + ((%%s + 1) >> 1)
%assign %%g %%first
%rep ((20 + %%s) >> 2) - %%first + 1
	SQR_S_GROUP %%s + 1, %%g
%if %%g == %%first && (%%s & 1) == 0
	vpmadd52huq zmm%eval(%%q + %%g){k3}, SQR_DIGIT, SQR_SA
%else
	vpmadd52huq zmm%eval(%%q + %%g), SQR_DIGIT, SQR_SA
%endif
%assign %%g %%g+1
%endrep
%endmacro

; T group %1 = 2 T group %1 plus its squares: group j takes a_(2j)^2,
; a_(2j+1)^2 (each half), lo in the even lanes (k5 = 0x55), hi in the odd
; (k6 = 0xaa).
%macro SQR_DOUBLE_ADD_SQUARES 1
%assign %%j %1
	vpaddq	zmm%[%%j], zmm%[%%j], zmm%[%%j]
	vpermq	zmm29, zmm%eval(27 + (%%j & 1)), [rsi + 64*(%%j >> 1)]
	vpmadd52luq zmm%[%%j]{k5}, zmm29, zmm29
	vpmadd52huq zmm%[%%j]{k6}, zmm29, zmm29
%endmacro

SQR20:
	CFI_STARTPROC
	R52_ENTER rdx
	R52_SHIFTED_COPIES 0
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
%ifdef R52_TUNE_INTEL
%assign j 0
%rep 18
	vpxorq	zmm%[j], zmm%[j], zmm%[j]
%assign j j+1
%endrep
	vmovdqa64 zmm27, [sqr_spread_lo]
	vmovdqa64 zmm28, [sqr_spread_hi]
	R52_LOAD_M01
%assign SQR_S_IN_REGS 0
%assign SQR_MERGED 0
%assign row 0
%rep 4
	SQR_ROW row
%assign row row+1
%endrep
	SQR_DOUBLE_ADD_SQUARES 0
	SQR_DOUBLE_ADD_SQUARES 1
%assign SQR_MERGED 2
	R52_REDC_START
	; Row r (odd) completes group (r - 1)/2, row 18 group 9: row 9, the
	; last for group 4, comes at step 5, and the chain first copies group
	; g after step 4g - 3.
%assign step 0
%rep 20
	R52_REDC_SCALAR 0, step
	R52_REDC_SCALAR 1, step
%if row <= 18
	SQR_ROW row
%if (row & 1) || row == 18
%assign g (row == 18) ? 9 : (row - 1) >> 1
	SQR_DOUBLE_ADD_SQUARES g
%if g < 5
	vpaddq	zmm%[g], zmm%[g], zmm%eval(8 + g)
%assign SQR_MERGED g + 1
%endif
%endif
%assign row row+1
%endif
	R52_REDC_VECTOR step
%assign step step+1
%endrep
%assign g 5
%rep 5
	vpaddq	zmm%[g], zmm%[g], zmm%eval(8 + g)
%assign g g+1
%endrep
%else
%assign j 0
%rep 10
	vpxorq	zmm%[j], zmm%[j], zmm%[j]
%assign j j+1
%endrep
	vmovdqa64 zmm27, [sqr_spread_lo]
	vmovdqa64 zmm28, [sqr_spread_hi]
	; Rows 0..11 complete T groups 0..5: reduction steps 0..3 can start
	; (step i adds to groups i/4 .. i/4 + 5, which must be doubled first).
	; From there on two rows complete one more group, which lets four
	; more steps run, with S_1..S_3 read from the frame: M_0 and M_1
	; take their registers.
%assign SQR_S_IN_REGS 1
%assign row 0
%rep 12
	SQR_ROW row
%assign row row+1
%endrep
%assign SQR_S_IN_REGS 0
	R52_LOAD_M01
%assign j 0
%rep 6
	SQR_DOUBLE_ADD_SQUARES j
%assign j j+1
%endrep
	R52_REDC_START
%assign step 0
%rep 5
%rep 4
	R52_REDC_STEP step
%assign step step+1
%endrep
%if row < 19
	SQR_ROW row
%assign row row+1
%endif
%if row < 19
	SQR_ROW row
%assign row row+1
%endif
%if j < 10
	SQR_DOUBLE_ADD_SQUARES j
%assign j j+1
%endif
%endrep
%endif
	R52_NORMALISE
	R52_LEAVE
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
