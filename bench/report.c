/*
 * bench/report.c -- text tables and the JSON document of `bigmont speed`
 * (contract in report.h).  Ratios are time ratios: ours/gmp = 1.20 means
 * ours takes 1.2x GMP's time per operation (lower is better for ours).
 */
#include "report.h"

#include "kernels.h"

#include <math.h>
#include <string.h>

void bench_format_count(char *buf, size_t cap, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, cap, "-");
		return;
	}
	char digits[32];
	snprintf(digits, sizeof(digits), "%.0f", v);
	size_t n = strlen(digits), j = 0;
	for (size_t i = 0; i < n && j + 2 < cap; i++) {
		if (i > 0 && (n - i) % 3 == 0 && digits[i - 1] != '-')
			buf[j++] = ',';
		buf[j++] = digits[i];
	}
	buf[j] = '\0';
}

static const char *onoff(int v)
{
	return v < 0 ? "-" : v ? "on" : "off";
}

/* "0", "5.25", "24.1"; "-" when not counted. */
static void format_locks(char *buf, size_t cap, double v)
{
	if (isfinite(v))
		snprintf(buf, cap, "%.3g", v);
	else
		snprintf(buf, cap, "-");
}

static const struct bench_record *find(const struct bench_record *r, int n,
				       const char *key, const char *impl,
				       int threads)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(r[i].key, key) && !strcmp(r[i].impl, impl) &&
		    r[i].threads == threads)
			return &r[i];
	return NULL;
}

static double measured_ns(const struct bench_record *r)
{
	return r != NULL && r->st.samples > 0 ? r->st.median_ns : NAN;
}

void bench_report_key(FILE *out, const struct bench_record *r, int n,
		      const char *key, double seconds)
{
	int bits = 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(r[i].key, key))
			bits = r[i].bits;
	fprintf(out, "\nRSA-%d private key (%s): %.2f s per implementation, "
		"interleaved batches\n", bits, key, seconds);
	const struct bench_record *own = find(r, n, key, "ours", 1);
	if (own != NULL && own->crt_path[0])
		fprintf(out, "  ours' CRT path: %s%s\n", own->crt_path,
			strcmp(own->crt_path, "radix52-ifma") == 0
				? " (both halves in one AVX-512 IFMA stream)"
			: strcmp(own->crt_path, "vertical-avx2") == 0
				? " (both halves in one AVX2 stream, the vertical layout)"
			: strcmp(own->crt_path, "vertical-avx512") == 0
				? " (both halves in one AVX-512F stream, the vertical layout on zmm)"
			: strcmp(own->crt_path, "radix64-paired") == 0
				? " (two Montgomery exponentiations side by side on the variant's "
				  "kernels)"
				: " (two Montgomery exponentiations on the variant's kernels)");
	fprintf(out, "  %-18s %-8s %13s %13s %13s %10s %12s %7s %9s %8s\n",
		"implementation", "blinding", "median ns/op", "min ns/op",
		"max ns/op", "ops/s", "tsc ticks/op", "samples", "ours/this", "locks/op");
	double ours = measured_ns(find(r, n, key, "ours", 1));
	for (int i = 0; i < n; i++) {
		const struct bench_record *x = &r[i];
		if (strcmp(x->key, key) || x->threads != 1)
			continue;
		if (x->st.samples == 0) {
			fprintf(out, "  %-18s %-8s %s\n", x->impl, "n/a",
				x->note[0] ? x->note : "not measured");
			continue;
		}
		char med[32], lo[32], hi[32], ops[32], cyc[32], locks[32];
		bench_format_count(med, sizeof(med), x->st.median_ns);
		bench_format_count(lo, sizeof(lo), x->st.min_ns);
		bench_format_count(hi, sizeof(hi), x->st.max_ns);
		bench_format_count(ops, sizeof(ops), x->st.ops_per_s);
		bench_format_count(cyc, sizeof(cyc), x->st.cycles_per_op);
		format_locks(locks, sizeof(locks), x->locks_per_op);
		char ratio[16] = "-";
		if (isfinite(ours))
			snprintf(ratio, sizeof(ratio), "%.2f", ours / x->st.median_ns);
		fprintf(out, "  %-18s %-8s %13s %13s %13s %10s %12s %7d %9s %8s\n",
			x->impl, onoff(x->blinding), med, lo, hi, ops, cyc,
			x->st.samples, ratio, locks);
	}
	if (!isfinite(ours))
		return;
	static const char *const others[] = { "gmp", "openssl", "openssl-noblind",
					      "openssl-noifma", "openssl-wheel",
					      "openssl-wheel-oaep", "ipp-crypto",
					      "ipp-crypto-mb8" };
	int printed = 0;
	for (size_t k = 0; k < sizeof(others) / sizeof(others[0]); k++) {
		double o = measured_ns(find(r, n, key, others[k], 1));
		if (!isfinite(o))
			continue;
		fprintf(out, "%s ours/%s %.2f", printed ? "," : "  time ratio:",
			others[k], ours / o);
		printed = 1;
	}
	if (printed)
		fprintf(out, "  (below 1: ours is faster)\n");
	static const char *const wheel[][2] = {
		{ "openssl-wheel", "PKCS #1 v1.5 SHA-256 signatures" },
		{ "openssl-wheel-oaep", "OAEP SHA-256 decryption" },
	};
	for (size_t i = 0; i < sizeof(wheel) / sizeof(wheel[0]); i++) {
		const struct bench_record *w = find(r, n, key, wheel[i][0], 1);
		if (w != NULL && isfinite(w->call_overhead_ns))
			fprintf(out, "  %s: %s through Python, timed in its loop; that loop "
				"with a no-op call costs %.0f ns per call, included above\n",
				wheel[i][0], wheel[i][1], w->call_overhead_ns);
	}
}

