// bigmont-test: once
/*
 * `bigmont speed` at its edges (issue 19), run through /bin/sh so that
 * standard output can be a shell redirection:
 *  - --json into a missing directory, onto a directory, a symlink loop or
 *    (not as root) a read-only file fails before any timing; a good
 *    --json file is written whole, nothing left beside;
 *  - --compare values too long, unknown, repeated or empty are refused,
 *    and so are a size, a thread count or a key (by any path) given twice;
 *  - --batch with a bad --threads list (0, empty values, above 1024) is
 *    refused before timing, and its --json is not written;
 *  - --seconds outside 0.01..3600 (1e-300, nan, inf...) is refused, and
 *    --help and the report header say that a minimum of batches applies;
 *  - every error is one line with one "bigmont: error: " prefix, and a
 *    key the benchmark cannot take gets our loader's reason;
 *  - --json - writes the JSON document alone to standard output;
 *  - output errors (stdout is /dev/full, stdout closed) are exit 1;
 *  - `bigmont speed` runs bigmont-speed found beside the
 *    command, a clear error when it is missing, and the --help of each
 *    names the other;
 *  - every option but --key given twice is refused; DER keys,
 *    PKCS #1 and #8, are measured; on a terminal, standard error gets a
 *    progress line per key, step and round, erased, and none with --json -.
 * No device node is passed as a path: /dev/full appears only as a
 * redirection of standard output.
 */
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "testutil.h"

namespace fs = std::filesystem;

namespace {

/* A path as one shell word (the source tree's path may hold a space). */
std::string q(const std::string &path)
{
	return "'" + path + "'";
}

/* A fresh directory under the system's temporary one, removed after. */
class SpeedCli : public ::testing::Test {
protected:
	void SetUp() override
	{
		char tmpl[] = "/tmp/bigmont-speed-XXXXXX";
		ASSERT_NE(mkdtemp(tmpl), nullptr);
		dir = tmpl;
	}
	void TearDown() override
	{
		std::error_code ec;
		fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ec);
		fs::remove_all(dir, ec);
	}

	struct Result {
		int status = -1;
		std::string out, err;
		double seconds = 0;
	};

	static std::string read(const std::string &path)
	{
		std::ifstream f(path, std::ios::binary);
		std::stringstream s;
		s << f.rdbuf();
		return s.str();
	}

	/* bigmont speed ARGS, stdout to a file unless `stdout_to` redirects it
	 * elsewhere (a shell redirection such as ">/dev/full" or ">&-"). */
	Result speed(const std::string &args, const std::string &stdout_to = "")
	{
		return shell("'" BIGMONT_EXE "' speed " + args, stdout_to);
	}

	/* A shell command run in dir, as speed() runs bigmont speed. */
	Result shell(const std::string &command, const std::string &stdout_to = "")
	{
		const std::string out = dir + "/.stdout", err = dir + "/.stderr";
		std::string cmd = "cd '" + dir + "' && " + command + " 2>'" + err + "' " +
				  (stdout_to.empty() ? ">'" + out + "'" : stdout_to);
		auto t0 = std::chrono::steady_clock::now();
		int ws = std::system(cmd.c_str());
		Result r;
		r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
		r.out = read(out);
		r.err = read(err);
		fs::remove(out);
		fs::remove(err);
		return r;
	}

	/* One error line, one prefix, containing `what`. */
	static void expect_error(const Result &r, int status, const std::string &what)
	{
		EXPECT_EQ(r.status, status) << r.err;
		EXPECT_EQ(r.err.rfind("bigmont: error: ", 0), 0u) << r.err;
		EXPECT_EQ(r.err.find("bigmont:", 1), std::string::npos) << "two prefixes: " << r.err;
		EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
		EXPECT_NE(r.err.find(what), std::string::npos) << "expected '" << what << "' in " << r.err;
	}

	std::string dir;
};

/* Five seconds per implementation would take half a minute or more: the
 * error must come first. */
