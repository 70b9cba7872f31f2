// SPDX-License-Identifier: GPL-2.0-only
/*
 * workloads.c - the table of benchmark-like workload models, their parameters, and the
 * two ways to use one: a closed-loop run on a machine through a governor (workload_run),
 * and its zero-exit-latency timeline written as a trace (workload_write_trace, for gen).
 *
 * The models live in workload_net.c (netperf-udp, sockperf, tbench, dbench: messages and
 * I/O between threads) and workload_sys.c (hackbench, cyclictest, idle, powernightmares).
 * Each is one const struct workload; the table below is the only list of them.
 *
 * A run allocates the model's state (model_size bytes, zeroed), initializes it from the
 * parameters, lets the loop (sim/sched/loop.c) drive it, and frees it: nothing is shared between
 * runs, so any number can run at once in different threads.
 */
#include "sim/workload/workloads.h"
#include "sim/engine/wheel.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"

#include <math.h>
#include <string.h>

extern const struct workload wl_netperf_udp;
extern const struct workload wl_sockperf;
extern const struct workload wl_tbench;
extern const struct workload wl_dbench;
extern const struct workload wl_hackbench;
extern const struct workload wl_cyclictest;
extern const struct workload wl_idle;
extern const struct workload wl_powernightmares;

static const struct workload *const workloads[] = {
	&wl_netperf_udp, &wl_sockperf,	 &wl_tbench, &wl_dbench,
	&wl_hackbench,	 &wl_cyclictest, &wl_idle,   &wl_powernightmares,
};

unsigned int workload_count(void)
{
	return SIM_ARRAY_SIZE(workloads);
}

const struct workload *workload_get(unsigned int i)
{
	return i < SIM_ARRAY_SIZE(workloads) ? workloads[i] : NULL;
}

const struct workload *workload_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < SIM_ARRAY_SIZE(workloads); i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

int workload_param_index(const struct workload *w, const char *name)
{
	unsigned int i;

	for (i = 0; i < w->nr_params; i++)
		if (!strcmp(w->params[i].name, name))
			return (int)i;
	return -1;
}

void workload_defaults(const struct workload *w, int64_t *params)
{
	unsigned int i;

	for (i = 0; i < w->nr_params; i++)
		params[i] = w->params[i].def;
}

/*
 * A task count beyond LOOP_MAX_TASKS would stop the run at the first item of a task past
 * it; it is refused here, before anything runs or is written, naming the options that set
 * it: "hackbench --groups 129 --fds 256: 66048 tasks (2 x groups x fds); ...".
 */
static int check_tasks(const struct workload *w, const int64_t *params, struct sim_error *err)
{
	int64_t n = w->nr_tasks ? w->nr_tasks(params) : 0;
	char opts[128] = "";
	size_t used = 0;
	unsigned int i;

	if (n <= LOOP_MAX_TASKS)
		return 0;
	for (i = 0; i < SIM_ARRAY_SIZE(w->tasks_from) && w->tasks_from[i] && used < sizeof(opts);
	     i++)
		used += (size_t)snprintf(opts + used, sizeof(opts) - used, " --%s %lld",
					 w->tasks_from[i],
					 (long long)params[workload_param_index(w, w->tasks_from[i])]);
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "%s%s: %lld tasks (%s); a run has at most %d", w->name, opts,
			     (long long)n, w->tasks_rule, LOOP_MAX_TASKS);
}

int workload_check_params(const struct workload *w, const int64_t *params, struct sim_error *err)
{
	unsigned int i;

	for (i = 0; i < w->nr_params; i++) {
		const struct wl_param *p = &w->params[i];

		if (params[i] < p->min || params[i] > p->max)
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "%s --%s: %lld is out of range (%lld..%lld)", w->name,
					     p->name, (long long)params[i], (long long)p->min,
					     (long long)p->max);
	}
	return check_tasks(w, params, err);
}

/* A parameter's value (0 for a model without it). */
static int64_t param_of(const struct workload *w, const int64_t *params, const char *name)
{
	int k = workload_param_index(w, name);

	return k >= 0 ? params[k] : 0;
}

bool workload_sched(const struct workload *w, const int64_t *params)
{
	return param_of(w, params, "placement") != 0;
}

