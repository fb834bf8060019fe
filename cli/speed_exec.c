/*
 * `bigmont speed` in the command: it becomes bigmont-speed (git's way with
 * `git foo` and git-foo).  The benchmark is its own executable because it
 * alone needs GMP, OpenSSL and the lock counter, whose definitions of
 * pthread_mutex_lock and the like would otherwise sit in every process
 * that runs a decrypt.  execv, not a child: the benchmark's exit
 * status, its signals and its standard streams are the command's, and
 * the "/proc/self/exe --worker" child it starts is bigmont-speed again.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_speed_path(char *path, size_t cap, char *why, size_t why_cap)
{
	return cli_find_program(CLI_SPEED_PROGRAM, BIGMONT_SPEED_FROM_BIN, path, cap, why,
				why_cap);
}

int cmd_speed_exec(int argc, char **argv)
{
	char path[PATH_MAX], why[2 * PATH_MAX + 160];
	if (cli_speed_path(path, sizeof(path), why, sizeof(why)) != 0) {
		cli_error("speed: cannot find the benchmark program %s: %s", CLI_SPEED_PROGRAM,
			  why);
		return CLI_EXIT_FAILURE;
	}
	/* argv[0] "speed" becomes the program's name; the options follow as
	 * given (argv[argc] is NULL). */
	char **args = malloc((size_t)(argc + 1) * sizeof(*args));
	if (args == NULL) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	args[0] = (char *)CLI_SPEED_PROGRAM;
	memcpy(args + 1, argv + 1, (size_t)argc * sizeof(*args));
	cli_execv_own(path, args);
	const int saved = errno;
	const char *emulator = getenv("BIGMONT_EMULATOR");
	if (emulator != NULL && *emulator != '\0')
		cli_error("speed: cannot run %s through BIGMONT_EMULATOR '%s': %s", path, emulator,
			  strerror(saved));
	else
		cli_error("speed: cannot run %s: %s", path, strerror(saved));
	free(args);
	return CLI_EXIT_FAILURE;
}
