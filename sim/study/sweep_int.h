/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_int.h - what the files of the sweep share, not a public interface: the parsed spec
 * and the request of a point (made in sweep_spec.c, run by sweep_run.c), reading a results
 * file line by line with memory independent of its length (sweep_run.c, for resume, merge
 * and summary), and a bitmap of point indices.
 */
#ifndef IDLESIM_SWEEP_INT_H
#define IDLESIM_SWEEP_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/error.h"
#include "sim/run/run.h"
#include "sim/study/sweep.h"
#include "sim/workload/workloads.h"

/* ---- the spec: parsed by sweep_spec.c, run by sweep_run.c ---- */

struct sweep_tunable {
	struct run_set set; /* family, name; value per point */
	long long *values;
	long n;
};

/* A closed-loop workload of the spec: the model and every parameter. */
struct sweep_workload {
	const struct workload *wl;
	int64_t params[WL_MAX_PARAMS];
	char label[160]; /* "tbench" or "tbench clients=4" (the parameters the spec gives) */
};

/* One listed point ("points": [...]): its tunables' values. */
struct sweep_listed {
	struct run_set sets[RUN_MAX_SETS];
	int n;
};

struct sweep_spec {
	char *text;
	char source[512];
	char hash[17];
	json_t *root; /* owns the strings below */
	const char *traces[RUN_MAX_ITEMS], *machines[RUN_MAX_ITEMS];
	int nr_traces, nr_machines;
	struct sweep_workload wl[RUN_MAX_ITEMS];
	int nr_wl;
	int nr_inputs;	     /* traces, then workloads */
	int64_t duration_ns; /* of a workload point */
	uint64_t seed;	     /* of a workload point */
	struct sweep_listed *listed; /* "points", or NULL: the cross product of "tunables" */
	long nr_listed;
	long *listed_of[RUN_MAX_ITEMS]; /* per governor: the listed points that apply to it */
	const struct cpuidle_governor *gov[RUN_MAX_ITEMS];
	int nr_gov;
	int hz[SWEEP_MAX_VALUES], nr_hz;
	int64_t lat_ns[SWEEP_MAX_VALUES];
	int nr_lat;
	enum wake_model wake; /* "wake_latency": one model for every point */
	struct sweep_tunable tun[RUN_MAX_SETS];
	int nr_tun;
	long combos[RUN_MAX_ITEMS]; /* per governor: product of its tunables' counts */
	long per_block;		    /* sum of combos */
	long total;
};

/* The request of point i, and its --set options in point order; *wl is the workload of a
 * closed-loop point, NULL for a trace. */
void sweep_point_request(const struct sweep_spec *s, long i, struct run_request *q,
			 const struct sweep_workload **wl);

/* ---- result lines (sweep_run.c): resume, merge and summary read them ---- */

/* One complete result line, parsed. */
struct sweep_line {
	long index, total;
	char spec[17], version[32];
	json_t *root; /* the whole line; valid during the callback only */
};

typedef int sweep_line_fn(void *ud, const struct sweep_line *li, const char *line, size_t len,
			  long lineno, struct sim_error *err);

/*
 * Stream the complete lines of a results file through fn (each parsed; a line that is not
 * a result is an error at path:line:1). A partial last line (what a kill leaves) is not
 * passed; *complete is the number of bytes up to the last newline, *longest the longest
 * line with its newline (either may be NULL). A missing file is an empty one when
 * missing_ok. Returns 0, or -1 with err set.
 */
int sweep_each_line(const char *path, bool missing_ok, long long *complete, size_t *longest,
		    sweep_line_fn *fn, void *ud, struct sim_error *err);

/* A bitmap of n bits, zeroed (free with sim_free); NULL when out of memory. */
unsigned char *sweep_bits_new(long n);
static inline bool sweep_bit(const unsigned char *b, long i)
{
	return b[i >> 3] & (1u << (i & 7));
}
static inline void sweep_bit_set(unsigned char *b, long i)
{
	b[i >> 3] |= (unsigned char)(1u << (i & 7));
}

#endif
