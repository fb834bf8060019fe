; big_vert_sqr2_avx2_asm -- spike (issue 44, not in the build): the
; almost-Montgomery squaring of both CRT halves in the vertical layout
; (bignum/vertical/vertical.h), N = 56 or 75 digits of 28 bits, AVX2 on
; ymm, scheduled by hand.  For each half h:
;
;   r_h = (a_h^2 + M_h w_h) / R,   M_h = -a_h^2 w_h^-1 mod R,  R = 2^(28 N),
;
; word for word what big_vert_sqr2_avx2 (bignum/vertical/dual_avx2.c)
; returns.  It measured level with the C kernel, not faster (the numbers:
; docs/design-notes.md, "The vertical squaring in NASM"), so the library
; keeps the C.  run.sh in this folder checks and times it.
;
; C prototype (as vertical.h would declare it):
;   void big_vert_sqr2_avx2_asm(struct big_vert_num *r,
;                               const struct big_vert_num *a,
;                               const struct big_vert_mod *mod,
;                               struct big_vert_work *work);
;
; Preconditions: vertical.h's for big_vert_sqr2_avx2 (mod[0].digits ==
; mod[1].digits == 56 or 75, a[h] < 2 w_h normalised with zero padding,
; r's words other than its N digits zero; r may be a); AVX2 with the OS
; saving the YMM state.  Constant time: no branch or address depends on a
; digit or the modulus (the branches test N and the group counter).  No
; frame beyond the pushes of the callee-saved registers and r; ymm0-15
; and the scratch registers are zeroed before the return, so only r and
; work hold what it computed.  The work's ysh[0..3] are scratch here (the
; copies, then the digit slots), as in the C kernel.
;
; Algorithm, per half (the column bounds are vertical.h's):
; 1. Square (SQR_HALF, one body run for each half).  a's digits shifted
;    up by s = 1..3 into the work (ysh[s], block-aligned; a itself is
;    shift 0).  Rows of four: the doubled digits D_s = 2 a_{4g+s}
;    broadcast (one vpaddq a row instead of a doubled copy: three copies,
;    not four), block b' = g..B-1 of copy s adds D_s y_s[b'] to block
;    g + b' (lanes j <= i masked in blocks g and g + 1), the squares
;    a_{4g+l}^2 by one vpmuludq, a vpermq and a mask.  Group 0 stores
;    blocks 0..B-1 (their first products); only blocks B..2B-3 are zeroed
;    (G = ceil(N/4), B = ceil((N+3)/4) = G + 1).
; 2. Reduction, four Montgomery digits m_{4i..4i+3} a group (m = the
;    column's low 28 bits, w = -1 mod 2^28), group i + 1's head issued in
;    program order before group i's bulk:
;      iteration i: block i+2 += m_{i+1} w[1] (the head: its last share)
;                   -> lanes -> the chain -> m_{i+2};
;                   block i+3 += m_i w[3] + m_{i+1} w[2] (the pre-add);
;                   blocks i+4 .. i+B-1 += m_i w[b] (the bulk).
;    w[b] is block b of the key's shifted copies nsh[r] (nsh[r][j + r] =
;    w_j).  m_G = m_{G+1} = 0 (the last two iterations make no digits);
;    at N = 75 the last group has three digits and adds its block 0
;    (column 75) after the loop.
;    Default (VERT_SQR2P): both halves in lockstep, the two halves' chains
;    side by side in the two 64-bit lanes of xmm registers (one vpmuludq,
;    vpand, vpsrlq or vpaddq serves both halves: 35 ops for both against
;    about 65 a half in scalar), the digits as pairs in 64-byte slots of
;    the work's ysh[0..], broadcast from there by loads; one pre-add and
;    bulk body run for each half.
;    -DSCALAR_CHAIN (VERT_SQR2): the halves one after the other in each
;    iteration, each chain in scalar (imul for the in-block triangle), the
;    digits broadcast by vmovq and vpbroadcastq (-DMEM_BCAST: from slots).
; 3. Carry pass of both halves in one loop: columns N..2N-1 plus the
;    chain's carry into column N, to r's digits.
;
; Switches for the measurements (timing only, the results are garbage
; unless said): SETUP_UNROLLED, PREBULK_UNROLLED (the default's loops
; unrolled, results exact); with SCALAR_CHAIN: MEM_BCAST (exact),
; SKIP_SQR, SKIP_RED, SKIP_CARRY, BULK_ONLY (no head, pre-add or chain),
; NO_HEAD, NO_PRE, CHAIN_NOPS=n (n nops in place of each chain),
; CHAIN_NOLOAD, CHAIN_NOSTORE.
;
; Register map (default):
;   [rsp] r            r15 mod (half 1 at +MOD_SIZE)
;   r14 work (half 1 at +WORK_SIZE); in the reduction work + 32 i
;   rsi a (square), then the digit slots + 64 i;  rbx the pairs w_1..w_3
;   and the mask;  r13 iterations left;  r12 halves left (the bulk loop)
;   ymm0-7  broadcast digits (D_s; m_i, m_{i+1}), the lane pairs and the
;           chain's temporaries;  ymm11 the two carries;  ymm12-13 the
;           heads, pre-adds;  ymm14-15 products.
;
; Ticks a call (rdtsc, about 1.24 core cycles a tick; AMD EPYC family 25
; model 1, Zen 3; least of 400 trials of 16 chained calls, the C kernel
; timed first in each trial, the host quiet; part 1 of
; results/amd-epyc-family25-model1/2026-11-29-0849-vert-sqr2-asm.txt, three
; seeds; the scalar chain: part 2 there, level with C):
;   N    C (dual_avx2.c)   this (paired chain)
;   56   1787-1831         1876-1911
;   75   3044-3176         3104-3145

