/*
 * File and key I/O for the bigmont command.
 *
 * Reads are bounded: a read stops at its limit whatever the source (a
 * file, standard input, a FIFO, a device that never ends), without trusting
 * st_size, so no input can make the command grow without bound.  Key files
 * are read up to CLI_KEY_FILE_MAX bytes, the input up to what its caller
 * asks for (one byte more than it accepts, to see that it is too long).
 * A buffer that held a key is wiped before it is freed, growth included.
 *
 * Output (cli_write_output) goes where the path leads, after symlinks:
 *  - a regular file, new or existing, is replaced whole or not at all: the
 *    bytes go to a temporary file beside it, are fsync'ed, then renamed
 *    over it; any failure removes the temporary, and signals are held
 *    from its creation until it is renamed or removed, so that a kill
 *    (other than SIGKILL) cannot leave it behind.  An existing file keeps
 *    its permission bits but setuid and setgid (as writing it in place
 *    would clear them) and, where the system allows, its owner and group;
 *    a file we may not write is refused (as the shell's '>' would), and so
 *    is one whose directory we may not write (no temporary file can be made
 *    there, and writing in place could leave half a result);
 *  - a FIFO or character device, or standard output by any name ("-",
 *    /dev/stdout, /dev/fd/N, /proc/self/fd/N), is written directly: the
 *    result is complete in memory before the first byte goes out;
 *  - a directory, socket or block device, a dangling path in a missing
 *    directory, a symlink loop: a clear error.
 * A dangling symlink is followed: the file it names is created.
 */
#define _GNU_SOURCE /* memmem */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/* The kernel's own limit on a chain of symlinks (ELOOP). */
#define MAX_SYMLINK_HOPS 40

static void wipe_free(uint8_t *b, size_t n)
{
	if (b != NULL) {
		big_wipe(b, n);
		free(b);
	}
}

/* Up to `limit` bytes (>= 1) from fd, stopping at end of file.  Growth
 * copies and wipes rather than realloc, which would leave a copy of a key
 * behind in freed memory. */
