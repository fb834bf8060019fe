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
; VEC_ADX_ADDMUL_ROW (vec_rows_adx.inc: two carry chains, 8 chunks per
; pass, separate loads, base + offset addresses); every row has alen
; chunks, so the Duff entry slot p = -alen mod 8, its address and the
; start counter are computed once, and a row costs only its loop: no call
; per row, as big_mul_vec_c makes.
;
; Register map:
;   r15  r + 8j - 8p (row j's start)            r13  a - 8p
;   r14  -(alen + p)      r12  entry address    rbx  walks b
;   rbp  rows left        rdx  b[j] (mulx source)
;   rsi, rdi  walk a and r in a row             rcx  -(alen + p) .. 0, step 8
;   r8   low half / sum   rax, r9  high halves, alternating
;   r10, r11  loaded chunks
; Stack: saves rbx, rbp, r12-r15; nothing else.
;
; rdtsc ticks per n x n call on AMD EPYC family 25 model 1 (Zen 3), GMP's
; mpn_mul_n in the same run (big_mul_vec is not in `bigmont speed
; --kernels`; docs/design-notes.md describes the harness, taskset -c 1;
; big_mul_vec_c ran on the ADX row kernels then):
;   n                  8     16     32     64
;   mul_vec_adx      107    383   1395   5316
;   mul_vec_c        147    430   1514   5629
;   mpn_mul_n        113    430   1396   4378

default rel
%include "vec_rows_adx.inc"

section .text

global big_mul_vec_adx:function
align 32
big_mul_vec_adx:
	CFI_STARTPROC
	MUL_VEC_START
	MUL_VEC_ZERO

	; every row has alen chunks: one entry for all
	mov	rcx, rax
	neg	rcx
	and	rcx, 7				; p
	lea	r10, [rcx*8]
	mov	r13, rsi
	sub	r13, r10			; a - 8p
	mov	r15, rdi
	sub	r15, r10			; r - 8p
	DUFF_ENTRY	r12, rax
	mov	r14, rcx			; -(alen + p)

.row:
	mov	rdx, [rbx]
	mov	rsi, r13
	mov	rdi, r15
	mov	rcx, r14
	VEC_ADX_ADDMUL_ROW	r12, .rowend
	mov	[rdi], rax			; r[j + alen]
	MUL_VEC_END	r15, 8
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
