; big_mont_sqr_vec_adx -- Montgomery squaring, BMI2 + ADX (mulx, adcx, adox).
;
;   r[0..len) = a^2 * 2^(-64*len) mod n
;
; C prototype (bignum/internal.h):
;   void big_mont_sqr_vec_adx(uint64_t *r, const uint64_t *a,
;                             const uint64_t *n, uint64_t n0, int len);
;
; Preconditions and guarantees: those of big_mont_mul_vec_adx with b == a
; (1 <= len <= BIG_MAX_MODULUS_CHUNKS, n odd, n0 == -n^-1 mod 2^64, a < n,
; r may equal a, r < n on return, constant time; BMI2 and ADX).
;
; len 8, 12, 16, 24, 32, 48, 64 (big_mont_sqr_vec_adx_<len>): a dedicated
; squaring product, then the reduction shared with the multiplication
; (mont_rows_adx.inc, where the math and the register map are):
;   a^2 = 2 * sum_{i<j} a[i] a[j] 2^(64(i+j)) + sum_k a[k]^2 2^(128 k):
; the len(len-1)/2 cross products once, in rows of shrinking length, then
; one pass that doubles (adcx x, x: the CF chain) and adds the squares of
; the diagonal (the OF chain).  That is len(len+1)/2 + len^2 + len mulx
; columns against 2 len^2 + len for the multiplication: 408 against 528 at
; len 16.  At len 8 the product and the reduction keep the accumulator in
; registers (mont_window8_adx.inc); at len 16 the cross products do
; (mont_sqr16_adx.inc: lo's triangle, lo*hi, hi's triangle, each over a
; window of 8 registers), the doubling pass and the reduction work in
; memory.  The product is unrolled at 8, 12 and 16; from 24 the
; cross-product rows run in a loop that jumps into one padded copy of the
; columns at the row's first column (ADX_SQR_PRODUCT_LOOPED), about as
; fast as the unrolled rows in a tenth of the code.  The reduction is
; unrolled at 8 and loops over rows from 12 (ADX_REDC_LOOPED): inside an
; exponentiation the smaller code is the faster.
; Any other len: a tail call of big_mont_mul_vec_adx_loop(r, a, a, ...).
;
; Register map: the squaring's registers are those of mont_rows_adx.inc
; and its families; the entry moves the arguments into the
; multiplication's: rcx <- n (rdx), r8 <- n0 (rcx), r9 <- len (movsxd
; r8d); the loop also gets rdx <- a.
; Stack: as big_mont_mul_vec_adx (at most 2*len + 7 chunks), wiped.
;
; Cost on Zen 3 (AMD EPYC family 25 model 1), len 32: 1944 rdtsc ticks a
; call, 2623 core cycles, against the multiplication's in
; mont_mul_vec_adx.asm and 4425 for big_mont_sqr_vec_c (each len from 8
; to 32, and the method, in
; results/amd-epyc-family25-model1/2026-11-23-kernels.txt).

default rel
%include "mont_rows_adx.inc"
%include "mont_window8_adx.inc"
%include "mont_sqr16_adx.inc"

section .text

global big_mont_sqr_vec_adx:function
extern big_mont_mul_vec_adx_loop

big_mont_sqr_vec_adx:
	CFI_STARTPROC
	movsxd	r9, r8d
	ADX_MONT_DISPATCH	big_mont_sqr_vec_adx, 16, 8, 32, 24, 12, 64, 48
	; any other length: the multiplication loop with b = a
	mov	r8, rcx
	mov	rcx, rdx
	mov	rdx, rsi
	jmp	big_mont_mul_vec_adx_loop wrt ..plt
	CFI_ENDPROC

; The lengths with code of their own: the squaring product, then the
; reduction the multiplication uses too.  Same arguments.
ADX_MONT_KERNELS big_mont_sqr_vec_adx, ADX_SQR_ARGS, ADX_SQR8_PRODUCT_REG, \
	ADX_SQR8_REDC_ROWS, ADX_FINAL8_REG, 8
ADX_MONT_KERNELS big_mont_sqr_vec_adx, ADX_SQR_ARGS, ADX_SQR_PRODUCT, \
	ADX_REDC_LOOPED, ADX_FINAL, 12
ADX_MONT_KERNELS big_mont_sqr_vec_adx, ADX_SQR_ARGS, ADX_SQR16_PRODUCT_REG, \
	ADX_REDC_LOOPED, ADX_FINAL, 16
ADX_MONT_KERNELS big_mont_sqr_vec_adx, ADX_SQR_ARGS, ADX_SQR_PRODUCT_LOOPED, \
	ADX_REDC_LOOPED, ADX_FINAL, 24, 32, 48, 64

section .note.GNU-stack noalloc noexec nowrite progbits
