/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run.h - the grid behind `idlesim run`: every trace x machine x governor, each replayed
 * with the same knobs, plus the two references (oracle, oracle-energy) on the same input
 * for regret.
 */
#ifndef IDLESIM_RUN_H
#define IDLESIM_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "governors/governor.h"
#include "sim/engine/engine.h"
#include "sim/machine/machine.h"
#include "sim/engine/replay.h"
#include "sim/engine/stats.h"
#include "sim/run/refcache.h"
#include "sim/run/run_set.h"
#include "sim/sched/loop.h"
#include "sim/workload/workloads.h"

#define RUN_MAX_ITEMS 64
#define RUN_MAX_PARAMS 32 /* tunables of one governor, at most */

struct run_request {
	const char *traces[RUN_MAX_ITEMS];
	int nr_traces;
	const char *machines[RUN_MAX_ITEMS];
	int nr_machines;
	const char *governors[RUN_MAX_ITEMS];
	int nr_governors;
	int hz;			/* 0: the trace's hz, else 250 */
	int64_t latency_req_ns; /* < 0: no PM QoS request */
	const char *disable[RUN_MAX_ITEMS];
	int nr_disable;
	const char *enable[RUN_MAX_ITEMS];
	int nr_enable;
	int topology[3];	/* packages, cores, threads; 0 = the machine's */
	struct run_set sets[RUN_MAX_SETS];
	int nr_sets;
	long explain_limit;	/* decisions to keep per run: 0 = none, < 0 = all */
	/* --from/--to: keep only decisions (and slices) whose select time is in
	 * [window_from_ns, window_to_ns) of trace time; window_to_ns < 0: no end */
	int64_t window_from_ns, window_to_ns;
	bool timeline;		/* keep every idle entry as a run_slice (exports, report) */
	long timeline_cap;	/* slices kept per run at most; 0 = no limit */
	enum eventq_impl queue;
	bool global_order;	/* --queue heap|naive: one queue for all CPUs, never lanes */
	enum wake_model wake_model; /* --wake-latency (default WAKE_MODEL_DEFAULT) */
	uint64_t wake_seed;	/* the measured model's stream of a replay (compare: its seeds) */
	FILE *progress;		/* a progress bar here for runs over 2 s (sim/base/progress.h); NULL: none */
	/* --governor-timeout: the limit of one call into a governor file, in wall time
	 * (sim/engine/govguard.h); 0: the default ($IDLESIM_GOVERNOR_TIMEOUT, else 5 s),
	 * < 0: none. govguard_parse_timeout() reads the option's SECONDS into it. */
	int64_t gov_timeout_ns;
	/* The references of regret, once per process (sim/run/refcache.h): the caller's
	 * cache, shared by every run_grid() that gets it (sweep's points); NULL: computed
	 * in each cell, in the same pass over the trace as its governors. */
	struct run_refcache *refs;
};

/* One idle entry of a run's timeline (--format ftrace|perfetto, idlesim report). */
#define RUN_SLICE_FIRST 1u	  /* the first entry of an idle period */
#define RUN_SLICE_TRUNCATED 2u	  /* still in progress at the end: not counted */
#define RUN_SLICE_STOP_TICK 4u	  /* the governor asked to stop the tick */
#define RUN_SLICE_TICK_STOPPED 8u /* the tick was stopped during the entry */
#define RUN_SLICE_TICK_WAS_STOPPED 16u /* it was stopped already when select() ran */
#define RUN_SLICE_GOT_TICK 32u	  /* reflect() saw tick_nohz_idle_got_tick() true */

struct run_slice {
	int64_t entry_ns;   /* select() and entry */
	int64_t wake_ns;    /* the wakeup; the end for a truncated entry */
	int64_t reflect_ns; /* the wakeup plus the exit latency: cpuidle_enter_state() returns */
	int64_t idle_ns;    /* first entry of a period: true time to its wakeup; else -1,
			     * and -1 when no wakeup is in sight (KTIME_MAX) */
	int64_t sleep_ns;   /* the sleep length select() saw; KTIME_MAX: no timer */
	int64_t next_tick_ns; /* the next jiffy edge after entry_ns */
	int32_t cpu;
	int8_t state;
	uint8_t cause;	    /* enum wake_cause; WAKE_NR_CAUSES when truncated */
	uint8_t verdict;    /* 0 hit, 1 above, 2 below */
	uint8_t flags;	    /* RUN_SLICE_* */
};