TEST_F(SpeedCli, JsonPathCheckedBeforeTiming)
{
	Result r = speed("--bits 1024 --seconds 5 --json missing/dir/out.json");
	expect_error(r, 1, "cannot write output file 'missing/dir/out.json': its directory does not exist");
	EXPECT_LT(r.seconds, 5.0);
	EXPECT_TRUE(r.out.empty()) << r.out;

	fs::create_directory(dir + "/sub");
	r = speed("--bits 1024 --seconds 5 --json sub");
	expect_error(r, 1, "cannot write output file 'sub': it is a directory");
	EXPECT_LT(r.seconds, 5.0);

	fs::create_symlink("loop2", dir + "/loop1");
	fs::create_symlink("loop1", dir + "/loop2");
	r = speed("--bits 1024 --seconds 5 --json loop1");
	expect_error(r, 1, "Too many levels of symbolic links");
	EXPECT_LT(r.seconds, 5.0);

	if (geteuid() != 0) { /* root writes anywhere */
		fs::permissions(dir + "/sub", fs::perms::owner_read | fs::perms::owner_exec);
		r = speed("--bits 1024 --seconds 5 --json sub/out.json");
		expect_error(r, 1, "Permission denied");
		EXPECT_LT(r.seconds, 5.0);
		std::ofstream(dir + "/read-only.json") << "{}\n";
		fs::permissions(dir + "/read-only.json", fs::perms::owner_read);
		r = speed("--bits 1024 --seconds 5 --json read-only.json");
		expect_error(r, 1, "cannot write output file 'read-only.json': Permission denied");
		EXPECT_LT(r.seconds, 5.0);
	}
}

/* --json onto a --key file, by its name or a link, would replace the key
 * with the report: refused before timing, the key left as it was. */
TEST_F(SpeedCli, JsonNeverTheKeyFile)
{
	const std::string key = dir + "/k.pem";
	fs::copy_file(bt::data_path("keys/rsa1024-e3.pem"), key);
	fs::create_symlink("k.pem", dir + "/link.pem");
	const std::string before = read(key);
	for (const char *json : { "k.pem", "./k.pem", "link.pem" }) {
		Result r = speed("--seconds 5 --compare none --key k.pem --json " + std::string(json));
		expect_error(r, 2, "--json: output file '" + std::string(json) +
					   "' is the key file 'k.pem'");
		EXPECT_LT(r.seconds, 5.0);
		EXPECT_EQ(read(key), before);
	}
}

TEST_F(SpeedCli, JsonWrittenWhole)
{
	Result r = speed("--bits 1024 --seconds 0.01 --compare none --json out.json");
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_TRUE(r.err.empty()) << r.err;
	std::string doc = read(dir + "/out.json");
	EXPECT_EQ(doc.rfind("{\n  \"schema\": \"bigmont-speed/1\",", 0), 0u) << doc;
	EXPECT_EQ(doc.substr(doc.size() - 2), "}\n");
	int files = 0;
	for (const auto &e : fs::directory_iterator(dir))
		files += e.path().filename() != ".stdout" && e.path().filename() != ".stderr";
	EXPECT_EQ(files, 1) << "a temporary file was left beside out.json";
}

/* With --json -, standard output holds the JSON document alone. */
TEST_F(SpeedCli, JsonToStandardOutputAlone)
{
	Result r = speed("--bits 1024 --seconds 0.01 --compare none --json -");
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out.rfind("{\n  \"schema\": \"bigmont-speed/1\",", 0), 0u) << r.out;
	EXPECT_EQ(r.out.substr(r.out.size() - 2), "}\n");
	EXPECT_NE(r.err.find("RSA-1024 private key"), std::string::npos) << r.err;
	r = speed("--bits 1024 --seconds 0.01 --compare none --json -", ">&-");
	expect_error(r, 1, "standard output is closed: the JSON document has nowhere to go");
}

/* --json naming the file or pipe standard output is (/dev/stdout, the
 * file of a '>') would mix the report and the JSON, or lose the report:
 * refused before timing; a terminal or /dev/null is taken. */
TEST_F(SpeedCli, JsonNotStandardOutputByAnotherName)
{
	Result r = speed("--bits 1024 --seconds 5 --compare none --json same.txt", ">same.txt");
	expect_error(r, 2, "--json: 'same.txt' is standard output, which gets the report too");
	EXPECT_LT(r.seconds, 5.0);
	r = speed("--bits 1024 --seconds 5 --compare none --json /dev/stdout");
	expect_error(r, 2, "--json: '/dev/stdout' is standard output");
	/* a pipe (the pipeline's status is cat's) */
	r = speed("--bits 1024 --seconds 5 --compare none --json /dev/stdout", "| cat >/dev/null");
	EXPECT_NE(r.err.find("--json: '/dev/stdout' is standard output"), std::string::npos)
		<< r.err;
	EXPECT_LT(r.seconds, 5.0);
	r = speed("--bits 1024 --seconds 0.01 --compare none --json /dev/null", ">/dev/null");
	EXPECT_EQ(r.status, 0) << r.err;
}

