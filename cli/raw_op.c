/*
 * cli_raw_op: the shared body of `bigmont decrypt` (raw private-key
 * operation, RSADP through the CRT, fault-checked) and `bigmont encrypt`
 * (raw public-key operation, RSAEP).  No padding: the input is exactly k
 * bytes (k = the modulus length), big-endian, less than n; the output is k
 * bytes.  With --batch the input is one or more such blocks, each an
 * operation, and the output their results in order; decrypt hands them all
 * to rsa_private_batch (four at a time in vector lanes), encrypt does them
 * one by one.  Nothing is written unless every block succeeds.  Exit
 * status 0, 1 (the operation failed) or 2 (bad usage).
 */
#include "cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The most --batch reads: 64 MiB is 262,144 RSA-2048 blocks, a few
 * seconds of work a core; input, output and a key pointer and status a
 * block stay under 150 MiB. */
#define BATCH_MAX_BYTES ((size_t)64 << 20)
#define BATCH_MAX_TEXT "64 MiB"

static void usage(FILE *out, int private_op)
{
	if (private_op)
		fprintf(out,
			"usage: bigmont decrypt --key KEY [--in FILE] [--out FILE] [--batch]\n"
			"                       [--no-fault-check]\n"
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
			"  --batch           the input is one or more k-byte blocks (at most " BATCH_MAX_TEXT "),\n"
			"                    each an operation, the output their results in order;\n"
			"                    four at a time in vector lanes (AVX-512 IFMA, else\n"
			"                    AVX-512F, else AVX2 with or without FMA) where the\n"
			"                    CPU has them;\n"
			"                    nothing is written unless every block succeeds\n"
			"  --no-fault-check  skip the out^e == in verification\n"
			"  -h, --help        this help\n"
			"\n"
			"BIGMONT_BATCH=ifma|fma512|avx512|fma|avx2|c in the environment asks --batch\n"
			"for those lanes (c: the portable ones); lanes this build or CPU cannot run are\n"
			"an error.\n");
	else
		fprintf(out,
			"usage: bigmont encrypt --key KEY [--in FILE] [--out FILE] [--batch]\n"
			"\n"
			"Raw RSA public-key operation (no padding): out = in^e mod n.\n"
			"\n"
			"  --key KEY   public or private key: PKCS#1, PKCS#8 or SubjectPublicKeyInfo,\n"
			"              PEM or DER ('-': standard input, with --in FILE)\n"
			"  --in FILE   input, exactly k bytes (k = modulus bytes), big-endian, less\n"
			"              than n (default: all of standard input)\n"
			"  --out FILE  output, k bytes (default: standard output); a regular file is\n"
			"              replaced whole or not at all, a FIFO or device written directly\n"
			"  --batch     the input is one or more k-byte blocks (at most " BATCH_MAX_TEXT "), each\n"
			"              an operation, the output their results in order; nothing is\n"
			"              written unless every block succeeds\n"
			"  -h, --help  this help\n");
}

/* What the errors about the input call it: "input file 'NAME'" or
 * "standard input", in name (cap bytes). */
static void name_input(char *name, size_t cap, const char *infile)
{
	if (infile == NULL || !strcmp(infile, "-"))
		snprintf(name, cap, "standard input");
	else
		snprintf(name, cap, "input file '%s'", infile);
}

/* Whether inlen bytes are what the key of k bytes (bits) takes: exactly k,
 * or with --batch a whole number of k-byte blocks, at least one and at
 * most BATCH_MAX_BYTES; else the error that says what was wrong. */
