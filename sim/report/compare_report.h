/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_report.h - a comparison's result (sim/run/compare.h) written out: MMTests or
 * normalized text, JSON, CSV, its configuration record, and the progress bar of a
 * comparison running. The HTML page is sim/report/html.h.
 */
#ifndef IDLESIM_COMPARE_REPORT_H
#define IDLESIM_COMPARE_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "sim/run/compare.h"

/* Write the result. Returns 0, or -1 on a write or memory error. */
int compare_write(FILE *f, const struct compare_result *res, enum compare_format format,
	      enum compare_style style);

/*
 * What the scheduler did, as text tables (compare --per-cpu, --per-task; sim/report/
 * compare_sched.c): for the first iteration of each row, machine and governor of
 * res->sched, a row per CPU and/or per task and a total row, each table headed by its run.
 * Nothing without res->sched (placement pinned). Returns 0, or -1 on a write error.
 */
#define COMPARE_SCHED_CPUS 1u
#define COMPARE_SCHED_TASKS 2u
int compare_write_sched(FILE *f, const struct compare_result *res, unsigned int tables);

/* The configuration record as text lines (compare's text reports and check's output). */
void compare_write_config(FILE *f, const struct compare_result *res);
/* The same record as a JSON object (compare's and check's JSON reports). */
json_t *compare_config_json(const struct compare_result *res);

/* A progress bar on f: "[#####.....]  12/40 runs". Give the FILE * as ud. */
void compare_progress_bar(void *ud, long done, long total);
/* The same bar after a name ("tbench [#####.....]  12/40 runs"; NULL: none), for check. */
void compare_progress_bar_named(FILE *f, const char *name, long done, long total);

#endif