const char *workload_param_word(const struct workload *w, int k, const char *text)
{
	if (k < 0 || strcmp(w->params[k].name, "placement"))
		return text;
	if (!strcmp(text, "pinned"))
		return "0";
	if (!strcmp(text, "sched"))
		return "1";
	if (!strcmp(text, "0") || !strcmp(text, "1"))
		return text;
	return NULL;
}

const char *workload_param_value_word(const struct workload *w, int k, int64_t v)
{
	if (k < 0 || strcmp(w->params[k].name, "placement"))
		return NULL;
	return v ? "sched" : "pinned";
}

bool workload_param_applies(const struct workload *w, const int64_t *params, int k)
{
	int first = workload_param_index(w, "placement");

	return first < 0 || k < first || k >= first + WL_SCHED_NR || workload_sched(w, params);
}

int workload_mmtests_sweep(const struct workload *w, int nr_cpus, int64_t *values, int max,
			   struct sim_error *err)
{
	int k = w->mmtests_param ? workload_param_index(w, w->mmtests_param) : -1, n = 0;
	int64_t top, v;

	if (k < 0)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "%s: no MMTests sweep (mmtests is a value of tbench's and "
				     "dbench's --clients and hackbench's --groups)",
				     w->name);
	top = sim_min64((int64_t)w->mmtests_per_cpu * nr_cpus, w->params[k].max);
	if (w->mmtests_max)
		top = sim_min64(top, w->mmtests_max);
	for (v = 1; v < top && n < max - 1; v *= 2)
		values[n++] = v;
	values[n++] = top;
	return n;
}

int workload_fits(const struct workload *w, const int64_t *params, const struct machine *m,
		  const char *with, struct sim_error *err)
{
	int need = workload_nr_cpus(w, params, m), have = machine_nr_cpus(m);

	if (need <= have)
		return 0;
	if (w->unbound && workload_sched(w, params))
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "%s --cpus %d: machine %s has %d CPUs (the scheduler places "
				     "the tasks on --cpus 1..%d of them, 0: all)",
				     w->name, need, m->name, have, have);
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "workload %s needs %d CPUs%s, but machine %s has %d%s", w->name, need,
			     with, m->name, have,
			     w->unbound ? " (--placement sched shares them among its tasks)"
			     : workload_param_index(w, "cpus") >= 0
				     ? " (--cpus N shares fewer CPUs among its threads)"
				     : "");
}

int workload_nr_cpus(const struct workload *w, const int64_t *params, const struct machine *m)
{
	if (!w->unbound || !workload_sched(w, params))
		return w->nr_cpus(params);
	if (param_of(w, params, "cpus"))
		return (int)param_of(w, params, "cpus");
	return m ? machine_nr_cpus(m) : w->nr_cpus(params);
}

/* Checked parameters, the CPU count, and the model's state initialized from them. */
static void *model_create(const struct workload *w, const int64_t *params, int64_t duration_ns,
			  const struct machine *m, int *nr_cpus, struct sim_error *err)
{
	void *model;

	if (workload_check_params(w, params, err))
		return NULL;
	if (duration_ns <= 0) {
		sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "%s: the duration must be positive",
			      w->name);
		return NULL;
	}
	*nr_cpus = workload_nr_cpus(w, params, m);
	if (*nr_cpus < 1 || *nr_cpus > MACHINE_MAX_CPUS) {
		sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			      "%s: these parameters need %d CPUs; at most %d are possible", w->name,
			      *nr_cpus, MACHINE_MAX_CPUS);
		return NULL;
	}
	model = sim_calloc(1, w->model_size);
	if (!model) {
		sim_error_nomem(err, "");
		return NULL;
	}
	if (w->init(model, params, *nr_cpus, err)) {
		if (w->fini)
			w->fini(model);
		sim_free(model);
		return NULL;
	}
	return model;
}

/*
 * The kernel's timers (workloads.h) wrapped around a model: their items carry kinds below
 * HK_KIND, which no model uses, and never reach the model's done().
 */
#define HK_KIND (-1000)
#define WD_KIND (-1001)
#define VM_KIND (-1002)
#define KT_KIND(i) (-1100 - (int)(i)) /* the model's ktimers[i] */
#define EX_KIND(i) (-2000 - (int)(i)) /* extra timers[i] (gen --timers-from) */

