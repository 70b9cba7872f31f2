// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare.c - run a comparison: the jobs, the thread pool, and the cells.
 *
 * Plan. The request is checked and resolved first, so that no thread starts on a request
 * that cannot finish: machines loaded once (with --topology) and their disabled masks,
 * governors found and their tunables set (--set), the parameters of each listed value
 * range-checked, every machine big enough for the workload, every metric known and
 * applicable. Then the jobs run: job j is (value, machine, governor, iteration), numbered
 * in that nesting order; it runs workload_run() with seed + iteration and keeps the
 * numbers of every metric in its own slot. Then the cells are built from the slots.
 *
 * Threads take the next job number under a lock; nothing else is shared while a job runs
 * (the machines, tunables and parameters are only read). After a failure no new job
 * starts; the error reported is the one of the lowest-numbered failed job, which always
 * ran (jobs are taken in order), so the message does not depend on the thread count.
 *
 * Metrics of one run (units in docs/compare.md):
 *   throughput           workload_throughput()
 *   latency_mean, _p99   request latency in us (lat_hist_mean, nearest-rank p99)
 *   energy_j             run_stats.energy_j
 *   idle_power_w         idle_energy_j / duration
 *   above/below/hits_pct stats_summarize() over all CPUs
 *   wake_latency_p99_ns  nearest-rank p99 of the irq/ipi wakeup latency
 *   residency_pct.S      turbostat's S% over all CPUs
 *
 * Residency is not a better-or-worse number by itself; we use the energy view: time in
 * the deepest enabled state is good (higher is better), time in any other state is time
 * that could have been spent deeper (lower is better). Its mean is always the arithmetic
 * one, because residencies of 0 are common and have no harmonic mean, and it stays out of
 * the Gmean, which would otherwise count energy several times over.
 */
#include "sim/run/compare.h"
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/base/common.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const struct {
	const char *name;
	bool higher_is_better;
	const char *unit;
} metric_info[COMPARE_M_RESIDENCY] = {
	[COMPARE_M_THROUGHPUT] = { "throughput", true, NULL },
	[COMPARE_M_LATENCY_MEAN] = { "latency_mean", false, "us" },
	[COMPARE_M_LATENCY_P99] = { "latency_p99", false, "us" },
	[COMPARE_M_ENERGY_J] = { "energy_j", false, "J" },
	[COMPARE_M_IDLE_POWER_W] = { "idle_power_w", false, "W" },
	[COMPARE_M_ABOVE_PCT] = { "above_pct", false, "%" },
	[COMPARE_M_BELOW_PCT] = { "below_pct", false, "%" },
	[COMPARE_M_HITS_PCT] = { "hits_pct", true, "%" },
	[COMPARE_M_WAKE_P99_NS] = { "wake_latency_p99_ns", false, "ns" },
	[COMPARE_M_WAKEUPS_IDLE_PCT] = { "wakeups_idle_pct", false, "%" },
	[COMPARE_M_RUN_DELAY_US] = { "run_delay_us", false, "us" },
	[COMPARE_M_MIGRATIONS_PER_S] = { "migrations_per_s", false, "/s" },
	[COMPARE_M_PULLS_PER_S] = { "newidle_pulls_per_s", false, "/s" },
	[COMPARE_M_BALANCE_PULLS_PER_S] = { "balance_pulls_per_s", false, "/s" },
};

static bool sched_metric(int metric)
{
	return metric >= COMPARE_M_WAKEUPS_IDLE_PCT && metric <= COMPARE_M_BALANCE_PULLS_PER_S;
}


#define RESIDENCY_PREFIX "residency_pct."

const char *compare_metric_name(int metric)
{
	return metric >= 0 && metric < COMPARE_M_RESIDENCY ? metric_info[metric].name
						       : RESIDENCY_PREFIX;
}

bool compare_metric_higher_is_better(int metric)
{
	return metric >= 0 && metric < COMPARE_M_RESIDENCY && metric_info[metric].higher_is_better;
}

const char *compare_metric_unit(const struct workload *wl, int metric)
{
	if (metric == COMPARE_M_THROUGHPUT)
		return wl->throughput_unit ? wl->throughput_unit : "";
	return metric >= 0 && metric < COMPARE_M_RESIDENCY ? metric_info[metric].unit : "%";
}

