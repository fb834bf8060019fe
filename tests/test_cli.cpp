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
 *    rsa_padding_mode:none` on the same ciphertext; and with --batch, many
 *    blocks at once, each equal to its single operation;
 *  - a failed operation leaves an existing output file as it was;
 *  - --out with every kind of path: new and existing regular files (mode
 *    kept), symlinks (followed, dangling, looping), directories, FIFOs,
 *    standard output by its names, device nodes made in the test's own
 *    directory (as root), a file in a directory the user may not write
 *    (run as uid 65534 when the test runs as root);
 *  - output errors (a full device, a closed stdout) are exit 1;
 *  - reads are bounded: endless stdin, FIFOs and devices, under a memory
 *    limit so that a regression fails fast;
 *  - PEM bundles (certificate and key, openssl pkcs12 -nodes output);
 *  - key-info's report, and --help of every command;
 *  - a wrong input length said in words ("1 byte", "2 bytes").
 * No real device node is ever passed as --in or --out: /dev/full appears
 * only as a redirection of stdout.
 */
#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scoped_env.h"
#include "testutil.h"

extern char **environ;

namespace {

struct TempDir {
	std::string path;
	bool made = false;
	TempDir()
	{
		char tmpl[] = "/tmp/bigmont-cli-XXXXXX";
		const char *p = mkdtemp(tmpl);
		EXPECT_NE(p, nullptr);
		made = p != nullptr;
		path = p ? p : "/nonexistent";
	}
	~TempDir()
	{
		if (!made)
			return;
		/* Every directory writable again (a test may have made one
		 * read-only), then everything removed depth first. */
		nftw(
			path.c_str(),
			[](const char *p, const struct stat *st, int type, struct FTW *) {
				if (type == FTW_D)
					chmod(p, (st->st_mode & 07777) | 0700);
				return 0;
			},
			16, FTW_PHYS);
		nftw(
			path.c_str(),
			[](const char *p, const struct stat *, int, struct FTW *) {
				remove(p);
				return 0;
			},
			16, FTW_DEPTH | FTW_PHYS);
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

const std::string kStdoutClosed = "<closed>", kStdoutBrokenPipe = "<broken pipe>";

/* Run argv[0] with the rest; stdin from `in_file` (or /dev/null), stderr
 * captured through a file in `scratch`, and stdout too unless stdout_to
 * names a file to open for it, or is kStdoutClosed, or kStdoutBrokenPipe
 * (a pipe whose reader is gone). */
Result run(const std::vector<std::string> &args, const std::string &scratch,
	   const std::string &in_file = "/dev/null", const std::string &stdout_to = "")
{
	std::vector<char *> argv;
	for (const auto &a : args)
		argv.push_back(const_cast<char *>(a.c_str()));
	argv.push_back(nullptr);
	const std::string out = scratch + "/stdout", err = scratch + "/stderr";
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, in_file.c_str(), O_RDONLY, 0);
	int pipe_fds[2] = { -1, -1 };
	if (stdout_to == kStdoutClosed) {
		posix_spawn_file_actions_addclose(&fa, 1);
	} else if (stdout_to == kStdoutBrokenPipe) {
		EXPECT_EQ(pipe(pipe_fds), 0);
		close(pipe_fds[0]);
		posix_spawn_file_actions_adddup2(&fa, pipe_fds[1], 1);
	} else
		posix_spawn_file_actions_addopen(&fa, 1, stdout_to.empty() ? out.c_str() : stdout_to.c_str(),
						 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	pid_t pid;
	Result r;
	int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	if (pipe_fds[1] >= 0)
		close(pipe_fds[1]);
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

/* The command as uid 65534 (setpriv) runs it: a copy of the binary in a
 * scratch directory of its own (0755), since that user may not reach the
 * build tree (under mktemp's 0700 directory, a home directory).  Under an
 * emulator (BIGMONT_EMULATOR) kExe is a script in the build tree naming
 * the binary there, so the copy is of the binary itself (BIGMONT_EXE_FILE)
 * and the emulator, from the system's directories, runs it. */
struct ExeForOtherUser {
	TempDir dir;
	std::vector<std::string> command;
	ExeForOtherUser()
	{
		const std::string exe = dir.path + "/bigmont";
		spit(exe, slurp(BIGMONT_EXE_FILE));
		EXPECT_EQ(chmod(exe.c_str(), 0755), 0);
		EXPECT_EQ(chmod(dir.path.c_str(), 0755), 0);
		const char *emulator = std::getenv("BIGMONT_EMULATOR");
		if (emulator != nullptr && *emulator != '\0')
			command.push_back(emulator);
		command.push_back(exe);
	}
};

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
		/* Split first: a path with a space is one argument. */
		std::vector<std::string> args{kExe};
		for (std::string a : split(f[1], ' ')) {
			replace_all(a, "{file}", bad + "/" + f[0]);
			replace_all(a, "{bad}", bad);
			replace_all(a, "{key}", key("rsa1024-e65537.pem"));
			replace_all(a, "{pub}", key("rsa1024-e65537.pub.pem"));
			replace_all(a, "{out}", out.path + "/out.bin");
			args.push_back(a);
		}
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

/* --batch: `blocks` random blocks below n through encrypt (block by block)
 * and decrypt (rsa_private_batch: lanes of four, the rest singly).  The
 * first and last ciphertext blocks equal single encrypts, and decrypt
 * gives back every block, so each lane's result is checked. */
void batch_round_trip(const std::string &base, size_t k, size_t blocks)
{
	SCOPED_TRACE(base + ", " + std::to_string(blocks) + " blocks");
	TempDir dir;
	bt::Rng rng(std::hash<std::string>()(base) + blocks);
	std::string m(k * blocks, '\0');
	for (size_t i = 0; i < m.size(); i++)
		if (i % k != 0) /* a zero top byte keeps each block below n */
			m[i] = static_cast<char>(rng.next());
	spit(dir.path + "/m.bin", m);
	Result r = run({kExe, "encrypt", "--batch", "--key", key(base + ".pub.pem"), "--in",
			dir.path + "/m.bin", "--out", dir.path + "/c.bin"},
		       dir.path);
	ASSERT_EQ(r.status, 0) << r.err;
	const std::string c = slurp(dir.path + "/c.bin");
	ASSERT_EQ(c.size(), m.size());
	for (size_t i : {size_t{0}, blocks - 1}) {
		spit(dir.path + "/one.bin", m.substr(i * k, k));
		r = run({kExe, "encrypt", "--key", key(base + ".pub.pem"), "--in",
			 dir.path + "/one.bin"},
			dir.path);
		ASSERT_EQ(r.status, 0) << r.err;
		EXPECT_EQ(r.out, c.substr(i * k, k)) << "block " << i;
	}
	/* Standard input to standard output, the fault check on and off. */
	r = run({kExe, "decrypt", "--batch", "--key", key(base + ".pem")}, dir.path,
		dir.path + "/c.bin");
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, m);
	r = run({kExe, "decrypt", "--key", key(base + ".pem"), "--batch", "--no-fault-check",
		 "--in", dir.path + "/c.bin"},
		dir.path);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, m);
}

TEST(Cli, BatchBlocksEqualSingleOperations)
{
	batch_round_trip("rsa1024-e65537", 128, 1);
	batch_round_trip("rsa1024-e65537", 128, 2);
	batch_round_trip("rsa1024-e65537", 128, 7);
	batch_round_trip("rsa1025-ebig", 129, 5);
	batch_round_trip("rsa2048-e65537", 256, 9);
	batch_round_trip("rsa4096-e3", 512, 4);
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

/* ---- --out: every kind of path ------------------------------------------- */

const std::string kGoodIn = bt::data_path("bad/input-good.bin");

/* decrypt of input-good.bin with the 1024-bit key, to `out`. */
Result decrypt_to(const std::string &out, const std::string &scratch,
		  const std::string &stdout_to = "")
{
	return run({kExe, "decrypt", "--key", key("rsa1024-e65537.pem"), "--in", kGoodIn, "--out", out},
		   scratch, "/dev/null", stdout_to);
}

/* The right answer, through a fresh file. */
std::string expected_plain()
{
	TempDir dir;
	Result r = decrypt_to(dir.path + "/plain.bin", dir.path);
	EXPECT_EQ(r.status, 0) << r.err;
	std::string plain = slurp(dir.path + "/plain.bin");
	EXPECT_EQ(plain.size(), 128u);
	return plain;
}

mode_t mode_of(const std::string &path)
{
	struct stat st{};
	EXPECT_EQ(lstat(path.c_str(), &st), 0) << path;
	return st.st_mode;
}

TEST(CliOut, RegularFilesNewAndExistingKeepTheirMode)
{
	const std::string plain = expected_plain();
	TempDir dir;
	const mode_t mask = umask(0);
	umask(mask);
	Result r = decrypt_to(dir.path + "/new.bin", dir.path);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(slurp(dir.path + "/new.bin"), plain);
	EXPECT_EQ(mode_of(dir.path + "/new.bin") & 07777, 0666 & ~mask);
	for (mode_t m : { 0644, 0640, 0600, 0664, 0604 }) {
		const std::string f = dir.path + "/old.bin";
		spit(f, "previous contents");
		ASSERT_EQ(chmod(f.c_str(), m), 0);
		r = decrypt_to(f, dir.path);
		ASSERT_EQ(r.status, 0) << r.err;
		EXPECT_EQ(slurp(f), plain);
		EXPECT_EQ(mode_of(f), S_IFREG | m);
	}
	/* Less setuid and setgid, which writing the file in place would clear
	 * too; the sticky bit stays. */
	for (mode_t m : { 04755, 02755, 06755, 01644 }) {
		const std::string f = dir.path + "/old.bin";
		ASSERT_EQ(chmod(f.c_str(), m), 0);
		r = decrypt_to(f, dir.path);
		ASSERT_EQ(r.status, 0) << r.err;
		EXPECT_EQ(mode_of(f), S_IFREG | (m & 01777)) << std::oct << m;
	}
	std::vector<std::string> left = dir.entries();
	std::sort(left.begin(), left.end());
	EXPECT_EQ(left, (std::vector<std::string>{ "new.bin", "old.bin" })) << "temporary files left";
}

TEST(CliOut, SymlinksAreFollowed)
{
	const std::string plain = expected_plain();
	TempDir dir;
	const std::string d = dir.path;
	ASSERT_EQ(mkdir((d + "/sub").c_str(), 0755), 0);
	spit(d + "/sub/target.bin", "previous contents");
	ASSERT_EQ(chmod((d + "/sub/target.bin").c_str(), 0640), 0);
	/* A relative link, resolved against its own directory, behind an
	 * absolute one. */
	ASSERT_EQ(symlink("sub/target.bin", (d + "/rel").c_str()), 0);
	ASSERT_EQ(symlink((d + "/rel").c_str(), (d + "/abs").c_str()), 0);
	Result r = decrypt_to(d + "/abs", d);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_TRUE(S_ISLNK(mode_of(d + "/abs")) && S_ISLNK(mode_of(d + "/rel")));
	EXPECT_EQ(slurp(d + "/sub/target.bin"), plain);
	EXPECT_EQ(mode_of(d + "/sub/target.bin"), S_IFREG | 0640);

	/* A dangling link: the file it names is created. */
	ASSERT_EQ(symlink("sub/new.bin", (d + "/dangling").c_str()), 0);
	r = decrypt_to(d + "/dangling", d);
	ASSERT_EQ(r.status, 0) << r.err;
	EXPECT_TRUE(S_ISLNK(mode_of(d + "/dangling")));
	EXPECT_EQ(slurp(d + "/sub/new.bin"), plain);

	/* A loop, and a link into a missing directory: errors, nothing made. */
	ASSERT_EQ(symlink("loop2", (d + "/loop1").c_str()), 0);
	ASSERT_EQ(symlink("loop1", (d + "/loop2").c_str()), 0);
	ASSERT_EQ(symlink("missing/x.bin", (d + "/nowhere").c_str()), 0);
	r = decrypt_to(d + "/loop1", d);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("bigmont: error: cannot write output file '" + d +
			     "/loop1': Too many levels of symbolic links"),
		  std::string::npos)
		<< r.err;
	r = decrypt_to(d + "/nowhere", d);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot write output file '" + d + "/nowhere': its directory does not "
			     "exist"),
		  std::string::npos)
		<< r.err;
	EXPECT_EQ(dir.entries().size(), 7u) << "sub rel abs dangling loop1 loop2 nowhere, nothing else";
}

TEST(CliOut, DirectoriesAndMissingDirectoriesAreErrors)
{
	TempDir dir;
	ASSERT_EQ(mkdir((dir.path + "/d").c_str(), 0755), 0);
	for (const std::string &out : { dir.path + "/d", dir.path + "/d/", std::string("/") }) {
		Result r = decrypt_to(out, dir.path);
		EXPECT_EQ(r.status, 1) << out;
		EXPECT_NE(r.err.find("it is a directory"), std::string::npos) << r.err;
	}
	Result r = decrypt_to(dir.path + "/no/such/dir.bin", dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("its directory does not exist"), std::string::npos) << r.err;
	EXPECT_EQ(dir.entries(), std::vector<std::string>{ "d" });
}

/* A FIFO gets the whole result written into it and stays a FIFO.  The
 * test holds the FIFO open read-write (non-blocking), so the command's
 * open does not wait, and a regression that replaced the FIFO fails here
 * rather than hanging. */
TEST(CliOut, FifoIsWrittenDirectly)
{
	const std::string plain = expected_plain();
	TempDir dir;
	const std::string fifo = dir.path + "/fifo";
	ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
	const int fd = open(fifo.c_str(), O_RDWR | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	Result r = decrypt_to(fifo, dir.path);
	EXPECT_EQ(r.status, 0) << r.err;
	std::string got(4096, '\0');
	const ssize_t n = read(fd, &got[0], got.size());
	close(fd);
	got.resize(n > 0 ? static_cast<size_t>(n) : 0);
	EXPECT_EQ(got, plain);
	EXPECT_TRUE(S_ISFIFO(mode_of(fifo)));
	EXPECT_EQ(dir.entries(), std::vector<std::string>{ "fifo" });
}

/* "-", /dev/stdout, /dev/fd/1, /proc/self/fd/1, and a symlink to
 * /dev/stdout: all standard output, which here is a regular file that
 * must not be replaced. */
TEST(CliOut, StandardOutputByAnyName)
{
	const std::string plain = expected_plain();
	TempDir dir;
	ASSERT_EQ(symlink("/dev/stdout", (dir.path + "/to-stdout").c_str()), 0);
	for (const std::string &out :
	     { std::string("-"), std::string("/dev/stdout"), std::string("/dev/fd/1"),
	       std::string("/proc/self/fd/1"), dir.path + "/to-stdout" }) {
		Result r = decrypt_to(out, dir.path);
		EXPECT_EQ(r.status, 0) << out << ": " << r.err;
		EXPECT_EQ(r.out, plain) << out;
	}
	EXPECT_TRUE(S_ISLNK(mode_of(dir.path + "/to-stdout")));
}

/* Device nodes made in the test's own directory (only root may): the null
 * device takes the result and stays a device; the full device is an error,
 * and stays a device too. */
TEST(CliOut, CharacterDevicesAreWrittenNotReplaced)
{
	TempDir dir;
	const std::string null_dev = dir.path + "/null", full_dev = dir.path + "/full";
	if (mknod(null_dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
	    mknod(full_dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
		GTEST_SKIP() << "cannot make device nodes here (not root): " << strerror(errno);
	Result r = decrypt_to(null_dev, dir.path);
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_TRUE(S_ISCHR(mode_of(null_dev)));
	r = decrypt_to(full_dev, dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("bigmont: error: cannot write output file '" + full_dev +
			     "': No space left on device"),
		  std::string::npos)
		<< r.err;
	EXPECT_TRUE(S_ISCHR(mode_of(full_dev)));
	EXPECT_EQ(dir.entries().size(), 2u);
}

/*
 * A writable file in a directory the user may not write: no temporary file
 * can be made beside it, and writing in place could leave half a result,
 * so it is an error and the file keeps its contents.  A file the user may
 * not write is refused as the shell would refuse it.  Root may write
 * anywhere, so as root the command runs as uid 65534 (setpriv).
 */
TEST(CliOut, ReadOnlyDirectoryAndReadOnlyFile)
{
	TempDir dir;
	const std::string ro = dir.path + "/ro", file = ro + "/out.bin";
	const std::string keyfile = dir.path + "/key.pem", in = dir.path + "/in.bin";
	spit(keyfile, bt::read_data_file("keys/rsa1024-e65537.pem"));
	spit(in, bt::read_data_file("bad/input-good.bin"));
	ASSERT_EQ(mkdir(ro.c_str(), 0755), 0);
	spit(file, "previous contents");
	std::vector<std::string> command = { kExe };
	ExeForOtherUser other;
	if (geteuid() == 0) {
		if (access("/usr/bin/setpriv", X_OK) != 0)
			GTEST_SKIP() << "running as root without setpriv to drop to another user";
		command = { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups" };
		command.insert(command.end(), other.command.begin(), other.command.end());
		ASSERT_EQ(chmod(dir.path.c_str(), 0755), 0);
		ASSERT_EQ(chmod(keyfile.c_str(), 0644), 0);
		ASSERT_EQ(chmod(in.c_str(), 0644), 0);
		ASSERT_EQ(chown(file.c_str(), 65534, 65534), 0); /* the file is theirs, */
		ASSERT_EQ(chmod(file.c_str(), 0644), 0);         /* the directory root's */
	} else {
		ASSERT_EQ(chmod(ro.c_str(), 0555), 0);
	}
	auto args = [&](const std::string &out) {
		std::vector<std::string> a = command;
		for (const std::string &x : { std::string("decrypt"), std::string("--key"), keyfile,
					      std::string("--in"), in, std::string("--out"), out })
			a.push_back(x);
		return a;
	};
	Result r = run(args(file), dir.path);
	EXPECT_EQ(r.status, 1) << r.err;
	EXPECT_NE(r.err.find("bigmont: error: cannot write output file '" + file + "': its directory '" +
			     ro + "' is not writable (Permission denied)"),
		  std::string::npos)
		<< r.err;
	EXPECT_EQ(slurp(file), "previous contents");
	/* A new file there: the same reason, worded for a file to create. */
	r = run(args(ro + "/new.bin"), dir.path);
	EXPECT_EQ(r.status, 1) << r.err;
	EXPECT_NE(r.err.find("bigmont: error: cannot create output file '" + ro +
			     "/new.bin': its directory '" + ro + "' is not writable (Permission denied)"),
		  std::string::npos)
		<< r.err;
	EXPECT_EQ(access((ro + "/new.bin").c_str(), F_OK), -1);

	/* A read-only file in a writable directory. */
	const std::string rw = dir.path + "/rw", locked = rw + "/locked.bin";
	ASSERT_EQ(mkdir(rw.c_str(), 0777), 0);
	ASSERT_EQ(chmod(rw.c_str(), 0777), 0);
	spit(locked, "previous contents");
	ASSERT_EQ(chmod(locked.c_str(), 0444), 0);
	if (geteuid() == 0) {
		ASSERT_EQ(chown(locked.c_str(), 65534, 65534), 0);
	}
	r = run(args(locked), dir.path);
	EXPECT_EQ(r.status, 1) << r.err;
	EXPECT_NE(r.err.find("cannot write output file '" + locked + "': Permission denied"),
		  std::string::npos)
		<< r.err;
	EXPECT_EQ(slurp(locked), "previous contents");
	EXPECT_EQ(dir.entries().size(), 4u);
}

/* ---- output errors ------------------------------------------------------ */

/* A full disk, a closed stdout or a broken pipe is exit 1 with a message,
 * for every command but speed (/dev/full only ever as a redirection of
 * stdout). */
TEST(Cli, OutputErrorsAreExitOne)
{
	TempDir dir;
	const std::string k = key("rsa1024-e65537.pem");
	const std::vector<std::vector<std::string>> printing = {
		{ kExe, "key-info", k },
		{ kExe, "decrypt", "--key", k, "--in", kGoodIn },
		{ kExe, "encrypt", "--key", k, "--in", kGoodIn },
		{ kExe, "--help" },
		{ kExe, "decrypt", "--help" },
		{ kExe, "--version" },
	};
	for (const auto &args : printing) {
		SCOPED_TRACE(args[1]);
		Result r = run(args, dir.path, "/dev/null", "/dev/full");
		EXPECT_EQ(r.status, 1);
		EXPECT_NE(r.err.find("bigmont: error: cannot write standard output: No space left on device"),
			  std::string::npos)
			<< r.err;
		EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
		r = run(args, dir.path, "/dev/null", kStdoutClosed);
		EXPECT_EQ(r.status, 1);
		EXPECT_NE(r.err.find("bigmont: error: cannot write standard output: Bad file descriptor"),
			  std::string::npos)
			<< r.err;
	}
	/* A reader that went away: an error, not a silent death by SIGPIPE. */
	Result r = run({ kExe, "decrypt", "--key", k, "--in", kGoodIn }, dir.path, "/dev/null",
		       kStdoutBrokenPipe);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("bigmont: error: cannot write standard output: Broken pipe"),
		  std::string::npos)
		<< r.err;
	/* Nothing for stdout: a closed one is no error. */
	r = decrypt_to(dir.path + "/out.bin", dir.path, kStdoutClosed);
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(slurp(dir.path + "/out.bin").size(), 128u);
}

/* ---- bounded reads ------------------------------------------------------ */

/* Whether this build has the benchmark, `bigmont speed` (tests/CMakeLists.txt). */
#if defined(BIGMONT_TEST_HAVE_SPEED) && BIGMONT_TEST_HAVE_SPEED
constexpr bool kHaveSpeed = true;
#else
constexpr bool kHaveSpeed = false;
#endif

#if defined(__SANITIZE_ADDRESS__)
/* AddressSanitizer reserves terabytes of address space, so ulimit -v
 * cannot be used; its own RSS limit kills a runaway process instead. */
const std::string kMemoryLimit =
	"export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=400\"; ";
#else
/* Under an emulator (BIGMONT_EMULATOR: qemu-user, which maps a 128 MB code
 * buffer of its own) the limit is the sanitizer build's 400 MB. */
const std::string kMemoryLimit = std::getenv("BIGMONT_EMULATOR") != nullptr
					 ? "ulimit -v 400000; "
					 : "ulimit -v 200000; ";
#endif

std::string quoted(const std::string &s) { return "'" + s + "'"; }

/* `script` in sh under the memory limit; it runs bigmont as $B. */
Result limited(const std::string &script, const std::string &scratch)
{
	return run({ "/bin/sh", "-c", kMemoryLimit + "B=" + quoted(kExe) + "; " + script }, scratch);
}

/* A file-size limit below the result: the write fails (EFBIG, not death by
 * SIGXFSZ), exit 1, and neither the file nor the temporary one is left.
 * The limit cuts the error line on stderr (a file too) at 64 bytes. */
TEST(CliOut, FileSizeLimitIsAnError)
{
	TempDir dir, scratch;
	const std::string out = dir.path + "/out.bin";
	Result r = run({ "/bin/sh", "-c",
			 "ulimit -f 0; exec " + quoted(kExe) + " decrypt --key " +
				 quoted(key("rsa1024-e65537.pem")) + " --in " + quoted(kGoodIn) +
				 " --out " + quoted(out) },
		       scratch.path);
	EXPECT_EQ(r.status, 1) << r.err;
	EXPECT_TRUE(dir.entries().empty()) << "left behind: " << dir.entries()[0];
}

TEST(Cli, ReadsAreBounded)
{
	TempDir dir;
	const std::string k = quoted(key("rsa1024-e65537.pem")), fifo = dir.path + "/fifo";
	/* Endless input on stdin, from a FIFO. */
	Result r = limited("yes | exec \"$B\" decrypt --key " + k, dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("bigmont: error: standard input is longer than the 128 bytes this "
			     "1024-bit key needs"),
		  std::string::npos)
		<< r.err;
	ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
	/* The writer opens the FIFO under timeout: were the redirection the
	 * shell's, a writer whose reader never came would block in open()
	 * for good, past the test. */
	r = limited("timeout 60 sh -c 'exec yes > \"$1\"' sh " + quoted(fifo) +
			    " & exec \"$B\" encrypt --key " + k +
			    " --in " + quoted(fifo),
		    dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("input file '" + fifo + "' is longer than the 128 bytes"),
		  std::string::npos)
		<< r.err;
	/* --batch reads at most 64 MiB. */
	r = limited("yes | exec \"$B\" decrypt --batch --key " + k, dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("bigmont: error: standard input is longer than 64 MiB, the most --batch "
			     "reads"),
		  std::string::npos)
		<< r.err;
	/* An endless key: from a FIFO, and a sparse file one byte too long.
	 * A FIFO of its own: the writer above may still hold the first one
	 * open, and its death would be an early end of file here. */
	const std::string key_fifo = dir.path + "/key-fifo";
	ASSERT_EQ(mkfifo(key_fifo.c_str(), 0600), 0);
	r = limited("timeout 60 sh -c 'exec yes > \"$1\"' sh " + quoted(key_fifo) +
			    " & exec \"$B\" key-info " +
			    quoted(key_fifo),
		    dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("bigmont: error: key file '" + key_fifo + "' is larger than 4194304 bytes"),
		  std::string::npos)
		<< r.err;
	const std::string big = dir.path + "/big.pem",
			  key_text = bt::read_data_file("keys/rsa1024-e65537.pem");
	spit(big, key_text + std::string((4 << 20) + 1 - key_text.size(), '\n'));
	r = limited("exec \"$B\" decrypt --key " + quoted(big) + " --in " + quoted(kGoodIn), dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("is larger than 4194304 bytes"), std::string::npos) << r.err;
	/* Exactly the limit is accepted: the key, then blank lines the PEM
	 * reader skips as text after the block. */
	ASSERT_EQ(truncate(big.c_str(), 4 << 20), 0);
	r = limited("exec \"$B\" key-info " + quoted(big), dir.path);
	EXPECT_EQ(r.status, 0) << r.err;

	/* The OpenSSL worker of speed, which anyone can run: a line longer
	 * than its protocol's ends its input, with an error. */
	if (kHaveSpeed) {
		r = limited("head -c 300000000 /dev/zero | exec \"$B\" speed --worker", dir.path);
		EXPECT_EQ(r.status, 1) << r.err;
		EXPECT_NE(r.out.find("err a request longer than 8192 bytes"), std::string::npos)
			<< r.out;
		/* A key announced above the key-file limit is refused before a
		 * byte of it is read (else 150 MB of zeros would be read as a
		 * key). */
		r = limited("{ echo key 150000000; head -c 300000000 /dev/zero; } | "
			    "exec \"$B\" speed --worker",
			    dir.path);
		EXPECT_EQ(r.out.rfind("err cannot read the key\n", 0), 0u) << r.out.substr(0, 200);
	}

	/* The zero device, made in the test's own directory (only root may). */
	const std::string zero = dir.path + "/zero";
	if (mknod(zero.c_str(), S_IFCHR | 0444, makedev(1, 5)) != 0)
		GTEST_SKIP() << "cannot make a device node here (not root): " << strerror(errno);
	r = limited("exec \"$B\" key-info " + quoted(zero), dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("is larger than 4194304 bytes"), std::string::npos) << r.err;
	r = limited("exec \"$B\" decrypt --key " + k + " --in " + quoted(zero), dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("input file '" + zero + "' is longer than the 128 bytes"),
		  std::string::npos)
		<< r.err;
}

/* ---- PEM bundles -------------------------------------------------------- */

/* A key beside certificates, in either order, and what openssl pkcs12
 * -nodes writes (bag attributes, certificate, key): the key is used. */
TEST(Cli, PemBundles)
{
	const std::string plain = expected_plain();
	TempDir dir;
	const std::string cert = bt::read_data_file("bad/certificate.pem");
	const std::string pem = bt::read_data_file("keys/rsa1024-e65537.pem");
	ASSERT_FALSE(cert.empty());
	spit(dir.path + "/cert-key.pem", cert + pem);
	spit(dir.path + "/key-cert.pem", pem + cert);
	spit(dir.path + "/cert.pem", cert);
	const std::string p12 = dir.path + "/p12.pem";
	Result r = run({ "/bin/sh", "-c",
			 "openssl pkcs12 -export -in " + quoted(dir.path + "/cert.pem") + " -inkey " +
				 quoted(key("rsa1024-e65537.pem")) +
				 " -passout pass:x | openssl pkcs12 -nodes -passin pass:x -out " + quoted(p12) },
		       dir.path);
	ASSERT_EQ(r.status, 0) << r.err;
	const std::string p12_text = slurp(p12);
	ASSERT_NE(p12_text.find("Bag Attributes"), std::string::npos) << p12_text;
	ASSERT_LT(p12_text.find("CERTIFICATE"), p12_text.find("PRIVATE KEY")) << p12_text;
	for (const std::string &bundle : { dir.path + "/cert-key.pem", dir.path + "/key-cert.pem", p12 }) {
		SCOPED_TRACE(bundle);
		r = run({ kExe, "key-info", bundle }, dir.path);
		EXPECT_EQ(r.status, 0) << r.err;
		EXPECT_NE(r.out.find("type: private"), std::string::npos) << r.out;
		r = run({ kExe, "decrypt", "--key", bundle, "--in", kGoodIn }, dir.path);
		EXPECT_EQ(r.status, 0) << r.err;
		EXPECT_EQ(r.out, plain);
	}
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
		  "public exponent: 65537\n", "checks: passed (p*q = n",
		  "p and q prime (Miller-Rabin)"}},
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
	/* A file whose name starts with '-', after "--"; an empty name is a
	 * usage error, as for --key. */
	spit(dir.path + "/-key.pem", bt::read_data_file("keys/rsa1024-e3.pem"));
	const std::string here = dir.path;
	Result r = run({"/bin/sh", "-c", "cd " + quoted(here) + " && exec " + quoted(kExe) +
				  " key-info -- -key.pem"},
		dir.path);
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("modulus bits: 1024\n"), std::string::npos) << r.out;
	r = run({kExe, "key-info", ""}, dir.path);
	EXPECT_EQ(r.status, 2) << r.err;
	EXPECT_NE(r.err.find("the KEY given is an empty name"), std::string::npos) << r.err;
	r = run({kExe, "key-info"}, dir.path);
	EXPECT_EQ(r.status, 2) << r.err;
	EXPECT_NE(r.err.find("missing KEY"), std::string::npos) << r.err;
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
	EXPECT_NE(r.out.find("--version"), std::string::npos) << r.out;
	/* --help wins wherever it stands as an option, beside a mistake too,
	 * but not as an option's value or after "--". */
	for (const char *cmd : {"decrypt", "encrypt", "key-info"}) {
		r = run({kExe, cmd, "--bogus", "--help"}, dir.path);
		EXPECT_EQ(r.status, 0) << cmd << ": " << r.err;
		EXPECT_NE(r.out.find(std::string("usage: bigmont ") + cmd), std::string::npos);
	}
	r = run({kExe, "decrypt", "--in", "--help"}, dir.path);
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_NE(r.err.find("missing --key"), std::string::npos) << r.err;
	r = run({kExe, "key-info", "--", "--help"}, dir.path);
	EXPECT_EQ(r.status, 1) << r.out;
	EXPECT_NE(r.err.find("cannot open key file '--help'"), std::string::npos) << r.err;
	/* An empty "--key=" names the option, not the option and its '=';
	 * an empty value is called so, a missing one so. */
	r = run({kExe, "decrypt", "--key="}, dir.path);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("option '--key' has an empty value"), std::string::npos) << r.err;
	r = run({kExe, "decrypt", "--key"}, dir.path);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("option '--key' needs a value"), std::string::npos) << r.err;
	/* --version alone prints the version; anything after it is a usage
	 * error, as after any command. */
	r = run({kExe, "--version"}, dir.path);
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out.rfind("bigmont ", 0), 0u) << r.out;
	r = run({kExe, "--version", "--bogus"}, dir.path);
	EXPECT_EQ(r.status, 2) << r.out;
	EXPECT_TRUE(r.out.empty()) << r.out;
	EXPECT_NE(r.err.find("unexpected argument '--bogus' after --version"), std::string::npos)
		<< r.err;
}

/* --out is checked before the work, not after it (a long --batch into a
 * directory that does not exist fails at once): before the key is even
 * read, so a missing key file is not what it reports. */
TEST(CliOut, OutputIsCheckedBeforeTheWork)
{
	TempDir dir;
	Result r = run({kExe, "decrypt", "--batch", "--key", dir.path + "/no-key.pem", "--in",
			dir.path + "/no-input.bin", "--out", dir.path + "/no/such.bin"},
		       dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot write output file '" + dir.path +
			     "/no/such.bin': its directory does not exist"),
		  std::string::npos)
		<< r.err;
	EXPECT_TRUE(dir.entries().empty());
	/* A descriptor by name, or standard output, closed or open for
	 * reading only: refused before the key is read too (before, after the
	 * whole batch). */
	const std::string nokey = quoted(dir.path + "/no-key.pem"),
			  noin = quoted(dir.path + "/no-input.bin");
	const std::string cases[][2] = {
		{ "--out /dev/fd/9", "'/dev/fd/9' (descriptor 9): Bad file descriptor" },
		{ "--out /dev/fd/9 9</dev/null", "(descriptor 9): open for reading only" },
		{ ">&-", "cannot write standard output: Bad file descriptor" },
		{ "--out - </dev/null >&-", "cannot write standard output: Bad file descriptor" },
		{ "</dev/null >/dev/null 1<&0", "cannot write standard output: open for reading only" },
	};
	for (const auto &c : cases) {
		r = limited("exec \"$B\" decrypt --batch --key " + nokey + " --in " + noin + " " + c[0],
			    dir.path);
		EXPECT_EQ(r.status, 1) << c[0];
		EXPECT_NE(r.err.find(c[1]), std::string::npos) << c[0] << ": " << r.err;
	}
}

/* A stack limit below what a private-key operation needs with the
 * command around it: refused before anything runs (before, a crash by
 * SIGSEGV at 40 KiB). */
/* A socket cannot be opened as a file: as a key or an input it is called
 * a socket, as it is as an output, not "No such device or address". */
TEST(Cli, SocketsAreNamed)
{
	TempDir dir;
	const std::string sock = dir.path + "/sock";
	const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_GE(fd, 0);
	sockaddr_un addr{};
	addr.sun_family = AF_UNIX;
	ASSERT_LT(sock.size(), sizeof(addr.sun_path));
	std::memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
	ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
	Result r = run({ kExe, "key-info", sock }, dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot open key file '" + sock + "': it is a socket"),
		  std::string::npos)
		<< r.err;
	r = run({ kExe, "encrypt", "--key", key("rsa1024-e65537.pem"), "--in", sock }, dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("cannot open input file '" + sock + "': it is a socket"),
		  std::string::npos)
		<< r.err;
	close(fd);
}

TEST(Cli, SmallStackLimitRefused)
{
	if (std::getenv("BIGMONT_EMULATOR") != nullptr)
		GTEST_SKIP() << "under an emulator the limit is the emulator's stack";
	TempDir dir;
	for (const char *cmd : { "key-info", "decrypt --in /dev/null --key" }) {
		Result r = limited(std::string("ulimit -s 48; exec \"$B\" ") + cmd + " " +
					   quoted(key("rsa2048-e65537.pem")),
				   dir.path);
		EXPECT_EQ(r.status, 2) << cmd << ": " << r.err;
		EXPECT_NE(r.err.find("the stack limit is 48 KiB (ulimit -s); bigmont needs at "
				     "least 96 KiB"),
			  std::string::npos)
			<< r.err;
	}
	Result r = limited("ulimit -s 96; exec \"$B\" key-info " + quoted(key("rsa2048-e65537.pem")),
			   dir.path);
	EXPECT_EQ(r.status, 0) << r.err;
}

/* An error is one line whatever a name in it holds: a newline or an
 * escape sequence in a file name is written as \xNN. */
TEST(Cli, ErrorIsOneLine)
{
	TempDir dir;
	Result r = run({ kExe, "key-info", "x\nbigmont: ok\x1b[31m" }, dir.path);
	EXPECT_EQ(r.status, 1);
	EXPECT_EQ(r.err, "bigmont: error: cannot open key file 'x\\x0abigmont: ok\\x1b[31m': "
			 "No such file or directory\n");	/* A value of 100 KB is cut, and says so. */
	bt::ScopedEnv cpu("BIGMONT_CPU", std::string(100000, 'x').c_str());
	r = run({ kExe, "key-info", key("rsa1024-e3.pem") }, dir.path);
	EXPECT_EQ(r.status, 2);
	EXPECT_LT(r.err.size(), 8300u);
	EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err.substr(0, 100);
	EXPECT_EQ(r.err.substr(r.err.size() - 7), " [...]\n");
}

/* Without /proc/self/environ the library binds as if BIGMONT_CPU were
 * unset: the command says so (before, it gave a false reason).  Needs
 * root, for a mount namespace with /proc hidden. */
TEST(Cli, EnvironmentTheLibraryCannotReadIsRefused)
{
#if defined(__SANITIZE_ADDRESS__)
	GTEST_SKIP() << "LeakSanitizer itself needs /proc";
#endif
	if (geteuid() != 0 || std::getenv("BIGMONT_EMULATOR") != nullptr ||
	    std::system("unshare -m true 2>/dev/null") != 0)
		GTEST_SKIP() << "needs root and unshare (a mount namespace), natively";
	TempDir dir;
	for (const char *var : { "BIGMONT_CPU=c", "BIGMONT_TUNE=vertical=0" }) {
		Result r = run({ "/bin/sh", "-c",
				 std::string("exec unshare -m sh -c \"mount -t tmpfs none /proc && ") +
					 var + " exec " + quoted(kExe) + " key-info " +
					 quoted(key("rsa1024-e3.pem")) + "\"" },
			       dir.path);
		EXPECT_EQ(r.status, 2) << var << ": " << r.err;
		EXPECT_NE(r.err.find("is set, but the library reads it from /proc/self/environ, "
				     "which cannot be read here"),
			  std::string::npos)
			<< r.err;
	}
}

/* A BIGMONT_EMULATOR that cannot run names itself, not the benchmark. */
TEST(Cli, MissingEmulatorNamed)
{
	if (!kHaveSpeed || std::getenv("BIGMONT_EMULATOR") != nullptr)
		GTEST_SKIP() << "needs the benchmark, run natively";
	TempDir dir;
	Result r = limited("BIGMONT_EMULATOR=/nonexistent/qemu exec \"$B\" speed --help", dir.path);
	EXPECT_EQ(r.status, 1) << r.err;
	EXPECT_NE(r.err.find("through BIGMONT_EMULATOR '/nonexistent/qemu': No such file"),
		  std::string::npos)
		<< r.err;
}

/* A wrong input length in words: "1 byte", not "1 bytes". */
TEST(Cli, InputLengthInWords)
{
	TempDir dir;
	const std::string in = dir.path + "/in.bin";
	for (const char *cmd : { "decrypt", "encrypt" }) {
		spit(in, "\x01");
		Result r = run({ kExe, cmd, "--key", key("rsa1024-e65537.pem"), "--in", in }, dir.path);
		EXPECT_EQ(r.status, 1) << r.err;
		EXPECT_EQ(r.err, "bigmont: error: input file '" + in +
					 "' is 1 byte; this 1024-bit key needs exactly 128 bytes\n");
		spit(in, "\x01\x02");
		r = run({ kExe, cmd, "--key", key("rsa1024-e65537.pem"), "--in", in }, dir.path);
		EXPECT_EQ(r.status, 1) << r.err;
		EXPECT_EQ(r.err, "bigmont: error: input file '" + in +
					 "' is 2 bytes; this 1024-bit key needs exactly 128 bytes\n");
	}
}

/* "-" names standard input for a key as for the input; "--" ends the
 * options of every command. */
TEST(Cli, KeyFromStandardInputAndDoubleDash)
{
	TempDir dir;
	const std::string k = key("rsa1024-e65537.pem"), msg = dir.path + "/msg",
			  ct = dir.path + "/ct";
	std::string m(128, 'Z');
	m[0] = '\0';
	spit(msg, m);
	Result r = run({ kExe, "key-info", "-" }, dir.path, k);
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_NE(r.out.find("modulus bits: 1024"), std::string::npos) << r.out;
	/* A key on standard input is called so in errors, not "key file '-'". */
	const std::string empty = dir.path + "/empty";
	spit(empty, "");
	r = run({ kExe, "key-info", "-" }, dir.path, empty);
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("the key file on standard input is empty"), std::string::npos)
		<< r.err;
	r = run({ kExe, "decrypt", "--key", "-", "--in", msg }, dir.path,
		key("rsa1024-e65537.pub.pem"));
	EXPECT_EQ(r.status, 1);
	EXPECT_NE(r.err.find("the key file on standard input holds a public key"),
		  std::string::npos)
		<< r.err;
	r = run({ kExe, "encrypt", "--key", "-", "--in", msg, "--out", ct, "--" }, dir.path, k);
	EXPECT_EQ(r.status, 0) << r.err;
	r = run({ kExe, "decrypt", "--key", k, "--in", ct, "--" }, dir.path);
	EXPECT_EQ(r.status, 0) << r.err;
	EXPECT_EQ(r.out, m);
	for (const char *in : std::initializer_list<const char *>{ "-", nullptr }) {
		std::vector<std::string> args = { kExe, "decrypt", "--key", "-" };
		if (in) {
			args.push_back("--in");
			args.push_back(in);
		}
		r = run(args, dir.path, k);
		EXPECT_EQ(r.status, 2);
		EXPECT_NE(r.err.find("cannot both come from standard input"), std::string::npos)
			<< r.err;
	}
	/* With standard input closed, "-" is still refused as both. */
	r = limited("exec \"$B\" decrypt --key - <&-", dir.path);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("cannot both come from standard input"), std::string::npos) << r.err;
	/* Standard input by another name is standard input too. */
	r = run({ kExe, "decrypt", "--key", "-", "--in", "/dev/stdin" }, dir.path, k);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("cannot both come from standard input"), std::string::npos) << r.err;
	/* The key file as --out would lose the key: refused, the key kept. */
	const std::string kcopy = dir.path + "/k.pem";
	spit(kcopy, slurp(k));
	r = run({ kExe, "decrypt", "--key", kcopy, "--in", ct, "--out", kcopy }, dir.path);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("output file '" + kcopy + "' is the key file"), std::string::npos)
		<< r.err;
	EXPECT_EQ(slurp(kcopy), slurp(k));
	r = run({ kExe, "encrypt", "--key", k, "--in", k }, dir.path);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("the key file '" + k + "' is also the input"), std::string::npos)
		<< r.err;
	/* By another name: the message names both, not --in as missing. */
	const std::string klink = dir.path + "/link.pem";
	ASSERT_EQ(symlink(k.c_str(), klink.c_str()), 0);
	r = run({ kExe, "encrypt", "--key", k, "--in", klink }, dir.path);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("'" + klink + "' is the same file (give another --in)"),
		  std::string::npos)
		<< r.err;
	/* From standard input, --in is the advice. */
	r = run({ kExe, "encrypt", "--key", k }, dir.path, k);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("(give the input with --in FILE)"), std::string::npos) << r.err;
	r = run({ kExe, "decrypt", "--key", k, "--", "--in", msg }, dir.path);
	EXPECT_EQ(r.status, 2);
	EXPECT_NE(r.err.find("unexpected argument '--in'"), std::string::npos) << r.err;
}

/* Another user's file in a sticky directory cannot be renamed over, so
 * --out refuses it before writing anything.  Needs root (to act as
 * nobody through setpriv); the command runs from a copy that user can
 * reach wherever the build tree is (ExeForOtherUser). */
TEST(CliOut, OtherUsersFileInStickyDirectoryIsRefused)
{
	if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) != 0)
		GTEST_SKIP() << "skipped: needs root and setpriv";
	TempDir dir;
	ASSERT_EQ(chmod(dir.path.c_str(), 0755), 0);
	ExeForOtherUser other;
	const std::string k = dir.path + "/k.pem", msg = dir.path + "/msg",
			  sticky = dir.path + "/sticky", target = sticky + "/owned";
	spit(k, slurp(key("rsa1024-e65537.pem")));
	std::string m(128, 'Z');
	m[0] = '\0';
	spit(msg, m);
	ASSERT_EQ(mkdir(sticky.c_str(), 0755), 0);
	spit(target, "x");
	ASSERT_EQ(chmod(k.c_str(), 0644), 0);
	ASSERT_EQ(chmod(msg.c_str(), 0644), 0);
	ASSERT_EQ(chmod(sticky.c_str(), 01777), 0);
	ASSERT_EQ(chmod(target.c_str(), 0666), 0);
	std::vector<std::string> args = { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
					  "--clear-groups" };
	args.insert(args.end(), other.command.begin(), other.command.end());
	for (const char *x : { "encrypt", "--key", k.c_str(), "--in", msg.c_str(), "--out",
			       target.c_str() })
		args.push_back(x);
	Result r = run(args, dir.path);
	EXPECT_EQ(r.status, 1) << r.err;
	EXPECT_NE(r.err.find("belongs to another user in the sticky directory"), std::string::npos)
		<< r.err;
	EXPECT_EQ(slurp(target), "x");
	DIR *d = opendir(sticky.c_str());
	ASSERT_NE(d, nullptr);
	int entries = 0;
	while (const struct dirent *e = readdir(d))
		entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	EXPECT_EQ(entries, 1) << "a temporary file was left beside the target";
}

TEST(Cli, OptionsGivenTwiceAreRefused)
{
	TempDir dir;
	const std::string k = key("rsa1024-e3.pem"), a = dir.path + "/a", b = dir.path + "/b";
	const std::vector<std::vector<std::string>> cases = {
		{ kExe, "decrypt", "--key", k, "--key", k },
		{ kExe, "encrypt", "--key", k, "--in", a, "--in=" + b },
		{ kExe, "decrypt", "--key", k, "--out", a, "--out", b },
	};
	for (const auto &args : cases) {
		Result r = run(args, dir.path);
		EXPECT_EQ(r.status, 2) << args[1] << " " << args[4];
		EXPECT_NE(r.err.find("given twice"), std::string::npos) << r.err;
		EXPECT_NE(access(a.c_str(), F_OK), 0);
		EXPECT_NE(access(b.c_str(), F_OK), 0);
	}
}

/* BIGMONT_CPU names the four variants; one this CPU or build lacks is an
 * error that says why, not a silent fallback. */
TEST(Cli, BigmontCpuIsCheckedAndExplained)
{
	TempDir dir;
	const std::vector<std::string> info = { kExe, "key-info", key("rsa1024-e3.pem") };
	bt::ScopedEnv cpu("BIGMONT_CPU", "avx512");
	Result r = run(info, dir.path);
	EXPECT_NE(r.status, 0);
	EXPECT_NE(r.err.find("BIGMONT_CPU='avx512' is not one of c, baseline, adx, ifma"),
		  std::string::npos)
		<< r.err;
	for (const char *cmd : { "key-info", "decrypt", "encrypt", "speed" }) {
		if (!kHaveSpeed && std::string(cmd) == "speed")
			continue;
		r = run({ kExe, cmd, "--help" }, dir.path);
		EXPECT_EQ(r.status, 0) << cmd << ": a bad BIGMONT_CPU blocked --help: " << r.err;
		EXPECT_NE(r.out.find("usage: bigmont"), std::string::npos) << cmd << ": " << r.out;
	}
	/* "-h" as an option's value is that value, not a request for help. */
	r = run({ kExe, "decrypt", "--key", key("rsa1024-e3.pem"), "--in", dir.path + "/none",
		  "--out", "-h" },
		dir.path);
	EXPECT_EQ(r.status, 2) << r.err;
	EXPECT_NE(r.err.find("BIGMONT_CPU='avx512'"), std::string::npos) << r.err;

	cpu.set("ifma");
	r = run(info, dir.path);
	if (big_cpu_best() == BIG_CPU_IFMA) {
		EXPECT_EQ(r.status, 0) << r.err;
	} else {
		EXPECT_NE(r.status, 0);
		const char *why = !BIGMONT_HAVE_ASM ? "this build has no assembly kernels"
				  : big_cpu_best() == BIG_CPU_ADX
					  ? "this CPU lacks AVX-512 F/VL/IFMA/DQ/BW"
					  : "this CPU lacks BMI2/ADX";
		EXPECT_NE(r.err.find("BIGMONT_CPU=ifma is not available here ("), std::string::npos)
			<< r.err;
		EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
	}
}

/* A BIGMONT_TUNE that names no tuning choice (a misspelt one did nothing)
 * is refused, with the choices, and so is one choice given twice; a
 * well-spelt one runs. */
TEST(Cli, BigmontTuneIsChecked)
{
	TempDir dir;
	const std::vector<std::string> info = { kExe, "key-info", key("rsa1024-e3.pem") };
	bt::ScopedEnv tune("BIGMONT_TUNE", "vertical=1,verticle_zmm=0");
	for (const char *cmd : { "key-info", "decrypt", "speed" }) {
		if (!kHaveSpeed && std::string(cmd) == "speed")
			continue;
		std::vector<std::string> args = info;
		if (std::string(cmd) != "key-info")
			args = { kExe, cmd, "--key", key("rsa1024-e3.pem"), "--in", "/dev/null" };
		if (std::string(cmd) == "speed")
			args = { kExe, cmd, "--bits", "1024", "--seconds", "0.01" };
		Result r = run(args, dir.path);
		EXPECT_EQ(r.status, 2) << cmd << ": " << r.err;
		EXPECT_NE(r.err.find("BIGMONT_TUNE: 'verticle_zmm=0' is not NAME=0 or NAME=1 with "
				     "NAME one of mont_mul16_karatsuba, "),
			  std::string::npos)
			<< cmd << ": " << r.err;
		EXPECT_EQ(r.out, "") << cmd;
	}
	Result r;
	if (kHaveSpeed) {
		r = run({ kExe, "speed", "--help" }, dir.path);
		EXPECT_EQ(r.status, 0) << "a bad BIGMONT_TUNE blocked --help: " << r.err;
	}

	/* Two values for one choice, in any case: which one the kernels take
	 * is not on the line. */
	tune.set("vertical=0,vertical_zmm=1,VERTICAL=1");
	r = run(info, dir.path);
	EXPECT_EQ(r.status, 2) << r.err;
	EXPECT_NE(r.err.find("BIGMONT_TUNE: 'VERTICAL=1': a value for that choice is given twice"),
		  std::string::npos)
		<< r.err;

	tune.set("vertical=1,Vertical_ZMM=0");
	r = run(info, dir.path);
	EXPECT_EQ(r.status, 0) << r.err;
}

/* BIGMONT_BATCH names the four lane builds: any other value is refused by
 * every command (not taken for the default, nor, in the library, as a
 * request to force the lanes); a build decrypt --batch cannot run here is
 * an error that says why and what would run, not a silent fallback. */
TEST(Cli, BigmontBatchIsCheckedAndExplained)
{
	TempDir dir;
	bt::ScopedEnv batch("BIGMONT_BATCH", nullptr);
	/* Four blocks below n: one batch where lanes run. */
	std::string m(4 * 128, '\0');
	for (size_t i = 0; i < m.size(); i++)
		if (i % 128 != 0)
			m[i] = static_cast<char>(i * 7 + 1);
	spit(dir.path + "/m.bin", m);
	const std::vector<std::string> decrypt = { kExe, "decrypt", "--batch", "--no-fault-check",
						   "--key", key("rsa1024-e65537.pem"), "--in",
						   dir.path + "/m.bin", "--out", dir.path + "/p.bin" };

	Result first = run(decrypt, dir.path);
	ASSERT_EQ(first.status, 0) << first.err;
	const std::string expected = slurp(dir.path + "/p.bin");
	ASSERT_EQ(expected.size(), m.size());
	unlink((dir.path + "/p.bin").c_str());

	batch.set("avx3");
	EXPECT_EQ(big_crt_batch_forced(), nullptr);
	for (const auto &args : { decrypt, std::vector<std::string>{ kExe, "key-info",
								       key("rsa1024-e3.pem") } }) {
		Result r = run(args, dir.path);
		EXPECT_EQ(r.status, 2) << args[1];
		EXPECT_NE(r.err.find("BIGMONT_BATCH='avx3' is not one of c, avx2, fma, avx512, fma512, ifma"),
			  std::string::npos)
			<< r.err;
	}
	EXPECT_NE(access((dir.path + "/p.bin").c_str(), F_OK), 0) << "output written";
	Result help = run({ kExe, "decrypt", "--help" }, dir.path);
	EXPECT_EQ(help.status, 0) << "a bad BIGMONT_BATCH blocked --help: " << help.err;

	for (const char *lanes : { "c", "avx2", "fma", "avx512", "fma512", "ifma" }) {
		SCOPED_TRACE(lanes);
		batch.set(lanes);
		ASSERT_NE(big_crt_batch_forced(), nullptr);
		EXPECT_STREQ(big_crt_batch_forced(), lanes);
		const std::string runs = big_crt_batch_kernel();
		unlink((dir.path + "/p.bin").c_str());
		Result r = run(decrypt, dir.path);
		if (runs == lanes) {
			EXPECT_EQ(r.status, 0) << r.err;
			EXPECT_EQ(slurp(dir.path + "/p.bin"), expected);
			continue;
		}
		EXPECT_EQ(r.status, 2) << r.err;
		const std::string why = !big_have_asm() ? "(this build has no assembly kernels)"
							: "(this CPU lacks ";
		EXPECT_NE(r.err.find(std::string("BIGMONT_BATCH=") + lanes +
				     " is not available here " + why),
			  std::string::npos)
			<< r.err;
		EXPECT_NE(r.err.find(runs == "none" ? "operations would run one by one"
						    : "the batch would take '" + runs + "'"),
			  std::string::npos)
			<< r.err;
		EXPECT_NE(access((dir.path + "/p.bin").c_str(), F_OK), 0) << "output written";
	}
}

} // namespace
