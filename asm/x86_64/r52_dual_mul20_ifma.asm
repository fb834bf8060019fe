; big_r52_dual_mul20_ifma_amd (r52_dual_mul20_ifma_intel.asm: _intel) --
; the almost-Montgomery product of both halves of two 20-digit radix-2^52
; dual numbers, AVX-512 IFMA on zmm.  big_r52_dual_mul20_ifma_asm is
; bound to one of the two at load time (bignum/dispatch.c).
;
;   r_h = (a_h b_h + Y_h m_h) / 2^1040,   Y_h = -a_h b_h m_h^-1 mod 2^1040
;
; for h = p, q: the value big_r52_dual_mul_c returns (radix52.h), word for
; word.
;
; C prototype (bignum/radix52/radix52.h):
;   void big_r52_dual_mul20_ifma_amd(uint64_t *r, const uint64_t *a,
;                                    const uint64_t *b,
;                                    const struct big_r52_dual_mod *mod);
;   (and _intel, the same)
;
; Preconditions: mod->digits == 20 and mod->m_up filled
; (big_r52_dual_mod_prepare); a, b normalised, each half below 2 m; r may
; equal a and/or b, no partial overlap; AVX512F/VL/IFMA/DQ/BW with the OS
; saving their state (big_r52_cpu_has_ifma).  Constant time: no branch or
; address depends on a digit.
;
; Algorithm: operand scanning at absolute positions (the lanes, the
; reduction and the normalisation: r52_dual20.inc).  Row i = 4q + s
; multiplies digit i of b in both halves (two broadcasts from b, whose
; address waits in the frame while rdx serves mulx; r is written only
; after the last row, so it may alias a or b) by a shifted up s lanes
; within each half (S_s; S_0 is a, S_4 a one group up): lo(a_j b_i) at
; position i + j is group q + g of T for group g of S_s, hi(a_j b_i) one
; position up the same way with S_(s+1).
; The rows run four ahead of the reduction steps (three is the least), so
; the copy of T that step i's chain reads for position i + 1 has every
; product term there.
; Lane bound: a position takes at most 40 product and 40 reduction terms,
; all below 2^52, and a carry below 2^12: below 2^59.
;
; Register map during the rows (the reduction's is in r52_dual20.inc):
;   zmm0-9    T                   zmm21-25, zmm28  S_1 (groups 0-4, 5)
;   zmm15-20  S_2 (M_1 is read from memory: R52_M1_IN_REGS 0)
;   zmm27     the row's digit     rsi       a     S_3: frame
;
; Core cycles, both halves (`taskset -c 1 bigmont speed --kernels`: best
; of 300 runs of 32 dependent calls; the C column, dual_mul_impl.h's
; intrinsics at 20 digits, is bignum/radix52/dual_ifma.c's table):
;   CPU (kernel tables)                    tuning  per call  per digit       C
;   AMD EPYC family 25 model 17 (Zen 4)     amd       523      26.2        659
;     (results/amd-epyc-family25-model17/2026-11-26-2153-kernels.txt)
;   Intel Xeon family 6 model 207           amd       477      23.9
;     (results/intel-r-xeon-r-processor-   intel      442      22.1
;     family6-model207/2026-11-27-1838-kernels.txt; the tunings alternating)
; Zen 4's floor is the 435 zmm multiply-adds (one a cycle); Intel issues
; two a cycle and is bound by its vector ports and the scalar chain.

default rel
; S_2 in M_1's registers: M_1 is read from memory, a cached per-key copy,
; where S_2 would have to be stored each call.
%define R52_M1_IN_REGS 0
%include "r52_dual20.inc"

section .text

%define MUL20 R52_TUNED(big_r52_dual_mul20_ifma)
global MUL20:function

; %xdefine MUL_SA: group %2 of S_%1 (s = 0..4), a register or memory.
%macro MUL_S_GROUP 2
%if (%1) == 0
%xdefine MUL_SA [rsi + 64*(%2)]
%elif (%1) == 4
%xdefine MUL_SA [rsi + 64*((%2) - 1)]
%elif (%1) == 1
%xdefine MUL_SA zmm%eval((%2) < 5 ? 21 + (%2) : 28)
%elif (%1) == 2
%xdefine MUL_SA zmm%eval(15 + (%2))
%else
%xdefine MUL_SA [rsp + R52_UP(%1, %2)]
%endif
%endmacro

; Row %1: lo from S_s groups 0..4 (s = 0) or 0..5, hi from S_(s+1) groups
; 0..5 or 1..5 (s = 3: group 0 of S_4 is zero).
%macro MUL_ROW 1
%assign %%q (%1) >> 2
%assign %%s (%1) & 3
	mov	rax, [rsp + R52_BPTR]
	vpbroadcastq zmm27, [rax + 64*%%q + 8*%%s]
	vpbroadcastq zmm27{k4}, [rax + 64*%%q + 32 + 8*%%s]
%assign %%g 0
%rep (%%s == 0 ? 5 : 6)
	MUL_S_GROUP %%s, %%g
	vpmadd52luq zmm%eval(%%q + %%g), zmm27, MUL_SA
%assign %%g %%g+1
%endrep
%assign %%g (%%s == 3)
%rep 6 - %%g
	MUL_S_GROUP %%s + 1, %%g
	vpmadd52huq zmm%eval(%%q + %%g), zmm27, MUL_SA
%assign %%g %%g+1
%endrep
%endmacro

; S_1 to zmm21-25, zmm28, S_2 to zmm15-20, S_3 to the frame.  The rows
; read every group of each.
%define SHIFTED_COPY_READ(s, g) 1
%define SHIFTED_COPY_REG(s, g) ((s) == 1 ? ((g) < 5 ? 21 + (g) : 28) : (s) == 2 ? 15 + (g) : -1)
%define SHIFTED_COPY_STORED(s, g) ((s) == 3)

MUL20:
	CFI_STARTPROC
	R52_ENTER rcx
	mov	[rsp + R52_BPTR], rdx
	R52_SHIFTED_COPIES 0
	R52_REDC_SETUP
	R52_LOAD_M01
%assign j 0
%rep 10
	vpxorq	zmm%[j], zmm%[j], zmm%[j]
%assign j j+1
%endrep
	MUL_ROW 0
	MUL_ROW 1
	MUL_ROW 2
	MUL_ROW 3
	R52_REDC_START
%assign i 0
%rep 20
%if i + 4 <= 19
	MUL_ROW i + 4
%endif
	R52_REDC_STEP i
%assign i i+1
%endrep
	R52_NORMALISE
	R52_LEAVE
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
