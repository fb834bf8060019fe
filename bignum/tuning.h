/*
 * The tuning table: for each CPU model, the kernel sub-choices the
 * dispatch binds there (bignum/dispatch.c), in one place, as GMP keeps
 * its gmp-mparam.h.  Every choice has a default (0); a row binds the
 * other side on one model, and only where a committed `bigmont speed
 * --kernels` run on that model (results/<cpu>/...-kernels.txt) shows it
 * faster.  A model the table does not name takes each choice that a
 * majority of the named models of its vendor and family bind, where two
 * or more are named, else the default (big_tune_binds).  Each row names
 * those figures, the winner's and the loser's, as that file prints them
 * in core cycles; tests/test_tuning.cpp reads the files and fails if a
 * figure is not there or the winner is not the faster.  `bigmont speed
 * --kernels` prints both sides of each choice on a CPU that runs them,
 * runs alternating (kara16/rows16 at 16 chunks; radix64/paired pow at
 * 8 and 16 chunks; radix64/zmm pow at 24 and 32; ymm/pairs mul and sqr
 * at 10, 30 and 40 digits; the amd/intel rows at 20; the lane kernels'
 * intrin/asm rows at 19, 37, 55, 74 digits; the IFMA lanes' nasm/c sqr
 * and nasm/scan pow at 20): a row for a new model
 * cites those.  Why each choice
 * exists and what it trades: docs/design-notes.md ("The tuning table").
 *
 * The choices (each 0, the default, or 1):
 *   MONT_MUL16_KARATSUBA   the adx Montgomery product at 16 chunks by one
 *                          level of Karatsuba (asm/x86_64/mont_mul16_adx.inc,
 *                          464 mulx) rather than by rows (256 + 16 + 256);
 *   R52_MUL_PAIRS10        the IFMA dual product at 10 digits (RSA-1024's
 *                          halves) on zmm pair groups (asm/x86_64/
 *                          r52_dual_mul10_ifma.asm; r52_mul_pairs in the
 *                          emulated build), and every squaring there by
 *                          that product, rather than the fixed window on
 *                          the ymm halves (bignum/radix52/dual_fixed_impl.h)
 *                          and its dedicated squaring;
 *   R52_MUL_PAIRS30        the IFMA dual product and squaring at 30
 *                          digits on zmm pair groups (r52_mul_pairs,
 *                          r52_sqr_pairs, bignum/radix52/dual_ifma.c)
 *                          rather than on the ymm halves; the
 *                          exponentiation then squares by the pair
 *                          squaring;
 *   R52_MUL_PAIRS40        the same at 40 digits;
 *   R52_POW_SQR30_DEDICATED the IFMA exponentiation squares at 30 digits
 *                          by the dedicated squaring rather than by the
 *                          product;
 *   R52_KERNELS20_INTEL    the 20-digit NASM kernels in their intel tuning
 *                          rather than the amd one (asm/x86_64/
 *                          r52_dual20.inc);
 *   LANES37_ASM            the AVX2 lane product and squaring at 37 digits
 *                          (RSA-2048's halves) by the NASM kernels
 *                          (asm/x86_64/lanes_{mul,sqr}37_avx2.asm) rather
 *                          than the intrinsics (bignum/lanes/lanes_avx2.c);
 *   LANES19_ASM, LANES55_ASM, LANES74_ASM  the same at 19, 55 and 74
 *                          digits (RSA-1024, 3072 and 4096's halves);
 *   LANES52_SQR20_ASM      the IFMA lane squaring and product at 20 digits
 *                          (RSA-2048's halves) by the NASM kernels
 *                          (asm/x86_64/lanes52_sqr20_ifma.asm,
 *                          lanes52_mul20_ifma.asm), the lane
 *                          exponentiation there reading each window's
 *                          entry ahead of its squarings, rather than the
 *                          C squaring with the read in slices within it
 *                          (bignum/lanes/lanes52_impl.h);
 *   VERTICAL               big_modexp_crt's two exponentiations at 24- and
 *                          32-chunk primes (RSA-3072, 4096) in the adx
 *                          variant on an AVX2 CPU by the vertical dual
 *                          exponentiation (bignum/vertical/) rather than
 *                          by two big_mont_pow_ct;
 *   VERTICAL_ZMM           big_modexp_crt's two exponentiations at 24- and
 *                          32-chunk primes in the adx variant on a CPU with
 *                          AVX-512F by the vertical layer's zmm kernels
 *                          (bignum/vertical/dual_avx512.c: both halves in
 *                          one zmm) rather than by the path VERTICAL
 *                          picks (two big_mont_pow_ct, or the ymm kernels);
 *   CRT_PAIRED8            big_modexp_crt's two radix-2^64 exponentiations
 *                          at 8-chunk primes (RSA-1024) side by side, each
 *                          kernel call of one followed by the same call of
 *                          the other (big_crt_exp_mod_primes), rather than
 *                          one after the other;
 *   SELECT_VL              the constant-time table reads in AVX-512VL on
 *                          ymm (an opmask compare, vpblendmq) rather than
 *                          in AVX2 (vblendvpd): big_ct_select's build
 *                          (bignum/ct_select.c) and the adx squaring with
 *                          the read at 8 chunks, RSA-1024's window
 *                          exponentiations (asm/x86_64/
 *                          mont_sqr_select_vec_adx.asm).
 * Every side of every choice gives the same words (LANES52_SQR20_ASM:
 * the same values, and the same words where the C takes its register
 * window, as it does outside the sanitizer builds) and runs on every CPU
 * that runs the variant (adx; ifma for the R52 ones and
 * LANES52_SQR20_ASM; AVX2 for the LANES and VERTICAL ones; AVX512F and
 * AVX512VL for SELECT_VL, which a CPU without them ignores; every
 * variant's radix-2^64 CRT for CRT_PAIRED8, measured in adx; AVX-512F for
 * VERTICAL_ZMM, which a CPU without it ignores).  BIGMONT_TUNE
 * overrides the table, for tests and measurements: a comma-separated list
 * of choice=0 or choice=1, e.g. BIGMONT_TUNE=r52_mul_pairs30=1,
 * r52_kernels20_intel=0 (names in either case).
 *
 * BIG_TUNING_TABLE(X) calls, for each row,
 *   X(VENDOR, family, model, CHOICE, dir, win_file, win_row, column,
 *     win_cycles, lose_file, lose_row, lose_cycles)
 * VENDOR AMD or INTEL (cpuid leaf 0); family and model as the reports
 * print them (cpuid leaf 1, extended fields added); the figures from
 * results/<dir>/<file>: the least, over the file's runs, of the lines of
 * the row named (its first two words) that give core cycles, at the
 * column of that size (chunks or digits).
 */
