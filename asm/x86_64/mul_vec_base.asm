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
; of VEC_BASE_ADDMUL_ROW (vec_rows_base.inc: carry in a register, r[i]
; added before it, 4 chunks per pass).  Every row has alen chunks, so the
; Duff entry (slot p = -alen mod 4) and the start counter are computed
; once, and a row costs only its loop: no call per row, as big_mul_vec_c
; makes.
;
; Register map:
;   r13  a + 8 alen       r14  r + 8 (j + alen) (row j's end)
;   r15  -(alen + p)      r12  entry address    rbx  walks b
;   rbp  rows left        r8   b[j]             r9   carry
;   rcx  -(alen + p) .. 0, step 4               rax, rdx  the product
; Stack: saves rbx, rbp, r12-r15; nothing else.
;
; rdtsc ticks per n x n call on AMD EPYC family 25 model 1 (Zen 3), GMP's
; mpn_mul_n in the same run (big_mul_vec is not in `bigmont speed
; --kernels`; docs/design-notes.md describes the harness, taskset -c 1):
;   n                  8     16     32     64
;   mul_vec_base     156    557   2095   8286
;   mpn_mul_n        113    430   1396   4378

default rel
%include "vec_rows_base.inc"

section .text

global big_mul_vec_base:function
align 32
big_mul_vec_base:
	CFI_STARTPROC
	MUL_VEC_START
	lea	r13, [rsi + rax*8]
	lea	r14, [rdi + rax*8]
	MUL_VEC_ZERO

	; every row has alen chunks: one entry for all
	VEC_BASE_ROW_ENTRY	r12, rax
	mov	r15, rcx			; -(alen + p)

.row:
	mov	r8, [rbx]
	mov	rcx, r15
	VEC_BASE_ADDMUL_ROW	r12, r13, r14
	mov	[r14], r9			; r[j + alen]
	MUL_VEC_END	r14, 4
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
