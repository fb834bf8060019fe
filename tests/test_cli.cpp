// bigmont-test: once
/*
 * The bigmont command end to end: runs the BIGMONT_EXE binary with
 * posix_spawn in a fresh temp dir.
 *
 *  - the bad-input corpus tests/data/bad/cases.tsv (made by make-bad.sh):
 *    every case's exit status, its "bigmont: error: <message>" line, and
 *    that no output file (nor a temp file) is left in the output dir;
 *  - encrypt/decrypt round trips through files and through stdin/stdout,
 *    decrypt equal to `openssl pkeyutl -decrypt -pkeyopt
 *    rsa_padding_mode:none` on the same ciphertext;
 *  - a failed operation leaves an existing output file as it was;
 *  - key-info's report, and --help of every command.
 */
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testutil.h"

extern char **environ;

namespace {

struct TempDir {
	std::string path;
	TempDir()
	{
		char tmpl[] = "/tmp/bigmont-cli-XXXXXX";
		const char *p = mkdtemp(tmpl);
		EXPECT_NE(p, nullptr);
		path = p ? p : "/tmp";
	}
	~TempDir()
	{
		if (DIR *d = opendir(path.c_str())) {
			while (dirent *e = readdir(d))
				if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
					unlink((path + "/" + e->d_name).c_str());
			closedir(d);
		}
		rmdir(path.c_str());
	}
	std::vector<std::string> entries() const
	{
		std::vector<std::string> out;
		if (DIR *d = opendir(path.c_str())) {
			while (dirent *e = readdir(d))
				if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
					out.push_back(e->d_name);
			closedir(d);
		}
		return out;
	}
};

std::string slurp(const std::string &path)
{
	std::ifstream f(path, std::ios::binary);
	std::stringstream s;
	s << f.rdbuf();
	return s.str();
}

void spit(const std::string &path, const std::string &data)
{
	std::ofstream f(path, std::ios::binary);
	f << data;
}

struct Result {
	int status = -1;
	std::string out, err;
};

/* Run argv[0] with the rest; stdin from `in_file` (or /dev/null), stdout
 * and stderr captured through files in `scratch`. */
Result run(const std::vector<std::string> &args, const std::string &scratch,
	   const std::string &in_file = "/dev/null")
{
	std::vector<char *> argv;
	for (const auto &a : args)
		argv.push_back(const_cast<char *>(a.c_str()));
	argv.push_back(nullptr);
	const std::string out = scratch + "/stdout", err = scratch + "/stderr";
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, in_file.c_str(), O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	pid_t pid;
	Result r;
	int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	EXPECT_EQ(rc, 0) << "posix_spawn " << argv[0];
	if (rc != 0)
		return r;
	int ws = 0;
	waitpid(pid, &ws, 0);
	r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	r.out = slurp(out);
	r.err = slurp(err);
	unlink(out.c_str());
	unlink(err.c_str());
	return r;
}

std::vector<std::string> split(const std::string &s, char sep)
{
	std::vector<std::string> out;
	std::string cur;
	std::istringstream in(s);
	while (std::getline(in, cur, sep))
		if (sep != ' ' || !cur.empty())
			out.push_back(cur);
	return out;
}

void replace_all(std::string &s, const std::string &from, const std::string &to)
{
	for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
		s.replace(at, from.size(), to);
}

const std::string kExe = BIGMONT_EXE;
std::string key(const std::string &name) { return bt::data_path("keys/" + name); }

TEST(Cli, BadInputCorpus)
{
	const std::string bad = bt::data_path("bad");
	std::ifstream manifest(bad + "/cases.tsv");
	ASSERT_TRUE(manifest) << "cannot read " << bad << "/cases.tsv";
	std::string line;
	int cases = 0;
	while (std::getline(manifest, line)) {
		if (line.empty() || line[0] == '#')
			continue;
		auto f = split(line, '\t');
		ASSERT_EQ(f.size(), 4u) << "bad manifest line: " << line;
		TempDir out, scratch;
		std::string cmd = f[1];
		replace_all(cmd, "{file}", bad + "/" + f[0]);
		replace_all(cmd, "{bad}", bad);
		replace_all(cmd, "{key}", key("rsa1024-e65537.pem"));
		replace_all(cmd, "{pub}", key("rsa1024-e65537.pub.pem"));
		replace_all(cmd, "{out}", out.path + "/out.bin");
		std::vector<std::string> args{kExe};
		for (auto &a : split(cmd, ' '))
			args.push_back(a);
		Result r = run(args, scratch.path);
		SCOPED_TRACE("case: " + f[0] + " | " + f[1]);
		EXPECT_EQ(r.status, std::atoi(f[2].c_str())) << r.err;
		EXPECT_NE(r.err.find("bigmont: error: "), std::string::npos) << r.err;
		EXPECT_NE(r.err.find(f[3]), std::string::npos)
			<< "expected '" << f[3] << "' in: " << r.err;
		EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
		EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out.size() << " bytes";
		EXPECT_TRUE(out.entries().empty()) << "left behind: " << out.entries()[0];
		cases++;
	}
	EXPECT_GE(cases, 40);
}

/* m (k bytes, < n) -> encrypt with the public key -> decrypt with the
 * private key in another format, through files; decrypt by OpenSSL too. */
void round_trip(const std::string &base, size_t k, const std::string &pub,
		const std::string &priv)
{
	SCOPED_TRACE(base + ": " + pub + " -> " + priv);
	TempDir dir;
	bt::Rng rng(std::hash<std::string>()(base + pub));
	std::string m(k, '\0');
	for (size_t i = 1; i < k; i++)
		m[i] = static_cast<char>(rng.next());
	spit(dir.path + "/m.bin", m);
	Result r = run({kExe, "encrypt", "--key", key(base + pub), "--in", dir.path + "/m.bin",
			"--out", dir.path + "/c.bin"},
		       dir.path);
	ASSERT_EQ(r.status, 0) << r.err;
	std::string c = slurp(dir.path + "/c.bin");
	ASSERT_EQ(c.size(), k);
	EXPECT_NE(c, m);
	r = run({kExe, "decrypt", "--key", key(base + priv), "--in", dir.path + "/c.bin", "--out",
		 dir.path + "/back.bin"},
		dir.path);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(slurp(dir.path + "/back.bin"), m);
	/* stdin -> stdout, no fault check. */
	r = run({kExe, "decrypt", "--no-fault-check", "--key=" + key(base + priv)}, dir.path,
		dir.path + "/c.bin");
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, m);
	/* OpenSSL on the same ciphertext. */
	r = run({"/usr/bin/openssl", "pkeyutl", "-decrypt", "-inkey", key(base + ".pem"),
		 "-pkeyopt", "rsa_padding_mode:none", "-in", dir.path + "/c.bin", "-out",
		 dir.path + "/ossl.bin"},
		dir.path);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(slurp(dir.path + "/ossl.bin"), m);
}

