/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h - idlesim check: run the comparisons an expectation file names and test their
 * results against stated bounds, for the CI of governor changes.
 *
 * The file format (JSON, schema "idlesim-expect/1") is documented in docs/compare.md,
 * "Comparisons", with an example in traces/expect-example.json. In short: a list of
 * comparisons, each a workload with its parameters (one may be a list), machines,
 * governors (the first is the baseline), iterations, seed, duration and knobs, and a list
 * of expectations. An expectation names a metric and a governor, optionally a machine and
 * a parameter value (otherwise it applies to every machine and value of the comparison),
 * and one or more bounds:
 *
 *   min, max                    on the governor's mean (Amean or Hmean), in the metric's unit
 *   min_pct, max_pct            on its percentage against the baseline (positive = better)
 *   no_significant_regression   true: fail if it is worse than the baseline and the t-test
 *                               calls the difference significant (p < 0.10)
 *   significant                 true: min_pct and max_pct fail only when their bound is
 *                               crossed AND the difference is significant (size and
 *                               significance: deterministic models make 0.3 % significant)
 *
 * Each bound of each matching cell is one check; in the text report every check prints one
 * line, "ok" or "FAIL", naming the comparison's cell (workload, parameter value, machine),
 * the metric, the governor, the value and the bound. The same checks can be reported as
 * JSON (schema "idlesim-check/1"), JUnit XML or TAP version 13 for CI systems
 * (check_report.c).
 */
#ifndef IDLESIM_CHECK_H
#define IDLESIM_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/run/compare.h"
#include "sim/base/error.h"

#define CHECK_JSON_SCHEMA "idlesim-expect/1"
#define CHECK_FILE_MAX (1 << 20)
/* Exit status of `idlesim check` when a bound is not met (0: all met; 2: bad input). */
#define CHECK_EXIT_FAILED 3
#define CHECK_REPORT_SCHEMA "idlesim-check/1"

enum check_format { CHECK_TEXT, CHECK_JSON, CHECK_JUNIT, CHECK_TAP };

/* "text", "json", "junit" or "tap"; returns 0, or -1 for another name. */
int check_format_parse(const char *name, enum check_format *out);

struct check_file;

/* How to find a workload by name (NULL: workload_find); tests pass their own models. */
typedef const struct workload *check_find_fn(const char *name);

/* Parse an expectation file (text) or read and parse one. Returns NULL with err set. */
struct check_file *check_parse(const char *text, const char *source, check_find_fn *find,
			       struct sim_error *err);
struct check_file *check_load(const char *path, check_find_fn *find, struct sim_error *err);
void check_free(struct check_file *cf);

struct check_opts {
	int threads;	 /* 0: the number of online CPUs */
	FILE *out;	 /* the report: ok/FAIL lines and the summary, or format's */
	enum check_format format;
	bool verbose;	 /* also print each comparison's MMTests table */
	bool wake_set;	 /* --wake-latency given: every comparison runs with wake_model */
	enum wake_model wake_model;
	FILE *progress;	 /* a progress bar naming the comparison on this stream; NULL: none */
	/* --governor-timeout: every comparison's limit of one call into a governor file
	 * (run_request.gov_timeout_ns: 0 the default, < 0 none) */
	int64_t gov_timeout_ns;
	/* --housekeeping LIST: every comparison runs in each of these timer worlds (presets;
	 * compare_request.worlds), and a check on a difference that flips between them says
	 * so; 0: as the file says */
	char worlds[COMPARE_MAX_WORLDS][COMPARE_WORLD_LEN];
	int nr_worlds;
};

/*
 * Run every comparison and test every bound. Returns the number of checks that failed
 * (0 when all bounds hold), or -1 with err set if a comparison could not run.
 */
int check_run(const struct check_file *cf, const struct check_opts *o, struct sim_error *err);

#endif