struct hk_model {
	const struct loop_model_ops *ops;
	void *model;
	int nr_cpus;
	int64_t period_ns; /* housekeeping timer, 0: none */
	bool aligned;
	int64_t watchdog_ns; /* watchdog hrtimer, 0: none */
	int64_t vmstat_ns;   /* deferrable vmstat_work, 0: none */
	const struct wl_ktimer *kt;
	unsigned int nr_kt;
	const struct wl_timers *extra;
	struct loop_world world;
};

static bool is_hk(int kind)
{
	return kind <= HK_KIND;
}

/* vmstat_work's next expiry after now on `cpu`: round_jiffies_relative(), on the wheel. */
static int64_t vmstat_next(const struct hk_model *h, struct loop *L, int cpu)
{
	const struct jiffy_grid *g = loop_grid(L);
	int64_t now = jiffy_of(g, loop_now(L));
	int64_t j = round_jiffies_abs(g->hz, cpu, now + jiffies_round_up(g, h->vmstat_ns), now,
				      false);

	return jiffy_edge_ns(g, wheel_bucket_expiry(g->hz, j, now));
}

static int hk_send(struct loop *L, int cpu, int kind, int64_t at_ns, int64_t work_ns,
		   struct sim_error *err)
{
	struct loop_item it = { 0 };

	it.cpu = cpu;
	it.arrival_ns = at_ns;
	it.work_ns = work_ns;
	it.cause = WAKE_TIMER;
	it.hrtimer = kind == WD_KIND;
	it.deferrable = kind == VM_KIND;
	it.kind = kind;
	it.stamp_ns = at_ns;
	return loop_send(L, &it, err);
}

static int kt_send(const struct hk_model *h, struct loop *L, int cpu, unsigned int i,
		   int64_t at_ns, struct sim_error *err)
{
	struct loop_item it = { 0 };

	it.cpu = cpu;
	it.arrival_ns = at_ns;
	it.work_ns = h->kt[i].work_ns;
	it.cause = WAKE_TIMER;
	it.global = !h->kt[i].pinned;
	it.kind = KT_KIND(i);
	it.stamp_ns = at_ns;
	return loop_send(L, &it, err);
}

static int ex_send(const struct hk_model *h, struct loop *L, size_t i, int64_t at_ns,
		   struct sim_error *err)
{
	const struct wl_timer *x = &h->extra->t[i];
	struct loop_item it = { 0 };

	it.cpu = x->cpu;
	it.arrival_ns = x->hrtimer ? at_ns : loop_jiffy_edge(L, at_ns);
	it.work_ns = WL_HOUSEKEEPING_WORK_NS;
	it.cause = WAKE_TIMER;
	it.hrtimer = x->hrtimer;
	it.deferrable = !x->hrtimer && x->deferrable;
	it.global = !x->hrtimer && !x->pinned;
	it.kind = EX_KIND(i);
	it.stamp_ns = at_ns;
	return loop_send(L, &it, err);
}

/* The housekeeping timer: a wheel timer at a random phase, or the tick's own edges. */
static int64_t hk_first(const struct hk_model *h, struct loop *L)
{
	if (h->aligned)
		return loop_jiffy_edge(L, loop_now(L) + h->period_ns);
	return loop_jiffy_edge(L, loop_now(L) +
					  loop_uniform(L, WL_HOUSEKEEPING_STREAM, 1, h->period_ns));
}

static int hk_start(void *model, struct loop *L, struct sim_error *err)
{
	struct hk_model *h = model;
	int64_t now = loop_now(L);
	unsigned int i;
	int cpu;

	if (loop_set_world(L, &h->world, err))
		return -1;
	for (cpu = 0; cpu < h->nr_cpus; cpu++) {
		if (h->period_ns &&
		    hk_send(L, cpu, HK_KIND, hk_first(h, L), WL_HOUSEKEEPING_WORK_NS, err))
			return -1;
		if (h->watchdog_ns &&
		    hk_send(L, cpu, WD_KIND,
			    now + loop_uniform(L, WL_HOUSEKEEPING_STREAM, 1, h->watchdog_ns),
			    WL_WATCHDOG_WORK_NS, err))
			return -1;
		if (h->vmstat_ns &&
		    hk_send(L, cpu, VM_KIND, vmstat_next(h, L, cpu), WL_VMSTAT_WORK_NS, err))
			return -1;
	}
	for (size_t x = 0; h->extra && x < h->extra->n; x++)
		if (h->extra->t[x].cpu < h->nr_cpus &&
		    ex_send(h, L, x,
			    now + loop_uniform(L, WL_HOUSEKEEPING_STREAM, 1, h->extra->t[x].period_ns),
			    err))
			return -1;
	for (i = 0; i < h->nr_kt; i++)
		if (kt_send(h, L, 0, i,
			    loop_jiffy_edge(L, now + loop_uniform(L, WL_HOUSEKEEPING_STREAM, 1,
								 h->kt[i].period_ns)),
			    err))
			return -1;
	return h->ops->start(h->model, L, err);
}

