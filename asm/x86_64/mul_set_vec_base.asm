; big_mul_set_vec_base -- multiply a vector by one chunk, baseline x86-64
; (mul, adc): any x86-64 CPU.
;
;   r[0..len) = a[0..len) * digit;   returns the high chunk c, so that
;   r_out + c * 2^(64 len) == a * digit.
;
; C prototype (bignum/internal.h, contract of big_mul_set_vec in bignum.h):
;   uint64_t big_mul_set_vec_base(uint64_t *r, const uint64_t *a, int len,
;                                 uint64_t digit);
;
; Preconditions: len >= 0 (len <= 0 returns 0 and touches nothing); r may
; equal a (a[i] is read before r[i] is written); otherwise no overlap.
; Constant time: branches and addresses depend on len only.
;
; Per chunk: (h, l) = a[i] * digit; r[i] = l + c; c = h + CF.  The bound
; a[i]*digit + c <= 2^128 - 2^64 keeps h + CF in one chunk.  One row of
; VEC_BASE_MUL_ROW (vec_rows_base.inc): 4 chunks per pass, entered at
; slot p = -len mod 4 with both pointers at the vectors' ends.
;
; Register map:
;   rdi  r + 8 len        rsi  a + 8 len        r8  digit
;   rcx  -(len + p) .. 0, step 4                r9  carry c
;   rax, rdx  the product                       r10, r11  entry address
; Stack: none, and no callee-saved register is used.
;
; mul_set_vec_base on AMD EPYC family 25 model 1 (Zen 3), core cycles per
; chunk (t(n) - t(n/2)) / (n/2) and per call t(n), GMP 6.2.1 in the same
; run of `taskset -c 1 build/chunk64-asm/cli/bigmont speed --kernels`:
;   n                     8      16      32      64   | cycles per call t(n)
;   mul_set_vec_base    2.34   2.22   2.48   2.59  |  21  39  79 162
;   mul_set_vec_c       2.98   2.98   2.98   2.98  |  29  53 100 196
;   mpn_mul_1           0.70   2.22   2.37   2.48  |  21  38  76 156

default rel
%include "vec_rows_base.inc"

section .text

global big_mul_set_vec_base:function
align 32
big_mul_set_vec_base:
	CFI_STARTPROC
	VEC_BASE_KERNEL_START
	VEC_BASE_MUL_ROW	r10, rsi, rdi
	VEC_BASE_KERNEL_END
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
