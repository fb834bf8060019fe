; big_mont_mul_vec_adx -- fused Montgomery multiplication, BMI2 + ADX
; (mulx, adcx, adox).
;
;   r[0..len) = a * b * 2^(-64*len) mod n
;
; C prototype (bignum/internal.h):
;   void big_mont_mul_vec_adx(uint64_t *r, const uint64_t *a,
;                             const uint64_t *b, const uint64_t *n,
;                             uint64_t n0, int len);
;
; Preconditions: 1 <= len <= BIG_MAX_MODULUS_CHUNKS; n odd;
; n0 == -n^-1 mod 2^64; a, b < n.  r may equal a and/or b (a and b are read
; in full before r is written); r must not overlap n.
; Postcondition: r < n, by a masked (not branched) final subtraction.
; Constant time: every branch and address depends on len only (the entry
; picks the code for len; nothing looks at operand values).
; Stack: unrolled lengths 6 pushes + return address + 2*len chunks of T;
; the loop 6 pushes + return address + (len + 1) chunks; wiped on exit.
;
; Two algorithms, chosen by len at entry:
;
; len 8, 12, 16, 24, 32, 48, 64 (big_mont_mul_vec_adx_<len>): product then
; reduction, from the macros in mont_adx.inc (see there for the math and
; the register map): T = a*b in 2 len chunks, then len reduction rows
; T += (T[i]*n0 mod 2^64) * n * 2^(64 i), each carry kept for the next
; row's top word, then the masked subtraction.  8, 12, 16 are fully
; unrolled; 24 and up loop over rows with the columns unrolled (a fully
; unrolled file was 130 KB of code and its len 32 ran 40% slower).
;
; Any other len (big_mont_mul_vec_adx_loop): CIOS.  With t < 2n on entry
; to a row, row i computes
;     t = (t + a*b[i] + m*n) / 2^64,   m = (t + a*b[i]) * n0 mod 2^64,
; which stays < 2n: t is len chunks plus t[len] in {0, 1}; between the two
; halves of a row t + a*b[i] may reach 2^(64 len + 64), one more bit, kept
; in a register (t1).  Each half is one pass with two carry chains: CF adds
; the old t chunk, OF adds the high half of the previous column's product.
; The loop counter steps with lea and exits with jrcxz, which leave both
; flags alone.
;
; Register map (big_mont_mul_vec_adx_loop):
;   rsi  a + len            r10  n + len          rbp  t + len (stack)
;   r11  &b[i]              r15  b + len          r9   -len
;   rdx  b[i], then m       r8   n0               rcx  j - len
;   rax  column sum         rbx  previous high    r12  high
;   r13  zero               r14  t1 (bit 64*len+64)  rdi  r + len
;
; Cost per call on this machine (AMD EPYC, model name "AMD EPYC", Zen 4
; class: BMI2, ADX, AVX-512 IFMA; rdtsc runs at 0.69 ticks per core cycle),
; best of 300 runs of 32 dependent calls, quiet machine:
;   len                8     12     16     24     32
;   mul  rdtsc ticks  158    320    539   1182   2079
;   mul  core cycles  229    463    779   1709   3005
;   (the loop, for comparison: 311, 671, 1168, 2568, 4499 ticks)
; A mulx column with its two adds costs ~1.5 core cycles here even with
; no dependences between them, and a multiplication is 2 len^2 + len of
; them: 528 at len 16, so ~790 cycles is the floor for this scheme.
; Measured with bench_mont_kernels_report() (bench/mont_kernels.c; the
; `bigmont speed --kernels` report), e.g. from a chunk64-asm build dir:
;   printf '#include <stdio.h>\n#include "mont_kernels.h"\nint main(void)
;   { return bench_mont_kernels_report(stdout); }\n' > k.c &&
;   cc -O2 -I../../bench k.c bench/libbigmont_bench.a
;   bignum/libbigmont_bignum.a && taskset -c 1 ./a.out
;
; The squaring big_mont_sqr_vec_adx is in mont_sqr_vec_adx.asm.

default rel
section .text

global big_mont_mul_vec_adx:function
global big_mont_mul_vec_adx_loop:function hidden

big_mont_mul_vec_adx:
	movsxd	r9, r9d
	; the unrolled RSA lengths (a branch on len only)
	cmp	r9, 16
	je	big_mont_mul_vec_adx_16
	cmp	r9, 8
	je	big_mont_mul_vec_adx_8
	cmp	r9, 32
	je	big_mont_mul_vec_adx_32
	cmp	r9, 24
	je	big_mont_mul_vec_adx_24
	cmp	r9, 12
	je	big_mont_mul_vec_adx_12
	cmp	r9, 64
	je	big_mont_mul_vec_adx_64
	cmp	r9, 48
	je	big_mont_mul_vec_adx_48
	; any other length: the loop