/* The batch JSON names the lane kernel the header printed, the one the
 * rows ran under the caller's BIGMONT_BATCH. */
TEST_F(SpeedCli, BatchJsonKernelIsTheHeaders)
{
	Result r = shell("BIGMONT_BATCH=c '" BIGMONT_EXE "' speed --batch --bits 1024 "
			 "--seconds 0.01 --json b.json");
	ASSERT_EQ(r.status, 0) << r.err;
	const std::string head = "lane kernel '";
	const size_t at = r.out.find(head);
	ASSERT_NE(at, std::string::npos) << r.out;
	const std::string kernel = r.out.substr(at + head.size(),
						r.out.find('\'', at + head.size()) - at - head.size());
	EXPECT_EQ(kernel, "c");
	EXPECT_NE(read(dir + "/b.json").find("\"batch_kernel\": \"" + kernel + "\""),
		  std::string::npos);
}

/* The file a new output is made in must take one: probed with the
 * temporary file it will use, before timing (access() says yes to root
 * on /proc). */
TEST_F(SpeedCli, JsonWhereNoFileCanBeMadeRefusedBeforeTiming)
{
	if (!fs::is_directory("/proc/self"))
		GTEST_SKIP() << "no /proc";
	Result r = speed("--bits 1024 --seconds 5 --compare none --json /proc/out.json");
	expect_error(r, 1, "cannot create output file '/proc/out.json'");
	EXPECT_LT(r.seconds, 5.0);
	EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(SpeedCli, CompareValuesRefused)
{
	expect_error(speed("--compare " + std::string(300, 'g')), 2, "a value of 300 characters");
	expect_error(speed("--compare gmp,gmp,gmp,gmp,gmp,gmp,gmp,gmp,gmp"), 2, "characters");
	expect_error(speed("--compare gmp,gmp"), 2, "'gmp' is given twice");
	expect_error(speed("--compare gmp,,openssl"), 2, "'' is not gmp, openssl or none");
	expect_error(speed("--compare openssl-noifma"), 2,
		     "'openssl-noifma' is not gmp, openssl or none");
	expect_error(speed("--compare openssl,xyz"), 2, "'xyz' is not gmp, openssl or none");
	expect_error(speed("--compare gmp,"), 2, "'' is not gmp, openssl or none");
	expect_error(speed("--compare none,gmp"), 2, "or none alone");
	expect_error(speed("--compare ''"), 2, "--compare has an empty value");
	expect_error(speed("--compare"), 2, "--compare needs a value");
}

/* --help wins wherever it stands; a --build label is one printable line;
 * --threads and --compare time keys, which --kernels alone does not; a
 * BIGMONT_TUNE is echoed. */
TEST_F(SpeedCli, HelpAnywhereBuildLabelKernelsAlone)
{
	Result r = speed("--bits 1000 --help");
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out.rfind("usage: bigmont speed", 0), 0u) << r.out;
	r = speed("--json --help --bits 1000");
	expect_error(r, 2, "--bits: no embedded key of 1000 bits");
	expect_error(speed("--build \"$(printf 'a\\nb')\" --bits 1024"), 2,
		     "--build: a control character (0x0a) in the label");
	expect_error(speed("--kernels --threads 2"), 2,
		     "--threads: --kernels alone times no key; give --bits or --key too");
	expect_error(speed("--kernels --compare gmp"), 2,
		     "--compare: --kernels alone times no key");
	/* What the environment forces is in the report's build line. */
	r = shell("BIGMONT_TUNE=vertical=0 '" BIGMONT_EXE "' speed --bits 1024 --seconds 0.01 "
		  "--compare none");
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("BIGMONT_TUNE=vertical=0), table read"), std::string::npos) << r.out;
}

