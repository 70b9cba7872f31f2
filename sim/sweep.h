/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep.h - idlesim sweep: offline tuning over the cross product of traces, machines,
 * governors, HZ values, latency limits and tunable values (README, "Sweeps").
 *
 * A spec (JSON) names the axes; point i of the product is run with `run`'s machinery and
 * written as one JSON line (its configuration record and metrics), appended and flushed as
 * it finishes. A rerun skips the points already in the file (a partial last line, left by
 * a kill, is dropped and its point rerun). --shard I/N runs the points whose index is I mod
 * N; `sweep merge` joins shards, checking that every point is there exactly once and that
 * all came from the same spec (its FNV-1a 64) and idlesim version.
 */
#ifndef IDLESIM_SWEEP_H
#define IDLESIM_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/error.h"
#include "sim/run.h"

#define SWEEP_MAX_VALUES 64	   /* HZ values, latency limits */
#define SWEEP_MAX_POINTS 1000000L  /* more needs force */

struct sweep_spec;

/* Parse a spec (text); `source` names it in errors (file:line:column). NULL on error. */
struct sweep_spec *sweep_parse(const char *text, const char *source, bool force,
			       struct sim_error *err);
struct sweep_spec *sweep_load(const char *path, bool force, struct sim_error *err);
void sweep_free(struct sweep_spec *s);
long sweep_total(const struct sweep_spec *s);

struct sweep_opts {
	int threads;	     /* 1 or more */
	long shard, nr_shards; /* run index % nr_shards == shard; nr_shards 1: all */
	FILE *progress;	     /* a terminal to draw progress on, or NULL */
};

/* The progress line: "12/40 points, 2.5/s, 11s left" (done and total of this run; the
 * rate over elapsed_s; "" for the rate and time until a point is done). */
void sweep_progress_text(char *buf, size_t n, long done, long total, double elapsed_s);

/* Run the missing points of the spec (and shard), appending to `out` (created if need be).
 * Returns the number of points run, or -1 with err set. */
long sweep_run(const struct sweep_spec *s, const struct sweep_opts *o, const char *out,
	       struct sim_error *err);

/* Join shard files into `out` (atomically; "-" for stdout). Returns 0 or -1. Memory: a
 * bit per point and a window of lines of at most `budget` bytes (sweep_merge: 32 MiB); a
 * sweep larger than the window is written in several passes over the shards. */
#define SWEEP_MERGE_BUDGET (32u << 20)
int sweep_merge(const char *const *in, int n, const char *out, struct sim_error *err);
int sweep_merge_budget(const char *const *in, int n, const char *out, size_t budget,
		       struct sim_error *err);

#endif
