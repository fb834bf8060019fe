/*
 * Looking for secrets a kernel left on the stack below its caller: zero
 * the stack where the calls a test makes next will have their frames,
 * make the calls, then scan that stack for the secrets' words.
 *
 * The scan never holds a secret word itself, which a spilled loop
 * variable would (ASan builds spill more): it compares stack words and
 * secrets both XORed with kScanMask, so the test passes the secrets
 * masked (mask_secrets).
 */
#ifndef BIGMONT_STACK_SCAN_H
#define BIGMONT_STACK_SCAN_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bt {

constexpr uint64_t kScanMask = 0x9e3779b97f4a7c15ULL;
constexpr ptrdiff_t kScanWords = 4096; /* 32 KB: past the deepest wipe, 24 KB (lanes.h) */

inline void mask_secrets(std::vector<uint64_t> &secrets)
{
	for (uint64_t &v : secrets)
		v ^= kScanMask;
}

/* Zeroes the 32 KB of stack below the caller's frame, where the calls it
 * makes next will have theirs: what is found there afterwards they left. */
__attribute__((noinline, no_sanitize_address)) inline void scrub_stack_below()
{
	volatile uint64_t area[kScanWords + 64];
	for (ptrdiff_t i = 0; i < kScanWords + 64; i++)
		area[i] = 0;
	__asm__ volatile("" : : "r"(area) : "memory");
}

/* Whether one of the secrets (given masked) is in the 32 KB of stack
 * below the caller's frame. */
__attribute__((noinline, no_sanitize_address)) inline bool stack_below_holds(
	const std::vector<uint64_t> &masked)
{
	const volatile uint64_t *top =
		static_cast<const volatile uint64_t *>(__builtin_frame_address(0));
	for (ptrdiff_t i = 1; i < kScanWords; i++) {
		const uint64_t w = top[-i] ^ kScanMask;
		for (uint64_t v : masked)
			if (w == v)
				return true;
	}
	return false;
}

/* How many of the 64-bit words in the 32 KB of stack below the caller's
 * frame are not zero: after scrub_stack_below and a call, the words that
 * call (and what it called) left there. */
__attribute__((noinline, no_sanitize_address)) inline ptrdiff_t stack_below_nonzero_words()
{
	const volatile uint64_t *top =
		static_cast<const volatile uint64_t *>(__builtin_frame_address(0));
	ptrdiff_t n = 0;
	for (ptrdiff_t i = 1; i < kScanWords; i++)
		n += top[-i] != 0;
	return n;
}

/* How deep below the caller's frame calls write: paint the 96 KB below it
 * with kPaint, make the calls, then stack_below_depth gives the distance
 * in bytes of the deepest word no longer kPaint (0 if none).  Two depths
 * measured from one frame compare: a wipe's own (it writes zeros to its
 * depth) and the kernels' (it must not be deeper). */
constexpr uint64_t kPaint = 0x5a3cc3a5a5c33c5aULL;
constexpr ptrdiff_t kDepthWords = 12288;

__attribute__((noinline, no_sanitize_address)) inline void paint_stack_below()
{
	volatile uint64_t area[kDepthWords + 64];
	for (ptrdiff_t i = 0; i < kDepthWords + 64; i++)
		area[i] = kPaint;
	__asm__ volatile("" : : "r"(area) : "memory");
}

__attribute__((noinline, no_sanitize_address)) inline ptrdiff_t stack_below_depth()
{
	const volatile uint64_t *top =
		static_cast<const volatile uint64_t *>(__builtin_frame_address(0));
	ptrdiff_t deepest = 0;
	for (ptrdiff_t i = 1; i < kDepthWords; i++)
		if (top[-i] != kPaint)
			deepest = i;
	return 8 * deepest;
}

} // namespace bt

#endif