/* A size or a key given twice would be measured and reported twice. */
TEST_F(SpeedCli, RepeatedSizeOrKeyRefused)
{
	expect_error(speed("--bits 1024,2048,1024"), 2, "--bits: 1024 is given twice");
	const std::string key = bt::data_path("keys/rsa1024-e65537.pem");
	expect_error(speed("--key " + q(key) + " --key " + q(key)), 2, "is given twice");
	/* The same file by another path, and a thread count twice, as --bits. */
	fs::create_symlink(key, dir + "/link.pem");
	expect_error(speed("--key " + q(key) + " --key link.pem"), 2,
		     "' and 'link.pem' are the same file, given twice");
	expect_error(speed("--key link.pem --key ./link.pem"), 2,
		     "'link.pem' and './link.pem' are the same file, given twice");
	expect_error(speed("--threads 2,2"), 2, "--threads: 2 is given twice");
	expect_error(speed("--threads 1,4,2,4"), 2, "--threads: 4 is given twice");
	/* '-' is standard input's file, which a path names too. */
	expect_error(speed("--key - --key " + q(key), "<" + q(key) + " >/dev/null"), 2,
		     "'-' and '" + key + "' are the same file, given twice");
}

/* --batch takes --threads; a bad list is refused before anything runs,
 * and the JSON asked for is not written. */
TEST_F(SpeedCli, BatchThreadsRefusedWhenBad)
{
	for (const char *bad : { "0", "1,0", "1,,2", "2,", "x", "1025", " 2", "+2", "1, 2" }) {
		Result r = speed(std::string("--batch --bits 1024 --seconds 5 --json out.json "
					     "--threads '") + bad + "'");
		expect_error(r, 2, std::string("--threads: '") + bad +
					   "' is not a list of integers from 1 to 1024");
		EXPECT_TRUE(r.out.empty()) << r.out;
		EXPECT_LT(r.seconds, 5.0) << bad;
		EXPECT_FALSE(fs::exists(dir + "/out.json")) << bad;
	}
	expect_error(speed("--batch --threads 2,1,2 --json out.json"), 2,
		     "--threads: 2 is given twice");
	expect_error(speed("--batch --threads 2 --compare gmp"), 2,
		     "--batch times the batch alone: not with --kernels or --compare");
	EXPECT_FALSE(fs::exists(dir + "/out.json"));
	Result help = speed("--help");
	EXPECT_NE(help.out.find("with --threads, also"), std::string::npos) << help.out;
}

TEST_F(SpeedCli, SecondsRefusedOutsideItsRange)
{
	for (const char *bad : { "1e-300", "0", "-1", "0.001", "3601", "nan", "inf", "1s", "''",
				 "0x1", "' 0.1'" })
		expect_error(speed(std::string("--seconds ") + bad), 2, "--seconds");
	Result help = speed("--help");
	EXPECT_EQ(help.status, 0);
	EXPECT_NE(help.out.find("at least 5 batches"), std::string::npos) << help.out;
}

TEST_F(SpeedCli, HeaderSaysTheMinimumOfBatches)
{
	Result r = speed("--bits 1024 --seconds 0.01 --compare none");
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("at least 5 batches of at least one operation"), std::string::npos)
		<< r.out;
	EXPECT_NE(r.out.find("  locks     "), std::string::npos) << r.out;
}

TEST_F(SpeedCli, OneErrorPrefix)
{
	/* OpenSSL and GMP take this key; ours refuses it (under 512 bits). */
	Result r = speed("--seconds 0.01 --key " + q(bt::data_path("bad/modulus-256-bits.pem")));
	expect_error(r, 1, "modulus-256-bits.pem': the modulus has 256 bits");
	EXPECT_TRUE(r.out.empty()) << "printed before the keys were checked: " << r.out;
	expect_error(speed("--key missing.pem"), 1, "cannot open key file 'missing.pem'");
	/* Our loader's reasons first: no passphrase prompt, no GMP or
	 * OpenSSL message for a key the benchmark cannot take. */
	expect_error(speed("--seconds 0.01 --key " + q(bt::data_path("bad/encrypted-pkcs8.pem"))), 1,
		     "the key is encrypted");
	expect_error(speed("--seconds 0.01 --key " + q(bt::data_path("keys/rsa1024-e3.pub.pem"))), 1,
		     "speed needs a private key, not a public key");
	expect_error(speed("--bits 1000"), 2, "no embedded key of 1000 bits");
	/* --kernels alone writes a JSON document (bench_smoke reads it): its
	 * path is checked before the kernels are timed. */
	expect_error(speed("--kernels --json missing/out.json"), 1, "missing/out.json");
}

