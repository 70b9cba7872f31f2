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

#include "sim/error.h"
#include "sim/loop.h"
#include "sim/trace.h"

#define WL_MAX_PARAMS 12

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