default rel

%include "wipe.inc"

%define NUM_SIZE	704
%define NUM_D0		32		; byte offset of digit 0 in a num
%define MOD_SIZE	2592
%define MOD_NSH		640		; stride of nsh[r]
%define MOD_W1		2560
%define MOD_W2		2568
%define MOD_W3		2576
%define MOD_DIGITS	2584
%define WORK_SIZE	4032
%define YSH		672		; stride of ysh[s]
%define WORK_T		2688
%define DIGIT_MASK	0x0fffffff

section .rodata
align 32
keep_above0:	dq 0, -1, -1, -1
keep_above2:	dq 0, 0, 0, -1
even_lanes:	dq -1, 0, -1, 0

section .text

; ---------------------------------------------------------------- square
; SQR_ROWS first, masked_t: the full rows of group g over blocks from
; (rbx: a block, rdx: ysh block, rax: T block), rcx of them; first = 1
; stores (group 0, the blocks' first products), else adds to T.
%macro SQR_ROWS 1
%%rows:
	vpmuludq	ymm7, ymm0, [rbx]
	vpmuludq	ymm8, ymm1, [rdx + YSH]
	vpmuludq	ymm9, ymm2, [rdx + 2 * YSH]
	vpmuludq	ymm10, ymm3, [rdx + 3 * YSH]
	vpaddq	ymm7, ymm7, ymm8
	vpaddq	ymm9, ymm9, ymm10
%if %1 == 0
	vpaddq	ymm7, ymm7, [rax]
%endif
	vpaddq	ymm7, ymm7, ymm9
	vmovdqa	[rax], ymm7
	add	rbx, 32
	add	rdx, 32
	add	rax, 32
	dec	ecx
	jnz	%%rows
%endmacro

; SQR_GROUP first: group g's rows (r8: a block g, r9: ysh block g, r10:
; T block 2g, r11: blocks after 2g + 1).
%macro SQR_GROUP 1
	vpbroadcastq	ymm0, [r8]
	vpbroadcastq	ymm1, [r8 + 8]
	vpbroadcastq	ymm2, [r8 + 16]
	vpbroadcastq	ymm3, [r8 + 24]
	vmovdqa	ymm4, [r8]
	vpaddq	ymm0, ymm0, ymm0
	vpaddq	ymm1, ymm1, ymm1
	vpaddq	ymm2, ymm2, ymm2
	vpaddq	ymm3, ymm3, ymm3
	vpmuludq	ymm5, ymm4, ymm4		; a_{4g+l}^2
	; block 2g: rows 0, 1 above the diagonal, the even squares
	vpermq	ymm6, ymm5, 0x50
	vpand	ymm6, ymm6, ymm13
	vpmuludq	ymm7, ymm0, ymm4
	vpmuludq	ymm8, ymm1, [r9 + YSH]
	vpand	ymm7, ymm7, ymm11
	vpand	ymm8, ymm8, ymm12
%if %1 == 0
	vpaddq	ymm6, ymm6, [r10]
%endif
	vpaddq	ymm7, ymm7, ymm8
	vpaddq	ymm6, ymm6, ymm7
	vmovdqa	[r10], ymm6
	; block 2g + 1: rows 2, 3 masked, the odd squares
	vpermq	ymm6, ymm5, 0xfa
	vpand	ymm6, ymm6, ymm13
	vpmuludq	ymm7, ymm0, [r8 + 32]
	vpmuludq	ymm8, ymm1, [r9 + YSH + 32]
	vpmuludq	ymm9, ymm2, [r9 + 2 * YSH + 32]
	vpmuludq	ymm10, ymm3, [r9 + 3 * YSH + 32]
	vpand	ymm9, ymm9, ymm11
	vpand	ymm10, ymm10, ymm12
%if %1 == 0
	vpaddq	ymm6, ymm6, [r10 + 32]