TEST_F(SpeedCli, OutputErrorsAreExit1)
{
	Result r = speed("--bits 1024 --seconds 5 --compare none", ">/dev/full");
	expect_error(r, 1, "cannot write the report: No space left on device");
	EXPECT_LT(r.seconds, 5.0) << "the header's write error must stop the run";
	r = speed("--bits 1024 --seconds 5 --compare none", ">&-");
	expect_error(r, 1, "standard output is closed");
	r = speed("--help", ">/dev/full");
	expect_error(r, 1, "cannot write standard output");
}

/* As decrypt does: an option given twice is bad usage, not "the last one
 * wins"; --key alone adds to a list. */
TEST_F(SpeedCli, RepeatedOptionRefused)
{
	const struct {
		const char *option, *first, *second;
	} twice[] = {
		{ "--bits", "1024", "2048" },     { "--seconds", "0.01", "0.02" },
		{ "--threads", "1", "2" },        { "--compare", "gmp", "openssl" },
		{ "--json", "a.json", "b.json" }, { "--build", "one", "two" },
	};
	for (const auto &t : twice) {
		const std::string o = t.option;
		std::string want = "option '" + o + "' given twice";
		expect_error(speed(o + " " + t.first + " " + o + " " + t.second), 2, want);
		expect_error(speed(o + "=" + t.first + " " + o + "=" + t.first), 2, want);
		expect_error(speed(o + "=" + t.first + " --kernels " + o + " " + t.second), 2, want);
	}
	expect_error(speed("--bits 1024 --bits 1024"), 2,
		     "option '--bits' given twice; one takes a comma-separated list");
	expect_error(speed("--kernels --kernels"), 2, "option '--kernels' given twice");
	EXPECT_TRUE(fs::is_empty(dir)) << "a JSON file was written";
}

/* Keys may be PEM or DER (the README): a DER key, PKCS #1 or PKCS #8, is
 * measured by every implementation, the OpenSSL worker (x86-64) included, under
 * its own name. */
TEST_F(SpeedCli, DerKeysMeasured)
{
	for (const char *name : { "keys/rsa1024-e65537.der", "keys/rsa1024-e3.p8.der" }) {
		const std::string path = bt::data_path(name);
		Result r = speed("--seconds 0.01 --key " + q(path));
		ASSERT_EQ(r.status, 0) << r.err;
		EXPECT_TRUE(r.err.empty()) << r.err;
		EXPECT_NE(r.out.find("RSA-1024 private key (" + path + ")"), std::string::npos) << r.out;
		for (const char *impl : { "\n  ours ", "\n  gmp ", "\n  openssl ",
#if defined(__x86_64__)
					  "\n  openssl-noifma "
#endif
		     })
			EXPECT_NE(r.out.find(impl), std::string::npos) << impl << " in " << r.out;
#if !defined(__x86_64__) /* OPENSSL_ia32cap masks x86-64's CPUID bits: no such row */
		EXPECT_EQ(r.out.find("noifma"), std::string::npos) << r.out;
#endif
	}
	/* A DER key and the same key in PEM are two keys, both measured. */
	Result r = speed("--seconds 0.01 --compare none --key " +
			 q(bt::data_path("keys/rsa1024-e3.der")) + " --key " +
			 q(bt::data_path("keys/rsa1024-e3.pem")));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("rsa1024-e3.der)"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("rsa1024-e3.pem)"), std::string::npos) << r.out;
}

/* A key whose primes are not half its size each: every implementation
 * that takes it is measured, ipp-crypto's mb8 (two primes of half n's
 * bits) says it is not, where it is there at all.  Before, its refusal
 * stopped the run: exit 1, no numbers. */
