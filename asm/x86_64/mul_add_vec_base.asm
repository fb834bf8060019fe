; big_mul_add_vec_base -- r += a * digit, a vector times one chunk added
; in place, baseline x86-64 (mul, adc): any x86-64 CPU.  Contract,
; prototype and cycles: VEC_ROW_KERNEL (vec_rows.inc), which makes it.
;
; Per chunk: (h, l) = a[i] * digit; l += r[i] (h += CF); l += c (h += CF);
; r[i] = l; c = h.  The bound a[i]*digit + r[i] + c <= 2^128 - 1 keeps
; h + 2 carries in one chunk.  mul writes the flags, so the carry is the
; register c, not CF; adding r[i] first leaves two one-cycle ops (add,
; adc) on its path from chunk to chunk.  One row of VEC_BASE_ADDMUL_ROW
; (vec_rows_base.inc, where VEC_BASE_KERNEL_ROW has the register map):
; 4 chunks per pass, entered at slot p = -len mod 4 with both pointers at
; the vectors' ends.

default rel
%include "vec_rows_base.inc"

section .text

VEC_ROW_KERNEL	big_mul_add_vec_base, BASE, ADDMUL

section .note.GNU-stack noalloc noexec nowrite progbits
