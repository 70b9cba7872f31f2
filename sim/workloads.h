/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * workloads.h - benchmark-like workload models, run in closed loop inside the engine
 * (sim/loop.h), and written as traces by `idlesim gen` (their zero-exit-latency timeline).
 *
 * Each model imitates a benchmark family the governor debates use (netperf, tbench,
 * dbench, sockperf, hackbench, cyclictest, an idle system, the powernightmares pattern).
 * Parameters are integers with units in their names (`msg-bytes`, `period-us`); every one
 * has a default and a range, and is given on the command line as --NAME VALUE; `compare`
 * also accepts comma-separated lists for one of them (--clients 1,2,4,8).
 */
#ifndef IDLESIM_WORKLOADS_H
#define IDLESIM_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/common.h"
#include "sim/error.h"
#include "sim/loop.h"
#include "sim/trace.h"

#define WL_MAX_PARAMS 12

/* A time of mean `mean_ns`: (100 - jitter)% fixed, the rest exponential. */
static inline int64_t wl_vary(struct loop *L, int stream, int64_t mean_ns, int jitter_pct)
{
	int64_t fixed = mean_ns * (100 - jitter_pct) / 100;

	if (fixed >= mean_ns)
		return mean_ns;
	return fixed + loop_exp(L, stream, mean_ns - fixed);
}

#define US(p) ((p) * SIM_NS_PER_US)
#define JITTER_PARAM                                                                       \
	{ "jitter-pct", "spread of every drawn time: the exponential share of its mean", 20, 0, \
	  100 }

/*
 * Housekeeping: the kernel timers a loaded system always has besides the benchmark (TCP
 * and block-layer timers, vmstat and other delayed work, RCU), modelled as one timer per
 * CPU every `housekeeping-us`, at a random phase per CPU, each bringing
 * WL_HOUSEKEEPING_WORK_NS of work; 0 turns it off. workloads.c adds these items around the
 * model (which never sees them) from random stream WL_HOUSEKEEPING_STREAM, so a model
 * must not draw from that stream.
 *
 * Why it matters: without any timer, an IPI-driven loop on a fresh CPU gives menu a sleep
 * length of "no timer at all" and only its own history to correct it; a governor that starts
 * in the deepest state may then never see the short intervals it would need to leave it
 * (measured, `idlesim compare --workload tbench --housekeeping-us 0|10000 -m skl -g
 * oracle,menu@6.19 -n 3`: 3.2 MB/s, about 780 req/s, without; 176 MB/s, about 43,000
 * req/s, with). Real machines always have such timers; the
 * default is an assumption, documented in README, that a user can change.
 */
#define HOUSEKEEPING_PARAM(def_us)                                                           \
	{ "housekeeping-us", "period of one housekeeping timer per CPU (0: none)", def_us, 0, \
	  10000000 }
#define WL_HOUSEKEEPING_WORK_NS 2000
#define WL_HOUSEKEEPING_STREAM (LOOP_STREAMS - 1)

struct wl_param {
	const char *name; /* option name without the dashes: "clients", "msg-bytes" */
	const char *help;
	int64_t def, min, max;
};

struct workload {
	const char *name;     /* "tbench" */
	const char *summary;  /* one line: what it runs */
	const char *imitates; /* the benchmark family, as README says it */
	const struct wl_param *params;
	unsigned int nr_params;
	/* "req/s" or "MB/s"; NULL when it has no throughput (cyclictest, idle, ...). */
	const char *throughput_unit;
	/* CPUs it uses for these parameters (the machine must have at least as many). */
	int (*nr_cpus)(const int64_t *params);
	size_t model_size; /* bytes of model state, zeroed before init */
	int (*init)(void *model, const int64_t *params, int nr_cpus, struct sim_error *err);
	void (*fini)(void *model); /* optional */
	const struct loop_model_ops *ops;
};

unsigned int workload_count(void);
const struct workload *workload_get(unsigned int i);
const struct workload *workload_find(const char *name);
int workload_param_index(const struct workload *w, const char *name); /* -1 if none */
void workload_defaults(const struct workload *w, int64_t *params);
/* Range checks with messages naming the option (--NAME). */
int workload_check_params(const struct workload *w, const int64_t *params, struct sim_error *err);

/*
 * Run one cell in closed loop: machine, governor and knobs from cfg (its nr_cpus is set
 * here from the workload; an error if the machine has fewer CPUs). Deterministic for a
 * seed; thread-safe (no shared state). Release *out with loop_result_release().
 */
int workload_run(const struct workload *w, const int64_t *params, const struct sim_config *cfg,
		 int64_t duration_ns, uint64_t seed, struct loop_result *out, struct sim_error *err);

/* Throughput of a result in w->throughput_unit; NAN when the workload has none. */
double workload_throughput(const struct workload *w, const struct loop_result *r);

/* Write the workload as a native trace (idlesim gen): its zero-exit-latency timeline. */
int workload_write_trace(const struct workload *w, const int64_t *params, int64_t duration_ns,
			 uint64_t seed, const struct trace_header *hdr, FILE *f, struct sim_error *err);

#endif