/*
 * Idle-period lengths in log2 bins, counted at the first entry of every period: bin 0 is
 * [0, 1 us), bin k is [2^(k-1), 2^k) us, the last bin holds longer ones and periods with
 * no wakeup in sight. Per bin, the state the first decision chose.
 */
#define RUN_HIST_BINS 26

/* A kept decision (--explain). */
struct run_decision {
	struct sim_decision d;
	struct cpuidle_explain ex;
};

struct run_result {
	char trace[512];
	char machine[MACHINE_NAME_LEN];
	char governor[64];
	/* the configuration record (sim/run/cfgrec.h) */
	const struct cpuidle_governor *gov;
	long long params[RUN_MAX_PARAMS]; /* gov's tunables in force, gov->params order */
	struct run_set sets[RUN_MAX_SETS]; /* the --set options that applied */
	int nr_sets;
	uint64_t machine_hash, trace_hash;
	int hz;
	int64_t latency_req_ns; /* < 0: none */
	uint32_t disabled;
	enum wake_model wake_model;
	int machine_cpus;
	struct machine mach;
	struct run_stats stats;
	/* Energy regret: against RUN_ENERGY_REFERENCE; latency regret: against the oracle
	 * (RUN_LATENCY_REFERENCE). docs/regret.md. */
	bool has_regret;
	double regret_energy_j, regret_energy_pct;
	double regret_package_j; /* the packages' share of regret_energy_j */
	/* the same difference in run_stats.cpu_energy_j: the cores' part (regret_energy_j -
	 * regret_package_j) less what SMT siblings sharing a core add or take */
	double regret_cpu_j;
	double regret_lat_mean_ns;
	struct run_decision *decisions;
	size_t nr_decisions, cap_decisions;
	/* with req->timeline: */
	struct run_slice *slices;
	size_t nr_slices, cap_slices;
	struct run_slice *oracle_slices; /* the oracle's on the same input */
	size_t nr_oracle_slices;
	/* a closed-loop run (run_workload()) with req->timeline: what ran where (loop.h), cut
	 * by the window and timeline_cap as the slices are; NULL for a replay and the oracle */
	struct loop_segment *segs;
	size_t nr_segs;
	bool segs_cut;
	bool closed_loop;	       /* run_workload()'s: trace names the workload */
	struct loop_sched_stats sched; /* its tasks (comm by tid) and CPUs; 0 tasks: pinned */
	uint64_t idle_hist[RUN_HIST_BINS][CPUIDLE_STATE_MAX];
	uint64_t oracle_idle_hist[RUN_HIST_BINS][CPUIDLE_STATE_MAX];
	/* while running: */
	const struct run_request *req;
	long kept;	/* decisions kept in the window */
	bool nomem;	/* a log could not grow */
};

/* The references of regret (docs/regret.md). */
#define RUN_ENERGY_REFERENCE "oracle-energy"
#define RUN_LATENCY_REFERENCE "oracle"
/* Below -RUN_REGRET_EPS_J an energy regret counts as negative (rounding of the sums). */
#define RUN_REGRET_EPS_J 1e-9

/*
 * NULL unless r's energy regret is negative; then why, in the order of docs/regret.md:
 * "package" when the cores' part (regret minus its package share) is not negative (a
 * package sleeps only when all its cores do, which per-CPU choices cannot see); "smt" when
 * the cores' part is negative but the per-CPU part (regret_cpu_j) is not (a core is as
 * deep as its shallowest thread, which they cannot see either); else "core", which the
 * reference should never allow beyond the delayed-work effect docs/regret.md measures.
 */
const char *run_regret_negative(const struct run_result *r);

/* The histogram bin of an idle-period length (< 0: no wakeup in sight). */
int run_hist_bin(int64_t idle_ns);
/* The lower edge of bin k, in ns (bin 0: 0). */
int64_t run_hist_edge_ns(int k);

struct run_results {
	struct run_result *r;
	int n;
};

