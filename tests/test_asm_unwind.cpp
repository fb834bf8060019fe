// bigmont-test: once
/*
 * The NASM kernels' call-frame information (asm/x86_64/cfi.inc): a
 * profiler or debugger that stops inside a kernel must be able to step out
 * of it into the C that called it.  For every assembly kernel (baseline,
 * and adx where the CPU has it) at lengths that reach each of its code
 * paths (the short-length fallbacks, the loops, every unrolled Montgomery
 * length; the AVX2 lane kernels at 19, 37, 55 digits), a loop calls the kernel
 * while SIGALRM samples the thread; in
 * the handler libgcc's unwinder (_Unwind_Backtrace, which reads .eh_frame
 * as perf's --call-graph dwarf does) walks out of the interrupted code.
 * Every sample taken inside a kernel must reach the calling loop: a kernel
 * without CFI, or with a wrong rule anywhere (a push not described, a
 * run-time frame size), stops the walk or sends it astray.
 */
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <alloca.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include <gtest/gtest.h>

#include "lanes/lanes.h"
#include "lanes/lanes52.h"
#include "radix52/radix52.h"
#include "testutil.h"

#if BIGMONT_HAVE_ASM && defined(__x86_64__)

namespace {

using bt::chunk;

constexpr int kSamplesWanted = 12;
constexpr double kMaxSecondsPerCase = 3.0;

/* What the handler found, per case; only the handler writes during a run. */
std::atomic<int> g_in_kernel{ 0 };
std::atomic<int> g_reached{ 0 };
void *volatile g_loop = nullptr;	/* run_calls' first byte */
void *volatile g_wrapper = nullptr;	/* call_kernel's first byte */
volatile sig_atomic_t g_running = 0;	/* inside run_calls' loop */
char g_case[96];			/* the case, for the crash message */

/* A rule that sends the unwinder to a wild address crashes it: say where. */
void on_crash(int)
{
	static const char msg[] = "\ntest_asm_unwind: crashed unwinding out of ";
	ssize_t ignored = write(2, msg, sizeof msg - 1);
	ignored = write(2, g_case, strlen(g_case));
	ignored = write(2, "\n", 1);
	(void)ignored;
	_exit(1);
}

struct Walk {
	bool reached;
	int frames;
};

_Unwind_Reason_Code walk_frame(struct _Unwind_Context *ctx, void *arg)
{
	Walk *w = static_cast<Walk *>(arg);
	uintptr_t ip = _Unwind_GetIP(ctx);
	if (ip == 0 || ++w->frames > 64)
		return _URC_END_OF_STACK;
	if (_Unwind_FindEnclosingFunction(reinterpret_cast<void *>(ip)) == g_loop) {
		w->reached = true;
		return _URC_END_OF_STACK;
	}
	return _URC_NO_REASON;
}

void *enclosing(void *pc)
{
	/* +1: the lookup is for pc - 1, as for a return address */
	return _Unwind_FindEnclosingFunction(static_cast<char *>(pc) + 1);
}

void on_sample(int, siginfo_t *, void *uc_void)
{
	const ucontext_t *uc = static_cast<const ucontext_t *>(uc_void);
	void *fn = enclosing(reinterpret_cast<void *>(uc->uc_mcontext.gregs[REG_RIP]));
	if (!g_running || fn == g_loop || fn == g_wrapper)
		return; /* not inside a kernel (fn is null in code without an FDE) */
	Walk w = { false, 0 };
	_Unwind_Backtrace(walk_frame, &w);
	g_in_kernel.fetch_add(1, std::memory_order_relaxed);
	if (w.reached)
		g_reached.fetch_add(1, std::memory_order_relaxed);
}

double now()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One variant's kernels. */
struct Kernels {
	const char *variant;
	big_mont_mul_vec_fn *mont_mul;
	big_mont_sqr_vec_fn *mont_sqr;
	big_mul_row_fn *mul_add, *mul_set;
	big_mul_vec_fn *mul;
	big_sqr_vec_fn *sqr;
	big_mont_sqr_select_fn *sqr_select; /* null: not in this variant */
};

/* The chunk kernels' operations (MONT_MUL .. SQR_SELECT), then the
 * radix-2^52 ones. */
enum Op { MONT_MUL, MONT_SQR, MUL_ADD, MUL_SET, MUL, SQR, SQR_SELECT, R52_MUL20_AMD,
	  R52_SQR20_AMD, R52_MUL20_INTEL, R52_SQR20_INTEL, R52_WIPE20, R52_STACK_WIPE, LANES_MUL,
	  LANES_SQR, LANES_WIPE, LANES52_SQR20, OP_COUNT };
const char *const kOpNames[OP_COUNT] = { "mont_mul_vec", "mont_sqr_vec", "mul_add_vec",
					 "mul_set_vec", "mul_vec", "sqr_vec",
					 "mont_sqr_select_vec", "r52_dual_mul20_amd",
					 "r52_dual_sqr20_amd", "r52_dual_mul20_intel",
					 "r52_dual_sqr20_intel", "r52_dual20_wipe",
					 "r52_stack_wipe", "lanes_mul_nasm", "lanes_sqr_nasm",
					 "lanes_wipe", "lanes52_sqr20_nasm" };
constexpr int kSelectEntries = 32;

/* One kernel and length. */
struct Case {
	const Kernels *k;
	Op op;
	int len;
	const chunk *a, *b, *n;
	chunk n0;
	const chunk *table; /* kSelectEntries entries of len chunks */
	chunk *sel;
	const big_r52_dual_mod *r52_mod; /* the radix-2^52 kernels' modulus */
	const big_lanes_mod *lanes_mod = nullptr; /* the lane kernels' moduli */
	const big_lanes52_mod *lanes52_mod = nullptr; /* the IFMA lane squaring's */
};

/* The caller of every kernel.  It keeps a frame of run-time size, so its
 * CFA is rbp-based: unwinding through it needs the rbp the kernel saved,
 * which a kernel that uses rbp as a data register must describe (a missing
 * rule for it would leave the walk with the kernel's value of rbp). */
__attribute__((noinline)) void call_kernel(const Case &c, chunk *r)
{
	volatile char *frame = static_cast<volatile char *>(alloca(c.len + 16));
	frame[0] = 0;
	switch (c.op) {
	case MONT_MUL: c.k->mont_mul(r, c.a, c.b, c.n, c.n0, c.len); break;
	case MONT_SQR: c.k->mont_sqr(r, c.a, c.n, c.n0, c.len); break;
	case MUL_ADD: c.k->mul_add(r, c.a, c.len, c.b[0]); break;
	case MUL_SET: c.k->mul_set(r, c.a, c.len, c.b[0]); break;
	case MUL: c.k->mul(r, c.a, c.len, c.b, c.len); break;
	case SQR_SELECT:
		c.k->sqr_select(r, c.a, c.n, c.n0, c.len, c.sel, c.table, kSelectEntries, 5);
		break;
	case R52_MUL20_AMD: big_r52_dual_mul20_ifma_amd(r, c.a, c.b, c.r52_mod); break;
	case R52_SQR20_AMD: big_r52_dual_sqr20_ifma_amd(r, c.a, c.r52_mod); break;
	case R52_MUL20_INTEL: big_r52_dual_mul20_ifma_intel(r, c.a, c.b, c.r52_mod); break;
	case R52_SQR20_INTEL: big_r52_dual_sqr20_ifma_intel(r, c.a, c.r52_mod); break;
	case R52_WIPE20: big_r52_dual20_ifma_wipe(); break;
	case R52_STACK_WIPE: big_r52_stack_wipe_ifma(4096); break;
	case LANES_MUL:
		big_lanes_mul_avx2_asm(reinterpret_cast<uint64_t *>(r),
					 reinterpret_cast<const uint64_t *>(c.a),
					 reinterpret_cast<const uint64_t *>(c.b), c.lanes_mod);
		break;
	case LANES_SQR:
		big_lanes_sqr_avx2_asm(reinterpret_cast<uint64_t *>(r),
					 reinterpret_cast<const uint64_t *>(c.a), c.lanes_mod);
		break;
	case LANES_WIPE: big_lanes_avx2_wipe(); break;
	case LANES52_SQR20:
		big_lanes52_sqr20_ifma_asm(reinterpret_cast<uint64_t *>(r),
					   reinterpret_cast<const uint64_t *>(c.a), c.lanes52_mod);
		break;
	default: c.k->sqr(r, c.a, c.len); break;
	}
	frame[1] = 0;
}

/* The frame every sample must unwind to. */
__attribute__((noinline)) void run_calls(const Case &c, chunk *r, int calls)
{
	g_running = 1;
	for (int i = 0; i < calls; i++) {
		call_kernel(c, r);
		__asm__ volatile("" ::: "memory");
	}
	g_running = 0;
}

/* SIGALRM every usec microseconds (0: off).  A real-time timer, because
 * Linux fires CPU-time timers (ITIMER_PROF) on the scheduler tick only,
 * 4 ms at HZ=250: twelve samples took a case 50 ms, where the hrtimer
 * behind ITIMER_REAL gives them in a few.  A signal due while the thread
 * waits for a core arrives where it was preempted, in its own code too. */
int set_profiling_tick(long usec)
{
	itimerval t;
	memset(&t, 0, sizeof t);
	t.it_interval.tv_usec = usec;
	t.it_value.tv_usec = usec;
	return setitimer(ITIMER_REAL, &t, nullptr);
}

class AsmUnwind : public ::testing::Test {
protected:
	void SetUp() override
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_sample;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		ASSERT_EQ(0, sigaction(SIGALRM, &sa, &old_));
		signal(SIGSEGV, on_crash);
		signal(SIGBUS, on_crash);
		g_loop = enclosing(reinterpret_cast<void *>(&run_calls));
		g_wrapper = enclosing(reinterpret_cast<void *>(&call_kernel));
		ASSERT_EQ(reinterpret_cast<void *>(&run_calls), g_loop)
			<< "the test's own loop has no FDE (built without unwind tables?)";
		ASSERT_EQ(reinterpret_cast<void *>(&call_kernel), g_wrapper);
	}
	void TearDown() override
	{
		set_profiling_tick(0);
		sigaction(SIGALRM, &old_, nullptr);
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
	}
	struct sigaction old_;
};

