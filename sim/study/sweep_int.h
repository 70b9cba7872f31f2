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
#include <stdio.h>

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
 * The longest line a results file may hold, newline excluded: 1 MiB. A line sweep writes
 * is a few hundred bytes to a few KiB (its config record names one trace path, at most
 * PATH_MAX, one machine, one workload label of at most 160 bytes, a governor's dozen
 * tunables and at most RUN_MAX_SETS --set options; then a dozen numbers), so a longer line
 * is not a result and reading it would only grow memory with the file. run_point() refuses
 * to write a longer one.
 */
#define SWEEP_MAX_LINE (1L << 20)

/* What the lines of a results file must be: a sweep's own file (resume) names its spec's
 * hash, the version and the number of points; NULL (merge, summary): any one sweep. */
struct sweep_want {
	const char *spec, *version;
	long total;
};

/* What sweep_each_line() read. */
struct sweep_read {
	long long complete; /* bytes of the complete lines */
	long long partial;  /* bytes of a partial last line (the start of a result line) */
	size_t longest;	    /* the longest complete line, with its newline */
};

/*
 * Stream the complete lines of a results file through fn, each parsed. Only a regular file
 * is read (a device, FIFO, socket or directory is refused before any read, so an endless
 * device cannot make it read forever); each complete line must be a result line (of the
 * wanted spec, version and size, when want is given; else of the same spec as the first
 * line's is the caller's business), no line may hold a NUL byte or be longer than
 * SWEEP_MAX_LINE, and a partial last line (what a kill leaves) is accepted, and not
 * passed, only when it is the start of a result line as sweep writes it (see
 * sweep_tail_ok()). Memory: one line, whatever the file's length. A missing file is an
 * empty one when missing_ok. Any error is at path[:line:column]. Returns 0, or -1 with
 * err set; rd (may be NULL) says what was read.
 */
int sweep_each_line(const char *path, const struct sweep_want *want, bool missing_ok,
		    struct sweep_read *rd, sweep_line_fn *fn, void *ud, struct sim_error *err);

/*
 * Is t[0..n) (no newline, no NUL) the start of a line sweep writes,
 * {"spec":"HASH","idlesim_version":"VERSION","index":I,"total":TOTAL,"config":{...,
 * matched as far as t goes, anything after "config":{ ? want's fields fix HASH, VERSION
 * and TOTAL; a NULL want or field accepts any (16 hex digits; a version; digits).
 */
bool sweep_tail_ok(const char *t, size_t n, const struct sweep_want *want);

/* Open a results file for reading: a regular file only (0 and *f NULL when it is missing
 * and missing_ok). Returns 0, or -1 with err set. */
int sweep_open_results(const char *path, bool missing_ok, FILE **f, struct sim_error *err);

/* Which points a sweep's own results file `out` already holds (a bit each in done, which
 * has s->total bits), by the rules of sweep_each_line() for this spec; *keep is the length
 * to keep (a partial last line is cut off). A missing file holds none. Returns 0 or -1. */
int sweep_resume_scan(const struct sweep_spec *s, const char *out, unsigned char *done,
		      long long *keep, struct sim_error *err);

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
