// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff.c - idlesim diff: two governors asked in lockstep at every decision of one replay
 * (sim/run/diff.h), and, with --free, each side's own replay.
 */
#include "sim/run/diff.h"
#include "sim/base/alloc.h"
#include "sim/base/common.h"
#include "sim/base/spool.h"
#include "sim/run/cfgrec.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

double diff_pct(uint64_t divergent, uint64_t decisions)
{
	return decisions ? 100.0 * (double)divergent / (double)decisions : 0;
}

const char *diff_drive_name(enum diff_drive d)
{
	return d == DIFF_DRIVE_A ? "A" : d == DIFF_DRIVE_B ? "B" : "oracle";
}

/* While a cell replays: where each side's answer comes from, and what is counted. */
struct diff_ctx {
	struct diff_cell *cell;
	int src[2]; /* -1: the driver's own (d->state, d->gov); else a shadow's index */
	long keep;
	bool nomem;
};

static const char *rule_of(const struct cpuidle_explain *ex)
{
	int i;

	for (i = 0; ex && i < ex->nr; i++)
		if (!strcmp(ex->items[i].key, "rule") && ex->items[i].str)
			return ex->items[i].str;
	return "-";
}

static void count_rule(struct diff_cell *c, int side, const char *rule, bool div)
{
	struct diff_rule *r = c->rules[side];
	int i;

	for (i = 0; i < c->nr_rules[side] && strcmp(r[i].rule, rule); i++)
		;
	if (i == c->nr_rules[side]) {
		if (i == DIFF_MAX_RULES) {
			c->rules_other[side]++;
			return;
		}
		snprintf(r[i].rule, sizeof(r[i].rule), "%s", rule);
		c->nr_rules[side]++;
	}
	r[i].decisions++;
	r[i].divergent += div;
}

static void on_decision(void *ud, const struct sim_decision *d)
{
	struct diff_ctx *x = ud;
	struct diff_cell *c = x->cell;
	struct diff_cpu *cpu = &c->cpus[d->cpu];
	const struct cpuidle_explain *ex[2];
	size_t bin = SIZE_MAX;
	int st[2], s;
	bool tk[2], state_div, tick_div, div;

	for (s = 0; s < 2; s++) {
		if (x->src[s] < 0) {
			st[s] = d->state;
			tk[s] = d->stop_tick;
			ex[s] = d->gov;
		} else {
			st[s] = d->shadow[x->src[s]].state;
			tk[s] = d->shadow[x->src[s]].stop_tick;
			ex[s] = d->shadow[x->src[s]].ex;
		}
	}
	state_div = st[0] != st[1];
	tick_div = !d->tick_stopped_before && tk[0] != tk[1];
	div = state_div || tick_div;
	c->decisions++;
	cpu->decisions++;
	c->matrix[st[0]][st[1]]++;
	if (c->bin_decisions && d->time_ns >= c->start_ns && d->time_ns < c->end_ns) {
		size_t b = (size_t)((double)(d->time_ns - c->start_ns) /
				    (double)(c->end_ns - c->start_ns) * DIFF_BINS);

		bin = (size_t)d->cpu * DIFF_BINS + (b < DIFF_BINS ? b : DIFF_BINS - 1);
		c->bin_decisions[bin]++;
	}
	for (s = 0; s < 2; s++)
		count_rule(c, s, rule_of(ex[s]), div);
	if (!div)
		return;
	if (bin != SIZE_MAX)
		c->bin_divergent[bin]++;
	c->divergent++;
	c->state_divergent += state_div;
	c->tick_divergent += tick_div;
	cpu->divergent++;
	cpu->state_divergent += state_div;
	cpu->tick_divergent += tick_div;
	if (cpu->first_ns < 0)
		cpu->first_ns = d->time_ns;
	if ((long)c->nr_div < x->keep) {
		struct diff_divergence *v = &c->div[c->nr_div++];

		v->d = *d;
		v->d.gov = NULL;
		for (s = 0; s < SIM_MAX_SHADOWS; s++)
			v->d.shadow[s].ex = NULL;
		for (s = 0; s < 2; s++) {
			v->state[s] = st[s];
			v->stop_tick[s] = tk[s];
			if (ex[s])
				v->ex[s] = *ex[s];
			else
				v->ex[s].nr = 0;
		}
	}
}

/* Side s's request: the shared knobs and sets, then its own sets; its one governor. */
static void side_request(const struct diff_request *req, int s, struct run_request *q)
{
	int k;

	*q = req->run;
	q->governors[0] = req->side[s].governor;
	q->nr_governors = 1;
	for (k = 0; k < req->side[s].nr_sets && q->nr_sets < RUN_MAX_SETS; k++)
		q->sets[q->nr_sets++] = req->side[s].sets[k];
}

