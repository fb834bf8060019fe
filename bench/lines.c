/*
 * bench/lines.c -- hex and bounded lines for the child processes' pipes
 * (contract in lines.h).
 */
#include "lines.h"

#include <stdlib.h>

void bench_hex_write(FILE *f, const uint8_t *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		fputc(digits[b[i] >> 4], f);
		fputc(digits[b[i] & 15], f);
	}
}

static int hex_nibble(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int bench_hex_read(uint8_t *b, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++) {
		int hi = hex_nibble((unsigned char)s[2 * i]);
		int lo = hi < 0 ? -1 : hex_nibble((unsigned char)s[2 * i + 1]);
		if (lo < 0)
			return -1;
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	char end = s[2 * n];
	return end == '\0' || end == '\n' ? 0 : -1;
}

char *bench_read_line(FILE *f, int *too_long)
{
	*too_long = 0;
	char *line = malloc(BENCH_LINE_MAX + 1);
	if (line == NULL)
		return NULL;
	size_t n = 0;
	int c = 0;
	while (n < BENCH_LINE_MAX && c != '\n' && (c = getc(f)) != EOF)
		line[n++] = (char)c;
	line[n] = '\0';
	if (n == BENCH_LINE_MAX && c != '\n')
		*too_long = 1;
	if (n == 0 || *too_long) {
		free(line);
		return NULL;
	}
	return line;
}
