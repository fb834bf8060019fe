// bigmont-test: once
/*
 * The JSON writer of `bigmont speed` (bench/json.c) and the document it
 * builds from records (bench/report.c): exact output for nesting, commas,
 * escaping, non-finite numbers as null, misuse reported by json_finish,
 * and a full speed document with the fields bench/README.md promises; the
 * text tables' locks per operation and thread efficiency (a figure above
 * 100 % in every round is not printed); the kernel tables' peak
 * (bench/peak.h): a rate outside 0.25..2 is an error, the multiplies per
 * kernel call, and the bounds and % of peak in the text and the JSON; the
 * tables' trials as --seconds scales them (bench/cycles.h), printed and in
 * the JSON.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include "ipp.h"
#include "json.h"
#include "kernels.h"
#include "lanes/lanes52.h"
#include "lanes_kernels.h"
#include "machine.h"
#include "peak.h"
#include "radix52/radix52.h"
#include "report.h"
#include "speed.h" /* BENCH_SPEED_MIN_SECONDS, _MAX_SECONDS */
}

namespace {

/* What f writes to a memory stream. */
template <class F> std::string text_of(F f)
{
	char *buf = nullptr;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	EXPECT_NE(mem, nullptr);
	f(mem);
	fclose(mem);
	std::string s(buf, len);
	free(buf);
	return s;
}

/* Run f on a writer over a memory stream; return the text, and json_finish's
 * status in *status. */
template <class F> std::string render(F f, int *status)
{
	return text_of([&](FILE *mem) {
		json_writer w;
		json_begin(&w, mem);
		f(&w);
		*status = json_finish(&w);
	});
}

TEST(BenchJson, NestingAndCommas)
{
	int st = -2;
	std::string s = render([](json_writer *w) {
		json_object_begin(w);
		json_kv_string(w, "a", "x");
		json_key(w, "list");
		json_array_begin(w);
		json_int(w, 1);
		json_int(w, -2);
		json_object_begin(w);
		json_object_end(w);
		json_array_begin(w);
		json_array_end(w);
		json_array_end(w);
		json_kv_bool(w, "t", 1);
		json_kv_bool(w, "f", 0);
		json_key(w, "n");
		json_null(w);
		json_object_end(w);
	}, &st);
	EXPECT_EQ(st, 0);
	EXPECT_EQ(s, "{\n"
		     "  \"a\": \"x\",\n"
		     "  \"list\": [\n"
		     "    1,\n"
		     "    -2,\n"
		     "    {},\n"
		     "    []\n"
		     "  ],\n"
		     "  \"t\": true,\n"
		     "  \"f\": false,\n"
		     "  \"n\": null\n"
		     "}\n");
}

TEST(BenchJson, Escaping)
{
	int st = -2;
	std::string s = render([](json_writer *w) {
		json_array_begin(w);
		json_string(w, "q\"b\\s/\n\r\t\x01\x1f \xc3\xa9");
		json_string(w, nullptr);
		json_string(w, "");
		json_array_end(w);
	}, &st);
	EXPECT_EQ(st, 0);
	EXPECT_EQ(s, "[\n  \"q\\\"b\\\\s/\\n\\r\\t\\u0001\\u001f \xc3\xa9\",\n"
		     "  null,\n  \"\"\n]\n");
}

/* A file name may hold any bytes; the document stays UTF-8: each byte of
 * an ill-formed sequence becomes U+FFFD, well-formed ones of 2 to 4 bytes
 * pass.  Ill-formed: a lone continuation, a truncated sequence, an
 * overlong form (C0 AF, E0 80 AF), a surrogate (ED A0 80), above U+10FFFF
 * (F4 90 80 80), FF. */
TEST(BenchJson, InvalidUtf8BecomesReplacement)
{
	int st = -2;
	std::string s = render([](json_writer *w) {
		json_array_begin(w);
		json_string(w, "a\xff" "b");
		json_string(w, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf");
		json_string(w, "\x80|\xc3|\xe2\x82|\xc0\xaf|\xe0\x80\xaf|\xed\xa0\x80|\xf4\x90\x80\x80");
		json_array_end(w);
	}, &st);
	EXPECT_EQ(st, 0);
	const std::string r = "\\ufffd";
	EXPECT_EQ(s, "[\n  \"a" + r + "b\",\n"
		     "  \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\",\n"
		     "  \"" + r + "|" + r + "|" + r + r + "|" + r + r + "|" + r + r + r + "|" + r +
			     r + r + "|" + r + r + r + r + "\"\n]\n");
}

TEST(BenchJson, Numbers)
{
	int st = -2;
	std::string s = render([](json_writer *w) {
		json_array_begin(w);
		json_double(w, 1234567.891, 7);
		json_double(w, 0.5, 6);
		json_double(w, NAN, 6);
		json_double(w, INFINITY, 6);
		json_double(w, -INFINITY, 6);
		json_double(w, 1e300, 3);
		json_int(w, INT64_MIN);
		json_array_end(w);
	}, &st);
	EXPECT_EQ(st, 0);
	EXPECT_EQ(s, "[\n  1234568,\n  0.5,\n  null,\n  null,\n  null,\n  1e+300,\n"
		     "  -9223372036854775808\n]\n");
}

TEST(BenchJson, MisuseIsReported)
{
	int st = 0;
	render([](json_writer *w) { json_object_begin(w); }, &st);
	EXPECT_EQ(st, -1) << "unclosed object";
	render([](json_writer *w) {
		json_object_begin(w);
		json_key(w, "k");
		json_object_end(w);
	}, &st);
	EXPECT_EQ(st, -1) << "key without a value";
	render([](json_writer *w) { json_array_end(w); }, &st);
	EXPECT_EQ(st, -1) << "close without open";
	render([](json_writer *w) {
		json_int(w, 1);
		json_int(w, 2);
	}, &st);
	EXPECT_EQ(st, -1) << "two top-level values";
	render([](json_writer *w) { json_key(w, "k"); }, &st);
	EXPECT_EQ(st, -1) << "key outside an object";
	render([](json_writer *) {}, &st);
	EXPECT_EQ(st, -1) << "empty document";
	render([](json_writer *w) {
		for (int i = 0; i < JSON_MAX_DEPTH + 2; i++)
			json_array_begin(w);
	}, &st);
	EXPECT_EQ(st, -1) << "too deep";
}

TEST(BenchJson, WriteErrorIsReported)
{
	FILE *ro = fopen("/dev/null", "r"); /* writes to it fail */
	ASSERT_NE(ro, nullptr);
	json_writer w;
	json_begin(&w, ro);
	json_array_begin(&w);
	json_array_end(&w);
	EXPECT_EQ(json_finish(&w), -1);
	fclose(ro);
}

TEST(BenchJson, FormatCount)
{
	char b[32];
	bench_format_count(b, sizeof(b), 0);
	EXPECT_STREQ(b, "0");
	bench_format_count(b, sizeof(b), 999);
	EXPECT_STREQ(b, "999");
	bench_format_count(b, sizeof(b), 1000);
	EXPECT_STREQ(b, "1,000");
	bench_format_count(b, sizeof(b), 1234567.6);
	EXPECT_STREQ(b, "1,234,568");
	bench_format_count(b, sizeof(b), -1234);
	EXPECT_STREQ(b, "-1,234");
	bench_format_count(b, sizeof(b), NAN);
	EXPECT_STREQ(b, "-");
}

/* A blank record of a 2048-bit key. */
bench_record record(const char *impl, int threads)
{
	bench_record r;
	bench_record_init(&r);
	snprintf(r.impl, sizeof(r.impl), "%s", impl);
	r.key = "embedded:rsa2048.pem";
	r.bits = 2048;
	r.threads = threads;
	return r;
}

/* A thread-table record of T = 2 with locks per operation and efficiency. */
bench_record threaded(const char *impl, double locks, double eff, double lo, double hi)
{
	bench_record r = record(impl, 2);
	r.locks_per_op = locks;
	r.efficiency = eff;
	r.efficiency_min = lo;
	r.efficiency_max = hi;
	return r;
}

/* Settings of a 0.25 s run on 2 cores. */
bench_settings settings(const int *threads, int nthreads, const char *compare,
			const char *const *claimed, int nclaimed)
{
	bench_settings s = {};
	s.seconds = 0.25;
	s.threads = threads;
	s.nthreads = nthreads;
	s.cores = 2;
	s.compare = compare;
	s.claimed = claimed;
	s.nclaimed = nclaimed;
	return s;
}

/* The speed document of n records r into *doc, on this machine with
 * nothing of the wheel probed; fatal if the writer reports a failure
 * (callers wrap it in ASSERT_NO_FATAL_FAILURE). */
void speed_document(const bench_settings &s, const bench_record *r, int n,
		    std::string *doc)
{
	bench_machine m;
	bench_machine_probe(&m, "chunk64-test", nullptr);
	int rc = -1;
	*doc = text_of([&](FILE *f) { rc = bench_report_json(f, &m, &s, r, n); });
	ASSERT_EQ(rc, 0);
}

/* The machine block's flags and counter: the x86-64 ones, or aarch64's
 * (no x86 field, the generic timer). */
#if defined(__aarch64__)
const char *const kCpuFlag = "\"asimd\": ";
const char *const kCounter = "\"counter\": \"cntvct_el0\",";
#else
const char *const kCpuFlag = "\"avx512ifma\": ";
const char *const kCounter = "\"counter\": \"rdtsc\",";
#endif

/* A whole speed document: the machine block, settings and one record per
 * implementation, not measured as null. */
TEST(BenchJson, SpeedDocument)
{
	bench_record r[3] = { record("ours", 1), record("openssl-noifma", 1),
			      threaded("openssl", 26.5, 0.875, 0.75, 0.9375) };
	r[0].blinding = 0;
	r[0].fault_check = 1;
	r[0].locks_per_op = 0;
	r[0].once_per_op = 0;
	double ns[3] = { 300.0, 100.0, 200.0 }, cyc[3] = { 3, 1, 2 };
	bench_stats_of(&r[0].st, ns, cyc, 3, 30);
	snprintf(r[1].note, sizeof(r[1].note), "not \"measured\"");
	r[2].once_per_op = 24;
	r[2].single_ops_per_s = 1000;
	const int threads[] = { 1, 2 };
	const char *const claimed[] = { "ours" };
	bench_settings s = settings(threads, 2, "gmp,openssl", claimed, 1);
	s.locks_counted = 1;
	std::string doc;
	ASSERT_NO_FATAL_FAILURE(speed_document(s, r, 3, &doc));

	EXPECT_EQ(doc.rfind("{\n  \"schema\": \"bigmont-speed/1\",\n", 0), 0u) << doc;
	for (const char *want : {
		     "\"machine\": {", "\"build\": \"chunk64-test\"",
		     "\"chunk_bits\": ", "\"variant\": \"", "\"gmp_version\": \"",
		     "\"openssl_version\": \"", "\"flags\": {", kCpuFlag, kCounter,
		     "\"usable_cores\": ", "\"seconds\": 0.25", "\"min_samples\": 5,",
		     "\"cores\": 2,", "\"locks_counted\": true\n",
		     "\"threads\": [\n      1,\n      2\n    ]",
		     "\"implementations\": [\n      \"ours\"\n    ]",
		     "\"implementation\": \"ours\"", "\"median_ns\": 200,",
		     "\"min_ns\": 100,", "\"max_ns\": 300,", "\"ops_per_s\": 5000000,",
		     "\"samples\": 3,", "\"ops\": 30,", "\"blinding\": false",
		     "\"fault_check\": true", "\"note\": null", "\"locks_per_op\": 0,",
		     "\"once_per_op\": 0,", "\"efficiency\": null,",
		     "\"implementation\": \"openssl-noifma\"", "\"blinding\": null",
		     "\"median_ns\": null", "\"samples\": 0,", "\"locks_per_op\": null,",
		     "\"note\": \"not \\\"measured\\\"\"", "\"threads\": 2,",
		     "\"locks_per_op\": 26.5,", "\"once_per_op\": 24,",
		     "\"efficiency\": 0.875,", "\"efficiency_min\": 0.75,",
		     "\"efficiency_max\": 0.9375,",
		     "\"single_thread_ops_per_s\": 1000," })
		EXPECT_NE(doc.find(want), std::string::npos) << "missing " << want
							     << " in\n" << doc;
	if (bench_have_tsc()) {
		EXPECT_NE(doc.find("\"cycles_per_op\": 2,"), std::string::npos) << doc;
	}
	/* Balanced and ends the document. */
	int depth = 0;
	bool in_str = false;
	for (size_t i = 0; i < doc.size(); i++) {
		char c = doc[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']')
			depth--;
	}
	EXPECT_EQ(depth, 0);
	EXPECT_FALSE(in_str);
	EXPECT_EQ(doc.substr(doc.size() - 2), "}\n");
}

/* The newest OpenSSL's fields: its version or the reason it is missing in
 * the machine block, and the Python layer's cost per call in its record
 * only. */
TEST(BenchJson, WheelFields)
{
	bench_record r[2] = { record("openssl", 1), record("openssl-wheel", 1) };
	r[1].call_overhead_ns = 74.5;
	const int threads[] = { 1 };
	const char *const claimed[] = { "openssl", "openssl-wheel" };
	std::string doc;
	ASSERT_NO_FATAL_FAILURE(
		speed_document(settings(threads, 1, "openssl", claimed, 2), r, 2, &doc));
	/* Nothing probed the wheel here: no version, and why. */
	for (const char *want : { "\"openssl_wheel_version\": null,",
				  "\"openssl_wheel_note\": \"not compared",
				  "\"call_overhead_ns\": 74.5," })
		EXPECT_NE(doc.find(want), std::string::npos) << "missing " << want << " in\n" << doc;
	EXPECT_EQ(doc.find("call_overhead_ns"), doc.rfind("call_overhead_ns")) << doc;
}

/* ipp-crypto's fields: its version, features and folder where libippcp
 * loaded, mb8's reason where libcrypto_mb refused, in the machine block and
 * the header; without a probe, null and why. */
TEST(BenchJson, IppFields)
{
	bench_ipp_info ipp = {};
	ipp.probed = ipp.available = 1;
	snprintf(ipp.dir, sizeof(ipp.dir), "/v/lib");
	snprintf(ipp.version, sizeof(ipp.version), "ipp (l9) (ver: 2.3.0)");
	snprintf(ipp.features, sizeof(ipp.features), "0x18000 (avx2 adx)");
	snprintf(ipp.mb_reason, sizeof(ipp.mb_reason), "no IFMA here");
	bench_machine m;
	bench_machine_probe(&m, "chunk64-test", nullptr);
	const int threads[] = { 1 };
	const char *const claimed[] = { "ipp-crypto" };
	bench_settings s = settings(threads, 1, "openssl", claimed, 1);
	bench_record r = record("ipp-crypto", 1);
	for (int probed = 1; probed >= 0; probed--) {
		m.ipp = probed ? &ipp : nullptr;
		int rc = -1;
		std::string doc = text_of([&](FILE *f) { rc = bench_report_json(f, &m, &s, &r, 1); });
		ASSERT_EQ(rc, 0);
		std::string head = text_of([&](FILE *f) { bench_machine_print(f, &m, nullptr); });
		if (probed) {
			for (const char *want : { "\"ipp_version\": \"ipp (l9) (ver: 2.3.0)\",",
						  "\"ipp_features\": \"0x18000 (avx2 adx)\",",
						  "\"ipp_dir\": \"/v/lib\",", "\"ipp_note\": null,",
						  "\"ipp_mb_version\": null,",
						  "\"ipp_mb_note\": \"no IFMA here\"" })
				EXPECT_NE(doc.find(want), std::string::npos) << "missing " << want;
			EXPECT_NE(head.find("  ipp       ipp (l9) (ver: 2.3.0), from /v/lib\n"
					    "            enabled CPU features 0x18000 (avx2 adx)\n"
					    "  ipp mb8   not measured: no IFMA here\n"),
				  std::string::npos) << head;
		} else {
			for (const char *want : { "\"ipp_version\": null,",
						  "\"ipp_note\": \"not compared" })
				EXPECT_NE(doc.find(want), std::string::npos) << "missing " << want;
			EXPECT_EQ(head.find("  ipp "), std::string::npos) << head;
		}
	}
}

TEST(BenchIpp, FeaturesMaskedAsOpenSSLReadsIa32cap)
{
	const unsigned long long avx2 = 0x8000, adx = 0x10000, f = 0x100000,
				 bw = 0x1000000, dq = 0x2000000, vl = 0x4000000,
				 ifma = BENCH_IPP_IFMA;
	const unsigned long long avx512 = f | bw | dq | vl | ifma;
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(nullptr), 0u);
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(""), 0u);
	EXPECT_EQ(bench_ipp_masked_by_ia32cap("~0x200000"), 0u) << "first word only";
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":~0x200000"), ifma);
	EXPECT_EQ(bench_ipp_masked_by_ia32cap("~0x0:~0x200000"), ifma);
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":~2097152"), ifma) << "decimal, as OpenSSL reads it";
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":~0x10000"), avx512) << "no AVX-512F: no AVX-512";
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":~0x80020"), avx2 | adx);
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":0"), avx2 | adx | avx512) << "the word replaced";
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":0xffffffff"), 0u);
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":0xffdfffff"), ifma);
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":~"), 0u) << "no number: nothing";
	EXPECT_EQ(bench_ipp_masked_by_ia32cap(":zz"), 0u);
}

