/*
 * Run-time choice of the kernel variant, bound once at load time: the
 * variant (big_cpu_choose, big_cpu_bound), every dispatched kernel, the
 * table read and the squaring with it, and the 20-digit radix-2^52
 * kernels' tuning.  The variants and the kernels each binds are
 * BIG_CPU_VARIANTS (internal.h).
 *
 * Each dispatched kernel is a GNU ifunc: the dynamic loader calls its
 * resolver once, before main, and writes the chosen address into the
 * relocation-read-only GOT.  So the choice is thread-safe and the library
 * holds no writable global data (`nm` shows none).
 *
 * Resolvers run before the C library, the sanitizer runtimes and even
 * errno are guaranteed to be usable, so this file uses nothing but cpuid
 * and raw system calls, and is compiled without sanitizers or stack
 * protector (see bignum/CMakeLists.txt).  BIGMONT_CPU is read from
 * /proc/self/environ for the same reason: getenv() may not work yet.
 *
 * On any other CPU than x86-64 (aarch64 Linux is built and tested) the
 * only variant is c: no cpuid, and BIGMONT_CPU naming another variant
 * binds c, as on an x86 CPU that lacks it.
 */
#include "internal.h"
#include "radix52/radix52.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define ENV_NAME "BIGMONT_CPU="

/* Linux system calls without the C library; openat, since aarch64 has no
 * open.  x86-64: number in rax, arguments in rdi, rsi, rdx, the kernel
 * clobbers rcx and r11.  aarch64: number in x8, arguments and result in
 * x0-x2. */
#if defined(__x86_64__)
#define SYS_READ 0
#define SYS_CLOSE 3
#define SYS_OPENAT 257
static long raw_syscall3(long nr, long a, long b, long c)
{
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
#define SYS_READ 63
#define SYS_CLOSE 57
#define SYS_OPENAT 56
static long raw_syscall3(long nr, long a, long b, long c)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	return x0;
}
#else
#error "bignum/dispatch.c: raw Linux system calls for this CPU are missing (x86-64 and aarch64 have them)"
#endif
#define AT_FDCWD_RAW (-100)

/* A switch, not a table of pointers: a pointer table would be writable
 * (RELRO) data in a PIE.  v is always one of the list's. */
#define NAME_CASE(arg, V, name, sfx, here)                                   \
	case BIG_CPU_##V:                                                    \
		return name;
static const char *variant_name(enum big_cpu_variant v)
{
	switch (v) {
		BIG_CPU_VARIANTS(NAME_CASE, )
	default:
		return "?";
	}
}
#undef NAME_CASE

/* Parse the BIGMONT_CPU value out of /proc/self/environ; -1 if unset or
 * not a variant's name (BIG_CPU_VARIANTS). */
static int env_requested_variant(void)
{
	static const char path[] = "/proc/self/environ";
	long fd = raw_syscall3(SYS_OPENAT, AT_FDCWD_RAW, (long)path, 0 /* O_RDONLY */);
	if (fd < 0)
		return -1;

	char buf[512];
	char value[16];
	int vlen = 0;
	/* state: 0 at start of entry, k>0 matched k chars of ENV_NAME,
	 * -1 reading our value, -2 skipping an unrelated entry. */
	int state = 0;
	int found = 0;
	const int name_len = (int)sizeof(ENV_NAME) - 1;
	for (;;) {
		long n = raw_syscall3(SYS_READ, fd, (long)buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long i = 0; i < n && !found; i++) {
			char ch = buf[i];
			if (state == -1) {
				if (ch == '\0')
					found = 1;
				else if (vlen < (int)sizeof(value) - 1)
					value[vlen++] = ch;
				else
					vlen = (int)sizeof(value); /* too long */
			} else if (ch == '\0') {
				state = 0;
			} else if (state >= 0 && ch == ENV_NAME[state]) {
				state++;
				if (state == name_len)
					state = -1;
			} else {
				state = -2;
			}
		}
		if (found)
			break;
	}
	raw_syscall3(SYS_CLOSE, fd, 0, 0);
	if (state == -1)
		found = 1; /* value ran to end of file */
	if (!found || vlen >= (int)sizeof(value))
		return -1;
	value[vlen] = '\0';

	for (int v = 0; v < BIG_CPU_VARIANT_COUNT; v++) {
		const char *s = variant_name((enum big_cpu_variant)v);
		int k = 0;
		while (s[k] && s[k] == value[k])
			k++;
		if (s[k] == '\0' && value[k] == '\0')
			return v;
	}
	return -1;
}

