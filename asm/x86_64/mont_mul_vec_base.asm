; big_mont_mul_vec_base -- fused Montgomery multiplication, x86-64 mul/adc.
;
;   r[0..len) = a * b * 2^(-64*len) mod n
;
; C prototype (bignum/internal.h, where big_mont_mul_vec states the
; contract):
;   void big_mont_mul_vec_base(uint64_t *r, const uint64_t *a,
;                              const uint64_t *b, const uint64_t *n,
;                              uint64_t n0, int len);
;
; Preconditions: 1 <= len <= BIG_MAX_MODULUS_CHUNKS; n odd; n0 == -n^-1
; mod 2^64; a < n, b < 2^(64*len) (the bounds below need one factor < n);
; r may equal a and/or b (both are read in full before r is written) but
; must not overlap n.
; Postcondition: r < n, by a masked (not branched) final subtraction.
; Constant time: every branch and address depends on len only.
;
; Algorithm: CIOS (coarsely integrated operand scanning), one fused pass per
; word of b.  With t < 2n on entry to a row, each row computes
;     t = (t + a*b[i] + m*n) / 2^64,   m = (t + a*b[i]) * n0 mod 2^64,
; which stays < 2n, so t fits in len chunks plus one bit (t[len] in {0,1}).
; Both products of a row share one loop: the a*b[i] word feeds the m*n word
; of the same column, whose sum is stored one chunk lower (the shift).
; The two carries (c1 of a*b[i], c2 of m*n) never overflow a chunk:
; (2^64-1)^2 + 2*(2^64-1) = 2^128 - 1.  Those two independent carry chains
; are what keep the fused column ahead of a product-then-reduce form, which
; mul/adc could only run with one.  The masked final subtraction is
; MONT_CIOS_FINAL (mont_cios.inc).
;
; Register map (row loop):
;   rsi  a + len            r10  n + len          rbp  t + len (stack)
;   r11  &b[i]              r15  b + len          r9   -len
;   rbx  b[i]               r14  m                r8   n0
;   r12  c1 (a*b[i] carry)  r13  c2 (m*n carry)   rcx  j - len
;   rdi  u (column sum)     rax, rdx  mul         [rbp+8] r + len
; Stack: 7 pushes + return address + (len + 1) chunks of t, wiped on exit.
;
; Cost on Zen 3 (AMD EPYC family 25 model 1), len 32: 4684 rdtsc ticks a
; call, 6320 core cycles, against 4998 ticks for big_mont_mul_vec_c (each
; len from 8 to 32, and the method, in
; results/amd-epyc-family25-model1/2026-11-23-kernels.txt).
; That is ~3.1 cycles a product at len 32, the two mul and eight add/adc
; of a column being the work.
; The squaring big_mont_sqr_vec_base is in mont_sqr_vec_base.asm.

default rel
%include "mont_cios.inc"

section .text

global big_mont_mul_vec_base:function

big_mont_mul_vec_base:
	CFI_STARTPROC
	movsxd	r9, r9d
	test	r9, r9
	jle	.empty			; len < 1 breaks the contract: write nothing
	CFI_PUSH_CALLEE_SAVED
	lea	rax, [rdi + r9*8]
	CFI_PUSH	rax			; r + len, read back at [rbp + 8]
	lea	rbp, [rsp - 8]		; t + len, once t[0..len] is below
	CFI_CFA_REG	rbp, 72		; rax and 6 pushes and the return address
	lea	rax, [r9*8 + 8]
	sub	rsp, rax		; t[0..len]
	mov	r11, rdx
	lea	rsi, [rsi + r9*8]
	lea	r10, [rcx + r9*8]
	lea	r15, [r11 + r9*8]
	neg	r9

	xor	eax, eax
	mov	rcx, r9
	HLABEL	.zero
	mov	[rbp + rcx*8], rax
	inc	rcx
	jnz	.zero
	mov	[rbp], rax

	HLABEL	.row
	mov	rbx, [r11]
	mov	rcx, r9
	; column 0 decides m: the low chunk of t + a*b[i] + m*n must vanish.
	mov	rax, [rsi + rcx*8]
	mul	rbx
	add	rax, [rbp + rcx*8]
	adc	rdx, 0
	mov	r12, rdx
	mov	rdi, rax
	imul	rax, r8
	mov	r14, rax
	mul	qword [r10 + rcx*8]
	add	rax, rdi		; == 0; only the carry matters
	adc	rdx, 0
	mov	r13, rdx
	inc	rcx
	jz	.rowend
	HLABEL	.inner
	mov	rax, [rsi + rcx*8]
	mul	rbx
	add	rax, [rbp + rcx*8]
	adc	rdx, 0
	add	rax, r12
	adc	rdx, 0
	mov	r12, rdx
	mov	rdi, rax
	mov	rax, [r10 + rcx*8]
	mul	r14
	add	rax, rdi
	adc	rdx, 0
	add	rax, r13
	adc	rdx, 0
	mov	r13, rdx
	mov	[rbp + rcx*8 - 8], rax
	inc	rcx
	jnz	.inner
	HLABEL	.rowend
	mov	rax, [rbp]
	xor	edx, edx
	add	rax, r12
	adc	rdx, 0
	add	rax, r13
	adc	rdx, 0
	mov	[rbp - 8], rax
	mov	[rbp], rdx
	add	r11, 8
	cmp	r11, r15
	jne	.row

	; r = t - n or t, by a mask; t wiped (mont_cios.inc)
	mov	rdi, [rbp + 8]
	mov	rcx, r9
	MONT_CIOS_FINAL

	lea	rsp, [rbp + 16]		; past t and the saved r + len
	CFI_CFA_RSP	56
	CFI_POP_CALLEE_SAVED
	HLABEL	.empty
	ret
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