TEST(BenchReport, LocksAndThreadEfficiency)
{
	/* The second thread record was above 100 % in every round. */
	bench_record r[4] = { record("ours", 1), record("openssl-noifma", 1),
			      threaded("ours", 0, 0.9, 0.85, 0.95),
			      threaded("openssl", 26.5, NAN, 1.1, 1.2) };
	for (int i = 0; i < 4; i++) {
		double ns[1] = { 1000.0 * (i + 1) }, cyc[1] = { 1.0 };
		bench_stats_of(&r[i].st, ns, cyc, 1, 10);
	}
	r[0].locks_per_op = 0;
	r[2].cpu_share = 0.99;
	r[3].cpu_share = 1;
	snprintf(r[3].note, sizeof(r[3].note), "withheld");

	std::string key = text_of([&](FILE *f) { bench_report_key(f, r, 4, "embedded:rsa2048.pem", 0.5); });
	EXPECT_NE(key.find("ours/this locks/op\n"), std::string::npos) << key;
	EXPECT_NE(key.find("1.00        0\n"), std::string::npos) << key;
	EXPECT_NE(key.find("0.50        -\n"), std::string::npos) << key; /* not counted */
	EXPECT_EQ(key.find("26.5"), std::string::npos) << "a 2-thread record in the 1-thread table";

	std::string t = text_of([&](FILE *f) { bench_report_threads(f, r, 4, "embedded:rsa2048.pem", 2); });
	EXPECT_NE(t.find("min(T, 2 cores)"), std::string::npos) << t;
	EXPECT_NE(t.find("  ours                   2"), std::string::npos) << t;
	EXPECT_NE(t.find("90%      85-95%   99%        0\n"), std::string::npos) << t;
	EXPECT_NE(t.find("n/a    110-120%  100%     26.5\n"), std::string::npos) << t;
	EXPECT_NE(t.find("openssl                2 withheld\n"), std::string::npos) << t;

	/* A median above 100 % is printed with a '*' and its note. */
	r[2].efficiency = 1.08;
	r[2].efficiency_max = 1.14;
	snprintf(r[2].note, sizeof(r[2].note), "disturbed");
	t = text_of([&](FILE *f) { bench_report_threads(f, r, 4, "embedded:rsa2048.pem", 2); });
	EXPECT_NE(t.find("108%*     85-114%   99%        0\n"), std::string::npos) << t;
	EXPECT_NE(t.find("ours                   2 disturbed\n"), std::string::npos) << t;
}