static int input_length_ok(const char *in, size_t inlen, size_t k, int bits, int batch)
{
	if (!batch) {
		if (inlen > k)
			cli_error("%s is longer than the %zu bytes this %d-bit key needs", in, k,
				  bits);
		else if (inlen != k)
			cli_error("%s is %zu byte%s; this %d-bit key needs exactly %zu bytes", in,
				  inlen, inlen == 1 ? "" : "s", bits, k);
		return inlen == k;
	}
	if (inlen > BATCH_MAX_BYTES) {
		cli_error("%s is longer than " BATCH_MAX_TEXT ", the most --batch reads: "
			  "split it", in);
		return 0;
	}
	if (inlen == 0) {
		cli_error("%s is empty; --batch needs one or more blocks of the %zu "
			  "bytes this %d-bit key takes", in, k, bits);
		return 0;
	}
	if (inlen % k != 0) {
		cli_error("%s is %zu bytes, not a whole number of the %zu-byte blocks "
			  "this %d-bit key takes (%zu whole and %zu byte%s over)",
			  in, inlen, k, bits, inlen / k, inlen % k, inlen % k == 1 ? "" : "s");
		return 0;
	}
	return 1;
}

/* The one error line for block i of `blocks` of the input `in` failing
 * with rc (a single block is the input itself, as without --batch), and
 * how many failed in all. */
static void block_error(const char *cmd, const char *in, int rc, size_t i, size_t blocks,
			size_t k, size_t failed)
{
	char block[96] = "", more[96] = "";
	if (blocks > 1)
		snprintf(block, sizeof block, ", block %zu of %zu (bytes %zu to %zu)", i + 1,
			 blocks, i * k, (i + 1) * k - 1);
	if (failed > 1)
		snprintf(more, sizeof more, " (the first of %zu that failed; nothing written)",
			 failed);
	else if (blocks > 1)
		snprintf(more, sizeof more, " (nothing written)");
	if (rc == RSA_ERR_RANGE)
		cli_error("%s%s%s is not less than the modulus n%s", in, block, blocks > 1 ? "," : "",
			  more);
	else if (blocks > 1)
		cli_error("%s failed on %s%s: %s%s", cmd, in, block, rsa_strerror(rc), more);
	else
		cli_error("%s failed: %s", cmd, rsa_strerror(rc));
}

/* Every block's operation, then the error of the first that failed:
 * decrypt hands them all to rsa_private_batch on the one key (the batch's
 * common case, at no extra cost; one block runs there as rsa_private_raw),
 * encrypt runs rsa_public_raw on each.  0, or -1 after the error. */
static int run_blocks(int private_op, const char *in_name, const rsa_key *key, uint8_t *out,
		      const uint8_t *in, size_t k, size_t blocks)
{
	const char *cmd = private_op ? "decrypt" : "encrypt";
	const rsa_key **keys = private_op ? malloc(blocks * sizeof *keys) : NULL;
	/* RSA_OK where a failure writes none (rsa_private_batch without the
	 * memory for its scratch) */
	int *status = calloc(blocks, sizeof *status);
	int rc = RSA_OK, result = -1;
	if (status == NULL || (private_op && keys == NULL)) {
		cli_error("out of memory");
		goto done;
	}
	if (private_op) {
		for (size_t i = 0; i < blocks; i++)
			keys[i] = key;
		rc = rsa_private_batch(keys, out, in, k, blocks, status, NULL, 0);
	} else {
		for (size_t i = 0; i < blocks; i++) {
			status[i] = rsa_public_raw(key, out + i * k, in + i * k, k);
			if (rc == RSA_OK)
				rc = status[i];
		}
	}
	if (rc == RSA_OK) {
		result = 0;
		goto done;
	}
	size_t failed = 0, first = 0;
	for (size_t i = 0; i < blocks; i++)
		if (status[i] != RSA_OK && failed++ == 0)
			first = i;
	if (failed > 0)
		block_error(cmd, in_name, status[first], first, blocks, k, failed);
	else
		cli_error("%s failed: %s", cmd, rsa_strerror(rc));
done:
	free(keys);
	free(status);
	return result;
}

