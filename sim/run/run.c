// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - replay every trace on every machine through every governor.
 *
 * For each (trace, machine) the two references run first on the same input and knobs:
 * each governor's energy regret is its energy minus the energy reference's (oracle-energy),
 * its latency regret its mean wakeup latency minus the oracle's (docs/regret.md). A cell's
 * runs are fed by one pass over the trace (replay_run_multi(), streaming), so memory does not
 * depend on its length; the references come from run_request.refs when the caller shares a
 * cache (sim/run/refcache.h). Standard input ("-") is read once into a spooled copy
 * (sim/base/spool.h), which every cell reopens.
 */
#include "sim/run/run.h"
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/base/common.h"
#include "sim/base/datadir.h"
#include "sim/import/import.h"
#include "sim/base/progress.h"
#include "sim/engine/replay.h"
#include "sim/machine/intel_idle.h"
#include "sim/base/spool.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/*
 * The demo trace, in the data directory found next to the binary (sim/base/datadir.h: the
 * installed share/idlesim, or the build tree's idlesim-data), else under the current
 * directory.
 */
const char *run_default_trace(char *buf, size_t n)
{
	return datadir_path(buf, n, "traces/demo.trace");
}

/* How a trace is named in reports: the demo trace by its short name. */
static const char *trace_display_name(const char *path)
{
	char demo[4200];

	if (!strcmp(path, "-"))
		return "<stdin>";
	return strcmp(path, run_default_trace(demo, sizeof(demo))) ? path : "traces/demo.trace";
}

void run_request_defaults(struct run_request *req)
{
	memset(req, 0, sizeof(*req));
	req->latency_req_ns = -1;
	req->window_to_ns = -1;
	req->queue = EVENTQ_HEAP;
	req->wake_model = WAKE_MODEL_DEFAULT;
	req->wake_seed = 1;
}

static bool is_intel_idle_set(const struct run_set *s)
{
	return !strcmp(s->family, INTEL_IDLE_FAMILY);
}

/* The --set intel_idle.NAME=VALUE options of a request (checked one by one). */
static int intel_idle_params(const struct run_request *req, struct intel_idle_params *p,
			     struct sim_error *err)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < req->nr_sets; i++)
		if (is_intel_idle_set(&req->sets[i]) &&
		    intel_idle_param_set(p, req->sets[i].name, req->sets[i].value, err))
			return -1;
	return 0;
}

/* `stdin_path`: where a spooled standard input is, for the machine "-" (NULL: read it). */
static int load_machine(const struct run_request *req, const char *name, const char *stdin_path,
			struct machine *m, struct sim_error *err)
{
	struct intel_idle_params ip;
	bool from_file = stdin_path && !strcmp(name, "-");

	if (from_file ? machine_load_json_file_as(stdin_path, "<stdin>", m, err)
		      : machine_load(name, m, err))
		return -1;
	if (intel_idle_params(req, &ip, err))
		return -1;
	if (intel_idle_params_any(&ip) &&
	    intel_idle_apply(m, !from_file && machine_find_builtin(name), &ip, err))
		return -1;
	if (req->topology[0]) {
		m->packages = req->topology[0];
		m->cores = req->topology[1];
		m->threads = req->topology[2];
		m->nr_core_types = 0; /* a hybrid machine made uniform: every core alike */
		if (m->llc_cores && m->cores % m->llc_cores)
			m->llc_cores = 0; /* the LLCs no longer divide the cores: one per package */
	}
	if (machine_validate(m, name, err))
		return -1;
	return machine_check_wake_model(m, req->wake_model, err);
}

int run_load_machine(const struct run_request *req, const char *name, struct machine *m,
		     struct sim_error *err)
{
	return load_machine(req, name, NULL, m, err);
}

static int state_arg(const struct machine *m, const char *arg, struct sim_error *err)
{
	int i = machine_state_lookup(m, arg);

	if (i < 0)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "machine %s has no idle state '%s' (see idlesim machines %s)",
				     m->name, arg, m->name);
	return i;
}

int run_disabled_mask(const struct run_request *req, const struct machine *m, uint32_t *mask,
		      struct sim_error *err)
{
	int i, k;

	*mask = 0;
	for (i = 0; i < m->state_count; i++)
		if (m->states[i].default_off)
			*mask |= 1u << i;
	for (i = 0; i < req->nr_enable; i++) {
		if ((k = state_arg(m, req->enable[i], err)) < 0)
			return -1;
		*mask &= ~(1u << k);
	}
	for (i = 0; i < req->nr_disable; i++) {
		if ((k = state_arg(m, req->disable[i], err)) < 0)
			return -1;
		*mask |= 1u << k;
	}
	return 0;
}