bool compare_metric_applies(const struct workload *wl, int metric)
{
	/* Request throughput and latency come from workloads that serve requests; latency
	 * also from those that report it alone (cyclictest). */
	if (metric == COMPARE_M_THROUGHPUT)
		return wl->throughput_unit != NULL;
	if (metric == COMPARE_M_LATENCY_MEAN || metric == COMPARE_M_LATENCY_P99)
		return wl->throughput_unit != NULL || wl->reports_latency;
	return true;
}

void compare_request_defaults(struct compare_request *req)
{
	memset(req, 0, sizeof(*req));
	run_request_defaults(&req->knobs);
	req->vary = -1;
	req->iterations = COMPARE_DEFAULT_ITERATIONS;
	req->seed = 1;
	req->duration_ns = COMPARE_DEFAULT_DURATION_NS;
}

/* ---- resolving the request ---- */

struct slot {
	double v[COMPARE_M_NR];
	struct loop_sched_stats sched; /* first iterations only (moved to the result) */
	bool failed;
	struct sim_error err;
};

struct plan {
	const struct compare_request *req;
	struct machine *mach;
	uint32_t *mask;
	const struct cpuidle_governor *gov[RUN_MAX_ITEMS];
	long long *gov_params[RUN_MAX_ITEMS];
	int64_t (*params)[WL_MAX_PARAMS]; /* per row: world * nr_values + value */
	int nr_values;
	int nr_worlds; /* 1 without a --housekeeping list */
	int nr_rows;
	int hz;
	int world_hz[COMPARE_MAX_WORLDS]; /* per world (one without a list) */
	long nr_jobs;
	struct slot *slots;
	/* the pool */
	pthread_mutex_t lock;
	long next, done;
	bool stop;
};

/* The scheduler runs in some row of the plan (placement sched). */
static bool plan_has_sched(const struct plan *pl)
{
	int v;

	for (v = 0; v < pl->nr_rows; v++)
		if (workload_sched(pl->req->wl, pl->params[v]))
			return true;
	return false;
}

bool compare_request_sched(const struct compare_request *req)
{
	int64_t p[WL_MAX_PARAMS];
	int v;

	memcpy(p, req->params, sizeof(p));
	if (req->vary < 0)
		return workload_sched(req->wl, p);
	for (v = 0; v < req->nr_values; v++) {
		p[req->vary] = req->values[v];
		if (workload_sched(req->wl, p))
			return true;
	}
	return false;
}

int compare_metric_lookup(const char *name)
{
	int i;

	for (i = 0; i < COMPARE_M_RESIDENCY; i++)
		if (!strcmp(name, metric_info[i].name))
			return i;
	if (!strncmp(name, RESIDENCY_PREFIX, strlen(RESIDENCY_PREFIX)) &&
	    name[strlen(RESIDENCY_PREFIX)])
		return COMPARE_M_RESIDENCY;
	return -1;
}

int compare_residency_state(const struct machine *m, const char *metric)
{
	const char *s = metric + strlen(RESIDENCY_PREFIX);
	int i;

	for (i = 0; i < m->state_count; i++)
		if (!strcasecmp(s, m->states[i].name))
			return i;
	return -1;
}

static int check_metrics(const struct plan *pl, struct sim_error *err)
{
	const struct compare_request *req = pl->req;
	int i, k, id;

	for (i = 0; i < req->nr_metrics; i++) {
		const char *name = req->metrics[i];

		id = compare_metric_lookup(name);
		if (id < 0)
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "--metric '%s': unknown (throughput, latency_mean, "
					     "latency_p99, energy_j, idle_power_w, above_pct, "
					     "below_pct, hits_pct, wake_latency_p99_ns, "
					     "wakeups_idle_pct, run_delay_us, migrations_per_s, "
					     "newidle_pulls_per_s, balance_pulls_per_s, "
					     "residency_pct.STATE)",
					     name);
		if (!compare_metric_applies(req->wl, id))
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "--metric %s: workload %s serves no requests", name,
					     req->wl->name);
		if (sched_metric(id) && !plan_has_sched(pl))
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "--metric %s: the scheduler is not in the loop "
					     "(workload %s with --placement sched)",
					     name, req->wl->name);
		if (id != COMPARE_M_RESIDENCY)
			continue;
		for (k = 0; k < req->nr_machines; k++)
			if (compare_residency_state(&pl->mach[k], name) >= 0)
				break;
		if (k == req->nr_machines)
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "--metric %s: no compared machine has idle state '%s'",
					     name, name + strlen(RESIDENCY_PREFIX));
	}
	return 0;
}

