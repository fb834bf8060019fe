/*
 * bench/machine.c -- the report header: what CPU, cores and flags this is,
 * which build and kernel variant runs, and the reference libraries'
 * versions.  Read from /proc/cpuinfo (the kernel's view, which already
 * masks features the OS does not enable) and uname.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "machine.h"

#include <ctype.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bigmont/bignum.h>

#include "impl.h"
#include "internal.h"
#include "ipp.h"
#include "radix52/radix52.h"
#include "tuning.h"
#include "wheel.h"

#ifndef BIGMONT_C_COMPILER
#define BIGMONT_C_COMPILER "unknown"
#endif
#ifndef BIGMONT_C_FLAGS
#define BIGMONT_C_FLAGS ""
#endif

static int has_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(line, word); p; p = strstr(p + 1, word)) {
		int start = p == line || isspace((unsigned char)p[-1]) || p[-1] == ':';
		int end = p[n] == '\0' || isspace((unsigned char)p[n]);
		if (start && end)
			return 1;
	}
	return 0;
}

static void trim_copy(char *dst, size_t cap, const char *src)
{
	while (isspace((unsigned char)*src))
		src++;
	snprintf(dst, cap, "%s", src);
	size_t n = strlen(dst);
	while (n > 0 && isspace((unsigned char)dst[n - 1]))
		dst[--n] = '\0';
}

static void slugify(char *dst, size_t cap, const char *src)
{
	size_t j = 0;
	int dash = 0;
	for (const char *p = src; *p && j + 1 < cap; p++) {
		if (isalnum((unsigned char)*p)) {
			if (dash && j > 0)
				dst[j++] = '-';
			if (j + 1 < cap)
				dst[j++] = (char)tolower((unsigned char)*p);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	dst[j] = '\0';
	if (j == 0)
		snprintf(dst, cap, "unknown-cpu");
}

/* aarch64 CPUs by /proc/cpuinfo's implementer and part (the MIDR fields),
 * as the kernel's and GCC's tables name them: the server cores first. */
static const struct {
	int implementer, part;
	const char *name;
} arm_cpus[] = {
	{ 0x41, 0xd0c, "ARM Neoverse-N1" }, { 0x41, 0xd49, "ARM Neoverse-N2" },
	{ 0x41, 0xd8e, "ARM Neoverse-N3" }, { 0x41, 0xd40, "ARM Neoverse-V1" },
	{ 0x41, 0xd4f, "ARM Neoverse-V2" }, { 0x41, 0xd84, "ARM Neoverse-V3" },
	{ 0x41, 0xd4a, "ARM Neoverse-E1" }, { 0x41, 0xd03, "ARM Cortex-A53" },
	{ 0x41, 0xd05, "ARM Cortex-A55" },  { 0x41, 0xd07, "ARM Cortex-A57" },
	{ 0x41, 0xd08, "ARM Cortex-A72" },  { 0x41, 0xd0b, "ARM Cortex-A76" },
	{ 0x41, 0xd0d, "ARM Cortex-A77" },  { 0x41, 0xd41, "ARM Cortex-A78" },
	{ 0x41, 0xd44, "ARM Cortex-X1" },   { 0x41, 0xd47, "ARM Cortex-A710" },
	{ 0x41, 0xd48, "ARM Cortex-X2" },   { 0x41, 0xd4d, "ARM Cortex-A715" },
	{ 0x41, 0xd4e, "ARM Cortex-X3" },   { 0xc0, 0xac3, "Ampere Ampere-1" },
	{ 0xc0, 0xac4, "Ampere Ampere-1a" }, { 0x48, 0xd01, "HiSilicon TSV110" },
	{ 0x46, 0x001, "Fujitsu A64FX" },   { 0x43, 0x0af, "Cavium ThunderX2" },
	{ 0x50, 0x000, "APM X-Gene" },
};

static const char *arm_implementer_name(int implementer)
{
	switch (implementer) {
	case 0x41: return "ARM";
	case 0x42: return "Broadcom";
	case 0x43: return "Cavium";
	case 0x46: return "Fujitsu";
	case 0x48: return "HiSilicon";
	case 0x4e: return "NVIDIA";
	case 0x50: return "APM";
	case 0x51: return "Qualcomm";
	case 0x61: return "Apple";
	case 0x6d: return "Microsoft";
	case 0xc0: return "Ampere";
	default: return NULL;
	}
}

