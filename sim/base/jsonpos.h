/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonpos.h - find where a value sits in JSON text.
 *
 * jansson reports positions for syntax errors only; once a document is parsed, values no
 * longer know where they came from. To point a semantic error ("states[3].exit_latency_ns
 * is negative") at its line and column, jsonpos walks the original text along a path and
 * returns the position of the value it names. It assumes the text has already been parsed
 * successfully by jansson; it does not validate.
 *
 * Path syntax: members separated by '.', array elements as [N], e.g. "states[3].name" or
 * "records[12].start". An empty path names the whole document. When the path cannot be
 * followed to the end, the position of the deepest value reached is returned.
 */
#ifndef IDLESIM_JSONPOS_H
#define IDLESIM_JSONPOS_H

#include "sim/base/error.h"

#include <stdarg.h>
#include <stddef.h>

/* Sets *line and *column (1-based). Returns 0 if the whole path was found, -1 otherwise. */
int jsonpos_find(const char *text, const char *path, int *line, int *column);

/*
 * jansson's syntax error messages quote the input ("invalid token near '...'"), raw bytes
 * included. Copy msg to buf (cap bytes) with every byte outside printable ASCII written as
 * \xNN, so a control character of a binary file never reaches the terminal. Returns buf.
 */
const char *jsonpos_clean_message(char *buf, size_t cap, const char *msg);

/* Write byte ch as a message shows input: itself if printable ASCII, else \xNN (4 bytes).
 * Returns the number of bytes written to out. */
size_t jsonpos_put_byte(char *out, unsigned char ch);

/*
 * Record an input error (SIM_ERR_INPUT) from source: the formatted message, at the position
 * of `path` in the JSON text when both are given (line and column 0 otherwise). Returns -1.
 */
int jsonpos_fail_v(struct sim_error *err, const char *source, const char *text, const char *path,
		   const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

/*
 * Where a check of a loaded document runs, for messages: source names it; text is its JSON
 * text, for positions (NULL when the values came from elsewhere, e.g. a built-in machine);
 * key, when set, is a member whose name holds dots (a sweep's tunable "menu.decay", which a
 * path cannot name): an error inside it is placed at that member's value.
 */
struct json_where {
	const char *source;
	const char *text;
	struct sim_error *err;
	const char *key;
};

/* jsonpos_fail_v() at w: the error placed at `path` (or at w->key's value). Returns -1. */
int jsonpos_fail(const struct json_where *w, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