static int check_request(const struct compare_request *req, struct sim_error *err)
{
	if (!req->wl)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "compare: no workload");
	if (req->nr_governors < 1)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "compare: --governor is required (the first is the baseline)");
	if (req->nr_machines < 1)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "compare: --machine is required");
	if (req->iterations < 1 || req->iterations > 100000)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "compare: --iterations must be 1..100000, not %d",
				     req->iterations);
	if (req->duration_ns < 1)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "compare: the duration must be positive");
	if (req->vary >= (int)req->wl->nr_params ||
	    (req->vary >= 0 && (req->nr_values < 1 || req->nr_values > COMPARE_MAX_VALUES)) ||
	    req->nr_worlds < 0 || req->nr_worlds > COMPARE_MAX_WORLDS)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
				     "compare: bad list of parameter values");
	return 0;
}

static void plan_release(struct plan *pl)
{
	int i;

	for (i = 0; i < RUN_MAX_ITEMS; i++)
		sim_free(pl->gov_params[i]);
	sim_free(pl->mach);
	sim_free(pl->mask);
	sim_free(pl->params);
	for (i = 0; pl->slots && i < pl->nr_jobs; i++) { /* those not moved (a failed run) */
		sim_free(pl->slots[i].sched.cpu);
		sim_free(pl->slots[i].sched.task);
	}
	sim_free(pl->slots);
}

static int plan_machines(struct plan *pl, struct sim_error *err)
{
	const struct compare_request *req = pl->req;
	char with[96] = "";
	int i, v;

	pl->mach = sim_calloc((size_t)req->nr_machines, sizeof(*pl->mach));
	pl->mask = sim_calloc((size_t)req->nr_machines, sizeof(*pl->mask));
	if (!pl->mach || !pl->mask)
		return sim_error_nomem(err, "");
	for (i = 0; i < req->nr_machines; i++) {
		if (run_load_machine(&req->knobs, req->machines[i], &pl->mach[i], err) ||
		    run_disabled_mask(&req->knobs, &pl->mach[i], &pl->mask[i], err))
			return -1;
		for (v = 0; v < pl->nr_rows; v++) {
			with[0] = '\0';
			if (req->vary >= 0)
				snprintf(with, sizeof(with), " with --%s %lld",
					 req->wl->params[req->vary].name,
					 (long long)pl->params[v][req->vary]);
			if (workload_fits(req->wl, pl->params[v], &pl->mach[i], with, err))
				return -1;
		}
	}
	return 0;
}

