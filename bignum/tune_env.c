/*
 * big_tune_env_check (contract in bignum.h): whether BIGMONT_TUNE is
 * spelt as bignum/dispatch.c reads it, for the command's error message.
 * dispatch.c's resolvers read the values themselves, before libc is set
 * up; this runs after, on getenv's copy (the same text for a process
 * that has not changed it).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tuning.h"

#define CHOICE_NAME(CHOICE) #CHOICE,
static const char *const choice_names[] = { BIG_TUNING_CHOICES(CHOICE_NAME) };
#undef CHOICE_NAME
#define CHOICES ((int)(sizeof(choice_names) / sizeof(choice_names[0])))

/* The choice whose NAME=0 or NAME=1 (any case) item[0..len) is, or -1. */
static int item_choice(const char *item, size_t len)
{
	for (int c = 0; c < CHOICES; c++)
		if (big_tune_item(item, (int)len, choice_names[c], (int)strlen(choice_names[c])) >= 0)
			return c;
	return -1;
}

/* The choices' names, lower case, comma-separated, into msg from its
 * length on (truncated to size). */
static void append_names(char *msg, size_t size)
{
	for (int c = 0; c < CHOICES; c++) {
		size_t at = strlen(msg);
		for (const char *p = choice_names[c]; at + 1 < size && *p != '\0'; p++)
			msg[at++] = (char)tolower((unsigned char)*p);
		if (c + 1 < CHOICES && at + 2 < size) {
			msg[at++] = ',';
			msg[at++] = ' ';
		}
		msg[at < size ? at : size - 1] = '\0';
	}
}

int big_tune_env_check(char *msg, size_t size)
{
	const char *v = getenv("BIGMONT_TUNE");
	if (v == NULL || *v == '\0')
		return 0;
	if (strlen(v) > BIG_TUNE_ENV_MAX) {
		if (size > 0)
			snprintf(msg, size, "longer than %d characters, which the kernels' choice "
				 "does not read", BIG_TUNE_ENV_MAX);
		return -1;
	}
	char seen[CHOICES] = { 0 };
	for (const char *at = v;;) {
		const char *end = strchr(at, ',');
		const size_t len = end ? (size_t)(end - at) : strlen(at);
		/* An empty item (",," or a trailing comma) names nothing, as
		 * dispatch.c reads it. */
		const int c = len > 0 ? item_choice(at, len) : -2;
		if (c == -1) {
			if (size > 0) {
				snprintf(msg, size, "'%.*s' is not NAME=0 or NAME=1 with NAME one of ",
					 (int)len, at);
				append_names(msg, size);
			}
			return -1;
		}
		/* Two values for one choice: dispatch.c takes one of them,
		 * which the user cannot tell from the line. */
		if (c >= 0 && seen[c]++) {
			if (size > 0)
				snprintf(msg, size, "'%.*s': a value for that choice is given twice",
					 (int)len, at);
			return -1;
		}
		if (end == NULL)
			return 0;
		at = end + 1;
	}
}
