/*
 * bench/machine.h -- what a benchmark report says about the machine and
 * the build: CPU, cores, the flags that matter for the kernels, kernel,
 * compiler and flags, chunk size, kernel variant, library versions.
 */
#ifndef BIGMONT_BENCH_MACHINE_H
#define BIGMONT_BENCH_MACHINE_H

#include <stdio.h>

#include "json.h"

struct bench_machine {
	char cpu[128];      /* "AMD EPYC 9R14 96-Core Processor" */
	int cpu_family, cpu_model; /* from /proc/cpuinfo; -1 if unknown */
	char cpu_slug[128]; /* "amd-epyc-9r14-96-core-processor-family25-model17" */
	int logical_cores, physical_cores;
	int usable_cores;          /* in this process's CPU affinity mask */
	int bmi2, adx, avx512ifma; /* 1 if the CPU (and kernel) offer it */
	/* aarch64: /proc/cpuinfo's "CPU implementer" and "CPU part" (-1 if
	 * absent, as under qemu-user, which shows the host's file), and
	 * whether "Features" lists asimd and sve.  cpu[] is named from them. */
	int arm_implementer, arm_part;
	int asimd, sve;
	/* The counter behind cycles/op: "rdtsc" (x86-64), "cntvct_el0"
	 * (aarch64's generic timer, counter_hz ticks a second, no core clock:
	 * no cycles/op), or "none". */
	const char *counter;
	double counter_hz;         /* 0 unless cntvct_el0 */
	char kernel[200];          /* "Linux 6.1.0-18-amd64 x86_64" */
	char hostname[64];
	char date[32];             /* UTC, ISO 8601 */
	const char *compiler, *cflags;
	int chunk_bits;
	int have_asm;
	char build[32];            /* "chunk64-asm" unless told otherwise */
	const char *variant;       /* big_cpu_variant_name() */
	const char *table_read;    /* big_ct_select's build: "vl", "avx2" or "c" */
	const char *r52_tuning;    /* the 20-digit radix-2^52 kernels' tuning,
				    * "amd" or "intel"; "" unless the ifma
				    * variant runs them */
	/* Where the tuning table's choices come from on this CPU
	 * (bignum/tuning.h): "model" (its own rows), "family" (not named:
	 * what a majority of the named models of its vendor and family bind,
	 * two or more named) or "none" (fewer named: every default); ""
	 * without assembly kernels on x86-64.  BIGMONT_TUNE overrides it
	 * choice by choice. */
	const char *tuning_table;
	char bigmont_cpu_env[16];  /* BIGMONT_CPU as set, "" if unset */
	char bigmont_tune_env[256]; /* BIGMONT_TUNE as set (cut to fit), "" if unset */
	const char *gmp_version, *openssl_version;
	char openssl_ia32cap[64];  /* OPENSSL_ia32cap as set, "" if unset */
	/* The cryptography wheel's OpenSSL (wheel.h): its version text, the
	 * wheel's version and the interpreter, NULL when not measured; then
	 * the reason, NULL when measured.  They point into the probe's
	 * struct bench_wheel_info, which must outlive m. */
	const char *wheel_version, *wheel_cryptography, *wheel_python;
	const char *wheel_note;
	int wheel_probed;          /* 0: nothing compared with OpenSSL */
	/* What bench_ipp_probe found (ipp.h), NULL where nothing probed it;
	 * set by the caller after bench_machine_probe, outliving m. */
	const struct bench_ipp_info *ipp;
};

struct bench_wheel_info;

/* An aarch64 CPU's name from /proc/cpuinfo's "CPU implementer" and "CPU
 * part": "ARM Neoverse-V1" where known, else the numbers ("ARM part
 * 0xd99", "implementer 0x99 part 0x001"), else (either < 0) "unknown
 * aarch64 CPU". */
void bench_arm_cpu_name(char *dst, size_t cap, int implementer, int part);

/* build_name: NULL for the name derived from the configuration.  wheel:
 * what bench_wheel_probe found, or NULL where nothing probed it. */
void bench_machine_probe(struct bench_machine *m, const char *build_name,
			 const struct bench_wheel_info *wheel);
void bench_machine_print(FILE *out, const struct bench_machine *m,
			 const char *security);
/* The "machine" object's members (the caller opened the object). */
void bench_machine_json(struct json_writer *w, const struct bench_machine *m);

#endif