%endif
	vpaddq	ymm7, ymm7, ymm8
	vpaddq	ymm9, ymm9, ymm10
	vpaddq	ymm6, ymm6, ymm7
	vpaddq	ymm6, ymm6, ymm9
	vmovdqa	[r10 + 32], ymm6
	lea	rbx, [r8 + 64]
	lea	rdx, [r9 + 64]
	lea	rax, [r10 + 64]
	mov	ecx, r11d
%endmacro

; SQR_HALF N, work offset: T = a^2 for the half at rsi (digit 0 at
; rsi + NUM_D0), work r14 + offset.  Group 0 stores blocks 0..B-1 (their
; first products); blocks B..G+B-2 are zeroed first; later groups add.
%macro SQR_HALF 2
%assign SQ_G (%1 + 3) / 4
%assign SQ_B (%1 + 6) / 4
%if SQ_B != SQ_G + 1
%error "the square assumes B = G + 1"
%endif
	lea	r8, [rsi + NUM_D0]		; digit 0
	lea	r9, [r14 + %2]			; work of the half
	vpxor	xmm15, xmm15, xmm15
	vmovdqa	ymm11, [keep_above0]
	vmovdqa	ymm12, [keep_above2]
	vmovdqa	ymm13, [even_lanes]
%ifdef SETUP_UNROLLED
%assign b 0
%rep SQ_B
	vmovdqu	ymm0, [r8 + 32 * b - 8]
	vmovdqu	ymm1, [r8 + 32 * b - 16]
	vmovdqu	ymm2, [r8 + 32 * b - 24]
	vmovdqa	[r9 + YSH + 32 * b], ymm0
	vmovdqa	[r9 + 2 * YSH + 32 * b], ymm1
	vmovdqa	[r9 + 3 * YSH + 32 * b], ymm2
%if b < SQ_B - 2
	vmovdqa	[r9 + WORK_T + 32 * (SQ_B + b)], ymm15
%endif
%assign b b + 1
%endrep
%else
	; the copies, blocks 0..B-1, and the zeroed blocks B..2B-3, by a loop
	xor	eax, eax
%%copy:
	vmovdqu	ymm0, [r8 + rax - 8]
	vmovdqu	ymm1, [r8 + rax - 16]
	vmovdqu	ymm2, [r8 + rax - 24]
	vmovdqa	[r9 + rax + YSH], ymm0
	vmovdqa	[r9 + rax + 2 * YSH], ymm1
	vmovdqa	[r9 + rax + 3 * YSH], ymm2
	vmovdqa	[r9 + rax + WORK_T + 32 * SQ_B], ymm15
	add	rax, 32
	cmp	rax, 32 * SQ_B
	jne	%%copy
%endif
	lea	r10, [r9 + WORK_T]
	mov	r11d, SQ_B - 2
	SQR_GROUP	1
	SQR_ROWS	1
%%group:
	add	r8, 32
	add	r9, 32
	add	r10, 64
	dec	r11d
	SQR_GROUP	0
	test	ecx, ecx
	jz	%%rows_done
	SQR_ROWS	0
%%rows_done:
	test	r11d, r11d
	jnz	%%group
%endmacro

; ------------------------------------------------------------- reduction
; Half h's m slots, T blocks and w blocks, from r14 / r15.
%define MSLOT(h, j, r) (r14 + (h) * WORK_SIZE + 32 * (j) + 8 * (r))
%define TBLK(h, b) (r14 + (h) * WORK_SIZE + WORK_T + 32 * (b))
%define WBLK(h, r, b) (r15 + (h) * MOD_SIZE + (r) * MOD_NSH + 32 * (b))
%define WDIG(h, n) (r15 + (h) * MOD_SIZE + MOD_W1 + 8 * ((n) - 1))

; LANES x: the four lanes of ymm x to rax, rbx, rcx, rdx (xmm14 scratch).
%macro LANES 1
	vmovq	rax, xmm%1
	vpextrq	rbx, xmm%1, 1
	vextracti128	xmm14, ymm%1, 1
	vmovq	rcx, xmm14
	vpextrq	rdx, xmm14, 1
%endmacro

; CHAIN h, carry, slot, ndig, q0, q1, q2, q3: the digits m0..m3 of the
; block whose lanes are rax..rdx, with the carry into its column 0
; (updated to the carry out of its last reduced column), stored to half
; h's slot and broadcast to ymm q0..q3; ndig = 3 leaves m3 = 0 and
; column 3 unreduced.
;   u_k = lane_k + sum_{j<k} m_j w_{k-j} + c,  m_k = u_k mod 2^28,
;   c = floor(u_k / 2^28) + m_k  (w_0 = 2^28 - 1).
%macro CHAIN 8-9 0
%ifdef CHAIN_NOPS
%rep CHAIN_NOPS
	nop
