/*
 * DER in PEM armour (RFC 7468): for `bigmont speed --key KEY.der`.  The
 * benchmark hands every implementation (ours, GMP's numbers, OpenSSL in
 * this process and in its worker) the key as PEM text, so a DER key is
 * armoured once here rather than taught to each of them.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_pem_armor(const char *label, const uint8_t *der, size_t len, char **pem, size_t *pem_len)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t chars = (len + 2) / 3 * 4;
	/* Two lines of "-----BEGIN/END " label "-----\n", 64 characters and a
	 * newline per line of the body. */
	size_t cap = 2 * (strlen(label) + 21) + chars + chars / 64 + 2;
	char *out = malloc(cap);
	if (out == NULL) {
		cli_error("out of memory");
		return -1;
	}
	size_t o = (size_t)sprintf(out, "-----BEGIN %s-----\n", label), col = 0;
	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)der[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)der[i + 1] << 8;
		if (i + 2 < len)
			v |= der[i + 2];
		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < len ? b64[v & 63] : '=';
		if ((col += 4) == 64) {
			out[o++] = '\n';
			col = 0;
		}
	}
	if (col != 0)
		out[o++] = '\n';
	o += (size_t)sprintf(out + o, "-----END %s-----\n", label);
	*pem = out;
	*pem_len = o;
	return 0;
}
