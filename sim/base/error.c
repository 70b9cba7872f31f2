// SPDX-License-Identifier: GPL-2.0-only
/*
 * error.c - first-error-wins error records with source positions.
 */
#include "sim/base/error.h"
#include "sim/base/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sim_error_clear(struct sim_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

int sim_error_set(struct sim_error *err, enum sim_error_code code, const char *source, int line,
		  int column, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->code != SIM_OK)
		return -1;
	err->code = code;
	snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
	err->line = line;
	err->column = column;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
	return -1;
}

int sim_error_nomem(struct sim_error *err, const char *source)
{
	return sim_error_set(err, SIM_ERR_NOMEM, source, 0, 0, "out of memory");
}

char *sim_error_format(const struct sim_error *err, char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (err->source[0]) {
		n = (size_t)snprintf(buf, size, "%s", err->source);
		if (err->line > 0 && n < size) {
			n += (size_t)snprintf(buf + n, size - n, ":%d", err->line);
			if (err->column > 0 && n < size)
				n += (size_t)snprintf(buf + n, size - n, ":%d", err->column);
		}
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, ": ");
	}
	if (n < size)
		snprintf(buf + n, size - n, "%s", err->text[0] ? err->text : "unknown error");
	return buf;
}

void sim_error_print(FILE *f, const struct sim_error *err)
{
	char buf[sizeof(err->source) + sizeof(err->text) + 32];

	fprintf(f, "idlesim: %s\n", sim_error_format(err, buf, sizeof(buf)));
}

int sim_error_exit_status(const struct sim_error *err)
{
	switch (err->code) {
	case SIM_OK:
		return SIM_EXIT_OK;
	case SIM_ERR_INPUT:
	case SIM_ERR_IO:
		return SIM_EXIT_INPUT;
	default:
		return SIM_EXIT_INTERNAL;
	}
}
