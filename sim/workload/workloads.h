/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * workloads.h - benchmark-like workload models, run in closed loop inside the engine
 * (sim/sched/loop.h), and written as traces by `idlesim gen` (their zero-exit-latency timeline).
 *
 * Each model imitates a benchmark family the governor debates use (netperf, tbench,
 * dbench, sockperf, hackbench, cyclictest, an idle system, the powernightmares pattern).
 * Parameters are integers with units in their names (`msg-bytes`, `period-us`); every one
 * has a default and a range, and is given on the command line as --NAME VALUE; `compare`
 * also accepts comma-separated lists for one of them (--clients 1,2,4,8).
 */
#ifndef IDLESIM_WORKLOADS_H
#define IDLESIM_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/common.h"
#include "sim/base/error.h"
#include "sim/machine/machine.h"
#include "sim/sched/loop.h"
#include "sim/trace/trace.h"

#define WL_MAX_PARAMS 24

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
 * The kernel's timers around a model: its timer world (docs/workloads.md "Timers").
 * workloads.c adds them around the model, which never sees their items, from random stream
 * WL_HOUSEKEEPING_STREAM (a model must not draw from it). Every model but `idle` has these
 * parameters; `--housekeeping PRESET` sets them all to a named world (workload_preset()):
 *
 *  housekeeping-us  one timer-wheel timer per CPU every P us (0: none), each bringing
 *                   WL_HOUSEKEEPING_WORK_NS of work; at a random phase per CPU, or, with
 *  housekeeping-aligned 1, at multiples of P on every CPU (the periodic tick of a kernel
 *                   that never stops it, nohz=off: its handler is the timer, and the
 *                   governor's sleep length is the next tick);
 *  watchdog-ms      the soft-lockup watchdog's per-CPU hrtimer (kernel/watchdog.c: every
 *                   2 * watchdog_thresh / 5 s, 4 s with the default watchdog_thresh = 10),
 *                   at a random phase per CPU, WL_WATCHDOG_WORK_NS of work (it queues the
 *                   stopper thread); 0 models `nowatchdog`;
 *  vmstat-ms        mm/vmstat.c's per-CPU vmstat_work, a deferrable timer (never wakes an
 *                   idle CPU, not in its sleep length) every round_jiffies_relative(P ms);
 *  kernel-timers    1: the timers the benchmark's kernel work arms (the model's ktimers
 *                   table and what its code arms: TCP, the journal, RCU callbacks, ...);
 *  tmigr            1: v6.9+ timer migration (loop_world.tmigr), 0: the push model before;
 *  rcu-jiffies      RCU callbacks a model's work queues keep its CPU's tick until the
 *                   tick this many jiffies on (rcu_needs_cpu(); a grace period plus the
 *                   invocation, an assumption: docs/workloads.md).
 */
#define HOUSEKEEPING_PARAMS(def_us, def_wd_ms)                                                  \
	{ "housekeeping-us", "period of a housekeeping timer per CPU (0: none)", def_us, 0,      \
	  10000000 },                                                                            \
	{ "housekeeping-aligned", "1: housekeeping timers at multiples of their period (a tick)", \
	  0, 0, 1 },                                                                             \
	{ "watchdog-ms", "soft-lockup watchdog hrtimer period per CPU (0: nowatchdog)",          \
	  def_wd_ms, 0, 1000000 },                                                               \
	{ "vmstat-ms", "deferrable vmstat_work period per CPU (0: none)", 1000, 0, 1000000 },   \
	{ "kernel-timers", "1: the kernel timers the benchmark's work arms", 1, 0, 1 },          \
	{ "tmigr", "1: timer migration of v6.9+ (pull), 0: before (push)", 1, 0, 1 },           \
	{ "rcu-jiffies", "ticks RCU callbacks keep a CPU's tick after the work that queued them", \
	  3, 1, 1000 }
#define WL_HOUSEKEEPING_NR 7 /* the entries of HOUSEKEEPING_PARAMS */

/*
 * The scheduler around a model whose threads are tasks (workload.unbound or pinned RT
 * threads; docs/scheduler.md):
 *  placement          1 (sched): the scheduler places, queues and balances the tasks over
 *                     the machine's CPUs (the first --cpus N of them if set); 0 (pinned):
 *                     thread j runs on CPU j mod N, as before the scheduler
 *                     (`--placement pinned|sched` on the command line);
 *  migration-cost-us  sysctl_sched_migration_cost (cache-hot time, avg_idle's cap);
 *  base-slice-us      sysctl_sched_base_slice (0: the kernel's, scaled by the CPU count);
 *  newidle-cost-ns    each domain's max_newidle_lb_cost: what a newly-idle balance is
 *                     assumed to cost (its avg_idle test), an assumption.
 */
