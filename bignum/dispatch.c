/*
 * Run-time choice of the kernel variant, bound once at load time: the
 * variant (big_cpu_choose, big_cpu_bound), every dispatched kernel, the
 * table read and the squaring with it, and the sub-choices of the
 * tuning table (bignum/tuning.h: per CPU model, only where a committed
 * run measured them).  The variants and the kernels each binds are
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
 * protector (see bignum/CMakeLists.txt).  BIGMONT_CPU and BIGMONT_TUNE
 * are read from /proc/self/environ for the same reason: getenv() may not
 * work yet.
 *
 * On any other CPU than x86-64 (aarch64 Linux is built and tested) the
 * only variant is c: no cpuid, and BIGMONT_CPU naming another variant
 * binds c, as on an x86 CPU that lacks it.
 */
#include "internal.h"
#include "lanes/lanes.h"
#include "lanes/lanes52.h"
#include "radix52/radix52.h"
#include "tuning.h"
#include "vertical/vertical.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define ENV_NAME "BIGMONT_CPU="

/* clang 14 does not count the ifunc attribute as a use of its resolver. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wunused-function"
#endif

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

/* The value of the environment variable `name_eq` ("NAME=", name_len
 * characters) from /proc/self/environ into value[0..size), NUL-terminated;
 * its length, or -1 if unset or longer than size - 1.  Lengths are passed
 * (ENV_VALUE), not counted: GCC turns a counting loop into a call of
 * strlen, which a resolver cannot make (relocations are not done yet). */
