/*
 * bigmont-speed -- the benchmark behind `bigmont speed`, its own executable
 * (cli/speed_exec.c says why): `bigmont speed ARGS` runs `bigmont-speed
 * ARGS`, and the OpenSSL worker it starts runs `bigmont-speed --worker`.
 * Its messages are the command's ("bigmont: error: ...").
 */
#include "cli.h"

int main(int argc, char **argv)
{
	return cmd_speed(argc, argv);
}