/* A rate of multiplies a cycle outside 0.25..2 is a failed measurement,
 * reported, never turned into a percentage. */
TEST(BenchPeak, RateOutsideTheSaneRangeIsAnError)
{
	char err[256] = "";
	EXPECT_EQ(bench_peak_check(2.5, "mulx", err, sizeof(err)), -1);
	EXPECT_NE(std::string(err).find("peak of mulx measured 2.5 a core cycle, outside 0.25..2"),
		  std::string::npos) << err;
	err[0] = '\0';
	EXPECT_EQ(bench_peak_check(0.1, "mulx", err, sizeof(err)), -1);
	EXPECT_NE(std::string(err).find("measured 0.1 a core cycle"), std::string::npos) << err;
	EXPECT_EQ(bench_peak_check(NAN, "mulx", err, sizeof(err)), -1);
	EXPECT_EQ(bench_peak_check(INFINITY, "mulx", err, sizeof(err)), -1);
	EXPECT_EQ(bench_peak_check(2.2, "zmm", err, sizeof(err)), -1);
	/* 2.02: two a cycle, read through the calibration's 1 %. */
	for (double ok : { 0.25, 1.0, 2.0, 2.02 })
		EXPECT_EQ(bench_peak_check(ok, "mulx", err, sizeof(err)), 0) << ok;

	/* 1536 mulx in 614.4 ticks at 0.5 ticks a cycle: 1.25 a cycle. */
	bench_peak p = {};
	p.ifma_why = "this CPU lacks AVX-512 IFMA";
	p.ops = 1536;
	p.mulx_ticks = 614.4;
	ASSERT_EQ(bench_peak_finish(&p, 0.5, err, sizeof(err)), 0) << err;
	EXPECT_NEAR(p.mulx, 1.25, 1e-9);
	EXPECT_TRUE(std::isnan(bench_peak_ifma(&p)));
	/* The same ticks at 2 ticks a cycle: 5 a cycle, an error. */
	err[0] = '\0';
	EXPECT_EQ(bench_peak_finish(&p, 2.0, err, sizeof(err)), -1);
	EXPECT_NE(std::string(err).find("--kernels: the peak of mulx measured 5 "),
		  std::string::npos) << err;
	/* IFMA in 8-lane units: ymm instructions halved; the better one bounds. */
	p = {};
	p.mulx_why = "no";
	p.ops = 1536;
	p.zmm_ticks = 1536;
	p.ymm_ticks = 384;
	ASSERT_EQ(bench_peak_finish(&p, 0.5, err, sizeof(err)), 0) << err;
	EXPECT_NEAR(p.zmm, 0.5, 1e-9);
	EXPECT_NEAR(p.ymm_instructions, 2.0, 1e-9);
	EXPECT_NEAR(p.ymm, 1.0, 1e-9);
	EXPECT_NEAR(bench_peak_ifma(&p), 1.0, 1e-9);
	p.ymm_ticks = 256; /* 3 ymm instructions a cycle: 1.5 in 8 lanes, still sane */
	EXPECT_EQ(bench_peak_finish(&p, 0.5, err, sizeof(err)), 0) << err;
	p.zmm_ticks = 100; /* 7.68 zmm a cycle */
	EXPECT_EQ(bench_peak_finish(&p, 0.5, err, sizeof(err)), -1);
	EXPECT_NE(std::string(err).find("vpmadd52luq zmm"), std::string::npos) << err;
	/* vpmuludq and its pairs with vpaddq: ymm instructions a cycle. */
	p = {};
	p.mulx_why = p.ifma_why = "no";
	p.ops = 1536;
	p.vpmuludq_ticks = 384;
	p.muladd_ticks = 512;
	ASSERT_EQ(bench_peak_finish(&p, 0.5, err, sizeof(err)), 0) << err;
	EXPECT_NEAR(p.vpmuludq, 2.0, 1e-9);
	EXPECT_NEAR(p.muladd, 1.5, 1e-9);
	std::string text = text_of([&](FILE *f) { bench_peak_print(f, &p); });
	/* Off x86-64 no peak line is printed (BenchReport.KernelBoundsAndPercentOfPeak). */
	if (BENCH_HAVE_X86_PEAKS)
		EXPECT_NE(text.find("peak vpmuludq + vpaddq: 1.50 ymm products with their sums a "
				    "core cycle, 75 % of the vpmuludq peak\n"),
			  std::string::npos) << text;
	else
		EXPECT_EQ(text, "");
	p.muladd_ticks = 64; /* 12 pairs a cycle */
	EXPECT_EQ(bench_peak_finish(&p, 0.5, err, sizeof(err)), -1);
	EXPECT_NE(std::string(err).find("vpmuludq + vpaddq"), std::string::npos) << err;
}