TEST_F(SpeedCli, UnbalancedPrimesMeasured)
{
	const std::string key = bt::data_path("keys/rsa2048-unbalanced.pem");
	for (const char *batch : { "", "--batch " }) {
		Result r = speed(std::string(batch) + "--seconds 0.01 --key " + q(key));
		ASSERT_EQ(r.status, 0) << batch << r.err;
		EXPECT_NE(r.out.find(batch[0] ? "\n  ours-single " : "\n  ours "),
			  std::string::npos) << r.out;
		/* Where libcrypto_mb is there (an IFMA CPU), its row says why. */
		const size_t mb8 = r.out.find("\n  ipp-crypto-mb8 ");
		if (mb8 != std::string::npos) {
			const std::string row = r.out.substr(mb8, r.out.find('\n', mb8 + 1) - mb8);
			if (row.find("libcrypto_mb's") != std::string::npos) {
				EXPECT_NE(row.find("takes primes of half the modulus's 2048 bits, "
						   "not 1025 and 1023"),
					  std::string::npos) << row;
			}
		}
	}
}

/* Each key's table and thread table are its own whatever its label: a
 * path of 200 characters (records once kept 159 and matched the whole),
 * and a file named as an embedded key beside that key. */
TEST_F(SpeedCli, EachKeyItsOwnTable)
{
	const std::string sub = dir + "/" + std::string(200, 'k');
	ASSERT_TRUE(fs::create_directory(sub));
	const std::string path = sub + "/a.pem";
	fs::copy_file(bt::data_path("keys/rsa1024-e3.pem"), path);
	Result r = speed("--seconds 0.01 --compare none --threads 2 --key " + q(path));
	ASSERT_EQ(r.status, 0) << r.err;
	const size_t table = r.out.find("RSA-1024 private key (" + path + ")");
	ASSERT_NE(table, std::string::npos) << r.out;
	EXPECT_NE(r.out.find("\n  ours ", table), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("\n  ours                   2 ", table), std::string::npos) << r.out;

	fs::copy_file(bt::data_path("keys/rsa2048-e65537.pem"), dir + "/embedded:rsa1024.pem");
	r = speed("--seconds 0.01 --compare none --bits 1024 --key embedded:rsa1024.pem");
	ASSERT_EQ(r.status, 0) << r.err;
	const size_t second = r.out.find("RSA-2048 private key (embedded:rsa1024.pem)");
	ASSERT_NE(second, std::string::npos) << r.out;
	/* One ours row in each table: the second did not repeat the first's. */
	const size_t first_row = r.out.find("\n  ours ");
	EXPECT_LT(first_row, second) << r.out;
	const size_t second_row = r.out.find("\n  ours ", second);
	ASSERT_NE(second_row, std::string::npos) << r.out;
	EXPECT_EQ(r.out.find("\n  ours ", second_row + 1), std::string::npos) << r.out;
}

/* Threads far above the cores: a window waits for every thread at each
 * end, so the table runs long; standard error says so before it starts
 * (ordinary thread counts get nothing there, as the other tests check). */
TEST_F(SpeedCli, CrowdedCoresWarned)
{
	cpu_set_t set;
	ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
	const int threads = 16 * CPU_COUNT(&set) + 1;
	if (threads > 1024)
		GTEST_SKIP() << "more than 64 cores: above --threads' limit";
	Result r = speed("--bits 1024 --seconds 0.01 --compare none --threads " +
			 std::to_string(threads));
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.err, "bigmont speed: RSA-1024: " + std::to_string(threads) + " threads on " +
				 std::to_string(CPU_COUNT(&set)) + " core" +
				 (CPU_COUNT(&set) == 1 ? "" : "s") +
				 ": each thread window waits for every thread to be scheduled at its "
				 "start and its end, so the thread table takes much longer than "
				 "--seconds\n");
	EXPECT_NE(r.out.find("threads sharing one key"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find(" " + std::to_string(threads) + " "), std::string::npos) << r.out;
}

/* Standard error on a terminal (a pseudo-terminal here): a progress line
 * per key, step and thread round, each rewritten in place and the last
 * erased, the report on standard output as without it.  Not into a file
 * (the other tests: standard error empty), and not with --json -, whose
 * report takes standard error. */