%endrep
%else
%if %9
	cmp	r13d, 2
	jbe	%%none
%endif
	add	rax, %2
	mov	r8d, eax
	and	r8d, DIGIT_MASK			; m0
	shr	rax, 28
	add	rax, r8				; c
%ifdef CHAIN_NOLOAD
	mov	r9, 0x51515
%else
	mov	r9, [WDIG(%1, 1)]
%endif
%ifdef CHAIN_NOLOAD
	mov	r10, 0x52525
%else
	mov	r10, [WDIG(%1, 2)]
%endif
%ifdef CHAIN_NOLOAD
	mov	r11, 0x53535
%else
	mov	r11, [WDIG(%1, 3)]
%endif
	imul	r9, r8				; m0 w1
	imul	r10, r8				; m0 w2
	imul	r11, r8				; m0 w3
%ifndef CHAIN_NOSTORE
	mov	[MSLOT(%1, %3, 0)], r8
%endif
%ifndef MEM_BCAST
	vmovq	xmm%5, r8
%endif
	add	rbx, rax
	add	rcx, r10
	add	rdx, r11
	add	rbx, r9				; u1
	mov	r9d, ebx
	and	r9d, DIGIT_MASK			; m1
	shr	rbx, 28
	add	rbx, r9				; c
%ifdef CHAIN_NOLOAD
	mov	r10, 0x51515
%else
	mov	r10, [WDIG(%1, 1)]
%endif
%ifdef CHAIN_NOLOAD
	mov	r11, 0x52525
%else
	mov	r11, [WDIG(%1, 2)]
%endif
	imul	r10, r9				; m1 w1
	imul	r11, r9				; m1 w2
%ifndef CHAIN_NOSTORE
	mov	[MSLOT(%1, %3, 1)], r9
%endif
%ifndef MEM_BCAST
	vmovq	xmm%6, r9
%endif
	add	rcx, rbx
	add	rdx, r11
	add	rcx, r10			; u2
	mov	r10d, ecx
	and	r10d, DIGIT_MASK		; m2
	shr	rcx, 28
	add	rcx, r10			; c
%ifndef CHAIN_NOSTORE
	mov	[MSLOT(%1, %3, 2)], r10
%endif
%ifndef MEM_BCAST
	vmovq	xmm%7, r10
%endif
%if %4 == 3
	cmp	r13d, 3
	je	%%short
%endif
%ifdef CHAIN_NOLOAD
	mov	r11, 0x51515
%else
	mov	r11, [WDIG(%1, 1)]
%endif
	imul	r11, r10			; m2 w1
	add	rdx, rcx
	add	rdx, r11			; u3
	mov	r11d, edx
	and	r11d, DIGIT_MASK		; m3
	shr	rdx, 28
	lea	%2, [rdx + r11]			; c
%ifndef CHAIN_NOSTORE
	mov	[MSLOT(%1, %3, 3)], r11
%endif
%ifndef MEM_BCAST
	vmovq	xmm%8, r11
%endif
%if %4 == 3
	jmp	%%bcast
%%short:
	; the last group of N = 3 mod 4: column 3 is column N, not reduced
	mov	%2, rcx
%ifndef CHAIN_NOSTORE
	mov	qword [MSLOT(%1, %3, 3)], 0
%endif
%ifndef MEM_BCAST
	vpxor	xmm%8, xmm%8, xmm%8
%endif
%%bcast:
%endif
%ifndef MEM_BCAST
	vpbroadcastq	ymm%5, xmm%5
%endif
%ifndef MEM_BCAST
	vpbroadcastq	ymm%6, xmm%6
%endif
%ifndef MEM_BCAST
	vpbroadcastq	ymm%7, xmm%7
%endif
%ifndef MEM_BCAST
	vpbroadcastq	ymm%8, xmm%8
%endif
%if %9
	jmp	%%done
%%none:
	; iterations G - 2, G - 1: m_G = m_{G+1} = 0, the carry kept
%ifndef MEM_BCAST
	vpxor	xmm%5, xmm%5, xmm%5
%endif
%ifndef MEM_BCAST
	vpxor	xmm%6, xmm%6, xmm%6
%endif
%ifndef MEM_BCAST
	vpxor	xmm%7, xmm%7, xmm%7
%endif
%ifndef MEM_BCAST
	vpxor	xmm%8, xmm%8, xmm%8
%endif
	vpxor	xmm14, xmm14, xmm14
	vmovdqa	[MSLOT(%1, %3, 0)], ymm14
%%done:
%endif
%endif
%endmacro