void bench_arm_cpu_name(char *dst, size_t cap, int implementer, int part)
{
	if (implementer < 0 || part < 0) {
		snprintf(dst, cap, "unknown aarch64 CPU");
		return;
	}
	for (size_t i = 0; i < sizeof(arm_cpus) / sizeof(arm_cpus[0]); i++)
		if (arm_cpus[i].implementer == implementer && arm_cpus[i].part == part) {
			snprintf(dst, cap, "%s", arm_cpus[i].name);
			return;
		}
	const char *who = arm_implementer_name(implementer);
	if (who != NULL)
		snprintf(dst, cap, "%s part 0x%03x", who, part);
	else
		snprintf(dst, cap, "implementer 0x%02x part 0x%03x", implementer, part);
}

static void probe_cpuinfo(struct bench_machine *m)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	/* (physical id, core id) pairs seen, to count physical cores. */
	int pairs[1024][2];
	int npairs = 0, phys = 0;
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (colon == NULL)
			continue;
#if defined(__aarch64__)
		/* Only the aarch64 fields: under qemu-user this is the host's
		 * file, whose x86 model and flags are not this CPU's. */
		if (!strncmp(line, "CPU implementer", 15) && m->arm_implementer < 0)
			m->arm_implementer = (int)strtol(colon + 1, NULL, 0);
		else if (!strncmp(line, "CPU part", 8) && m->arm_part < 0)
			m->arm_part = (int)strtol(colon + 1, NULL, 0);
		else if (!strncmp(line, "Features", 8)) {
			m->asimd = has_word(colon + 1, "asimd");
			m->sve = has_word(colon + 1, "sve");
		}
		continue;
#endif
		if (!strncmp(line, "model name", 10) && !m->cpu[0])
			trim_copy(m->cpu, sizeof(m->cpu), colon + 1);
		else if (!strncmp(line, "cpu family", 10) && m->cpu_family < 0)
			m->cpu_family = atoi(colon + 1);
		else if (!strncmp(line, "model", 5) && isspace((unsigned char)line[5]) &&
			 m->cpu_model < 0)
			m->cpu_model = atoi(colon + 1);
		else if (!strncmp(line, "physical id", 11))
			phys = atoi(colon + 1);
		else if (!strncmp(line, "core id", 7)) {
			int core = atoi(colon + 1), seen = 0;
			for (int i = 0; i < npairs; i++)
				seen |= pairs[i][0] == phys && pairs[i][1] == core;
			if (!seen && npairs < 1024) {
				pairs[npairs][0] = phys;
				pairs[npairs][1] = core;
				npairs++;
			}
		} else if (!strncmp(line, "flags", 5)) {
			m->bmi2 = has_word(colon + 1, "bmi2");
			m->adx = has_word(colon + 1, "adx");
			m->avx512ifma = has_word(colon + 1, "avx512ifma");
		}
	}
	fclose(f);
	if (npairs > 0)
		m->physical_cores = npairs;
}

