/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diff_report.h - the results of `idlesim diff` (sim/run/diff.h) as text (160 columns),
 * JSON (schema idlesim-diff/1, docs/diff.md), CSV (a row per CPU), JUnit XML or TAP (a
 * test per trace and machine, failed above --max-divergence), or one HTML page (a per-CPU
 * timeline of the divergences, the state pairs, per CPU, the first divergences).
 */
#ifndef IDLESIM_DIFF_REPORT_H
#define IDLESIM_DIFF_REPORT_H

#include <stdio.h>

#include "sim/run/diff.h"

enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_CSV, DIFF_JUNIT, DIFF_TAP, DIFF_HTML };

#define DIFF_JSON_SCHEMA "idlesim-diff/1"

struct diff_report_opts {
	enum diff_format format;
	double max_pct;	     /* --max-divergence; < 0: none */
	const char *command; /* the command line, for the header; may be NULL */
};

int diff_format_parse(const char *s, enum diff_format *f);
/* A state-by-state matrix of counts, rows and columns named by m's states, `corner` above
 * the row names; columns as wide as the widest name or count (validate's too). */
void report_state_matrix(FILE *f, const struct machine *m,
			 const uint64_t (*mat)[CPUIDLE_STATE_MAX], const char *corner);
/* Whether a cell's divergent share exceeds the limit (never without one). */
bool diff_cell_exceeds(const struct diff_cell *c, double max_pct);
/* 0, or REPORT_ERR_IO / REPORT_ERR_NOMEM (sim/report/report.h). */
int diff_report_write(FILE *f, const struct diff_results *res, const struct diff_report_opts *o);

#endif
