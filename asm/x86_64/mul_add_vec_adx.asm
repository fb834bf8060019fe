; big_mul_add_vec_adx -- multiply a vector by one chunk and add it in place,
; BMI2 + ADX (mulx, adcx, adox).
;
;   r[0..len) += a[0..len) * digit;   returns the carry chunk c, so that
;   r_out + c * 2^(64 len) == r_in + a * digit.
;
; C prototype (bignum/internal.h, contract of big_mul_add_vec in bignum.h):
;   uint64_t big_mul_add_vec_adx(uint64_t *r, const uint64_t *a, int len,
;                                uint64_t digit);
;
; Preconditions: len >= 0 (len <= 0 returns 0 and touches nothing); r and
; a do not overlap; the CPU has BMI2 and ADX (bignum/dispatch.c checks).
; Constant time: branches and addresses depend on len only.
;
; Two carry chains per chunk i, with (h_i, l_i) = a[i] * digit:
;   OF chain:  r[i] + l_i          (adox with r[i] read from memory)
;   CF chain:  ... + h_(i-1)       (adcx)
; Neither chain waits for the other, and neither waits for a mulx, so a
; chunk costs one mulx, two one-cycle adds, two loads and a store.  At the
; end c = h_(len-1) + CF + OF, which cannot overflow (the true result fits
; in len + 1 chunks).  One row of VEC_ADX_ADDMUL_ROW (vec_rows_adx.inc):
; 8 chunks per pass, entered at slot p = -len mod 8 with both pointers 8p
; chunks below the vectors; the pointers and the counter step with lea
; and the loop exits with jrcxz, which keep CF and OF.  Loads are separate
; and addresses base + offset: a mulx or adox with an indexed memory
; operand runs at half the speed.
;
; Register map:
;   rdi  walks r          rsi  walks a          rdx  digit (mulx source)
;   rcx  -(len + p) .. 0, step 8                r8   low half / sum
;   rax, r9  high halves, alternating           r10  entry address, then
;   a[i], then zero at the end                  r11  r[i]
; Stack: none, and no callee-saved register is used.
;
; mul_add_vec_adx on AMD EPYC family 25 model 1 (Zen 3), core cycles per
; chunk (t(n) - t(n/2)) / (n/2) and per call t(n), GMP 6.2.1 in the same
; run of `taskset -c 1 build/chunk64-asm/cli/bigmont speed --kernels`:
;   n                     8      16      32      64   | cycles per call t(n)
;   mul_add_vec_adx     1.80   1.48   1.61   1.73  |  24  36  61 118
;   mul_add_vec_c       3.98   3.97   4.00   4.00  |  37  68 132 260
;   mpn_addmul_1        0.91   2.31   2.45   2.55  |  21  39  78 160

default rel
%include "vec_rows_adx.inc"

section .text

global big_mul_add_vec_adx:function
align 32
big_mul_add_vec_adx:
	CFI_STARTPROC
	VEC_ADX_KERNEL_START
	VEC_ADX_ADDMUL_ROW	r10, .done
	VEC_ADX_KERNEL_END
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