; Same arguments; r9 already sign-extended.
big_mont_mul_vec_adx_loop:
	push	rbx
	push	rbp
	push	r12
	push	r13
	push	r14
	push	r15
	lea	rax, [r9*8 + 8]
	sub	rsp, rax		; t[0..len]
	mov	r11, rdx
	lea	rsi, [rsi + r9*8]
	lea	r10, [rcx + r9*8]
	lea	rbp, [rsp + r9*8]
	lea	rdi, [rdi + r9*8]
	lea	r15, [r11 + r9*8]
	neg	r9

	xor	eax, eax
	mov	rcx, r9
.zero:
	mov	[rbp + rcx*8], rax
	inc	rcx
	jnz	.zero
	mov	[rbp], rax

.row:
	; t += a * b[i]
	mov	rdx, [r11]
	xor	ebx, ebx
	xor	r13d, r13d		; CF = OF = 0
	mov	rcx, r9
.mul:
	mulx	r12, rax, [rsi + rcx*8]
	adcx	rax, [rbp + rcx*8]
	adox	rax, rbx
	mov	[rbp + rcx*8], rax
	mov	rbx, r12
	lea	rcx, [rcx + 1]
	jrcxz	.mulend
	jmp	.mul
.mulend:
	mov	rax, [rbp]
	adcx	rax, rbx
	adox	rax, r13
	mov	[rbp], rax
	mov	r14, r13
	adcx	r14, r13
	adox	r14, r13

	; t = (t + m * n) / 2^64
	mov	rcx, r9
	mov	rdx, [rbp + rcx*8]
	imul	rdx, r8
	xor	r13d, r13d
	mulx	rbx, rax, [r10 + rcx*8]
	adcx	rax, [rbp + rcx*8]	; == 0; only the carry matters
	lea	rcx, [rcx + 1]
	jrcxz	.redend
.red:
	mulx	r12, rax, [r10 + rcx*8]
	adcx	rax, [rbp + rcx*8]
	adox	rax, rbx
	mov	[rbp + rcx*8 - 8], rax
	mov	rbx, r12
	lea	rcx, [rcx + 1]
	jrcxz	.redend
	jmp	.red
.redend:
	mov	rax, [rbp]
	adcx	rax, rbx
	adox	rax, r13
	mov	[rbp - 8], rax
	adcx	r14, r13
	adox	r14, r13
	mov	[rbp], r14

	add	r11, 8
	cmp	r11, r15
	jne	.row

	; Final subtraction: d = t - n into r; keep t iff t < n, i.e. iff the
	; subtraction borrowed and t[len] == 0.  t[len] == 1 implies a borrow
	; (t - n < n < 2^(64 len)), so t[len] - borrow is 0 (take d) or -1
	; (keep t): the mask, applied to every chunk.
	mov	rcx, r9
	clc
.sub:
	mov	rax, [rbp + rcx*8]
	sbb	rax, [r10 + rcx*8]
	mov	[rdi + rcx*8], rax
	inc	rcx
	jnz	.sub
	mov	rbx, [rbp]
	sbb	rbx, 0
	mov	rcx, r9
	xor	r13d, r13d
.sel:
	mov	rax, [rdi + rcx*8]
	mov	rdx, [rbp + rcx*8]
	xor	rdx, rax
	and	rdx, rbx
	xor	rax, rdx
	mov	[rdi + rcx*8], rax
	mov	[rbp + rcx*8], r13	; wipe t
	inc	rcx
	jnz	.sel
	mov	[rbp], r13

	lea	rsp, [rbp + 8]
	pop	r15
	pop	r14
	pop	r13
	pop	r12
	pop	rbp
	pop	rbx
	ret

; Unrolled lengths: product then reduction (mont_adx.inc).  Same
; arguments; rdx (b) moves to rbx for the product.
%include "mont_adx.inc"

%macro MUL_PRODUCT_FROM_RDX 1
	mov	rbx, rdx
	ADX_MUL_PRODUCT	%1
%endmacro

%macro MUL_PRODUCT_LOOPED_FROM_RDX 1
	mov	rbx, rdx
	ADX_MUL_PRODUCT_LOOPED	%1
%endmacro

%macro MONT_MUL_ADX_SIZE 3
global big_mont_mul_vec_adx_%1:function hidden
big_mont_mul_vec_adx_%1:
	ADX_MONT_BODY	%1, %2, %3
%endmacro

MONT_MUL_ADX_SIZE 8, MUL_PRODUCT_FROM_RDX, ADX_REDC
MONT_MUL_ADX_SIZE 12, MUL_PRODUCT_FROM_RDX, ADX_REDC
MONT_MUL_ADX_SIZE 16, MUL_PRODUCT_FROM_RDX, ADX_REDC
MONT_MUL_ADX_SIZE 24, MUL_PRODUCT_LOOPED_FROM_RDX, ADX_REDC_LOOPED
MONT_MUL_ADX_SIZE 32, MUL_PRODUCT_LOOPED_FROM_RDX, ADX_REDC_LOOPED
MONT_MUL_ADX_SIZE 48, MUL_PRODUCT_LOOPED_FROM_RDX, ADX_REDC_LOOPED
MONT_MUL_ADX_SIZE 64, MUL_PRODUCT_LOOPED_FROM_RDX, ADX_REDC_LOOPED

section .note.GNU-stack noalloc noexec nowrite progbits