TEST(Cli, RoundTripsMatchOpenSSL)
{
	round_trip("rsa1024-e65537", 128, ".pub.pem", ".pem");
	round_trip("rsa1025-ebig", 129, ".rsapub.pem", ".p8.pem");
	round_trip("rsa2047-e3", 256, ".pem", ".der");
	round_trip("rsa2048-e65537", 256, ".p8.der", ".p8.der");
	round_trip("rsa4096-e3", 512, ".pub.pem", ".p8.der");
}

TEST(Cli, FailureKeepsExistingOutput)
{
	TempDir dir;
	spit(dir.path + "/out.bin", "previous contents");
	Result r = run({kExe, "decrypt", "--key", key("rsa1024-e65537.pem"), "--in",
			bt::data_path("bad/input-equals-n.bin"), "--out", dir.path + "/out.bin"},
		       dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(slurp(dir.path + "/out.bin"), "previous contents");
	EXPECT_EQ(dir.entries().size(), 1u);
}

TEST(Cli, KeyInfo)
{
	TempDir dir;
	const struct {
		const char *file;
		std::vector<std::string> report; /* each somewhere in the output */
	} cases[] = {
		{"rsa2048-e65537.pem",
		 {"format: PKCS#1 RSA PRIVATE KEY (PEM)", "type: private", "modulus bits: 2048\n",
		  "public exponent: 65537\n", "checks: passed (p*q = n"}},
		{"rsa1025-ebig.p8.pem",
		 {"format: PKCS#8 PRIVATE KEY (PEM)", "modulus bits: 1025\n",
		  "public exponent: 0xc5b2a3f1d4e6978812ab34cd56ef7891\n"}},
		{"rsa512-e3.rsapub.pem",
		 {"format: PKCS#1 RSA PUBLIC KEY (PEM)", "type: public", "public exponent: 3\n"}},
		{"rsa3072-e65537.der", {"(DER)", "modulus bits: 3072\n"}},
	};
	for (const auto &c : cases) {
		Result r = run({kExe, "key-info", key(c.file)}, dir.path);
		ASSERT_EQ(r.status, 0) << c.file << ": " << r.err;
		for (const std::string &line : c.report)
			EXPECT_NE(r.out.find(line), std::string::npos) << c.file << ": no \"" << line << "\" in\n" << r.out;
	}
}

TEST(Cli, HelpOfEveryCommand)
{
	TempDir dir;
	for (const char *cmd : {"decrypt", "encrypt", "key-info"}) {
		Result r = run({kExe, cmd, "--help"}, dir.path);
		EXPECT_EQ(r.status, 0) << cmd;
		EXPECT_NE(r.out.find(std::string("usage: bigmont ") + cmd), std::string::npos)
			<< r.out;
		EXPECT_TRUE(r.err.empty()) << r.err;
	}
	Result r = run({kExe, "--help"}, dir.path);
	EXPECT_EQ(r.status, 0);
	EXPECT_NE(r.out.find("decrypt"), std::string::npos);
}

} // namespace
