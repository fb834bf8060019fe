/*
 * cli_raw_op: the shared body of `bigmont decrypt` (raw private-key
 * operation, RSADP through the CRT, fault-checked) and `bigmont encrypt`
 * (raw public-key operation, RSAEP).  No padding: the input is exactly k
 * bytes (k = the modulus length), big-endian, less than n; the output is k
 * bytes.  Exit status 0, 1 (the operation failed) or 2 (bad usage).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out, int private_op)
{
	if (private_op)
		fprintf(out,
			"usage: bigmont decrypt --key KEY [--in FILE] [--out FILE] [--no-fault-check]\n"
			"\n"
			"Raw RSA private-key operation (no padding): out = in^d mod n, through\n"
			"the CRT, constant time, with the result verified (out^e mod n == in)\n"
			"before it is written.\n"
			"\n"
			"  --key KEY         private key: PKCS#1 or PKCS#8, PEM or DER ('-': standard\n"
			"                    input, with --in FILE)\n"
			"  --in FILE         input, exactly k bytes (k = modulus bytes), big-endian,\n"
			"                    less than n (default: all of standard input)\n"
			"  --out FILE        output, k bytes (default: standard output); a regular\n"
			"                    file is replaced whole or not at all, a FIFO or device\n"
			"                    written directly\n"
			"  --no-fault-check  skip the out^e == in verification\n"
			"  -h, --help        this help\n");
	else
		fprintf(out,
			"usage: bigmont encrypt --key KEY [--in FILE] [--out FILE]\n"
			"\n"
			"Raw RSA public-key operation (no padding): out = in^e mod n.\n"
			"\n"
			"  --key KEY   public or private key: PKCS#1, PKCS#8 or SubjectPublicKeyInfo,\n"
			"              PEM or DER ('-': standard input, with --in FILE)\n"
			"  --in FILE   input, exactly k bytes (k = modulus bytes), big-endian, less\n"
			"              than n (default: all of standard input)\n"
			"  --out FILE  output, k bytes (default: standard output); a regular file is\n"
			"              replaced whole or not at all, a FIFO or device written directly\n"
			"  -h, --help  this help\n");
}

int cli_raw_op(int argc, char **argv, int private_op)
{
	const char *cmd = private_op ? "decrypt" : "encrypt";
	const char *keyfile = NULL, *infile = NULL, *outfile = NULL;
	int fault_check = 1, options = 1;
	for (int i = 1; i < argc; i++) {
		const char *v, *arg = argv[i];
		const char **slot = NULL;
		if (options && !strcmp(arg, "--")) {
			options = 0; /* no operands follow: anything after is unexpected */
			continue;
		}
		if (!options) {
			cli_error("%s: unexpected argument '%s' (try 'bigmont %s --help')", cmd,
				  arg, cmd);
			return CLI_EXIT_USAGE;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout, private_op);
			return 0;
		}
		if (cli_option_value("--key", argc, argv, &i, &v))
			slot = &keyfile;
		else if (cli_option_value("--in", argc, argv, &i, &v))
			slot = &infile;
		else if (cli_option_value("--out", argc, argv, &i, &v))
			slot = &outfile;
		else if (private_op && !strcmp(arg, "--no-fault-check")) {
			fault_check = 0;
			continue;
		} else if (arg[0] == '-' && arg[1] != '\0') {
			cli_error("%s: unknown option '%s' (try 'bigmont %s --help')", cmd, arg, cmd);
			return CLI_EXIT_USAGE;
		} else {
			cli_error("%s: unexpected argument '%s' (try 'bigmont %s --help')", cmd,
				  arg, cmd);
			return CLI_EXIT_USAGE;
		}
		if (v == NULL || *v == '\0') {
			cli_error("%s: option '%s' needs a value", cmd, arg);
			return CLI_EXIT_USAGE;
		}
		if (*slot != NULL) {
			cli_error("%s: option '%.*s' given twice", cmd, (int)strcspn(arg, "="), arg);
			return CLI_EXIT_USAGE;
		}
		*slot = v;
	}
	if (keyfile == NULL) {
		cli_error("%s: missing --key KEY (try 'bigmont %s --help')", cmd, cmd);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(keyfile, "-") && (infile == NULL || !strcmp(infile, "-"))) {
		cli_error("%s: the key and the input cannot both come from standard input "
			  "(give --in FILE)", cmd);
		return CLI_EXIT_USAGE;
	}
	if (cli_check_cpu_env() != 0)
		return CLI_EXIT_USAGE;

	rsa_key *key;
	if (cli_load_key(keyfile, &key, NULL) != 0)
		return CLI_EXIT_FAILURE;
	int status = CLI_EXIT_FAILURE;
	uint8_t *in = NULL, *out = NULL;
	size_t inlen = 0, k = rsa_key_size(key);
	if (private_op && !rsa_key_is_private(key)) {
		cli_error("key file '%s' holds a public key; decrypt needs a private key", keyfile);
		goto done;
	}
	if (!fault_check)
		rsa_key_set_fault_check(key, 0);
	if (cli_read_input(infile, k + 1, &in, &inlen) != 0)
		goto done;
	if (inlen > k) {
		cli_error("input is longer than the %zu bytes this %d-bit key needs", k,
			  rsa_key_bits(key));
		goto done;
	}
	if (inlen != k) {
		cli_error("input is %zu byte%s; this %d-bit key needs exactly %zu bytes", inlen,
			  inlen == 1 ? "" : "s", rsa_key_bits(key), k);
		goto done;
	}
	out = malloc(k);
	if (out == NULL) {
		cli_error("out of memory");
		goto done;
	}
	int rc = private_op ? rsa_private_raw(key, out, in, k) : rsa_public_raw(key, out, in, k);
	if (rc != RSA_OK) {
		if (rc == RSA_ERR_RANGE)
			cli_error("input is not less than the modulus n");
		else
			cli_error("%s failed: %s", cmd, rsa_strerror(rc));
		goto done;
	}
	if (cli_write_output(outfile, out, k) == 0)
		status = 0;
done:
	if (out != NULL) {
		big_wipe(out, k);
		free(out);
	}
	if (in != NULL) {
		big_wipe(in, inlen);
		free(in);
	}
	rsa_key_free(key);
	return status;
}