#define SCHED_PARAMS                                                                          \
	{ "placement", "1 (sched): the scheduler places the tasks; 0 (pinned): fixed CPUs", 1, 0, \
	  1 },                                                                                    \
	{ "migration-cost-us", "sysctl_sched_migration_cost: a task is cache-hot this long", 500, \
	  0, 1000000 },                                                                           \
	{ "base-slice-us", "sysctl_sched_base_slice (0: the kernel's for the CPU count)", 0, 0,   \
	  100000 },                                                                               \
	{ "newidle-cost-ns", "assumed cost of a newly-idle balance per domain level", 5000, 0,    \
	  10000000 },                                                                             \
	{ "migrate-refill-ns", "CPU time a task loses refilling caches after it moves (0: none)", \
	  0, 0, 10000000 }
#define WL_SCHED_NR 5 /* the entries of SCHED_PARAMS */
#define WL_HOUSEKEEPING_WORK_NS 2000
#define WL_WATCHDOG_WORK_NS 2000
#define WL_VMSTAT_WORK_NS 5000
#define WL_WATCHDOG_DEFAULT_MS 4000
#define WL_HOUSEKEEPING_STREAM (LOOP_STREAMS - 1)

/*
 * A periodic kernel timer a benchmark's kernel work keeps pending (with kernel-timers 1):
 * one per system, first armed on CPU 0 at a random phase, re-armed by its callback on the
 * CPU that ran it (a timer-wheel timer, global unless pinned). Timers the model's own code
 * arms and pushes forward (TCP's) are its armed_timer() instead.
 */
struct wl_ktimer {
	const char *function; /* the kernel's callback, as a trace's timer events name it */
	const char *source;   /* where its period comes from */
	int64_t period_ns;
	int64_t work_ns; /* what its callback and the work it queues cost (an assumption) */
	bool pinned;
};

struct wl_param {
	const char *name; /* option name without the dashes: "clients", "msg-bytes" */
	const char *help;
	int64_t def, min, max;
};

struct workload {
	const char *name;     /* "tbench" */
	const char *summary;  /* one line: what it runs */
	const char *imitates; /* the benchmark family, as docs/workloads.md says it */
	const struct wl_param *params;
	unsigned int nr_params;
	/* "req/s" or "MB/s"; NULL when it has no throughput (cyclictest, idle, ...). */
	const char *throughput_unit;
	/* It reports request latency even without a throughput (cyclictest: its figure is the
	 * latency of timer wakeups, which the engine's irq/ipi wake latency leaves out). */
	bool reports_latency;
	/* CPUs it uses for these parameters (the machine must have at least as many) with
	 * placement pinned; with the scheduler see workload_nr_cpus(). */
	int (*nr_cpus)(const int64_t *params);
	/* Its threads are tasks the scheduler may place anywhere (MMTests' -unbound runs):
	 * with placement sched it runs on every CPU of the machine, or on --cpus N. */
	bool unbound;
	/* MMTests' sweep of it (`compare --clients mmtests`): parameter mmtests_param from 1
	 * in powers of two up to mmtests_per_cpu x the CPUs (at most mmtests_max, if set),
	 * which ends it; NULL: none. */
	const char *mmtests_param;
	int mmtests_per_cpu, mmtests_max;
	/* The tasks (tids) a run has for these parameters, at most LOOP_MAX_TASKS (NULL: it has
	 * none), and the parameters that set the count ("groups", "fds": NULL after the last)
	 * with the rule ("2 x groups x fds"), which the message of a count beyond it names. */
	int64_t (*nr_tasks)(const int64_t *params);
	const char *tasks_from[3];
	const char *tasks_rule;
	size_t model_size; /* bytes of model state, zeroed before init */
	const struct wl_ktimer *ktimers; /* with kernel-timers 1 (may be NULL) */
	unsigned int nr_ktimers;
	int (*init)(void *model, const int64_t *params, int nr_cpus, struct sim_error *err);
	void (*fini)(void *model); /* optional */
	const struct loop_model_ops *ops;
};

/*
 * The CPUs a run of w uses on machine m (NULL: none, as gen): w->nr_cpus(), or with the
 * scheduler for an unbound model, --cpus N if set, else every CPU of m (without m: one
 * per thread, as pinned).
 */
int workload_nr_cpus(const struct workload *w, const int64_t *params, const struct machine *m);
/* The machine has the CPUs the parameters need; else err names the option and the limit
 * (--cpus N with the scheduler; the threads' count pinned). Returns 0 or -1. */
int workload_fits(const struct workload *w, const int64_t *params, const struct machine *m,
		  const char *with, struct sim_error *err);
/* Whether the parameters put the scheduler in the loop (placement 1). */
bool workload_sched(const struct workload *w, const int64_t *params);
/* A parameter given as a word: placement's "pinned" and "sched" are "0" and "1" (and "0"
 * and "1" themselves; anything else is NULL); any other parameter's text is returned as
 * it is. */
const char *workload_param_word(const struct workload *w, int k, const char *text);
/* The word a value of parameter k prints as ("sched"), or NULL: it prints as a number. */
const char *workload_param_value_word(const struct workload *w, int k, int64_t v);
/* Whether parameter k matters with these parameters: the scheduler's (SCHED_PARAMS) do
 * not with placement pinned, so a pinned run reports what it did before the scheduler. */
