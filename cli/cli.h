/* Shared pieces of the bigmont command. */
#ifndef BIGMONT_CLI_H
#define BIGMONT_CLI_H

#include <stddef.h>
#include <stdint.h>

#include <bigmont/bignum.h>
#include <bigmont/rsa.h>

#define CLI_EXIT_FAILURE 1 /* the operation failed: bad key, bad input... */
#define CLI_EXIT_USAGE 2   /* the command line was wrong */

/* "bigmont: error: <message>\n" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reject what the command cannot run under, with a message: a stack limit
 * below what its private-key operations need, a BIGMONT_CPU this build or
 * CPU cannot honour, a BIGMONT_BATCH that names no lane build, a
 * BIGMONT_TUNE that names no tuning choice (or not as NAME=0|1), and
 * either of BIGMONT_CPU and BIGMONT_TUNE where the library could not read
 * them (no /proc/self/environ); 0 if all is usable. */
int cli_check_environment(void);
/* Reject a BIGMONT_BATCH whose lanes this build or CPU cannot run (where
 * the operation would otherwise quietly take others), with a message; 0
 * if it is unset or they run. */
int cli_check_batch_env(void);

/* Whether -h or --help stands among argv[1 ..] as an option: before any
 * "--" and not the value of one of the n_valued options that take the next
 * argument ("--key --help" names a key file).  --help wins wherever it
 * stands, so a user who asks for it gets it even beside a mistake. */
int cli_help_asked(int argc, char **argv, const char *const *valued, size_t n_valued);

/* Whether argv[*i] is option `name`, given as "--name VALUE" (then *i
 * moves past VALUE) or "--name=VALUE"; *value is NULL when VALUE is
 * missing. */
int cli_option_value(const char *name, int argc, char **argv, int *i, const char **value);

/* cli/io.c.  Each prints its own error (cli_error) and returns -1. */
/* The most a key file may hold: a 16384-bit private key in PEM is about
 * 13 KB, a certificate chain beside it a few more. */
#define CLI_KEY_FILE_MAX (4 << 20)
/* How errors name a file: "<what> '<path>'", or for "-" "the <what> on
 * standard input"; at most CLI_NAME_MAX bytes with the NUL (a longer path
 * is cut). */
#define CLI_NAME_MAX 4200
void cli_file_name(char *out, size_t n, const char *what, const char *path);
/* The whole file (at most CLI_KEY_FILE_MAX bytes, else an error: "key
 * file larger than ...") into a malloc'ed *buf; `what` names it in
 * errors. */
int cli_read_file(const char *path, const char *what, uint8_t **buf, size_t *len);
/* The input (standard input when path is NULL or "-") up to `limit`
 * bytes: all of it if it is shorter; a caller that accepts at most k bytes
 * asks for k + 1 and refuses a full buffer. */
int cli_read_input(const char *path, size_t limit, uint8_t **buf, size_t *len);
/* All of buf to where path leads (cli/io.c says what each kind of path
 * gets: a regular file is replaced whole or not at all, a FIFO, device or
 * standard output written directly), or to stdout when path is NULL or
 * "-". */
int cli_write_output(const char *path, const uint8_t *buf, size_t len);
/* 0 if cli_write_output(path, ...) can be expected to succeed as far as
 * the file system says now (the target's kind, existence and permissions),
 * else -1 after the error that call would give: for a command that
 * writes at the end of a long run. */
int cli_check_output(const char *path);
/* Whether names a and b lead to one file (a NULL or "-" name standing
 * for descriptor a_std or b_std): the same device and inode. */
int cli_same_file(const char *a, int a_std, const char *b, int b_std);
/* Load a PEM or DER key file (detected); *is_pem may be NULL. */
int cli_load_key(const char *path, rsa_key **key, int *is_pem);
/* The same from the file's bytes, already read; path names it in errors. */
int cli_load_key_data(const char *path, const uint8_t *data, size_t len, rsa_key **key,
		      int *is_pem);

/* cli/pem_armor.c: DER bytes as PEM text ("-----BEGIN <label>-----" ...)
 * in a malloc'ed *pem; 0, or -1 after an error. */
int cli_pem_armor(const char *label, const uint8_t *der, size_t len, char **pem,
		  size_t *pem_len);

/* cli/raw_op.c: decrypt (private = 1) and encrypt share their options. */
int cli_raw_op(int argc, char **argv, int private_op);

int cmd_decrypt(int argc, char **argv);
int cmd_encrypt(int argc, char **argv);
int cmd_key_info(int argc, char **argv);
/* cli/speed.c, the body of bigmont-speed (bench/speed.h): argv[0] is
 * the program's name, the options follow. */
int cmd_speed(int argc, char **argv);

/* The benchmark's executable, which `bigmont speed` runs. */
#define CLI_SPEED_PROGRAM "bigmont-speed"
/* cli/exec_path.c: the program `name` beside this executable (a build
 * tree) or in rel_dir from this executable's directory (an install), its
 * real path into path; 0, or -1 with why not in `why` ("it is not at X nor
 * at Y"). */
int cli_find_program(const char *name, const char *rel_dir, char *path, size_t cap,
		     char *why, size_t why_cap);
/* The environment variable naming a program that runs this build's
 * executables, for a build that this machine cannot run by itself: a
 * cross build under qemu-user (`BIGMONT_EMULATOR=qemu-aarch64`), where an
 * aarch64 program cannot execve another (no binfmt handler).  Unset: the
 * programs run directly. */
#define CLI_EMULATOR_ENV "BIGMONT_EMULATOR"
/* cli/exec_path.c: execv(path, argv) for one of this build's executables,
 * through the program CLI_EMULATOR_ENV names when it is set (argv[0] then
 * replaced by the emulator and path); returns only on failure, errno set. */
int cli_execv_own(const char *path, char *const argv[]);
/* cli/speed_exec.c: where bigmont-speed is, as cli_find_program says; and
 * `bigmont speed` itself, which returns only when bigmont-speed cannot be
 * run (exit 1, after an error). */
int cli_speed_path(char *path, size_t cap, char *why, size_t why_cap);
int cmd_speed_exec(int argc, char **argv);

#endif