static int plan_make(struct plan *pl, const struct compare_request *req, struct sim_error *err)
{
	int i;

	memset(pl, 0, sizeof(*pl));
	pl->req = req;
	if (check_request(req, err))
		return -1;
	pl->nr_values = req->vary >= 0 ? req->nr_values : 1;
	pl->nr_worlds = req->nr_worlds > 0 ? req->nr_worlds : 1;
	pl->nr_rows = pl->nr_worlds * pl->nr_values;
	pl->params = sim_calloc((size_t)pl->nr_rows, sizeof(*pl->params));
	if (!pl->params)
		return sim_error_nomem(err, "");
	for (i = 0; i < pl->nr_rows; i++) {
		int w = i / pl->nr_values, v = i % pl->nr_values;

		memcpy(pl->params[i], req->params, sizeof(req->params));
		if (req->nr_worlds > 0 &&
		    workload_preset(req->wl, req->worlds[w], pl->params[i], err))
			return -1;
		if (req->vary >= 0)
			pl->params[i][req->vary] = req->values[v];
		if (workload_check_params(req->wl, pl->params[i], err))
			return -1;
	}
	for (i = 0; i < req->nr_governors; i++) {
		pl->gov[i] = gov_find(req->governors[i]);
		if (!pl->gov[i])
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "unknown governor '%s' (see idlesim governors)",
					     req->governors[i]);
		if (run_gov_params(&req->knobs, pl->gov[i], &pl->gov_params[i], err))
			return -1;
	}
	if (run_check_sets_apply(req->knobs.sets, req->knobs.nr_sets, pl->gov, req->nr_governors,
				 err) ||
	    plan_machines(pl, err) || check_metrics(pl, err))
		return -1;
	/* a periodic-tick preset runs at its own HZ, unless --hz is given (and agrees) */
	if (workload_preset_run_hz("compare", req->preset, req->knobs.hz, &pl->hz, err))
		return -1;
	pl->hz = pl->hz ? pl->hz : COMPARE_DEFAULT_HZ;
	for (i = 0; i < pl->nr_worlds; i++) {
		if (req->nr_worlds > 0 &&
		    workload_preset_run_hz("compare", req->worlds[i], req->knobs.hz,
					   &pl->world_hz[i], err))
			return -1;
		pl->world_hz[i] = pl->world_hz[i] ? pl->world_hz[i] : pl->hz;
	}
	pl->nr_jobs = (long)pl->nr_rows * req->nr_machines * req->nr_governors * req->iterations;
	pl->slots = sim_calloc((size_t)pl->nr_jobs, sizeof(*pl->slots));
	if (!pl->slots)
		return sim_error_nomem(err, "");
	return 0;
}

/* ---- the jobs ---- */

/* Job numbers: ((row * machines + machine) * governors + governor) * iterations + iter,
 * where row = world * values + value. */
static long job_index(const struct plan *pl, int v, int m, int g, int it)
{
	const struct compare_request *req = pl->req;

	return (((long)v * req->nr_machines + m) * req->nr_governors + g) * req->iterations + it;
}

/* Totals over the tasks; 0 without the scheduler (such cells are not made). */
static void sched_metrics_of(const struct loop_sched_stats *st, double dur, double *v)
{
	double wakeups = 0, idle = 0, delay = 0, moves = 0, pulls = 0, bpulls = 0;
	int i;

	for (i = 0; i < st->nr_tasks; i++) {
		wakeups += (double)st->task[i].wakeups;
		idle += (double)st->task[i].wakeups_idle;
		delay += (double)st->task[i].run_delay_ns;
		moves += (double)st->task[i].migrations;
		pulls += (double)st->task[i].pulls;
		bpulls += (double)st->task[i].balance_pulls;
	}
	v[COMPARE_M_WAKEUPS_IDLE_PCT] = wakeups > 0 ? idle * 100.0 / wakeups : 0.0;
	v[COMPARE_M_RUN_DELAY_US] = wakeups > 0 ? delay / wakeups / 1e3 : 0.0;
	v[COMPARE_M_MIGRATIONS_PER_S] = dur > 0 ? moves / dur : 0.0;
	v[COMPARE_M_PULLS_PER_S] = dur > 0 ? pulls / dur : 0.0;
	v[COMPARE_M_BALANCE_PULLS_PER_S] = dur > 0 ? bpulls / dur : 0.0;
}

static void metrics_of(const struct workload *wl, const struct loop_result *r, double *v)
{
	const struct run_stats *rs = &r->stats;
	struct stats_summary s;
	double dur = run_duration_s(rs);
	int i;

	stats_summarize(rs, &rs->total, rs->nr_cpus, &s);
	v[COMPARE_M_THROUGHPUT] = workload_throughput(wl, r);
	v[COMPARE_M_LATENCY_MEAN] = lat_hist_mean(&r->latency) / 1e3;
	v[COMPARE_M_LATENCY_P99] = (double)lat_hist_percentile(&r->latency, 99.0) / 1e3;
	v[COMPARE_M_ENERGY_J] = rs->energy_j;
	v[COMPARE_M_IDLE_POWER_W] = dur > 0 ? rs->idle_energy_j / dur : 0.0;
	v[COMPARE_M_ABOVE_PCT] = s.above_pct;
	v[COMPARE_M_BELOW_PCT] = s.below_pct;
	v[COMPARE_M_HITS_PCT] = s.hits_pct;
	v[COMPARE_M_WAKE_P99_NS] = (double)s.lat_p99_ns;
	sched_metrics_of(&r->sched, r->duration_s, v);
	for (i = 0; i < CPUIDLE_STATE_MAX; i++)
		v[COMPARE_M_RESIDENCY + i] = i < rs->state_count ? s.residency_pct[i] : 0.0;
}

