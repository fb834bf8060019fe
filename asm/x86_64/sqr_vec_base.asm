; big_sqr_vec_base -- square a vector, baseline x86-64 (mul, adc): any
; x86-64 CPU.
;
;   r[0..2 len) = a[0..len)^2
;
; C prototype (bignum/internal.h, contract of big_sqr_vec in bignum.h):
;   void big_sqr_vec_base(uint64_t *r, const uint64_t *a, int len);
;
; Preconditions: len >= 1 (len <= 0 writes nothing); r does not overlap a.
; Constant time: branches and addresses depend on len only.
;
; Method (as sqr_vec_adx.asm and big_sqr_vec_c, rows inlined):
;  1. r = 0.
;  2. The off-diagonal triangle: for i = 0 .. len-2, the row
;        r[2i+1 .. i+len) += a[i+1 .. len) * a[i],   r[i+len] = carry
;     of VEC_BASE_ADDMUL_ROW (vec_rows_base.inc: carry in a register, 4
;     chunks per pass, Duff entry at slot p = -m mod 4 for m chunks).
;  3. r = 2 r: one adc chain over 2 len chunks (inc keeps CF).
;  4. Add the squares: (r[2i+1], r[2i]) += a[i]^2 + c, c the carry out
;     of the previous pair (0 or 1; zero at the end since a^2 fits).
;
; Register map:
;   rdi  r                rsi  a                r12  len
;   r13  a + 8 len (the end of every row's a)   r14  r + 8 (len + i)
;   rbx  m = len - 1 - i, chunks in row i       r8   a[i] (multiplier)
;   rcx  row counter -(m + p) .. 0, step 4      r9   carry
;   rax, rdx  the product                       r10, r11  entry address
; Stack: saves rbx, r12, r13, r14; nothing else.
;
; sqr_vec_base on AMD EPYC family 25 model 1 (Zen 3): core cycles per
; chunk^2, (t(n) - t(n/2)) / (n^2 - (n/2)^2), and per call, t(n); GMP 6.2.1
; in the same run of `taskset -c 1 build/chunk64-asm/cli/bigmont speed
; --kernels` (big_sqr_vec_c left out):
;   n                     8      16      32      64   | cycles per call t(n)
;   sqr_vec_base        2.64   1.85   1.63   1.52  | 225  586 1832 6496
;   mpn_sqr             1.50   1.34   1.20   0.89  | 102  360 1280 4024

default rel
%include "vec_rows_base.inc"

section .text

global big_sqr_vec_base:function
align 32
big_sqr_vec_base:
	CFI_STARTPROC
	SQR_VEC_START

	; 1. r = 0
	lea	rcx, [rax + rax]
	xor	eax, eax
.zero:
	mov	[rdi + rcx*8 - 8], rax
	dec	rcx
	jnz	.zero

	; 2. rows i = 0 .. len-2, of m = len-1-i >= 1 chunks
	SQR_VEC_ROWS	.double
	not	rcx
	mov	r8, [r13 + rcx*8]		; a[i] = a[len - 1 - m]
	VEC_BASE_ROW_ENTRY	r10, rbx
	VEC_BASE_ADDMUL_ROW	r10, r13, r14
	SQR_VEC_NEXT_ROW	r9

	; 3. r = 2 r
.double:
	lea	r14, [rdi + r12*8]
	lea	r14, [r14 + r12*8]		; r + 16 len
	lea	rcx, [r12 + r12]
	neg	rcx
	xor	eax, eax			; clears CF
.dbl:
	mov	rax, [r14 + rcx*8]
	adc	rax, rax
	mov	[r14 + rcx*8], rax
	inc	rcx				; keeps CF
	jnz	.dbl

	; 4. add the squares
	lea	rcx, [r12 + r12]
	neg	rcx				; -2 len .. 0, step 2
	xor	r9d, r9d
.diag:
	mov	rax, [r13 + rcx*4]		; a[i]
	mul	rax
	add	rax, r9
	adc	rdx, 0				; a[i]^2 < 2^128 - 2^65: no carry out
	add	[r14 + rcx*8], rax
	adc	[r14 + rcx*8 + 8], rdx
	mov	r9d, 0				; mov leaves CF alone
	adc	r9, 0
	add	rcx, 2
	jnz	.diag

	SQR_VEC_END	4
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