TEST_F(SpeedCli, ProgressOnATerminal)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0)
		GTEST_SKIP() << "no pseudo-terminal here: " << strerror(errno);
	ASSERT_EQ(grantpt(master), 0);
	ASSERT_EQ(unlockpt(master), 0);
	const std::string tty = ptsname(master);
	/* Everything the slave side was given; EIO once the writers are gone
	 * and the data is read. */
	auto drain = [master] {
		std::string got;
		char buf[4096];
		ssize_t n;
		while ((n = ::read(master, buf, sizeof(buf))) > 0)
			got.append(buf, (size_t)n);
		return got;
	};
	ASSERT_EQ(fcntl(master, F_SETFL, O_NONBLOCK), 0);

	Result r = speed("--bits 1024,2048 --seconds 0.01 --compare none --threads 1,2",
			 ">'" + dir + "/report' 2>'" + tty + "'");
	std::string term = drain();
	EXPECT_EQ(r.status, 0) << term;
	for (const char *line : { "\rbigmont speed: loading key 2 of 2\033[K",
				  "\rbigmont speed: RSA-1024, key 1 of 2: timing, interleaved\033[K",
				  "\rbigmont speed: RSA-2048, key 2 of 2: checking the answers\033[K",
				  "\rbigmont speed: RSA-2048: threads, round 3 of 3\033[K" })
		EXPECT_NE(term.find(line), std::string::npos) << line << " in " << term;
	EXPECT_EQ(term.find('\n'), std::string::npos) << term;
	EXPECT_EQ(term.substr(term.size() >= 4 ? term.size() - 4 : 0), "\r\033[K") << term;
	std::string report = read(dir + "/report");
	EXPECT_NE(report.find("RSA-2048 private key"), std::string::npos) << report;
	EXPECT_EQ(report.find("bigmont speed:"), std::string::npos) << report;

	r = speed("--bits 1024 --seconds 0.01 --compare none --json -",
		  ">'" + dir + "/doc.json' 2>'" + tty + "'");
	term = drain();
	EXPECT_EQ(r.status, 0) << term;
	EXPECT_NE(term.find("RSA-1024 private key"), std::string::npos) << term;
	EXPECT_EQ(term.find("bigmont speed:"), std::string::npos) << term;
	close(master);
}

/* The command and the benchmark are two executables: each one's
 * --help says where the other is; `bigmont speed` passes its arguments and
 * its exit status through; without bigmont-speed beside it (or in the
 * install's libexec/bigmont), `bigmont speed` is a clear error. */
TEST_F(SpeedCli, CommandRunsTheBenchmarkProgram)
{
	/* The executables themselves (BIGMONT_EXE may be a script starting the
	 * command under an emulator), run through BIGMONT_EMULATOR if set. */
	const fs::path exe = fs::canonical(BIGMONT_EXE_FILE);
	const fs::path bench = exe.parent_path() / "bigmont-speed";
	const char *emulator = std::getenv("BIGMONT_EMULATOR");
	const std::string run = emulator != nullptr ? "'" + std::string(emulator) + "' " : "";
	Result r = shell(run + "'" + exe.string() + "' --help");
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("'bigmont speed' runs " + bench.string() + ".\n"), std::string::npos)
		<< r.out;
	r = speed("--help");
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("usage: bigmont speed [options]"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("This program is " + bench.string() + ", which 'bigmont speed' runs"),
		  std::string::npos)
		<< r.out;
	EXPECT_NE(r.out.find("the bigmont command is " + exe.string() + "."), std::string::npos)
		<< r.out;
	/* The benchmark run directly is `bigmont speed`. */
	r = shell(run + "'" + bench.string() + "' --bits 1024 --bits 2048");
	expect_error(r, 2, "option '--bits' given twice");

	/* A copy of the command alone in a directory. */
	const std::string real = fs::canonical(dir).string();
	fs::create_directory(dir + "/bin");
	fs::copy_file(exe, dir + "/bin/bigmont");
	r = shell(run + "bin/bigmont speed --bits 1024");
	expect_error(r, 1, "speed: cannot find the benchmark program bigmont-speed: it is not at " +
				   real + "/bin/bigmont-speed nor at " + real + "/bin/");
	EXPECT_NE(r.err.find("libexec/bigmont/bigmont-speed"), std::string::npos) << r.err;
	r = shell(run + "bin/bigmont --help");
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("'bigmont speed' runs bigmont-speed, which is missing: it is not at " +
			     real + "/bin/bigmont-speed"),
		  std::string::npos)
		<< r.out;
	/* The other commands need nothing else. */
	r = shell(run + "bin/bigmont key-info '" + bt::data_path("keys/rsa1024-e3.pem") + "'");
	EXPECT_EQ(r.status, 0) << r.err;
}

} // namespace
