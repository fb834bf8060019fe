/*
 * bench/keys.h -- the default benchmark keys, compiled in from
 * bench/keys/rsa{1024,2048,3072,4096}.pem (the C file is generated at
 * configure time by bench/CMakeLists.txt, so `bigmont speed` needs no files
 * at run time).
 */
#ifndef BIGMONT_BENCH_KEYS_H
#define BIGMONT_BENCH_KEYS_H

#include <stddef.h>

struct bench_key_blob {
	int bits;
	const char *name; /* "rsa2048.pem" */
	const char *label; /* "embedded:rsa2048.pem", as reports name it */
	const char *pem;  /* NUL-terminated PEM text */
	size_t len;       /* strlen(pem) */
};

extern const struct bench_key_blob bench_embedded_keys[];
extern const int bench_embedded_key_count;

#endif
