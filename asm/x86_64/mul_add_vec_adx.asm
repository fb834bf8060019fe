; big_mul_add_vec_adx -- multiply a vector by one chunk and add it in place,
; BMI2 + ADX (mulx, adcx, adox).
;
;   r[0..len) += a[0..len) * digit;   returns the carry chunk c, so that
;   r_out + c * 2^(64 len) == r_in + a * digit.
;
; C prototype (bignum/internal.h, contract of big_mul_add_vec in bignum.h):
;   uint64_t big_mul_add_vec_adx(uint64_t *r, const uint64_t *a, int len,
;                                uint64_t digit);
;
; Preconditions: len >= 0 (len <= 0 returns 0 and touches nothing); r and
; a do not overlap; the CPU has BMI2 and ADX (bignum/dispatch.c checks).
; Constant time: branches and addresses depend on len only.
;
; Two carry chains per chunk i, with (h_i, l_i) = a[i] * digit:
;   OF chain:  r[i] + l_i          (adox with r[i] read from memory)
;   CF chain:  ... + h_(i-1)       (adcx)
; Neither chain waits for the other, and neither waits for a mulx, so a
; chunk costs one mulx, two one-cycle adds, two loads and a store.  At the
; end c = h_(len-1) + CF + OF, which cannot overflow (the true result fits
; in len + 1 chunks).
;
; The loop does 8 chunks per pass.  The entry is Duff's device: with
; p = -len mod 8, both pointers start 8p chunks below the vectors,
; rcx at -(len + p), and we jump (through a table of offsets, computed
; before the flags are cleared) to slot p of the first pass, which reads
; a[0].  Slots alternate the high-half register (rax, r9), both zero at
; entry.  Pointers and counter step with lea and the loop exits with
; jrcxz, which keep CF and OF.  Loads are separate instructions, and every
; address is a plain base + offset: on this CPU a mulx or adox with an
; indexed memory operand ran at half the speed (2.0 c/l, against 1.3-1.7).
;
; Register map:
;   rdi  walks r          rsi  walks a          rdx  digit (mulx source)
;   rcx  -(len + p) .. 0, step 8                r8   low half / sum
;   rax, r9  high halves, alternating           r10  entry address, then
;   a[i], then zero at the end                  r11  r[i]
; No callee-saved register is used; no stack.
;
; Core cycles per chunk on this machine (AMD EPYC family 25
; model 1, Zen 3: BMI2, ADX, AVX2; rdtsc at 0.766 ticks per core cycle; the
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
%include "vec_rows_adx.inc"

section .text

global big_mul_add_vec_adx:function
align 32
big_mul_add_vec_adx:
	CFI_STARTPROC
	VEC_ADX_KERNEL_START
	VEC_ADX_ADDMUL_ROW	r10, .done
	VEC_ADX_KERNEL_END
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
