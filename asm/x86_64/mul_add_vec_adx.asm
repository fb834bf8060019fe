; big_mul_add_vec_adx -- r += a * digit, a vector times one chunk added
; in place, BMI2 + ADX (mulx, adcx, adox).  Contract, prototype and
; cycles: VEC_ROW_KERNEL (vec_rows.inc), which makes it.
;
; Two carry chains per chunk i, with (h_i, l_i) = a[i] * digit:
;   OF chain:  r[i] + l_i          (adox with r[i] read from memory)
;   CF chain:  ... + h_(i-1)       (adcx)
; Neither chain waits for the other, and neither waits for a mulx, so a
; chunk costs one mulx, two one-cycle adds, two loads and a store.  At the
; end c = h_(len-1) + CF + OF, which cannot overflow (the true result fits
; in len + 1 chunks).  One row of VEC_ADX_ADDMUL_ROW (vec_rows_adx.inc,
; where VEC_ADX_KERNEL_ROW has the register map): 8 chunks per pass,
; entered at slot p = -len mod 8 with both pointers 8p chunks below the
; vectors; the pointers and the counter step with lea and the loop exits
; with jrcxz, which keep CF and OF.  Loads are separate and addresses
; base + offset: a mulx or adox with an indexed memory operand runs at
; half the speed.

default rel
%include "vec_rows_adx.inc"

section .text

VEC_ROW_KERNEL	big_mul_add_vec_adx, ADX, ADDMUL

section .note.GNU-stack noalloc noexec nowrite progbits