#if defined(__x86_64__)
/* 1 if the OS saves every register state in `states` (XCR0 bits), read
 * with xgetbv where OSXSAVE (leaf 1 ECX bit 27) says it may be. */
static int os_saves(unsigned states)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))
		return 0;
	unsigned xcr0_lo, xcr0_hi;
	__asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
	return (xcr0_lo & states) == states;
}

/* AVX512F (leaf 7 EBX bit 16), AVX512DQ (17), AVX512_IFMA (21), AVX512BW
 * (30), AVX512VL (31), and XCR0 bits 1, 2 (SSE, AVX), 5 (opmask), 6, 7
 * (ZMM state).  Every CPU with IFMA has DQ and BW; the 20-digit assembly
 * uses their mask instructions. */
int big_r52_cpu_has_ifma(void)
{
	unsigned a, b, c, d;
	const unsigned need = (1u << 16) | (1u << 17) | (1u << 21) | (1u << 30) |
			      (1u << 31);
	return os_saves(0xe6u) && __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
	       (b & need) == need;
}
#else
int big_r52_cpu_has_ifma(void)
{
	return 0;
}
#endif

enum big_cpu_variant big_cpu_best(void)
{
#if BIGMONT_HAVE_ASM
	unsigned a, b, c, d;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		const unsigned bmi2 = 1u << 8, adx = 1u << 19;
		if ((b & bmi2) && (b & adx))
			return big_r52_cpu_has_ifma() ? BIG_CPU_IFMA : BIG_CPU_ADX;
	}
	return BIG_CPU_BASELINE;
#else
	return BIG_CPU_C;
#endif
}

enum big_cpu_variant big_cpu_choose(void)
{
	enum big_cpu_variant best = big_cpu_best();
	int want = env_requested_variant();
	if (want >= 0 && want <= (int)best)
		return (enum big_cpu_variant)want;
	return best;
}

const char *big_cpu_variant_name(void)
{
	return variant_name(big_cpu_choose());
}

/* big_cpu_bound: a function per variant that returns it, the chosen one
 * bound once, so that a caller asks per call without a system call. */
#define BOUND_FN(arg, V, name, sfx, here)                                    \
	static enum big_cpu_variant bound_##V(void)                          \
	{                                                                    \
		return BIG_CPU_##V;                                          \
	}
BIG_CPU_VARIANTS(BOUND_FN, )
#undef BOUND_FN

#define BOUND_CASE(arg, V, name, sfx, here)                                  \
	case BIG_CPU_##V:                                                    \
		return bound_##V;
static enum big_cpu_variant (*resolve_big_cpu_bound(void))(void)
{
	switch (big_cpu_choose()) {
		BIG_CPU_VARIANTS(BOUND_CASE, )
	default:
		return bound_C;
	}
}
#undef BOUND_CASE
__typeof__(big_cpu_bound) big_cpu_bound __attribute__((ifunc("resolve_big_cpu_bound")));

int big_have_asm(void)
{
	return BIGMONT_HAVE_ASM;
}

/* One resolver per kernel: the chosen variant's <kernel>_<sfx>, from
 * BIG_CPU_VARIANTS; a build without the assembly has the C kernels only. */
