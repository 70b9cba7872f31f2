/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - MMTests-style comparisons of governors on closed-loop workloads
 * (idlesim compare, and idlesim check through sim/study/check.h).
 *
 * A comparison runs one workload with one parameter possibly taking several values
 * (--clients 1,2,4,8), on one or more machines, through a baseline governor and
 * candidates, N iterations each. Iteration i runs with seed S + i for every governor,
 * value and machine (paired runs). A cell is (value, machine, metric); it holds N samples
 * per governor, their summary (sim/base/mmstat.h) and, for each candidate, the percentage
 * against the baseline (positive = better), the t-test's p-value and its verdict.
 *
 * The runs (value x machine x governor x iteration) are independent jobs on a pool of
 * threads. Each job owns its simulation and writes only its own slot; the cells are built
 * after every job finished, in a fixed order, so the result does not depend on the
 * number of threads or on which thread ran what.
 */
#ifndef IDLESIM_COMPARE_H
#define IDLESIM_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/error.h"
#include "sim/base/mmstat.h"
#include "sim/run/run.h"
#include "sim/workload/workloads.h"

#define CMP_JSON_SCHEMA "idlesim-compare/1"
#define CMP_MAX_VALUES 64   /* values of the listed workload parameter */
#define CMP_MAX_METRICS 64  /* --metric options */
#define CMP_METRIC_LEN 48   /* "residency_pct." + a state name, with room to spare */
#define CMP_DEFAULT_ITERATIONS 5
#define CMP_DEFAULT_DURATION_NS 1000000000LL
#define CMP_DEFAULT_HZ 250

/*
 * The metrics a run yields, in report order. Residency comes last, one per idle state:
 * metric CMP_M_RESIDENCY + i is residency_pct of state i.
 */
enum cmp_metric {
	CMP_M_THROUGHPUT,   /* workload's unit (req/s, MB/s); higher is better */
	CMP_M_LATENCY_MEAN, /* request latency, us */
	CMP_M_LATENCY_P99,  /* request latency, us, nearest rank */
	CMP_M_ENERGY_J,
	CMP_M_IDLE_POWER_W,
	CMP_M_ABOVE_PCT,
	CMP_M_BELOW_PCT,
	CMP_M_HITS_PCT, /* higher is better */
	CMP_M_WAKE_P99_NS,
	CMP_M_RESIDENCY,
	CMP_M_NR = CMP_M_RESIDENCY + CPUIDLE_STATE_MAX,
};

enum cmp_format { CMP_TEXT, CMP_JSON, CMP_CSV };
enum cmp_style { CMP_STYLE_MMTESTS, CMP_STYLE_NORMALIZED };

/* Called after each finished run, under a lock (never concurrently); done = -1 after
 * the last call when a run failed and the others were not started. */
typedef void cmp_progress_fn(void *ud, long done, long total);

struct cmp_request {
	const struct workload *wl;
	int64_t params[WL_MAX_PARAMS]; /* every parameter; the listed one is replaced */
	int vary;		       /* index of the listed parameter, -1: none */
	int64_t values[CMP_MAX_VALUES];
	int nr_values;
	const char *machines[RUN_MAX_ITEMS];
	int nr_machines;
	const char *governors[RUN_MAX_ITEMS]; /* the first is the baseline */
	int nr_governors;
	const char *metrics[CMP_MAX_METRICS]; /* none: every metric that applies */
	int nr_metrics;
	int iterations;
	uint64_t seed;
	int64_t duration_ns;
	int threads; /* 0: the number of online CPUs */
	/* hz, latency limit, --disable/--enable, --topology, --set; traces and
	 * governors of `knobs` are ignored (hz 0 means CMP_DEFAULT_HZ). */
	struct run_request knobs;
	cmp_progress_fn *progress; /* NULL: none */
	void *progress_ud;
};

/* One governor in a cell. */
struct cmp_gov {
	const double *samples; /* iterations values, seed order */
	struct mm_summary sum;
	double pct;	  /* against the baseline, positive = better; 0 for the baseline */
	double p;	  /* t-test p-value; NaN for the baseline and when not testable */
	bool significant;
};