/* The peak loops are timed before the tables and after: each loop keeps
 * the fewer ticks at each of its two lengths, its ticks their difference,
 * and a loop one side did not time keeps the other's. */
TEST(BenchPeak, KeepsTheBetterOfTwoTimings)
{
	const bench_peak_runs untimed = { NAN, NAN };
	bench_peak p = {}, again = {};
	p.timings = again.timings = 1;
	p.mulx_runs = { 1000, 1800 };
	again.mulx_runs = { 990, 1630 };
	/* Short runs all disturbed in the second timing: the fewer of the
	 * two differences would be 300 - 240 = 60 beside the truth, 200. */
	p.zmm_runs = { 100, 300 };
	again.zmm_runs = { 240, 300 };
	p.ymm_runs = untimed;
	again.ymm_runs = { 100, 600 };
	p.vpmuludq_runs = { 100, 500 };
	again.vpmuludq_runs = untimed;
	p.muladd_runs = again.muladd_runs = untimed;
	bench_peak_keep_best(&p, &again);
	EXPECT_EQ(p.mulx_ticks, 640);
	EXPECT_EQ(p.zmm_ticks, 200);
	EXPECT_EQ(p.ymm_ticks, 500);
	EXPECT_EQ(p.vpmuludq_ticks, 400);
	EXPECT_TRUE(std::isnan(p.muladd_ticks));
	EXPECT_EQ(p.timings, 2);
	EXPECT_EQ(p.zmm_runs.shorter, 100);
	EXPECT_EQ(p.zmm_runs.longer, 300);
}

/* The multiplies a kernel call needs (bench/peak.h). */
TEST(BenchPeak, MultipliesPerCall)
{
	/* { size, squaring, multiplies }: n^2 + n^2 + n mulx for the product,
	 * n(n+1)/2 + n^2 + n for the squaring. */
	const struct {
		int size, sqr;
		double want;
	} mont[] = { { 16, 0, 528 }, { 16, 1, 408 }, { 8, 0, 136 }, { 8, 1, 108 }, { 32, 1, 1584 } },
	  /* 2 halves x 2 (lo, hi) x (k(k+1)/2 + k^2) / 8 lanes = 305 at 20. */
	  dual[] = { { 20, 1, 305 }, { 20, 0, 400 }, { 10, 1, 77.5 }, { 40, 0, 1600 } };
	for (const auto &c : mont)
		EXPECT_EQ(bench_peak_mont_mulx(c.size, c.sqr), c.want) << c.size << " " << c.sqr;
	for (const auto &c : dual)
		EXPECT_EQ(bench_peak_r52_vpmadd52(c.size, c.sqr), c.want) << c.size << " " << c.sqr;
	/* Each kernel's own: Karatsuba's 3 x 8^2 + 16^2 + 16 = 464 at 16
	 * chunks (the adx kernel and the kara16 row), the rows' 528; the pair
	 * product's 4 k ceil(k/4) for both ops. */
	EXPECT_EQ(bench_peak_mont_kernel_mulx("adx", 16, 0), 464);
	EXPECT_EQ(bench_peak_mont_kernel_mulx("kara16", 16, 0), 464);
	EXPECT_EQ(bench_peak_mont_kernel_mulx("rows16", 16, 0), 528);
	EXPECT_EQ(bench_peak_mont_kernel_mulx("adx", 16, 1), 408);
	EXPECT_EQ(bench_peak_mont_kernel_mulx("adx", 32, 0), 2080);
	EXPECT_EQ(bench_peak_mont_kernel_mulx("base", 16, 0), 528);
	EXPECT_EQ(bench_peak_mont_kernel_mulx(nullptr, 16, 0), 528);
	/* The pair product's rows and steps through copies of G or G + 1
	 * groups (30 digits: 8, or 9 for the copy shifted 3 lanes), less one
	 * group for each step whose lowest group has left the window; the
	 * squaring's triangle and 2G squares beside the same steps. */
	EXPECT_EQ(bench_peak_r52_pairs_vpmadd52(30, 0), 967);
	EXPECT_EQ(bench_peak_r52_pairs_vpmadd52(40, 0), 1690);
	EXPECT_EQ(bench_peak_r52_pairs_vpmadd52(10, 0), 122);
	EXPECT_EQ(bench_peak_r52_pairs_vpmadd52(30, 1), 750);
	EXPECT_EQ(bench_peak_r52_pairs_vpmadd52(40, 1), 1299);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("pairs", 30, 1), 750);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("pairs", 41, 0), 1774);
	/* What each radix-2^52 kernel issues: the NASM kernels at 20 digits
	 * (the ifma rows' 20 column and the tunings' rows), the intrinsics'
	 * 4kG product and 3kG + 2G squaring elsewhere. */
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("amd", 20, 1), 349);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("intel", 20, 0), 435);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("ifma", 20, 1), 349);
	/* the ifma row at 30 digits runs the pair product where this CPU
	 * binds it; at 10 digits the NASM pair product, which squares too
	 * (64 multiply-adds for the rows, 52 for the steps) */
	int pairs30 = 0, pairs10 = 0;
