/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress.h - the progress bar of long commands on a terminal: compare's and check's
 * (per finished run), run's (per replay, and within one by trace time) and gen's (by trace
 * time written). "name [#####...............] 12/40 runs".
 *
 * A struct progress belongs to one command (no global state); the CLI makes one only when
 * stderr is a terminal, so nothing is ever drawn into a pipe or into the report itself.
 */
#ifndef IDLESIM_PROGRESS_H
#define IDLESIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* run and gen draw nothing for work that ends within this time (most commands). */
#define PROGRESS_DELAY_NS 2000000000LL
/* At most this often, except the last update (done == total). */
#define PROGRESS_INTERVAL_NS 100000000LL

struct progress {
	FILE *f;	     /* where to draw; NULL: nothing */
	const char *unit;    /* after the counts: "runs", "s" */
	long scale;	     /* the counts shown are done / scale and total / scale */
	int64_t start_ns;    /* CLOCK_MONOTONIC at progress_init() */
	int64_t next_ns;     /* no redraw before this */
	bool drawn;	     /* a bar is on the line: progress_end() ends it */
};

/* The bar itself: "\r[name ][####....] done/total unit", counts divided by scale. */
void progress_bar(FILE *f, const char *name, long done, long total, long scale,
		  const char *unit);

/* Start timing; f NULL makes every call below do nothing. */
void progress_init(struct progress *p, FILE *f, const char *unit, long scale);

/* done of total (in the caller's units): drawn once PROGRESS_DELAY_NS have passed. */
void progress_update(struct progress *p, const char *name, long done, long total);

/*
 * A trace being written or read has reached at_ns of [start_ns, end_ns): the bar in
 * seconds of trace time, updated every 4096 calls (*calls counts them) and at the end
 * (at_ns == end_ns).
 */
void progress_trace_time(struct progress *p, unsigned int *calls, int64_t at_ns,
			 int64_t start_ns, int64_t end_ns);

/* The work is over: if a bar was drawn, end its line (before a report or an error). */
void progress_end(struct progress *p);

#endif