#define ENV_VALUE(name_eq, value, size) env_value(name_eq, (int)sizeof(name_eq) - 1, value, size)
static int env_value(const char *name_eq, int name_len, char *value, int size)
{
	static const char path[] = "/proc/self/environ";
	long fd = raw_syscall3(SYS_OPENAT, AT_FDCWD_RAW, (long)path, 0 /* O_RDONLY */);
	if (fd < 0)
		return -1;

	char buf[4096]; /* a page a read: some programs run with environments of megabytes */
	int vlen = 0;
	/* state: 0 at start of entry, k>0 matched k chars of name_eq,
	 * -1 reading our value, -2 skipping an unrelated entry. */
	int state = 0;
	int found = 0;
	for (;;) {
		long n = raw_syscall3(SYS_READ, fd, (long)buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long i = 0; i < n && !found; i++) {
			char ch = buf[i];
			if (state == -1) {
				if (ch == '\0')
					found = 1;
				else if (vlen < size - 1)
					value[vlen++] = ch;
				else
					vlen = size; /* too long */
			} else if (ch == '\0') {
				state = 0;
			} else if (state >= 0 && ch == name_eq[state]) {
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
	if (!found || vlen >= size)
		return -1;
	value[vlen] = '\0';
	return vlen;
}

/* The BIGMONT_CPU value; -1 if unset or not a variant's name
 * (BIG_CPU_VARIANTS). */
static int env_requested_variant(void)
{
	char value[16];
	if (ENV_VALUE(ENV_NAME, value, (int)sizeof(value)) < 0)
		return -1;
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

/* 1 if the CPU has every AVX-512 extension in `need` (leaf 7 EBX bits)
 * and the OS saves XCR0 bits 1, 2 (SSE, AVX), 5 (opmask), 6, 7 (ZMM
 * state): an EVEX instruction needs them all, even on ymm. */
static int avx512_usable(unsigned need)
{
	unsigned a, b, c, d;
	return os_saves(0xe6u) && __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
	       (b & need) == need;
}

/* AVX512F (leaf 7 EBX bit 16), AVX512DQ (17), AVX512_IFMA (21), AVX512BW
 * (30), AVX512VL (31).  Every CPU with IFMA has DQ and BW; the 20-digit
 * assembly uses their mask instructions. */
int big_r52_cpu_has_ifma(void)
{
	return avx512_usable((1u << 16) | (1u << 17) | (1u << 21) | (1u << 30) | (1u << 31));
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

/* AVX512F (leaf 7 EBX bit 16) and AVX512VL (31), with the OS states. */
int big_ct_select_can_vl(void)
{
#if defined(__x86_64__)
	return avx512_usable((1u << 16) | (1u << 31));
#else
	return 0;
#endif
}

/* AVX512F, with the OS states: the vertical layer's zmm kernels and the
 * zmm lanes (bound below). */
static int cpu_has_avx512f(void)
{
#if defined(__x86_64__)
	return avx512_usable(1u << 16);
#else
	return 0;
#endif
}

/* The tuning table's SELECT_VL (defined with the other choices below;
 * 0 in the builds without them). */
static int select_vl_tuned(void);

int big_ct_select_uses_vl(void)
{
	return big_ct_select_can_vl() && select_vl_tuned();
}

static big_ct_select_fn *resolve_big_ct_select(void)
{
#if defined(__x86_64__)
	if (big_ct_select_uses_vl())
		return big_ct_select_vl;
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

int big_mont_sqr_select_uses_vl(void)
{
	return big_mont_sqr_select_uses_adx() && big_ct_select_uses_vl();
}

static big_mont_sqr_select_fn *resolve_big_mont_sqr_select_vec(void)
{
#if BIGMONT_HAVE_ASM
	if (big_mont_sqr_select_uses_vl())
		return big_mont_sqr_select_vec_adx_vl;
	if (big_mont_sqr_select_uses_adx())
		return big_mont_sqr_select_vec_adx;
#endif
	return big_mont_sqr_select_vec_separate;
}
__typeof__(big_mont_sqr_select_vec) big_mont_sqr_select_vec
	__attribute__((ifunc("resolve_big_mont_sqr_select_vec")));

/* The two answers a yes/no choice bound at load resolves to. */
static int bound_yes(void)
{
	return 1;
}
static int bound_no(void)
{
	return 0;
}

/* The lane layers' CPU tests (bignum/lanes/lanes.h, lanes52.h), bound once
 * like the kernels: the batch path asks them at every call (three times
 * per eight RSA operations), and in a virtual machine each cpuid traps to
 * the hypervisor, microseconds a time. */
static int (*resolve_big_lanes_cpu_has_avx2(void))(void)
{
	return big_ct_select_uses_avx2() ? bound_yes : bound_no;
}
__typeof__(big_lanes_cpu_has_avx2) big_lanes_cpu_has_avx2
	__attribute__((ifunc("resolve_big_lanes_cpu_has_avx2")));
static int (*resolve_cpu_has_avx512f(void))(void)
{
	return cpu_has_avx512f() ? bound_yes : bound_no;
}
__typeof__(big_lanes_cpu_has_avx512) big_lanes_cpu_has_avx512
	__attribute__((ifunc("resolve_cpu_has_avx512f")));
/* The CRT path asks it twice an operation (bignum/modexp_crt.c). */
__typeof__(big_vert_cpu_has_avx512) big_vert_cpu_has_avx512
	__attribute__((ifunc("resolve_cpu_has_avx512f")));
static int (*resolve_big_lanes52_cpu_has_ifma(void))(void)
{
	return BIG_LANES52_HAVE_IFMA_BUILD && big_r52_cpu_has_ifma() ? bound_yes : bound_no;
}
__typeof__(big_lanes52_cpu_has_ifma) big_lanes52_cpu_has_ifma
	__attribute__((ifunc("resolve_big_lanes52_cpu_has_ifma")));
/* AVX2 with the YMM state and FMA (leaf 1 ECX bit 12). */
static int cpu_has_fma(void)
{
#if BIG_LANES52_HAVE_FMA_BUILD
	unsigned a, b, c, d;
	return big_ct_select_uses_avx2() && __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 12));
#else
	return 0;
#endif
}
static int (*resolve_big_lanes52_cpu_can_fma(void))(void)
{
	return cpu_has_fma() ? bound_yes : bound_no;
}
__typeof__(big_lanes52_cpu_can_fma) big_lanes52_cpu_can_fma
	__attribute__((ifunc("resolve_big_lanes52_cpu_can_fma")));

#if BIGMONT_HAVE_ASM && defined(__x86_64__)
/* ---- the tuning table's choices (bignum/tuning.h) ------------------------
 * Each predicate below is bound once (an ifunc: no cpuid per call, which
 * is a VM exit under a hypervisor) to BIGMONT_TUNE's value for its choice
 * if set, else to the table's side for this CPU (its model's rows, or
 * its relatives' where the table does not name it: big_tune_binds). */
#define TUNE_NAME "BIGMONT_TUNE="

/* BIGMONT_TUNE's value for `choice` (choice_len characters: 0 or 1), or
 * -1 where it does not name it (or names it with another value). */
static int tune_override(const char *choice, int choice_len)
{
	char value[BIG_TUNE_ENV_MAX + 1];
	const int n = ENV_VALUE(TUNE_NAME, value, (int)sizeof(value));
	int at = 0;
	while (at < n) {
		int end = at;
		while (end < n && value[end] != ',')
			end++;
		const int v = big_tune_item(value + at, end - at, choice, choice_len);
		if (v >= 0)
			return v;
		at = end + 1;
	}
	return -1;
}

/* The choice named `choice` (len characters) on this CPU: BIGMONT_TUNE,
 * else the table.  TUNED("NAME") passes the length. */
#define TUNED(choice) tuned(choice, (int)sizeof(choice) - 1)
static int tuned(const char *choice, int len)
{
	const int forced = tune_override(choice, len);
	if (forced >= 0)
		return forced;
	unsigned family, model;
	const enum big_tune_vendor vendor = big_tune_cpu(&family, &model);
	return big_tune_binds(vendor, family, model, choice, len);
}

/* big_mont_mul16_karatsuba, and big_mont_mul_vec: the adx variant's
 * Montgomery product, with Karatsuba at 16 chunks or by rows. */
static int (*resolve_big_mont_mul16_karatsuba(void))(void)
{
	return TUNED("MONT_MUL16_KARATSUBA") ? bound_yes : bound_no;
}
__typeof__(big_mont_mul16_karatsuba) big_mont_mul16_karatsuba
	__attribute__((ifunc("resolve_big_mont_mul16_karatsuba")));

static big_mont_mul_vec_fn *resolve_big_mont_mul_vec(void)
{
	if (big_cpu_choose() >= BIG_CPU_ADX && !TUNED("MONT_MUL16_KARATSUBA"))
		return big_mont_mul_vec_adx_rows16;
	BIG_PICK(big_mont_mul_vec)
}
__typeof__(big_mont_mul_vec) big_mont_mul_vec __attribute__((ifunc("resolve_big_mont_mul_vec")));

/* big_r52_kernels20_intel, and the 20-digit NASM kernels it names. */
static int (*resolve_big_r52_kernels20_intel(void))(void)
{
	return TUNED("R52_KERNELS20_INTEL") ? bound_yes : bound_no;
}
__typeof__(big_r52_kernels20_intel) big_r52_kernels20_intel
	__attribute__((ifunc("resolve_big_r52_kernels20_intel")));

static big_r52_dual_mul_fn *resolve_big_r52_dual_mul20_ifma_asm(void)
{
	return TUNED("R52_KERNELS20_INTEL") ? big_r52_dual_mul20_ifma_intel
					    : big_r52_dual_mul20_ifma_amd;
}
__typeof__(big_r52_dual_mul20_ifma_asm) big_r52_dual_mul20_ifma_asm
	__attribute__((ifunc("resolve_big_r52_dual_mul20_ifma_asm")));

static big_r52_dual_sqr_fn *resolve_big_r52_dual_sqr20_ifma_asm(void)
{
	return TUNED("R52_KERNELS20_INTEL") ? big_r52_dual_sqr20_ifma_intel
					    : big_r52_dual_sqr20_ifma_amd;
}
__typeof__(big_r52_dual_sqr20_ifma_asm) big_r52_dual_sqr20_ifma_asm
	__attribute__((ifunc("resolve_big_r52_dual_sqr20_ifma_asm")));

/* big_r52_pow_sqr30_dedicated. */
static int (*resolve_big_r52_pow_sqr30_dedicated(void))(void)
{
	return TUNED("R52_POW_SQR30_DEDICATED") ? bound_yes : bound_no;
}
__typeof__(big_r52_pow_sqr30_dedicated) big_r52_pow_sqr30_dedicated
	__attribute__((ifunc("resolve_big_r52_pow_sqr30_dedicated")));

/* big_lanes<k>_asm: the avx2 lane build's kernels at k = 19, 37, 55, 74
 * digits, NASM or intrinsics (bignum/lanes/lanes.h). */
static int (*resolve_big_lanes19_asm(void))(void)
{
	return TUNED("LANES19_ASM") ? bound_yes : bound_no;
}
__typeof__(big_lanes19_asm) big_lanes19_asm __attribute__((ifunc("resolve_big_lanes19_asm")));
static int (*resolve_big_lanes37_asm(void))(void)
{
	return TUNED("LANES37_ASM") ? bound_yes : bound_no;
}
__typeof__(big_lanes37_asm) big_lanes37_asm __attribute__((ifunc("resolve_big_lanes37_asm")));
static int (*resolve_big_lanes55_asm(void))(void)
{
	return TUNED("LANES55_ASM") ? bound_yes : bound_no;
}
__typeof__(big_lanes55_asm) big_lanes55_asm __attribute__((ifunc("resolve_big_lanes55_asm")));
static int (*resolve_big_lanes74_asm(void))(void)
{
	return TUNED("LANES74_ASM") ? bound_yes : bound_no;
}
__typeof__(big_lanes74_asm) big_lanes74_asm __attribute__((ifunc("resolve_big_lanes74_asm")));

#if BIG_LANES52_HAVE_IFMA_BUILD
/* big_lanes52_sqr20_asm: the IFMA lane build's squaring at 20 digits,
 * NASM or C (bignum/lanes/lanes52.h). */
static int (*resolve_big_lanes52_sqr20_asm(void))(void)
{
	return TUNED("LANES52_SQR20_ASM") ? bound_yes : bound_no;
}
__typeof__(big_lanes52_sqr20_asm) big_lanes52_sqr20_asm
	__attribute__((ifunc("resolve_big_lanes52_sqr20_asm")));
#endif

/* big_r52_mul_pairs_wanted(digits): 1 at 10, 30 and 40 digits where the
 * table or BIGMONT_TUNE says so, 0 at every other size (unmeasured); one
 * function for each set of those sizes (bit 0: 10, bit 1: 30, bit 2: 40). */
#define R52_PAIRS_AT(set)                                                    \
	static int r52_pairs_##set(int digits)                               \
	{                                                                    \
		return (((set) & 1) && digits == 10) ||                      \
		       (((set) & 2) && digits == 30) ||                      \
		       (((set) & 4) && digits == 40);                        \
	}
R52_PAIRS_AT(0)
R52_PAIRS_AT(1)
R52_PAIRS_AT(2)
R52_PAIRS_AT(3)
R52_PAIRS_AT(4)
R52_PAIRS_AT(5)
R52_PAIRS_AT(6)
R52_PAIRS_AT(7)
#undef R52_PAIRS_AT
static int (*resolve_big_r52_mul_pairs_wanted(void))(int)
{
	static int (*const by_set[8])(int) = { r52_pairs_0, r52_pairs_1, r52_pairs_2,
						r52_pairs_3, r52_pairs_4, r52_pairs_5,
						r52_pairs_6, r52_pairs_7 };
	return by_set[(TUNED("R52_MUL_PAIRS10") ? 1 : 0) | (TUNED("R52_MUL_PAIRS30") ? 2 : 0) |
		      (TUNED("R52_MUL_PAIRS40") ? 4 : 0)];
}
__typeof__(big_r52_mul_pairs_wanted) big_r52_mul_pairs_wanted
	__attribute__((ifunc("resolve_big_r52_mul_pairs_wanted")));

/* big_vert_tuned: the vertical CRT path (bignum/vertical/vertical.h). */
static int (*resolve_big_vert_tuned(void))(void)
{
	return TUNED("VERTICAL") ? bound_yes : bound_no;
}
__typeof__(big_vert_tuned) big_vert_tuned __attribute__((ifunc("resolve_big_vert_tuned")));

/* big_vert_zmm_tuned: the vertical CRT path on zmm (vertical.h). */
static int (*resolve_big_vert_zmm_tuned(void))(void)
{
	return TUNED("VERTICAL_ZMM") ? bound_yes : bound_no;
}
__typeof__(big_vert_zmm_tuned) big_vert_zmm_tuned __attribute__((ifunc("resolve_big_vert_zmm_tuned")));

/* big_crt_paired8_tuned: big_modexp_crt's halves side by side at 8
 * chunks (bignum/modexp_crt.c). */
static int (*resolve_big_crt_paired8_tuned(void))(void)
{
	return TUNED("CRT_PAIRED8") ? bound_yes : bound_no;
}
__typeof__(big_crt_paired8_tuned) big_crt_paired8_tuned
	__attribute__((ifunc("resolve_big_crt_paired8_tuned")));

/* SELECT_VL, asked by the table reads' resolvers (above), which run once
 * at load, and by the reports. */
static int select_vl_tuned(void)
{
	return TUNED("SELECT_VL");
}
#else
int big_mont_mul16_karatsuba(void)
{
	return 0;
}
int big_vert_tuned(void)
{
	return 0;
}
int big_crt_paired8_tuned(void)
{
	return 0;
}
int big_vert_zmm_tuned(void)
{
	return 0;
}
static int select_vl_tuned(void)
{
	return 0;
}
BIG_IFUNC(big_mont_mul_vec, big_mont_mul_vec_fn)
#endif
