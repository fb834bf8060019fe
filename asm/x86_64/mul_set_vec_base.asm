; big_mul_set_vec_base -- r = a * digit, a vector times one chunk,
; baseline x86-64 (mul, adc): any x86-64 CPU.  Contract, prototype and
; cycles: VEC_ROW_KERNEL (vec_rows.inc), which makes it.
;
; Per chunk: (h, l) = a[i] * digit; r[i] = l + c; c = h + CF.  The bound
; a[i]*digit + c <= 2^128 - 2^64 keeps h + CF in one chunk.  One row of
; VEC_BASE_MUL_ROW (vec_rows_base.inc, where VEC_BASE_KERNEL_ROW has the
; register map): 4 chunks per pass, entered at slot p = -len mod 4 with
; both pointers at the vectors' ends.

default rel
%include "vec_rows_base.inc"

section .text

VEC_ROW_KERNEL	big_mul_set_vec_base, BASE, MUL

section .note.GNU-stack noalloc noexec nowrite progbits