#if BIG_R52_HAVE_IFMA_BUILD
	pairs30 = big_r52_cpu_has_ifma() && big_r52_mul_pairs_wanted(30);
	pairs10 = big_r52_cpu_has_ifma() && big_r52_mul_pairs_wanted(10);
#endif
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("ifma", 30, 0), pairs30 ? 967 : 960);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("ifma", 10, 1), pairs10 ? 116 : 96);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("pairs", 10, 1), 116);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("pairs", 10, 0), 116);
	/* The lane kernels: the algorithm's 4k^2 + k and 3k^2 + 2k; the
	 * window's squaring 2k - 3 more at 10 and 20 digits (its doubled
	 * digits) and both k fewer at 10 (the early q), both k fewer at 20
	 * too where the NASM kernels are bound (their early q), the tiles'
	 * 4k^2 and 3k^2 + k at 30 and 40. */
	EXPECT_EQ(bench_peak_lanes52_kernel_vpmadd52(nullptr, 40, 0), 6440);
	EXPECT_EQ(bench_peak_lanes52_kernel_vpmadd52("ifma", 40, 0), 6400);
	EXPECT_EQ(bench_peak_lanes52_kernel_vpmadd52("ifma", 30, 1), 2730);
	EXPECT_EQ(bench_peak_lanes52_kernel_vpmadd52(nullptr, 20, 1), 1240);
	EXPECT_EQ(bench_peak_lanes52_kernel_vpmadd52("ifma", 20, 1),
		  bench_peak_lanes52_nasm20(20) ? 1257 : 1277);
	int nasm20 = 0;
#if BIG_LANES52_HAVE_IFMA_BUILD
	nasm20 = big_lanes52_sqr20_asm();
#endif
	EXPECT_EQ(bench_peak_lanes52_nasm20(20), nasm20);
	EXPECT_EQ(bench_peak_lanes52_nasm20(10), 0);
	EXPECT_EQ(bench_peak_lanes52_kernel_vpmadd52("ifma", 20, 0),
		  bench_peak_lanes52_nasm20(20) ? 1600 : 1620);
	EXPECT_EQ(bench_peak_lanes52_kernel_vpmadd52("ifma", 10, 1), 327);
	EXPECT_EQ(bench_peak_lanes52_kernel_vpmadd52("ifma", 10, 0), 400);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("ifma", 10, 0), pairs10 ? 116 : 120);
	/* The radix-2^28 lane kernels: 2(2k^2 + k) and 2(k(k+1)/2 + k^2 + k),
	 * the NASM squarings at 37, 55, 74 by one level of Karatsuba: 551
	 * square products for 703 at 37 digits, 2 x (551 + 1369 + 37). */
	EXPECT_EQ(bench_peak_lanes_vpmuludq(37, 0), 5550);
	EXPECT_EQ(bench_peak_lanes_vpmuludq(37, 1), 4218);
	EXPECT_EQ(bench_peak_lanes_kernel_vpmuludq("intrin", 37, 1), 4218);
	EXPECT_EQ(bench_peak_lanes_kernel_vpmuludq("asm", 37, 1), 3914);
	EXPECT_EQ(bench_peak_lanes_kernel_vpmuludq("asm", 37, 0), 5550);
	EXPECT_EQ(bench_peak_lanes_kernel_vpmuludq("asm", 19, 1), 2 * (190 + 361 + 19));
	EXPECT_EQ(bench_peak_lanes_kernel_vpmuludq("asm", 55, 1), 2 * (1190 + 3025 + 55));
	EXPECT_EQ(bench_peak_lanes_kernel_vpmuludq("asm", 74, 1), 2 * (2109 + 5476 + 74));
	EXPECT_EQ(bench_peak_lanes_kernel_vpmuludq("c", 74, 1), 2 * (2775 + 5476 + 74));
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("ymm", 30, 0), 960);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("ymm", 30, 1), 736);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52("ymm", 40, 1), 1220);
	EXPECT_EQ(bench_peak_r52_kernel_vpmadd52(nullptr, 30, 0), 900);
	EXPECT_EQ(bench_peak_bound(528, 2), 264);
	EXPECT_EQ(bench_peak_pct(264, 528), 50);
	EXPECT_TRUE(std::isnan(bench_peak_bound(528, NAN)));
	EXPECT_TRUE(std::isnan(bench_peak_pct(264, 0)));
}

/* Kernel tables at 0.5 ticks a cycle and one mulx a cycle, each adx row
 * at twice its bound: 50 % of peak; IFMA not measured, so the radix-2^52
 * rows have no bound. */
void fake_kernels(bench_kernels *k)
{
	*k = {};
	k->clock.best_ticks = 2048;
	k->clock.samples = 3;
	k->ticks_per_cycle = 0.5;
	k->peak.mulx = 1.0;
	k->peak.timings = 2;
	k->peak.zmm = k->peak.ymm = k->peak.ymm_instructions = NAN;
	k->peak.ifma_why = "this CPU lacks AVX-512 IFMA";
	k->peak.fma = k->peak.fma_halves = NAN;
	k->peak.fma_why = "this CPU lacks AVX2 and FMA";
	const int lens[BENCH_MONT_LENS] = { 8, 12, 16, 24, 32 };
	k->mont.nkernels = 2;
	for (int op = 0; op < 2; op++) {
		k->mont.kernel[op].name = "adx";
		k->mont.kernel[op].op = op ? "sqr" : "mul";
		for (int i = 0; i < BENCH_MONT_LENS; i++)
			k->mont.kernel[op].ticks[i] = bench_peak_mont_kernel_mulx("adx", lens[i], op);
	}
	k->r52.nrows = 2;
	k->r52.row[0] = { "c", "mul", { 1000, 2000, 3000, 4000 } };
	k->r52.row[1] = { "c", "sqr", { 900, 1800, 2700, 3600 } };
	k->trial_scale = 0.05;
	k->vec.trials = 50;
	k->mont.trials = 15;
	k->r52.trials = 14;
	k->lanes.trials = 5;
	k->lanes52.trials = 4;
	k->lanes52.why = "no AVX-512 IFMA on this CPU";
	k->lanes52.fma_why = "no AVX2 and FMA on this CPU";
	k->lanes52.fma512_why = "no AVX-512F on this CPU";
	k->paired.trials = 3;
	k->vertical.trials = 3;
	k->vertical_zmm.trials = 3;
}