static int hk_done(void *model, struct loop *L, const struct loop_item *it, int64_t t,
		   struct sim_error *err)
{
	struct hk_model *h = model;
	int64_t period, next;

	if (!is_hk(it->kind))
		return h->ops->done(h->model, L, it, t, err);
	if (it->kind <= EX_KIND(0)) { /* hrtimer_forward(), or the callback re-arming it */
		const struct wl_timer *x = &h->extra->t[EX_KIND(0) - it->kind];

		period = x->period_ns;
		next = it->stamp_ns + ((sim_max64(t, it->stamp_ns) - it->stamp_ns) / period + 1) *
					      period;
		/* a wheel timer keeps the interval the trace recorded between its expiries
		 * (its re-arming's rounding is in it), on the grid: ex_send() moves it there */
		return ex_send(h, L, (size_t)(EX_KIND(0) - it->kind), next, err);
	}
	if (it->kind <= KT_KIND(0)) /* its callback re-arms it where it ran */
		return kt_send(h, L, it->cpu, (unsigned int)(KT_KIND(0) - it->kind),
			       loop_wheel_expiry(L, h->kt[KT_KIND(0) - it->kind].period_ns), err);
	if (it->kind == VM_KIND)
		return hk_send(L, it->cpu, VM_KIND, vmstat_next(h, L, it->cpu), WL_VMSTAT_WORK_NS,
			       err);
	/* Strictly periodic after the phase (hrtimer_forward, or the tick's next period); a
	 * timer that ran late is not repeated, its next expiry is the next period after t. A
	 * housekeeping wheel timer's next expiry is then moved up to the grid. */
	period = it->kind == WD_KIND ? h->watchdog_ns : h->period_ns;
	next = it->stamp_ns + period > t
		       ? it->stamp_ns + period
		       : it->stamp_ns + ((t - it->stamp_ns) / period + 1) * period;
	return hk_send(L, it->cpu, it->kind, it->kind == WD_KIND ? next : loop_jiffy_edge(L, next),
		       it->kind == WD_KIND ? WL_WATCHDOG_WORK_NS : WL_HOUSEKEEPING_WORK_NS, err);
}

static int64_t hk_armed_timer(void *model, int cpu, int64_t t)
{
	struct hk_model *h = model;

	return h->ops->armed_timer ? h->ops->armed_timer(h->model, cpu, t) : SIM_TIME_NEVER;
}

static const char *hk_task_comm(void *model, int tid)
{
	struct hk_model *h = model;

	return h->ops->task_comm ? h->ops->task_comm(h->model, tid) : "task";
}

static const struct loop_model_ops hk_ops = {
	.start = hk_start,
	.done = hk_done,
	.armed_timer = hk_armed_timer,
	.task_comm = hk_task_comm,
};

/* A timer-world parameter's value (0 for a model without them). */
static int64_t hk_param(const struct workload *w, const int64_t *params, const char *name)
{
	int k = workload_param_index(w, name);

	return k >= 0 ? params[k] : 0;
}

