#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* One line, whatever a file name or a value in it holds: control bytes
 * (a newline, an escape sequence) are written as \xNN, and a message is
 * cut at 8 KiB (two paths fit; an environment variable may hold megabytes). */
void cli_error(const char *fmt, ...)
{
	char msg[8192];
	va_list ap;
	va_start(ap, fmt);
	const int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs("bigmont: error: ", stderr);
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	}
	fputs(n >= (int)sizeof(msg) ? " [...]\n" : "\n", stderr);
}

/* Why BIGMONT_CPU=want falls back to `runs` here. */
static const char *cpu_env_reason(const char *want, const char *runs)
{
	if (!big_have_asm())
		return "this build has no assembly kernels";
	if (strcmp(want, "ifma") == 0 && strcmp(runs, "adx") == 0)
		return "this CPU lacks AVX-512 F/VL/IFMA/DQ/BW, or the OS does not save its state";
	return "this CPU lacks BMI2/ADX";
}

/* BIGMONT_BATCH: one of the lane builds' names, or unset or empty. */
static int batch_env_known(void)
{
	const char *want = getenv("BIGMONT_BATCH");
	if (want == NULL || *want == '\0' || big_crt_batch_forced() != NULL)
		return 1;
	cli_error("BIGMONT_BATCH='%s' is not one of c, avx2, fma, avx512, fma512, ifma", want);
	return 0;
}

int cli_check_batch_env(void)
{
	const char *want = big_crt_batch_forced();
	const char *runs = big_crt_batch_kernel();
	if (want == NULL || strcmp(want, runs) == 0)
		return 0;
	const char *needs = !strcmp(want, "ifma")     ? "AVX-512 IFMA"
			    : !strcmp(want, "avx512") ? "AVX-512F"
			    : !strcmp(want, "fma512") ? "AVX-512F"
			    : !strcmp(want, "fma")    ? "AVX2 and FMA"
						      : "AVX2";
	char instead[64];
	if (strcmp(runs, "none") == 0)
		snprintf(instead, sizeof instead, "operations would run one by one");
	else
		snprintf(instead, sizeof instead, "the batch would take '%s'", runs);
	if (!big_have_asm())
		cli_error("BIGMONT_BATCH=%s is not available here (this build has no "
			  "assembly kernels); %s", want, instead);
	else
		cli_error("BIGMONT_BATCH=%s is not available here (this CPU lacks %s, or the OS "
			  "does not save its state); %s", want, needs, instead);
	return -1;
}

/* What the command needs of its stack: a private-key operation's
 * RSA_STACK_BYTES, and as much again for the command's own frames, the C
 * library's and the arguments and environment the stack also holds (64
 * KiB ran every command and key size; 40 KiB crashed). */
#define CLI_STACK_NEED (2 * RSA_STACK_BYTES)

static int stack_enough(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= CLI_STACK_NEED)
		return 1;
	cli_error("the stack limit is %llu KiB (ulimit -s); bigmont needs at least %d KiB "
		  "(a private-key operation takes up to %d KiB of it)",
		  (unsigned long long)rl.rlim_cur / 1024, CLI_STACK_NEED / 1024,
		  RSA_STACK_BYTES / 1024);
	return 0;
}

/* The library reads BIGMONT_CPU and BIGMONT_TUNE from /proc/self/environ
 * as it loads (bignum/dispatch.c: before the C library's environment is
 * set up), and without that file binds as if they were unset. */
static int library_sees(const char *name)
{
	const char *v = getenv(name);
	if (v == NULL || *v == '\0')
		return 1;
	int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	cli_error("%s is set, but the library reads it from /proc/self/environ, which cannot "
		  "be read here (%s): unset it, or run where /proc is mounted", name,
		  strerror(errno));
	return 0;
}

int cli_check_environment(void)
{
	if (!stack_enough() || !library_sees("BIGMONT_CPU") || !library_sees("BIGMONT_TUNE"))
		return -1;
	char why[512];
	if (big_tune_env_check(why, sizeof why) != 0) {
		cli_error("BIGMONT_TUNE: %s", why);
		return -1;
	}
	if (!batch_env_known())
		return -1;
	const char *want = getenv("BIGMONT_CPU");
	if (want == NULL || *want == '\0')
		return 0;
	if (strcmp(want, "c") && strcmp(want, "baseline") && strcmp(want, "adx") &&
	    strcmp(want, "ifma")) {
		cli_error("BIGMONT_CPU='%s' is not one of c, baseline, adx, ifma", want);
		return -1;
	}
	const char *runs = big_cpu_variant_name();
	if (strcmp(want, runs) != 0) {
		cli_error("BIGMONT_CPU=%s is not available here (%s); the best is '%s'",
			  want, cpu_env_reason(want, runs), runs);
		return -1;
	}
	return 0;
}

int cli_help_asked(int argc, char **argv, const char *const *valued, size_t n_valued)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
		for (size_t k = 0; k < n_valued; k++)
			if (!strcmp(argv[i], valued[k])) {
				i++;
				break;
			}
	}
	return 0;
}

int cli_option_value(const char *name, int argc, char **argv, int *i, const char **value)
{
	size_t nl = strlen(name);
	const char *arg = argv[*i];
	if (strncmp(arg, name, nl) != 0)
		return 0;
	if (arg[nl] == '=') {
		*value = arg + nl + 1;
		return 1;
	}
	if (arg[nl] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		*value = NULL;
		return 1;
	}
	*value = argv[++*i];
	return 1;
}