/* --seconds scales each table's trials from its count at 1 (cycles.h):
 * exactly that count at 1, rounded, a tenth under a sanitizer, never
 * fewer than the floor; the peak is not scaled. */
TEST(BenchKernels, TrialsFollowSeconds)
{
#ifdef BENCH_SANITIZED
	const int tenth = 10;
#else
	const int tenth = 1;
#endif
	/* What a table takes the best of, from round(n * --seconds). */
	const auto want = [](int rounded) {
		return std::max(rounded / tenth, BENCH_KERNEL_MIN_TRIALS);
	};
	const int defaults[] = { BENCH_VEC_TRIALS, BENCH_MONT_TRIALS, BENCH_R52_TRIALS,
				 BENCH_LANES_TRIALS, BENCH_LANES52_TRIALS, BENCH_CRT_POW_TRIALS };
	for (int n : defaults) {
		EXPECT_EQ(bench_kernel_trials(n, 1.0), want(n)) << n;
		EXPECT_EQ(bench_kernel_trials(n, 2.0), want(2 * n)) << n;
		EXPECT_LE(bench_kernel_trials(n, 0.05), want(n)) << n;
		EXPECT_EQ(bench_kernel_trials(n, BENCH_SPEED_MAX_SECONDS), want(n * 3600)) << n;
	}
	EXPECT_EQ(bench_kernel_trials(300, 0.05), want(15));
	EXPECT_EQ(bench_kernel_trials(1000, 0.0125), want(13)) << "rounded to nearest";
	EXPECT_EQ(bench_kernel_trials(1000, 0.0124), want(12));
	EXPECT_EQ(bench_kernel_trials(BENCH_CRT_POW_TRIALS, BENCH_SPEED_MIN_SECONDS),
		  BENCH_KERNEL_MIN_TRIALS) << "the floor";
	EXPECT_EQ(bench_kernel_trials(30, 0), BENCH_KERNEL_MIN_TRIALS);
	EXPECT_EQ(bench_kernel_trials(30, NAN), BENCH_KERNEL_MIN_TRIALS);
	EXPECT_EQ(bench_kernel_trials(1000, 1e12), want(INT_MAX)) << "no overflow";
}

/* Core cycles are rdtsc ticks over the calibration on x86-64; elsewhere
 * the ticks are the clock's ns, and there are no core cycles. */
#if BENCH_HAVE_CORE_CYCLES
const char *const kCycles816 = "\"cycles\": 816,", *const kCycles7200 = "\"cycles\": 7200,",
		  *const kPct50 = "\"pct_of_peak\": 50\n", *const kTicksUnit = "\"ticks_unit\": \"rdtsc\",",
		  *const kAbove = "\"above_peak\": false,";
#else
const char *const kCycles816 = "\"cycles\": null,", *const kCycles7200 = "\"cycles\": null,",
		  *const kPct50 = "\"pct_of_peak\": null\n", *const kTicksUnit = "\"ticks_unit\": \"ns\",",
		  *const kAbove = "\"above_peak\": null,";
#endif

TEST(BenchJson, KernelsDocument)
{
	bench_kernels k;
	fake_kernels(&k);
	const int threads[] = { 1 };
	const char *const claimed[] = { "ours" };
	bench_settings s = settings(threads, 1, "none", claimed, 1);
	std::string plain;
	ASSERT_NO_FATAL_FAILURE(speed_document(s, nullptr, 0, &plain));
	EXPECT_EQ(plain.find("\"kernels\""), std::string::npos) << "no --kernels, no kernels";

	s.kernels = &k;
	std::string doc;
	ASSERT_NO_FATAL_FAILURE(speed_document(s, nullptr, 0, &doc));
	for (const char *want : {
		     "\"records\": [],\n  \"kernels\": {\n    \"ticks_per_cycle\": 0.5,",
		     "\"calibration_samples\": 3,", "\"peak\": {", "\"mulx_per_cycle\": 1,",
		     "\"mulx_note\": null,", "\"ifma_zmm_per_cycle\": null,",
		     "\"ifma_per_cycle\": null,",
		     "\"ifma_note\": \"this CPU lacks AVX-512 IFMA\",", "\"min\": 0.25,",
		     "\"max\": 2,", "\"montgomery\": [", "\"variant\": \"adx\",",
		     "\"op\": \"sqr\",", "\"chunks\": 16,", "\"ticks\": 408,",
		     kCycles816, "\"mulx\": 408,", "\"bound_cycles\": 408,", kAbove,
		     kPct50, "\"radix52\": [", "\"build\": \"c\",",
		     "\"digits\": 40,", kCycles7200, "\"vpmadd52_zmm\": null,", kTicksUnit,
		     "\"bound_cycles\": null,", "\"above_peak\": null,",
		     "\"pct_of_peak\": null\n", "\"trial_scale\": 0.05,",
		     "\"trials\": {\n      \"vector\": 50,\n      \"montgomery\": 15,\n      "
		     "\"radix52\": 14,\n      \"lanes\": 5,\n      \"lanes52\": 4,\n      "
		     "\"paired\": 3,\n      \"vertical\": 3,\n      \"vertical_zmm\": 3\n    },",
		     "\"lanes52\": [],\n    \"lanes52_note\": \"no AVX-512 IFMA on this CPU\",",
		     "\"lanes52_fma\": [],\n    \"lanes52_fma_note\": \"no AVX2 and FMA on this CPU\",",
		     "\"lanes52_fma512\": [],\n    \"lanes52_fma512_note\": \"no AVX-512F on this "
		     "CPU\",",
		     "\"fma_per_cycle\": null,", "\"fma_note\": \"this CPU lacks AVX2 and FMA\",",
		     "\"chains\": 12,\n      \"trials\": 300,\n      \"timings\": 2\n" })
		EXPECT_NE(doc.find(want), std::string::npos) << "missing " << want << " in\n" << doc;
	/* Every row and size: 2 x 5 Montgomery, 2 x 4 radix-2^52. */
	size_t rows = 0;
	for (size_t at = 0; (at = doc.find("\"pct_of_peak\"", at)) != std::string::npos; at++)
		rows++;
	EXPECT_EQ(rows, 18u) << doc;
}