int run_gov_params(const struct run_request *req, const struct cpuidle_governor *g,
			  long long **params, struct sim_error *err)
{
	int i, k;

	*params = NULL;
	if (!g->nr_params)
		return 0;
	*params = sim_calloc(g->nr_params, sizeof(**params));
	if (!*params)
		return sim_error_nomem(err, "");
	for (i = 0; i < (int)g->nr_params; i++)
		(*params)[i] = g->params[i].def;
	for (i = 0; i < req->nr_sets; i++) {
		const struct run_set *s = &req->sets[i];

		if (!cfgrec_set_applies(s, g))
			continue; /* checked against the family in run_check_sets() */
		k = gov_param_index(g, s->name);
		if (s->value < g->params[k].min || s->value > g->params[k].max) {
			sim_free(*params);
			*params = NULL;
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "--set %s.%s=%lld: out of range for %s (%lld..%lld)",
					     s->family, s->name, s->value, g->name, g->params[k].min,
					     g->params[k].max);
		}
		(*params)[k] = s->value;
	}
	return 0;
}

int run_check_sets_apply(const struct run_set *sets, int nr_sets,
			 const struct cpuidle_governor *const *govs, int n, struct sim_error *err)
{
	char names[512];
	size_t used = 0;
	int i, g;

	for (i = 0; i < nr_sets; i++) {
		if (is_intel_idle_set(&sets[i]))
			continue; /* a machine's, not a governor's (load_machine()) */
		for (g = 0; g < n && !cfgrec_set_applies(&sets[i], govs[g]); g++)
			;
		if (g < n)
			continue;
		names[0] = '\0';
		for (g = 0; g < n && used < sizeof(names); g++)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 g ? ", " : "", govs[g]->name);
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "--set %s.%s=%lld applies to none of the selected governors "
				     "(%s); see idlesim governors",
				     sets[i].family, sets[i].name, sets[i].value, names);
	}
	return 0;
}

/*
 * Every --set must name a tunable of some version of its governor family, and apply to at
 * least one of the selected governors (a misspelt family or an older version's tunable
 * would otherwise change nothing, silently).
 */
static int run_check_sets(const struct run_request *req, struct sim_error *err)
{
	const struct cpuidle_governor *govs[RUN_MAX_ITEMS];
	struct intel_idle_params ip;
	int i;
	unsigned int k;

	if (intel_idle_params(req, &ip, err))
		return -1;
	for (i = 0; i < req->nr_sets; i++) {
		const struct run_set *s = &req->sets[i];
		bool family = false, found = false;

		if (is_intel_idle_set(s))
			continue;

		for (k = 0; k < gov_count(); k++) {
			const struct cpuidle_governor *g = gov_get(k);
			size_t flen = gov_family_len(g->name);

			if (strlen(s->family) != flen || strncasecmp(s->family, g->name, flen))
				continue;
			family = true;
			if (gov_param_index(g, s->name) >= 0)
				found = true;
		}
		if (!family)
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "--set %s.%s: no governor family '%s' (see idlesim governors)",
					     s->family, s->name, s->family);
		if (!found)
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "--set %s.%s: %s has no tunable '%s' (see idlesim governors)",
					     s->family, s->name, s->family, s->name);
	}
	for (i = 0; i < req->nr_governors; i++)
		govs[i] = gov_find(req->governors[i]);
	return run_check_sets_apply(req->sets, req->nr_sets, govs, req->nr_governors, err);
}

int run_hist_bin(int64_t idle_ns)
{
	int k = 0;

	if (idle_ns < 0)
		return RUN_HIST_BINS - 1;
	idle_ns /= SIM_NS_PER_US;
	while (idle_ns && k < RUN_HIST_BINS - 1) {
		idle_ns >>= 1;
		k++;
	}
	return k;
}

int64_t run_hist_edge_ns(int k)
{
	return k <= 0 ? 0 : ((int64_t)1 << (k - 1)) * SIM_NS_PER_US;
}

static bool in_window(const struct run_request *q, int64_t t)
{
	return t >= q->window_from_ns && (q->window_to_ns < 0 || t < q->window_to_ns);
}

static void keep_slice(struct run_result *r, const struct sim_decision *d)
{
	const struct run_request *q = r->req;
	struct run_slice *s;

	if (d->first)
		r->idle_hist[run_hist_bin(d->oracle_idle_ns == KTIME_MAX ? -1 : d->oracle_idle_ns)]
			    [d->state]++;
	if (!in_window(q, d->time_ns) || (q->timeline_cap && (long)r->nr_slices >= q->timeline_cap))
		return;
	if (sim_grow((void **)&r->slices, &r->cap_slices, r->nr_slices + 1, sizeof(*r->slices))) {
		r->nomem = true;
		return;
	}
	s = &r->slices[r->nr_slices++];
	s->entry_ns = d->time_ns;
	s->wake_ns = d->wake_ns;
	s->reflect_ns = d->reflect_ns;
	s->idle_ns = d->first && d->oracle_idle_ns != KTIME_MAX ? d->oracle_idle_ns : -1;
	s->sleep_ns = d->sleep_length_ns;
	s->next_tick_ns = d->next_tick_ns;
	s->cpu = d->cpu;
	s->state = (int8_t)d->state;
	s->cause = (uint8_t)d->cause;
	s->verdict = (uint8_t)d->verdict;
	s->flags = (d->first ? RUN_SLICE_FIRST : 0) | (d->truncated ? RUN_SLICE_TRUNCATED : 0) |
		   (d->stop_tick ? RUN_SLICE_STOP_TICK : 0) |
		   (d->tick_stopped_after ? RUN_SLICE_TICK_STOPPED : 0) |
		   (d->tick_stopped_before ? RUN_SLICE_TICK_WAS_STOPPED : 0) |
		   (d->reflect_got_tick && !d->truncated ? RUN_SLICE_GOT_TICK : 0);
}

