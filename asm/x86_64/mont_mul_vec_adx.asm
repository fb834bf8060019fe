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
; n0 == -n^-1 mod 2^64; a < n, b < 2^(64*len) (the bounds below need one
; factor < n).  r may equal a and/or b (a and b are read in full before
; r is written); r must not overlap n; the CPU has BMI2 and ADX.
; Postcondition: r < n, by a masked (not branched) final subtraction.
; Constant time: every branch and address depends on len only (the entry
; picks the code for len; nothing looks at operand values).
;
; Two algorithms, chosen by len at entry:
;
; len 8, 12, 16, 24, 32, 48, 64 (big_mont_mul_vec_adx_<len>): product then
; reduction, from the macros in mont_rows_adx.inc (see there for the math
; and the register map): T = a*b in 2 len chunks, then len reduction rows
; T += (T[i]*n0 mod 2^64) * n * 2^(64 i), each carry kept for the next
; row's top word, then the masked subtraction.  8 is fully unrolled, with
; the accumulator in registers, a window of 8 sliding a word per row
; (mont_window8_adx.inc).  16's product is one level of Karatsuba, three
; 8 x 8 products in registers and the sums around them
; (mont_mul16_adx.inc): 192 mulx columns instead of 256, as the columns
; are what limits it; big_mont_mul_vec_adx_rows16 (at the end) keeps the
; rows at 16 for the CPU models where Karatsuba was not measured faster
; (bignum/tuning.h).  Otherwise 12 and up loop over rows with the
; columns unrolled: inside an exponentiation the smaller code is the
; faster.
;
; Any other len (big_mont_mul_vec_adx_loop): CIOS.  With t < 2n on entry
; to a row, row i computes
;     t = (t + a*b[i] + m*n) / 2^64,   m = (t + a*b[i]) * n0 mod 2^64,
; which stays < 2n: t is len chunks plus t[len] in {0, 1}; between the two
; halves of a row t + a*b[i] may reach 2^(64 len + 64), one more bit, kept
; in a register (t1).  Each half is one pass with two carry chains: CF adds
; the old t chunk, OF adds the high half of the previous column's product.
; A pass runs blocks of LOOP_UNROLL (8) columns, entered at the slot that
; makes len fit (Duff's device; the entry depends on len only); the
; pointers step with lea and the loop exits with jrcxz, which leave both
; flags alone.  The masked final subtraction is MONT_CIOS_FINAL
; (mont_cios.inc).  len < 6 goes to big_mont_mul_vec_base.
;
; Register map (big_mont_mul_vec_adx_loop; p = -len mod 8):
;   rsi  a - 8p             r10  n - 8p           rbp  t - 8p (stack)
;   rdi  walks a or n       r15  walks t          r11  &b[i]
;   rdx  b[i], then m       r8   n0               rcx  -(len + p) .. 0
;   rax  column sum         rbx, r12  high halves, alternating
;   r13  zero               r14  t1 (bit 64*len+64)  r9  -(len + p)
;   [rsp] pass entries, r + len, b + len
; Stack: the lengths with code of their own 6 pushes + return address +
; 2*len chunks of T; the loop 6 pushes + return address + (len + 7)
; chunks (len >= 6; below, big_mont_mul_vec_base, len + 9); the value
; chunks are wiped on exit.  len 16 also uses r as scratch (overwritten
; by the result) and xmm0..xmm9 (cleared but for n and n0).
;
; Cost on Zen 3 (AMD EPYC family 25 model 1), len 32: 2217 rdtsc ticks a
; call, 2992 core cycles, against big_mont_mul_vec_c's in
; mont_mul_vec_base.asm (each len from 8 to 32, and the method, in
; results/amd-epyc-family25-model1/2026-11-23-kernels.txt).
; On Intel Xeon family 6 model 106 (Ice Lake), core cycles a call, the
; best of 4 runs of `bigmont speed --kernels` (a shared host):
;   len                      8     12     16     24     32
;   big_mont_mul_vec_adx   232    463    736   1673   2930
; (16 with the looped product, before mont_mul16_adx.inc: 791).
; The squaring big_mont_sqr_vec_adx is in mont_sqr_vec_adx.asm.

default rel
%include "mont_rows_adx.inc"
%include "mont_window8_adx.inc"
%include "mont_mul16_adx.inc"
%include "mont_cios.inc"

section .text

global big_mont_mul_vec_adx:function
global big_mont_mul_vec_adx_loop:function hidden
extern big_mont_mul_vec_base

big_mont_mul_vec_adx:
	CFI_STARTPROC
	movsxd	r9, r9d
	; the lengths with code of their own (a branch on len only)
	ADX_MONT_DISPATCH	big_mont_mul_vec_adx, 16, 8, 32, 24, 12, 64, 48
	; any other length: the loop

%define LOOP_UNROLL 8

; One column in slot %1 of the loop body: the sum t[j] + x[j]*rdx + the
; high half of column j-1 (in the other of rbx/r12), stored %2 chunks
; lower.  rdi walks x (a or n), r15 walks t; base + displacement only, as
; an indexed memory operand makes a mulx slower.
%macro LOOP_COL 2
%if (%1) % 2 == 0
	mulx	rbx, rax, [rdi + 8*(%1)]
	adcx	rax, [r15 + 8*(%1)]
	adox	rax, r12
%else
	mulx	r12, rax, [rdi + 8*(%1)]
	adcx	rax, [r15 + 8*(%1)]
	adox	rax, rbx
%endif
	mov	[r15 + 8*(%1) - 8*(%2)], rax
%endmacro

; The a*b[i] pass: t[j] += a[j]*b[i] + high half.
%macro LOOP_COL_A 1
	LOOP_COL	%1, 0
%endmacro

; The m*n pass: t[j-1] = t[j] + n[j]*m + high half (the shift by 2^64).
%macro LOOP_COL_N 1
	LOOP_COL	%1, 1
%endmacro

; The loop body: LOOP_UNROLL columns, slot s at label .<%1><s>.
%macro LOOP_BLOCK 2
%assign s 0
%rep LOOP_UNROLL
	HLABEL	.%1%[s]
	%2	s
%assign s s + 1
%endrep
%endmacro

; rbx := address of slot eax (= p) of the loop body .<%1>0..; no branch.
%macro LOOP_ENTRY 1
	lea	rbx, [rel .%{1}0]
%assign s 1
%rep LOOP_UNROLL - 1
	lea	r12, [rel .%1%[s]]
	cmp	eax, s
	cmove	rbx, r12
%assign s s + 1
%endrep
%endmacro

; One pass over the columns: rdi from %1, r15 from rbp, rcx from r9 up to
; 0; ends with r15 = t + 8*len.  Flags are left alone from the jump into
; the body to the exit (lea, jrcxz and jmp do not write them).
%macro LOOP_PASS 4
	mov	rdi, %1
	mov	r15, rbp
	mov	rcx, r9
	jmp	[rsp + %2]
	LOOP_BLOCK	%3, %4
	lea	rdi, [rdi + 8*LOOP_UNROLL]
	lea	r15, [r15 + 8*LOOP_UNROLL]
	lea	rcx, [rcx + LOOP_UNROLL]
	jrcxz	.%{3}end
	jmp	.%{3}0
	HLABEL	.%{3}end
%endmacro

; Same arguments; r9 already sign-extended.  len < 6 goes to the mul/adc
; loop, as fast at that size, which keeps this frame within the contract's
; 2*len + 8 chunks.
	CFI_ENDPROC
big_mont_mul_vec_adx_loop:
	CFI_STARTPROC
	cmp	r9, 6
	jl	big_mont_mul_vec_base wrt ..plt	; it also turns away len < 1
	CFI_PUSH_CALLEE_SAVED
	; frame: [rsp] where the pushes end (for the CFI: the frame's size
	; depends on len), [rsp + 8] entry of the a*b[i] pass, [rsp + 16]
	; entry of the m*n pass, [rsp + 24] r + len, [rsp + 32] b + len,
	; [rsp + 40] t[-1] (the m*n pass stores its column 0 there),
	; [rsp + 48] t[0..len]
	mov	r12, rsp
	CFI_CFA_REG	r12, 56
	lea	rax, [r9*8 + 56]
	sub	rsp, rax
	mov	[rsp], r12
	CFI_CFA_DEREF	0, 56
	lea	rax, [rdi + r9*8]
	mov	[rsp + 24], rax
	lea	rax, [rdx + r9*8]
	mov	[rsp + 32], rax
	mov	r11, rdx

	xor	eax, eax
	lea	rbx, [rsp + 48]
	lea	r12, [rbx + r9*8]
	HLABEL	.zero
	mov	[rbx], rax
	add	rbx, 8
	cmp	rbx, r12
	jbe	.zero

	; The passes loop over blocks of LOOP_UNROLL columns.  With p = -len
	; mod LOOP_UNROLL, a pass enters the first block at slot p, as if p
	; columns before column 0 were done: the pointers start 8p bytes
	; before a (or n) and t, and rcx runs from -(len + p) up to 0.  The
	; entry slot depends on len only.
	mov	rax, r9
	neg	rax
	and	eax, LOOP_UNROLL - 1
	lea	rdx, [rax*8]
	sub	rsi, rdx		; a - 8p
	mov	r10, rcx
	sub	r10, rdx		; n - 8p
	lea	rbp, [rsp + 48]
	sub	rbp, rdx		; t - 8p
	add	r9, rax
	neg	r9			; -(len + p)
	LOOP_ENTRY	a
	mov	[rsp + 8], rbx
	LOOP_ENTRY	n
	mov	[rsp + 16], rbx

	HLABEL	.row
	; t += a * b[i]
	mov	rdx, [r11]
	xor	ebx, ebx
	xor	r12d, r12d		; no high half before column 0
	xor	r13d, r13d		; CF = OF = 0
	LOOP_PASS	rsi, 8, a, LOOP_COL_A
	mov	rax, [r15]
	adcx	rax, r12
	adox	rax, r13
	mov	[r15], rax
	mov	r14, r13
	adcx	r14, r13
	adox	r14, r13

	; t = (t + m * n) / 2^64
	mov	rdx, [rsp + 48]
	imul	rdx, r8
	xor	ebx, ebx
	xor	r12d, r12d
	xor	r13d, r13d
	LOOP_PASS	r10, 16, n, LOOP_COL_N
	mov	rax, [r15]
	adcx	rax, r12
	adox	rax, r13
	mov	[r15 - 8], rax
	adcx	r14, r13
	adox	r14, r13
	mov	[r15], r14

	add	r11, 8
	cmp	r11, [rsp + 32]
	jne	.row

	; r = t - n or t, by a mask; t wiped (mont_cios.inc)
	mov	rbp, r15		; t + len, where the last pass ended
	mov	rdi, [rsp + 24]		; r + len
	lea	rax, [r9*8]
	sub	r10, rax		; n - 8p + 8(len + p) = n + len
	lea	rcx, [rsp + 48]
	sub	rcx, rbp
	sar	rcx, 3			; -len
	mov	r9, rcx
	MONT_CIOS_FINAL

	lea	rsp, [rbp + 8]
	CFI_CFA_RSP	56
	CFI_POP_CALLEE_SAVED
	ret
	CFI_ENDPROC

; The lengths with code of their own: product then reduction
; (mont_rows_adx.inc, mont_window8_adx.inc, mont_mul16_adx.inc).  Same
; arguments.
ADX_MONT_KERNELS big_mont_mul_vec_adx, ADX_MUL_ARGS, ADX_MUL8_PRODUCT_REG, \
	ADX_REDC8_REG, ADX_FINAL8_REG, 8
ADX_MONT_KERNELS big_mont_mul_vec_adx, ADX_MUL_ARGS, ADX_MUL16_PRODUCT_KARA, \
	ADX_REDC_LOOPED, ADX_FINAL, 16
ADX_MONT_KERNELS big_mont_mul_vec_adx, ADX_MUL_ARGS, ADX_MUL_PRODUCT_LOOPED, \
	ADX_REDC_LOOPED, ADX_FINAL, 12, 24, 32, 48, 64

; big_mont_mul_vec_adx_rows16: big_mont_mul_vec_adx's contract and code,
; but at len 16 the product by rows (ADX_MUL_PRODUCT_LOOPED, 256 mulx
; columns) in place of Karatsuba's: the other side of the dispatch's
; choice at 16 chunks (bignum/tuning.h binds Karatsuba only on the CPU
; models where a committed run measured it faster).  A branch on len
; only.
ADX_MONT_KERNELS big_mont_mul_vec_adx_rows, ADX_MUL_ARGS, ADX_MUL_PRODUCT_LOOPED, \
	ADX_REDC_LOOPED, ADX_FINAL, 16

global big_mont_mul_vec_adx_rows16:function
big_mont_mul_vec_adx_rows16:
	CFI_STARTPROC
	cmp	r9d, 16
	je	big_mont_mul_vec_adx_rows_16
	jmp	big_mont_mul_vec_adx
	CFI_ENDPROC

section .note.GNU-stack noalloc noexec nowrite progbits