/* Samples c until kSamplesWanted samples landed inside a kernel (or the
 * time runs out) and checks that each of them unwound to run_calls. */
void sample_case(const Case &c)
{
	std::vector<chunk> r(4 * c.len + 8);
	snprintf(g_case, sizeof g_case, "big_%s_%s len %d", kOpNames[c.op], c.k->variant,
		 c.len);
	g_in_kernel = 0;
	g_reached = 0;
	ASSERT_EQ(0, set_profiling_tick(200));
	double t0 = now();
	while (g_in_kernel.load() < kSamplesWanted && now() - t0 < kMaxSecondsPerCase)
		run_calls(c, r.data(), 1000);
	set_profiling_tick(0);
	EXPECT_GE(g_in_kernel.load(), kSamplesWanted)
		<< g_case << ": too few samples inside the kernel";
	EXPECT_EQ(g_in_kernel.load(), g_reached.load())
		<< g_case << ": " << g_in_kernel.load() - g_reached.load()
		<< " of " << g_in_kernel.load()
		<< " samples inside the kernel did not unwind to its caller";
}

struct Operands {
	std::vector<chunk> a, b, n, table, sel;
	chunk n0;
};

Operands operands(int len)
{
	bt::Rng rng(0x756e77696e64ULL); /* "unwind" */
	Operands o;
	o.a.resize(len);
	o.b.resize(len);
	o.n.resize(len);
	for (int i = 0; i < len; i++) {
		o.n[i] = rng.next();
		o.a[i] = rng.next();
		o.b[i] = rng.next();
	}
	o.n[0] |= 1;
	o.n[len - 1] |= (chunk)1 << 63;
	o.a[len - 1] >>= 1; /* a, b < n */
	o.b[len - 1] >>= 1;
	o.n0 = big_n0(o.n[0]);
	o.table.resize(static_cast<size_t>(kSelectEntries * len));
	for (chunk &w : o.table)
		w = rng.next();
	o.sel.resize(len);
	return o;
}