/* The decision log: the timeline, and the decisions --explain asked for (in the window). */
static void keep_decision(void *ud, const struct sim_decision *d)
{
	struct run_result *r = ud;
	const struct run_request *q = r->req;
	struct run_decision *rd;

	if (q->timeline)
		keep_slice(r, d);
	if (!q->explain_limit || d->truncated || !in_window(q, d->time_ns) ||
	    (q->explain_limit > 0 && r->kept >= q->explain_limit))
		return;
	r->kept++;
	if (sim_grow((void **)&r->decisions, &r->cap_decisions, r->nr_decisions + 1,
		     sizeof(*r->decisions)))
		return; /* out of memory: the log is incomplete, the run is not */
	rd = &r->decisions[r->nr_decisions++];
	rd->d = *d;
	rd->ex = *d->gov;
	rd->d.gov = NULL;
}

int run_trace_open(const struct run_trace *t, struct run_trace_src *s, struct sim_error *err)
{
	enum import_format f = t->text ? IMPORT_NATIVE : import_probe(t->path);
	struct import_options io = { 0 };

	memset(s, 0, sizeof(*s));
	if (f == IMPORT_AUTO || f == IMPORT_NATIVE) {
		s->tr = t->text ? trace_open_string(t->name, t->text, err)
				: trace_open_as(t->path, t->name, err);
		if (!s->tr)
			return -1;
		record_source_from_trace(&s->src, s->tr);
	} else {
		io.name = t->name;
		s->im = import_open(t->path, &io, err);
		if (!s->im)
			return -1;
		record_source_from_import(&s->src, s->im);
	}
	return 0;
}

void run_trace_close(struct run_trace_src *s)
{
	trace_close(s->tr);
	import_close(s->im);
	memset(s, 0, sizeof(*s));
}

/* A closed-loop workload in place of a trace (run_workload()). */
struct run_loop {
	const struct workload *w;
	const int64_t *params;
	int64_t duration_ns;
	uint64_t seed;
};

/* Run it as the loop does, its idle entries kept as a replay's (cfg->explain), what ran
 * where with the request's window and cap. */
static int loop_file(const struct run_loop *lp, const struct sim_config *cfg,
		     struct run_result *r, struct sim_error *err)
{
	const struct run_request *q = r->req;
	struct loop_timeline tl = { q->window_from_ns, q->window_to_ns, q->timeline_cap };
	struct sim_config c = *cfg;
	struct loop_result lr;

	if (!c.hz)
		c.hz = 250;
	r->hz = c.hz;
	if (c.explain)
		c.explain_ud = r;
	if (workload_run_timeline(lp->w, lp->params, &c, lp->duration_ns, lp->seed,
				  q->timeline ? &tl : NULL, &lr, err))
		return -1;
	r->closed_loop = true;
	r->stats = lr.stats;
	memset(&lr.stats, 0, sizeof(lr.stats));
	r->segs = lr.segs;
	r->nr_segs = lr.nr_segs;
	r->segs_cut = lr.segs_cut;
	lr.segs = NULL;
	if (!c.gov->oracle) {
		r->sched = lr.sched;
		memset(&lr.sched, 0, sizeof(lr.sched));
	}
	loop_result_release(&lr);
	return 0;
}

static int add_result(struct run_results *res, struct run_result **r, struct sim_error *err)
{
	struct run_result *n = sim_realloc(res->r, (size_t)(res->n + 1) * sizeof(*n));

	if (!n)
		return sim_error_nomem(err, "");
	res->r = n;
	*r = &n[res->n++];
	memset(*r, 0, sizeof(**r));
	return 0;
}

/* Energy regret against the energy reference, latency regret against the oracle. */
static void set_regret(struct run_result *r, const struct run_refs *ref)
{
	double lat = lat_hist_mean(&r->stats.total.wake_latency);

	r->has_regret = true;
	r->regret_energy_j = r->stats.energy_j - ref->energy_j;
	r->regret_package_j = r->stats.package_energy_j - ref->package_energy_j;
	r->regret_cpu_j = r->stats.cpu_energy_j - ref->cpu_energy_j;
	r->regret_energy_pct = ref->energy_j > 0 ? 100.0 * r->regret_energy_j / ref->energy_j : 0;
	r->regret_lat_mean_ns = lat - ref->oracle_lat_mean_ns;
}

