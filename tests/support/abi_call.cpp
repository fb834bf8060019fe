#include "abi_call.h"

#include <cstdio>

#if BIGMONT_HAVE_ASM && defined(__x86_64__)

/*
 * abi_trampoline(fn, frame): frame[0..8] are the arguments, frame[9]
 * receives rax, frame[10] rsp before the call XOR rsp after it; returns
 * each callee-saved register XOR the value it was given, ORed together.
 * stack_trampoline(fn, args, top): fn(args[0..5]) with rsp = top.
 */
extern "C" uint64_t bigmont_abi_trampoline(const void *fn, uint64_t *frame);
extern "C" void bigmont_stack_trampoline(const void *fn, const uint64_t *args, void *top);

__asm__(".pushsection .text\n"
	/* rdi, rsi, rdx, rcx, r8, r9 = args[0..5], args in rax */
	".macro bigmont_load_args\n"
	"	mov 0(%rax), %rdi\n"
	"	mov 8(%rax), %rsi\n"
	"	mov 16(%rax), %rdx\n"
	"	mov 24(%rax), %rcx\n"
	"	mov 32(%rax), %r8\n"
	"	mov 40(%rax), %r9\n"
	".endm\n"
	/* each callee-saved register, \\op the known value it was given */
	".macro bigmont_known op\n"
	"	movabs $0x1111111111111111, %rax\n"
	"	\\op %rax, %rbx\n"
	"	movabs $0x2222222222222222, %rax\n"
	"	\\op %rax, %rbp\n"
	"	movabs $0x3333333333333333, %rax\n"
	"	\\op %rax, %r12\n"
	"	movabs $0x4444444444444444, %rax\n"
	"	\\op %rax, %r13\n"
	"	movabs $0x5555555555555555, %rax\n"
	"	\\op %rax, %r14\n"
	"	movabs $0x6666666666666666, %rax\n"
	"	\\op %rax, %r15\n"
	".endm\n"

	".p2align 4\n"
	".globl bigmont_abi_trampoline\n"
	".hidden bigmont_abi_trampoline\n"
	".type bigmont_abi_trampoline,@function\n"
	"bigmont_abi_trampoline:\n"
	"	push %rbx\n"
	"	push %rbp\n"
	"	push %r12\n"
	"	push %r13\n"
	"	push %r14\n"
	"	push %r15\n"
	"	sub $40, %rsp\n" /* 3 stack arguments, the frame pointer, alignment */
	"	mov %rsi, 24(%rsp)\n"
	"	mov %rdi, %r11\n"
	"	mov 48(%rsi), %rax\n"
	"	mov %rax, 0(%rsp)\n"
	"	mov 56(%rsi), %rax\n"
	"	mov %rax, 8(%rsp)\n"
	"	mov 64(%rsi), %rax\n"
	"	mov %rax, 16(%rsp)\n"
	"	mov %rsp, 80(%rsi)\n"
	"	bigmont_known mov\n"
	"	mov %rsi, %rax\n"
	"	bigmont_load_args\n"
	"	call *%r11\n"
	"	mov 24(%rsp), %rcx\n"
	"	mov %rax, 72(%rcx)\n"
	"	mov %rsp, %rdx\n"
	"	xor %rdx, 80(%rcx)\n"
	"	bigmont_known xor\n"
	"	mov %rbx, %rax\n"
	"	or %rbp, %rax\n"
	"	or %r12, %rax\n"
	"	or %r13, %rax\n"
	"	or %r14, %rax\n"
	"	or %r15, %rax\n"
	"	add $40, %rsp\n"
	"	pop %r15\n"
	"	pop %r14\n"
	"	pop %r13\n"
	"	pop %r12\n"
	"	pop %rbp\n"
	"	pop %rbx\n"
	"	ret\n"
	".size bigmont_abi_trampoline, .-bigmont_abi_trampoline\n"

	".p2align 4\n"
	".globl bigmont_stack_trampoline\n"
	".hidden bigmont_stack_trampoline\n"
	".type bigmont_stack_trampoline,@function\n"
	"bigmont_stack_trampoline:\n"
	"	push %rbx\n"
	"	mov %rsp, %rbx\n"
	"	mov %rdi, %r11\n"
	"	mov %rsi, %rax\n"
	"	mov %rdx, %rsp\n"
	"	bigmont_load_args\n"
	"	call *%r11\n"
	"	mov %rbx, %rsp\n"
	"	pop %rbx\n"
	"	ret\n"
	".size bigmont_stack_trampoline, .-bigmont_stack_trampoline\n"
	".popsection\n");

namespace bt {

::testing::AssertionResult abi_call(const void *fn, AbiCall *call)
{
	uint64_t frame[11] = {};
	for (int i = 0; i < 9; i++)
		frame[i] = call->arg[i];
	const uint64_t clobbered = bigmont_abi_trampoline(fn, frame);
	call->ret = frame[9];
	if (clobbered == 0 && frame[10] == 0)
		return ::testing::AssertionSuccess();
	char why[128];
	std::snprintf(why, sizeof(why),
		      "callee-saved registers XOR their values %#llx, rsp XOR its value %#llx",
		      static_cast<unsigned long long>(clobbered), static_cast<unsigned long long>(frame[10]));
	return ::testing::AssertionFailure() << why;
}

void call_on_stack(const void *fn, const uint64_t *args, void *stack_top)
{
	bigmont_stack_trampoline(fn, args, stack_top);
}

} // namespace bt

#endif
