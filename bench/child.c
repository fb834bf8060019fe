/*
 * bench/child.c -- starting, speaking to and stopping a benchmark child
 * process (contract in child.h).
 */
#define _GNU_SOURCE /* pipe2 */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lines.h"

/* execv(path, argv) in the child.  This program again ("/proc/self/exe")
 * goes through the program BIGMONT_EMULATOR names when it is set (cli.h:
 * a cross build under qemu-user, where an aarch64 program cannot execve
 * another), by its real name: the emulator's /proc/self/exe is its own. */
static void child_exec(const char *path, char *const argv[])
{
	const char *emulator = getenv("BIGMONT_EMULATOR");
	char self[4096];
	ssize_t n;
	if (emulator == NULL || *emulator == '\0' || strcmp(path, "/proc/self/exe") != 0 ||
	    (n = readlink(path, self, sizeof(self) - 1)) <= 0 || n >= (ssize_t)sizeof(self) - 1) {
		execv(path, argv);
		return;
	}
	self[n] = '\0';
	int argc = 0;
	while (argv[argc] != NULL)
		argc++;
	char **args = malloc((size_t)(argc + 2) * sizeof(*args));
	if (args == NULL)
		return;
	args[0] = (char *)emulator;
	args[1] = self;
	memcpy(args + 2, argv + 1, (size_t)argc * sizeof(*args)); /* and the NULL */
	execvp(emulator, args);
}

int bench_child_start(struct bench_child *c, const char *name, const char *path,
		      char *const argv[], const char *env_name, const char *env_value,
		      char *err, size_t errlen)
{
	*c = (struct bench_child){ .name = name };
	int down[2], up[2];
	if (pipe2(down, O_CLOEXEC) != 0)
		goto sys_fail;
	if (pipe2(up, O_CLOEXEC) != 0) {
		close(down[0]);
		close(down[1]);
		goto sys_fail;
	}
	fflush(NULL); /* ours first: the child shares our stderr */
	pid_t pid = fork();
	if (pid < 0) {
		close(down[0]); close(down[1]); close(up[0]); close(up[1]);
		goto sys_fail;
	}
	if (pid == 0) {
		if (dup2(down[0], 0) < 0 || dup2(up[1], 1) < 0)
			_exit(127);
		if (env_name != NULL)
			setenv(env_name, env_value, 1);
		child_exec(path, argv);
		_exit(127);
	}
	close(down[0]);
	close(up[1]);
	c->pid = pid;
	c->to = fdopen(down[1], "w");
	c->from = fdopen(up[0], "r");
	if (c->to == NULL || c->from == NULL) {
		int saved = errno;
		/* The raw end of a stream that did not open, so that the child
		 * still sees the end of its input and exits. */
		if (c->to == NULL)
			close(down[1]);
		if (c->from == NULL)
			close(up[0]);
		bench_child_stop(c);
		snprintf(err, errlen, "cannot start %s: fdopen: %s", name, strerror(saved));
		return -1;
	}
	return 0;
sys_fail:
	snprintf(err, errlen, "cannot start %s: %s", name, strerror(errno));
	return -1;
}

int bench_child_send(struct bench_child *c, char *err, size_t errlen)
{
	if (fflush(c->to) == 0)
		return 0;
	snprintf(err, errlen, "cannot write to %s", c->name);
	return -1;
}

char *bench_child_expect(struct bench_child *c, const char *tag, char *err,
			 size_t errlen)
{
	int too_long;
	char *line = bench_read_line(c->from, &too_long);
	if (line == NULL) {
		snprintf(err, errlen, "no reply from %s (it died, or sent a line longer than "
			 "its protocol's)", c->name);
		return NULL;
	}
	line[strcspn(line, "\n")] = '\0';
	size_t n = strlen(tag);
	if (strncmp(line, tag, n) != 0 || line[n] != ' ') {
		snprintf(err, errlen, "%s: %.280s", c->name,
			 !strncmp(line, "err ", 4) ? line + 4 : line);
		free(line);
		return NULL;
	}
	return line;
}

int bench_child_key(struct bench_child *c, const char *pem, size_t len, size_t *size,
		    char *err, size_t errlen)
{
	fprintf(c->to, "key %zu\n", len);
	fwrite(pem, 1, len, c->to);
	if (bench_child_send(c, err, errlen) != 0)
		return -1;
	char *line = bench_child_expect(c, "ok", err, errlen);
	if (line == NULL)
		return -1;
	*size = strtoul(line + 3, NULL, 10);
	free(line);
	if (*size == 0) {
		snprintf(err, errlen, "%s: bad key size", c->name);
		return -1;
	}
	return 0;
}

char *bench_child_hex_request(struct bench_child *c, const char *word, const uint8_t *b,
			      size_t n, char *err, size_t errlen)
{
	fprintf(c->to, "%s ", word);
	bench_hex_write(c->to, b, n);
	fputc('\n', c->to);
	if (bench_child_send(c, err, errlen) != 0)
		return NULL;
	return bench_child_expect(c, "out", err, errlen);
}

int bench_child_batch(struct bench_child *c, const char *word, long iters,
		      struct bench_batch *out, char *err, size_t errlen)
{
	fprintf(c->to, "%s %ld\n", word, iters);
	if (bench_child_send(c, err, errlen) != 0)
		return -1;
	char *line = bench_child_expect(c, "ns", err, errlen);
	if (line == NULL)
		return -1;
	unsigned long long ns = 0, cyc = 0;
	int got = sscanf(line + 3, "%llu %llu", &ns, &cyc);
	if (got != 2)
		snprintf(err, errlen, "%s: no timing in '%.200s'", c->name, line);
	free(line);
	if (got != 2)
		return -1;
	out->ns = ns;
	out->cycles = cyc;
	return 0;
}

void bench_child_stop(struct bench_child *c)
{
	if (c->to != NULL)
		fclose(c->to); /* the end of its input: the child exits */
	if (c->from != NULL)
		fclose(c->from);
	if (c->pid > 0)
		waitpid(c->pid, NULL, 0);
	c->to = c->from = NULL;
	c->pid = 0;
}

void bench_child_close(void *handle)
{
	if (handle == NULL)
		return;
	bench_child_stop(handle); /* its first member: C11 6.7.2.1 */
	free(handle);
}
