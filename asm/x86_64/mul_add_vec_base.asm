; big_mul_add_vec_base -- multiply a vector by one chunk and add it in
; place, baseline x86-64 (mul, adc): any x86-64 CPU.
;
;   r[0..len) += a[0..len) * digit;   returns the carry chunk c, so that
;   r_out + c * 2^(64 len) == r_in + a * digit.
;
; C prototype (bignum/internal.h, contract of big_mul_add_vec in bignum.h):
;   uint64_t big_mul_add_vec_base(uint64_t *r, const uint64_t *a, int len,
;                                 uint64_t digit);
;
; Preconditions: len >= 0 (len <= 0 returns 0 and touches nothing); r and
; a do not overlap.
; Constant time: branches and addresses depend on len only.
;
; Per chunk: (h, l) = a[i] * digit; l += r[i] (h += CF); l += c (h += CF);
; r[i] = l; c = h.  The bound a[i]*digit + r[i] + c <= 2^128 - 1 keeps
; h + 2 carries in one chunk.  mul writes the flags, so the carry is the
; register c, not CF; adding r[i] first leaves two one-cycle ops (add,
; adc) on its path from chunk to chunk.  One row of VEC_BASE_ADDMUL_ROW
; (vec_rows_base.inc): 4 chunks per pass, entered at slot p = -len mod 4
; with both pointers at the vectors' ends.
;
; Register map:
;   rdi  r + 8 len        rsi  a + 8 len        r8  digit
;   rcx  -(len + p) .. 0, step 4                r9  carry c
;   rax, rdx  the product                       r10, r11  entry address
; Stack: none, and no callee-saved register is used.
;
; mul_add_vec_base on AMD EPYC family 25 model 1 (Zen 3), core cycles per
; chunk (t(n) - t(n/2)) / (n/2) and per call t(n), GMP 6.2.1 in the same
; run of `taskset -c 1 build/chunk64-asm/cli/bigmont speed --kernels`:
;   n                     8      16      32      64   | cycles per call t(n)
;   mul_add_vec_base    3.67   1.92   2.61   2.67  |  30  46  87 173
;   mul_add_vec_c       3.98   3.97   4.00   4.00  |  37  68 132 260
;   mpn_addmul_1        0.91   2.31   2.45   2.55  |  21  39  78 160

default rel
%include "vec_rows_base.inc"

section .text

global big_mul_add_vec_base:function
align 32
big_mul_add_vec_base:
	CFI_STARTPROC
	VEC_BASE_KERNEL_START
	VEC_BASE_ADDMUL_ROW	r10, rsi, rdi
	VEC_BASE_KERNEL_END
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
