/*
 * bench/progress.c -- the progress line (contract in progress.h).
 */
#include "progress.h"

#include <stdarg.h>

void bench_progress(FILE *to, const char *fmt, ...)
{
	if (to == NULL)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("\rbigmont speed: ", to);
	vfprintf(to, fmt, ap);
	/* Erase what a longer line before left. */
	fputs("\033[K", to);
	va_end(ap);
	fflush(to);
}

void bench_progress_clear(FILE *to)
{
	if (to == NULL)
		return;
	fputs("\r\033[K", to);
	fflush(to);
}
