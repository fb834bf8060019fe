/* The benchmark behind `bigmont speed`. */
#ifndef BIGMONT_BENCH_SPEED_H
#define BIGMONT_BENCH_SPEED_H

/* argv[0] is "speed"; returns the process exit status. */
int bigmont_speed_main(int argc, char **argv);

#endif
