/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diff.h - which decisions two governors (or one with two tunable sets) make differently
 * on the same input: `idlesim diff` (docs/diff.md).
 *
 * Lockstep: one replay drives the engine (side A's governor, B's, or the oracle), and at
 * every decision both sides are asked with identical inputs, each keeping its own state,
 * fed the driving run's outcomes (sim_config.shadows). A decision diverges when the two
 * choose different states, or, while the tick runs, one asks to stop it and the other not
 * (a stopped tick stays stopped whatever select() says: cpuidle_idle_call()).
 *
 * Free-running (diff_request.free) adds each side's own replay, scored as `run` scores it,
 * for the outcomes side by side. Per CPU the first divergence of the lockstep pass is also
 * where the two free runs part: in a replay a CPU's inputs depend only on its own trace and
 * its own earlier choices, so up to that decision both free runs are the same.
 */
#ifndef IDLESIM_DIFF_H
#define IDLESIM_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/run/run.h"

enum diff_drive { DIFF_DRIVE_A, DIFF_DRIVE_B, DIFF_DRIVE_ORACLE };

#define DIFF_MAX_RULES 48
#define DIFF_RULE_LEN 40
#define DIFF_KEEP_DEFAULT 10
/* The per-CPU timeline of the HTML page: the trace's span in this many bins. */
#define DIFF_BINS 200

struct diff_side {
	const char *governor; /* a registered name (kgov_resolve() has loaded files) */
	struct run_set sets[RUN_MAX_SETS]; /* --set-a / --set-b, on top of run.sets */
	int nr_sets;
};

struct diff_request {
	struct run_request run; /* traces, machines and knobs as `run` takes them */
	struct diff_side side[2];
	enum diff_drive drive;
	bool free;
	long keep;		/* divergences kept per trace and machine, the first ones */
};

/* A rule (the explain key "rule") and how often it decided, and in divergent decisions. */
struct diff_rule {
	char rule[DIFF_RULE_LEN];
	uint64_t decisions, divergent;
};

/* A kept divergence: the driver's inputs and outcome, both sides' answers and logs. */
struct diff_divergence {
	struct sim_decision d; /* d.gov and d.shadow[].ex are not kept (NULL) */
	int state[2];
	bool stop_tick[2];
	struct cpuidle_explain ex[2];
};

struct diff_cpu {
	uint64_t decisions, divergent, state_divergent, tick_divergent;
	int64_t first_ns; /* select time of the first divergence; -1: none */
};

struct diff_cell {
	char trace[512];
	struct machine mach;
	int hz;
	uint64_t decisions, divergent, state_divergent, tick_divergent;
	uint64_t matrix[CPUIDLE_STATE_MAX][CPUIDLE_STATE_MAX]; /* [A's state][B's state] */
	struct diff_rule rules[2][DIFF_MAX_RULES];
	int nr_rules[2];
	uint64_t rules_other[2]; /* decisions of rules beyond DIFF_MAX_RULES */
	struct diff_cpu *cpus;
	int nr_cpus;
	/* per CPU and time bin (cpu * DIFF_BINS + bin) over [start_ns, end_ns): decisions and
	 * divergent ones; NULL when the trace does not state its span */
	uint32_t *bin_decisions, *bin_divergent;
	int64_t start_ns, end_ns;
	struct diff_divergence *div; /* the first `keep`, in order of completion */
	size_t nr_div;
	struct run_results free_runs[2]; /* with free: each side's own replay (one result) */
};

struct diff_results {
	const struct cpuidle_governor *gov[2];
	long long params[2][RUN_MAX_PARAMS];
	struct run_set sets[2][RUN_MAX_SETS]; /* the --set options that applied to each side */
	int nr_sets[2];
	bool same; /* the same governor with the same tunables on both sides */
	enum diff_drive drive;
	bool free;
	struct diff_cell *cells; /* trace x machine, in request order */
	int n;
	uint64_t decisions, divergent;
};

/* Lockstep (and free runs) over every trace x machine. 0 with *out filled, or -1. */
int diff_run(const struct diff_request *req, struct diff_results *out, struct sim_error *err);
void diff_results_free(struct diff_results *res);

/* 100 * divergent / decisions; 0 with no decision. */
double diff_pct(uint64_t divergent, uint64_t decisions);
const char *diff_drive_name(enum diff_drive d);

#endif