/* The zmm lane build's rows: against the zmm vpmuludq peak, half the ymm
 * build's count (one stream), in a table of their own after the ymm one;
 * in the JSON under "vpmuludq_zmm". */
TEST(BenchReport, ZmmLaneRowsAgainstTheZmmPeak)
{
	bench_peak p = {};
	p.mulx_why = p.ifma_why = "no";
	p.ops = 1536;
	p.vpmuludq_ticks = 384;      /* 2 ymm a cycle at 0.5 ticks a cycle */
	p.muladd_ticks = 512;        /* 1.5 */
	p.zmm_vpmuludq_ticks = 384;  /* 2 zmm a cycle */
	p.zmm_muladd_ticks = 768;    /* 1 pair */
	char err[256] = "";
	ASSERT_EQ(bench_peak_finish(&p, 0.5, err, sizeof(err)), 0) << err;
	EXPECT_NEAR(p.zmm_vpmuludq, 2.0, 1e-9);
	EXPECT_NEAR(p.zmm_muladd, 1.0, 1e-9);
	bench_lanes_table t = {};
	t.trials = 3;
	const char *const names[] = { "c", "c", "avx2", "avx2", "intrin", "asm", "intrin", "asm",
				      "avx512", "avx512" };
	for (int r = 0; r < 10; r++) {
		t.row[r] = bench_kernel_row{};
		t.row[r].name = names[r];
		t.row[r].op = (r < 4 ? r % 2 : r < 8 ? r >= 6 : r % 2) ? "sqr" : "mul";
		for (int c = 0; c < BENCH_LANES_SIZES; c++)
			t.row[r].ticks[c] = 10000;
	}
	t.nrows = 10;
	t.nzmm = 2;
	std::string text = text_of([&](FILE *f) { bench_lanes_kernels_print(f, &t, 0.5, &p); });
	std::string doc = text_of([&](FILE *f) {
		json_writer w;
		json_begin(&w, f);
		json_object_begin(&w);
		json_key(&w, "lanes");
		json_array_begin(&w);
		bench_lanes_kernels_json(&w, &t, 0.5, &p);
		json_array_end(&w);
		json_object_end(&w);
		json_finish(&w);
	});
	if (!BENCH_HAVE_X86_PEAKS) {
		EXPECT_EQ(text.find("zmm"), std::string::npos) << text;
		return;
	}
	/* 74 digits: 2k^2 + k = 11026 zmm vpmuludq for the product, at 2 a
	 * cycle 5513 cycles of the 20000 a call took. */
	const size_t zmm = text.find("zmm lane kernels against the peak: bound = the zmm "
				     "vpmuludq a call needs / 2.00 a cycle\n");
	ASSERT_NE(zmm, std::string::npos) << text;
	EXPECT_NE(text.find("bound    mul       370     1388     3052     5513   core cycles: "
			    "2k^2 + k zmm vpmuludq", zmm), std::string::npos) << text;
	EXPECT_NE(text.find("avx512   mul", zmm), std::string::npos) << text;
	EXPECT_EQ(text.find("avx512   mul", text.find("lane kernels against the peak")),
		  text.find("avx512   mul", zmm)) << "no avx512 row in the ymm table:\n" << text;
	EXPECT_NE(text.find("1.00 pairs a core cycle, 50 % of the zmm vpmuludq peak"),
		  std::string::npos) << text;
	EXPECT_NE(doc.find("\"vpmuludq_zmm\": 11026"), std::string::npos) << doc;
}

/* The FMA lane build's rows (bench/lanes52_kernels.c): against the
 * vfmadd231pd peak, 8k^2 + 2k and 6k^2 + 4k ymm FMAs a call, in a table
 * of their own after the IFMA one, which is not run here (no IFMA), with
 * the half products' share of the peak; in the JSON under
 * "vfmadd231pd_ymm". */
TEST(BenchReport, FmaLaneRowsAgainstTheFmaPeak)
{
	bench_peak p = {};
	p.mulx_why = p.ifma_why = p.vpmuludq_why = p.zmm_vpmuludq_why = "no";
	p.ops = 1536;
	p.fma_ticks = 384;        /* 2 FMAs a cycle at 0.5 ticks a cycle */
	p.fma_halves_ticks = 640; /* 1.2 */
	char err[256] = "";
	ASSERT_EQ(bench_peak_finish(&p, 0.5, err, sizeof(err)), 0) << err;
	EXPECT_NEAR(p.fma, 2.0, 1e-9);
	EXPECT_NEAR(p.fma_halves, 1.2, 1e-9);
	bench_lanes52_table t = {};
	t.trials = 3;
	t.why = "no AVX-512 IFMA on this CPU";
	t.fma_nrows = 2;
	for (int r = 0; r < 2; r++) {
		t.fma_row[r] = bench_kernel_row{};
		t.fma_row[r].name = "fma";
		t.fma_row[r].op = r ? "sqr" : "mul";
		for (int c = 0; c < BENCH_LANES52_SIZES; c++)
			t.fma_row[r].ticks[c] = 10000;
	}
	std::string text = text_of([&](FILE *f) { bench_lanes52_kernels_print(f, &t, 0.5, &p); });
	std::string peak = text_of([&](FILE *f) { bench_peak_print(f, &p); });
	std::string doc = text_of([&](FILE *f) {
		json_writer w;
		json_begin(&w, f);
		json_object_begin(&w);
		json_key(&w, "lanes52_fma");
		json_array_begin(&w);
		bench_lanes52_kernels_fma_json(&w, &t, 0.5, &p);
		json_array_end(&w);
		json_object_end(&w);
		json_finish(&w);
	});
	if (!BENCH_HAVE_X86_PEAKS) {
		EXPECT_EQ(text.find("FMA"), std::string::npos) << text;
		return;
	}
	EXPECT_NE(peak.find("peak vfmadd231pd: 2.00 ymm FMAs a core cycle; in half products (two "
			    "a digit product, with a subtraction and two vpaddq) 1.20, 60 % of it"),
		  std::string::npos) << peak;
	const size_t ifma = text.find("radix 2^52 on AVX-512 IFMA (best of 3 runs of 16 dependent "
				      "calls): not run: no AVX-512 IFMA on this CPU");
	const size_t fma = text.find("FMA lane kernels against the peak: bound = the ymm "
				     "vfmadd231pd a call needs / 2.00 a cycle\n");
	ASSERT_NE(ifma, std::string::npos) << text;
	ASSERT_NE(fma, std::string::npos) << text;
	EXPECT_LT(ifma, fma) << text;
	/* 40 digits: 8k^2 + 2k = 12880 FMAs for the product, at 2 a cycle
	 * 6440 cycles of the 20000 a call took. */
	EXPECT_NE(text.find("bound    mul       410     1620     3630     6440   core cycles: "
			    "8k^2 + 2k ymm vfmadd231pd", fma), std::string::npos) << text;
	EXPECT_NE(text.find("bound    sqr       320     1240     2760     4880   core cycles: "
			    "6k^2 + 4k ymm vfmadd231pd", fma), std::string::npos) << text;
	EXPECT_NE(text.find("fma      mul      2.0%     8.1%    18.1%    32.2%", fma),
		  std::string::npos) << text;
	EXPECT_NE(text.find("1.20 FMAs a core cycle, 60 % of the peak", fma), std::string::npos)
		<< text;
	EXPECT_NE(doc.find("\"vfmadd231pd_ymm\": 12880"), std::string::npos) << doc;
}