static void run_job(struct plan *pl, long j)
{
	const struct compare_request *req = pl->req;
	struct slot *slot = &pl->slots[j];
	int it = (int)(j % req->iterations);
	long rest = j / req->iterations;
	int g = (int)(rest % req->nr_governors);
	int m, v;
	struct sim_config cfg = { 0 };
	struct loop_result r;

	rest /= req->nr_governors;
	m = (int)(rest % req->nr_machines);
	v = (int)(rest / req->nr_machines);
	cfg.machine = &pl->mach[m];
	cfg.gov = pl->gov[g];
	cfg.gov_params = pl->gov_params[g];
	cfg.hz = pl->world_hz[v / pl->nr_values];
	cfg.latency_req_ns = req->knobs.latency_req_ns;
	cfg.disabled = pl->mask[m];
	cfg.queue = req->knobs.queue;
	cfg.global_order = req->knobs.global_order;
	cfg.wake_model = req->knobs.wake_model;
	cfg.wake_seed = req->seed + (uint64_t)it;
	cfg.gov_timeout_ns = req->knobs.gov_timeout_ns;
	if (workload_run_on(req->wl, pl->params[v], req->affinity, req->affinity_top, &cfg,
			    req->duration_ns, req->seed + (uint64_t)it, NULL, &r, &slot->err)) {
		slot->failed = true;
		return;
	}
	metrics_of(req->wl, &r, slot->v);
	if (it == 0) { /* the scheduler's detail of the first iteration is reported */
		slot->sched = r.sched;
		memset(&r.sched, 0, sizeof(r.sched));
	}
	loop_result_release(&r);
}

static void *worker(void *arg)
{
	struct plan *pl = arg;
	long j;

	for (;;) {
		pthread_mutex_lock(&pl->lock);
		j = pl->stop || pl->next >= pl->nr_jobs ? -1 : pl->next++;
		pthread_mutex_unlock(&pl->lock);
		if (j < 0)
			return NULL;
		run_job(pl, j);
		pthread_mutex_lock(&pl->lock);
		if (pl->slots[j].failed)
			pl->stop = true;
		pl->done++;
		if (pl->req->progress)
			pl->req->progress(pl->req->progress_ud, pl->done, pl->nr_jobs);
		pthread_mutex_unlock(&pl->lock);
	}
}

static int nr_threads(const struct plan *pl)
{
	long n = pl->req->threads;

	if (n <= 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		if (n < 1)
			n = 1;
	}
	if (n > pl->nr_jobs)
		n = pl->nr_jobs;
	return n > 256 ? 256 : (int)n;
}

/* Run every job on the pool; the calling thread is one of the workers. */
static int run_jobs(struct plan *pl, struct sim_error *err)
{
	pthread_t tid[256];
	int n = nr_threads(pl), started, i;
	long j;

	if (pthread_mutex_init(&pl->lock, NULL))
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0, "cannot create a mutex");
	for (started = 0; started < n - 1; started++)
		if (pthread_create(&tid[started], NULL, worker, pl))
			break; /* fewer threads: the same result, later */
	worker(pl);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&pl->lock);
	for (j = 0; j < pl->nr_jobs; j++) {
		if (pl->slots[j].failed) {
			if (pl->req->progress)
				pl->req->progress(pl->req->progress_ud, -1, pl->nr_jobs);
			*err = pl->slots[j].err;
			return -1;
		}
	}
	return 0;
}

/* ---- the cells ---- */

/* The deepest state of m that is not disabled (the one whose residency is "good"). */
static int deepest_enabled(const struct machine *m, uint32_t mask)
{
	int i;

	for (i = m->state_count - 1; i > 0; i--)
		if (!(mask & (1u << i)))
			return i;
	return 0;
}

