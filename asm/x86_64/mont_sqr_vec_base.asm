; big_mont_sqr_vec_base -- Montgomery squaring, x86-64 mul/adc.
;
;   r[0..len) = a * a * 2^(-64*len) mod n
;
; C prototype (bignum/internal.h):
;   void big_mont_sqr_vec_base(uint64_t *r, const uint64_t *a,
;                              const uint64_t *n, uint64_t n0, int len);
;
; Preconditions and guarantees: those of big_mont_mul_vec_base with b == a
; (1 <= len <= BIG_MAX_MODULUS_CHUNKS, n odd, n0 == -n^-1 mod 2^64, a < n,
; r may equal a, r < n on return, constant time).
;
; This is a tail call of big_mont_mul_vec_base(r, a, a, n, n0, len): no
; dedicated squaring for the baseline variant, which only runs on x86-64
; CPUs without BMI2/ADX.  The ADX variant has one (mont_sqr_vec_adx.asm).
; Why it would pay little here: with mul/adc a squaring must run its cross
; products and its reduction as separate passes with one carry chain each,
; measured at 3.4 cycles a product against 2.9 for the fused CIOS loop with
; its two chains, which eats most of the quarter of the products it saves
; (estimate: at most ~15% at len 16).
;
; Register map: the arguments are moved into the multiplication's slots:
;   rdx <- a (as b), rcx <- n, r8 <- n0, r9d <- len.
;
; Cost per call: that of big_mont_mul_vec_base plus four moves and a
; jump, i.e. the same table (see mont_mul_vec_base.asm):
;   len                8     12     16     24     32
;   sqr  rdtsc ticks  296    613   1062   2377   4204

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
