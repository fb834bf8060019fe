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
	cmp	r9, 16
	je	big_mont_sqr_vec_adx_16
	cmp	r9, 8
	je	big_mont_sqr_vec_adx_8
	cmp	r9, 32
	je	big_mont_sqr_vec_adx_32
	cmp	r9, 24
	je	big_mont_sqr_vec_adx_24
	cmp	r9, 12
	je	big_mont_sqr_vec_adx_12
	cmp	r9, 64
	je	big_mont_sqr_vec_adx_64
	cmp	r9, 48
	je	big_mont_sqr_vec_adx_48
	; any other length: the multiplication loop with b = a
	mov	r8, rcx
	mov	rcx, rdx
	mov	rdx, rsi
	jmp	big_mont_mul_vec_adx_loop wrt ..plt

; Unrolled lengths: the squaring product then the shared reduction
; (mont_adx.inc).  The reduction wants n in rcx and n0 in r8.
%include "mont_adx.inc"

%macro SQR_PRODUCT_FROM_ARGS 1
	mov	r8, rcx
	mov	rcx, rdx
	ADX_SQR_PRODUCT	%1
%endmacro

%macro SQR_AS_MUL_PRODUCT_LOOPED 1
	mov	r8, rcx
	mov	rcx, rdx
	mov	rbx, rsi
	ADX_MUL_PRODUCT_LOOPED	%1
%endmacro

%macro MONT_SQR_ADX_SIZE 3
global big_mont_sqr_vec_adx_%1:function hidden
big_mont_sqr_vec_adx_%1:
	ADX_MONT_BODY	%1, %2, %3
%endmacro

MONT_SQR_ADX_SIZE 8, SQR_PRODUCT_FROM_ARGS, ADX_REDC
MONT_SQR_ADX_SIZE 12, SQR_PRODUCT_FROM_ARGS, ADX_REDC
MONT_SQR_ADX_SIZE 16, SQR_PRODUCT_FROM_ARGS, ADX_REDC
MONT_SQR_ADX_SIZE 24, SQR_PRODUCT_FROM_ARGS, ADX_REDC_LOOPED
MONT_SQR_ADX_SIZE 32, SQR_PRODUCT_FROM_ARGS, ADX_REDC_LOOPED
; 48 and 64 chunks (3072- and 4096-bit moduli, public-key side): the
; triangle of cross products would be 45-80 KB unrolled, so these run the
; row-looped multiplication product with b = a.
MONT_SQR_ADX_SIZE 48, SQR_AS_MUL_PRODUCT_LOOPED, ADX_REDC_LOOPED
MONT_SQR_ADX_SIZE 64, SQR_AS_MUL_PRODUCT_LOOPED, ADX_REDC_LOOPED

section .note.GNU-stack noalloc noexec nowrite progbits
