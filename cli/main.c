/*
 * bigmont -- the command: raw RSA operations with real keys, key checks,
 * and the benchmark.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bigmont <command> [options]\n"
		"\n"
		"commands:\n"
		"  decrypt   raw RSA private-key operation (CRT, fault-checked)\n"
		"  encrypt   raw RSA public-key operation\n"
		"  key-info  show a key's size, exponent, format and checks\n"
#if BIGMONT_HAVE_BENCH
		"  speed     benchmark RSA private-key operations against GMP and OpenSSL\n"
#else
		"  (speed    not in this build: configure with -DBIGMONT_BUILD_BENCH=ON)\n"
#endif
		"\n"
		"Run 'bigmont <command> --help' for the options of a command,\n"
		"'bigmont --version' for the version.\n");
#if BIGMONT_HAVE_BENCH
	/* The benchmark is another executable (cli/speed_exec.c): say which. */
	char path[PATH_MAX], why[2 * PATH_MAX + 160];
	if (cli_speed_path(path, sizeof(path), why, sizeof(why)) == 0)
		fprintf(out, "'bigmont speed' runs %s.\n", path);
	else
		fprintf(out, "'bigmont speed' runs " CLI_SPEED_PROGRAM ", which is missing: %s.\n",
			why);
#endif
}

/*
 * Output errors are caught at exit: key-info and --help print through
 * stdio, which reports a full disk or a closed descriptor only when the
 * buffer is flushed.  Nothing written and a closed descriptor is fine (a
 * command whose output went to --out); anything else that fails is exit 1.
 */
static int close_stdout(int status)
{
	errno = 0;
	int err = fflush(stdout) != 0 || ferror(stdout) ? (errno ? errno : EIO) : 0;
	if (fclose(stdout) != 0 && err == 0 && errno != EBADF)
		err = errno;
	if (err == 0)
		return status;
	if (status == 0)
		cli_error("cannot write standard output: %s", strerror(err));
	return CLI_EXIT_FAILURE;
}

static int run_command(int argc, char **argv)
{
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		if (argc > 2) {
			cli_error("unexpected argument '%s' after --version (try 'bigmont --help')",
				  argv[2]);
			return CLI_EXIT_USAGE;
		}
		printf("bigmont %s\n", BIGMONT_VERSION);
		return 0;
	}
	/* Each command checks BIGMONT_CPU once its options are read, so that
	 * its --help answers whatever BIGMONT_CPU says. */
	if (!strcmp(cmd, "decrypt"))
		return cmd_decrypt(argc - 1, argv + 1);
	if (!strcmp(cmd, "encrypt"))
		return cmd_encrypt(argc - 1, argv + 1);
	if (!strcmp(cmd, "key-info"))
		return cmd_key_info(argc - 1, argv + 1);
	cli_error("unknown command '%s' (try 'bigmont --help')", cmd);
	return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	/* Before the signal dispositions below: an ignored signal stays
	 * ignored across execv, and the benchmark sets its own. */
	if (!strcmp(argv[1], "speed")) {
#if BIGMONT_HAVE_BENCH
		return cmd_speed_exec(argc - 1, argv + 1);
#else
		cli_error("this bigmont was built without the benchmark "
			  "(configure with -DBIGMONT_BUILD_BENCH=ON)");
		return CLI_EXIT_FAILURE;
#endif
	}
	/* A reader that goes away (a FIFO, a pipe) or a file-size limit is a
	 * write error, reported and exit 1, not a silent death by SIGPIPE or
	 * SIGXFSZ. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	return close_stdout(run_command(argc, argv));
}
