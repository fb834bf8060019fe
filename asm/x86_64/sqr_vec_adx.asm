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
;  2. The off-diagonal triangle: for i = 0 .. len-2, the row of m =
;     len-1-i chunks
;        r[2i+1 .. i+len) += a[i+1 .. len) * a[i],   r[i+len] = carry
;     (r[i+len] is still zero when row i stores its carry there).  A row
;     is VEC_ADX_ADDMUL_ROW (vec_rows_adx.inc): two carry chains, OF for
;     r + low half, CF for the previous high half, 8 chunks per pass,
;     entered Duff-style at slot p = -m mod 8 with both pointers 8p below
;     the row's first chunk.  Both rows' ends are fixed by i: a + 8 len
;     and r + 8 (len + i), so a row starts 8m below them.
;  3. Double and add the squares, one pass: for i = 0 .. len-1
;        (r[2i+1], r[2i]) = 2 (r[2i+1], r[2i]) + a[i]^2 + carries
;     with the doubling as adcx x, x (CF chain) and the squares by adox
;     (OF chain).  a^2 < 2^(128 len), so both chains end with no carry.
; Loads are separate instructions and addresses plain base + offset, as
; an indexed memory operand slows mulx and adox down.
;
; Register map:
;   r15  r                r13  a + 8 len        r12  len
;   r14  r + 8 (len + i)  rbx  m = len - 1 - i (chunks in row i)
;   rsi, rdi  walk a and r (rows; then step 3)  rdx  a[i] (mulx source)
;   rcx  row counter -(m + p) .. 0, step 8      r8   low half / sum
;   rax, r9  high halves, alternating           r10, r11  loaded chunks
; Stack: saves rbx, r12, r13, r14, r15; nothing else.
;
; sqr_vec_adx on AMD EPYC family 25 model 1 (Zen 3): core cycles per
; chunk^2, (t(n) - t(n/2)) / (n^2 - (n/2)^2), and per call, t(n); GMP 6.2.1
; in the same run of `taskset -c 1 build/chunk64-asm/cli/bigmont speed
; --kernels`:
;   n                     8      16      32      64   | cycles per call t(n)
;   sqr_vec_adx         1.67   1.42   1.22   1.01  | 136  410 1348 4404
;   sqr_vec_c           2.04   1.74   1.16   1.15  | 178  510 1392 4968
;   mpn_sqr             1.50   1.34   1.20   0.89  | 102  360 1280 4024
; (sqr_vec_c runs on the dispatched, here ADX, row kernels.)

default rel
%include "vec_rows_adx.inc"

section .text

global big_sqr_vec_adx:function
align 32
big_sqr_vec_adx:
	CFI_STARTPROC
	SQR_VEC_START	r15, rdi

	; 1. r = 0
	lea	rcx, [rax + rax]
	xor	eax, eax
.zero:
	mov	[rdi], rax
	lea	rdi, [rdi + 8]
	dec	rcx
	jnz	.zero

	; 2. rows i = 0 .. len-2, of m = len-1-i >= 1 chunks
	SQR_VEC_ROWS	.diagonal
	neg	rcx				; -m
	mov	rdx, [r13 + rcx*8 - 8]		; a[i] = a[len - 1 - m]
	lea	rsi, [r13 + rcx*8]		; &a[i + 1]
	lea	rdi, [r14 + rcx*8]		; &r[2i + 1]
	VEC_ADX_ROW_ENTRY	r10, rbx, rsi, rdi
	VEC_ADX_ADDMUL_ROW	r10, .rowend
	SQR_VEC_NEXT_ROW	rax

	; 3. r = 2 r + the squares, two chunks of r per chunk of a
.diagonal:
	mov	rdi, r15
	mov	rsi, r13
	mov	rcx, r12
	neg	rcx
	lea	rsi, [rsi + rcx*8]		; a
	xor	eax, eax			; clears CF and OF
.diag:
	mov	rdx, [rsi]
	mulx	r9, r8, rdx
	mov	rax, [rdi]
	mov	r10, [rdi + 8]
	adcx	rax, rax
	adcx	r10, r10
	adox	rax, r8
	adox	r10, r9
	mov	[rdi], rax
	mov	[rdi + 8], r10
	lea	rsi, [rsi + 8]
	lea	rdi, [rdi + 16]
	lea	rcx, [rcx + 1]
	jrcxz	.done
	jmp	.diag
.done:
	SQR_VEC_END	8, r15
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
