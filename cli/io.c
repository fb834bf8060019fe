/*
 * File and key I/O for the bigmont command: whole-file reads (a missing
 * file, a directory or an empty file is a clear error), stdin to EOF, key
 * files in PEM or DER (detected by content), and all-or-nothing output:
 * the bytes go to a temporary file beside the target, are fsync'ed, then
 * renamed over it; any failure removes the temporary, so a reader sees the
 * old file or the whole new one, never a part.
 */
#define _GNU_SOURCE /* memmem */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_fd(int fd, uint8_t **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	uint8_t *b = malloc(cap);
	if (b == NULL)
		return -1;
	for (;;) {
		if (n == cap) {
			uint8_t *nb = realloc(b, cap * 2);
			if (nb == NULL) {
				free(b);
				errno = ENOMEM;
				return -1;
			}
			b = nb;
			cap *= 2;
		}
		ssize_t got = read(fd, b + n, cap - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			int saved = errno;
			free(b);
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

int cli_read_file(const char *path, const char *what, uint8_t **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot open %s '%s': %s", what, path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		cli_error("%s '%s' is a directory", what, path);
		close(fd);
		return -1;
	}
	if (read_fd(fd, buf, len) != 0) {
		cli_error("cannot read %s '%s': %s", what, path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int cli_read_input(const char *path, uint8_t **buf, size_t *len)
{
	if (path == NULL || strcmp(path, "-") == 0) {
		if (read_fd(STDIN_FILENO, buf, len) != 0) {
			cli_error("cannot read standard input: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	return cli_read_file(path, "input file", buf, len);
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

int cli_write_output(const char *path, const uint8_t *buf, size_t len)
{
	if (path == NULL || strcmp(path, "-") == 0) {
		if (write_all(STDOUT_FILENO, buf, len) != 0) {
			cli_error("cannot write standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	size_t plen = strlen(path);
	char *tmp = malloc(plen + sizeof(".tmp.XXXXXX"));
	if (tmp == NULL) {
		cli_error("out of memory");
		return -1;
	}
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
	int fd = mkstemp(tmp);
	if (fd < 0) {
		cli_error("cannot create output file '%s': %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	const char *step = "write";
	int ok = write_all(fd, buf, len) == 0;
	if (ok && !(ok = fsync(fd) == 0))
		step = "fsync";
	if (close(fd) != 0 && ok) {
		ok = 0;
		step = "close";
	}
	if (ok && !(ok = rename(tmp, path) == 0))
		step = "rename";
	if (!ok) {
		cli_error("cannot write output file '%s' (%s): %s", path, step, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return ok ? 0 : -1;
}

int cli_load_key(const char *path, rsa_key **key, int *is_pem)
{
	uint8_t *data;
	size_t len;
	char err[256] = "";
	*key = NULL;
	if (cli_read_file(path, "key file", &data, &len) != 0)
		return -1;
	if (len == 0) {
		cli_error("key file '%s' is empty", path);
		free(data);
		return -1;
	}
	/* DER keys start with a SEQUENCE tag and contain no PEM armour. */
	static const char armour[] = "-----BEGIN";
	int pem = memmem(data, len, armour, sizeof(armour) - 1) != NULL || data[0] != 0x30;
	int rc = pem ? rsa_key_load_pem(key, (const char *)data, len, err, sizeof(err))
		     : rsa_key_load_der(key, data, len, err, sizeof(err));
	big_wipe(data, len);
	free(data);
	if (rc != RSA_OK) {
		cli_error("key file '%s': %s", path, err[0] ? err : rsa_strerror(rc));
		return -1;
	}
	if (is_pem != NULL)
		*is_pem = pem;
	return 0;
}
