/*
 * Calling an assembly kernel through a checker of the x86-64 SysV ABI:
 * known values in every callee-saved register (rbx, rbp, r12-r15) that
 * must survive the call, rsp that must come back where it was, and int
 * arguments with garbage in the upper half of their register (the kernel
 * must sign-extend, never read it).  Also a call on a stack of our own, to
 * measure how deep a kernel writes.
 */
#ifndef BIGMONT_ABI_CALL_H
#define BIGMONT_ABI_CALL_H

#if BIGMONT_HAVE_ASM && defined(__x86_64__)

#include <cstdint>

#include <gtest/gtest.h>

namespace bt {

/* One call: up to nine integer arguments, six in registers and three on
 * the stack; what rax held after it. */
struct AbiCall {
	uint64_t arg[9];
	uint64_t ret = 0;
};

/* fn(call->arg[0..8]); the result in call->ret.  Fails, naming them, if a
 * callee-saved register or rsp did not come back. */
::testing::AssertionResult abi_call(const void *fn, AbiCall *call);

inline uint64_t ptr_arg(const void *p)
{
	return reinterpret_cast<uintptr_t>(p);
}

/* An int argument as its register may hold it: garbage above bit 31. */
inline uint64_t int_arg(int v)
{
	return (UINT64_C(0xdeadbeef) << 32) | static_cast<uint32_t>(v);
}

/* fn(args[0..5]) on the stack that ends at stack_top (16-byte aligned). */
void call_on_stack(const void *fn, const uint64_t *args, void *stack_top);

} // namespace bt

#endif
#endif