/* Fill the defaults: the demo trace, hsx/bdx/skl, every governor, no limit. */
void run_request_defaults(struct run_request *req);

/*
 * A governor listed twice (menu,menu or menu and menu@6.19, the same table entry) kept
 * once, at its first place: names[] compacted in place; returns the new count. Names
 * gov_find() does not know count as one (callers reject them).
 */
int run_unique_governors(const char **names, int n);

/* The path of the demo trace (sim/base/datadir.h finds it) into buf; returns buf. */
const char *run_default_trace(char *buf, size_t n);

/* Run the grid. Returns 0 with *out filled (free with run_results_free), or -1. */
int run_grid(const struct run_request *req, struct run_results *out, struct sim_error *err);

/*
 * Requests replayed alike (run_same_replay(): one trace and one machine, both files, every
 * knob of the replay equal) that differ in their governors and --set only, as sweep's points
 * of one block are: their runs in one pass over the trace, the references once. out holds
 * each request's governors' results, request after request; each is what run_grid() of that
 * request alone gives (tests/test_replay_multi.c).
 */
int run_grid_batch(const struct run_request *reqs, int n, struct run_results *out,
		   struct sim_error *err);
bool run_same_replay(const struct run_request *a, const struct run_request *b);
void run_results_free(struct run_results *res);

/* A trace to replay: a file (native, or any kernel trace sim/import/import.h reads), or native text
 * held in memory (text non-NULL, path unused). */
struct run_trace {
	const char *path;
	const char *text;
	const char *name; /* in messages and reports */
	uint64_t hash;	  /* FNV-1a 64 of its bytes (sim/run/cfgrec.h) */
};

/* A trace opened as a record source (sim/engine/replay.h): a native reader or an importer. */
struct run_trace_src {
	struct record_source src; /* src.hdr: the (converted) trace's header */
	struct trace_reader *tr;
	struct importer *im;
};

/* Open t, telling a kernel trace from a native one by its first bytes. Returns 0, or -1
 * with err set (s needs no closing then). */
int run_trace_open(const struct run_trace *t, struct run_trace_src *s, struct sim_error *err);
void run_trace_close(struct run_trace_src *s);

/* One cell of the grid, for programs that hold the machine and the trace themselves (the
 * library, include/idlesim.h): req's governors and knobs on m, which is validated; req's
 * machines, traces and topology are not used. Returns 0 with *out filled, or -1. */
int run_machine_trace(const struct run_request *req, const struct machine *m,
		      const struct run_trace *trace, struct run_results *out, struct sim_error *err);

/*
 * The timeline of a closed-loop workload (idlesim run|report --workload): w with params
 * for duration_ns from seed, on req's one machine (req->machines[0]) through req's
 * governors, and the two references on the same model: results as run_grid()'s, each with
 * the segments of what ran where (with req->timeline). The oracle's idle periods are its
 * pass 2's, on the periods of a run without exit latency (pass 1, sim/sched/loop.h), so its
 * work is that run's, not the governors'; it keeps no segments. Returns 0 or -1.
 */
int run_workload(const struct run_request *req, const struct workload *w, const int64_t *params,
		 int64_t duration_ns, uint64_t seed, struct run_results *out,
		 struct sim_error *err);

/* The tunables of g after req's --set options, range-checked; *params is NULL when g has
 * none (free with sim_free). Returns 0 or -1. */
int run_gov_params(const struct run_request *req, const struct cpuidle_governor *g,
		   long long **params, struct sim_error *err);

/* Every one of the sets must apply to at least one of the n governors (same family, and
 * the version has the tunable); else an input error naming the option and the governors. */
int run_check_sets_apply(const struct run_set *sets, int nr_sets,
			 const struct cpuidle_governor *const *govs, int n, struct sim_error *err);

/* Resolve a machine for a request: load, apply --topology, validate. */
int run_load_machine(const struct run_request *req, const char *name, struct machine *m,
		     struct sim_error *err);
/* The disabled-state mask for a machine: its defaults, then --enable, then --disable. */
int run_disabled_mask(const struct run_request *req, const struct machine *m, uint32_t *mask,
		      struct sim_error *err);

#endif
