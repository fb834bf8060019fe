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
; vector); c = h_(len-1) + CF, which cannot overflow.
;
; 8 chunks per pass, entered Duff-style as in mul_add_vec_adx.asm: with
; p = -len mod 8 both pointers start 8p chunks below the vectors, rcx at
; -(len + p), and a table jump (flags cleared after it is computed) enters
; slot p.  Slots alternate the high-half register (rax, r9), both zero at
; entry.  Loads are separate from mulx and addresses are base + offset
; (indexed memory operands on mulx ran at half the speed here).
;
; Register map:
;   rdi  walks r          rsi  walks a          rdx  digit (mulx source)
;   rcx  -(len + p) .. 0, step 8                r8   low half / sum
;   rax, r9  high halves, alternating           r10  entry address, then
;   a[i], then zero at the end                  r11  entry offset
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
