/*
 * bench/json.c -- the streaming JSON writer (contract in json.h).
 *
 * Layout: every value inside an object or array goes on its own line,
 * indented by its depth, so the files diff well between runs.
 */
#include "json.h"

#include <inttypes.h>
#include <math.h>

void json_begin(struct json_writer *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->count[0] = 0;
	w->after_key = 0;
	w->error = 0;
}

static void indent(struct json_writer *w)
{
	fputc('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Separator and indentation before a value (or before a key). */
static void before_item(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth == 0) {
		if (w->count[0]++ > 0)
			w->error = 1; /* one top-level value only */
		return;
	}
	if (w->count[w->depth]++ > 0)
		fputc(',', w->out);
	indent(w);
}

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * form, no surrogate, nothing above U+10FFFF), or 0.  p is NUL-terminated,
 * and NUL is no continuation byte, so nothing is read past it. */
static int utf8_length(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, lo = p[0] == 0xe0 ? 0xa0 : 0x80, hi = p[0] == 0xed ? 0x9f : 0xbf;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, lo = p[0] == 0xf0 ? 0x90 : 0x80, hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* A string as JSON: bytes that are not UTF-8 (a file name can hold any)
 * become U+FFFD, so that the document stays valid. */
static void write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80) {
			int n = utf8_length(p);
			if (n == 0) {
				fputs("\\ufffd", out);
			} else {
				fwrite(p, 1, (size_t)n, out);
				p += n - 1;
			}
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void open_level(struct json_writer *w, char ch)
{
	before_item(w);
	fputc(ch, w->out);
	if (w->depth + 1 >= JSON_MAX_DEPTH) {
		w->error = 1;
		return;
	}
	w->depth++;
	w->count[w->depth] = 0;
}

static void close_level(struct json_writer *w, char ch)
{
	if (w->depth == 0 || w->after_key) {
		w->error = 1;
		return;
	}
	int had_items = w->count[w->depth] > 0;
	w->depth--;
	if (had_items)
		indent(w);
	fputc(ch, w->out);
}

void json_object_begin(struct json_writer *w) { open_level(w, '{'); }
void json_object_end(struct json_writer *w) { close_level(w, '}'); }
void json_array_begin(struct json_writer *w) { open_level(w, '['); }
void json_array_end(struct json_writer *w) { close_level(w, ']'); }

void json_key(struct json_writer *w, const char *key)
{
	if (w->after_key || w->depth == 0) {
		w->error = 1;
		return;
	}
	before_item(w);
	write_escaped(w->out, key);
	fputs(": ", w->out);
	w->after_key = 1;
}

void json_string(struct json_writer *w, const char *s)
{
	before_item(w);
	if (s == NULL)
		fputs("null", w->out);
	else
		write_escaped(w->out, s);
}

void json_int(struct json_writer *w, int64_t v)
{
	before_item(w);
	fprintf(w->out, "%" PRId64, v);
}

void json_double(struct json_writer *w, double v, int digits)
{
	before_item(w);
	if (!isfinite(v)) {
		fputs("null", w->out);
		return;
	}
	if (digits < 1 || digits > 17)
		digits = 17;
	fprintf(w->out, "%.*g", digits, v);
}

void json_bool(struct json_writer *w, int v)
{
	before_item(w);
	fputs(v ? "true" : "false", w->out);
}

void json_null(struct json_writer *w)
{
	before_item(w);
	fputs("null", w->out);
}

void json_kv_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_kv_int(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	json_int(w, v);
}

void json_kv_double(struct json_writer *w, const char *key, double v, int digits)
{
	json_key(w, key);
	json_double(w, v, digits);
}

void json_kv_bool(struct json_writer *w, const char *key, int v)
{
	json_key(w, key);
	json_bool(w, v);
}

int json_finish(struct json_writer *w)
{
	if (w->depth != 0 || w->after_key || w->count[0] != 1)
		w->error = 1;
	fputc('\n', w->out);
	if (fflush(w->out) != 0 || ferror(w->out))
		w->error = 1;
	return w->error ? -1 : 0;
}