; MADD x, q0..q3, h, wb: ymm x += sum_r q_r w[wb]_r (half h; ymm14, 15
; scratch).
%macro MADD 7
	vpmuludq	ymm14, ymm%2, [WBLK(%6, 0, %7)]
	vpmuludq	ymm15, ymm%3, [WBLK(%6, 1, %7)]
	vpaddq	ymm14, ymm14, ymm15
	vpmuludq	ymm15, ymm%4, [WBLK(%6, 2, %7)]
	vpaddq	ymm%1, ymm%1, ymm15
	vpmuludq	ymm15, ymm%5, [WBLK(%6, 3, %7)]
	vpaddq	ymm%1, ymm%1, ymm14
	vpaddq	ymm%1, ymm%1, ymm15
%endmacro

;  MADDT x, q0..q3, h, wb, b: ymm x = T block b of half h + sum_r q_r
; w[wb]_r (ymm14, 15 scratch).
%macro MADDT 8
	vpmuludq	ymm14, ymm%2, [WBLK(%6, 0, %7)]
	vpmuludq	ymm15, ymm%3, [WBLK(%6, 1, %7)]
	vpaddq	ymm14, ymm14, ymm15
	vpmuludq	ymm15, ymm%4, [WBLK(%6, 2, %7)]
	vpaddq	ymm%1, ymm15, [TBLK(%6, %8)]
	vpmuludq	ymm15, ymm%5, [WBLK(%6, 3, %7)]
	vpaddq	ymm%1, ymm%1, ymm14
	vpaddq	ymm%1, ymm%1, ymm15
%endmacro

; RBLOCK h, b, wb: T block b of half h += sum_r m_r w[wb]_r, m_r in
; ymm0..3.
%macro RBLOCK 3
	vpmuludq	ymm14, ymm0, [WBLK(%1, 0, %3)]
	vpmuludq	ymm15, ymm1, [WBLK(%1, 1, %3)]
	vpaddq	ymm14, ymm14, [TBLK(%1, %2)]
	vpaddq	ymm14, ymm14, ymm15
	vpmuludq	ymm15, ymm2, [WBLK(%1, 2, %3)]
	vpaddq	ymm14, ymm14, ymm15
	vpmuludq	ymm15, ymm3, [WBLK(%1, 3, %3)]
	vpaddq	ymm14, ymm14, ymm15
	vmovdqa	[TBLK(%1, %2)], ymm14
%endmacro

; BCAST h, j: slot j of half h broadcast to ymm0..3.
%macro BCAST 2
	vpbroadcastq	ymm0, [MSLOT(%1, %2, 0)]
	vpbroadcastq	ymm1, [MSLOT(%1, %2, 1)]
	vpbroadcastq	ymm2, [MSLOT(%1, %2, 2)]
	vpbroadcastq	ymm3, [MSLOT(%1, %2, 3)]
%endmacro

; ITER h, carry, B, chain, H, q0..q3: iteration i (r14 = work + 32 i) of
; half h.  On entry ymm H = block i + 2 less group i + 1's share, ymm
; q0..q3 = m_{i+1} broadcast, slot i = m_i; on exit the same for i + 1.
;   head:    block i+2 += m_{i+1} w[1] (its last share), -> lanes -> the
;            chain (chain = 4, or 3 for a short last group) makes
;            m_{i+2}; chain = 0: the head is stored instead (columns N..).
;   pre-add: H = block i+3 + m_i w[3] + m_{i+1} w[2], in a register.
;   bulk:    blocks i+4 .. i+B-1 += m_i w[b].
%macro ITER 9
	BCAST	%1, 0
%ifndef BULK_ONLY
%ifdef MEM_BCAST
	vpbroadcastq	ymm%6, [MSLOT(%1, 1, 0)]
	vpbroadcastq	ymm%7, [MSLOT(%1, 1, 1)]
	vpbroadcastq	ymm%8, [MSLOT(%1, 1, 2)]
	vpbroadcastq	ymm%9, [MSLOT(%1, 1, 3)]
%endif
%ifndef NO_HEAD
	MADD	%5, %6, %7, %8, %9, %1, 1
	vmovdqa	[TBLK(%1, 2)], ymm%5
	LANES	%5
%endif
%ifndef NO_PRE
	vmovdqa	ymm%5, [TBLK(%1, 3)]
	MADD	%5, 0, 1, 2, 3, %1, 3
	MADD	%5, %6, %7, %8, %9, %1, 2
%endif
	CHAIN	%1, %2, 2, %4, %6, %7, %8, %9, 1
%endif
%assign bb 4
%rep %3 - 4
	RBLOCK	%1, bb, bb
%assign bb bb + 1
%endrep
%endmacro

; The first two groups' digits: slot 0 from block 0, block 1 += m_0 w[1],
; slot 1 from it; H = block 2 + m_0 w[2].  r14 = work.
%macro REDUCE_START 0
	xor	r12d, r12d
	xor	ebp, ebp
	vmovdqa	ymm12, [TBLK(0, 0)]
	LANES	12
	CHAIN	0, r12, 0, 4, 4, 5, 6, 7
	vmovdqa	ymm13, [TBLK(1, 0)]
	LANES	13
	CHAIN	1, rbp, 0, 4, 8, 9, 10, 11