/* Each side's own --set options apply to its governor; else an input error. */
static int check_side_sets(const struct diff_request *req, const struct cpuidle_governor **g,
			   struct sim_error *err)
{
	struct sim_error e = { 0 };
	int s;

	for (s = 0; s < 2; s++)
		if (run_check_sets_apply(req->side[s].sets, req->side[s].nr_sets, &g[s], 1, &e))
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0, "--set-%c (side %c, %s): %s",
					     s ? 'b' : 'a', s ? 'B' : 'A', g[s]->name, e.text);
	return 0;
}

static bool same_sides(const struct diff_results *r)
{
	unsigned int k;

	if (r->gov[0] != r->gov[1])
		return false;
	for (k = 0; k < r->gov[0]->nr_params && k < RUN_MAX_PARAMS; k++)
		if (r->params[0][k] != r->params[1][k])
			return false;
	return true;
}

/* Each side's own replay for --free: `run`'s scores (regret included) of its governor. */
static int free_runs(const struct diff_request *req, const struct machine *m,
		     const struct run_trace *t, struct diff_cell *c, struct sim_error *err)
{
	struct run_request q;
	int s, k, n;

	for (s = 0; s < 2; s++) {
		side_request(req, s, &q);
		/* intel_idle.* changed the table when the machine was loaded */
		for (k = 0, n = 0; k < q.nr_sets; k++)
			if (strcmp(q.sets[k].family, "intel_idle"))
				q.sets[n++] = q.sets[k];
		q.nr_sets = n;
		q.explain_limit = 0;
		q.timeline = false;
		q.progress = NULL;
		if (run_machine_trace(&q, m, t, &c->free_runs[s], err))
			return -1;
	}
	return 0;
}

/* One trace on one machine: the lockstep replay, then the free runs if asked. */
static int diff_cell_run(const struct diff_request *req, struct diff_results *res,
			 const struct run_trace *t, const struct machine *m, uint32_t mask,
			 long long *const params[2], struct diff_cell *c, struct sim_error *err)
{
	struct sim_config cfg = { 0 };
	struct sim_shadow sh[SIM_MAX_SHADOWS];
	struct diff_ctx x = { c, { -1, -1 }, req->keep, false };
	struct run_trace_src src;
	struct run_stats stats;
	int i, rc;

	snprintf(c->trace, sizeof(c->trace), "%s", t->name);
	c->mach = *m;
	cfg.machine = m;
	cfg.hz = req->run.hz;
	cfg.latency_req_ns = req->run.latency_req_ns;
	cfg.disabled = mask;
	cfg.queue = req->run.queue;
	cfg.global_order = req->run.global_order;
	cfg.wake_model = req->run.wake_model;
	cfg.wake_seed = req->run.wake_seed;
	cfg.gov_timeout_ns = req->run.gov_timeout_ns;
	cfg.explain = on_decision;
	cfg.explain_ud = &x;
	cfg.explain_limit = -1;
	cfg.explain_truncated = true;
	cfg.shadows = sh;
	switch (req->drive) {
	case DIFF_DRIVE_A:
	case DIFF_DRIVE_B: {
		int d = req->drive == DIFF_DRIVE_B;

		cfg.gov = res->gov[d];
		cfg.gov_params = params[d];
		sh[0].gov = res->gov[!d];
		sh[0].gov_params = params[!d];
		cfg.nr_shadows = 1;
		x.src[!d] = 0;
		break;
	}
	default:
		cfg.gov = gov_find(RUN_LATENCY_REFERENCE);
		for (i = 0; i < 2; i++) {
			sh[i].gov = res->gov[i];
			sh[i].gov_params = params[i];
			x.src[i] = i;
		}
		cfg.nr_shadows = 2;
	}
	if (run_trace_open(t, &src, err))
		return -1;
	if (!cfg.hz)
		cfg.hz = src.src.hdr->hz ? src.src.hdr->hz : 250;
	c->hz = cfg.hz;
	c->nr_cpus = src.src.hdr->cpus;
	c->cpus = sim_calloc((size_t)(c->nr_cpus > 0 ? c->nr_cpus : 1), sizeof(*c->cpus));
	c->div = req->keep > 0 ? sim_calloc((size_t)req->keep, sizeof(*c->div)) : NULL;
	if (!c->cpus || (req->keep > 0 && !c->div)) {
		run_trace_close(&src);
		return sim_error_nomem(err, "");
	}
	for (i = 0; i < c->nr_cpus; i++)
		c->cpus[i].first_ns = -1;
	/* without `start` the replay starts at the first record, at or after 0 */
	c->start_ns = src.src.hdr->has_start ? src.src.hdr->start_ns : 0;
	if (src.src.hdr->has_end && src.src.hdr->end_ns > c->start_ns) {
		c->end_ns = src.src.hdr->end_ns;
		c->bin_decisions = sim_calloc((size_t)c->nr_cpus * DIFF_BINS, sizeof(uint32_t));
		c->bin_divergent = sim_calloc((size_t)c->nr_cpus * DIFF_BINS, sizeof(uint32_t));
		if (!c->bin_decisions || !c->bin_divergent) {
			run_trace_close(&src);
			return sim_error_nomem(err, "");
		}
	}
	rc = replay_run(&src.src, &cfg, &stats, err);
	run_trace_close(&src);
	if (rc)
		return -1;
	run_stats_release(&stats);
	res->decisions += c->decisions;
	res->divergent += c->divergent;
	return req->free ? free_runs(req, m, t, c, err) : 0;
}

