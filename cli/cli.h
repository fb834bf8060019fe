/* Shared pieces of the bigmont command. */
#ifndef BIGMONT_CLI_H
#define BIGMONT_CLI_H

#include <bigmont/bignum.h>

#define CLI_EXIT_FAILURE 1 /* the operation failed: bad key, bad input... */
#define CLI_EXIT_USAGE 2   /* the command line was wrong */

/* "bigmont: error: <message>\n" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reject a BIGMONT_CPU this build or CPU cannot honour, with a message;
 * 0 if it is unset or usable. */
int cli_check_cpu_env(void);

int cmd_decrypt(int argc, char **argv);
int cmd_encrypt(int argc, char **argv);
int cmd_key_info(int argc, char **argv);

#if BIGMONT_HAVE_BENCH
#include "speed.h"
#endif

#endif
