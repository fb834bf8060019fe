// bigmont-test: once
/*
 * The JSON writer of `bigmont speed` (bench/json.c) and the document it
 * builds from records (bench/report.c): exact output for nesting, commas,
 * escaping, non-finite numbers as null, misuse reported by json_finish,
 * and a full speed document with the fields bench/README.md promises.
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include "json.h"
#include "report.h"
}

namespace {

/* Run f on a writer over a memory stream; return the text, and json_finish's
 * status in *status. */
template <class F> std::string render(F f, int *status)
{
	char *buf = nullptr;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	EXPECT_NE(mem, nullptr);
	json_writer w;
	json_begin(&w, mem);
	f(&w);
	*status = json_finish(&w);
	fclose(mem);
	std::string s(buf, len);
	free(buf);
	return s;
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

/* A whole speed document: the machine block, settings and one record per
 * implementation, n/a as null. */
TEST(BenchJson, SpeedDocument)
{
	bench_machine m;
	bench_machine_probe(&m, "chunk64-test");
	bench_record r[2];
	memset(r, 0, sizeof(r));
	snprintf(r[0].impl, sizeof(r[0].impl), "ours");
	snprintf(r[0].key, sizeof(r[0].key), "embedded:rsa2048.pem");
	r[0].bits = 2048;
	r[0].threads = 1;
	r[0].blinding = 0;
	r[0].fault_check = 1;
	double ns[3] = { 300.0, 100.0, 200.0 }, cyc[3] = { 3, 1, 2 };
	bench_stats_of(&r[0].st, ns, cyc, 3, 30);
	r[0].efficiency = NAN;
	r[0].single_ops_per_s = NAN;
	snprintf(r[1].impl, sizeof(r[1].impl), "ours-blinded");
	snprintf(r[1].key, sizeof(r[1].key), "embedded:rsa2048.pem");
	snprintf(r[1].note, sizeof(r[1].note), "blinding \"n/a\"");
	r[1].bits = 2048;
	r[1].threads = 1;
	r[1].blinding = -1;
	r[1].fault_check = -1;
	bench_stats_of(&r[1].st, nullptr, nullptr, 0, 0);
	r[1].efficiency = NAN;
	r[1].single_ops_per_s = NAN;
	const int threads[] = { 1, 2 };
	const char *const claimed[] = { "ours" };
	bench_settings s = {};
	s.seconds = 0.25;
	s.threads = threads;
	s.nthreads = 2;
	s.compare = "gmp,openssl";
	s.claimed = claimed;
	s.nclaimed = 1;

	char *buf = nullptr;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	ASSERT_EQ(bench_report_json(mem, &m, &s, r, 2), 0);
	fclose(mem);
	std::string doc(buf, len);
	free(buf);

	EXPECT_EQ(doc.rfind("{\n  \"schema\": \"bigmont-speed/1\",\n", 0), 0u) << doc;
	for (const char *want : {
		     "\"machine\": {", "\"build\": \"chunk64-test\"",
		     "\"chunk_bits\": ", "\"variant\": \"", "\"gmp_version\": \"",
		     "\"openssl_version\": \"", "\"flags\": {", "\"avx512ifma\": ",
		     "\"seconds\": 0.25", "\"threads\": [\n      1,\n      2\n    ]",
		     "\"implementations\": [\n      \"ours\"\n    ]",
		     "\"implementation\": \"ours\"", "\"median_ns\": 200,",
		     "\"min_ns\": 100,", "\"max_ns\": 300,", "\"ops_per_s\": 5000000,",
		     "\"samples\": 3,", "\"ops\": 30,", "\"blinding\": false",
		     "\"fault_check\": true", "\"note\": null",
		     "\"implementation\": \"ours-blinded\"", "\"blinding\": null",
		     "\"median_ns\": null", "\"samples\": 0,",
		     "\"note\": \"blinding \\\"n/a\\\"\"" })
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

} // namespace
