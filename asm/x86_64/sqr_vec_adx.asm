; big_sqr_vec_adx -- square a vector, BMI2 + ADX (mulx, adcx, adox).
;
;   r[0..2 len) = a[0..len)^2
;
; C prototype (bignum/internal.h, contract of big_sqr_vec in bignum.h):
;   void big_sqr_vec_adx(uint64_t *r, const uint64_t *a, int len);
;
; Preconditions: len >= 1 (len <= 0 writes nothing); r does not overlap a;
; the CPU has BMI2 and ADX (bignum/dispatch.c checks).
; Constant time: branches and addresses depend on len only.
;
; Method (as big_sqr_vec_c, with the rows inlined, no calls):
;  1. r = 0.
;  2. The off-diagonal triangle: for i = 0 .. len-2, the row
;        r[2i+1 .. i+len) += a[i+1 .. len) * a[i],   r[i+len] = carry
;     (r[i+len] is still zero when row i stores its carry there).  A row
;     is the loop of mul_add_vec_adx.asm: two carry chains, OF for
;     r + low half, CF for the previous high half, 4 chunks per pass,
;     entered Duff-style at slot p = -m mod 4 for a row of m chunks.
;  3. Double and add the squares, one pass: for i = 0 .. len-1
;        (r[2i+1], r[2i]) = 2 (r[2i+1], r[2i]) + a[i]^2 + carries
;     with the doubling as adcx x, x (CF chain) and the squares by adox
;     (OF chain).  a^2 < 2^(128 len), so both chains end with no carry.
;
; Register map:
;   rdi  r                rsi  a                r12  len
;   r13  a + 8 len (the end of every row's a)   r14  r + 8 (len + i)
;   rbx  m = len - 1 - i, chunks in row i       rdx  a[i] (mulx source)
;   rcx  row counter -(m + p) .. 0, step 4      r8   low half / sum
;   rax, r9  high halves, alternating           r10  entry address
;   r11  zero
; Saves rbx, r12, r13, r14; no other stack.
;
; Cycles: see the table in mul_add_vec_adx.asm (bench_kernels_report()
; measures this too, per chunk^2).

default rel

section .text

global big_sqr_vec_adx:function
align 32
big_sqr_vec_adx:
	movsxd	rax, edx
	test	rax, rax
	jle	.empty
	push	rbx
	push	r12
	push	r13
	push	r14
	mov	r12, rax
	lea	r13, [rsi + rax*8]
	lea	r14, [rdi + rax*8]

	; 1. r = 0
	lea	rcx, [rax + rax]
	xor	eax, eax
.zero:
	mov	[rdi + rcx*8 - 8], rax
	dec	rcx
	jnz	.zero

	; 2. rows i = 0 .. len-2, of m = len-1-i >= 1 chunks
	lea	rbx, [r12 - 1]
	test	rbx, rbx
	jz	.diagonal
.row:
	mov	rcx, rbx
	not	rcx
	mov	rdx, [r13 + rcx*8]		; a[i] = a[len - 1 - m]
	neg	rcx				; m + 1
	dec	rcx				; m
	neg	rcx
	and	rcx, 3				; p
	lea	r10, [.entries]
	movsxd	r11, dword [r10 + rcx*4]
	add	r10, r11
	add	rcx, rbx
	neg	rcx				; -(m + p)
	xor	r9d, r9d
	xor	r11d, r11d
	xor	eax, eax			; clears CF and OF
	jmp	r10

align 32
.loop:
.s0:	mulx	r9, r8, [r13 + rcx*8]
	adox	r8, [r14 + rcx*8]
	adcx	r8, rax
	mov	[r14 + rcx*8], r8
.s1:	mulx	rax, r8, [r13 + rcx*8 + 8]
	adox	r8, [r14 + rcx*8 + 8]
	adcx	r8, r9
	mov	[r14 + rcx*8 + 8], r8
.s2:	mulx	r9, r8, [r13 + rcx*8 + 16]
	adox	r8, [r14 + rcx*8 + 16]
	adcx	r8, rax
	mov	[r14 + rcx*8 + 16], r8
.s3:	mulx	rax, r8, [r13 + rcx*8 + 24]
	adox	r8, [r14 + rcx*8 + 24]
	adcx	r8, r9
	mov	[r14 + rcx*8 + 24], r8
	lea	rcx, [rcx + 4]
	jrcxz	.rowend
	jmp	.loop
.rowend:
	adcx	rax, r11
	adox	rax, r11
	mov	[r14], rax			; r[len + i]
	add	r14, 8
	dec	rbx
	jnz	.row

	; 3. r = 2 r + the squares, two chunks of r per chunk of a
.diagonal:
	lea	r14, [rdi + r12*8]
	lea	r14, [r14 + r12*8]		; r + 16 len
	lea	rcx, [r12 + r12]
	neg	rcx				; -2 len .. 0, step 2
	xor	eax, eax			; clears CF and OF
.diag:
	mov	rdx, [r13 + rcx*4]		; a[i]
	mulx	r9, r8, rdx
	mov	rax, [r14 + rcx*8]
	mov	r10, [r14 + rcx*8 + 8]
	adcx	rax, rax
	adcx	r10, r10
	adox	rax, r8
	adox	r10, r9
	mov	[r14 + rcx*8], rax
	mov	[r14 + rcx*8 + 8], r10
	lea	rcx, [rcx + 2]
	jrcxz	.done
	jmp	.diag
.done:
	pop	r14
	pop	r13
	pop	r12
	pop	rbx
.empty:
	ret

align 4
.entries:
	dd	.s0 - .entries
	dd	.s1 - .entries
	dd	.s2 - .entries
	dd	.s3 - .entries

section .note.GNU-stack noalloc noexec nowrite progbits
