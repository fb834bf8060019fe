; big_mont_sqr_select_vec_adx -- a Montgomery squaring and a constant-time
; table read in one call; at 8 chunks and 32 entries one pass does both,
; BMI2 + ADX + AVX2.  big_mont_sqr_select_vec_adx_vl: the same with the
; read in AVX-512VL on ymm (BMI2 + ADX + AVX2 + AVX512F + AVX512VL).
;
;   r[0..len)   = a^2 * 2^(-64*len) mod n
;   sel[0..len) = table[len*index .. len*index + len)
;
; C prototype (bignum/internal.h, big_mont_sqr_select_fn):
;   void big_mont_sqr_select_vec_adx(uint64_t *r, const uint64_t *a,
;                                    const uint64_t *n, uint64_t n0,
;                                    int len, uint64_t *sel,
;                                    const uint64_t *table, int entries,
;                                    uint64_t index);
;
; Preconditions: those of big_mont_sqr_vec_adx (n odd, n0 == -n^-1 mod
; 2^64, a < n, r may equal a) and of big_ct_select (1 <= entries <= 64,
; index < entries); sel does not overlap r, a, n or the table, and r does
; not overlap the table.  The CPU has AVX2 (and for _vl AVX512F and
; AVX512VL with the opmask and ZMM states saved): big_mont_sqr_select_vec
; is bound to these functions only where it does (bignum/dispatch.c; _vl
; where the tuning table's SELECT_VL says so).
; Postcondition: r < n (masked final subtraction); sel = the entry.
; Constant time: the only branches are on len and entries; every address
; depends on the pointers only; all 32 entries are loaded and blended, the
; wanted one under an all-ones mask, the others under zero.
;
; len != 8 or entries != 32: a tail call of big_mont_sqr_select_vec_separate
; (the squaring, then big_ct_select).  The check is here, not in a C
; wrapper, whose extra call passing the three stack arguments on cost
; more than the check.
;
; Why: the window exponentiation reads its table once per window, between
; the window's last squaring and its product.  Alone the read is vector
; loads and blends while the integer pipes idle; in the squaring, whose
; integer columns leave the vector pipes idle, it costs next to nothing.
; The squaring is big_mont_sqr_vec_adx_8's code (ADX_SQR8_PRODUCT_REG,
; ADX_SQR8_REDC_ROWS, ADX_FINAL8_REG in mont_window8_adx.inc) with
; ADX_SELECT_ON set, so that ADX_SELECT8_STEP reads four entries a row,
; after the row's columns 1, 3, 5 and 7.  Only at 8 chunks: at 16 the
; extra copy of the squaring costs more in the exponentiation's loop than
; the fused read saves.
;
; Registers (8 x 32): those of the squaring (mont_window8_adx.inc), except
; that rdi holds the table from entry to the final subtraction, r waiting
; in xmm6 and sel (r9) in xmm7; the read's ymm0:ymm1 accumulator, ymm2
; index, ymm3 counter, ymm4 all ones, ymm5 mask (k1 in _vl).  table,
; entries and index are the stack arguments 7, 8 and 9.
; Stack: as big_mont_sqr_vec_adx_8 (6 pushes, return address, 16 chunks
; of T, wiped).  The vector registers holding the index, the last mask and
; the entry are zeroed before return (vzeroupper clears the upper halves;
; _vl also clears k1).
;
; Cost per call at len 8, 32 entries, on AMD EPYC family 25 model 1
; (Zen 3), from `taskset -c 1 build/chunk64-asm/cli/bigmont speed
; --kernels` (best of 300 runs of 32 dependent calls):
;                                   rdtsc ticks
;   big_mont_sqr_vec_adx_8              130
;   big_ct_select, avx2                  38
;   the two calls                       168
;   this kernel                         141
; On Intel family 6 model 207 (Emerald Rapids), where vblendvpd is three
; uops on the ports mulx and the adds use, RSA-1024's window
; exponentiation (big_mont_pow_ct at 8 chunks, the two sides alternating,
; the least of three `bigmont speed --kernels` runs, core cycles):
;   with this kernel                 122466
;   with _vl                         119114   (bound there: SELECT_VL)

default rel
%include "mont_rows_adx.inc"
%include "mont_window8_adx.inc"

section .text

global big_mont_sqr_select_vec_adx:function hidden
global big_mont_sqr_select_vec_adx_vl:function hidden
extern big_mont_sqr_select_vec_separate

; The stack arguments table and index, after the six pushes and T.
%define ARG_TABLE	rsp + 16*8 + 6*8 + 8
%define ARG_INDEX	rsp + 16*8 + 6*8 + 24

; One entry point; select: 1 the AVX2 read, 2 the AVX-512VL one
; (ADX_SELECT8_STEP).
%macro SQR_SELECT8 2
%1:
	CFI_STARTPROC
	cmp	r8d, 8
	jne	%%separate
	cmp	dword [rsp + 16], 32
	jne	%%separate
	CFI_PUSH_CALLEE_SAVED
	CFI_SUB_RSP	16*8
	vpbroadcastq	ymm2, [ARG_INDEX]
	vpxor	xmm3, xmm3, xmm3
	vpcmpeqq	ymm4, ymm4, ymm4
	vpxor	xmm0, xmm0, xmm0
	vpxor	xmm1, xmm1, xmm1
	vmovq	xmm6, rdi
	vmovq	xmm7, r9
	mov	rdi, [ARG_TABLE]
	ADX_SQR_ARGS
	ADX_SQR8_PRODUCT_REG	8
%define ADX_SELECT_ON %2
%assign ADX_SELECT_K 0
	ADX_SQR8_REDC_ROWS	8
%define ADX_SELECT_ON 0
%if ADX_SELECT_K != 32
%error "the reduction rows must read all 32 entries"
%endif
	vmovq	rax, xmm7
	vmovdqu	[rax], ymm0
	vmovdqu	[rax + 32], ymm1
	vpxor	xmm1, xmm1, xmm1
	vpxor	xmm2, xmm2, xmm2
	vpxor	xmm5, xmm5, xmm5
%if %2 == 2
	kxorw	k1, k1, k1
%endif
	vzeroupper
	vmovq	rdi, xmm6
	ADX_FINAL8_REG	8
	CFI_ADD_RSP	16*8
	CFI_POP_CALLEE_SAVED
	ret
%%separate:
	jmp	big_mont_sqr_select_vec_separate wrt ..plt
	CFI_ENDPROC
%endmacro

	SQR_SELECT8 big_mont_sqr_select_vec_adx, 1
	SQR_SELECT8 big_mont_sqr_select_vec_adx_vl, 2

section .note.GNU-stack noalloc noexec nowrite progbits