/* Every length that picks a different path in some kernel: the fallbacks
 * below 6 chunks, the unrolled Montgomery lengths, the loops' entries. */
const int kLengths[] = { 1, 2, 5, 6, 7, 8, 9, 12, 16, 17, 24, 32, 40, 48, 64 };

TEST_F(AsmUnwind, EveryKernelUnwindsToItsCaller)
{
	/* Every assembly variant's kernels (BIG_CPU_VARIANTS), each set once
	 * (ifma's are adx's); adx's squaring with the table read where the
	 * CPU has AVX2 too, and its AVX-512VL entry where it has that. */
	struct Row {
		Kernels k;
		big_cpu_variant needs;
	};
#define KERNELS_ROW(arg, V, name, sfx, here)                                            \
	BIG_IF(here, { { #sfx, big_mont_mul_vec_##sfx, big_mont_sqr_vec_##sfx,          \
			 big_mul_add_vec_##sfx, big_mul_set_vec_##sfx, big_mul_vec_##sfx, \
			 big_sqr_vec_##sfx, nullptr }, BIG_CPU_##V },)
	const Row rows[] = { BIG_CPU_VARIANTS(KERNELS_ROW, ) };
#undef KERNELS_ROW
	std::vector<Kernels> ks;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const Row &row = rows[i];
		if (row.needs == BIG_CPU_C || (i > 0 && rows[i - 1].k.mont_mul == row.k.mont_mul))
			continue;
		if (row.needs > big_cpu_best()) {
			printf("CPU without the %s variant: its kernels are not sampled\n", row.k.variant);
			continue;
		}
		ks.push_back(row.k);
		if (row.needs == BIG_CPU_ADX && big_ct_select_uses_avx2()) {
			ks.back().sqr_select = big_mont_sqr_select_vec_adx;
			/* The AVX-512VL read's entry, the same body: its kernels
			 * again with it. */
			if (big_ct_select_can_vl()) {
				ks.push_back(ks.back());
				ks.back().sqr_select = big_mont_sqr_select_vec_adx_vl;
			}
		}
	}
	for (const Kernels &k : ks)
		for (int len : kLengths) {
			Operands o = operands(len);
			for (int op = MONT_MUL; op <= SQR_SELECT; op++)
				if (op != SQR_SELECT || k.sqr_select != nullptr)
					sample_case({ &k, static_cast<Op>(op), len, o.a.data(),
						      o.b.data(), o.n.data(), o.n0, o.table.data(),
						      o.sel.data(), nullptr });
		}
}

/* The radix-2^52 kernels: the 20-digit product and squaring on a modulus
 * of random digits and operands below it, the wipe of their frame, and
 * the C kernels' stack wipe. */
TEST_F(AsmUnwind, Radix52KernelsUnwindToTheirCaller)
{
	if (!big_r52_cpu_has_ifma())
		GTEST_SKIP() << "skipped: no AVX-512 IFMA";
	constexpr int k = 20;
	bt::Rng rng(0x723532);
	static big_r52_dual_mod mod;
	std::memset(&mod, 0, sizeof mod);
	mod.digits = k;
	mod.halves = 2;
	std::vector<chunk> a(static_cast<size_t>(BIG_R52_PAIR_WORDS(k)), 0);
	for (int h = 0; h < 2; h++) {
		for (int j = 0; j < k; j++) {
			mod.m[BIG_R52_AT(h, j)] = rng.next() & BIG_R52_DIGIT_MASK;
			a[BIG_R52_AT(h, j)] = rng.next() & BIG_R52_DIGIT_MASK;
		}
		mod.m[BIG_R52_AT(h, 0)] |= 1;
		mod.m[BIG_R52_AT(h, k - 1)] = UINT64_C(1) << 48; /* a below m */
		a[BIG_R52_AT(h, k - 1)] = 1;
		mod.k0[h] = big_n0(mod.m[BIG_R52_AT(h, 0)]) & BIG_R52_DIGIT_MASK;
	}
	big_r52_dual_mod_prepare(&mod);
	const Kernels ifma = { "ifma", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
			       nullptr };
	for (Op op : { R52_MUL20_AMD, R52_SQR20_AMD, R52_MUL20_INTEL, R52_SQR20_INTEL, R52_WIPE20,
		       R52_STACK_WIPE })
		sample_case({ &ifma, op, k, a.data(), a.data(), nullptr, 0, nullptr, nullptr, &mod });
}

/* sample_case's len for lane numbers of k digits: its 4 len + 8 chunks of
 * 64 bits hold the 8 k words of r. */
int lane_len(int k)
{
	return BIG_LANES * k / 4 + 1;
}

/* Random moduli of k digits of `bits` bits in every lane of mod (the top
 * digit 2^(bits - 4)), and the operand it returns below them (top digit
 * 1), for the lane kernels' cases. */
template <class Mod>
std::vector<chunk> lane_operands(bt::Rng &rng, Mod &mod, int k, int bits,
				 uint64_t (*k0_of)(uint64_t))
{
	std::memset(&mod, 0, sizeof mod);
	mod.digits = k;
	const uint64_t mask = (UINT64_C(1) << bits) - 1;
	std::vector<chunk> a(static_cast<size_t>(BIG_LANES_WORDS(k)), 0);
	uint64_t *x = reinterpret_cast<uint64_t *>(a.data());
	for (int l = 0; l < BIG_LANES; l++) {
		for (int j = 0; j < k; j++) {
			mod.m[BIG_LANES_AT(j, l)] = rng.next() & mask;
			x[BIG_LANES_AT(j, l)] = rng.next() & mask;
		}
		mod.m[BIG_LANES_AT(0, l)] |= 1;
		mod.m[BIG_LANES_AT(k - 1, l)] = UINT64_C(1) << (bits - 4); /* a below m */
		x[BIG_LANES_AT(k - 1, l)] = 1;
		mod.k0[l] = k0_of(mod.m[BIG_LANES_AT(0, l)]);
	}
	return a;
}

/* The AVX2 lane kernels at 19, 37 and 55 digits (lanes.h), through
 * big_lanes_{mul,sqr}_avx2_asm: random moduli and operands below them in
 * every lane; and the wipe of their frames.  (Samples inside the C switch before the kernel unwind too.) */
TEST_F(AsmUnwind, LaneKernelsUnwindToTheirCaller)
{
	if (!big_lanes_cpu_has_avx2())
		GTEST_SKIP() << "skipped: no AVX2";
	bt::Rng rng(0x6c616e6573);
	static big_lanes_mod mod;
	for (int k : { 19, 37, 55 }) {
		const int len = lane_len(k);
		std::vector<chunk> a = lane_operands(rng, mod, k, BIG_LANES_DIGIT_BITS, big_lanes_k0);
		const Kernels avx2 = { "avx2", nullptr, nullptr, nullptr, nullptr,
				       nullptr, nullptr, nullptr };
		for (Op op : { LANES_MUL, LANES_SQR, LANES_WIPE }) {
			Case c{ &avx2, op, len, a.data(), a.data(), nullptr, 0, nullptr, nullptr,
				nullptr };
			c.lanes_mod = &mod;
			sample_case(c);
		}
	}
}

/* The IFMA lane squaring at 20 digits (lanes52.h): random moduli and
 * operands below them in every lane. */
TEST_F(AsmUnwind, Lanes52SquaringUnwindsToItsCaller)
{
	if (!big_lanes52_cpu_has_ifma())
		GTEST_SKIP() << "skipped: no AVX-512 IFMA";
	bt::Rng rng(0x6c616e3532);
	static big_lanes52_mod mod;
	const int k = 20, len = lane_len(k);
	std::vector<chunk> a = lane_operands(rng, mod, k, BIG_LANES52_DIGIT_BITS, big_lanes52_k0);
	const Kernels ifma = { "ifma", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
			       nullptr };
	Case c{ &ifma, LANES52_SQR20, len, a.data(), a.data(), nullptr, 0, nullptr, nullptr,
		nullptr };
	c.lanes52_mod = &mod;
	sample_case(c);
}

} // namespace

#else
TEST(AsmUnwind, NoAssemblyInThisBuild)
{
	GTEST_SKIP() << "no assembly kernels in this build";
}
#endif