/* Add the cells of one metric on machine m in world w, one per value. */
static int add_cells(struct plan *pl, struct compare_result *res, size_t *cap, int m, int w,
		     int id, int state, struct sim_error *err)
{
	int v;

	for (v = 0; v < pl->nr_values; v++) {
		struct compare_cell *c;

		if (sim_grow((void **)&res->cells, cap, (size_t)res->nr_cells + 1,
			     sizeof(*res->cells)))
			return sim_error_nomem(err, "");
		c = &res->cells[res->nr_cells++];
		memset(c, 0, sizeof(*c));
		c->value = v;
		c->machine = m;
		c->world = w;
		c->metric = id == COMPARE_M_RESIDENCY ? COMPARE_M_RESIDENCY + state : id;
		if (id == COMPARE_M_RESIDENCY) {
			snprintf(c->name, sizeof(c->name), "%s%s", RESIDENCY_PREFIX,
				 pl->mach[m].states[state].name);
			c->higher_is_better = state == deepest_enabled(&pl->mach[m], pl->mask[m]);
		} else {
			snprintf(c->name, sizeof(c->name), "%s", metric_info[id].name);
			c->higher_is_better = metric_info[id].higher_is_better;
			c->in_gmean = true;
		}
	}
	return 0;
}

/* The cells of machine m in world w: the requested metrics in their order, else all that
 * apply. */
static int machine_cells(struct plan *pl, struct compare_result *res, size_t *cap, int m, int w,
			 struct sim_error *err)
{
	const struct compare_request *req = pl->req;
	bool seen[COMPARE_M_NR] = { false };
	int i, id, st;

	if (!req->nr_metrics) {
		for (id = 0; id < COMPARE_M_RESIDENCY; id++)
			if (compare_metric_applies(req->wl, id) &&
			    (!sched_metric(id) || plan_has_sched(pl)) &&
			    add_cells(pl, res, cap, m, w, id, 0, err))
				return -1;
		for (st = 0; st < pl->mach[m].state_count; st++)
			if (!(pl->mask[m] & (1u << st)) &&
			    add_cells(pl, res, cap, m, w, COMPARE_M_RESIDENCY, st, err))
				return -1;
		return 0;
	}
	for (i = 0; i < req->nr_metrics; i++) {
		id = compare_metric_lookup(req->metrics[i]);
		st = id == COMPARE_M_RESIDENCY ? compare_residency_state(&pl->mach[m], req->metrics[i]) : 0;
		if (st < 0 || seen[id + st])
			continue; /* a state this machine lacks, or a repeated metric */
		seen[id + st] = true;
		if (add_cells(pl, res, cap, m, w, id, st, err))
			return -1;
	}
	return 0;
}

static void cell_stats(const struct compare_result *res, struct compare_cell *c)
{
	struct compare_gov *base = &c->gov[0];
	bool hmean = c->higher_is_better && c->metric < COMPARE_M_RESIDENCY;
	int g;

	for (g = 0; g < res->nr_governors; g++) {
		struct compare_gov *x = &c->gov[g];

		mm_summarize(x->samples, res->iterations, hmean, &x->sum);
		x->pct = g ? mm_pct(&base->sum, &x->sum, c->higher_is_better) : 0.0;
		x->p = g ? mm_ttest_p(&base->sum, &x->sum) : NAN;
		x->significant = g && mm_significant(x->p);
	}
}

static void gmean_of(struct compare_result *res, double *ratios)
{
	int g, i, n;

	res->gmean[0] = 1.0;
	for (g = 1; g < res->nr_governors; g++) {
		for (i = n = 0; i < res->nr_cells; i++) {
			const struct compare_cell *c = &res->cells[i];

			if (c->in_gmean)
				ratios[n++] = mm_ratio(c->gov[0].sum.mean, c->gov[g].sum.mean,
						       c->higher_is_better);
		}
		res->gmean[g] = mm_gmean_ratio(ratios, n);
		res->gmean_cells = n;
	}
}

/*
 * The index of the cell of world w that matches cell i of world 0: a machine's cells are
 * world by world, each world's in the same order.
 */
static int world_cell_index(const struct compare_result *res, int i, int w)
{
	int first = i, per_world = 0;

	while (first > 0 && res->cells[first - 1].machine == res->cells[i].machine &&
	       res->cells[first - 1].world == 0)
		first--;
	while (first + per_world < res->nr_cells &&
	       res->cells[first + per_world].machine == res->cells[i].machine &&
	       res->cells[first + per_world].world == 0)
		per_world++;
	return i + w * per_world;
}

