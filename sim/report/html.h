/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * html.h - `idlesim report`: one self-contained HTML file (inline SVG and CSS, no script,
 * nothing fetched) that shows a run of one trace on one machine through governors:
 *
 *  - timeline: a lane per CPU and governor, the oracle's lane under each, coloured by
 *    C-state, the exit drawn apart, wakeups marked by cause, the tick stopped, above and
 *    below entries marked; over a window (--from/--to, or the first stretch with at most
 *    HTML_LANE_SLICES entries and HTML_LANE_SEGS task segments in every lane);
 *  - residency: a bar per governor (busy, each state, truncated: 100 %), with usage, above
 *    and below per state;
 *  - idle durations: the idle-period lengths in log2 bins, coloured by what each governor
 *    chose, with the target residencies drawn;
 *  - decisions: the first decisions of the window, readable, with units;
 *  - the command and idlesim version that wrote it.
 *
 * The results come from run_grid() with timeline on (the oracle among the governors for its
 * residency bar). The numbers are carried as data-* attributes (data-pct, data-count) so that
 * tests can check them against the run's JSON. Output is a pure function of the results.
 */
#ifndef IDLESIM_HTML_H
#define IDLESIM_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "sim/base/error.h"
#include "sim/run/run.h"

#define HTML_LANE_SLICES 24 /* default window: at most this many entries in any lane */
#define HTML_LANE_SEGS 64   /* ... and this many task segments on any CPU */
#define HTML_MAX_CPUS 16    /* lanes drawn per governor */

struct html_opts {
	const char *command; /* shown in the file */
	const char *version;
	int64_t from_ns, to_ns; /* the window; to_ns < 0: choose the default */
	int decisions;		/* rows of the decisions table per governor */
};

/* Pick the default window from the results' slices: [*from, *to). */
void html_default_window(const struct run_results *res, int64_t *from_ns, int64_t *to_ns);

/* 0, or -1 with err set. */
int html_report(FILE *f, const struct run_results *res, const struct html_opts *o,
		struct sim_error *err);

/*
 * `idlesim compare --format html`: per cell and metric a bar chart of the governors'
 * means with error bars (stddev), the percentage against the baseline and the text table's
 * significance mark. 0, or -1 with err set.
 */
struct compare_result;
int html_compare(FILE *f, const struct compare_result *res, const char *command, const char *version,
		 struct sim_error *err);

/* For other pages in the same style (sweep summary): text escaped for HTML, and the page's
 * head (with the report's stylesheet) and foot (the command and version). */
void html_escape(FILE *f, const char *s);
void html_page_begin(FILE *f, const char *title);
void html_page_end(FILE *f, const char *command, const char *version);

#endif