const char *run_regret_negative(const struct run_result *r)
{
	if (!r->has_regret || r->regret_energy_j >= -RUN_REGRET_EPS_J)
		return NULL;
	/* the references ran their own closed loop: other work at other times */
	if (r->closed_loop)
		return "loop";
	if (r->regret_energy_j - r->regret_package_j >= -RUN_REGRET_EPS_J)
		return "package";
	return r->regret_cpu_j >= -RUN_REGRET_EPS_J ? "smt" : "core";
}

static int timeline_nomem(const struct run_result *r, struct sim_error *err)
{
	return r->nomem ? sim_error_nomem(err, "") : 0;
}

/* Each governor's result gets a copy of the oracle's timeline, to draw beside its own. */
static int give_oracle(struct run_result *r, const struct run_result *oracle, struct sim_error *err)
{
	memcpy(r->oracle_idle_hist, oracle->idle_hist, sizeof(r->oracle_idle_hist));
	if (!oracle->nr_slices)
		return 0;
	r->oracle_slices = sim_malloc(oracle->nr_slices * sizeof(*r->oracle_slices));
	if (!r->oracle_slices)
		return sim_error_nomem(err, "");
	memcpy(r->oracle_slices, oracle->slices, oracle->nr_slices * sizeof(*r->oracle_slices));
	r->nr_oracle_slices = oracle->nr_slices;
	return 0;
}

/*
 * The progress of a run_grid(): replays finished of all (the oracle's included), each
 * RUN_PROGRESS_UNITS units so that the one going on counts by its trace time.
 */
#define RUN_PROGRESS_UNITS 1000
struct run_progress {
	struct progress bar;
	char name[160]; /* "trace machine governor" of the replay going on */
	long done, total;
	int weight; /* replays in the pass going on (one pass feeds a cell's runs at once) */
};

/* sim_config.progress: the pass going on has reached at_ns of [start_ns, end_ns). */
static void replay_progress(void *ud, int64_t at_ns, int64_t start_ns, int64_t end_ns)
{
	struct run_progress *rp = ud;
	long units = (long)rp->weight * RUN_PROGRESS_UNITS, part = 0;

	if (end_ns > start_ns && at_ns > start_ns)
		part = (long)((double)(at_ns - start_ns) / (double)(end_ns - start_ns) * (double)units);
	part = part > units - 1 ? units - 1 : part;
	progress_update(&rp->bar, rp->name, rp->done * RUN_PROGRESS_UNITS + part,
			rp->total * RUN_PROGRESS_UNITS);
}

/*
 * The next pass is of n runs, `gov` the first, on `trace` and `m` (named on the bar); or,
 * gov NULL, the n runs ended. rp NULL: no progress (the library's runs).
 */
static void progress_step(struct run_progress *rp, const char *trace, const char *m,
			  const char *gov, int n)
{
	if (!rp)
		return;
	if (gov)
		snprintf(rp->name, sizeof(rp->name), "%s %s %s%s", trace, m, gov,
			 n > 1 ? " ..." : "");
	else
		rp->done += n;
	rp->weight = n > 0 ? n : 1;
	replay_progress(rp, 0, 0, 0);
}

/* The runs of a cell, cfg[i] into rr[i]: the oracle, the energy reference, the governors. */
struct cell_runs {
	struct sim_config *cfg;
	struct run_result **rr;
	int n;
};

/* The closed loop, run by run. */
static int loop_cell(const struct run_loop *lp, struct cell_runs *cr, struct run_progress *rp,
		     const char *trace, const char *m, struct sim_error *err)
{
	int i;

	for (i = 0; i < cr->n; i++) {
		progress_step(rp, trace, m, cr->cfg[i].gov->name, 1);
		if (loop_file(lp, &cr->cfg[i], cr->rr[i], err) || timeline_nomem(cr->rr[i], err))
			return -1;
		progress_step(rp, NULL, NULL, NULL, 1);
	}
	return 0;
}

/*
 * The replays of a cell in one pass over the trace (replay_run_multi()), converted on the
 * fly when it is a kernel trace (no intermediate file). The references come from
 * req->refs when it has them (then the pass feeds only the governors), else from the pass,
 * and go into req->refs. Without a timeline only *refs is kept of them.
 */
static int replay_cell(const struct run_request *req, const struct run_trace *t,
		       struct cell_runs *cr, struct run_refs *refs, struct run_progress *rp,
		       struct sim_error *err)
{
	struct run_refcache *cache = req->timeline ? NULL : req->refs;
	struct run_stats *stats = NULL;
	struct run_trace_src s;
	char *key = NULL;
	bool claimed = false; /* this pass computes the references for the cache */
	int i, skip = 0, rc = -1, hz, got;

