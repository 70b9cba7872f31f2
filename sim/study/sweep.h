/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep.h - idlesim sweep: offline tuning over the cross product of inputs (traces and
 * closed-loop workloads), machines, HZ values, latency limits, governors and tunable values,
 * or a listed set of tunable points (docs/sweep.md).
 *
 * A spec (JSON) names the axes; point i of the product is run with `run`'s machinery and
 * written as one JSON line (its configuration record and metrics), appended and flushed as
 * it finishes. A rerun skips the points already in the file (a partial last line, left by
 * a kill, is dropped and its point rerun); it resumes only a regular file whose every line
 * is a result of this spec, and refuses anything else untouched (docs/sweep.md). --shard I/N runs the points whose index is I mod
 * N; `sweep merge` joins shards, checking that every point is there exactly once and that
 * all came from the same spec (its FNV-1a 64) and idlesim version. `sweep summary` shows
 * the best points and the Pareto frontier. Memory never grows with the number of points
 * beyond a bit per point: results files are read line by line.
 *
 * One job per file: sweep_spec.c the spec and the points, sweep_run.c running them (with
 * the result lines, resume and shards), sweep_merge.c merge, sweep_summary.c the summary;
 * sweep_int.h is what they share.
 */
#ifndef IDLESIM_SWEEP_H
#define IDLESIM_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/error.h"
#include "sim/run/run.h"

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
	int64_t gov_timeout_ns; /* --governor-timeout (run_request.gov_timeout_ns) */
	/* The references of regret, shared by every point (sim/run/refcache.h); NULL:
	 * sweep_run() keeps its own for the run. */
	struct run_refcache *refs;
	/* Points of one block (trace, machine, HZ, latency limit) run in one pass over the
	 * trace, up to this many (1..SWEEP_MAX_BATCH); 0: the points to run over the threads,
	 * at most SWEEP_MAX_BATCH. */
	int batch;
	long *passes; /* non-NULL: set to the number of passes run (a closed-loop point is one) */
};

/* The most points one pass over a trace feeds: each is a simulation held in memory. */
#define SWEEP_MAX_BATCH 16

/* The progress line: "12/40 points, 2.5/s, 11s left" (done and total of this run; the
 * rate over elapsed_s; "" for the rate and time until a point is done). */
void sweep_progress_text(char *buf, size_t n, long done, long total, double elapsed_s);

/* Run the missing points of the spec (and shard), appending to `out` (created if need be;
 * a regular file, not "-"). Returns the number of points run, or -1 with err set. */
long sweep_run(const struct sweep_spec *s, const struct sweep_opts *o, const char *out,
	       struct sim_error *err);

/* Join shard files into `out` (atomically; "-" for stdout). Returns 0 or -1. Memory: a
 * bit per point and a window of lines of at most `budget` bytes (sweep_merge: 8 MiB); a
 * sweep larger than the window is written in several passes over the shards. */
#define SWEEP_MERGE_BUDGET (8u << 20)
int sweep_merge(const char *const *in, int n, const char *out, struct sim_error *err);
int sweep_merge_budget(const char *const *in, int n, const char *out, size_t budget,
		       struct sim_error *err);

/* ---- sweep summary ---- */

#define SWEEP_MAX_OBJECTIVES 8
#define SWEEP_DEFAULT_OBJECTIVES "energy_j,wake_latency_p99_ns"

/* Is a larger value of this metric the better one (hits_pct, throughput)? Every other
 * metric of a results line is minimised. */
bool sweep_metric_higher_is_better(const char *name);

/* A point as the summary shows it: its objectives' values and what it ran. */
struct sweep_pt {
	long index;
	double v[SWEEP_MAX_OBJECTIVES];
	unsigned int has; /* bit k: v[k] is known */
	char governor[64];
	char set[256]; /* its --set options ("none": every tunable at its default) */
	int hz;
	long long latency_limit_ns; /* < 0: none */
	bool is_default;	    /* every tunable of its governor at its default */
};

/*
 * The Pareto frontier over objectives 0 and 1 of the points added so far: the points that
 * no other point dominates (at least as good in both, better in one; higher_is_better[k]
 * says which way objective k goes). Equal points dominate neither other: both stay. A
 * point without both values is ignored. Memory: the frontier only.
 */
struct sweep_front {
	bool higher_is_better[2];
	struct sweep_pt *p;
	size_t n, cap;
};

int sweep_front_add(struct sweep_front *f, const struct sweep_pt *p); /* 0, or -1: no memory */
void sweep_front_sort(struct sweep_front *f); /* by objective 0 (best first), then index */
void sweep_front_free(struct sweep_front *f);

enum sweep_format { SWEEP_FMT_TEXT, SWEEP_FMT_JSON, SWEEP_FMT_HTML };

struct sweep_summary_opts {
	const char *objectives; /* "M1,M2,..." (metric keys of the lines); NULL: the default */
	enum sweep_format format;
	const char *command; /* shown in HTML */
};

/*
 * Per (trace or workload, machine): the best point for each objective, the Pareto frontier
 * over the first two objectives, and the points with every tunable at its default. Reads
 * `results` (any sweep or merged file) as a stream; writes `out` atomically ("-": stdout).
 * Returns 0, or -1 with err set.
 */
int sweep_summary(const char *results, const struct sweep_summary_opts *o, const char *out,
		  struct sim_error *err);

#endif