#define PICK_CASE(kernel, V, name, sfx, here)                                \
	BIG_IF(here, case BIG_CPU_##V: return kernel##_##sfx;)
#if BIGMONT_HAVE_ASM
#define BIG_PICK(kernel)                                                      \
	switch (big_cpu_choose()) {                                           \
		BIG_CPU_VARIANTS(PICK_CASE, kernel)                           \
	default:                                                              \
		return kernel##_c;                                            \
	}
#else
#define BIG_PICK(kernel) return kernel##_c;
#endif

#define BIG_IFUNC(name, fntype)                                               \
	static fntype *resolve_##name(void)                                   \
	{                                                                     \
		BIG_PICK(name)                                                \
	}                                                                     \
	__typeof__(name) name __attribute__((ifunc("resolve_" #name)));

BIG_IFUNC(big_mul_set_vec, big_mul_row_fn)
BIG_IFUNC(big_mul_add_vec, big_mul_row_fn)
BIG_IFUNC(big_mul_vec, big_mul_vec_fn)
BIG_IFUNC(big_sqr_vec, big_sqr_vec_fn)
BIG_IFUNC(big_mont_mul_vec, big_mont_mul_vec_fn)
BIG_IFUNC(big_mont_sqr_vec, big_mont_sqr_vec_fn)

/* The constant-time table read: AVX2 where the CPU has it and the OS saves
 * the YMM state (OSXSAVE and XCR0 bits 1-2), whatever BIGMONT_CPU says. */
int big_ct_select_uses_avx2(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;
	return os_saves(6u) && __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
	       (b & (1u << 5));
#else
	return 0;
#endif
}

static big_ct_select_fn *resolve_big_ct_select(void)
{
#if defined(__x86_64__)
	if (big_ct_select_uses_avx2())
		return big_ct_select_avx2;
#endif
	return big_ct_select_c;
}
__typeof__(big_ct_select) big_ct_select __attribute__((ifunc("resolve_big_ct_select")));

/* The squaring with the table read (contract in internal.h).  The window
 * exponentiation reads its table between a window's last squaring and its
 * product; the read's vector loads and blends can run beside the
 * squaring's integer columns, on pipes the squaring leaves idle, where a
 * kernel interleaves them (big_mont_sqr_select_vec_adx, 8 chunks and 32
 * entries, the shape of RSA-1024's exponentiations).  That fused kernel
 * needs both the adx variant and AVX2. */
int big_mont_sqr_select_uses_adx(void)
{
	return BIGMONT_HAVE_ASM && big_cpu_choose() >= BIG_CPU_ADX &&
	       big_ct_select_uses_avx2();
}

/* Every other shape, and every build without the fused kernel, makes the
 * two bound calls. */
void big_mont_sqr_select_vec_separate(chunk_t *r, const chunk_t *a,
				      const chunk_t *n, chunk_t n0, int len,
				      chunk_t *sel, const chunk_t *table,
				      int entries, chunk_t index)
{
	big_mont_sqr_vec(r, a, n, n0, len);
	big_ct_select(sel, table, entries, index, len);
}

static big_mont_sqr_select_fn *resolve_big_mont_sqr_select_vec(void)
{
#if BIGMONT_HAVE_ASM
	if (big_mont_sqr_select_uses_adx())
		return big_mont_sqr_select_vec_adx;
#endif
	return big_mont_sqr_select_vec_separate;
}
__typeof__(big_mont_sqr_select_vec) big_mont_sqr_select_vec
	__attribute__((ifunc("resolve_big_mont_sqr_select_vec")));

#if BIGMONT_HAVE_ASM && defined(__x86_64__)
/* The tuning of the 20-digit radix-2^52 kernels (asm/x86_64/r52_dual20.inc)
 * for this CPU: intel on Intel's cores (two zmm multiply-add ports that
 * also serve mulx and the shuffles), amd elsewhere (Zen 4's single one).
 * Each was measured faster on its CPU, a Zen 4 and a family 6 model 207
 * (docs/design-notes.md); Intel's client cores, with one zmm port, are
 * unmeasured.  Both return the same words and run on any CPU with IFMA. */
static int cpu_is_intel(void)
{
	unsigned a = 0, b = 0, c = 0, d = 0; /* GCC -O1 warns though && guards them */
	/* "GenuineIntel" in ebx, edx, ecx */
	return __get_cpuid(0, &a, &b, &c, &d) && b == 0x756e6547u &&
	       d == 0x49656e69u && c == 0x6c65746eu;
}

/* The radix-2^52 predicates below, each bound once: no cpuid per call (a
 * VM exit under a hypervisor).  big_r52_kernels20_intel: */
static int r52_yes(void)
{
	return 1;
}
static int r52_no(void)
{
	return 0;
}
static int (*resolve_big_r52_kernels20_intel(void))(void)
{
	return cpu_is_intel() ? r52_yes : r52_no;
}
__typeof__(big_r52_kernels20_intel) big_r52_kernels20_intel
	__attribute__((ifunc("resolve_big_r52_kernels20_intel")));

/* big_r52_pow_sqr30_dedicated: whether the IFMA exponentiations square
 * by the dedicated squaring at 30 digits (RSA-3072), which keeps more
 * registers live than the product and spills.  Measured faster than
 * the product on Intel's server cores from Sapphire Rapids on (family 6
 * model 207: 1257 against 1423 cycles), slower on Ice Lake (model 106:
 * 1831 against 1594) and on Zen 4 (bignum/radix52/dual_ifma.c has the
 * table); the cores not measured take the product. */
static int cpu_intel_squares30_dedicated(void)
{
	unsigned a = 0, b = 0, c = 0, d = 0;

	if (!cpu_is_intel() || !__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	const unsigned family = (a >> 8) & 0xf;
	const unsigned model = ((a >> 4) & 0xf) | (((a >> 16) & 0xf) << 4);
	/* Sapphire Rapids, Emerald Rapids, Granite Rapids (X and D) */
	return family == 6 && (model == 143 || model == 207 || model == 173 || model == 174);
}
static int (*resolve_big_r52_pow_sqr30_dedicated(void))(void)
{
	return cpu_intel_squares30_dedicated() ? r52_yes : r52_no;
}
__typeof__(big_r52_pow_sqr30_dedicated) big_r52_pow_sqr30_dedicated
	__attribute__((ifunc("resolve_big_r52_pow_sqr30_dedicated")));

/* big_r52_mul_pairs_wanted: whether the IFMA build multiplies both halves
 * on whole zmm pair groups above 10 digits (bignum/radix52/dual_ifma.c).
 * Intel's server cores issue a zmm multiply-add as often as a ymm one,
 * so it halves the vector work there: measured 15 and 18 % fewer cycles
 * at 30 and 40 digits on family 6 model 106.  Zen 4 splits a zmm operation
 * in two and keeps the ymm product until measured. */
static int (*resolve_big_r52_mul_pairs_wanted(void))(void)
{
	return cpu_is_intel() ? r52_yes : r52_no;
}
__typeof__(big_r52_mul_pairs_wanted) big_r52_mul_pairs_wanted
	__attribute__((ifunc("resolve_big_r52_mul_pairs_wanted")));

static big_r52_dual_mul_fn *resolve_big_r52_dual_mul20_ifma_asm(void)
{
	return cpu_is_intel() ? big_r52_dual_mul20_ifma_intel : big_r52_dual_mul20_ifma_amd;
}
__typeof__(big_r52_dual_mul20_ifma_asm) big_r52_dual_mul20_ifma_asm
	__attribute__((ifunc("resolve_big_r52_dual_mul20_ifma_asm")));

static big_r52_dual_sqr_fn *resolve_big_r52_dual_sqr20_ifma_asm(void)
{
	return cpu_is_intel() ? big_r52_dual_sqr20_ifma_intel : big_r52_dual_sqr20_ifma_amd;
}
__typeof__(big_r52_dual_sqr20_ifma_asm) big_r52_dual_sqr20_ifma_asm
	__attribute__((ifunc("resolve_big_r52_dual_sqr20_ifma_asm")));
#endif