%ifdef MEM_BCAST
	vpbroadcastq	ymm4, [MSLOT(0, 0, 0)]
	vpbroadcastq	ymm5, [MSLOT(0, 0, 1)]
	vpbroadcastq	ymm6, [MSLOT(0, 0, 2)]
	vpbroadcastq	ymm7, [MSLOT(0, 0, 3)]
	vpbroadcastq	ymm8, [MSLOT(1, 0, 0)]
	vpbroadcastq	ymm9, [MSLOT(1, 0, 1)]
	vpbroadcastq	ymm10, [MSLOT(1, 0, 2)]
	vpbroadcastq	ymm11, [MSLOT(1, 0, 3)]
%endif
	vmovdqa	ymm12, [TBLK(0, 1)]
	MADD	12, 4, 5, 6, 7, 0, 1
	LANES	12
	vmovdqa	ymm12, [TBLK(0, 2)]
	MADD	12, 4, 5, 6, 7, 0, 2
	CHAIN	0, r12, 1, 4, 4, 5, 6, 7
	vmovdqa	ymm13, [TBLK(1, 1)]
	MADD	13, 8, 9, 10, 11, 1, 1
	LANES	13
	vmovdqa	ymm13, [TBLK(1, 2)]
	MADD	13, 8, 9, 10, 11, 1, 2
	CHAIN	1, rbp, 1, 4, 8, 9, 10, 11
%endmacro

; CARRY_OUT N: r_h's digits from columns N..2N-1 of half h's T and the
; carry (r12, rbp); r14 = work.
%macro CARRY_OUT 1
	lea	rsi, [r14 + WORK_T + 8 * %1]
	lea	r8, [rdi + NUM_D0]
	add	r12, [rsi]
	add	rbp, [rsi + WORK_SIZE]
	mov	eax, r12d
	mov	ecx, ebp
	and	eax, DIGIT_MASK
	and	ecx, DIGIT_MASK
	mov	[r8], rax
	mov	[r8 + NUM_SIZE], rcx
	mov	r13, 8
%%next:
	shr	r12, 28
	shr	rbp, 28
	add	r12, [rsi + r13]
	add	rbp, [rsi + r13 + WORK_SIZE]
	mov	eax, r12d
	mov	ecx, ebp
	and	eax, DIGIT_MASK
	and	ecx, DIGIT_MASK
	mov	[r8 + r13], rax
	mov	[r8 + r13 + NUM_SIZE], rcx
	add	r13, 8
	cmp	r13, 8 * %1
	jne	%%next
%endmacro

; VERT_SQR2 N: the whole kernel at N digits.
%macro VERT_SQR2 1
%assign VG (%1 + 3) / 4
%assign VB (%1 + 6) / 4
%ifndef SKIP_SQR
	mov	r13d, 2
%%half:
	SQR_HALF	%1, 0
	add	rsi, NUM_SIZE
	add	r14, WORK_SIZE
	dec	r13d
	jnz	%%half
	sub	r14, 2 * WORK_SIZE
%endif
%ifndef SKIP_RED
	REDUCE_START
	; r13 = G - i iterations left; chain variants by r13 (CHAIN)
	mov	r13d, VG
%%iter:
	ITER	0, r12, VB, 4 - ((%1 & 3) != 0), 12, 4, 5, 6, 7
	ITER	1, rbp, VB, 4 - ((%1 & 3) != 0), 13, 8, 9, 10, 11
	add	r14, 32
	dec	r13d
	jnz	%%iter
	; the last pre-add: block G + 2
	vmovdqa	[TBLK(0, 2)], ymm12
	vmovdqa	[TBLK(1, 2)], ymm13
%if (%1 & 3)
%if (%1 & 3) != 3
%error "only N = 3 mod 4 has a short last group"
%endif
%endif
	sub	r14, 32 * VG
%if (%1 & 3)
	; group G - 1's block 0 (its columns from N on)
	BCAST	0, VG - 1
	RBLOCK	0, VG - 1, 0
	BCAST	1, VG - 1
	RBLOCK	1, VG - 1, 0
%endif
%ifndef SKIP_CARRY
	CARRY_OUT	%1
%endif
%endif
%endmacro

; ------------------------------------------------ reduction, paired chain
; Both halves in lockstep; the two halves' Montgomery chains run side by
; side in the two 64-bit lanes of xmm registers (one vector op serves both
; halves), the digit pairs in slots of 64 bytes (slot j, digit k, half h
; at rsi + 64 (j - i) + 16 k + 8 h), w_1..w_3 and the mask as pairs at rbx.
%define PSLOT(j, k, h) (rsi + 64 * (j) + 16 * (k) + 8 * (h))
%define WPAIR(n) (rbx + 16 * ((n) - 1))
%define MASKPAIR (rbx + 48)

