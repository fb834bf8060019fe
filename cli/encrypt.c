/* `bigmont encrypt`: the raw public-key operation (cli/raw_op.c). */
#include "cli.h"

int cmd_encrypt(int argc, char **argv)
{
	return cli_raw_op(argc, argv, 0);
}