#ifndef BIGMONT_TUNING_H
#define BIGMONT_TUNING_H

/* The longest BIGMONT_TUNE dispatch.c reads (a longer one is ignored
 * whole; big_tune_env_check says so). */
#define BIG_TUNE_ENV_MAX 255

/* BIGMONT_TUNE's grammar, once for dispatch.c, which reads it, and
 * tune_env.c, which checks its spelling.  No libc and lengths passed:
 * the ifunc resolvers run before relocation. */
/* 1 if name[0..name_len) equals s[0..len), ignoring ASCII case. */
static inline int big_tune_same_name(const char *name, int name_len, const char *s, int len)
{
	if (name_len != len)
		return 0;
	for (int k = 0; k < len; k++) {
		char x = name[k], y = s[k];
		x = x >= 'A' && x <= 'Z' ? (char)(x + 32) : x;
		y = y >= 'A' && y <= 'Z' ? (char)(y + 32) : y;
		if (x != y)
			return 0;
	}
	return 1;
}
/* What one comma-separated item[0..len) sets choice[0..choice_len) to: 0
 * or 1 where it is CHOICE=0 or CHOICE=1 (any case), else -1. */
static inline int big_tune_item(const char *item, int len, const char *choice, int choice_len)
{
	if (len < 3 || item[len - 2] != '=' || (item[len - 1] != '0' && item[len - 1] != '1') ||
	    !big_tune_same_name(choice, choice_len, item, len - 2))
		return -1;
	return item[len - 1] - '0';
}

/* The vendors the table's rows name (cpuid leaf 0's string). */
enum big_tune_vendor { BIG_TUNE_OTHER, BIG_TUNE_AMD, BIG_TUNE_INTEL };

