; big_mul_vec_adx -- schoolbook product of two vectors, BMI2 + ADX (mulx,
; adcx, adox).
;
;   r[0..alen+blen) = a[0..alen) * b[0..blen)
;
; C prototype (bignum/internal.h, contract of big_mul_vec in bignum.h):
;   void big_mul_vec_adx(uint64_t *r, const uint64_t *a, int alen,
;                        const uint64_t *b, int blen);
;
; Preconditions: alen, blen >= 1 (either <= 0 writes nothing); r overlaps
; neither input; the CPU has BMI2 and ADX (bignum/dispatch.c checks).
; Constant time: branches and addresses depend on alen and blen only.
;
; Method: r[0..alen) = 0, then for j = 0 .. blen-1 the row
;     r[j .. j+alen) += a * b[j],   r[j+alen] = carry
; (r[j+alen] is still zero when row j stores its carry there).  A row is
; the loop of mul_add_vec_adx.asm (two carry chains, 8 chunks per pass,
; separate loads, base + offset addresses); every row has alen chunks, so
; the Duff entry slot p = -alen mod 8, its address and the start counter
; are computed once, and a row costs only its loop: the saving over
; big_mul_vec_c, which pays a call through the ifunc per row.
;
; Register map:
;   r15  r + 8j - 8p (row j's start)            r13  a - 8p
;   r14  -(alen + p)      r12  entry address    rbx  walks b
;   rbp  rows left        rdx  b[j] (mulx source)
;   rsi, rdi  walk a and r in a row             rcx  -(alen + p) .. 0, step 8
;   r8   low half / sum   rax, r9  high halves, alternating
;   r10, r11  loaded chunks
; Saves rbx, rbp, r12-r15; no other stack.
;
; rdtsc ticks per n x n call on this machine (AMD EPYC family 25
; model 1, Zen 3; commit 652916a): a throwaway main timing
; big_mul_vec_c/_base/_adx and GMP's mpn_mul_n on one pair of random
; operands, interleaved, each sample 16 back-to-back calls between
; lfence'd rdtsc reads, the best of 300 samples per call, the smallest of
; 3 runs (taskset -c 1); big_mul_vec_c runs on the ADX row kernels here:
;   n                  8     16     32     64
;   mul_vec_adx      107    383   1395   5316
;   mul_vec_c        147    430   1514   5629
;   mul_vec_base     156    557   2095   8286
;   mpn_mul_n        113    430   1396   4378

default rel

section .text

global big_mul_vec_adx:function
align 32
big_mul_vec_adx:
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
	and	rcx, 7				; p
	lea	r10, [rcx*8]
	mov	r13, rsi
	sub	r13, r10			; a - 8p
	mov	r15, rdi
	sub	r15, r10			; r - 8p
	lea	r12, [.entries]
	movsxd	r11, dword [r12 + rcx*4]
	add	r12, r11
	add	rcx, rax
	neg	rcx
	mov	r14, rcx			; -(alen + p)

.row:
	mov	rdx, [rbx]
	mov	rsi, r13
	mov	rdi, r15
	mov	rcx, r14
	xor	r9d, r9d
	xor	eax, eax			; clears CF and OF
	jmp	r12

align 32
.loop:
.s0:	mov	r10, [rsi]
	mulx	r9, r8, r10
	mov	r11, [rdi]
	adox	r8, r11
	adcx	r8, rax
	mov	[rdi], r8
.s1:	mov	r10, [rsi + 8]
	mulx	rax, r8, r10
	mov	r11, [rdi + 8]
	adox	r8, r11
	adcx	r8, r9
	mov	[rdi + 8], r8
.s2:	mov	r10, [rsi + 16]
	mulx	r9, r8, r10
	mov	r11, [rdi + 16]
	adox	r8, r11
	adcx	r8, rax
	mov	[rdi + 16], r8
.s3:	mov	r10, [rsi + 24]
	mulx	rax, r8, r10
	mov	r11, [rdi + 24]
	adox	r8, r11
	adcx	r8, r9
	mov	[rdi + 24], r8
.s4:	mov	r10, [rsi + 32]
	mulx	r9, r8, r10
	mov	r11, [rdi + 32]
	adox	r8, r11
	adcx	r8, rax
	mov	[rdi + 32], r8
.s5:	mov	r10, [rsi + 40]
	mulx	rax, r8, r10
	mov	r11, [rdi + 40]
	adox	r8, r11
	adcx	r8, r9
	mov	[rdi + 40], r8
.s6:	mov	r10, [rsi + 48]
	mulx	r9, r8, r10
	mov	r11, [rdi + 48]
	adox	r8, r11
	adcx	r8, rax
	mov	[rdi + 48], r8
.s7:	mov	r10, [rsi + 56]
	mulx	rax, r8, r10
	mov	r11, [rdi + 56]
	adox	r8, r11
	adcx	r8, r9
	mov	[rdi + 56], r8
	lea	rsi, [rsi + 64]
	lea	rdi, [rdi + 64]
	lea	rcx, [rcx + 8]
	jrcxz	.rowend
	jmp	.loop
.rowend:
	mov	r10d, 0				; mov keeps the flags
	adcx	rax, r10
	adox	rax, r10
	mov	[rdi], rax			; r[j + alen]
	add	rbx, 8
	add	r15, 8
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
	dd	.s4 - .entries
	dd	.s5 - .entries
	dd	.s6 - .entries
	dd	.s7 - .entries
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