bool workload_param_applies(const struct workload *w, const int64_t *params, int k);

/*
 * MMTests' sweep of w's mmtests_param on nr_cpus CPUs: 1, 2, 4, ... below per_cpu x nr_cpus,
 * then that, at most max values (and the parameter's range). Returns how many, or -1 with
 * err set (w has no such sweep).
 */
int workload_mmtests_sweep(const struct workload *w, int nr_cpus, int64_t *values, int max,
			   struct sim_error *err);

unsigned int workload_count(void);
const struct workload *workload_get(unsigned int i);
const struct workload *workload_find(const char *name);
int workload_param_index(const struct workload *w, const char *name); /* -1 if none */
void workload_defaults(const struct workload *w, int64_t *params);
/*
 * --housekeeping NAME: set the model's timer-world parameters (HOUSEKEEPING_PARAMS) to the
 * preset NAME (nohz-6.12, the default, nohz-6.1, none, nohz-idle, hz-tick-100, hz-tick-250,
 * hz-tick-1000, legacy-10ms; docs/workloads.md "Timers"). Returns 0, or -1 with err set
 * (unknown name, or a model without them).
 */
int workload_preset(const struct workload *w, const char *name, int64_t *params,
		    struct sim_error *err);
/* The preset names, for help texts: "none, nohz-idle, ...". */
const char *workload_preset_names(void);
/* The tick rate a preset is (hz-tick-100: 100, ...), or 0: it runs at the HZ it is given. */
int workload_preset_hz(const char *name);
/*
 * The HZ to run a preset at: `hz` (given, or 0), else the preset's own, else 0 (the
 * default). A given HZ that contradicts the preset's is an error naming `cmd`.
 */
int workload_preset_run_hz(const char *cmd, const char *name, int hz, int *out,
			   struct sim_error *err);
/* Range checks with messages naming the option (--NAME), and the task count's (at most
 * LOOP_MAX_TASKS: the message names the options that set it). */
int workload_check_params(const struct workload *w, const int64_t *params, struct sim_error *err);

/*
 * Run one cell in closed loop: machine, governor and knobs from cfg (its nr_cpus is set
 * here from the workload; an error if the machine has fewer CPUs). Deterministic for a
 * seed; thread-safe (no shared state). Release *out with loop_result_release().
 */
int workload_run(const struct workload *w, const int64_t *params, const struct sim_config *cfg,
		 int64_t duration_ns, uint64_t seed, struct loop_result *out, struct sim_error *err);

/* workload_run() that also keeps what ran where (loop_run_timeline(); tl NULL: nothing). */
int workload_run_timeline(const struct workload *w, const int64_t *params,
			  const struct sim_config *cfg, int64_t duration_ns, uint64_t seed,
			  const struct loop_timeline *tl, struct loop_result *out,
			  struct sim_error *err);
/*
 * workload_run() with the tasks bound to the CPUs of affinity[0..affinity_top-1]
 * (--affinity; NULL: every CPU the model uses); an error if it names a CPU beyond them
 * or the model runs pinned (workload_check_affinity()); tl as workload_run_timeline().
 */
int workload_run_on(const struct workload *w, const int64_t *params, const bool *affinity,
		    int affinity_top, const struct sim_config *cfg, int64_t duration_ns,
		    uint64_t seed, const struct loop_timeline *tl, struct loop_result *out,
		    struct sim_error *err);
/* --affinity naming CPUs up to affinity_top - 1 for w on machine m: 0, or -1 with a
 * message naming the option and the limit. */
int workload_check_affinity(const struct workload *w, const int64_t *params,
			    const struct machine *m, int affinity_top, struct sim_error *err);

/* Throughput of a result in w->throughput_unit; NAN when the workload has none. */
double workload_throughput(const struct workload *w, const struct loop_result *r);

/*
 * A periodic timer of a user's own machine (gen --timers-from, a trace's timer census): on
 * the model's CPU `cpu`, first at a random phase, then every period_ns: an hrtimer forwarded
 * by its period, or a timer-wheel timer its callback re-arms (pinned or global, deferrable
 * or not), each bringing WL_HOUSEKEEPING_WORK_NS of work.
 */
struct wl_timer {
	int cpu;
	int64_t period_ns;
	bool hrtimer, pinned, deferrable;
};
struct wl_timers {
	const struct wl_timer *t;
	size_t n;
};

/*
 * Write the workload as a native trace (idlesim gen): its zero-exit-latency timeline, with
 * the extra timers (NULL: none). A progress bar goes to `progress` after 2 s (NULL: none;
 * sim/base/progress.h).
 */
int workload_write_trace(const struct workload *w, const int64_t *params,
			 const struct wl_timers *extra, int64_t duration_ns, uint64_t seed,
			 const struct trace_header *hdr, FILE *f, FILE *progress,
			 struct sim_error *err);

#endif
