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

#define COMPARE_JSON_SCHEMA "idlesim-compare/1"
#define COMPARE_MAX_VALUES 64   /* values of the listed workload parameter */
#define COMPARE_MAX_METRICS 64  /* --metric options */
#define COMPARE_MAX_WORLDS 8    /* --housekeeping presets of a list */
#define COMPARE_WORLD_LEN 32
#define COMPARE_METRIC_LEN 48   /* "residency_pct." + a state name, with room to spare */
#define COMPARE_DEFAULT_ITERATIONS 5
#define COMPARE_DEFAULT_DURATION_NS 1000000000LL
#define COMPARE_DEFAULT_HZ 250

/*
 * The metrics a run yields, in report order. Residency comes last, one per idle state:
 * metric COMPARE_M_RESIDENCY + i is residency_pct of state i.
 */
enum compare_metric {
	COMPARE_M_THROUGHPUT,   /* workload's unit (req/s, MB/s); higher is better */
	COMPARE_M_LATENCY_MEAN, /* request latency, us */
	COMPARE_M_LATENCY_P99,  /* request latency, us, nearest rank */
	COMPARE_M_ENERGY_J,
	COMPARE_M_IDLE_POWER_W,
	COMPARE_M_ABOVE_PCT,
	COMPARE_M_BELOW_PCT,
	COMPARE_M_HITS_PCT, /* higher is better */
	COMPARE_M_WAKE_P99_NS,
	/* what the scheduler did (with placement sched only; lower is counted better: each
	 * is a cost, an idle exit, a wait or a move) */
	COMPARE_M_WAKEUPS_IDLE_PCT, /* task wakeups placed on an idle CPU, % of wakeups */
	COMPARE_M_RUN_DELAY_US,	    /* run-queue wait per wakeup (schedstat run_delay), us */
	COMPARE_M_MIGRATIONS_PER_S, /* tasks moved to another CPU (wakeup or pull), per s */
	COMPARE_M_PULLS_PER_S,	    /* newly-idle balance pulls, per s */
	COMPARE_M_BALANCE_PULLS_PER_S, /* periodic and NOHZ idle balance pulls, per s */
	COMPARE_M_RESIDENCY,
	COMPARE_M_NR = COMPARE_M_RESIDENCY + CPUIDLE_STATE_MAX,
};

enum compare_format { COMPARE_TEXT, COMPARE_JSON, COMPARE_CSV };
enum compare_style { COMPARE_STYLE_MMTESTS, COMPARE_STYLE_NORMALIZED };

/* Called after each finished run, under a lock (never concurrently); done = -1 after
 * the last call when a run failed and the others were not started. */
typedef void compare_progress_fn(void *ud, long done, long total);

struct compare_request {
	const struct workload *wl;
	int64_t params[WL_MAX_PARAMS]; /* every parameter; the listed one is replaced */
	int vary;		       /* index of the listed parameter, -1: none */
	int64_t values[COMPARE_MAX_VALUES];
	int nr_values;
	bool mmtests_sweep; /* the values are MMTests' sweep (--clients mmtests) */
	/* --housekeeping LIST: each cell is run in each of these timer worlds (presets of
	 * workload_preset(), applied before the listed value); 0: params as given */
	char worlds[COMPARE_MAX_WORLDS][COMPARE_WORLD_LEN];
	int nr_worlds;
	/* the one preset applied to params (--housekeeping NAME), for the HZ it implies; "" */
	char preset[COMPARE_WORLD_LEN];
	const char *machines[RUN_MAX_ITEMS];
	int nr_machines;
	const char *governors[RUN_MAX_ITEMS]; /* the first is the baseline */
	int nr_governors;
	const char *metrics[COMPARE_MAX_METRICS]; /* none: every metric that applies */
	int nr_metrics;
	int iterations;
	uint64_t seed;
	int64_t duration_ns;
	int threads; /* 0: the number of online CPUs */
	/* --affinity: the tasks' CPUs, affinity[0..affinity_top-1] (the caller's); NULL: all */
	const bool *affinity;
	int affinity_top;
	/* hz, latency limit, --disable/--enable, --topology, --set; traces and
	 * governors of `knobs` are ignored (hz 0 means COMPARE_DEFAULT_HZ). */
	struct run_request knobs;
	compare_progress_fn *progress; /* NULL: none */
	void *progress_ud;
};

/* One governor in a cell. */
struct compare_gov {
	const double *samples; /* iterations values, seed order */
	struct mm_summary sum;
	double pct;	  /* against the baseline, positive = better; 0 for the baseline */
	double p;	  /* t-test p-value; NaN for the baseline and when not testable */
	bool significant;
	/* with several timer worlds: the sign of its significant difference (or that it has
	 * none) is not the same in every world for this machine, metric and value */
	bool flips;
};