/* The tunables of both sides, each range-checked; the configuration of the result. */
static int side_params(const struct diff_request *req, struct diff_results *res,
		       long long *params[2], struct sim_error *err)
{
	struct run_request q;
	unsigned int k;
	int s;

	for (s = 0; s < 2; s++) {
		side_request(req, s, &q);
		if (run_gov_params(&q, res->gov[s], &params[s], err))
			return -1;
		for (k = 0; k < res->gov[s]->nr_params && k < RUN_MAX_PARAMS; k++)
			res->params[s][k] = params[s][k];
		res->nr_sets[s] = cfgrec_applied_sets(q.sets, q.nr_sets, res->gov[s], res->sets[s]);
	}
	return 0;
}

int diff_run(const struct diff_request *req, struct diff_results *out, struct sim_error *err)
{
	struct diff_request q = *req;
	long long *params[2] = { NULL, NULL };
	char stdin_path[64] = "", demo[4200];
	int t, k, s, stdin_fd = -1, rc = 0;

	memset(out, 0, sizeof(*out));
	out->drive = req->drive;
	out->free = req->free;
	for (s = 0; s < 2; s++) {
		out->gov[s] = gov_find(req->side[s].governor);
		if (!out->gov[s])
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "unknown governor '%s' (see idlesim governors)",
					     req->side[s].governor);
	}
	if (run_check_sets_apply(req->run.sets, req->run.nr_sets, out->gov, 2, err) ||
	    check_side_sets(req, out->gov, err) || side_params(req, out, params, err))
		goto fail;
	out->same = same_sides(out);
	if (!q.run.nr_traces) {
		q.run.traces[0] = run_default_trace(demo, sizeof(demo));
		q.run.nr_traces = 1;
	}
	if (!q.run.nr_machines) {
		q.run.machines[0] = "skl";
		q.run.nr_machines = 1;
	}
	for (t = 0; t < q.run.nr_traces; t++) {
		if (strcmp(q.run.traces[t], "-"))
			continue;
		stdin_fd = spool_stdin(err);
		if (stdin_fd < 0)
			goto fail;
		spool_path(stdin_fd, stdin_path, sizeof(stdin_path));
		break;
	}
	out->cells = sim_calloc((size_t)(q.run.nr_traces * q.run.nr_machines), sizeof(*out->cells));
	if (!out->cells) {
		sim_error_nomem(err, "");
		goto fail;
	}
	for (t = 0; t < q.run.nr_traces && !rc; t++) {
		bool in = !strcmp(q.run.traces[t], "-");
		struct run_trace tr = { in ? stdin_path : q.run.traces[t], NULL,
					in ? "<stdin>" : q.run.traces[t], 0 };

		if (!strcmp(q.run.traces[t], demo))
			tr.name = "traces/demo.trace";
		rc = cfgrec_file_hash(tr.path, &tr.hash, err);
		for (k = 0; k < q.run.nr_machines && !rc; k++) {
			struct machine m;
			uint32_t mask;

			rc = run_load_machine(&q.run, q.run.machines[k], &m, err) ||
			     run_disabled_mask(&q.run, &m, &mask, err) ||
			     diff_cell_run(&q, out, &tr, &m, mask, params, &out->cells[out->n++], err);
		}
	}
	if (stdin_fd >= 0)
		close(stdin_fd);
	if (rc)
		goto fail;
	sim_free(params[0]);
	sim_free(params[1]);
	return 0;
fail:
	sim_free(params[0]);
	sim_free(params[1]);
	diff_results_free(out);
	return -1;
}

void diff_results_free(struct diff_results *res)
{
	int i;

	for (i = 0; i < res->n; i++) {
		sim_free(res->cells[i].cpus);
		sim_free(res->cells[i].div);
		sim_free(res->cells[i].bin_decisions);
		sim_free(res->cells[i].bin_divergent);
		run_results_free(&res->cells[i].free_runs[0]);
		run_results_free(&res->cells[i].free_runs[1]);
	}
	sim_free(res->cells);
	memset(res, 0, sizeof(*res));
}