void bench_report_threads(FILE *out, const struct bench_record *r, int n,
			  const char *key, int cores)
{
	int any = 0;
	for (int i = 0; i < n; i++)
		any |= !strcmp(r[i].key, key) && r[i].threads > 1;
	if (!any)
		return;
	fprintf(out, "  threads sharing one key (OpenSSL: one EVP_PKEY, a context per "
		"operation): efficiency = ops/s / (min(T, %d cores)\n  x 1 thread's ops per "
		"CPU second), median and range over rounds; cpu = the share of those cores "
		"the threads had\n", cores);
	fprintf(out, "  %-16s %7s %12s %12s %10s %11s %5s %8s\n", "implementation",
		"threads", "ops/s", "1 thread", "efficiency", "range", "cpu", "locks/op");
	for (int i = 0; i < n; i++) {
		const struct bench_record *x = &r[i];
		if (strcmp(x->key, key) || x->threads <= 1)
			continue;
		char ops[32], one[32], eff[16] = "n/a", range[32], cpu[16], locks[32];
		bench_format_count(ops, sizeof(ops), x->st.ops_per_s);
		bench_format_count(one, sizeof(one), x->single_ops_per_s);
		/* "*": above 100 %, the 1-thread row disturbed (the note says so) */
		if (isfinite(x->efficiency))
			snprintf(eff, sizeof(eff), "%.0f%%%s", 100 * x->efficiency,
				 x->efficiency > 1.0 ? "*" : "");
		snprintf(range, sizeof(range), "%.0f-%.0f%%", 100 * x->efficiency_min,
			 100 * x->efficiency_max);
		snprintf(cpu, sizeof(cpu), "%.0f%%", 100 * x->cpu_share);
		format_locks(locks, sizeof(locks), x->locks_per_op);
		fprintf(out, "  %-16s %7d %12s %12s %10s %11s %5s %8s\n", x->impl, x->threads,
			ops, one, eff, range, cpu, locks);
		if (x->note[0])
			fprintf(out, "  %-16s %7d %s\n", x->impl, x->threads, x->note);
	}
}

