; big_mont_sqr_vec_base -- Montgomery squaring, x86-64 mul/adc.
;
;   r[0..len) = a^2 * 2^(-64*len) mod n
;
; C prototype (bignum/internal.h, where big_mont_sqr_vec states the
; contract):
;   void big_mont_sqr_vec_base(uint64_t *r, const uint64_t *a,
;                              const uint64_t *n, uint64_t n0, int len);
;
; Preconditions and guarantees: those of big_mont_mul_vec_base with b == a
; (1 <= len <= BIG_MAX_MODULUS_CHUNKS, n odd, n0 == -n^-1 mod 2^64, a < n,
; r may equal a, r < n on return, constant time).
;
; A tail call of big_mont_mul_vec_base(r, a, a, n, n0, len): no dedicated
; squaring for the baseline variant, which only runs on x86-64 CPUs
; without BMI2/ADX (the ADX variant has one, mont_sqr_vec_adx.asm).  With
; mul/adc a squaring would run its cross products and its reduction as
; separate passes of one carry chain each, which gives back most of the
; quarter of the products it saves.
;
; Register map: the arguments are moved into the multiplication's slots:
;   rdx <- a (as b), rcx <- n, r8 <- n0, r9d <- len.
; Stack: that of big_mont_mul_vec_base.
;
; Cost: that of big_mont_mul_vec_base plus four moves and a jump; on Zen 3
; (AMD EPYC family 25 model 1), len 32, 4696 rdtsc ticks a call against
; the product's in mont_mul_vec_base.asm (each len from 8 to 32, and the
; method, in
; results/amd-epyc-family25-model1/2026-11-23-kernels.txt).

default rel
section .text

global big_mont_sqr_vec_base:function
extern big_mont_mul_vec_base

big_mont_sqr_vec_base:
	CFI_STARTPROC
	mov	r9d, r8d
	mov	r8, rcx
	mov	rcx, rdx
	mov	rdx, rsi
	jmp	big_mont_mul_vec_base wrt ..plt
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
