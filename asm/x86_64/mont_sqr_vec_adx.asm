; big_mont_sqr_vec_adx -- Montgomery squaring, BMI2 + ADX (mulx, adcx, adox).
;
;   r[0..len) = a * a * 2^(-64*len) mod n
;
; C prototype (bignum/internal.h):
;   void big_mont_sqr_vec_adx(uint64_t *r, const uint64_t *a,
;                             const uint64_t *n, uint64_t n0, int len);
;
; Preconditions and guarantees: those of big_mont_mul_vec_adx with b == a
; (1 <= len <= BIG_MAX_MODULUS_CHUNKS, n odd, n0 == -n^-1 mod 2^64, a < n,
; r may equal a, r < n on return, constant time).
;
; Looped version: a tail call of big_mont_mul_vec_adx(r, a, a, n, n0, len).
;
; Register map: rdx <- a (as b), rcx <- n, r8 <- n0, r9 <- len (movsxd).

default rel
section .text

global big_mont_sqr_vec_adx:function
extern big_mont_mul_vec_adx_loop

big_mont_sqr_vec_adx:
	movsxd	r9, r8d
	mov	r8, rcx
	mov	rcx, rdx
	mov	rdx, rsi
	jmp	big_mont_mul_vec_adx_loop wrt ..plt

section .note.GNU-stack noalloc noexec nowrite progbits
