; big_mul_set_vec_adx -- r = a * digit, a vector times one chunk, BMI2
; (mulx, adcx; dispatched with ADX).  Contract, prototype and cycles:
; VEC_ROW_KERNEL (vec_rows.inc), which makes it.
;
; One carry chain: r[i] = l_i + h_(i-1) + CF, with (h_i, l_i) = a[i]*digit
; (mulx leaves the flags alone, so the chain runs through the whole
; vector); c = h_(len-1) + CF, which cannot overflow.  One row of
; VEC_ADX_MUL_ROW (vec_rows_adx.inc, where VEC_ADX_KERNEL_ROW has the
; register map): 8 chunks per pass, entered at slot p = -len mod 8 with
; both pointers 8p chunks below the vectors; loads separate from mulx and
; addresses base + offset, as an indexed memory operand halves mulx's
; speed.

default rel
%include "vec_rows_adx.inc"

section .text

VEC_ROW_KERNEL	big_mul_set_vec_adx, ADX, MUL

section .note.GNU-stack noalloc noexec nowrite progbits
