; big_mul_set_vec_adx -- multiply a vector by one chunk, BMI2 + ADX
; (mulx, adcx).
;
;   r[0..len) = a[0..len) * digit;   returns the high chunk c, so that
;   r_out + c * 2^(64 len) == a * digit.
;
; C prototype (bignum/internal.h, contract of big_mul_set_vec in bignum.h):
;   uint64_t big_mul_set_vec_adx(uint64_t *r, const uint64_t *a, int len,
;                                uint64_t digit);
;
; Preconditions: len >= 0 (len <= 0 returns 0 and touches nothing); r may
; equal a (a[i] is read before r[i] is written, and r[i] is written before
; a[i+1] is read only at a different address); otherwise no overlap; the
; CPU has BMI2 (dispatch checks BMI2 + ADX).
; Constant time: branches and addresses depend on len only.
;
; One carry chain: r[i] = l_i + h_(i-1) + CF, with (h_i, l_i) = a[i]*digit
; (mulx leaves the flags alone, so the chain runs through the whole
; vector); c = h_(len-1) + CF, which cannot overflow.
;
; 4 chunks per pass, entered Duff-style as in mul_add_vec_adx.asm: with
; p = -len mod 4 the pointers are at the vector ends, rcx = -(len + p),
; and a table jump (flags cleared after it is computed) enters slot p.
; Slots alternate the high-half register (rax, r9), both zero at entry.
;
; Register map:
;   rdi  r + 8 len        rsi  a + 8 len        rdx  digit (mulx source)
;   rcx  -(len + p) .. 0, step 4                r8   low half / sum
;   rax, r9  high halves, alternating           r10  entry address
;   r11  zero
; No callee-saved register is used; no stack.
;
; Cycles per chunk: see the table in mul_add_vec_adx.asm (the same run of
; bench_kernels_report() measures both).

default rel

section .text

global big_mul_set_vec_adx:function
align 32
big_mul_set_vec_adx:
	movsxd	rax, edx
	test	rax, rax
	jle	.empty
	mov	rdx, rcx			; digit, the implicit mulx operand
	mov	rcx, rax
	neg	rcx
	and	rcx, 7				; p
	lea	r10, [rcx*8]
	sub	rsi, r10			; a - 8p: slot p reads a[0]
	sub	rdi, r10
	lea	r10, [.entries]
	movsxd	r11, dword [r10 + rcx*4]
	add	r10, r11
	add	rcx, rax
	neg	rcx				; -(len + p)
	xor	r9d, r9d
	xor	eax, eax			; also clears CF and OF
	jmp	r10

align 32
.loop:
.s0:	mov	r10, [rsi]
	mulx	r9, r8, r10
	adcx	r8, rax
	mov	[rdi], r8
.s1:	mov	r10, [rsi + 8]
	mulx	rax, r8, r10
	adcx	r8, r9
	mov	[rdi + 8], r8
.s2:	mov	r10, [rsi + 16]
	mulx	r9, r8, r10
	adcx	r8, rax
	mov	[rdi + 16], r8
.s3:	mov	r10, [rsi + 24]
	mulx	rax, r8, r10
	adcx	r8, r9
	mov	[rdi + 24], r8
.s4:	mov	r10, [rsi + 32]
	mulx	r9, r8, r10
	adcx	r8, rax
	mov	[rdi + 32], r8
.s5:	mov	r10, [rsi + 40]
	mulx	rax, r8, r10
	adcx	r8, r9
	mov	[rdi + 40], r8
.s6:	mov	r10, [rsi + 48]
	mulx	r9, r8, r10
	adcx	r8, rax
	mov	[rdi + 48], r8
.s7:	mov	r10, [rsi + 56]
	mulx	rax, r8, r10
	adcx	r8, r9
	mov	[rdi + 56], r8
	lea	rsi, [rsi + 64]
	lea	rdi, [rdi + 64]
	lea	rcx, [rcx + 8]
	jrcxz	.done
	jmp	.loop

.done:
	mov	r10d, 0				; mov keeps the flags
	adcx	rax, r10
	ret

.empty:
	xor	eax, eax
	ret

align 4
.entries:
	dd	.s0 - .entries
	dd	.s1 - .entries
	dd	.s2 - .entries
	dd	.s3 - .entries
	dd	.s4 - .entries
	dd	.s5 - .entries
	dd	.s6 - .entries
	dd	.s7 - .entries

section .note.GNU-stack noalloc noexec nowrite progbits