#define BIG_TUNING_CHOICES(X)                                                 \
	X(MONT_MUL16_KARATSUBA)                                               \
	X(R52_MUL_PAIRS10)                                                    \
	X(R52_MUL_PAIRS30)                                                    \
	X(R52_MUL_PAIRS40)                                                    \
	X(R52_POW_SQR30_DEDICATED)                                            \
	X(R52_KERNELS20_INTEL)                                                \
	X(LANES19_ASM)                                                        \
	X(LANES37_ASM)                                                        \
	X(LANES55_ASM)                                                        \
	X(LANES74_ASM)                                                        \
	X(LANES52_SQR20_ASM)                                                  \
	X(VERTICAL)                                                           \
	X(SELECT_VL)                                                          \
	X(CRT_PAIRED8)                                                        \
	X(VERTICAL_ZMM)

#define BIG_TUNING_TABLE(X)                                                   \
	/* Zen 3: Karatsuba 760 against the rows' 792, the least of 7 runs   \
	 * (each run has it ahead). */                                        \
	X(AMD, 25, 1, MONT_MUL16_KARATSUBA, "amd-epyc-family25-model1",       \
	  "2026-11-28-2102-kernels.txt", "kara16 mul", 16, 760,               \
	  "2026-11-28-2102-kernels.txt", "rows16 mul", 792)                   \
	/* Zen 3: the NASM lane kernels (short encodings, 2b27a5c) at 37     \
	 * digits, 3942 against the intrinsics' 4279 (mul) and 3055 against  \
	 * 3534 (sqr); at 19, 1189 against 1375 and 979 against 1213; at 55, \
	 * 8514 against 8869 and 6509 against 7071: the least of 3 runs,   \
	 * the sides alternating, each run has them ahead. */               \
	X(AMD, 25, 1, LANES37_ASM, "amd-epyc-family25-model1",                \
	  "2026-11-29-1130-kernels.txt", "asm mul", 37, 3942,                 \
	  "2026-11-29-1130-kernels.txt", "intrin mul", 4279)                  \
	X(AMD, 25, 1, LANES37_ASM, "amd-epyc-family25-model1",                \
	  "2026-11-29-1130-kernels.txt", "asm sqr", 37, 3055,                 \
	  "2026-11-29-1130-kernels.txt", "intrin sqr", 3534)                  \
	X(AMD, 25, 1, LANES19_ASM, "amd-epyc-family25-model1",                \
	  "2026-11-29-1130-kernels.txt", "asm mul", 19, 1189,                 \
	  "2026-11-29-1130-kernels.txt", "intrin mul", 1375)                  \
	X(AMD, 25, 1, LANES19_ASM, "amd-epyc-family25-model1",                \
	  "2026-11-29-1130-kernels.txt", "asm sqr", 19, 979,                  \
	  "2026-11-29-1130-kernels.txt", "intrin sqr", 1213)                  \
	X(AMD, 25, 1, LANES55_ASM, "amd-epyc-family25-model1",                \
	  "2026-11-29-1130-kernels.txt", "asm mul", 55, 8514,                 \
	  "2026-11-29-1130-kernels.txt", "intrin mul", 8869)                  \
	X(AMD, 25, 1, LANES55_ASM, "amd-epyc-family25-model1",                \
	  "2026-11-29-1130-kernels.txt", "asm sqr", 55, 6509,                 \
	  "2026-11-29-1130-kernels.txt", "intrin sqr", 7071)                  \
	/* Zen 3: RSA-4096's halves by the NASM lane kernels at 74 digits,  \
	 * 14884 against the intrinsics' 15352 (mul) and 11251 against      \
	 * 12440 (sqr): the least of 3 runs, the sides alternating, each run \
	 * has them ahead. */                                                 \
	X(AMD, 25, 1, LANES74_ASM, "amd-epyc-family25-model1",                \
	  "2026-11-29-1645-kernels-lanes74.txt", "asm mul", 74, 14884,        \
	  "2026-11-29-1645-kernels-lanes74.txt", "intrin mul", 15352)         \
	X(AMD, 25, 1, LANES74_ASM, "amd-epyc-family25-model1",                \
	  "2026-11-29-1645-kernels-lanes74.txt", "asm sqr", 74, 11251,        \
	  "2026-11-29-1645-kernels-lanes74.txt", "intrin sqr", 12440)         \
	/* Zen 3: the CRT's two exponentiations by the vertical AVX2 layer,   \
	 * 4942072 against two big_mont_pow_ct's 5642396 core cycles at 24    \
	 * chunks a half (0.88) and 10735584 against 12784019 at 32 (0.84):   \
	 * the least of 3 runs, the sides alternating, each run has it ahead. \
	 * At 16 chunks (RSA-2048) the spike measured it 8 % behind           \
	 * (docs/design-notes.md): the layer does not serve that size. */     \
	X(AMD, 25, 1, VERTICAL, "amd-epyc-family25-model1",                   \
	  "2026-11-29-0601-kernels.txt", "vertical pow", 24, 4942072,         \
	  "2026-11-29-0601-kernels.txt", "radix64 pow", 5642396)              \
	X(AMD, 25, 1, VERTICAL, "amd-epyc-family25-model1",                   \
	  "2026-11-29-0601-kernels.txt", "vertical pow", 32, 10735584,        \
	  "2026-11-29-0601-kernels.txt", "radix64 pow", 12784019)             \
	/* Ice Lake server: Karatsuba 743 against the rows' 791 (the run    \
	 * before it); pairs at 30 digits 1385 against the ymm halves' 1650  \
	 * (the shifting-window pair product before bf342b8, which has not   \
	 * run there); at 40 those pairs' 2865 lost to 2486; the             \
	 * intel tuning 589 against 622 (mul), 599 against 671 (sqr). */     \
	X(INTEL, 6, 106, MONT_MUL16_KARATSUBA,                                \
	  "intel-r-xeon-r-processor-2-80ghz-family6-model106",                \
	  "2026-11-28-1116-kernels.txt", "adx mul", 16, 743,                  \
	  "2026-11-28-0610-kernels.txt", "adx mul", 791)                      \
	X(INTEL, 6, 106, R52_MUL_PAIRS30,                                     \
	  "intel-r-xeon-r-processor-2-80ghz-family6-model106",                \
	  "2026-11-28-1116-kernels.txt", "ifma mul", 30, 1385,                \
	  "2026-11-28-0610-kernels.txt", "ifma mul", 1650)                    \
	X(INTEL, 6, 106, R52_KERNELS20_INTEL,                                 \
	  "intel-r-xeon-r-processor-2-80ghz-family6-model106",                \
	  "2026-11-28-0610-kernels.txt", "intel mul", 20, 589,                \
	  "2026-11-28-0610-kernels.txt", "amd mul", 622)                      \
	X(INTEL, 6, 106, R52_KERNELS20_INTEL,                                 \
	  "intel-r-xeon-r-processor-2-80ghz-family6-model106",                \
	  "2026-11-28-0610-kernels.txt", "intel sqr", 20, 599,                \
	  "2026-11-28-0610-kernels.txt", "amd sqr", 671)                      \
	/* Emerald Rapids: the pair-group product 994 against the ymm        \
	 * halves' 1460 at 30 digits and 1522 against 2226 at 40, the least  \
	 * of three runs; the pair squaring, which the exponentiation then   \
	 * squares by, 962 against the dedicated ymm squaring's 1268 at 30   \
	 * (its row, 1257 against the ymm product's 1423 in 2026-11-27-1838, \
	 * is gone) and 1411 against the ymm product's 2226 at 40; the intel \
	 * tuning 442 against 477, 399 against 504. */                       \
	/* Emerald Rapids: the 10-digit NASM pair product 221 against the     \
	 * ymm halves' 261, and the squaring by it 235 against the dedicated  \
	 * ymm squaring's 243, the least of three runs (ahead in each); the   \
	 * dual exponentiation at 10 digits 0.81-0.92 of the ymm halves'      \
	 * (docs/design-notes.md). */                                         \
	X(INTEL, 6, 207, R52_MUL_PAIRS10,                                     \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-1329-kernels-pairs10.txt", "pairs mul", 10, 221,        \
	  "2026-11-30-1329-kernels-pairs10.txt", "ymm mul", 261)              \
	X(INTEL, 6, 207, R52_MUL_PAIRS10,                                     \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-1329-kernels-pairs10.txt", "pairs sqr", 10, 235,        \
	  "2026-11-30-1329-kernels-pairs10.txt", "ymm sqr", 243)              \
	X(INTEL, 6, 207, R52_MUL_PAIRS30,                                     \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-29-2350-kernels-pairs.txt", "pairs mul", 30, 994,          \
	  "2026-11-29-2350-kernels-pairs.txt", "ymm mul", 1460)               \
	X(INTEL, 6, 207, R52_MUL_PAIRS30,                                     \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-29-2350-kernels-pairs.txt", "pairs sqr", 30, 962,          \
	  "2026-11-29-2350-kernels-pairs.txt", "ymm sqr", 1268)               \
	X(INTEL, 6, 207, R52_MUL_PAIRS40,                                     \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-29-2350-kernels-pairs.txt", "pairs mul", 40, 1522,         \
	  "2026-11-29-2350-kernels-pairs.txt", "ymm mul", 2226)               \
	X(INTEL, 6, 207, R52_KERNELS20_INTEL,                                 \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-27-1838-kernels.txt", "intel mul", 20, 442,                \
	  "2026-11-27-1838-kernels.txt", "amd mul", 477)                      \
	X(INTEL, 6, 207, R52_KERNELS20_INTEL,                                 \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-27-1838-kernels.txt", "intel sqr", 20, 399,                \
	  "2026-11-27-1838-kernels.txt", "amd sqr", 504)                      \
	/* Emerald Rapids: Karatsuba 695 against the rows' 712, the least of \
	 * 3 runs (ahead in every run of the model with both rows). */       \
	X(INTEL, 6, 207, MONT_MUL16_KARATSUBA,                                \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-29-2336-kernels-pairs.txt", "kara16 mul", 16, 695,         \
	  "2026-11-29-2336-kernels-pairs.txt", "rows16 mul", 712)             \
	/* Emerald Rapids: the NASM lane kernels, ahead of the intrinsics   \
	 * at every size in every --kernels run on this model (0255: 1242    \
	 * against 1457 at 19 digits ... 16258 against 17168 at 74, mul;     \
	 * 961 against 1184 ... 12127 against 13913, sqr); the AVX2 batch    \
	 * over single adx operations 0.64-0.71 against 0.76-0.85 at         \
	 * RSA-2048 (docs/design-notes.md). */                                \
	X(INTEL, 6, 207, LANES19_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-0255-kernels.txt", "asm mul", 19, 1242,                 \
	  "2026-11-30-0255-kernels.txt", "intrin mul", 1457)                  \
	X(INTEL, 6, 207, LANES19_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-0255-kernels.txt", "asm sqr", 19, 961,                  \
	  "2026-11-30-0255-kernels.txt", "intrin sqr", 1184)                  \
	X(INTEL, 6, 207, LANES37_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-0255-kernels.txt", "asm mul", 37, 4275,                 \
	  "2026-11-30-0255-kernels.txt", "intrin mul", 4701)                  \
	X(INTEL, 6, 207, LANES37_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-0255-kernels.txt", "asm sqr", 37, 3051,                 \
	  "2026-11-30-0255-kernels.txt", "intrin sqr", 3680)                  \
	X(INTEL, 6, 207, LANES55_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-0255-kernels.txt", "asm mul", 55, 9332,                 \
	  "2026-11-30-0255-kernels.txt", "intrin mul", 9919)                  \
	X(INTEL, 6, 207, LANES55_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-0255-kernels.txt", "asm sqr", 55, 6756,                 \
	  "2026-11-30-0255-kernels.txt", "intrin sqr", 7866)                  \
	X(INTEL, 6, 207, LANES74_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-0255-kernels.txt", "asm mul", 74, 16258,                \
	  "2026-11-30-0255-kernels.txt", "intrin mul", 17168)                 \
	X(INTEL, 6, 207, LANES74_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-0255-kernels.txt", "asm sqr", 74, 12127,                \
	  "2026-11-30-0255-kernels.txt", "intrin sqr", 13913)                 \
	/* Emerald Rapids: the window exponentiation with the AVX-512VL       \
	 * reads against the AVX2 ones, the least of three runs: at 8         \
	 * chunks (RSA-1024's halves, the fused squaring) 119114 against      \
	 * 122466 core cycles and at 16 796470 against 803207, ahead in       \
	 * each run; at 24 and 32 ahead in two of three, the least            \
	 * 2500747/2539135 and 5702354/5764963. */                            \
	X(INTEL, 6, 207, SELECT_VL,                                           \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-2055-kernels-select-vl.txt", "vl pow", 8, 119114,       \
	  "2026-11-30-2055-kernels-select-vl.txt", "avx2 pow", 122466)        \
	X(INTEL, 6, 207, SELECT_VL,                                           \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-2055-kernels-select-vl.txt", "vl pow", 16, 796470,      \
	  "2026-11-30-2055-kernels-select-vl.txt", "avx2 pow", 803207)        \
	X(INTEL, 6, 207, SELECT_VL,                                           \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-2055-kernels-select-vl.txt", "vl pow", 24, 2500747,     \
	  "2026-11-30-2055-kernels-select-vl.txt", "avx2 pow", 2539135)       \
	X(INTEL, 6, 207, SELECT_VL,                                           \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-2055-kernels-select-vl.txt", "vl pow", 32, 5702354,     \
	  "2026-11-30-2055-kernels-select-vl.txt", "avx2 pow", 5764963)       \
	/* Emerald Rapids: RSA-1024's two exponentiations side by side,       \
	 * 222265 against one after the other's 239420 core cycles, the       \
	 * least of three runs (0.928-0.933 in each, adx variant).  At 16     \
	 * chunks 0.93-1.01 across the runs, 0.98-1.01 in longer A/Bs: not    \
	 * a choice there. */                                                 \
	X(INTEL, 6, 207, CRT_PAIRED8,                                         \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-2212-kernels-crt-paired.txt", "paired pow", 8, 222265,  \
	  "2026-11-30-2212-kernels-crt-paired.txt", "radix64 pow", 239420)     \
	/* Emerald Rapids: RSA-3072 and 4096's two exponentiations by the     \
	 * vertical layer on zmm, 3952377 against two big_mont_pow_ct's       \
	 * 4915477 core cycles at 24 chunks and 9827028 against 11751899 at   \
	 * 32, the least of three runs (0.80-0.86 in each, adx variant; the   \
	 * ymm layer 0.99-1.08 in the same runs, VERTICAL stays unbound). */  \
	X(INTEL, 6, 207, VERTICAL_ZMM,                                        \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-2305-kernels-vertical-zmm.txt", "zmm pow", 24, 3952377, \
	  "2026-11-30-2305-kernels-vertical-zmm.txt", "radix64 pow", 4915477) \
	X(INTEL, 6, 207, VERTICAL_ZMM,                                        \
	  "intel-r-xeon-r-processor-family6-model207",                        \
	  "2026-11-30-2305-kernels-vertical-zmm.txt", "zmm pow", 32, 9827028, \
	  "2026-11-30-2305-kernels-vertical-zmm.txt", "radix64 pow", 11751899) \
	/* Intel family 6 model 167 (a KVM guest whose caches, 2 MiB L2 a core\
	 * and 480 MiB L3, are a Granite Rapids'): every choice above took the\
	 * side it took on Emerald Rapids in each of three --kernels runs     \
	 * (bench/run's 2026-12-02-0058 and the two of -0100-kernels-tuning,  \
	 * whose least figures these are), from 1.02x (the intel tuning's     \
	 * product at 20 digits) to 1.51x (the pair squaring at 40), except   \
	 * the vertical layer on zmm: two big_mont_pow_ct ahead of it by      \
	 * 1.03-1.09 at 24 and 32 chunks, so VERTICAL_ZMM stays unbound.      \
	 * Model 167 is also Rocket Lake's number (a desktop core, one zmm    \
	 * multiply port), which binds these rows unmeasured. */              \
	X(INTEL, 6, 167, MONT_MUL16_KARATSUBA,                                \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "kara16 mul", 16, 693,        \
	  "2026-12-02-0100-kernels-tuning.txt", "rows16 mul", 724)            \
	X(INTEL, 6, 167, R52_MUL_PAIRS10,                                     \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "pairs mul", 10, 219,         \
	  "2026-12-02-0100-kernels-tuning.txt", "ymm mul", 263)               \
	X(INTEL, 6, 167, R52_MUL_PAIRS10,                                     \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "pairs sqr", 10, 230,         \
	  "2026-12-02-0100-kernels-tuning.txt", "ymm sqr", 244)               \
	X(INTEL, 6, 167, R52_MUL_PAIRS30,                                     \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "pairs mul", 30, 1162,        \
	  "2026-12-02-0100-kernels-tuning.txt", "ymm mul", 1441)              \
	X(INTEL, 6, 167, R52_MUL_PAIRS30,                                     \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "pairs sqr", 30, 918,         \
	  "2026-12-02-0100-kernels-tuning.txt", "ymm sqr", 1260)              \
	X(INTEL, 6, 167, R52_MUL_PAIRS40,                                     \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "pairs mul", 40, 1980,        \
	  "2026-12-02-0100-kernels-tuning.txt", "ymm mul", 2501)              \
	X(INTEL, 6, 167, R52_MUL_PAIRS40,                                     \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "pairs sqr", 40, 1523,        \
	  "2026-12-02-0100-kernels-tuning.txt", "ymm sqr", 2297)              \
	X(INTEL, 6, 167, R52_KERNELS20_INTEL,                                 \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "intel mul", 20, 517,         \
	  "2026-12-02-0100-kernels-tuning.txt", "amd mul", 527)               \
	X(INTEL, 6, 167, R52_KERNELS20_INTEL,                                 \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "intel sqr", 20, 495,         \
	  "2026-12-02-0100-kernels-tuning.txt", "amd sqr", 516)               \
	X(INTEL, 6, 167, LANES19_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "asm mul", 19, 1305,          \
	  "2026-12-02-0100-kernels-tuning.txt", "intrin mul", 1475)           \
	X(INTEL, 6, 167, LANES19_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "asm sqr", 19, 1030,          \
	  "2026-12-02-0100-kernels-tuning.txt", "intrin sqr", 1288)           \
	X(INTEL, 6, 167, LANES37_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "asm mul", 37, 4387,          \
	  "2026-12-02-0100-kernels-tuning.txt", "intrin mul", 4934)           \
	X(INTEL, 6, 167, LANES37_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "asm sqr", 37, 3478,          \
	  "2026-12-02-0100-kernels-tuning.txt", "intrin sqr", 4290)           \
	X(INTEL, 6, 167, LANES55_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "asm mul", 55, 9594,          \
	  "2026-12-02-0100-kernels-tuning.txt", "intrin mul", 10491)          \
	X(INTEL, 6, 167, LANES55_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "asm sqr", 55, 7461,          \
	  "2026-12-02-0100-kernels-tuning.txt", "intrin sqr", 8866)           \
	X(INTEL, 6, 167, LANES74_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "asm mul", 74, 17727,         \
	  "2026-12-02-0100-kernels-tuning.txt", "intrin mul", 18757)          \
	X(INTEL, 6, 167, LANES74_ASM,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "asm sqr", 74, 12795,         \
	  "2026-12-02-0100-kernels-tuning.txt", "intrin sqr", 14874)          \
	/* Model 167: the NASM lane squaring at 20 digits (two rows at a    \
	 * time), 862 against the C's 921, and the exponentiation with it  \
	 * and the read ahead, 1234930 against the C's with the read in    \
	 * slices, 1372278: the least of 3 runs, each run has it ahead. */ \
	X(INTEL, 6, 167, LANES52_SQR20_ASM,                                   \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-1748-kernels-lanes52-sqr20-pairs.txt", "nasm pow", 20,  \
	  1234930,                                                            \
	  "2026-12-02-1748-kernels-lanes52-sqr20-pairs.txt", "scan pow",      \
	  1372278)                                                            \
	X(INTEL, 6, 167, LANES52_SQR20_ASM,                                   \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-1748-kernels-lanes52-sqr20-pairs.txt", "nasm sqr", 20,  \
	  862,                                                                \
	  "2026-12-02-1748-kernels-lanes52-sqr20-pairs.txt", "c sqr", 921)    \
	X(INTEL, 6, 167, SELECT_VL,                                           \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "vl pow", 8, 123482,          \
	  "2026-12-02-0100-kernels-tuning.txt", "avx2 pow", 126630)           \
	X(INTEL, 6, 167, SELECT_VL,                                           \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "vl pow", 16, 828346,         \
	  "2026-12-02-0100-kernels-tuning.txt", "avx2 pow", 854360)           \
	X(INTEL, 6, 167, SELECT_VL,                                           \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "vl pow", 24, 2625790,        \
	  "2026-12-02-0100-kernels-tuning.txt", "avx2 pow", 2667369)          \
	X(INTEL, 6, 167, SELECT_VL,                                           \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "vl pow", 32, 5940088,        \
	  "2026-12-02-0100-kernels-tuning.txt", "avx2 pow", 6155495)          \
	X(INTEL, 6, 167, CRT_PAIRED8,                                         \
	  "intel-r-xeon-r-processor-family6-model167",                        \
	  "2026-12-02-0100-kernels-tuning.txt", "paired pow", 8, 244650,      \
	  "2026-12-02-0100-kernels-tuning.txt", "radix64 pow", 260736)