struct cmp_cell {
	int value;   /* index into cmp_result.values */
	int machine; /* index into cmp_result.machines */
	int metric;  /* enum cmp_metric */
	char name[CMP_METRIC_LEN]; /* "throughput", "residency_pct.C6" */
	bool higher_is_better;
	bool in_gmean; /* residency is left out of the Gmean */
	struct cmp_gov *gov; /* nr_governors, the baseline first */
};

/* A machine's part of the configuration record (sim/run/cfgrec.h). */
struct cmp_machine_rec {
	uint64_t hash;	/* machine_hash() of its table */
	char disabled[256]; /* "C1,C6" or "none" */
};

struct cmp_result {
	const struct workload *wl;
	int64_t params[WL_MAX_PARAMS];
	int vary; /* index of the listed parameter (the cells' "param"); -1: none */
	int64_t values[CMP_MAX_VALUES];
	int nr_values;
	char (*machines)[MACHINE_NAME_LEN];
	int nr_machines;
	const char *governors[RUN_MAX_ITEMS]; /* the registry's names */
	int nr_governors;
	int iterations;
	uint64_t seed;
	int64_t duration_ns;
	int hz;
	/* The configuration record; results built by hand may leave it zero (then the
	 * governors' defaults and no machine records are reported). */
	const struct cpuidle_governor *gov[RUN_MAX_ITEMS];
	long long gov_params[RUN_MAX_ITEMS][RUN_MAX_PARAMS];
	struct run_set sets[RUN_MAX_SETS]; /* every --set; each governor's are reported */
	int nr_sets;
	int64_t latency_req_ns; /* < 0: none */
	enum wake_model wake_model;
	struct cmp_machine_rec *mrec; /* per machine, or NULL */
	struct cmp_cell *cells; /* by machine, then metric, then value */
	int nr_cells;
	double gmean[RUN_MAX_ITEMS]; /* per governor; the baseline's is 1 */
	int gmean_cells;	     /* cells that entered it */
	struct cmp_gov *gov_store;   /* storage behind the cells' gov */
	double *samples;	     /* storage behind the cells' samples */
};

void cmp_request_defaults(struct cmp_request *req);

/* Name of a fixed metric (not residency), and whether it is higher-is-better. */
const char *cmp_metric_name(int metric);
bool cmp_metric_higher_is_better(int metric);
/* The metric of a name: a fixed one, CMP_M_RESIDENCY for "residency_pct.STATE", or -1. */
int cmp_metric_lookup(const char *name);
/* Request throughput and latency apply only to workloads with a throughput unit. */
bool cmp_metric_applies(const struct workload *wl, int metric);
/* The state of a "residency_pct.STATE" metric on m (case-insensitive name), or -1. */
int cmp_residency_state(const struct machine *m, const char *metric);
/* A metric's unit for the workload: "req/s", "us", "J", "W", "%", "ns". */
const char *cmp_metric_unit(const struct workload *wl, int metric);

/* Run the comparison. Returns 0 with *out filled (free with cmp_result_free), or -1. */
int cmp_run(const struct cmp_request *req, struct cmp_result *out, struct sim_error *err);
void cmp_result_free(struct cmp_result *res);

/* Index of a cell's governor by name, or -1. */
int cmp_governor_index(const struct cmp_result *res, const char *name);

/* Write the result. Returns 0, or -1 on a write or memory error. */
int cmp_write(FILE *f, const struct cmp_result *res, enum cmp_format format,
	      enum cmp_style style);

/* The configuration record as text lines (compare's text reports and check's output). */
void cmp_write_config(FILE *f, const struct cmp_result *res);
/* The same record as a JSON object (compare's and check's JSON reports). */
json_t *cmp_config_json(const struct cmp_result *res);

/* A progress bar on f: "[#####.....]  12/40 runs". Give the FILE * as ud. */
void cmp_progress_bar(void *ud, long done, long total);
/* The same bar after a name ("tbench [#####.....]  12/40 runs"; NULL: none), for check. */
void cmp_progress_bar_named(FILE *f, const char *name, long done, long total);

#endif
