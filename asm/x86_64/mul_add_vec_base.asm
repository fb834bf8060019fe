; big_mul_add_vec_base -- multiply a vector by one chunk and add it in
; place, baseline x86-64 (mul, adc): any x86-64 CPU.
;
;   r[0..len) += a[0..len) * digit;   returns the carry chunk c, so that
;   r_out + c * 2^(64 len) == r_in + a * digit.
;
; C prototype (bignum/internal.h, contract of big_mul_add_vec in bignum.h):
;   uint64_t big_mul_add_vec_base(uint64_t *r, const uint64_t *a, int len,
;                                 uint64_t digit);
;
; Preconditions: len >= 0 (len <= 0 returns 0 and touches nothing); r and
; a do not overlap.
; Constant time: branches and addresses depend on len only.
;
; Per chunk: (h, l) = a[i] * digit; l += r[i] (h += CF); l += c (h += CF);
; r[i] = l; c = h.  Adding r[i] first leaves two one-cycle ops (add, adc)
; on the carry's path from chunk to chunk.  The bound
; a[i]*digit + r[i] + c <= 2^128 - 1 keeps h + 2 carries
; in one chunk.  mul writes the flags, so nothing carries between chunks in
; CF: the carry is the register c.
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
;   mul_add_vec_adx     1.80   1.48   1.61   1.73  |  24  36  61 118
;   mul_add_vec_base    3.67   1.92   2.61   2.67  |  30  46  87 173
;   mul_add_vec_c       3.98   3.97   4.00   4.00  |  37  68 132 260
;   mpn_addmul_1        0.91   2.31   2.45   2.55  |  21  39  78 160
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
%include "vec_rows_base.inc"

section .text

global big_mul_add_vec_base:function
align 32
big_mul_add_vec_base:
	CFI_STARTPROC
	VEC_BASE_KERNEL_START
	VEC_BASE_ADDMUL_ROW	r10, rsi, rdi
	VEC_BASE_KERNEL_END
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