; BCASTP h, j, first: slot j of half h broadcast to ymm first..first+3
; (first = 0 or 4).
%macro BCASTP 3
%if %3 == 0
	vpbroadcastq	ymm0, [PSLOT(%2, 0, %1)]
	vpbroadcastq	ymm1, [PSLOT(%2, 1, %1)]
	vpbroadcastq	ymm2, [PSLOT(%2, 2, %1)]
	vpbroadcastq	ymm3, [PSLOT(%2, 3, %1)]
%else
	vpbroadcastq	ymm4, [PSLOT(%2, 0, %1)]
	vpbroadcastq	ymm5, [PSLOT(%2, 1, %1)]
	vpbroadcastq	ymm6, [PSLOT(%2, 2, %1)]
	vpbroadcastq	ymm7, [PSLOT(%2, 3, %1)]
%endif
%endmacro

; LANES2: the lane pairs (x0_k, x1_k) of ymm12 (half 0) and ymm13 (half 1)
; to xmm0..3.
%macro LANES2 0
	vpunpcklqdq	ymm0, ymm12, ymm13
	vpunpckhqdq	ymm1, ymm12, ymm13
	vextracti128	xmm2, ymm0, 1
	vextracti128	xmm3, ymm1, 1
%endmacro

; DIGIT2 k: m_k pair = u_k mod 2^28 (u_k = xmm k + carry xmm11) to xmm4
; and slot %2; carry = floor(u_k / 2^28) + m_k.
%macro DIGIT2 2
	vpaddq	xmm%1, xmm%1, xmm11
	vpand	xmm4, xmm%1, [MASKPAIR]
	vpsrlq	xmm11, xmm%1, 28
	vpaddq	xmm11, xmm11, xmm4
	vmovdqa	[PSLOT(%2, %1, 0)], xmm4
%endmacro

; ACC2 k, n: xmm k += m pair (xmm4) * w_n pair.
%macro ACC2 2
	vpmuludq	xmm5, xmm4, [WPAIR(%2)]
	vpaddq	xmm%1, xmm%1, xmm5
%endmacro

; CHAIN2 slot, ndig, variants: the four digit pairs of the lane pairs in
; xmm0..3 to the slot; ndig = 3: a short last group at r13 == 3;
; variants = 1: none (zero digits, carry kept) at r13 <= 2.
%macro CHAIN2 3
%if %3
	cmp	r13d, 2
	jbe	%%none
%endif
	DIGIT2	0, %1
	ACC2	1, 1
	ACC2	2, 2
	ACC2	3, 3
	DIGIT2	1, %1
	ACC2	2, 1
	ACC2	3, 2
	DIGIT2	2, %1
	ACC2	3, 1
%if %2 == 3
	cmp	r13d, 3
	je	%%short
%endif
	DIGIT2	3, %1
%if %2 == 3
	jmp	%%done
%%short:
	vpxor	xmm4, xmm4, xmm4
	vmovdqa	[PSLOT(%1, 3, 0)], xmm4
%endif
%if %3
	jmp	%%done
%%none:
	vpxor	xmm4, xmm4, xmm4
	vmovdqa	[PSLOT(%1, 0, 0)], ymm4
	vmovdqa	[PSLOT(%1, 2, 0)], ymm4
%endif
%%done:
%endmacro

;  PREBULK h, H, B: half h's pre-add (ymm H = block i + 3 + m_i w[3] +
; m_{i+1} w[2]) and bulk (blocks i + 4 .. i + B - 1 += m_i w[b]).
%macro PREBULK 3
	BCASTP	%1, 0, 0
	BCASTP	%1, 1, 4
	MADDT	%2, 0, 1, 2, 3, %1, 3, 3
	MADD	%2, 4, 5, 6, 7, %1, 2
	vmovdqa	[TBLK(%1, 3)], ymm%2
%assign bb 4
%rep %3 - 4
	RBLOCK	%1, bb, bb
%assign bb bb + 1
%endrep
%endmacro

; ITER2 B, ndig: iteration i (r14 = work + 32 i, rsi = pair slots + 64 i),
; both halves.  On entry ymm12/13 = block i + 2 less group i + 1's share,
; slots i, i + 1 hold m_i, m_{i+1}; on exit the same for i + 1.
%macro ITER2 2
	BCASTP	0, 1, 4
	MADDT	12, 4, 5, 6, 7, 0, 1, 2
	BCASTP	1, 1, 0
	MADDT	13, 0, 1, 2, 3, 1, 1, 2
	vmovdqa	[TBLK(0, 2)], ymm12
	vmovdqa	[TBLK(1, 2)], ymm13
	LANES2
	CHAIN2	2, %2, 1
