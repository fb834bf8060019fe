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
	probe_cpuinfo(m);
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
	m->table_read = big_ct_select_uses_avx2() ? "avx2" : "c";
	m->r52_tuning = "";
#if BIGMONT_HAVE_ASM && defined(__x86_64__)
	if (!strcmp(m->variant, "ifma"))
		m->r52_tuning = big_r52_kernels20_intel() ? "intel" : "amd";
#endif
	const char *env = getenv("BIGMONT_CPU");
	snprintf(m->bigmont_cpu_env, sizeof(m->bigmont_cpu_env), "%s",
		 env ? env : "");
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
		fprintf(out, "  ipp mb8   %s\n", ipp->mb_version);
	else
		fprintf(out, "  ipp mb8   not measured: %s\n", ipp->mb_reason);
}

void bench_machine_print(FILE *out, const struct bench_machine *m,
			 const char *security)
{
	char flags[96];
	snprintf(flags, sizeof(flags), "bmi2 %s, adx %s, avx512ifma %s",
		 m->bmi2 ? "yes" : "no", m->adx ? "yes" : "no",
		 m->avx512ifma ? "yes" : "no");
	fprintf(out, "bigmont speed %s  %s\n", BIGMONT_VERSION, m->date);
	char model[64] = "", usable[48] = "";
	if (m->cpu_family >= 0 && m->cpu_model >= 0)
		snprintf(model, sizeof(model), ", family %d model %d", m->cpu_family,
			 m->cpu_model);
	if (m->usable_cores != m->logical_cores)
		snprintf(usable, sizeof(usable), "; %d for this process", m->usable_cores);
	fprintf(out, "  cpu       %s%s (%d logical, %d physical cores%s)\n", m->cpu, model,
		m->logical_cores, m->physical_cores, usable);
	fprintf(out, "  flags     %s\n", flags);
	fprintf(out, "  kernel    %s\n", m->kernel);
	fprintf(out, "  compiler  %s, flags %s\n", m->compiler, m->cflags);
	fprintf(out, "  build     %s: %d-bit chunks, %s, kernels '%s'%s%s%s, table read '%s'%s%s%s\n",
		m->build, m->chunk_bits,
		m->have_asm ? "assembly kernels" : "portable C", m->variant,
		m->bigmont_cpu_env[0] ? " (BIGMONT_CPU=" : "",
		m->bigmont_cpu_env, m->bigmont_cpu_env[0] ? ")" : "", m->table_read,
		m->r52_tuning[0] ? ", radix-2^52 kernels tuned '" : "", m->r52_tuning,
		m->r52_tuning[0] ? "'" : "");
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
	json_kv_bool(w, "bmi2", m->bmi2);
	json_kv_bool(w, "adx", m->adx);
	json_kv_bool(w, "avx512ifma", m->avx512ifma);
	json_object_end(w);
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
		"r52_tuning", m->r52_tuning, "bigmont_cpu_env", m->bigmont_cpu_env,
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