	if (run_trace_open(t, &s, err))
		return -1;
	hz = cr->cfg[0].hz ? cr->cfg[0].hz : s.src.hdr->hz ? s.src.hdr->hz : 250;
	for (i = 0; i < cr->n; i++) {
		cr->cfg[i].hz = hz;
		cr->rr[i]->hz = hz;
		if (cr->cfg[i].explain)
			cr->cfg[i].explain_ud = cr->rr[i];
	}
	if (cache) {
		key = run_refkey(t->hash, &cr->cfg[0]);
		got = key ? run_refcache_get(cache, key, refs) : -1;
		if (got < 0) {
			sim_error_nomem(err, "");
			goto out;
		}
		claimed = !got;
		skip = got ? 2 : 0; /* found: the two references need no replay */
	}
	stats = sim_calloc((size_t)cr->n, sizeof(*stats));
	if (!stats) {
		sim_error_nomem(err, "");
		goto out;
	}
	if (skip)
		progress_step(rp, NULL, NULL, NULL, skip);
	progress_step(rp, t->name, cr->cfg[0].machine->name, cr->cfg[skip].gov->name,
		      cr->n - skip);
	if (replay_run_multi(&s.src, cr->cfg + skip, cr->n - skip, stats + skip, err))
		goto out;
	progress_step(rp, NULL, NULL, NULL, cr->n - skip);
	for (i = skip; i < cr->n; i++) {
		cr->rr[i]->stats = stats[i];
		memset(&stats[i], 0, sizeof(stats[i]));
	}
	if (!skip)
		run_refs_from(refs, &cr->rr[0]->stats, &cr->rr[1]->stats);
	if (claimed)
		run_refcache_put(cache, key, refs);
	rc = 0;
	for (i = 0; i < cr->n; i++)
		if (timeline_nomem(cr->rr[i], err))
			rc = -1;
out:
	if (claimed && rc)
		run_refcache_abandon(cache, key);
	sim_free(key);
	sim_free(stats);
	run_trace_close(&s);
	return rc;
}

/* A cell's configuration record in r: governor g (with its tunables) on m. */
static void fill_result(struct run_result *r, const struct run_request *req,
			const struct run_trace *trace, const struct machine *m, uint32_t mask,
			const struct cpuidle_governor *g, const long long *params)
{
	int k;

	snprintf(r->trace, sizeof(r->trace), "%s", trace->name);
	snprintf(r->machine, sizeof(r->machine), "%s", m->name);
	snprintf(r->governor, sizeof(r->governor), "%s", g->name);
	r->gov = g;
	for (k = 0; k < (int)g->nr_params && k < RUN_MAX_PARAMS; k++)
		r->params[k] = params[k];
	r->nr_sets = cfgrec_applied_sets(req->sets, req->nr_sets, g, r->sets);
	r->machine_hash = machine_hash(m);
	r->trace_hash = trace->hash;
	r->latency_req_ns = req->latency_req_ns;
	r->disabled = mask;
	r->wake_model = req->wake_model;
	r->machine_cpus = machine_nr_cpus(m);
	r->mach = *m;
}

/*
 * A trace (or closed loop) on a machine: the oracle and the energy reference first, for
 * regret, then every governor; a replay feeds them all in one pass over the trace. The
 * nreq requests differ only in their governors and --set (run_grid_batch()): reqs[0] gives
 * the common knobs, each request's governors its results, in order, after res->n.
 */
static int run_cell(const struct run_request *reqs, int nreq, const struct run_trace *trace,
		    const struct run_loop *lp, const struct machine *m, uint32_t mask,
		    struct run_progress *rp, struct run_results *res, struct sim_error *err)
{
	const struct run_request *req = &reqs[0];
	struct sim_config cfg = { 0 };
	struct cell_runs cr = { 0 };
	long long **params = NULL;
	struct run_result scratch, eref_r;
	struct run_request oq;
	struct run_refs refs;
	int i, j, k, nr = 0, first = res->n, rc = -1;

	for (j = 0; j < nreq; j++)
		nr += reqs[j].nr_governors;
	cr.cfg = sim_calloc((size_t)nr + 2, sizeof(*cr.cfg));
	cr.rr = sim_calloc((size_t)nr + 2, sizeof(*cr.rr));
	params = sim_calloc((size_t)nr + 1, sizeof(*params));
	memset(&scratch, 0, sizeof(scratch));
	memset(&eref_r, 0, sizeof(eref_r));
	if (!cr.cfg || !cr.rr || !params) {
		sim_error_nomem(err, "");
		goto out;
	}
	cfg.machine = m;
	cfg.hz = req->hz;
	cfg.latency_req_ns = req->latency_req_ns;
	cfg.disabled = mask;
	cfg.queue = req->queue;
	cfg.global_order = req->global_order;
	cfg.wake_model = req->wake_model;
	cfg.wake_seed = req->wake_seed;
	cfg.progress = rp ? replay_progress : NULL;
	cfg.progress_ud = rp;
	cfg.gov_timeout_ns = req->gov_timeout_ns;