static void json_tristate(struct json_writer *w, const char *k, int v)
{
	json_key(w, k);
	if (v < 0)
		json_null(w);
	else
		json_bool(w, v);
}

int bench_report_json(FILE *out, const struct bench_machine *m,
		      const struct bench_settings *s,
		      const struct bench_record *r, int n)
{
	struct json_writer w;
	json_begin(&w, out);
	json_object_begin(&w);
	json_kv_string(&w, "schema", BENCH_SCHEMA);
	json_key(&w, "machine");
	json_object_begin(&w);
	bench_machine_json(&w, m);
	json_object_end(&w);

	json_key(&w, "settings");
	json_object_begin(&w);
	json_kv_double(&w, "seconds", s->seconds, 6);
	json_key(&w, "threads");
	json_array_begin(&w);
	for (int i = 0; i < s->nthreads; i++)
		json_int(&w, s->threads[i]);
	json_array_end(&w);
	json_kv_string(&w, "compare", s->compare);
	json_key(&w, "implementations");
	json_array_begin(&w);
	for (int i = 0; i < s->nclaimed; i++)
		json_string(&w, s->claimed[i]);
	json_array_end(&w);
	json_kv_int(&w, "min_samples", BENCH_MIN_SAMPLES);
	json_kv_int(&w, "cores", s->cores);
	json_kv_bool(&w, "locks_counted", s->locks_counted);
	json_object_end(&w);

	json_key(&w, "records");
	json_array_begin(&w);
	for (int i = 0; i < n; i++) {
		const struct bench_record *x = &r[i];
		json_object_begin(&w);
		json_kv_string(&w, "implementation", x->impl);
		json_kv_string(&w, "build", m->build);
		json_kv_string(&w, "variant", m->variant);
		json_kv_int(&w, "bits", x->bits);
		json_kv_string(&w, "key", x->key);
		json_kv_int(&w, "threads", x->threads);
		if (x->crt_path[0])
			json_kv_string(&w, "crt_path", x->crt_path);
		json_tristate(&w, "blinding", x->blinding);
		json_tristate(&w, "fault_check", x->fault_check);
		json_kv_int(&w, "samples", x->st.samples);
		json_kv_int(&w, "ops", x->st.ops);
		json_kv_double(&w, "median_ns", x->st.median_ns, 10);
		json_kv_double(&w, "min_ns", x->st.min_ns, 10);
		json_kv_double(&w, "max_ns", x->st.max_ns, 10);
		json_kv_double(&w, "ops_per_s", x->st.ops_per_s, 10);
		json_kv_double(&w, "cycles_per_op", x->st.cycles_per_op, 10);
		json_kv_double(&w, "locks_per_op", x->locks_per_op, 6);
		json_kv_double(&w, "once_per_op", x->once_per_op, 6);
		json_kv_double(&w, "efficiency", x->efficiency, 4);
		json_kv_double(&w, "efficiency_min", x->efficiency_min, 4);
		json_kv_double(&w, "efficiency_max", x->efficiency_max, 4);
		json_kv_double(&w, "single_thread_ops_per_s", x->single_ops_per_s, 10);
		json_kv_double(&w, "cpu_share", x->cpu_share, 4);
		if (isfinite(x->call_overhead_ns))
			json_kv_double(&w, "call_overhead_ns", x->call_overhead_ns, 6);
		json_kv_string(&w, "note", x->note[0] ? x->note : NULL);
		json_object_end(&w);
	}
	json_array_end(&w);
	if (s->kernels != NULL) {
		json_key(&w, "kernels");
		json_object_begin(&w);
		bench_kernels_json(&w, s->kernels);
		json_object_end(&w);
	}
	json_object_end(&w);
	return json_finish(&w);
}
