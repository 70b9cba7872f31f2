// SPDX-License-Identifier: GPL-2.0-only
/*
 * textwrap.c - long lines of text reports continued on indented lines (textwrap.h).
 */
#include "sim/base/textwrap.h"
#include "sim/base/alloc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

static int key_indent(const char *s, size_t n, int width)
{
	const char *p = memchr(s, ':', n);

	if (p && (size_t)(p - s) + 1 < n && p[1] == ' ' && p - s + 2 <= width / 3)
		return (int)(p - s) + 2;
	return 4;
}

/* One line (no '\n') of n bytes. */
static void wrap_line(FILE *f, const char *s, size_t n, int width, int indent)
{
	size_t pos = 0;
	int avail = width;

	if (indent < 0)
		indent = key_indent(s, n, width);
	if (indent > width / 2)
		indent = width / 2;
	while (n - pos > (size_t)avail) {
		size_t b, item = 0, space = 0, end = pos + (size_t)avail;

		/* the last break that keeps the piece within avail: a space after the piece */
		for (b = pos + 1; b <= end && b < n; b++) {
			if (s[b] != ' ')
				continue;
			space = b;
			if (s[b - 1] == ';' || s[b - 1] == ',' || s[b - 1] == '|')
				item = b;
		}
		if (item && item - pos >= (size_t)avail / 2)
			b = item;
		else if (space)
			b = space;
		else { /* one word wider than the width: print it whole */
			for (b = end; b < n && s[b] != ' '; b++)
				;
			if (b == n)
				break;
		}
		fwrite(s + pos, 1, b - pos, f);
		fprintf(f, "\n%*s", indent, "");
		for (pos = b; pos < n && s[pos] == ' '; pos++)
			;
		avail = width - indent;
	}
	fwrite(s + pos, 1, n - pos, f);
}

void textwrap_puts(FILE *f, const char *text, int width, int indent)
{
	const char *nl;

	if (width <= 0)
		width = TEXTWRAP_DEFAULT;
	for (;;) {
		nl = strchr(text, '\n');
		wrap_line(f, text, nl ? (size_t)(nl - text) : strlen(text), width, indent);
		if (!nl)
			break;
		fputc('\n', f);
		text = nl + 1;
	}
}

void textwrap_printf(FILE *f, int width, int indent, const char *fmt, ...)
{
	char small[1024], *buf = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		buf = sim_malloc((size_t)n + 1);
		if (!buf)
			return; /* sim_alloc_failures() tells the caller */
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	textwrap_puts(f, buf, width, indent);
	if (buf != small)
		sim_free(buf);
}
