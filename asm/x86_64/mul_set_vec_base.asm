; big_mul_set_vec_base -- multiply a vector by one chunk, baseline x86-64
; (mul, adc): any x86-64 CPU.
;
;   r[0..len) = a[0..len) * digit;   returns the high chunk c, so that
;   r_out + c * 2^(64 len) == a * digit.
;
; C prototype (bignum/internal.h, contract of big_mul_set_vec in bignum.h):
;   uint64_t big_mul_set_vec_base(uint64_t *r, const uint64_t *a, int len,
;                                 uint64_t digit);
;
; Preconditions: len >= 0 (len <= 0 returns 0 and touches nothing); r may
; equal a (a[i] is read before r[i] is written); otherwise no overlap.
; Constant time: branches and addresses depend on len only.
;
; Per chunk: (h, l) = a[i] * digit; r[i] = l + c; c = h + CF.  The bound
; a[i]*digit + c <= 2^128 - 2^64 keeps h + CF in one chunk.
;
; 4 chunks per pass, entered Duff-style (as mul_add_vec_adx.asm): with
; p = -len mod 4 the pointers are at the vector ends, rcx = -(len + p),
; and a table jump enters slot p of the first pass.
;
; Register map:
;   rdi  r + 8 len        rsi  a + 8 len        r8  digit
;   rcx  -(len + p) .. 0, step 4                r9  carry c
;   rax, rdx  the product                       r10, r11  entry address
; No callee-saved register is used; no stack.
;
; Core cycles per chunk on this machine (AMD EPYC family 25
; model 1, Zen 3; rdtsc at 0.766 ticks per core cycle; the
; README's --kernels output, commit 652916a):
;   n                     8      16      32      64   | cycles per call t(n)
;   mul_set_vec_adx     0.44   1.44   1.52   1.52  |  19  30  54 103
;   mul_set_vec_base    2.34   2.22   2.48   2.59  |  21  39  79 162
;   mul_set_vec_c       2.98   2.98   2.98   2.98  |  29  53 100 196
;   mpn_mul_1           0.70   2.22   2.37   2.48  |  21  38  76 156
; (n = 8 is the difference of two short calls, t(8) - t(4): noisy.)
; Measured with bench_kernels_report() (bench/kernels.c: lfence'd rdtsc,
; best of 1000 interleaved samples, marginal cost (t(n) - t(n/2)) / (n/2),
; ticks converted to core cycles by a chain of dependent adds), GMP 6.2.1
; (Debian's generic x86-64 build: mul/adc, no mulx) in the same run, on
; this 2-core machine shared with other builds; from a chunk64-asm build
; directory:
;   printf '#include "kernels.h"\nint main(void){return bench_kernels_report(stdout);}\n' > k.c &&
;   cc -O2 -I../../bench k.c bench/libbigmont_bench.a bignum/libbigmont_bignum.a -lgmp &&
;   taskset -c 1 ./a.out
;   (the same table: taskset -c 1 cli/bigmont speed --kernels)

default rel

section .text

global big_mul_set_vec_base:function
align 32
big_mul_set_vec_base:
	CFI_STARTPROC
	movsxd	rax, edx
	test	rax, rax
	jle	.empty
	mov	r8, rcx				; digit
	lea	rsi, [rsi + rax*8]
	lea	rdi, [rdi + rax*8]
	mov	rcx, rax
	neg	rcx
	and	rcx, 3				; p
	lea	r10, [.entries]
	movsxd	r11, dword [r10 + rcx*4]
	add	r10, r11
	add	rcx, rax
	neg	rcx				; -(len + p)
	xor	r9d, r9d
	jmp	r10

align 32
.loop:
.s0:	mov	rax, [rsi + rcx*8]
	mul	r8
	add	rax, r9
	adc	rdx, 0
	mov	[rdi + rcx*8], rax
	mov	r9, rdx
.s1:	mov	rax, [rsi + rcx*8 + 8]
	mul	r8
	add	rax, r9
	adc	rdx, 0
	mov	[rdi + rcx*8 + 8], rax
	mov	r9, rdx
.s2:	mov	rax, [rsi + rcx*8 + 16]
	mul	r8
	add	rax, r9
	adc	rdx, 0
	mov	[rdi + rcx*8 + 16], rax
	mov	r9, rdx
.s3:	mov	rax, [rsi + rcx*8 + 24]
	mul	r8
	add	rax, r9
	adc	rdx, 0
	mov	[rdi + rcx*8 + 24], rax
	mov	r9, rdx
	add	rcx, 4
	jnz	.loop

	mov	rax, r9
	ret

.empty:
	xor	eax, eax
	ret

align 4
.entries:
	dd	.s0 - .entries
	dd	.s1 - .entries
	dd	.s2 - .entries
	dd	.s3 - .entries
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