void bench_machine_probe(struct bench_machine *m, const char *build_name,
			 const struct bench_wheel_info *wheel)
{
	memset(m, 0, sizeof(*m));
	m->logical_cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
	m->physical_cores = m->logical_cores;
	cpu_set_t allowed;
	m->usable_cores = sched_getaffinity(0, sizeof(allowed), &allowed) == 0
				  ? CPU_COUNT(&allowed) : m->logical_cores;
	m->cpu_family = m->cpu_model = -1;
	m->arm_implementer = m->arm_part = -1;
	probe_cpuinfo(m);
#if defined(__aarch64__)
	bench_arm_cpu_name(m->cpu, sizeof(m->cpu), m->arm_implementer, m->arm_part);
	uint64_t hz;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	m->counter = "cntvct_el0";
	m->counter_hz = (double)hz;
#elif defined(__x86_64__)
	m->counter = "rdtsc";
#else
	m->counter = "none";
#endif
	if (!m->cpu[0])
		snprintf(m->cpu, sizeof(m->cpu), "unknown CPU");
	/* Virtual machines often name the CPU only "AMD EPYC", which covers
	 * several generations: family and model tell them apart. */
	char named[sizeof(m->cpu) + 48];
	if (m->cpu_family >= 0 && m->cpu_model >= 0)
		snprintf(named, sizeof(named), "%s family%d model%d", m->cpu,
			 m->cpu_family, m->cpu_model);
	else
		snprintf(named, sizeof(named), "%s", m->cpu);
	slugify(m->cpu_slug, sizeof(m->cpu_slug), named);

	struct utsname u;
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%s %s %s", u.sysname,
			 u.release, u.machine);
	if (gethostname(m->hostname, sizeof(m->hostname)) != 0)
		m->hostname[0] = '\0';
	m->hostname[sizeof(m->hostname) - 1] = '\0';
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(m->date, sizeof(m->date), "%Y-%m-%dT%H:%M:%SZ", &tm);

	m->compiler = BIGMONT_C_COMPILER;
	m->cflags = BIGMONT_C_FLAGS;
	while (*m->cflags == ' ')
		m->cflags++;
	m->chunk_bits = BIG_CHUNK_SIZE;
	m->have_asm = big_have_asm();
	if (build_name != NULL)
		snprintf(m->build, sizeof(m->build), "%s", build_name);
	else
		snprintf(m->build, sizeof(m->build), "chunk%d%s", BIG_CHUNK_SIZE,
			 m->have_asm ? "-asm" : "");
	m->variant = big_cpu_variant_name();
	m->table_read = big_ct_select_uses_vl()     ? "vl"
			: big_ct_select_uses_avx2() ? "avx2"
						    : "c";
	m->r52_tuning = "";
#if BIGMONT_HAVE_ASM && defined(__x86_64__)
	if (!strcmp(m->variant, "ifma"))
		m->r52_tuning = big_r52_kernels20_intel() ? "intel" : "amd";
#endif
	m->tuning_table = "";
#if BIGMONT_HAVE_ASM && defined(__x86_64__)
	unsigned family, model;
	const enum big_tune_vendor vendor = big_tune_cpu(&family, &model);
	m->tuning_table = big_tune_first_row(vendor, family, model) >= 0 ? "model"
			  : big_tune_family_models(vendor, family) >= 2 ? "family"
									: "none";
#endif
	const char *env = getenv("BIGMONT_CPU");
	snprintf(m->bigmont_cpu_env, sizeof(m->bigmont_cpu_env), "%s",
		 env ? env : "");
	env = getenv("BIGMONT_TUNE");
	snprintf(m->bigmont_tune_env, sizeof(m->bigmont_tune_env), "%s", env ? env : "");
	env = getenv("OPENSSL_ia32cap");
	snprintf(m->openssl_ia32cap, sizeof(m->openssl_ia32cap), "%s",
		 env ? env : "");
	m->gmp_version = bench_gmp_version();
	m->openssl_version = bench_ossl_version();
	m->wheel_probed = wheel != NULL && wheel->probed;
	if (m->wheel_probed && wheel->available) {
		m->wheel_version = wheel->version;
		m->wheel_cryptography = wheel->cryptography;
		m->wheel_python = wheel->python;
	} else {
		m->wheel_note = m->wheel_probed ? wheel->reason
						: "not compared (--compare without openssl)";
	}
}

/* ipp-crypto's lines: its version and the CPU features it enabled, or
 * why it is not measured; the same for its eight-lane RSA. */
static void print_ipp(FILE *out, const struct bench_ipp_info *ipp)
{
	if (!ipp->available) {
		fprintf(out, "  ipp       ipp-crypto not measured: %s\n", ipp->reason);
		return;
	}
	fprintf(out, "  ipp       %s, from %s\n            enabled CPU features %s\n",
		ipp->version, ipp->dir, ipp->features);
	if (ipp->mb_available)
		fprintf(out, "  ipp mb8   %s\n            mbx_rsa_private_crt_mb8 (the key as "
			"64-bit words, made once)\n", ipp->mb_version);
	else
		fprintf(out, "  ipp mb8   not measured: %s\n", ipp->mb_reason);
}

