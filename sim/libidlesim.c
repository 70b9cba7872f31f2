// SPDX-License-Identifier: GPL-2.0-only
/*
 * libidlesim.c - the public API (include/idlesim.h) over the simulator's modules.
 *
 * Thin wrappers: a machine object is a struct machine, a trace object remembers where its
 * records are (a path, or a copy of native text) and is reopened by every run, options are
 * a struct run_request with storage for its strings, and a run is one cell of `idlesim
 * run`'s grid (run_machine_trace), so the library's numbers are the command line's.
 *
 * Only the functions declared with IDLESIM_API are exported from libidlesim.so: everything
 * else is compiled with -fvisibility=hidden. idlesim_error is struct sim_error under another
 * name; the static assertions below keep the two layouts identical.
 */
#include "include/idlesim.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/base/common.h"
#include "sim/machine/machine.h"
#include "sim/report/report.h"
#include "sim/run/run.h"
#include "sim/engine/stats.h"
#include "sim/trace/trace.h"
#include "sim/base/version.h"

#define SAME_FIELD(f, g)                                                                           \
	_Static_assert(offsetof(struct sim_error, f) == offsetof(idlesim_error, g) &&             \
			       sizeof(((struct sim_error *)0)->f) == sizeof(((idlesim_error *)0)->g), \
		       "idlesim_error." #g " differs from sim_error." #f)
SAME_FIELD(code, code);
SAME_FIELD(source, file);
SAME_FIELD(line, line);
SAME_FIELD(column, column);
SAME_FIELD(text, message);
_Static_assert(sizeof(struct sim_error) == sizeof(idlesim_error), "idlesim_error size");
_Static_assert((int)IDLESIM_ERR_INPUT == SIM_ERR_INPUT && (int)IDLESIM_ERR_NOMEM == SIM_ERR_NOMEM &&
		       (int)IDLESIM_ERR_IO == SIM_ERR_IO &&
		       (int)IDLESIM_ERR_INTERNAL == SIM_ERR_INTERNAL,
	       "idlesim_error_code values");
_Static_assert((int)IDLESIM_WAKE_NR == WAKE_NR_CAUSES && (int)IDLESIM_WAKE_TICK == WAKE_TICK &&
		       (int)IDLESIM_WAKE_POLL == WAKE_POLL,
	       "idlesim_wake_cause values");

#define E(err) ((struct sim_error *)(err))

/* Longest --disable / --enable argument kept: a state name or index. */
#define OPT_STATE_LEN 32

struct idlesim_machine {
	struct machine m;
};

struct idlesim_trace {
	char *path; /* NULL for text */
	char *text;
	char *name;
	int cpus, hz;
	uint64_t text_hash; /* text: its content hash, taken once */
	/* The references of regret of every run of this trace, per configuration (machine,
	 * HZ, latency limit, states, wake model): computed by the first run that needs them,
	 * reused by the others, whatever the governor (sim/run/refcache.h; thread-safe). A
	 * file's content hash is remembered there too, by the file's identity. */
	struct run_refcache *refs;
};

struct idlesim_options {
	struct run_request req;
	char disable[RUN_MAX_ITEMS][OPT_STATE_LEN];
	char enable[RUN_MAX_ITEMS][OPT_STATE_LEN];
};

struct idlesim_result {
	struct run_results res; /* exactly one result */
};

const char *idlesim_version(void)
{
	return IDLESIM_VERSION;
}

char *idlesim_error_string(const idlesim_error *err, char *buf, size_t size)
{
	return sim_error_format((const struct sim_error *)err, buf, size);
}

/* An input error for a NULL argument: true when p is NULL. */
static bool missing(const void *p, const char *what, idlesim_error *err)
{
	if (!p)
		sim_error_set(E(err), SIM_ERR_INPUT, "", 0, 0, "%s: NULL", what);
	return !p;
}

/* ---- machines ---- */

const char *idlesim_machine_builtin_name(unsigned int i)
{
	return i < machine_builtin_count() ? machine_builtin(i)->name : NULL;
}

/* Keep m if it is valid, else free it. */
static idlesim_machine *machine_checked(idlesim_machine *m, int rc, const char *source,
					idlesim_error *err)
{
	if (rc || machine_validate(&m->m, source, E(err))) {
		sim_free(m);
		return NULL;
	}
	return m;
}

idlesim_machine *idlesim_machine_load(const char *name_or_path, idlesim_error *err)
{
	idlesim_machine *m;

	if (missing(name_or_path, "idlesim_machine_load", err))
		return NULL;
	m = sim_malloc(sizeof(*m));
	if (!m) {
		sim_error_nomem(E(err), name_or_path);
		return NULL;
	}
	return machine_checked(m, machine_load(name_or_path, &m->m, E(err)), name_or_path, err);
}

idlesim_machine *idlesim_machine_from_json(const char *json, const char *name, idlesim_error *err)
{
	idlesim_machine *m;

	if (missing(json, "idlesim_machine_from_json", err))
		return NULL;
	m = sim_malloc(sizeof(*m));
	name = name ? name : "<string>";
	if (!m) {
		sim_error_nomem(E(err), name);
		return NULL;
	}
	return machine_checked(m, machine_load_json_string(json, name, &m->m, E(err)), name, err);
}

void idlesim_machine_free(idlesim_machine *m)
{
	sim_free(m);
}

const char *idlesim_machine_name(const idlesim_machine *m)
{
	return m->m.name;
}

int idlesim_machine_cpus(const idlesim_machine *m)
{
	return machine_nr_cpus(&m->m);
}

int idlesim_machine_state_count(const idlesim_machine *m)
{
	return m->m.state_count;
}

static const struct machine_state *mstate(const idlesim_machine *m, int state)
{
	return state >= 0 && state < m->m.state_count ? &m->m.states[state] : NULL;
}

const char *idlesim_machine_state_name(const idlesim_machine *m, int state)
{
	return mstate(m, state) ? mstate(m, state)->name : NULL;
}

int64_t idlesim_machine_exit_latency_ns(const idlesim_machine *m, int state)
{
	return mstate(m, state) ? mstate(m, state)->exit_latency_ns : -1;
}

int64_t idlesim_machine_target_residency_ns(const idlesim_machine *m, int state)
{
	return mstate(m, state) ? mstate(m, state)->target_residency_ns : -1;
}

/* ---- traces ---- */

void idlesim_trace_free(idlesim_trace *t)
{
	if (!t)
		return;
	sim_free(t->path);
	sim_free(t->text);
	sim_free(t->name);
	run_refcache_free(t->refs);
	sim_free(t);
}

/* Open t once to check it and learn its header; every run opens it again. */
static idlesim_trace *trace_probe(idlesim_trace *t, idlesim_error *err)
{
	struct run_trace rt = { t->path, t->text, t->name, 0 };
	struct run_trace_src s;

	if (run_trace_open(&rt, &s, E(err))) {
		idlesim_trace_free(t);
		return NULL;
	}
	t->cpus = s.src.hdr->cpus;
	t->hz = s.src.hdr->hz;
	run_trace_close(&s);
	return t;
}

/* A trace object owning copies of path (or text) and name; NULL on allocation failure. */
static idlesim_trace *trace_new(const char *path, const char *text, const char *name,
				idlesim_error *err)
{
	idlesim_trace *t = sim_calloc(1, sizeof(*t));

	if (t) {
		t->path = path ? sim_strdup(path) : NULL;
		t->text = text ? sim_strdup(text) : NULL;
		t->name = sim_strdup(name);
		t->refs = run_refcache_new();
		if (text)
			t->text_hash = cfgrec_fnv1a(CFGREC_FNV_OFFSET, text, strlen(text));
	}
	if (!t || (path && !t->path) || (text && !t->text) || !t->name || !t->refs) {
		idlesim_trace_free(t);
		sim_error_nomem(E(err), name);
		return NULL;
	}
	return trace_probe(t, err);
}

idlesim_trace *idlesim_trace_open(const char *path, idlesim_error *err)
{
	if (missing(path, "idlesim_trace_open", err))
		return NULL;
	/* Every run reads the trace again, which standard input allows once. */
	if (!strcmp(path, "-")) {
		sim_error_set(E(err), SIM_ERR_INPUT, "-", 0, 0,
			      "standard input cannot be read by every run: read it into a string "
			      "and use idlesim_trace_from_string()");
		return NULL;
	}
	return trace_new(path, NULL, path, err);
}

idlesim_trace *idlesim_trace_from_string(const char *text, const char *name, idlesim_error *err)
{
	if (missing(text, "idlesim_trace_from_string", err))
		return NULL;
	return trace_new(NULL, text, name ? name : "<string>", err);
}

const char *idlesim_trace_name(const idlesim_trace *t)
{
	return t->name;
}

int idlesim_trace_cpus(const idlesim_trace *t)
{
	return t->cpus;
}

unsigned long idlesim_trace_reference_runs(const idlesim_trace *t)
{
	return run_refcache_computed(t->refs);
}

int idlesim_trace_hz(const idlesim_trace *t)
{
	return t->hz;
}

/* ---- governors ---- */

const char *idlesim_governor_name(unsigned int i)
{
	const struct cpuidle_governor *g = gov_get(i);

	return g ? g->name : NULL;
}

const char *idlesim_governor_resolve(const char *name)
{
	const struct cpuidle_governor *g = name ? gov_find(name) : NULL;

	return g ? g->name : NULL;
}

int idlesim_governor_tunable(const char *governor, unsigned int i, const char **name,
			     long long *def, long long *min, long long *max)
{
	const struct cpuidle_governor *g = governor ? gov_find(governor) : NULL;
	const struct gov_param *p;

	if (!g || i >= g->nr_params)
		return -1;
	p = &g->params[i];
	if (name)
		*name = p->name;
	if (def)
		*def = p->def;
	if (min)
		*min = p->min;
	if (max)
		*max = p->max;
	return 0;
}

/* ---- options ---- */

idlesim_options *idlesim_options_new(void)
{
	idlesim_options *o = sim_calloc(1, sizeof(*o));

	if (o)
		run_request_defaults(&o->req);
	return o;
}

void idlesim_options_free(idlesim_options *o)
{
	sim_free(o);
}

int idlesim_options_set_hz(idlesim_options *o, int hz, idlesim_error *err)
{
	if (hz < 0 || hz > 10000)
		return sim_error_set(E(err), SIM_ERR_INPUT, "", 0, 0,
				     "hz %d: must be 1..10000, or 0 for the trace's", hz);
	o->req.hz = hz;
	return 0;
}

int idlesim_options_set_latency_limit_ns(idlesim_options *o, int64_t ns, idlesim_error *err)
{
	/* the command line's --latency-limit-us range, 0..2e9 us */
	if (ns > 2000000000 * SIM_NS_PER_US)
		return sim_error_set(E(err), SIM_ERR_INPUT, "", 0, 0,
				     "latency limit %lld ns: must be 0..2000000000000000, or "
				     "negative for none",
				     (long long)ns);
	o->req.latency_req_ns = ns < 0 ? -1 : ns;
	return 0;
}

/* Keep a copy of a --disable/--enable argument in store[*n]. */
static int state_add(const char *what, const char **list, char (*store)[OPT_STATE_LEN], int *n,
		     const char *state, idlesim_error *err)
{
	if (!state || !*state || strlen(state) >= OPT_STATE_LEN)
		return sim_error_set(E(err), SIM_ERR_INPUT, "", 0, 0,
				     "%s '%s': expected a state name or index", what,
				     state ? state : "");
	if (*n >= RUN_MAX_ITEMS)
		return sim_error_set(E(err), SIM_ERR_INPUT, "", 0, 0, "too many %s states", what);
	memcpy(store[*n], state, strlen(state) + 1);
	list[*n] = store[*n];
	(*n)++;
	return 0;
}

int idlesim_options_disable_state(idlesim_options *o, const char *state, idlesim_error *err)
{
	return state_add("disable", o->req.disable, o->disable, &o->req.nr_disable, state, err);
}

int idlesim_options_enable_state(idlesim_options *o, const char *state, idlesim_error *err)
{
	return state_add("enable", o->req.enable, o->enable, &o->req.nr_enable, state, err);
}

int idlesim_options_set_tunable(idlesim_options *o, const char *family, const char *name,
				long long value, idlesim_error *err)
{
	struct run_set *s;

	if (!family || !name || !*family || !*name ||
	    strlen(family) >= sizeof(s->family) || strlen(name) >= sizeof(s->name))
		return sim_error_set(E(err), SIM_ERR_INPUT, "", 0, 0,
				     "tunable '%s.%s': expected a governor family and a tunable "
				     "name, e.g. menu and decay",
				     family ? family : "", name ? name : "");
	if (o->req.nr_sets >= RUN_MAX_SETS)
		return sim_error_set(E(err), SIM_ERR_INPUT, "", 0, 0, "too many tunables set");
	s = &o->req.sets[o->req.nr_sets++];
	memcpy(s->family, family, strlen(family) + 1);
	memcpy(s->name, name, strlen(name) + 1);
	s->value = value;
	return 0;
}

int idlesim_options_set_wake_model(idlesim_options *o, const char *model, idlesim_error *err)
{
	if (!model || wake_model_parse(model, &o->req.wake_model))
		return sim_error_set(E(err), SIM_ERR_INPUT, "", 0, 0,
				     "wake-latency model '%s': not worst, typical or measured",
				     model ? model : "");
	return 0;
}

void idlesim_options_set_wake_seed(idlesim_options *o, uint64_t seed)
{
	o->req.wake_seed = seed;
}

void idlesim_options_set_decision_log(idlesim_options *o, long limit)
{
	o->req.explain_limit = limit < 0 ? -1 : limit;
}

/* ---- running ---- */

idlesim_result *idlesim_run(const idlesim_machine *m, const idlesim_trace *t, const char *governor,
			    const idlesim_options *o, idlesim_error *err)
{
	struct run_trace tr;
	struct run_request req;
	idlesim_result *r;

	if (missing(m, "idlesim_run: machine", err) || missing(t, "idlesim_run: trace", err) ||
	    missing(governor, "idlesim_run: governor", err))
		return NULL;
	tr = (struct run_trace){ t->path, t->text, t->name, 0 };
	if (o)
		req = o->req;
	else
		run_request_defaults(&req);
	req.governors[0] = governor;
	req.nr_governors = 1;
	req.refs = t->refs;
	if (t->text)
		tr.hash = t->text_hash;
	else if (run_refcache_file_hash(t->refs, t->path, &tr.hash, E(err)))
		return NULL;
	r = sim_calloc(1, sizeof(*r));
	if (!r) {
		sim_error_nomem(E(err), "");
		return NULL;
	}
	if (run_machine_trace(&req, &m->m, &tr, &r->res, E(err))) {
		sim_free(r);
		return NULL;
	}
	return r;
}

void idlesim_result_free(idlesim_result *r)
{
	if (!r)
		return;
	run_results_free(&r->res);
	sim_free(r);
}

static const struct run_result *one(const idlesim_result *r)
{
	return &r->res.r[0];
}

const char *idlesim_result_governor(const idlesim_result *r)
{
	return one(r)->governor;
}

int idlesim_result_cpus(const idlesim_result *r)
{
	return one(r)->stats.nr_cpus;
}

int idlesim_result_hz(const idlesim_result *r)
{
	return one(r)->hz;
}

int idlesim_result_state_count(const idlesim_result *r)
{
	return one(r)->stats.state_count;
}

const char *idlesim_result_state_name(const idlesim_result *r, int state)
{
	const struct run_stats *s = &one(r)->stats;

	return state >= 0 && state < s->state_count ? s->state_names[state] : NULL;
}

/* The counters of CPU cpu (-1: the sums), NULL if out of range. */
static const struct cpu_stats *cpu_of(const idlesim_result *r, int cpu)
{
	const struct run_stats *s = &one(r)->stats;

	if (cpu == -1)
		return &s->total;
	return cpu >= 0 && cpu < s->nr_cpus ? &s->cpus[cpu] : NULL;
}

int idlesim_result_state(const idlesim_result *r, int cpu, int state,
			 struct idlesim_state_stats *out)
{
	const struct cpu_stats *cs = cpu_of(r, cpu);
	const struct cpuidle_state_usage *u;

	if (!cs || state < 0 || state >= one(r)->stats.state_count)
		return -1;
	u = &cs->states[state];
	memset(out, 0, sizeof(*out));
	out->usage = u->usage;
	out->time_ns = (int64_t)u->time_ns;
	out->above = u->above;
	out->below = u->below;
	out->disabled = (one(r)->disabled >> state) & 1u;
	return 0;
}

int idlesim_result_summary(const idlesim_result *r, int cpu, struct idlesim_summary *out)
{
	const struct run_result *rr = one(r);
	const struct run_stats *rs = &rr->stats;
	const struct cpu_stats *cs = cpu_of(r, cpu);
	struct stats_summary s;
	double dur = run_duration_s(rs);
	int i;

	if (!cs)
		return -1;
	stats_summarize(rs, cs, cpu < 0 ? rs->nr_cpus : 1, &s);
	memset(out, 0, sizeof(*out));
	out->start_ns = rs->start_ns;
	out->end_ns = rs->end_ns;
	out->idle_entries = s.idle_entries;
	out->above = s.above;
	out->below = s.below;
	out->hits = s.hits;
	out->above_pct = s.above_pct;
	out->below_pct = s.below_pct;
	out->hits_pct = s.hits_pct;
	out->busy_pct = s.busy_pct;
	for (i = 0; i < IDLESIM_WAKE_NR; i++)
		out->wakeups[i] = cs->wakeups[i];
	out->lat_samples = s.lat_samples;
	out->lat_mean_ns = s.lat_mean_ns;
	out->lat_p50_ns = s.lat_p50_ns;
	out->lat_p99_ns = s.lat_p99_ns;
	out->lat_max_ns = s.lat_max_ns;
	out->energy_j = rs->energy_j;
	out->idle_energy_j = rs->idle_energy_j;
	out->transition_energy_j = rs->transition_energy_j;
	out->package_energy_j = rs->package_energy_j;
	out->avg_power_w = dur > 0 ? rs->energy_j / dur : 0;
	out->has_regret = rr->has_regret;
	out->regret_energy_j = rr->regret_energy_j;
	out->regret_energy_pct = rr->regret_energy_pct;
	out->regret_package_j = rr->regret_package_j;
	out->regret_lat_mean_ns = rr->regret_lat_mean_ns;
	return 0;
}

size_t idlesim_result_decision_count(const idlesim_result *r)
{
	return one(r)->nr_decisions;
}

int idlesim_result_decision(const idlesim_result *r, size_t i, struct idlesim_decision *out)
{
	const struct sim_decision *d;

	if (i >= one(r)->nr_decisions)
		return -1;
	d = &one(r)->decisions[i].d;
	memset(out, 0, sizeof(*out));
	out->time_ns = d->time_ns;
	out->cpu = d->cpu;
	out->state = d->state;
	out->stop_tick = d->stop_tick;
	out->tick_stopped_before = d->tick_stopped_before;
	out->tick_stopped_after = d->tick_stopped_after;
	out->sleep_length_ns = d->sleep_length_ns;
	out->delta_tick_ns = d->delta_tick_ns;
	out->latency_req_ns = d->latency_req_ns;
	out->oracle_idle_ns = d->oracle_idle_ns;
	out->wake_ns = d->wake_ns;
	out->cause = (enum idlesim_wake_cause)d->cause;
	out->residency_ns = d->residency_ns;
	out->verdict = d->verdict;
	out->first = d->first;
	out->nr_vars = one(r)->decisions[i].ex.nr;
	return 0;
}

int idlesim_result_decision_var(const idlesim_result *r, size_t i, int j, const char **key,
				const char **str, long long *val)
{
	const struct cpuidle_explain *ex;

	if (i >= one(r)->nr_decisions)
		return -1;
	ex = &one(r)->decisions[i].ex;
	if (j < 0 || j >= ex->nr)
		return -1;
	if (key)
		*key = ex->items[j].key;
	if (str)
		*str = ex->items[j].str;
	if (val)
		*val = ex->items[j].val;
	return 0;
}

char *idlesim_result_config_json(const idlesim_result *r)
{
	json_t *o = r ? report_config_json(one(r)) : NULL;
	char *s;

	if (!o)
		return NULL;
	/* jansson's allocator is malloc (the library never changes it): idlesim_free frees */
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	json_decref(o);
	return s;
}

void idlesim_free(void *p)
{
	free(p);
}
