/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * error.h - how every loader and command reports a failure.
 *
 * Modelled on jansson's json_error_t: the caller owns a struct sim_error (usually on the
 * stack) and passes a pointer, which may be NULL. The first error set wins, so the message
 * names the root cause and not its consequences. Messages print as
 *
 *	idlesim: SOURCE:LINE:COLUMN: TEXT
 *
 * with LINE and COLUMN counted from 1 and left out when unknown (0).
 */
#ifndef IDLESIM_ERROR_H
#define IDLESIM_ERROR_H

#include <stdio.h>
#include <string.h>

enum sim_error_code {
	SIM_OK = 0,
	SIM_ERR_INPUT,	  /* bad input or usage: exit status 2 */
	SIM_ERR_NOMEM,	  /* out of memory: exit status 1 */
	SIM_ERR_IO,	  /* a file could not be read or written: exit status 2 */
	SIM_ERR_INTERNAL, /* a bug: exit status 1 */
};

struct sim_error {
	enum sim_error_code code;
	char source[256]; /* file name, "<string>", or "" for command-line errors */
	int line;	  /* 1-based, 0 if unknown */
	int column;	  /* 1-based, 0 if unknown */
	char text[320];
};

void sim_error_clear(struct sim_error *err);

/* Record an error unless one is already recorded. Always returns -1, for `return sim_error_set(...)`. */
int sim_error_set(struct sim_error *err, enum sim_error_code code, const char *source, int line,
		  int column, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Shorthand for an out-of-memory error. */
int sim_error_nomem(struct sim_error *err, const char *source);

/*
 * A UTF-8 byte order mark at the start of an input file: every input kind (trace, machine
 * JSON, check file, sweep spec, kernel trace) reports it at 1:1 with this one message.
 */
#define SIM_BOM_MESSAGE "the file starts with a UTF-8 byte order mark; save it without one"

static inline int sim_has_bom(const void *text, size_t len)
{
	return len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3);
}

/* "source:line:col: text" (the parts known) into buf, cut to size; returns buf. */
char *sim_error_format(const struct sim_error *err, char *buf, size_t size);

/* Print "idlesim: source:line:col: text\n". */
void sim_error_print(FILE *f, const struct sim_error *err);

/* The process exit status for an error: 2 for input and I/O errors, 1 otherwise. */
int sim_error_exit_status(const struct sim_error *err);

#endif
