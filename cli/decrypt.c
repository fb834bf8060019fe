/* `bigmont decrypt`: the raw private-key operation (cli/raw_op.c). */
#include "cli.h"

int cmd_decrypt(int argc, char **argv)
{
	return cli_raw_op(argc, argv, 1);
}
