; lanes_sqr37_hybrid_avx2.asm -- spike (issue 43): the lane squaring at 37
; digits with a fifth RSA-2048 operation's two 16-chunk Montgomery
; products woven into its instruction stream.  Not in the build.
;
; Build and run (from the repository root, after
; `cmake --preset chunk64-asm && cmake --build --preset chunk64-asm`):
;   nasm -f elf64 -Iasm/x86_64/ -Ibench/spike/ -Pasm/x86_64/cfi.inc \
;     bench/spike/lanes_sqr37_hybrid_avx2.asm -o /tmp/hybrid.o
;   nasm -f elf64 -Iasm/x86_64/ -Ibench/spike/ -Pasm/x86_64/cfi.inc \
;     bench/spike/lanes_mul37_hybrid_avx2.asm -o /tmp/hybrid_mul.o
;   gcc -O2 -mavx2 -madx -Ibignum -Ibuild/chunk64-asm/bignum/include \
;     bench/spike/hybrid.c /tmp/hybrid.o /tmp/hybrid_mul.o \
;     build/chunk64-asm/bignum/libbigmont_bignum.a -lgmp -o /tmp/hybrid
;   taskset -c 1 /tmp/hybrid [trials [seed [passenger offset mod 4096]]]
;   python3 bench/spike/insn_count.py /tmp/hybrid.o big_lanes_sqr37_hybrid_avx2
; (bench/spike/hybrid.c checks and times it and the product; -DPR_NOPS on
; all three replaces the rows by nops, for what the instructions cost as
; such.)  Measured on Zen 3 (docs/design-notes.md, "A scalar passenger in
; the lane squaring"): the fused call about as long as the lane squaring
; followed by two big_mont_sqr_vec_adx calls; about 30 % of the rows' own
; time hidden, against 58 % for the same woven pass as a small loop
; (group_loop.asm), where nops in the rows' place cost next to nothing
; and in this kernel do not.
;
; The math.  The lane squaring (asm/x86_64/lanes_sqr37_avx2.asm, the same
; macros and so the same instructions in the same order) uses only the
; vector units and the GPRs rdi, rsi, rcx, rbx, rbp, r8, r9, r10; the
; scalar multiplier (mulx) and the flag chains (adcx, adox) sit idle.  A
; Montgomery exponentiation at 16 chunks (one RSA-2048 CRT half) does the
; same window-5 sequence of squarings and products as the lanes do at 37
; digits (same exponent length), so one lane squaring can carry one
; squaring of each half of a passenger operation: 2 x 16 CIOS rows
; (bench/spike/passenger_adx.inc), one row per stretch of columns that
; fires, its 37 pieces spread evenly over the stretch's columns (the
; flags stay untouched inside a stretch: vector instructions only).
;
; Stretches, per stream (the square phase and the reduction run once per
; stream; the reduction's group pass is one copy run 8 times): 0-4 the
; SQR_ROWS of lo^2, 5-9 of hi^2, 10-14 of s^2 (Karatsuba), 15 the group
; pass (x 8), 16 the last group pass.  A stretch whose bit is set in
; PS_FIRE carries one double row (bench/spike/passenger_adx.inc: a row
; of each job, 75 pieces spread evenly over its columns); 8 double rows a
; stream make the 2 x 16 rows a call.  Default: the group pass (x 8);
; -DPS_FIRE=... places them elsewhere (the count is checked at assembly).

; C prototype (spike):
;   void big_lanes_sqr37_hybrid_avx2(uint64_t *r, const uint64_t *a,
;                                    const struct big_lanes_mod *mod,
;                                    struct passenger *p);
; The lanes: exactly big_lanes_sqr37_avx2_asm's contract and words.  The
; passenger (32-byte aligned): job j's t = a_j b_j 2^-1024 mod n_j, or
; that plus n_j (below 2 n_j), for a_j, b_j < n_j, n_j odd, k0_j =
; -n_j^-1 mod 2^64; t zeroed and row set to 0 by the kernel.
;
; Register map: the lane squaring's, and r11 the passenger, r12 - r15,
; rax, rdx the row (rdx is the lane squaring's only at the call).

default rel

%include "passenger_adx.inc"

; Stretch bits that carry a double row (see above); -DPS_FIRE=... to try
; others.  Default: the group pass, run 8 times a stream.
%ifndef PS_FIRE
%define PS_FIRE (1 << 15)
%endif
%assign PS_STRETCH -1
%assign PS_ACTIVE 0
%assign PS_DONE 0
%assign PS_RUNS 0			; double rows a stream

%macro PASSENGER_STEP 3
%if (%1) == (%2)
%assign PS_STRETCH PS_STRETCH + 1
%assign PS_ACTIVE (PS_FIRE >> PS_STRETCH) & 1
%assign PS_DONE 0
%if PS_ACTIVE
%assign PS_RUNS PS_RUNS + (PS_STRETCH == 15 ? 8 : 1)
%endif
%endif
%if PS_ACTIVE
%assign %%upto (PR_DPIECES * ((%1) - (%2) + 1)) / ((%3) - (%2) + 1)
%rep %%upto - PS_DONE
	PR_DPIECE PS_DONE
%assign PS_DONE PS_DONE + 1
%endrep
%endif
%endmacro

%define LN_K 37
%define LN_SQR_KARATSUBA 1
%include "lanes_avx2.inc"
%include "lanes_sqr_avx2.inc"

section .text

global big_lanes_sqr37_hybrid_avx2:function
align 32
big_lanes_sqr37_hybrid_avx2:
	CFI_STARTPROC
	CFI_PUSH	r12
	CFI_PUSH	r13
	CFI_PUSH	r14
	CFI_PUSH	r15
	CFI_PUSH	rbx
	CFI_PUSH	rbp
	mov	rbp, rsp
	CFI_CFA_REG	rbp, 56
	and	rsp, -32
	sub	rsp, LN_FRAME
	lea	rbx, [rsp + TCOLS]
	mov	r11, rcx			; the passenger
	PR_ZERO_T 0
	PR_ZERO_T 1
	mov	r12, r11			; row 0
	mov	rcx, rdx			; mod, where the product has it
	mov	r10d, 2
.stream:
	SQUARE_PHASE
	REDUCE_STREAM
	vmovdqa	CX, [r8 + LN_COL * LONE_COL]
	vpaddq	CX, CX, CC
	CHAIN_DIGIT 0
	dec	r10d
	jz	.carry
	NEXT_STREAM 0
	jmp	.stream
.carry:
	CARRY_OUT 0
	vzeroupper
	mov	rsp, rbp
	CFI_CFA_RSP	56
	CFI_POP	rbp
	CFI_POP	rbx
	CFI_POP	r15
	CFI_POP	r14
	CFI_POP	r13
	CFI_POP	r12
	ret
	CFI_ENDPROC

%if PS_STRETCH != 16
%error "lanes_sqr37_hybrid_avx2: expected 17 stretches a stream"
%endif
%if PS_RUNS != 8
%error "lanes_sqr37_hybrid_avx2: expected 8 double rows a stream"
%endif

; passenger_mont_mul16_adx(struct passenger *p, int job): job's t = 0,
; then its 16 rows back to back (the same pieces, unwoven).
global passenger_mont_mul16_adx:function
align 32
passenger_mont_mul16_adx:
	CFI_STARTPROC
	CFI_PUSH	r12
	CFI_PUSH	r13
	CFI_PUSH	r14
	CFI_PUSH	r15
	shl	esi, 10
	lea	r11, [rdi + rsi]		; the job, as job 0
	PR_ZERO_T 0
	vzeroupper
	mov	r12, r11
	mov	ecx, 16
align 32
.row:
	PR_ROW_WHOLE
	dec	ecx
	jnz	.row
	CFI_POP	r15
	CFI_POP	r14
	CFI_POP	r13
	CFI_POP	r12
	ret
	CFI_ENDPROC

; passenger_mont_mul16x2_adx(struct passenger *p): both jobs' t = 0, then
; their 16 double rows back to back (the fused kernel's pieces, unwoven).
global passenger_mont_mul16x2_adx:function
align 32
passenger_mont_mul16x2_adx:
	CFI_STARTPROC
	CFI_PUSH	r12
	CFI_PUSH	r13
	CFI_PUSH	r14
	CFI_PUSH	r15
	mov	r11, rdi
	PR_ZERO_T 0
	PR_ZERO_T 1
	vzeroupper
	mov	r12, r11
	mov	ecx, 16
align 32
.row:
	PR_DROW_WHOLE
	dec	ecx
	jnz	.row
	CFI_POP	r15
	CFI_POP	r14
	CFI_POP	r13
	CFI_POP	r12
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