/* What the table binds on a CPU, for the dispatch and the tests: plain
 * comparisons and no data holding pointers, as the ifunc resolvers need. */

#if defined(__x86_64__)
#include <cpuid.h>
/* This CPU's vendor (cpuid leaf 0) and its family and model as the reports
 * print them (leaf 1 with the extended fields). */
static inline enum big_tune_vendor big_tune_cpu(unsigned *family, unsigned *model)
{
	unsigned a = 0, b = 0, c = 0, d = 0; /* GCC -O1 warns though && guards them */
	*family = *model = 0;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return BIG_TUNE_OTHER;
	/* the vendor string in ebx, edx, ecx */
	const enum big_tune_vendor v =
		b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu   ? BIG_TUNE_INTEL /* GenuineIntel */
		: b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u ? BIG_TUNE_AMD /* AuthenticAMD */
									   : BIG_TUNE_OTHER;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return v;
	const unsigned base_family = (a >> 8) & 0xf, base_model = (a >> 4) & 0xf;
	*family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
	*model = base_family == 0x6 || base_family == 0xf ? base_model | (((a >> 16) & 0xf) << 4)
							  : base_model;
	return v;
}
#endif

/* The index of the table's first row for this model, or -1. */
static inline int big_tune_first_row(enum big_tune_vendor vendor, unsigned family, unsigned model)
{
	int row = 0, first = -1;
#define BIG_TUNE_FIRST(VENDOR, fam, mod, ...)                                              \
	if (first < 0 && vendor == BIG_TUNE_##VENDOR && family == (fam) && model == (mod)) \
		first = row;                                                                \
	row++;
	BIG_TUNING_TABLE(BIG_TUNE_FIRST)
#undef BIG_TUNE_FIRST
	return first;
}

/* 1 if a row binds choice[0..len) on this very model. */
static inline int big_tune_model_binds(enum big_tune_vendor vendor, unsigned family,
				       unsigned model, const char *choice, int len)
{
	int bound = 0;
#define BIG_TUNE_BINDS(VENDOR, fam, mod, CHOICE, ...)                                        \
	if (!bound && vendor == BIG_TUNE_##VENDOR && family == (fam) && model == (mod) &&  \
	    big_tune_same_name(#CHOICE, (int)sizeof(#CHOICE) - 1, choice, len))            \
		bound = 1;
	BIG_TUNING_TABLE(BIG_TUNE_BINDS)
#undef BIG_TUNE_BINDS
	return bound;
}

/* 1 where `binding` of a family's `models` named models bind a choice
 * and that is a majority of at least two: one model's rows are its own,
 * and a tie is no evidence. */
static inline int big_tune_majority(int binding, int models)
{
	return models >= 2 && 2 * binding > models;
}

/* How many models of this vendor and family the table names. */
static inline int big_tune_family_models(enum big_tune_vendor vendor, unsigned family)
{
	int row = 0, models = 0;
#define BIG_TUNE_KIN(VENDOR, fam, mod, ...)                                                      \
	models += vendor == BIG_TUNE_##VENDOR && family == (fam) &&                            \
		  big_tune_first_row(vendor, family, mod) == row;                              \
	row++;
	BIG_TUNING_TABLE(BIG_TUNE_KIN)
#undef BIG_TUNE_KIN
	return models;
}

/* The table's side of choice[0..len) on this CPU: a named model's own
 * rows; on a model it does not name, 1 where a majority of the named
 * models of the same vendor and family, two or more, bind the choice
 * (big_tune_majority).  So a new model of a family measured on several
 * starts from what most of them measured (an Intel server core with
 * IFMA, say, from the pair kernels that won on three), and a family with
 * fewer named models keeps the defaults. */
static inline int big_tune_binds(enum big_tune_vendor vendor, unsigned family, unsigned model,
				 const char *choice, int len)
{
	if (big_tune_first_row(vendor, family, model) >= 0)
		return big_tune_model_binds(vendor, family, model, choice, len);
	int row = 0, binding = 0;
#define BIG_TUNE_KIN_BINDS(VENDOR, fam, mod, ...)                                              \
	if (vendor == BIG_TUNE_##VENDOR && family == (fam) &&                                  \
	    big_tune_first_row(vendor, family, mod) == row)                                    \
		binding += big_tune_model_binds(vendor, family, mod, choice, len);             \
	row++;
	BIG_TUNING_TABLE(BIG_TUNE_KIN_BINDS)
#undef BIG_TUNE_KIN_BINDS
	return big_tune_majority(binding, big_tune_family_models(vendor, family));
}

#endif