	/* The oracle's run on the same input, for regret (its timeline drawn beside each). */
	scratch.req = &oq;
	oq = *req;
	oq.explain_limit = 0;
	cr.cfg[0] = cfg;
	cr.cfg[0].gov = gov_find(RUN_LATENCY_REFERENCE);
	cr.cfg[0].explain = req->timeline ? keep_decision : NULL;
	cr.cfg[0].explain_limit = -1;
	cr.cfg[0].explain_truncated = true;
	cr.rr[0] = &scratch;
	/* The energy reference's, for energy regret (no timeline: the oracle's is drawn). */
	eref_r.req = &oq;
	cr.cfg[1] = cfg;
	cr.cfg[1].gov = gov_find(RUN_ENERGY_REFERENCE);
	cr.rr[1] = &eref_r;
	for (j = 0, k = 0; j < nreq; j++)
		for (i = 0; i < reqs[j].nr_governors; i++, k++) {
			struct run_result *r;

			if (run_gov_params(&reqs[j], gov_find(reqs[j].governors[i]), &params[k],
					   err) ||
			    add_result(res, &r, err))
				goto out;
		}
	for (j = 0, k = 0; j < nreq; j++)
		for (i = 0; i < reqs[j].nr_governors; i++, k++) {
			const struct run_request *q = &reqs[j];
			const struct cpuidle_governor *g = gov_find(q->governors[i]);
			struct run_result *r = &res->r[first + k];
			struct sim_config *c = &cr.cfg[2 + k];

			fill_result(r, q, trace, m, mask, g, params[k]);
			r->req = q;
			*c = cfg;
			c->gov = g;
			c->gov_params = params[k];
			c->explain = q->explain_limit || q->timeline ? keep_decision : NULL;
			/* The engine stops logging after its limit; a window or a timeline needs
			 * every decision, and keep_decision() counts. */
			c->explain_limit = q->timeline || q->window_from_ns || q->window_to_ns >= 0
						   ? -1
						   : q->explain_limit;
			c->explain_truncated = q->timeline;
			cr.rr[2 + k] = r;
		}
	cr.n = 2 + nr;
	if (lp ? loop_cell(lp, &cr, rp, trace->name, m->name, err)
	       : replay_cell(req, trace, &cr, &refs, rp, err))
		goto out;
	if (lp)
		run_refs_from(&refs, &scratch.stats, &eref_r.stats);
	for (k = 0; k < nr; k++) {
		struct run_result *r = &res->r[first + k];

		set_regret(r, &refs);
		r->req = NULL;
		if (req->timeline && give_oracle(r, &scratch, err))
			goto out;
	}
	rc = 0;
out:
	for (k = 0; params && k < nr; k++)
		sim_free(params[k]);
	sim_free(params);
	run_stats_release(&scratch.stats);
	run_stats_release(&eref_r.stats);
	sim_free(scratch.slices);
	sim_free(cr.cfg);
	sim_free(cr.rr);
	return rc;
}

int run_unique_governors(const char **names, int n)
{
	int i, j, kept = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < kept && gov_find(names[j]) != gov_find(names[i]); j++)
			;
		if (j == kept)
			names[kept++] = names[i];
	}
	return kept;
}

/*
 * Is one of the request's machines a KVM guest (the cpuidle-haltpoll driver)? Built-ins and
 * machine files are read for their driver; a machine on standard input is not (it is read
 * once, later), nor one that does not load (its error comes later).
 */
static bool has_guest_machine(const struct run_request *q)
{
	struct machine m;
	struct sim_error e = { 0 };
	int k;

	for (k = 0; k < q->nr_machines; k++) {
		if (!strcmp(q->machines[k], "-"))
			continue;
		if (!machine_load(q->machines[k], &m, &e) && !strcmp(m.driver, "haltpoll"))
			return true;
		sim_error_clear(&e);
	}
	return false;
}

/*
 * The governors of a request: every registered one when none is named (those the kernel
 * registers only in a KVM guest, haltpoll, only if a machine is one), each name known, a
 * governor listed twice (menu,menu or menu and menu@6.19, the same table entry) once at its
 * first place, and the --set options checked against them.
 */
static int prepare_governors(struct run_request *q, struct sim_error *err)
{
	int i;
	unsigned int k;

	if (!q->nr_governors) {
		bool guest = has_guest_machine(q);

		for (k = 0, i = 0; k < gov_count() && i < RUN_MAX_ITEMS; k++)
			if (guest || !gov_get(k)->kvm_guest_only)
				q->governors[i++] = gov_get(k)->name;
		q->nr_governors = i;
	}
	for (i = 0; i < q->nr_governors; i++)
		if (!gov_find(q->governors[i]))
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "unknown governor '%s' (see idlesim governors)",
					     q->governors[i]);
	q->nr_governors = run_unique_governors(q->governors, q->nr_governors);
	return run_check_sets(q, err);
}