%ifdef PREBULK_UNROLLED
	PREBULK	0, 12, %1
	PREBULK	1, 13, %1
%else
	; one body for both halves: r14, r15, rsi step to half 1 and back;
	; ymm12/13 swap so that each half's H ends where it began
	mov	r12d, 2
%%half:
	PREBULK	0, 12, %1
	add	r14, WORK_SIZE
	add	r15, MOD_SIZE
	add	rsi, 8
	dec	r12d
	jnz	%%half
	sub	r14, 2 * WORK_SIZE
	sub	r15, 2 * MOD_SIZE
	sub	rsi, 16
%endif
%endmacro

; The pairs of w_1..w_3 and the mask at rbx; the first two groups' digits
; (slot 0 from block 0, block 1 += m_0 w[1], slot 1 from it); H = block 2 +
; m_0 w[2].  r14 = work, rsi = the slots.
%macro REDUCE_START2 0
	vmovq	xmm0, [WDIG(0, 1)]
	vmovq	xmm1, [WDIG(0, 2)]
	vmovq	xmm2, [WDIG(0, 3)]
	vpinsrq	xmm0, xmm0, [WDIG(1, 1)], 1
	vpinsrq	xmm1, xmm1, [WDIG(1, 2)], 1
	vpinsrq	xmm2, xmm2, [WDIG(1, 3)], 1
	vmovdqa	[WPAIR(1)], xmm0
	vmovdqa	[WPAIR(2)], xmm1
	vmovdqa	[WPAIR(3)], xmm2
	mov	eax, DIGIT_MASK
	vmovq	xmm0, rax
	vpunpcklqdq	xmm0, xmm0, xmm0
	vmovdqa	[MASKPAIR], xmm0
	vpxor	xmm11, xmm11, xmm11
	vmovdqa	ymm12, [TBLK(0, 0)]
	vmovdqa	ymm13, [TBLK(1, 0)]
	LANES2
	CHAIN2	0, 4, 0
	BCASTP	0, 0, 4
	vmovdqa	ymm12, [TBLK(0, 1)]
	MADD	12, 4, 5, 6, 7, 0, 1
	BCASTP	1, 0, 0
	vmovdqa	ymm13, [TBLK(1, 1)]
	MADD	13, 0, 1, 2, 3, 1, 1
	LANES2
	CHAIN2	1, 4, 0
	BCASTP	0, 0, 4
	MADDT	12, 4, 5, 6, 7, 0, 2, 2
	vmovdqa	[TBLK(0, 2)], ymm12
	BCASTP	1, 0, 4
	MADDT	13, 4, 5, 6, 7, 1, 2, 2
	vmovdqa	[TBLK(1, 2)], ymm13
%endmacro

; VERT_SQR2P N: the kernel with the paired chain.
%macro VERT_SQR2P 1
%assign VG (%1 + 3) / 4
%assign VB (%1 + 6) / 4
	mov	r13d, 2
%%half:
	SQR_HALF	%1, 0
	add	rsi, NUM_SIZE
	add	r14, WORK_SIZE
	dec	r13d
	jnz	%%half
	sub	r14, 2 * WORK_SIZE
	mov	rsi, r14			; pair slots: work[0].ysh[0..]
	lea	rbx, [r14 + 3 * YSH]		; pairs of w: work[0].ysh[3]
	REDUCE_START2
	mov	r13d, VG
%%iter:
	ITER2	VB, 4 - ((%1 & 3) != 0)
	add	r14, 32
	add	rsi, 64
	dec	r13d
	jnz	%%iter
	sub	r14, 32 * VG
	sub	rsi, 64 * VG
%if (%1 & 3)
	BCASTP	0, VG - 1, 0
	RBLOCK	0, VG - 1, 0
	BCASTP	1, VG - 1, 0
	RBLOCK	1, VG - 1, 0
%endif
	vmovq	r12, xmm11
	vpextrq	rbp, xmm11, 1
	CARRY_OUT	%1
%endmacro

global big_vert_sqr2_avx2_asm:function
align 64
big_vert_sqr2_avx2_asm:
	CFI_STARTPROC
	CFI_PUSH_CALLEE_SAVED
	mov	r15, rdx
	mov	r14, rcx
	cmp	dword [rdx + MOD_DIGITS], 56
	jne	.n75
%ifdef SCALAR_CHAIN
	VERT_SQR2 56
%else
	VERT_SQR2P 56
%endif
	jmp	.done
.n75:
%ifdef SCALAR_CHAIN
	VERT_SQR2 75
%else
	VERT_SQR2P 75
%endif
.done:
	vzeroall
	WIPE_SCRATCH_GPRS
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
