; big_mul_vec_base -- schoolbook product of two vectors, baseline x86-64
; (mul, adc): any x86-64 CPU.
;
;   r[0..alen+blen) = a[0..alen) * b[0..blen)
;
; C prototype (bignum/internal.h, contract of big_mul_vec in bignum.h):
;   void big_mul_vec_base(uint64_t *r, const uint64_t *a, int alen,
;                         const uint64_t *b, int blen);
;
; Preconditions: alen, blen >= 1 (either <= 0 writes nothing); r overlaps
; neither input.
; Constant time: branches and addresses depend on alen and blen only.
;
; Method: r[0..alen) = 0, then for j = 0 .. blen-1 the row
;     r[j .. j+alen) += a * b[j],   r[j+alen] = carry
; with the loop of mul_add_vec_base.asm (carry in a register, r[i] added
; before it, 4 chunks per pass).  Every row has alen chunks, so the Duff
; entry (slot p = -alen mod 4) and the start counter are computed once.
;
; Register map:
;   r13  a + 8 alen       r14  r + 8 (j + alen) (row j's end)
;   r15  -(alen + p)      r12  entry address    rbx  walks b
;   rbp  rows left        r8   b[j]             r9   carry
;   rcx  -(alen + p) .. 0, step 4               rax, rdx  the product
; Saves rbx, rbp, r12-r15; no other stack.

default rel

section .text

global big_mul_vec_base:function
align 32
big_mul_vec_base:
	CFI_STARTPROC
	movsxd	rax, edx			; alen
	movsxd	r8, r8d				; blen
	test	rax, rax
	jle	.empty
	test	r8, r8
	jle	.empty
	CFI_PUSH_CALLEE_SAVED
	mov	rbx, rcx
	mov	rbp, r8
	lea	r13, [rsi + rax*8]
	lea	r14, [rdi + rax*8]

	; r[0..alen) = 0
	mov	rcx, rax
	xor	r9d, r9d
	mov	r10, rdi
.zero:
	mov	[r10], r9
	lea	r10, [r10 + 8]
	dec	rcx
	jnz	.zero

	mov	rcx, rax
	neg	rcx
	and	rcx, 3				; p
	lea	r12, [.entries]
	movsxd	r11, dword [r12 + rcx*4]
	add	r12, r11
	add	rcx, rax
	neg	rcx
	mov	r15, rcx			; -(alen + p)

.row:
	mov	r8, [rbx]
	mov	rcx, r15
	xor	r9d, r9d
	jmp	r12

align 32
.loop:
.s0:	mov	rax, [r13 + rcx*8]
	mul	r8
	add	rax, [r14 + rcx*8]
	adc	rdx, 0
	add	rax, r9
	adc	rdx, 0
	mov	[r14 + rcx*8], rax
	mov	r9, rdx
.s1:	mov	rax, [r13 + rcx*8 + 8]
	mul	r8
	add	rax, [r14 + rcx*8 + 8]
	adc	rdx, 0
	add	rax, r9
	adc	rdx, 0
	mov	[r14 + rcx*8 + 8], rax
	mov	r9, rdx
.s2:	mov	rax, [r13 + rcx*8 + 16]
	mul	r8
	add	rax, [r14 + rcx*8 + 16]
	adc	rdx, 0
	add	rax, r9
	adc	rdx, 0
	mov	[r14 + rcx*8 + 16], rax
	mov	r9, rdx
.s3:	mov	rax, [r13 + rcx*8 + 24]
	mul	r8
	add	rax, [r14 + rcx*8 + 24]
	adc	rdx, 0
	add	rax, r9
	adc	rdx, 0
	mov	[r14 + rcx*8 + 24], rax
	mov	r9, rdx
	add	rcx, 4
	jnz	.loop
	mov	[r14], r9			; r[j + alen]
	add	rbx, 8
	add	r14, 8
	dec	rbp
	jnz	.row

	CFI_POP_CALLEE_SAVED
.empty:
	ret

align 4
.entries:
	dd	.s0 - .entries
	dd	.s1 - .entries
	dd	.s2 - .entries
	dd	.s3 - .entries
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