int run_grid(const struct run_request *req, struct run_results *out, struct sim_error *err)
{
	struct run_request q = *req;
	struct machine m;
	int t, k, rc = 0, stdin_fd = -1, mstdin_fd = -1;
	char stdin_path[64] = "", mstdin_path[64] = "", demo[4200];
	struct run_progress rp = { .done = 0 };

	memset(out, 0, sizeof(*out));
	if (!q.nr_traces) {
		q.traces[0] = run_default_trace(demo, sizeof(demo));
		q.nr_traces = 1;
	}
	if (!q.nr_machines) {
		q.machines[0] = "hsx";
		q.machines[1] = "bdx";
		q.machines[2] = "skl";
		q.nr_machines = 3;
	}
	if (prepare_governors(&q, err))
		return -1;
	for (t = 0; t < q.nr_traces && stdin_fd < 0; t++) {
		if (strcmp(q.traces[t], "-"))
			continue;
		/* not seekable, and replayed once per governor: read it once */
		stdin_fd = spool_stdin(err);
		if (stdin_fd < 0)
			return -1;
		spool_path(stdin_fd, stdin_path, sizeof(stdin_path));
	}
	/* A machine on standard input is loaded once per trace: read it once too. */
	for (k = 0; k < q.nr_machines && strcmp(q.machines[k], "-"); k++)
		;
	if (k < q.nr_machines) {
		if (stdin_fd >= 0) {
			close(stdin_fd);
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "--trace - and --machine - both read standard input; "
					     "give one of them as a file");
		}
		mstdin_fd = spool_stdin(err);
		if (mstdin_fd < 0)
			return -1;
		spool_path(mstdin_fd, mstdin_path, sizeof(mstdin_path));
	}
	progress_init(&rp.bar, q.progress, "runs", RUN_PROGRESS_UNITS);
	rp.total = (long)q.nr_traces * q.nr_machines * (q.nr_governors + 2);
	for (t = 0; t < q.nr_traces && !rc; t++) {
		struct run_trace tr = { strcmp(q.traces[t], "-") ? q.traces[t] : stdin_path, NULL,
					trace_display_name(q.traces[t]), 0 };

		rc = run_refcache_file_hash(q.refs, tr.path, &tr.hash, err);
		for (k = 0; k < q.nr_machines && !rc; k++) {
			uint32_t mask;

			rc = load_machine(&q, q.machines[k], mstdin_fd >= 0 ? mstdin_path : NULL, &m,
					  err) ||
			     run_disabled_mask(&q, &m, &mask, err) ||
			     run_cell(&q, 1, &tr, NULL, &m, mask, &rp, out, err);
		}
	}
	progress_end(&rp.bar);
	if (stdin_fd >= 0)
		close(stdin_fd);
	if (mstdin_fd >= 0)
		close(mstdin_fd);
	if (rc) {
		run_results_free(out);
		return -1;
	}
	return 0;
}

int run_machine_trace(const struct run_request *req, const struct machine *m,
		      const struct run_trace *trace, struct run_results *out, struct sim_error *err)
{
	struct run_request q = *req;
	uint32_t mask;

	memset(out, 0, sizeof(*out));
	/* intel_idle.* change the table as a machine is loaded (load_machine()); m is loaded
	 * already, so they would do nothing: refuse them rather than ignore them. */
	for (int i = 0; i < q.nr_sets; i++)
		if (is_intel_idle_set(&q.sets[i]))
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "%s.%s: intel_idle parameters apply when a machine is "
					     "loaded by a command, not to an already loaded machine",
					     q.sets[i].family, q.sets[i].name);
	if (prepare_governors(&q, err) || machine_check_wake_model(m, q.wake_model, err) ||
	    run_disabled_mask(&q, m, &mask, err))
		return -1;
	if (run_cell(&q, 1, trace, NULL, m, mask, NULL, out, err)) {
		run_results_free(out);
		return -1;
	}
	return 0;
}

static bool same_names(const char *const *a, int na, const char *const *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return true;
}

/* The intel_idle.* sets of a request, in order, against another's. */
static bool same_machine_sets(const struct run_request *a, const struct run_request *b)
{
	int i = 0, j = 0;

	for (;;) {
		while (i < a->nr_sets && !is_intel_idle_set(&a->sets[i]))
			i++;
		while (j < b->nr_sets && !is_intel_idle_set(&b->sets[j]))
			j++;
		if (i == a->nr_sets || j == b->nr_sets)
			return i == a->nr_sets && j == b->nr_sets;
		if (strcmp(a->sets[i].name, b->sets[j].name) || a->sets[i].value != b->sets[j].value)
			return false;
		i++;
		j++;
	}
}

bool run_same_replay(const struct run_request *a, const struct run_request *b)
{
	return a->nr_traces == 1 && b->nr_traces == 1 && a->nr_machines == 1 &&
	       b->nr_machines == 1 && !strcmp(a->traces[0], b->traces[0]) &&
	       !strcmp(a->machines[0], b->machines[0]) && strcmp(a->traces[0], "-") &&
	       strcmp(a->machines[0], "-") && a->hz == b->hz &&
	       a->latency_req_ns == b->latency_req_ns &&
	       same_names(a->disable, a->nr_disable, b->disable, b->nr_disable) &&
	       same_names(a->enable, a->nr_enable, b->enable, b->nr_enable) &&
	       !memcmp(a->topology, b->topology, sizeof(a->topology)) &&
	       a->explain_limit == b->explain_limit && a->window_from_ns == b->window_from_ns &&
	       a->window_to_ns == b->window_to_ns && a->timeline == b->timeline &&
	       a->timeline_cap == b->timeline_cap && a->queue == b->queue &&
	       a->global_order == b->global_order && a->wake_model == b->wake_model &&
	       a->wake_seed == b->wake_seed && a->gov_timeout_ns == b->gov_timeout_ns &&
	       a->refs == b->refs && a->progress == b->progress && same_machine_sets(a, b);
}

