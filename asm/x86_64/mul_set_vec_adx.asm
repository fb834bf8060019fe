; big_mul_set_vec_adx -- multiply a vector by one chunk, BMI2 + ADX
; (mulx, adcx).
;
;   r[0..len) = a[0..len) * digit;   returns the high chunk c, so that
;   r_out + c * 2^(64 len) == a * digit.
;
; C prototype (bignum/internal.h, contract of big_mul_set_vec in bignum.h):
;   uint64_t big_mul_set_vec_adx(uint64_t *r, const uint64_t *a, int len,
;                                uint64_t digit);
;
; Preconditions: len >= 0 (len <= 0 returns 0 and touches nothing); r may
; equal a (each a[i] is read before r[i] is written, and no later chunk
; of a is written first); otherwise no overlap; the CPU has BMI2
; (dispatch checks BMI2 + ADX).
; Constant time: branches and addresses depend on len only.
;
; One carry chain: r[i] = l_i + h_(i-1) + CF, with (h_i, l_i) = a[i]*digit
; (mulx leaves the flags alone, so the chain runs through the whole
; vector); c = h_(len-1) + CF, which cannot overflow.  One row of
; VEC_ADX_MUL_ROW (vec_rows_adx.inc): 8 chunks per pass, entered at slot
; p = -len mod 8 with both pointers 8p chunks below the vectors; loads
; separate from mulx and addresses base + offset, as an indexed memory
; operand halves mulx's speed.
;
; Register map:
;   rdi  walks r          rsi  walks a          rdx  digit (mulx source)
;   rcx  -(len + p) .. 0, step 8                r8   low half / sum
;   rax, r9  high halves, alternating           r10  entry address, then
;   a[i], then zero at the end                  r11  entry offset
; Stack: none, and no callee-saved register is used.
;
; mul_set_vec_adx on AMD EPYC family 25 model 1 (Zen 3), core cycles per
; chunk (t(n) - t(n/2)) / (n/2) and per call t(n), GMP 6.2.1 in the same
; run of `taskset -c 1 build/chunk64-asm/cli/bigmont speed --kernels`:
;   n                     8      16      32      64   | cycles per call t(n)
;   mul_set_vec_adx     0.44   1.44   1.52   1.52  |  19  30  54 103
;   mul_set_vec_c       2.98   2.98   2.98   2.98  |  29  53 100 196
;   mpn_mul_1           0.70   2.22   2.37   2.48  |  21  38  76 156
; (At n = 8 the difference of two short calls: noisy.)

default rel
%include "vec_rows_adx.inc"

section .text

global big_mul_set_vec_adx:function
align 32
big_mul_set_vec_adx:
	CFI_STARTPROC
	VEC_ADX_KERNEL_START
	VEC_ADX_MUL_ROW	r10, .done
	VEC_ADX_KERNEL_END
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
