/*
 * `bigmont key-info KEY`: what a key file holds -- format (and PEM or DER),
 * private or public, modulus bits, the public exponent (decimal when it
 * fits 64 bits, hex above), and the checks it passed.  A key that fails to
 * parse or to pass its checks is reported as an error (exit 1) with the
 * reason, the same refusal decrypt and encrypt give.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bigmont key-info [--] KEY\n"
		"\n"
		"Show an RSA key's format, type, modulus size and public exponent, and\n"
		"check it (private keys: p*q = n, dp = d mod (p-1), dq = d mod (q-1),\n"
		"qInv*q = 1 mod p, e*d = 1 mod (p-1) and (q-1), p and q prime by\n"
		"Miller-Rabin; every key: n odd, e odd, 1 < e < n, 512 to 16384 bits).\n"
		"KEY may be PEM or DER ('-': standard input); a PEM file may hold\n"
		"certificates or parameters beside its one key.\n"
		"\n"
		"  -h, --help  this help\n");
}

int cmd_key_info(int argc, char **argv)
{
	const char *keyfile = NULL;
	int options = 1; /* until "--", after which a name may start with '-' */
	if (cli_help_asked(argc, argv, NULL, 0)) {
		usage(stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (options && !strcmp(arg, "--")) {
			options = 0;
			continue;
		}
		if (options && arg[0] == '-' && arg[1] != '\0') {
			cli_error("key-info: unknown option '%s' (try 'bigmont key-info --help')", arg);
			return CLI_EXIT_USAGE;
		}
		if (keyfile != NULL) {
			cli_error("key-info: unexpected argument '%s' (one key file only)", arg);
			return CLI_EXIT_USAGE;
		}
		keyfile = arg;
	}
	if (keyfile == NULL || keyfile[0] == '\0') {
		cli_error(keyfile == NULL ? "key-info: missing KEY (try 'bigmont key-info --help')"
					  : "key-info: the KEY given is an empty name");
		return CLI_EXIT_USAGE;
	}
	if (cli_check_environment() != 0)
		return CLI_EXIT_USAGE;
	rsa_key *key;
	int pem;
	if (cli_load_key(keyfile, &key, &pem) != 0)
		return CLI_EXIT_FAILURE;
	uint8_t e[16384 / 8]; /* e < n, n at most 16384 bits */
	size_t elen = rsa_key_public_exponent(key, e, sizeof(e));
	printf("file: %s\n", keyfile);
	printf("format: %s (%s)\n", rsa_key_format_name(rsa_key_format(key)), pem ? "PEM" : "DER");
	printf("type: %s\n", rsa_key_is_private(key) ? "private" : "public");
	printf("modulus bits: %d\n", rsa_key_bits(key));
	if (elen <= 8) {
		unsigned long long v = 0;
		for (size_t i = 0; i < elen; i++)
			v = v << 8 | e[i];
		printf("public exponent: %llu\n", v);
	} else {
		printf("public exponent: 0x");
		for (size_t i = 0; i < elen; i++)
			printf("%02x", e[i]);
		printf("\n");
	}
	if (rsa_key_is_private(key))
		printf("checks: passed (p*q = n, dp = d mod (p-1), dq = d mod (q-1), "
		       "qInv*q = 1 mod p, e*d = 1 mod (p-1) and (q-1), p and q prime "
		       "(Miller-Rabin), n odd, e odd, 1 < e < n)\n");
	else
		printf("checks: passed (n odd, e odd, 1 < e < n)\n");
	rsa_key_free(key);
	return 0;
}