int run_grid_batch(const struct run_request *reqs, int n, struct run_results *out,
		   struct sim_error *err)
{
	struct run_request *q;
	struct run_trace tr;
	struct machine m;
	uint32_t mask;
	int j, rc;

	memset(out, 0, sizeof(*out));
	if (n < 1)
		return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0, "run_grid_batch: no request");
	for (j = 0; j < n; j++)
		if (!run_same_replay(&reqs[0], &reqs[j]))
			return sim_error_set(err, SIM_ERR_INTERNAL, "", 0, 0,
					     "run_grid_batch: request %d is not replayed as the "
					     "first is",
					     j);
	q = sim_calloc((size_t)n, sizeof(*q));
	if (!q)
		return sim_error_nomem(err, "");
	for (j = 0, rc = 0; j < n && !rc; j++) {
		q[j] = reqs[j];
		rc = prepare_governors(&q[j], err);
	}
	tr = (struct run_trace){ q[0].traces[0], NULL, trace_display_name(q[0].traces[0]), 0 };
	rc = rc || run_refcache_file_hash(q[0].refs, tr.path, &tr.hash, err) ||
	     load_machine(&q[0], q[0].machines[0], NULL, &m, err) ||
	     run_disabled_mask(&q[0], &m, &mask, err) ||
	     run_cell(q, n, &tr, NULL, &m, mask, NULL, out, err);
	sim_free(q);
	if (rc) {
		run_results_free(out);
		return -1;
	}
	return 0;
}

/* "tbench --clients 2 (seed 1, 0.05 s)": the parameters that differ from the defaults and
 * matter (a pinned run names --placement pinned, and leaves out the scheduler's others). */
static void workload_name(char *buf, size_t n, const struct workload *w, const int64_t *params,
			  int64_t duration_ns, uint64_t seed)
{
	int64_t def[WL_MAX_PARAMS];
	size_t used;
	unsigned int k;

	workload_defaults(w, def);
	used = (size_t)snprintf(buf, n, "%s", w->name);
	for (k = 0; k < w->nr_params && used < n; k++) {
		const char *word = workload_param_value_word(w, (int)k, params[k]);

		if (params[k] == def[k] || (!word && !workload_param_applies(w, params, (int)k)))
			continue;
		if (word)
			used += (size_t)snprintf(buf + used, n - used, " --%s %s",
						 w->params[k].name, word);
		else
			used += (size_t)snprintf(buf + used, n - used, " --%s %lld",
						 w->params[k].name, (long long)params[k]);
	}
	if (used < n)
		snprintf(buf + used, n - used, " (seed %llu, %.9g s)", (unsigned long long)seed,
			 (double)duration_ns / 1e9);
}

int run_workload(const struct run_request *req, const struct workload *w, const int64_t *params,
		 int64_t duration_ns, uint64_t seed, struct run_results *out,
		 struct sim_error *err)
{
	struct run_request q = *req;
	struct run_loop lp = { w, params, duration_ns, seed };
	struct run_trace tr = { NULL, NULL, NULL, CFGREC_FNV_OFFSET };
	char name[512];
	struct machine m;
	uint32_t mask;

	memset(out, 0, sizeof(*out));
	workload_name(name, sizeof(name), w, params, duration_ns, seed);
	tr.name = name;
	/* what ran: the model, all its parameters, the seed and the length */
	tr.hash = cfgrec_fnv1a(tr.hash, w->name, strlen(w->name));
	tr.hash = cfgrec_fnv1a(tr.hash, params, w->nr_params * sizeof(*params));
	tr.hash = cfgrec_fnv1a(tr.hash, &seed, sizeof(seed));
	tr.hash = cfgrec_fnv1a(tr.hash, &duration_ns, sizeof(duration_ns));
	if (!q.nr_machines)
		q.machines[q.nr_machines++] = "skl";
	if (prepare_governors(&q, err) || load_machine(&q, q.machines[0], NULL, &m, err) ||
	    run_disabled_mask(&q, &m, &mask, err))
		return -1;
	if (run_cell(&q, 1, &tr, &lp, &m, mask, NULL, out, err)) {
		run_results_free(out);
		return -1;
	}
	return 0;
}

void run_results_free(struct run_results *res)
{
	int i;

	for (i = 0; i < res->n; i++) {
		run_stats_release(&res->r[i].stats);
		sim_free(res->r[i].decisions);
		sim_free(res->r[i].slices);
		sim_free(res->r[i].oracle_slices);
		sim_free(res->r[i].segs);
		sim_free(res->r[i].sched.cpu);
		sim_free(res->r[i].sched.task);
	}
	sim_free(res->r);
	memset(res, 0, sizeof(*res));
}