/* What a governor's difference says in one cell: +1 significantly better than the
 * baseline, -1 significantly worse, 0 no significant difference. */
static int verdict(const struct compare_gov *x)
{
	return !x->significant ? 0 : x->pct > 0 ? 1 : x->pct < 0 ? -1 : 0;
}

/* The cells of one machine, metric and value are compared across the worlds, governor by
 * governor; every cell of a governor that flips is marked. */
void compare_mark_flips(struct compare_result *res)
{
	int i, g, w;

	res->nr_flips = 0;
	if (res->nr_worlds < 2)
		return;
	for (i = 0; i < res->nr_cells; i++) {
		if (res->cells[i].world != 0)
			continue;
		for (g = 1; g < res->nr_governors; g++) {
			int v0 = verdict(&res->cells[i].gov[g]);
			bool flips = false;

			for (w = 1; w < res->nr_worlds; w++)
				flips |= verdict(&res->cells[world_cell_index(res, i, w)].gov[g]) != v0;
			for (w = 0; w < res->nr_worlds && flips; w++)
				res->cells[world_cell_index(res, i, w)].gov[g].flips = true;
			res->nr_flips += flips;
		}
	}
}

/* The first iterations' scheduler statistics, moved from the slots to the result. */
static int sched_detail(struct plan *pl, struct compare_result *res, struct sim_error *err)
{
	const struct compare_request *req = pl->req;
	int v, m, g, k = 0;

	if (!plan_has_sched(pl))
		return 0;
	res->nr_sched = pl->nr_rows * req->nr_machines * req->nr_governors;
	res->sched = sim_calloc((size_t)res->nr_sched, sizeof(*res->sched));
	if (!res->sched)
		return sim_error_nomem(err, "");
	for (v = 0; v < pl->nr_rows; v++)
		for (m = 0; m < req->nr_machines; m++)
			for (g = 0; g < req->nr_governors; g++) {
				struct slot *x = &pl->slots[job_index(pl, v, m, g, 0)];

				res->sched[k++] = x->sched;
				memset(&x->sched, 0, sizeof(x->sched));
			}
	return 0;
}

static int build_cells(struct plan *pl, struct compare_result *res, struct sim_error *err)
{
	const struct compare_request *req = pl->req;
	size_t cap = 0, per_cell = (size_t)req->nr_governors * (size_t)req->iterations;
	double *ratios;
	int m, w, i, g, it;

	for (m = 0; m < req->nr_machines; m++)
		for (w = 0; w < pl->nr_worlds; w++)
			if (machine_cells(pl, res, &cap, m, w, err))
				return -1;
	res->gov_store = sim_calloc((size_t)res->nr_cells * (size_t)req->nr_governors + 1,
				    sizeof(*res->gov_store));
	res->samples = sim_calloc((size_t)res->nr_cells * per_cell + 1, sizeof(*res->samples));
	ratios = sim_calloc((size_t)res->nr_cells + 1, sizeof(*ratios));
	if (!res->gov_store || !res->samples || !ratios) {
		sim_free(ratios);
		return sim_error_nomem(err, "");
	}
	for (i = 0; i < res->nr_cells; i++) {
		struct compare_cell *c = &res->cells[i];

		c->gov = &res->gov_store[(size_t)i * (size_t)req->nr_governors];
		for (g = 0; g < req->nr_governors; g++) {
			double *x =
				&res->samples[(size_t)i * per_cell + (size_t)g * req->iterations];

			for (it = 0; it < req->iterations; it++)
				x[it] = pl->slots[job_index(pl, c->world * pl->nr_values + c->value,
							    c->machine, g, it)]
						.v[c->metric];
			c->gov[g].samples = x;
		}
		cell_stats(res, c);
	}
	gmean_of(res, ratios);
	sim_free(ratios);
	compare_mark_flips(res);
	return sched_detail(pl, res, err);
}