void bench_machine_print(FILE *out, const struct bench_machine *m,
			 const char *security)
{
	char flags[96];
#if defined(__aarch64__)
	if (m->arm_implementer < 0)
		snprintf(flags, sizeof(flags), "unknown (no aarch64 Features in /proc/cpuinfo)");
	else
		snprintf(flags, sizeof(flags), "asimd %s, sve %s", m->asimd ? "yes" : "no",
			 m->sve ? "yes" : "no");
#else
	snprintf(flags, sizeof(flags), "bmi2 %s, adx %s, avx512ifma %s",
		 m->bmi2 ? "yes" : "no", m->adx ? "yes" : "no",
		 m->avx512ifma ? "yes" : "no");
#endif
	fprintf(out, "bigmont speed %s  %s\n", BIGMONT_VERSION, m->date);
	char model[64] = "", usable[48] = "";
	if (m->cpu_family >= 0 && m->cpu_model >= 0)
		snprintf(model, sizeof(model), ", family %d model %d", m->cpu_family,
			 m->cpu_model);
	if (m->usable_cores != m->logical_cores)
		snprintf(usable, sizeof(usable), "; %d for this process", m->usable_cores);
	fprintf(out, "  cpu       %s%s (%d logical, %d physical cores%s)\n", m->cpu, model,
		m->logical_cores, m->physical_cores, usable);
#if defined(__aarch64__)
	if (m->arm_implementer < 0 || m->arm_part < 0)
		fprintf(out, "            /proc/cpuinfo has no CPU implementer and part: not an "
			"aarch64 kernel's (under qemu-user it is the host's)\n");
#endif
	fprintf(out, "  flags     %s\n", flags);
	if (!strcmp(m->counter, "cntvct_el0"))
		fprintf(out, "  counter   cntvct_el0, the generic timer at %.6g MHz (cntfrq_el0), "
			"not the core clock: times from the clock, no cycles/op\n",
			m->counter_hz / 1e6);
	else if (!strcmp(m->counter, "none"))
		fprintf(out, "  counter   none: times from the clock, no cycles/op\n");
	fprintf(out, "  kernel    %s\n", m->kernel);
	fprintf(out, "  compiler  %s, flags %s\n", m->compiler, m->cflags);
	/* What the environment forced: BIGMONT_CPU, BIGMONT_TUNE. */
	char forced[sizeof(m->bigmont_cpu_env) + sizeof(m->bigmont_tune_env) + 40] = "";
	if (m->bigmont_cpu_env[0] || m->bigmont_tune_env[0])
		snprintf(forced, sizeof(forced), " (%s%s%s%s%s)",
			 m->bigmont_cpu_env[0] ? "BIGMONT_CPU=" : "", m->bigmont_cpu_env,
			 m->bigmont_cpu_env[0] && m->bigmont_tune_env[0] ? ", " : "",
			 m->bigmont_tune_env[0] ? "BIGMONT_TUNE=" : "", m->bigmont_tune_env);
	fprintf(out, "  build     %s: %d-bit chunks, %s, kernels '%s'%s, table read '%s'%s%s%s\n",
		m->build, m->chunk_bits,
		m->have_asm ? "assembly kernels" : "portable C", m->variant, forced,
		m->table_read,
		m->r52_tuning[0] ? ", radix-2^52 kernels tuned '" : "", m->r52_tuning,
		m->r52_tuning[0] ? "'" : "");
	if (m->tuning_table[0])
		fprintf(out, "  tuning    %s%s\n",
			!strcmp(m->tuning_table, "model")
				? "bignum/tuning.h's rows for this CPU model"
			: !strcmp(m->tuning_table, "family")
				? "this CPU model is not in bignum/tuning.h: the choices a majority "
				  "of the named models of its vendor and family bind, unmeasured here"
				: "bignum/tuning.h names fewer than two models of this vendor and "
				  "family and not this one: every default, unmeasured here",
			m->bigmont_tune_env[0] ? "; BIGMONT_TUNE overrides the choices it names" : "");
	fprintf(out, "  versions  GMP %s, %s (system)%s%s\n", m->gmp_version,
		m->openssl_version,
		m->openssl_ia32cap[0] ? ", OPENSSL_ia32cap=" : "",
		m->openssl_ia32cap);
	if (m->wheel_version != NULL)
		fprintf(out, "  wheel     %s (PyPI cryptography %s, %s)\n", m->wheel_version,
			m->wheel_cryptography, m->wheel_python);
	else if (m->wheel_probed)
		fprintf(out, "  wheel     OpenSSL of the cryptography wheel not measured: %s\n",
			m->wheel_note);
	if (m->ipp != NULL)
		print_ipp(out, m->ipp);
	if (security != NULL)
		fprintf(out, "  ours      %s\n", security);
}

