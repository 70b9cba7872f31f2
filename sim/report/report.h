/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - run results as text (turbostat/cpupower names), JSON (schema idlesim-run/1,
 * documented in docs/scores.md) or CSV. Reports only format numbers; they never run anything.
 * Output is a pure function of the results: the same input gives byte-identical output.
 */
#ifndef IDLESIM_REPORT_H
#define IDLESIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/run/run.h"

/* REPORT_FTRACE and REPORT_PERFETTO write the runs' timelines (sim/report/export.h): the request
 * needs run_request.timeline. */
enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_FTRACE, REPORT_PERFETTO };

#define REPORT_JSON_SCHEMA "idlesim-run/1"

struct report_opts {
	enum report_format format;
	bool per_cpu; /* text: per-CPU rows (JSON and CSV always have them) */
	const char *command; /* the command line, for the exports' headers; may be NULL */
	int width; /* text: the line width (run --width); 0 for TEXTWRAP_DEFAULT, 160 */
};

/* A duration with its unit, 3 significant digits: "830ns", "1.25ms", "none" if < 0. */
void report_fmt_ns(char *buf, size_t n, int64_t ns);

/* One --explain variable as the text report shows it: "rule=timer", "expected=4ms"
 * (durations _ns/_us with their unit, -1 as "none"), "candidate=8". */
void report_fmt_explain_item(char *buf, size_t n, const struct cpuidle_explain_item *it);

int report_format_parse(const char *s, enum report_format *f);
/* A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a newline. */
void report_csv_field(FILE *f, const char *s);
/* report_write() failures: a write failed (errno says why), or memory ran out. */
enum { REPORT_ERR_IO = -1, REPORT_ERR_NOMEM = -2 };

/* A run's configuration record as JSON (the "config" object of its report; sim/run/cfgrec.h). */
struct json_t;
struct json_t *report_config_json(const struct run_result *r);

/* Returns 0, REPORT_ERR_IO or REPORT_ERR_NOMEM (the command line exits 2 or 1). */
int report_write(FILE *f, const struct run_results *res, const struct report_opts *o);

#endif