static int result_init(const struct plan *pl, struct compare_result *res, struct sim_error *err)
{
	const struct compare_request *req = pl->req;
	int i, k;

	res->wl = req->wl;
	memcpy(res->params, req->params, sizeof(res->params));
	res->vary = req->vary;
	res->mmtests_sweep = req->mmtests_sweep;
	res->nr_values = pl->nr_values;
	res->nr_worlds = req->nr_worlds;
	for (i = 0; i < req->nr_worlds; i++)
		snprintf(res->worlds[i], sizeof(res->worlds[i]), "%s", req->worlds[i]);
	for (i = 0; i < pl->nr_values; i++)
		res->values[i] = req->vary >= 0 ? pl->params[i][req->vary] : 0;
	res->machines = sim_calloc((size_t)req->nr_machines, sizeof(*res->machines));
	if (!res->machines)
		return sim_error_nomem(err, "");
	res->nr_machines = req->nr_machines;
	for (i = 0; i < req->nr_machines; i++)
		snprintf(res->machines[i], sizeof(res->machines[i]), "%s", pl->mach[i].name);
	res->nr_governors = req->nr_governors;
	for (i = 0; i < req->nr_governors; i++) {
		res->governors[i] = pl->gov[i]->name;
		res->gov[i] = pl->gov[i];
		for (k = 0; k < (int)pl->gov[i]->nr_params && k < RUN_MAX_PARAMS; k++)
			res->gov_params[i][k] = pl->gov_params[i][k];
	}
	memcpy(res->sets, req->knobs.sets, sizeof(res->sets));
	res->nr_sets = req->knobs.nr_sets;
	res->latency_req_ns = req->knobs.latency_req_ns;
	res->wake_model = req->knobs.wake_model;
	res->mrec = sim_calloc((size_t)req->nr_machines, sizeof(*res->mrec));
	if (!res->mrec)
		return sim_error_nomem(err, "");
	for (i = 0; i < req->nr_machines; i++) {
		res->mrec[i].hash = machine_hash(&pl->mach[i]);
		cfgrec_disabled_text(res->mrec[i].disabled, sizeof(res->mrec[i].disabled),
				     &pl->mach[i], pl->mask[i]);
		snprintf(res->mrec[i].assumed, sizeof(res->mrec[i].assumed), "%s",
			 pl->mach[i].assumed);
	}
	res->iterations = req->iterations;
	res->seed = req->seed;
	res->duration_ns = req->duration_ns;
	res->hz = pl->hz;
	memcpy(res->world_hz, pl->world_hz, sizeof(res->world_hz));
	return 0;
}

int compare_run(const struct compare_request *req, struct compare_result *out, struct sim_error *err)
{
	struct compare_request q = *req; /* a governor listed twice compared once, as run does */
	struct plan pl;
	int rc;

	memset(out, 0, sizeof(*out));
	q.nr_governors = run_unique_governors(q.governors, q.nr_governors);
	rc = plan_make(&pl, &q, err);
	if (!rc)
		rc = run_jobs(&pl, err);
	if (!rc)
		rc = result_init(&pl, out, err);
	if (!rc)
		rc = build_cells(&pl, out, err);
	plan_release(&pl);
	if (rc)
		compare_result_free(out);
	return rc;
}

const struct compare_cell *compare_world_cell(const struct compare_result *res, int i, int w)
{
	return &res->cells[world_cell_index(res, i, w)];
}

void compare_result_free(struct compare_result *res)
{
	int i;

	for (i = 0; i < res->nr_sched; i++) {
		sim_free(res->sched[i].cpu);
		sim_free(res->sched[i].task);
	}
	sim_free(res->sched);
	sim_free(res->machines);
	sim_free(res->mrec);
	sim_free(res->cells);
	sim_free(res->gov_store);
	sim_free(res->samples);
	memset(res, 0, sizeof(*res));
}

int compare_governor_index(const struct compare_result *res, const char *name)
{
	int g;

	for (g = 0; g < res->nr_governors; g++)
		if (!strcasecmp(res->governors[g], name))
			return g;
	return -1;
}

double compare_sweep_gmean(const struct compare_result *res, int first, int end, int g)
{
	double sum = 0;
	int j;

	for (j = first; j < end; j++) {
		if (!(res->cells[j].gov[g].sum.mean > 0))
			return NAN;
		sum += log(res->cells[j].gov[g].sum.mean);
	}
	return end > first ? exp(sum / (end - first)) : NAN;
}
