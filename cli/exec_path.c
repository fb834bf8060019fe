/*
 * Finding the other executable of the pair: bigmont finds bigmont-speed,
 * bigmont-speed finds bigmont (cli.h).  Both look where they themselves
 * lie (/proc/self/exe), not in PATH: a build tree holds the two side by
 * side in cli/, an install puts the command in bin/ and the benchmark in
 * libexec/bigmont/, and the relative way between those two is fixed when
 * the build is configured (cli/CMakeLists.txt), so that an install
 * works wherever --prefix puts it.
 */
#define _GNU_SOURCE /* readlink, realpath */
#include "cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* This executable's directory, or -1 when /proc is not there. */
static int self_dir(char *dir, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
	if (n <= 0 || (size_t)n >= cap - 1)
		return -1;
	dir[n] = '\0';
	char *slash = strrchr(dir, '/');
	if (slash == NULL)
		return -1;
	*slash = '\0';
	return 0;
}

int cli_find_program(const char *name, const char *rel_dir, char *path, size_t cap,
		     char *why, size_t why_cap)
{
	char dir[PATH_MAX], candidate[2][PATH_MAX + 64];
	if (self_dir(dir, sizeof(dir)) != 0) {
		snprintf(why, why_cap, "/proc/self/exe, where it is looked for from, is unreadable");
		return -1;
	}
	/* Beside this program first (a build tree), then the install's place. */
	snprintf(candidate[0], sizeof(candidate[0]), "%s/%s", dir, name);
	snprintf(candidate[1], sizeof(candidate[1]), "%s/%s/%s", dir, rel_dir, name);
	for (int i = 0; i < 2; i++) {
		char real[PATH_MAX];
		if (access(candidate[i], X_OK) == 0 && realpath(candidate[i], real) != NULL &&
		    strlen(real) < cap) {
			strcpy(path, real);
			return 0;
		}
	}
	snprintf(why, why_cap, "it is not at %s nor at %s", candidate[0], candidate[1]);
	return -1;
}

int cli_execv_own(const char *path, char *const argv[])
{
	const char *emulator = getenv(CLI_EMULATOR_ENV);
	if (emulator == NULL || *emulator == '\0')
		return execv(path, argv);
	int argc = 0;
	while (argv[argc] != NULL)
		argc++;
	char **args = malloc((size_t)(argc + 2) * sizeof(*args));
	if (args == NULL)
		return -1;
	args[0] = (char *)emulator;
	args[1] = (char *)path;
	memcpy(args + 2, argv + 1, (size_t)argc * sizeof(*args)); /* and the NULL */
	execvp(emulator, args);
	free(args);
	return -1;
}