TEST(BenchReport, KernelBoundsAndPercentOfPeak)
{
	bench_kernels k;
	fake_kernels(&k);
#if !BENCH_HAVE_X86_PEAKS
	/* Off x86-64 the peaks are x86-64's multipliers: even given a rate,
	 * no peak line and no bound table, the kernels' rows alone, and no
	 * x86 instruction or extension named (bench/peak.h). */
	std::string all = text_of([&](FILE *f) {
		bench_peak_print(f, &k.peak);
		bench_mont_kernels_print(f, &k.mont, k.ticks_per_cycle, &k.peak);
		bench_r52_kernels_print(f, &k.r52, k.ticks_per_cycle, &k.peak);
		bench_lanes_kernels_print(f, &k.lanes, k.ticks_per_cycle, &k.peak);
	});
	EXPECT_NE(all.find("\nadx      mul "), std::string::npos) << all;
	EXPECT_NE(all.find("\nc        sqr "), std::string::npos) << all;
	std::string lower = all;
	std::transform(lower.begin(), lower.end(), lower.begin(),
		       [](unsigned char c) { return (char)std::tolower(c); });
	for (const char *word : { "peak", "core cycles", "mulx", "vpmadd52", "vpmuludq", "ifma",
				  "avx", "rdtsc" })
		EXPECT_EQ(lower.find(word), std::string::npos) << word << " in\n" << all;
	return;
#endif
	std::string t = text_of([&](FILE *f) {
		bench_mont_kernels_print(f, &k.mont, k.ticks_per_cycle, &k.peak);
	});
	for (const char *want : {
		     "Montgomery kernels, per call (best of 15 runs of 32 dependent calls)\n",
		     "Montgomery kernels against the peak: bound = the mulx a call needs / 1.00 a "
		     "cycle\n",
		     "variant  op          8       12       16       24       32   (bound, % of "
		     "peak)\n",
		     "bound    mul       136      300      528     1176     2080   core cycles: "
		     "n^2 + n^2 + n mulx\n",
		     "bound    sqr       108      234      408      900     1584   core cycles: "
		     "n(n+1)/2 + n^2 + n mulx\n",
		     "adx      mul     50.0%    50.0%    50.0%    50.0%    50.0%   of peak: bound / "
		     "core cycles\n",
		     "  adx mul at 16: its own count, 464 multiplies, bound 464 core cycles\n" })
		EXPECT_NE(t.find(want), std::string::npos) << "missing " << want << " in\n" << t;
	EXPECT_EQ(t.find("above 100"), std::string::npos) << t;
	EXPECT_EQ(t.find("%*"), std::string::npos) << t;
	for (const std::string &line : { t.substr(0, t.find("table read")) }) {
		size_t width = 0;
		for (size_t at = 0, nl; (nl = line.find('\n', at)) != std::string::npos; at = nl + 1)
			width = std::max(width, nl - at);
		EXPECT_LE(width, 100u) << line;
	}
	std::string r = text_of([&](FILE *f) {
		bench_r52_kernels_print(f, &k.r52, k.ticks_per_cycle, &k.peak);
	});
	EXPECT_NE(r.find("radix-2^52 dual kernels against the peak: no bound (peak vpmadd52luq "
			 "not measured)\n"), std::string::npos) << r;
	EXPECT_NE(r.find("(best of 14 runs of 32 dependent calls); ifma: not run, this CPU lacks "
			 "AVX-512 IFMA\n"),
		  std::string::npos) << r;
	/* A row faster than its bound: flagged, in the text and the JSON. */
	k.mont.kernel[0].ticks[2] = 100; /* 200 cycles for 464 mulx at 1 a cycle */
	t = text_of([&](FILE *f) {
		bench_mont_kernels_print(f, &k.mont, k.ticks_per_cycle, &k.peak);
	});
	EXPECT_NE(t.find("adx      mul     50.0%    50.0%   232.0%*    50.0%    50.0%   of peak"),
		  std::string::npos) << t;
	EXPECT_NE(t.find("  * above 100 % of peak: a measurement error"), std::string::npos) << t;
#if BENCH_HAVE_CORE_CYCLES /* else the JSON has no core cycles to flag */
	std::string doc;
	{
		bench_settings s;
		const int threads[] = { 1 };
		const char *const claimed[] = { "ours" };
		s = settings(threads, 1, "none", claimed, 1);
		s.kernels = &k;
		ASSERT_NO_FATAL_FAILURE(speed_document(s, nullptr, 0, &doc));
	}
	const size_t row = doc.find("\"cycles\": 200,");
	ASSERT_NE(row, std::string::npos) << doc;
	const std::string obj = doc.substr(row, doc.find('}', row) - row);
	for (const char *want : { "\"mulx\": 464,", "\"bound_cycles\": 464,", "\"above_peak\": true,",
				  "\"pct_of_peak\": 232\n" })
		EXPECT_NE(obj.find(want), std::string::npos) << "missing " << want << " in\n" << obj;
#endif
	std::string p = text_of([&](FILE *f) { bench_peak_print(f, &k.peak); });
	EXPECT_EQ(p, "peak mulx: 1.00 multiplies a core cycle (12 independent chains, best of "
		     "300 runs in each of 2 timings: before the tables, after)\npeak vpmadd52luq: "
		     "not measured (this CPU lacks AVX-512 IFMA)\npeak vfmadd231pd: not measured "
		     "(this CPU lacks AVX2 and FMA)\n");
	k.peak.timings = 3;
	p = text_of([&](FILE *f) { bench_peak_print(f, &k.peak); });
	EXPECT_NE(p.find("best of 300 runs in each of 3 timings: before the tables, after, again "
			 "while a rate read outside the range)\n"),
		  std::string::npos) << p;
}

/* aarch64 CPUs are named from /proc/cpuinfo's implementer and part, so
 * that results/<cpu-slug>/ tells them apart; unknown parts by number. */
TEST(BenchMachine, ArmCpuNames)
{
	char name[64];
	const struct {
		int implementer, part;
		const char *want;
	} cases[] = {
		{ 0x41, 0xd0c, "ARM Neoverse-N1" }, { 0x41, 0xd40, "ARM Neoverse-V1" },
		{ 0x41, 0xd4f, "ARM Neoverse-V2" }, { 0xc0, 0xac3, "Ampere Ampere-1" },
		{ 0x41, 0xd99, "ARM part 0xd99" },  { 0x99, 0x001, "implementer 0x99 part 0x001" },
		{ -1, 0xd40, "unknown aarch64 CPU" }, { 0x41, -1, "unknown aarch64 CPU" },
	};
	for (const auto &c : cases) {
		bench_arm_cpu_name(name, sizeof(name), c.implementer, c.part);
		EXPECT_STREQ(name, c.want) << std::hex << c.implementer << " " << c.part;
	}
}

} // namespace