struct compare_cell {
	int value;   /* index into compare_result.values */
	int machine; /* index into compare_result.machines */
	int world;   /* index into compare_result.worlds; 0 without a list */
	int metric;  /* enum compare_metric */
	char name[COMPARE_METRIC_LEN]; /* "throughput", "residency_pct.C6" */
	bool higher_is_better;
	bool in_gmean; /* residency is left out of the Gmean */
	struct compare_gov *gov; /* nr_governors, the baseline first */
};

/* A machine's part of the configuration record (sim/run/cfgrec.h). */
struct compare_machine_rec {
	uint64_t hash;	/* machine_hash() of its table */
	char disabled[256]; /* "C1,C6" or "none" */
	char assumed[MACHINE_ASSUMED_LEN]; /* machine.assumed: "" for most machines */
};

struct compare_result {
	const struct workload *wl;
	int64_t params[WL_MAX_PARAMS];
	int vary; /* index of the listed parameter (the cells' "param"); -1: none */
	int64_t values[COMPARE_MAX_VALUES];
	int nr_values;
	bool mmtests_sweep; /* MMTests' sweep: each metric gets its Gmean over the values */
	char (*machines)[MACHINE_NAME_LEN];
	int nr_machines;
	const char *governors[RUN_MAX_ITEMS]; /* the registry's names */
	int nr_governors;
	int iterations;
	uint64_t seed;
	int64_t duration_ns;
	int hz;
	/* per timer world: its HZ (hz-tick-100 runs at 100 unless --hz says otherwise) */
	int world_hz[COMPARE_MAX_WORLDS];
	/* The configuration record; results built by hand may leave it zero (then the
	 * governors' defaults and no machine records are reported). */
	const struct cpuidle_governor *gov[RUN_MAX_ITEMS];
	long long gov_params[RUN_MAX_ITEMS][RUN_MAX_PARAMS];
	struct run_set sets[RUN_MAX_SETS]; /* every --set; each governor's are reported */
	int nr_sets;
	int64_t latency_req_ns; /* < 0: none */
	enum wake_model wake_model;
	struct compare_machine_rec *mrec; /* per machine, or NULL */
	char worlds[COMPARE_MAX_WORLDS][COMPARE_WORLD_LEN]; /* the --housekeeping list */
	int nr_worlds;		    /* 0: no list (one world, as the params say) */
	int nr_flips;		    /* (machine, metric, value, governor) that flip */
	struct compare_cell *cells; /* by machine, then world, then metric, then value */
	int nr_cells;
	double gmean[RUN_MAX_ITEMS]; /* per governor; the baseline's is 1 */
	int gmean_cells;	     /* cells that entered it */
	/* What the scheduler did in the first iteration of each row (world and value),
	 * machine and governor, by job order (row, machine, governor); NULL when it did not
	 * run (placement pinned): sched[k].nr_tasks is 0 for such a run. */
	struct loop_sched_stats *sched;
	int nr_sched;
	struct compare_gov *gov_store;   /* storage behind the cells' gov */
	double *samples;	     /* storage behind the cells' samples */
};

void compare_request_defaults(struct compare_request *req);

/* Name of a fixed metric (not residency), and whether it is higher-is-better. */
const char *compare_metric_name(int metric);
bool compare_metric_higher_is_better(int metric);
/* The metric of a name: a fixed one, COMPARE_M_RESIDENCY for "residency_pct.STATE", or -1. */
int compare_metric_lookup(const char *name);
/* Request throughput and latency apply only to workloads with a throughput unit. */
bool compare_metric_applies(const struct workload *wl, int metric);
/* The state of a "residency_pct.STATE" metric on m (case-insensitive name), or -1. */
int compare_residency_state(const struct machine *m, const char *metric);
/* A metric's unit for the workload: "req/s", "us", "J", "W", "%", "ns". */
const char *compare_metric_unit(const struct workload *wl, int metric);

/* Whether the scheduler runs in some row of the request (placement sched for some value):
 * then the result has its detail (compare_result.sched). */
bool compare_request_sched(const struct compare_request *req);

/* Run the comparison. Returns 0 with *out filled (free with compare_result_free), or -1. */
int compare_run(const struct compare_request *req, struct compare_result *out, struct sim_error *err);
void compare_result_free(struct compare_result *res);
/* The geometric mean of governor g's means over cells [first, end) (one metric, a value
 * each: a sweep); NaN unless every mean is > 0. */
double compare_sweep_gmean(const struct compare_result *res, int first, int end, int g);
/*
 * With nr_worlds >= 2: mark each governor whose verdict (+1 significantly better than the
 * baseline, -1 significantly worse, 0 no significant difference) is not the same in every
 * timer world for a machine, metric and value (compare_gov.flips), and count them in
 * nr_flips. compare_run() calls it; exposed for results built by hand.
 */
void compare_mark_flips(struct compare_result *res);
/* The cell of the same machine, metric and value as cell i (of world 0), in world w. */
const struct compare_cell *compare_world_cell(const struct compare_result *res, int i, int w);

/* Index of a cell's governor by name, or -1. */
int compare_governor_index(const struct compare_result *res, const char *name);

#endif