/* The ops and model to give the loop: the model itself, or it wrapped in its timers. */
static void hk_wrap(const struct workload *w, const int64_t *params,
		    const struct wl_timers *extra, void *model, int nr_cpus, struct hk_model *h,
		    const struct loop_model_ops **ops, void **arg)
{
	*ops = w->ops;
	*arg = model;
	memset(h, 0, sizeof(*h));
	h->period_ns = hk_param(w, params, "housekeeping-us") * SIM_NS_PER_US;
	h->aligned = hk_param(w, params, "housekeeping-aligned") != 0;
	h->watchdog_ns = hk_param(w, params, "watchdog-ms") * SIM_NS_PER_MS;
	h->vmstat_ns = hk_param(w, params, "vmstat-ms") * SIM_NS_PER_MS;
	if (hk_param(w, params, "kernel-timers")) {
		h->kt = w->ktimers;
		h->nr_kt = w->nr_ktimers;
	}
	h->extra = extra && extra->n ? extra : NULL;
	h->world.tmigr = hk_param(w, params, "tmigr") != 0;
	h->world.rcu_jiffies = (int)hk_param(w, params, "rcu-jiffies");
	h->world.sched = workload_sched(w, params);
	h->world.migration_cost_ns = hk_param(w, params, "migration-cost-us") * SIM_NS_PER_US;
	h->world.base_slice_ns = hk_param(w, params, "base-slice-us") * SIM_NS_PER_US;
	h->world.newidle_cost_ns = hk_param(w, params, "newidle-cost-ns");
	h->world.refill_ns = hk_param(w, params, "migrate-refill-ns");
	if (workload_param_index(w, "tmigr") < 0)
		return;
	h->ops = w->ops;
	h->model = model;
	h->nr_cpus = nr_cpus;
	*ops = &hk_ops;
	*arg = h;
}

/*
 * The presets of --housekeeping (docs/workloads.md "Timers" says what each models and why):
 * housekeeping-us, -aligned, watchdog-ms, vmstat-ms, kernel-timers, tmigr, rcu-jiffies.
 */
static const struct {
	const char *name;
	int64_t v[WL_HOUSEKEEPING_NR];
	int hz; /* a periodic tick is one at a given HZ; 0: any */
} presets[] = {
	{ "nohz-6.12", { 0, 0, WL_WATCHDOG_DEFAULT_MS, 1000, 1, 1, 3 }, 0 },
	{ "nohz-6.1", { 0, 0, WL_WATCHDOG_DEFAULT_MS, 1000, 1, 0, 3 }, 0 },
	{ "none", { 0, 0, 0, 0, 0, 0, 3 }, 0 },
	{ "nohz-idle", { 0, 0, WL_WATCHDOG_DEFAULT_MS, 0, 0, 0, 3 }, 0 },
	{ "hz-tick-100", { 10000, 1, WL_WATCHDOG_DEFAULT_MS, 0, 0, 0, 3 }, 100 },
	{ "hz-tick-250", { 4000, 1, WL_WATCHDOG_DEFAULT_MS, 0, 0, 0, 3 }, 250 },
	{ "hz-tick-1000", { 1000, 1, WL_WATCHDOG_DEFAULT_MS, 0, 0, 0, 3 }, 1000 },
	{ "legacy-10ms", { 10000, 0, 0, 0, 0, 0, 3 }, 0 },
};

int workload_preset_hz(const char *name)
{
	unsigned int i;

	for (i = 0; i < SIM_ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, name))
			return presets[i].hz;
	return 0;
}

int workload_preset_run_hz(const char *cmd, const char *name, int hz, int *out,
			   struct sim_error *err)
{
	int own = workload_preset_hz(name);

	if (hz && own && hz != own)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "%s: --housekeeping %s is a tick that never stops at HZ %d; "
				     "--hz %d contradicts it (without --hz it runs at HZ %d)",
				     cmd, name, own, hz, own);
	*out = hz ? hz : own;
	return 0;
}

const char *workload_preset_names(void)
{
	return "nohz-6.12, nohz-6.1, none, nohz-idle, hz-tick-100, hz-tick-250, hz-tick-1000, "
	       "legacy-10ms";
}

int workload_preset(const struct workload *w, const char *name, int64_t *params,
		    struct sim_error *err)
{
	int k = workload_param_index(w, "housekeeping-us");
	unsigned int i, j;

	if (k < 0)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "--housekeeping: workload %s has no kernel timers to set",
				     w->name);
	for (i = 0; i < SIM_ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, name)) {
			for (j = 0; j < WL_HOUSEKEEPING_NR; j++) /* HOUSEKEEPING_PARAMS' order */
				params[k + (int)j] = presets[i].v[j];
			return 0;
		}
	return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
			     "--housekeeping '%s': unknown preset (%s)", name,
			     workload_preset_names());
}

