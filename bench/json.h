/*
 * bench/json.h -- a small streaming JSON writer for `bigmont speed --json`.
 *
 * The writer tracks nesting and commas so callers just emit keys and
 * values in order.  Output is pretty-printed, two spaces per level, one
 * key per line; non-finite doubles (NaN, inf: "not measured") are written
 * as null.  Strings are escaped per RFC 8259 (quote, backslash, control
 * characters; bytes >= 0x80 are passed through, so UTF-8 stays UTF-8).
 * Errors are sticky: json_finish() reports whether every write succeeded.
 * Not thread-safe; one writer per FILE.
 */
#ifndef BIGMONT_BENCH_JSON_H
#define BIGMONT_BENCH_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *out;
	int depth;
	int count[JSON_MAX_DEPTH]; /* values written at each level */
	int after_key;             /* a key was written, its value is next */
	int error;                 /* sticky: misuse or a failed write */
};

void json_begin(struct json_writer *w, FILE *out);
/* 0 if the document is complete (every object/array closed) and every
 * write succeeded, else -1.  Ends the document with a newline. */
int json_finish(struct json_writer *w);

void json_object_begin(struct json_writer *w);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w);
void json_array_end(struct json_writer *w);
/* The key of the next value inside an object. */
void json_key(struct json_writer *w, const char *key);

void json_string(struct json_writer *w, const char *s); /* NULL -> null */
void json_int(struct json_writer *w, int64_t v);
/* %.*g with `digits` significant digits; NaN/inf -> null. */
void json_double(struct json_writer *w, double v, int digits);
void json_bool(struct json_writer *w, int v);
void json_null(struct json_writer *w);

/* Shorthands for key + value. */
void json_kv_string(struct json_writer *w, const char *key, const char *s);
void json_kv_int(struct json_writer *w, const char *key, int64_t v);
void json_kv_double(struct json_writer *w, const char *key, double v, int digits);
void json_kv_bool(struct json_writer *w, const char *key, int v);

#endif