static int read_fd(int fd, size_t limit, uint8_t **buf, size_t *len)
{
	size_t cap = limit < 4096 ? limit : 4096, n = 0;
	uint8_t *b = malloc(cap);
	if (b == NULL)
		return -1;
	while (n < limit) {
		if (n == cap) {
			size_t bigger = cap > limit / 2 ? limit : cap * 2;
			uint8_t *nb = malloc(bigger);
			if (nb == NULL) {
				wipe_free(b, n);
				errno = ENOMEM;
				return -1;
			}
			memcpy(nb, b, n);
			wipe_free(b, n);
			b = nb;
			cap = bigger;
		}
		ssize_t got = read(fd, b + n, cap - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			int saved = errno;
			wipe_free(b, n);
			errno = saved;
			return -1;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* What a path that is not a file is, for errors. */
static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "it is a directory" : S_ISSOCK(m) ? "it is a socket" :
	       S_ISBLK(m) ? "it is a block device" : "it is not a file";
}

/* Up to `limit` bytes of the file at path, or of standard input when path
 * is NULL; `what` names it in errors. */
static int read_at_most(const char *path, const char *what, size_t limit, uint8_t **buf,
			size_t *len)
{
	if (path == NULL) {
		if (read_fd(STDIN_FILENO, limit, buf, len) != 0) {
			cli_error("cannot read standard input: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int saved = errno;
		struct stat st;
		if (saved == ENXIO && stat(path, &st) == 0 && S_ISSOCK(st.st_mode))
			cli_error("cannot open %s '%s': %s", what, path, kind_of(st.st_mode));
		else
			cli_error("cannot open %s '%s': %s", what, path, strerror(saved));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		cli_error("%s '%s' is a directory", what, path);
		close(fd);
		return -1;
	}
	if (read_fd(fd, limit, buf, len) != 0) {
		cli_error("cannot read %s '%s': %s", what, path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void cli_file_name(char *out, size_t n, const char *what, const char *path)
{
	if (strcmp(path, "-") == 0)
		snprintf(out, n, "the %s on standard input", what);
	else
		snprintf(out, n, "%s '%s'", what, path);
}

int cli_read_file(const char *path, const char *what, uint8_t **buf, size_t *len)
{
	const char *from = strcmp(path, "-") == 0 ? NULL : path; /* "-": standard input */
	if (read_at_most(from, what, CLI_KEY_FILE_MAX + 1, buf, len) != 0)
		return -1;
	if (*len > CLI_KEY_FILE_MAX) {
		char name[CLI_NAME_MAX];
		cli_file_name(name, sizeof(name), what, path);
		cli_error("%s is larger than %d bytes, more than any key file needs", name,
			  CLI_KEY_FILE_MAX);
		wipe_free(*buf, *len);
		*buf = NULL;
		return -1;
	}
	return 0;
}

int cli_read_input(const char *path, size_t limit, uint8_t **buf, size_t *len)
{
	if (path != NULL && strcmp(path, "-") == 0)
		path = NULL;
	return read_at_most(path, "input file", limit, buf, len);
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	while (len > 0) {
		ssize_t put = write(fd, buf, len);
		if (put < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += put;
		len -= (size_t)put;
	}
	return 0;
}

/* The descriptor a standard-output-style name stands for, or -1. */
static int fd_of_name(const char *path)
{
	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	const char *num;
	if (strncmp(path, "/dev/fd/", 8) == 0)
		num = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		num = path + 14;
	else
		return -1;
	long fd = 0;
	for (const char *c = num; *c; c++) {
		if (*c < '0' || *c > '9' || fd > INT_MAX / 10)
			return -1;
		fd = fd * 10 + (*c - '0');
	}
	return *num ? (int)fd : -1;
}

/* path's directory: "." for a bare name.  malloc'ed. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (slash == NULL)
		return strdup(".");
	size_t n = slash == path ? 1 : (size_t)(slash - path);
	char *dir = malloc(n + 1);
	if (dir != NULL) {
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	return dir;
}

/* Where a symlink at `link` points, resolved against its directory.
 * malloc'ed, or NULL with errno. */
static char *follow(const char *link)
{
	char target[PATH_MAX];
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return NULL;
	target[n] = '\0';
	if (target[0] == '/')
		return strdup(target);
	char *dir = dir_of(link);
	char *out = dir ? malloc(strlen(dir) + 1 + (size_t)n + 1) : NULL;
	if (out != NULL)
		sprintf(out, "%s/%s", dir, target);
	free(dir);
	if (out == NULL)
		errno = ENOMEM;
	return out;
}

/* A symlink in /proc (/proc/PID/fd/N) names an open file, not a path we
 * can follow by reading it ("pipe:[1234]"): the kernel has to open it. */
static int in_procfs(const char *link)
{
	char *dir = dir_of(link);
	struct statfs fs;
	int yes = dir != NULL && statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
	free(dir);
	return yes;
}

enum out_kind { OUT_FD, OUT_DIRECT, OUT_NEW_FILE, OUT_EXISTING_FILE };

struct out_target {
	enum out_kind kind;
	int fd;       /* OUT_FD */
	char *path;   /* the rest: where the symlinks lead (malloc'ed) */
	struct stat st; /* OUT_EXISTING_FILE */
};

static int out_error(const char *shown, const char *reason)
{
	cli_error("cannot write output file '%s': %s", shown, reason);
	return -1;
}

/* Where output to `path` goes, following symlinks one at a time. */
static int resolve_output(const char *path, struct out_target *t)
{
	char *cur = strdup(path);
	for (int hops = 0; cur != NULL; hops++) {
		int fd = fd_of_name(cur);
		if (fd >= 0) {
			free(cur);
			t->kind = OUT_FD;
			t->fd = fd;
			return 0;
		}
		if (lstat(cur, &t->st) != 0) {
			if (errno != ENOENT)
				break;
			t->kind = OUT_NEW_FILE;
			t->path = cur;
			return 0;
		}
		mode_t m = t->st.st_mode;
		if (S_ISREG(m) || S_ISFIFO(m) || S_ISCHR(m) || (S_ISLNK(m) && in_procfs(cur))) {
			t->kind = S_ISREG(m) ? OUT_EXISTING_FILE : OUT_DIRECT;
			t->path = cur;
			return 0;
		}
		if (!S_ISLNK(m)) {
			free(cur);
			return out_error(path, kind_of(m));
		}
		if (hops == MAX_SYMLINK_HOPS) {
			errno = ELOOP;
			break;
		}
		char *next = follow(cur);
		free(cur);
		cur = next;
	}
	int saved = errno;
	free(cur);
	return out_error(path, strerror(saved));
}

/* A FIFO or character device: opened without O_CREAT or O_TRUNC and
 * written in one go.  A FIFO waits for its reader, as with the shell. */
static int write_direct(const char *shown, const char *target, const uint8_t *buf, size_t len)
{
	int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return out_error(shown, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
		/* It changed since it was looked at, or a /proc link led to a
		 * regular file: that is only ever replaced whole, by its path. */
		close(fd);
		return out_error(shown, "it leads to a regular file through /proc, or changed "
					"while it was opened; give the file's own path");
	}
	int ok = write_all(fd, buf, len) == 0;
	int saved = errno;
	if (close(fd) != 0 && ok) {
		ok = 0;
		saved = errno;
	}
	return ok ? 0 : out_error(shown, strerror(saved));
}

/* The replacement gets the old file's owner and group: root always can;
 * anyone else keeps the group where they belong to it, and otherwise the
 * file becomes theirs, as with any replace by rename. */
static void keep_owner(int fd, const struct stat *old)
{
	if (old->st_uid == geteuid() && old->st_gid == getegid())
		return;
	if (fchown(fd, old->st_uid, old->st_gid) != 0 && fchown(fd, (uid_t)-1, old->st_gid) != 0)
		return; /* it becomes ours, as with any replace by rename */
}

/* The error for a directory dir in which no file can be made (err from
 * access or mkostemp), for the output file shown, existing or new. */
static int dir_error(const char *shown, const char *dir, int err, int existing)
{
	if (err == EACCES || err == EPERM || err == EROFS) {
		if (existing)
			cli_error("cannot write output file '%s': its directory '%s' is not writable "
				  "(%s); a file is replaced whole or not at all, through a temporary "
				  "file beside it (to write it in place, use standard output)",
				  shown, dir, strerror(err));
		else
			cli_error("cannot create output file '%s': its directory '%s' is not "
				  "writable (%s)", shown, dir, strerror(err));
	} else {
		cli_error("cannot %s output file '%s': no temporary file can be made in its "
			  "directory '%s' (%s)", existing ? "write" : "create", shown, dir,
			  strerror(err));
	}
	return -1;
}

/* Whether the regular file at target (old: its status; NULL for a new
 * file) may be replaced through a temporary file in its directory dir, as
 * far as permissions say; else -1 after the error. */
static int may_replace(const char *shown, const char *target, const char *dir,
		       const struct stat *old)
{
	if (old != NULL && access(target, W_OK) != 0)
		return out_error(shown, strerror(errno));
	/* In a sticky directory (/tmp) only a file's owner, the directory's
	 * or root may rename over it: said before anything is written. */
	struct stat dst;
	if (old != NULL && old->st_uid != geteuid() && geteuid() != 0 && stat(dir, &dst) == 0 &&
	    (dst.st_mode & S_ISVTX) != 0 && dst.st_uid != geteuid()) {
		cli_error("cannot replace output file '%s': it belongs to another user in the "
			  "sticky directory '%s'; a file is replaced whole or not at all, through a "
			  "temporary file renamed over it (to write it in place, use standard output)",
			  shown, dir);
		return -1;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		if (old == NULL && errno == ENOENT)
			return out_error(shown, "its directory does not exist");
		return dir_error(shown, dir, errno, old != NULL);
	}
	return 0;
}

/* A regular file, new (old == NULL) or existing: a temporary file beside
 * it, then rename. */
static int replace_file(const char *shown, const char *target, const struct stat *old,
			const uint8_t *buf, size_t len)
{
	char *dir = dir_of(target);
	char *tmp = dir ? malloc(strlen(dir) + sizeof("/.bigmont-out.XXXXXX")) : NULL;
	if (tmp == NULL) {
		free(dir);
		return out_error(shown, strerror(ENOMEM));
	}
	sprintf(tmp, "%s/.bigmont-out.XXXXXX", dir);
	if (may_replace(shown, target, dir, old) != 0) {
		free(dir);
		free(tmp);
		return -1;
	}
	/* Every signal that can be held and is not a fault: one that arrives
	 * meanwhile takes effect once the temporary file is gone, renamed or
	 * removed. */
	sigset_t hold, before;
	sigfillset(&hold);
	static const int faults[] = { SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGSYS, SIGTRAP };
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigdelset(&hold, faults[i]);
	sigprocmask(SIG_BLOCK, &hold, &before);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int saved = errno;
		sigprocmask(SIG_SETMASK, &before, NULL);
		dir_error(shown, dir, saved, old != NULL);
		free(dir);
		free(tmp);
		return -1;
	}
	free(dir);
	mode_t mode;
	if (old != NULL) {
		mode = old->st_mode & 01777;
		keep_owner(fd, old);
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	const char *step = "chmod";
	int ok = fchmod(fd, mode) == 0;
	if (ok && !(ok = write_all(fd, buf, len) == 0))
		step = "write";
	if (ok && !(ok = fsync(fd) == 0))
		step = "fsync";
	int saved = errno;
	if (close(fd) != 0 && ok) {
		ok = 0;
		step = "close";
		saved = errno;
	}
	if (ok && !(ok = rename(tmp, target) == 0)) {
		step = "rename";
		saved = errno;
	}
	if (!ok)
		unlink(tmp);
	sigprocmask(SIG_SETMASK, &before, NULL);
	if (!ok)
		cli_error("cannot write output file '%s' (%s): %s", shown, step, strerror(saved));
	free(tmp);
	return ok ? 0 : -1;
}

/* The file behind a name: std_fd's for NULL or "-", else the path's. */
static int identify(const char *path, int std_fd, struct stat *st)
{
	if (path == NULL || strcmp(path, "-") == 0)
		return fstat(std_fd, st);
	return stat(path, st);
}

int cli_same_file(const char *a, int a_std, const char *b, int b_std)
{
	struct stat sa, sb;
	return identify(a, a_std, &sa) == 0 && identify(b, b_std, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The error cli_write_output would give for a descriptor that is closed
 * or open for reading only, or 0. */
static int fd_refused(const char *path, int fd)
{
	const int flags = fcntl(fd, F_GETFL);
	if (flags >= 0 && (flags & O_ACCMODE) != O_RDONLY)
		return 0;
	const char *why = flags < 0 ? strerror(errno) : "open for reading only";
	if (fd == STDOUT_FILENO && (path == NULL || strcmp(path, "-") == 0))
		cli_error("cannot write standard output: %s", why);
	else
		cli_error("cannot write output file '%s' (descriptor %d): %s", path, fd, why);
	return -1;
}

/* The temporary file replace_file will make in dir, made and removed:
 * access() says yes to root where a file system takes no new file
 * (/proc, /sys, a read-only mount). */
static int probe_temporary(const char *shown, const char *dir, int existing)
{
	char *tmp = malloc(strlen(dir) + sizeof("/.bigmont-out.XXXXXX"));
	if (tmp == NULL)
		return out_error(shown, strerror(ENOMEM));
	sprintf(tmp, "%s/.bigmont-out.XXXXXX", dir);
	const int fd = mkstemp(tmp);
	const int saved = errno;
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	return fd >= 0 ? 0 : dir_error(shown, dir, saved, existing);
}

int cli_check_output(const char *path)
{
	struct out_target t = { .kind = OUT_FD, .fd = STDOUT_FILENO, .path = NULL };
	if (path != NULL && strcmp(path, "-") != 0 && resolve_output(path, &t) != 0)
		return -1;
	int rc = 0;
	if (t.kind == OUT_FD) {
		rc = fd_refused(path, t.fd);
	} else if (t.kind == OUT_DIRECT && access(t.path, W_OK) != 0) {
		rc = out_error(path, strerror(errno));
	} else if (t.kind == OUT_NEW_FILE || t.kind == OUT_EXISTING_FILE) {
		char *dir = dir_of(t.path);
		rc = dir == NULL ? out_error(path, strerror(ENOMEM))
				 : may_replace(path, t.path, dir,
					       t.kind == OUT_EXISTING_FILE ? &t.st : NULL);
		if (rc == 0)
			rc = probe_temporary(path, dir, t.kind == OUT_EXISTING_FILE);
		free(dir);
	}
	free(t.path);
	return rc;
}

int cli_write_output(const char *path, const uint8_t *buf, size_t len)
{
	struct out_target t = { .kind = OUT_FD, .fd = STDOUT_FILENO, .path = NULL };
	if (path != NULL && strcmp(path, "-") != 0 && resolve_output(path, &t) != 0)
		return -1;
	int rc;
	switch (t.kind) {
	case OUT_FD:
		rc = write_all(t.fd, buf, len);
		if (rc != 0) {
			if (t.fd == STDOUT_FILENO)
				cli_error("cannot write standard output: %s", strerror(errno));
			else
				cli_error("cannot write output file '%s' (descriptor %d): %s", path,
					  t.fd, strerror(errno));
		}
		break;
	case OUT_DIRECT:
		rc = write_direct(path, t.path, buf, len);
		break;
	case OUT_NEW_FILE:
		rc = replace_file(path, t.path, NULL, buf, len);
		break;
	default:
		rc = replace_file(path, t.path, &t.st, buf, len);
		break;
	}
	free(t.path);
	return rc;
}

int cli_load_key(const char *path, rsa_key **key, int *is_pem)
{
	uint8_t *data;
	size_t len;
	*key = NULL;
	if (cli_read_file(path, "key file", &data, &len) != 0)
		return -1;
	int rc = cli_load_key_data(path, data, len, key, is_pem);
	wipe_free(data, len);
	return rc;
}

int cli_load_key_data(const char *path, const uint8_t *data, size_t len, rsa_key **key,
		      int *is_pem)
{
	char err[256] = "", name[CLI_NAME_MAX];
	cli_file_name(name, sizeof(name), "key file", path);
	*key = NULL;
	if (len == 0) {
		cli_error("%s is empty", name);
		return -1;
	}
	/* DER keys start with a SEQUENCE tag and contain no PEM armour. */
	static const char armour[] = "-----BEGIN";
	const int pem = memmem(data, len, armour, sizeof(armour) - 1) != NULL;
	if (!pem && data[0] != 0x30) {
		cli_error("%s: neither PEM (no '-----BEGIN' line) nor DER (which starts "
			  "with a SEQUENCE, byte 0x30; this file starts with 0x%02x)",
			  name, data[0]);
		return -1;
	}
	int rc = pem ? rsa_key_load_pem(key, (const char *)data, len, err, sizeof(err))
		     : rsa_key_load_der(key, data, len, err, sizeof(err));
	if (rc != RSA_OK) {
		cli_error("%s: %s", name, err[0] ? err : rsa_strerror(rc));
		return -1;
	}
	if (is_pem != NULL)
		*is_pem = pem;
	return 0;
}
