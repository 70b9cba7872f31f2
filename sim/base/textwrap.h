/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * textwrap.h - text reports that fit a width (docs/cli.md, "Line width"): a line wider
 * than the width is continued on indented lines, broken between its items (after "; " or
 * ", " where one is far enough along, else at a space), never inside a word, so nothing is
 * dropped. A word wider than the width alone is printed whole.
 */
#ifndef IDLESIM_TEXTWRAP_H
#define IDLESIM_TEXTWRAP_H

#include <stdio.h>

/* The width of the text reports unless one is asked for (run --width). */
#define TEXTWRAP_DEFAULT 160
/* The range run --width accepts, and a terminal's width is clamped to. */
#define TEXTWRAP_MIN 60
#define TEXTWRAP_MAX 1000

/* TEXTWRAP_INDENT_KEY: continuation lines start under the text after the line's first
 * ": " (its key), or 4 columns in when the key is long. */
#define TEXTWRAP_INDENT_KEY (-1)

/*
 * Writes text (which may hold several lines, each ended or separated by '\n') to f, each
 * line wrapped at width (<= 0: TEXTWRAP_DEFAULT) with continuation lines indented by indent
 * columns (or TEXTWRAP_INDENT_KEY).
 */
void textwrap_puts(FILE *f, const char *text, int width, int indent);
void textwrap_printf(FILE *f, int width, int indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