static void model_destroy(const struct workload *w, void *model)
{
	if (w->fini)
		w->fini(model);
	sim_free(model);
}

int workload_run(const struct workload *w, const int64_t *params, const struct sim_config *cfg,
		 int64_t duration_ns, uint64_t seed, struct loop_result *out, struct sim_error *err)
{
	return workload_run_on(w, params, NULL, 0, cfg, duration_ns, seed, NULL, out, err);
}

int workload_run_timeline(const struct workload *w, const int64_t *params,
			  const struct sim_config *cfg, int64_t duration_ns, uint64_t seed,
			  const struct loop_timeline *tl, struct loop_result *out,
			  struct sim_error *err)
{
	return workload_run_on(w, params, NULL, 0, cfg, duration_ns, seed, tl, out, err);
}

int workload_run_on(const struct workload *w, const int64_t *params, const bool *affinity,
		    int affinity_top, const struct sim_config *cfg, int64_t duration_ns,
		    uint64_t seed, const struct loop_timeline *tl, struct loop_result *out,
		    struct sim_error *err)
{
	struct sim_config c = *cfg;
	bool *mask = NULL;
	const struct loop_model_ops *ops;
	struct hk_model hk;
	void *model, *arg;
	int nr, rc;

	memset(out, 0, sizeof(*out));
	if (!cfg->machine || !cfg->gov)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "workload_run: no machine or no governor");
	model = model_create(w, params, duration_ns, cfg->machine, &nr, err);
	if (!model)
		return -1;
	if (workload_fits(w, params, cfg->machine, " with these parameters", err)) {
		model_destroy(w, model);
		return -1;
	}
	c.nr_cpus = nr;
	hk_wrap(w, params, NULL, model, nr, &hk, &ops, &arg);
	if (affinity && workload_sched(w, params)) {
		if (workload_check_affinity(w, params, cfg->machine, affinity_top, err)) {
			model_destroy(w, model);
			return -1;
		}
		mask = sim_calloc((size_t)nr, sizeof(*mask));
		if (!mask) {
			model_destroy(w, model);
			return sim_error_nomem(err, "");
		}
		memcpy(mask, affinity, (size_t)affinity_top * sizeof(*mask));
		hk.world.affinity = mask;
	}
	rc = loop_run_timeline(&c, ops, arg, duration_ns, seed, tl, out, err);
	model_destroy(w, model);
	sim_free(mask);
	return rc;
}

int workload_check_affinity(const struct workload *w, const int64_t *params,
			    const struct machine *m, int affinity_top, struct sim_error *err)
{
	int n = workload_nr_cpus(w, params, m);

	if (!workload_sched(w, params))
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "--affinity binds the scheduler's tasks; with --placement "
				     "pinned there are none");
	if (affinity_top > n)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "--affinity names CPU %d, but %s's tasks run on %d CPUs of "
				     "machine %s (0-%d%s)",
				     affinity_top - 1, w->name, n, m->name, n - 1,
				     n < machine_nr_cpus(m) ? ": --cpus" : "");
	return 0;
}

double workload_throughput(const struct workload *w, const struct loop_result *r)
{
	if (!w->throughput_unit || r->duration_s <= 0)
		return NAN;
	if (!strcmp(w->throughput_unit, "MB/s"))
		return (double)r->bytes / r->duration_s / 1e6;
	return (double)r->requests / r->duration_s;
}

int workload_write_trace(const struct workload *w, const int64_t *params,
			 const struct wl_timers *extra, int64_t duration_ns, uint64_t seed,
			 const struct trace_header *hdr, FILE *f, FILE *progress,
			 struct sim_error *err)
{
	const struct loop_model_ops *ops;
	struct hk_model hk;
	void *model, *arg;
	int nr, rc;

	model = model_create(w, params, duration_ns, NULL, &nr, err);
	if (!model)
		return -1;
	hk_wrap(w, params, extra, model, nr, &hk, &ops, &arg);
	rc = loop_write_ideal(ops, arg, nr, duration_ns, seed, hdr, f, progress, err);
	model_destroy(w, model);
	return rc;
}