int cli_raw_op(int argc, char **argv, int private_op)
{
	const char *cmd = private_op ? "decrypt" : "encrypt";
	const char *keyfile = NULL, *infile = NULL, *outfile = NULL;
	int fault_check = 1, batch = 0, options = 1;
	static const char *const valued[] = { "--key", "--in", "--out" };
	if (cli_help_asked(argc, argv, valued, sizeof(valued) / sizeof(valued[0]))) {
		usage(stdout, private_op);
		return 0;
	}
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
		if (cli_option_value("--key", argc, argv, &i, &v))
			slot = &keyfile;
		else if (cli_option_value("--in", argc, argv, &i, &v))
			slot = &infile;
		else if (cli_option_value("--out", argc, argv, &i, &v))
			slot = &outfile;
		else if (private_op && !strcmp(arg, "--no-fault-check")) {
			if (!fault_check) {
				cli_error("%s: option '%s' given twice", cmd, arg);
				return CLI_EXIT_USAGE;
			}
			fault_check = 0;
			continue;
		} else if (!strcmp(arg, "--batch")) {
			if (batch) {
				cli_error("%s: option '%s' given twice", cmd, arg);
				return CLI_EXIT_USAGE;
			}
			batch = 1;
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
			cli_error(v == NULL ? "%s: option '%.*s' needs a value"
					    : "%s: option '%.*s' has an empty value",
				  cmd, (int)strcspn(arg, "="), arg);
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
	const int key_from_stdin = !strcmp(keyfile, "-");
	if ((key_from_stdin && (infile == NULL || !strcmp(infile, "-"))) ||
	    cli_same_file(keyfile, STDIN_FILENO, infile, STDIN_FILENO)) {
		if (key_from_stdin)
			cli_error("%s: the key and the input cannot both come from standard input "
				  "(give --in FILE)", cmd);
		else if (infile == NULL || !strcmp(infile, "-"))
			cli_error("%s: the key file '%s' is also the input (give the input with "
				  "--in FILE)", cmd, keyfile);
		else
			cli_error("%s: the key file '%s' is also the input: '%s' is the same file "
				  "(give another --in)", cmd, keyfile, infile);
		return CLI_EXIT_USAGE;
	}
	/* Only an explicit --out: standard output is the shell's, and its '>'
	 * has truncated the file before the key is read. */
	if (outfile != NULL && strcmp(outfile, "-") != 0 &&
	    cli_same_file(keyfile, STDIN_FILENO, outfile, STDOUT_FILENO)) {
		cli_error("%s: output file '%s' is the key file; writing it would replace the "
			  "key (choose another --out)", cmd, outfile);
		return CLI_EXIT_USAGE;
	}
	if (cli_check_environment() != 0 || (private_op && batch && cli_check_batch_env() != 0))
		return CLI_EXIT_USAGE;
	/* Before the work, which --batch can make long, not after it. */
	if (cli_check_output(outfile) != 0)
		return CLI_EXIT_FAILURE;

	rsa_key *key;
	if (cli_load_key(keyfile, &key, NULL) != 0)
		return CLI_EXIT_FAILURE;
	int status = CLI_EXIT_FAILURE;
	uint8_t *in = NULL, *out = NULL;
	size_t inlen = 0, k = rsa_key_size(key);
	if (private_op && !rsa_key_is_private(key)) {
		char name[CLI_NAME_MAX];
		cli_file_name(name, sizeof(name), "key file", keyfile);
		cli_error("%s holds a public key; decrypt needs a private key", name);
		goto done;
	}
	if (!fault_check)
		rsa_key_set_fault_check(key, 0);
	if (cli_read_input(infile, batch ? BATCH_MAX_BYTES + 1 : k + 1, &in, &inlen) != 0)
		goto done;
	char in_name[PATH_MAX + 16];
	name_input(in_name, sizeof in_name, infile);
	if (!input_length_ok(in_name, inlen, k, rsa_key_bits(key), batch))
		goto done;
	const size_t blocks = inlen / k;
	out = malloc(inlen);
	if (out == NULL) {
		cli_error("out of memory");
		goto done;
	}
	if (run_blocks(private_op, in_name, key, out, in, k, blocks) != 0)
		goto done;
	if (cli_write_output(outfile, out, inlen) == 0)
		status = 0;
done:
	if (out != NULL) {
		big_wipe(out, inlen);
		free(out);
	}
	if (in != NULL) {
		big_wipe(in, inlen);
		free(in);
	}
	rsa_key_free(key);
	return status;
}