/* key, value pairs, in the order they are written */
static void json_strings(struct json_writer *w, const char *const *kv, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		json_kv_string(w, kv[i], kv[i + 1]);
}

void bench_machine_json(struct json_writer *w, const struct bench_machine *m)
{
	const char *const cpu[] = { "cpu", m->cpu, "cpu_slug", m->cpu_slug };
	json_strings(w, cpu, sizeof(cpu) / sizeof(cpu[0]));
	const struct { const char *key; int value; } counts[] = {
		{ "cpu_family", m->cpu_family }, { "cpu_model", m->cpu_model },
		{ "logical_cores", m->logical_cores }, { "physical_cores", m->physical_cores },
		{ "usable_cores", m->usable_cores },
	};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		json_kv_int(w, counts[i].key, counts[i].value);
	json_key(w, "flags");
	json_object_begin(w);
#if defined(__aarch64__)
	json_kv_bool(w, "asimd", m->asimd);
	json_kv_bool(w, "sve", m->sve);
#else
	json_kv_bool(w, "bmi2", m->bmi2);
	json_kv_bool(w, "adx", m->adx);
	json_kv_bool(w, "avx512ifma", m->avx512ifma);
#endif
	json_object_end(w);
	json_kv_int(w, "arm_implementer", m->arm_implementer);
	json_kv_int(w, "arm_part", m->arm_part);
	json_kv_string(w, "counter", m->counter);
	json_kv_double(w, "counter_hz", m->counter_hz, 10);
	const char *const host[] = {
		"kernel", m->kernel, "hostname", m->hostname, "date", m->date,
		"compiler", m->compiler, "cflags", m->cflags,
		"bigmont_version", BIGMONT_VERSION, "build", m->build,
	};
	json_strings(w, host, sizeof(host) / sizeof(host[0]));
	json_kv_int(w, "chunk_bits", m->chunk_bits);
	json_kv_bool(w, "asm", m->have_asm);
	const char *const run[] = {
		"variant", m->variant, "table_read", m->table_read,
		"r52_tuning", m->r52_tuning, "tuning_table", m->tuning_table,
		"bigmont_cpu_env", m->bigmont_cpu_env,
		"bigmont_tune_env", m->bigmont_tune_env,
		"gmp_version", m->gmp_version, "openssl_version", m->openssl_version,
		"openssl_ia32cap_env", m->openssl_ia32cap,
		"openssl_wheel_version", m->wheel_version,
		"openssl_wheel_cryptography", m->wheel_cryptography,
		"openssl_wheel_python", m->wheel_python,
		"openssl_wheel_note", m->wheel_note,
	};
	json_strings(w, run, sizeof(run) / sizeof(run[0]));
	const struct bench_ipp_info *ipp = m->ipp;
	const char *const ippkv[] = {
		"ipp_version", ipp && ipp->available ? ipp->version : NULL,
		"ipp_features", ipp && ipp->available ? ipp->features : NULL,
		"ipp_dir", ipp ? ipp->dir : NULL,
		"ipp_note", ipp == NULL ? "not compared (--compare without openssl)"
			    : ipp->available ? NULL : ipp->reason,
		"ipp_mb_version", ipp && ipp->mb_available ? ipp->mb_version : NULL,
		"ipp_mb_note", ipp == NULL ? "not compared (--compare without openssl)"
			       : ipp->mb_available ? NULL : ipp->mb_reason,
	};
	json_strings(w, ippkv, sizeof(ippkv) / sizeof(ippkv[0]));
}
