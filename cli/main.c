/*
 * bigmont -- the command: raw RSA operations with real keys, key checks,
 * and the benchmark.
 */
#include "cli.h"

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
		"  speed     benchmark RSA private-key operations against GMP and OpenSSL\n"
		"\n"
		"Run 'bigmont <command> --help' for the options of a command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("bigmont %s\n", BIGMONT_VERSION);
		return 0;
	}
	if (cli_check_cpu_env() != 0)
		return CLI_EXIT_USAGE;
	if (!strcmp(cmd, "decrypt"))
		return cmd_decrypt(argc - 1, argv + 1);
	if (!strcmp(cmd, "encrypt"))
		return cmd_encrypt(argc - 1, argv + 1);
	if (!strcmp(cmd, "key-info"))
		return cmd_key_info(argc - 1, argv + 1);
	if (!strcmp(cmd, "speed")) {
#if BIGMONT_HAVE_BENCH
		return bigmont_speed_main(argc - 1, argv + 1);
#else
		cli_error("this bigmont was built without the benchmark "
			  "(configure with -DBIGMONT_BUILD_BENCH=ON)");
		return CLI_EXIT_FAILURE;
#endif
	}
	cli_error("unknown command '%s' (try 'bigmont --help')", cmd);
	return CLI_EXIT_USAGE;
}
