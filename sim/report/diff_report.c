// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff_report.c - `idlesim diff` results in text, JSON, CSV, JUnit XML and TAP. Pure
 * functions of the results: the same input gives byte-identical output.
 */
#include "sim/report/diff_report.h"
#include "sim/base/common.h"
#include "sim/base/version.h"
#include "sim/report/html.h"
#include "sim/report/report.h"

#include <jansson.h>
#include <string.h>

#define DIFF_WIDTH 160

int diff_format_parse(const char *s, enum diff_format *f)
{
	static const char *const names[] = { "text", "json", "csv", "junit", "tap", "html" };
	size_t i;

	for (i = 0; i < SIM_ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*f = (enum diff_format)i;
			return 0;
		}
	return -1;
}

bool diff_cell_exceeds(const struct diff_cell *c, double max_pct)
{
	return max_pct >= 0 && diff_pct(c->divergent, c->decisions) > max_pct;
}

static const char *side_name(int s)
{
	return s ? "B" : "A";
}

/* "menu@6.12" or "menu@6.12 (menu.decay=4)": a side's governor and its own sets. */
static void side_label(char *buf, size_t n, const struct diff_results *res, int s)
{
	size_t len;
	int k;

	len = (size_t)snprintf(buf, n, "%s", res->gov[s]->file ? res->gov[s]->file : res->gov[s]->name);
	for (k = 0; k < res->nr_sets[s] && len < n; k++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s.%s=%lld", k ? ", " : " (",
					res->sets[s][k].family, res->sets[s][k].name,
					res->sets[s][k].value);
	if (res->nr_sets[s] && len < n)
		snprintf(buf + len, n - len, ")");
}

/* ---- text ---- */

/* A line cut to the width, "..." marking the cut. */
static void put_line(FILE *f, const char *s)
{
	size_t n = strlen(s);

	if (n <= DIFF_WIDTH)
		fprintf(f, "%s\n", s);
	else
		fprintf(f, "%.*s...\n", DIFF_WIDTH - 3, s);
}

void report_state_matrix(FILE *f, const struct machine *m,
			 const uint64_t (*mat)[CPUIDLE_STATE_MAX], const char *corner)
{
	int n = m->state_count, i, j, w = 8, lw = (int)strlen(corner) + 1;

	for (i = 0; i < n; i++) {
		int l = (int)strlen(m->states[i].name);

		w = l + 2 > w ? l + 2 : w;
		lw = l + 1 > lw ? l + 1 : lw;
		for (j = 0; j < n; j++) {
			char v[32];

			l = snprintf(v, sizeof(v), "%llu", (unsigned long long)mat[i][j]);
			w = l + 2 > w ? l + 2 : w;
		}
	}
	fprintf(f, "%-*s", lw, corner);
	for (j = 0; j < n; j++)
		fprintf(f, "%*s", w, m->states[j].name);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%-*s", lw, m->states[i].name);
		for (j = 0; j < n; j++)
			fprintf(f, "%*llu", w, (unsigned long long)mat[i][j]);
		fputc('\n', f);
	}
}

static void text_matrix(FILE *f, const struct diff_cell *c)
{
	fprintf(f, "\nstate pairs (rows: A's choice; columns: B's; off the diagonal the states differ)\n");
	report_state_matrix(f, &c->mach, c->matrix, "A \\ B");
}

static void text_rules(FILE *f, const struct diff_results *res, const struct diff_cell *c)
{
	int s, i;

	fprintf(f, "\nrules (the explain key \"rule\": how often each decided, and in divergent decisions)\n");
	fprintf(f, "%-4s %-24s %-24s %12s %12s %8s\n", "side", "governor", "rule", "decisions",
		"divergent", "%");
	for (s = 0; s < 2; s++) {
		for (i = 0; i < c->nr_rules[s]; i++) {
			const struct diff_rule *r = &c->rules[s][i];

			fprintf(f, "%-4s %-24.24s %-24.24s %12llu %12llu %8.3f\n", side_name(s),
				res->gov[s]->name, r->rule, (unsigned long long)r->decisions,
				(unsigned long long)r->divergent, diff_pct(r->divergent, r->decisions));
		}
		if (c->rules_other[s])
			fprintf(f, "%-4s %-24.24s %-24s %12llu\n", side_name(s), res->gov[s]->name,
				"(other rules)", (unsigned long long)c->rules_other[s]);
	}
}

static void fmt_time(char *buf, size_t n, int64_t t)
{
	if (t < 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%lld.%06llds", (long long)(t / SIM_NS_PER_S),
			 (long long)(t % SIM_NS_PER_S / 1000));
}

static void text_cpus(FILE *f, const struct diff_cell *c)
{
	char t[32];
	int i;

	fprintf(f, "\nper CPU\n%-5s %12s %12s %8s %10s %10s  %s\n", "CPU", "decisions", "divergent",
		"%", "state", "tick", "first divergence");
	for (i = 0; i < c->nr_cpus; i++) {
		const struct diff_cpu *p = &c->cpus[i];

		fmt_time(t, sizeof(t), p->first_ns);
		fprintf(f, "%-5d %12llu %12llu %8.3f %10llu %10llu  %s\n", i,
			(unsigned long long)p->decisions, (unsigned long long)p->divergent,
			diff_pct(p->divergent, p->decisions), (unsigned long long)p->state_divergent,
			(unsigned long long)p->tick_divergent, t);
	}
	fprintf(f, "%-5s %12llu %12llu %8.3f %10llu %10llu\n", "all",
		(unsigned long long)c->decisions, (unsigned long long)c->divergent,
		diff_pct(c->divergent, c->decisions), (unsigned long long)c->state_divergent,
		(unsigned long long)c->tick_divergent);
}

/* A variable the divergence's first line shows already, or the rule (shown first). */
static bool shown(const char *key)
{
	return !strcmp(key, "rule") || !strcmp(key, "sleep_length_ns") ||
	       !strcmp(key, "delta_tick_ns") || !strcmp(key, "nr_iowait");
}

static const char *tick_word(bool stop_tick, bool stopped_before)
{
	return stopped_before ? "off" : stop_tick ? "stop" : "keep";
}

/* One divergence: the inputs and what happened (the driver's entry), then each side. */
static void text_divergence(FILE *f, const struct diff_results *res, const struct diff_cell *c,
			    const struct diff_divergence *v)
{
	const struct sim_decision *d = &v->d;
	char line[1024], a[32], b[32], item[96];
	size_t len;
	int s, i;

	fmt_time(a, sizeof(a), d->time_ns);
	report_fmt_ns(b, sizeof(b), d->sleep_length_ns);
	len = (size_t)snprintf(line, sizeof(line), "%s cpu%d sleep %s tick %s", a, d->cpu, b,
			       d->tick_stopped_before ? "off" : "on");
	if (d->latency_req_ns >= 0 && d->latency_req_ns < 2000000000000LL) {
		report_fmt_ns(b, sizeof(b), d->latency_req_ns);
		len += (size_t)snprintf(line + len, sizeof(line) - len, " qos %s", b);
	}
	report_fmt_ns(a, sizeof(a), d->wake_ns - d->time_ns);
	report_fmt_ns(b, sizeof(b), d->residency_ns);
	snprintf(line + len, sizeof(line) - len, " | driver (%s) entered %s: %s +%s, res %s%s",
		 diff_drive_name(res->drive), c->mach.states[d->state].name,
		 d->truncated ? "end" : wake_cause_name(d->cause), a, b,
		 d->truncated ? " (truncated)" : "");
	put_line(f, line);
	for (s = 0; s < 2; s++) {
		len = (size_t)snprintf(line, sizeof(line), "    %s %-12.24s -> %-5s tick %-4s |",
				       side_name(s), res->gov[s]->name,
				       c->mach.states[v->state[s]].name,
				       tick_word(v->stop_tick[s], d->tick_stopped_before));
		/* the rule first, then the other variables */
		for (i = 0; i < v->ex[s].nr && len < sizeof(line); i++)
			if (!strcmp(v->ex[s].items[i].key, "rule")) {
				report_fmt_explain_item(item, sizeof(item), &v->ex[s].items[i]);
				len += (size_t)snprintf(line + len, sizeof(line) - len, " %s", item);
			}
		for (i = 0; i < v->ex[s].nr && len < sizeof(line); i++)
			if (!shown(v->ex[s].items[i].key)) {
				report_fmt_explain_item(item, sizeof(item), &v->ex[s].items[i]);
				len += (size_t)snprintf(line + len, sizeof(line) - len, " %s", item);
			}
		put_line(f, line);
	}
}

/* --free: each side's own replay, scored as `idlesim run` scores it. */
static void text_free(FILE *f, const struct diff_results *res, const struct diff_cell *c)
{
	struct stats_summary su[2];
	double e[2], lat[2], reg[2];
	int s;

	fprintf(f, "\nfree-running: each side replayed on its own (idlesim run's scores)\n");
	fprintf(f, "%-4s %-24s %12s %12s %12s %8s %8s %8s %12s\n", "side", "governor", "energy J",
		"regret %", "wake mean", "above%", "below%", "hits%", "entries");
	for (s = 0; s < 2; s++) {
		const struct run_result *r = &c->free_runs[s].r[0];
		char w[32];

		stats_summarize(&r->stats, &r->stats.total, r->stats.nr_cpus, &su[s]);
		e[s] = r->stats.energy_j;
		reg[s] = r->regret_energy_pct;
		lat[s] = su[s].lat_mean_ns;
		report_fmt_ns(w, sizeof(w), (int64_t)(lat[s] + 0.5));
		fprintf(f, "%-4s %-24.24s %12.6f %12.3f %12s %8.2f %8.2f %8.2f %12llu\n",
			side_name(s), res->gov[s]->name, e[s], reg[s], w, su[s].above_pct,
			su[s].below_pct, su[s].hits_pct, (unsigned long long)su[s].idle_entries);
	}
	fprintf(f, "%-4s %-24s %12.4f %12s %12.4f\n", "B/A", "", e[0] > 0 ? e[1] / e[0] : 0, "",
		lat[0] > 0 ? lat[1] / lat[0] : 0);
}

static void text_cell(FILE *f, const struct diff_results *res, const struct diff_cell *c,
		      const struct diff_report_opts *o)
{
	size_t i;

	fprintf(f, "\n== %s on %s (%d CPUs, %d Hz): %llu decisions, %llu divergent (%.3f %%): "
		   "%llu state, %llu tick\n",
		c->trace, c->mach.name, c->nr_cpus, c->hz, (unsigned long long)c->decisions,
		(unsigned long long)c->divergent, diff_pct(c->divergent, c->decisions),
		(unsigned long long)c->state_divergent, (unsigned long long)c->tick_divergent);
	if (diff_cell_exceeds(c, o->max_pct))
		fprintf(f, "FAIL: %.3f %% of the decisions diverge, more than --max-divergence %g %%\n",
			diff_pct(c->divergent, c->decisions), o->max_pct);
	text_matrix(f, c);
	text_rules(f, res, c);
	text_cpus(f, c);
	if (res->free)
		text_free(f, res, c);
	if (!c->nr_div)
		return;
	fprintf(f, "\nfirst %zu divergence%s of %llu, in order of completion (the driver's inputs "
		   "and outcome; each side's answer and variables)\n",
		c->nr_div, c->nr_div == 1 ? "" : "s", (unsigned long long)c->divergent);
	for (i = 0; i < c->nr_div; i++)
		text_divergence(f, res, c, &c->div[i]);
}

static void text_report(FILE *f, const struct diff_results *res, const struct diff_report_opts *o)
{
	char a[512], b[512];
	int i;

	side_label(a, sizeof(a), res, 0);
	side_label(b, sizeof(b), res, 1);
	fprintf(f, "idlesim diff: A = %s, B = %s; lockstep, driven by %s\n", a, b,
		res->drive == DIFF_DRIVE_ORACLE ? "the oracle" : diff_drive_name(res->drive));
	fprintf(f, "%llu decisions, %llu divergent (%.3f %%)\n", (unsigned long long)res->decisions,
		(unsigned long long)res->divergent, diff_pct(res->divergent, res->decisions));
	if (res->same)
		fprintf(f, "A and B are the same governor with the same tunables: no decision can "
			   "diverge (a valid report, 0 divergences)\n");
	for (i = 0; i < res->n; i++)
		text_cell(f, res, &res->cells[i], o);
}

/* ---- JSON ---- */

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *explain_json(const struct cpuidle_explain *ex)
{
	json_t *o = json_object();
	int i;

	for (i = 0; i < ex->nr; i++)
		json_object_set_new(o, ex->items[i].key,
				    ex->items[i].str ? json_string(ex->items[i].str)
						     : json_integer(ex->items[i].val));
	return o;
}

static json_t *ns_json(int64_t v)
{
	return v == KTIME_MAX ? json_null() : json_integer(v);
}

static json_t *divergence_json(const struct diff_cell *c, const struct diff_divergence *v)
{
	const struct sim_decision *d = &v->d;
	json_t *o = json_object();
	int s;

	json_object_set_new(o, "time_ns", json_integer(d->time_ns));
	json_object_set_new(o, "cpu", json_integer(d->cpu));
	json_object_set_new(o, "sleep_length_ns", ns_json(d->sleep_length_ns));
	json_object_set_new(o, "delta_tick_ns", ns_json(d->delta_tick_ns));
	json_object_set_new(o, "latency_req_ns", json_integer(d->latency_req_ns));
	json_object_set_new(o, "tick_stopped", json_boolean(d->tick_stopped_before));
	for (s = 0; s < 2; s++)
		json_object_set_new(o, s ? "b" : "a",
				    json_pack("{s:s, s:i, s:b, s:o}", "state",
					      c->mach.states[v->state[s]].name, "index", v->state[s],
					      "stop_tick", v->stop_tick[s], "explain",
					      explain_json(&v->ex[s])));
	json_object_set_new(o, "entered",
			    json_pack("{s:s, s:s, s:I, s:I, s:b}", "state",
				      c->mach.states[d->state].name, "cause",
				      d->truncated ? "end" : wake_cause_name(d->cause), "idle_ns",
				      (json_int_t)(d->wake_ns - d->time_ns), "residency_ns",
				      (json_int_t)d->residency_ns, "truncated", d->truncated));
	return o;
}

/* A CPU's counts; with `first`, the time of its first divergence (a cell's only: times of
 * different traces do not compare). */
static json_t *cpu_json(int cpu, const struct diff_cpu *p, bool first)
{
	json_t *o = json_object();

	json_object_set_new(o, "cpu", json_integer(cpu));
	json_object_set_new(o, "decisions", jint(p->decisions));
	json_object_set_new(o, "divergent", jint(p->divergent));
	json_object_set_new(o, "divergent_pct", json_real(diff_pct(p->divergent, p->decisions)));
	json_object_set_new(o, "state_divergent", jint(p->state_divergent));
	json_object_set_new(o, "tick_divergent", jint(p->tick_divergent));
	if (first)
		json_object_set_new(o, "first_divergence_ns",
				    p->first_ns < 0 ? json_null() : json_integer(p->first_ns));
	return o;
}

static json_t *free_json(const struct diff_cell *c, int s)
{
	const struct run_result *r = &c->free_runs[s].r[0];
	struct stats_summary su;

	stats_summarize(&r->stats, &r->stats.total, r->stats.nr_cpus, &su);
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I}", "energy_j", r->stats.energy_j,
			 "regret_energy_pct", r->regret_energy_pct, "wake_latency_mean_ns",
			 su.lat_mean_ns, "above_pct", su.above_pct, "below_pct", su.below_pct,
			 "hits_pct", su.hits_pct, "idle_entries", (json_int_t)su.idle_entries);
}

static json_t *cell_json(const struct diff_results *res, const struct diff_cell *c,
			 const struct diff_report_opts *o)
{
	json_t *j = json_object(), *a, *m, *st, *rules;
	int i, k, s;
	size_t n;

	json_object_set_new(j, "trace", json_string(c->trace));
	json_object_set_new(j, "machine", json_string(c->mach.name));
	json_object_set_new(j, "hz", json_integer(c->hz));
	json_object_set_new(j, "decisions", jint(c->decisions));
	json_object_set_new(j, "divergent", jint(c->divergent));
	json_object_set_new(j, "divergent_pct", json_real(diff_pct(c->divergent, c->decisions)));
	json_object_set_new(j, "state_divergent", jint(c->state_divergent));
	json_object_set_new(j, "tick_divergent", jint(c->tick_divergent));
	if (o->max_pct >= 0)
		json_object_set_new(j, "exceeds_max", json_boolean(diff_cell_exceeds(c, o->max_pct)));
	st = json_array();
	m = json_array();
	for (i = 0; i < c->mach.state_count; i++) {
		json_array_append_new(st, json_string(c->mach.states[i].name));
		a = json_array();
		for (k = 0; k < c->mach.state_count; k++)
			json_array_append_new(a, jint(c->matrix[i][k]));
		json_array_append_new(m, a);
	}
	json_object_set_new(j, "states", st);
	json_object_set_new(j, "matrix", m);
	rules = json_object();
	for (s = 0; s < 2; s++) {
		a = json_array();
		for (i = 0; i < c->nr_rules[s]; i++)
			json_array_append_new(a, json_pack("{s:s, s:I, s:I}", "rule",
							   c->rules[s][i].rule, "decisions",
							   (json_int_t)c->rules[s][i].decisions,
							   "divergent",
							   (json_int_t)c->rules[s][i].divergent));
		json_object_set_new(rules, s ? "b" : "a", a);
	}
	json_object_set_new(j, "rules", rules);
	a = json_array();
	for (i = 0; i < c->nr_cpus; i++)
		json_array_append_new(a, cpu_json(i, &c->cpus[i], true));
	json_object_set_new(j, "cpus", a);
	a = json_array();
	for (n = 0; n < c->nr_div; n++)
		json_array_append_new(a, divergence_json(c, &c->div[n]));
	json_object_set_new(j, "divergences", a);
	if (res->free)
		json_object_set_new(j, "free", json_pack("{s:o, s:o}", "a", free_json(c, 0), "b",
							 free_json(c, 1)));
	return j;
}

static json_t *side_json(const struct diff_results *res, int s)
{
	json_t *o = json_object(), *p = json_object();
	unsigned int k;

	json_object_set_new(o, "governor", json_string(res->gov[s]->name));
	if (res->gov[s]->file)
		json_object_set_new(o, "file", json_string(res->gov[s]->file));
	for (k = 0; k < res->gov[s]->nr_params && k < RUN_MAX_PARAMS; k++)
		json_object_set_new(p, res->gov[s]->params[k].name, json_integer(res->params[s][k]));
	json_object_set_new(o, "tunables", p);
	return o;
}

static int json_report(FILE *f, const struct diff_results *res, const struct diff_report_opts *o)
{
	json_t *root = json_object(), *cells = json_array(), *cpus = json_array();
	int i, rc, nr = 0;

	if (!root || !cells || !cpus) {
		json_decref(root);
		json_decref(cells);
		json_decref(cpus);
		return REPORT_ERR_NOMEM;
	}
	json_object_set_new(root, "schema", json_string(DIFF_JSON_SCHEMA));
	json_object_set_new(root, "idlesim_version", json_string(IDLESIM_VERSION));
	json_object_set_new(root, "a", side_json(res, 0));
	json_object_set_new(root, "b", side_json(res, 1));
	json_object_set_new(root, "drive", json_string(diff_drive_name(res->drive)));
	json_object_set_new(root, "same", json_boolean(res->same));
	json_object_set_new(root, "decisions", jint(res->decisions));
	json_object_set_new(root, "divergent", jint(res->divergent));
	json_object_set_new(root, "divergent_pct", json_real(diff_pct(res->divergent, res->decisions)));
	if (o->max_pct >= 0)
		json_object_set_new(root, "max_divergence_pct", json_real(o->max_pct));
	/* per CPU over every trace and machine: CPU n's decisions wherever it ran */
	for (i = 0; i < res->n; i++)
		nr = res->cells[i].nr_cpus > nr ? res->cells[i].nr_cpus : nr;
	for (i = 0; i < nr; i++) {
		struct diff_cpu sum = { 0, 0, 0, 0, -1 };
		int k;

		for (k = 0; k < res->n; k++) {
			const struct diff_cpu *p;

			if (i >= res->cells[k].nr_cpus)
				continue;
			p = &res->cells[k].cpus[i];
			sum.decisions += p->decisions;
			sum.divergent += p->divergent;
			sum.state_divergent += p->state_divergent;
			sum.tick_divergent += p->tick_divergent;
		}
		json_array_append_new(cpus, cpu_json(i, &sum, false));
	}
	json_object_set_new(root, "cpus", cpus);
	for (i = 0; i < res->n; i++)
		json_array_append_new(cells, cell_json(res, &res->cells[i], o));
	json_object_set_new(root, "cells", cells);
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!rc)
		fputc('\n', f);
	json_decref(root);
	return rc ? REPORT_ERR_IO : 0;
}

/* ---- CSV, JUnit, TAP ---- */

static void csv_row(FILE *f, const struct diff_cell *c, const char *cpu, const struct diff_cpu *p)
{
	report_csv_field(f, c->trace);
	fprintf(f, ",%s,%s,%llu,%llu,%.6f,%llu,%llu,", c->mach.name, cpu,
		(unsigned long long)p->decisions, (unsigned long long)p->divergent,
		diff_pct(p->divergent, p->decisions), (unsigned long long)p->state_divergent,
		(unsigned long long)p->tick_divergent);
	if (p->first_ns >= 0)
		fprintf(f, "%lld", (long long)p->first_ns);
	fputc('\n', f);
}

static void csv_report(FILE *f, const struct diff_results *res)
{
	int i, k;
	char cpu[16];

	fprintf(f, "trace,machine,cpu,decisions,divergent,divergent_pct,state_divergent,"
		   "tick_divergent,first_divergence_ns\n");
	for (i = 0; i < res->n; i++) {
		const struct diff_cell *c = &res->cells[i];
		struct diff_cpu all = { c->decisions, c->divergent, c->state_divergent,
					c->tick_divergent, -1 };

		for (k = 0; k < c->nr_cpus; k++) {
			snprintf(cpu, sizeof(cpu), "%d", k);
			csv_row(f, c, cpu, &c->cpus[k]);
			if (c->cpus[k].first_ns >= 0 &&
			    (all.first_ns < 0 || c->cpus[k].first_ns < all.first_ns))
				all.first_ns = c->cpus[k].first_ns;
		}
		csv_row(f, c, "all", &all);
	}
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void cell_summary(char *buf, size_t n, const struct diff_cell *c)
{
	snprintf(buf, n, "%llu of %llu decisions diverge (%.3f %%: %llu state, %llu tick)",
		 (unsigned long long)c->divergent, (unsigned long long)c->decisions,
		 diff_pct(c->divergent, c->decisions), (unsigned long long)c->state_divergent,
		 (unsigned long long)c->tick_divergent);
}

static void junit_report(FILE *f, const struct diff_results *res, const struct diff_report_opts *o)
{
	char a[512], b[512], sum[160], name[700];
	int i, fails = 0;

	for (i = 0; i < res->n; i++)
		fails += diff_cell_exceeds(&res->cells[i], o->max_pct);
	side_label(a, sizeof(a), res, 0);
	side_label(b, sizeof(b), res, 1);
	snprintf(name, sizeof(name), "idlesim diff %s vs %s", a, b);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"%d\" "
		   "failures=\"%d\">\n  <testsuite name=\"", res->n, fails);
	xml_text(f, name);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\">\n", res->n, fails);
	for (i = 0; i < res->n; i++) {
		const struct diff_cell *c = &res->cells[i];

		snprintf(name, sizeof(name), "%s on %s", c->trace, c->mach.name);
		cell_summary(sum, sizeof(sum), c);
		fprintf(f, "    <testcase classname=\"idlesim.diff\" name=\"");
		xml_text(f, name);
		fprintf(f, "\">\n");
		if (diff_cell_exceeds(c, o->max_pct)) {
			fprintf(f, "      <failure message=\"");
			xml_text(f, sum);
			fprintf(f, ", more than --max-divergence %g %%\"/>\n", o->max_pct);
		}
		fprintf(f, "      <system-out>");
		xml_text(f, sum);
		fprintf(f, "</system-out>\n    </testcase>\n");
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
}

static void tap_report(FILE *f, const struct diff_results *res, const struct diff_report_opts *o)
{
	char sum[160];
	int i;

	fprintf(f, "TAP version 13\n1..%d\n", res->n);
	for (i = 0; i < res->n; i++) {
		const struct diff_cell *c = &res->cells[i];
		bool bad = diff_cell_exceeds(c, o->max_pct);

		cell_summary(sum, sizeof(sum), c);
		fprintf(f, "%s %d - %s on %s: %s", bad ? "not ok" : "ok", i + 1, c->trace,
			c->mach.name, sum);
		if (o->max_pct >= 0)
			fprintf(f, " %s %g %%", bad ? ">" : "<=", o->max_pct);
		fputc('\n', f);
	}
}

/* ---- HTML ---- */

#define HTML_TL_W 1000 /* the timeline's width in px, DIFF_BINS bins */
#define HTML_ROW 14

static void html_num(FILE *f, const char *tag, uint64_t v)
{
	fprintf(f, "<%s>%llu</%s>", tag, (unsigned long long)v, tag);
}

/* Per CPU, the trace's span in DIFF_BINS bins, each as dark as its divergent share. */
static void html_timeline(FILE *f, const struct diff_cell *c)
{
	double bw = (double)HTML_TL_W / DIFF_BINS;
	int cpu, b, h = c->nr_cpus * HTML_ROW + 24;

	if (!c->bin_decisions) {
		fputs("<p>No timeline: the trace does not state its end.</p>\n", f);
		return;
	}
	fprintf(f, "<p>Each row a CPU, the trace from %.6f s to %.6f s left to right in %d bins; a "
		   "bin is red as its share of divergent decisions (white: none, or no decision; "
		   "hover for the counts).</p>\n",
		(double)c->start_ns / 1e9, (double)c->end_ns / 1e9, DIFF_BINS);
	fprintf(f, "<svg width=\"%d\" height=\"%d\">\n", HTML_TL_W + 50, h);
	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		double y = cpu * HTML_ROW;

		fprintf(f, "<text class=\"lane\" x=\"44\" y=\"%.0f\">cpu%d</text>\n", y + 11, cpu);
		fprintf(f, "<rect x=\"50\" y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"none\" "
			   "stroke=\"#ddd\"/>\n", y, HTML_TL_W, HTML_ROW - 2);
		for (b = 0; b < DIFF_BINS; b++) {
			size_t k = (size_t)cpu * DIFF_BINS + (size_t)b;
			uint32_t n = c->bin_decisions[k], d = c->bin_divergent[k];

			if (!d)
				continue;
			fprintf(f, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
				   "fill=\"#e63946\" fill-opacity=\"%.3f\"><title>cpu%d, %.6f s: %u of "
				   "%u decisions diverge</title></rect>\n",
				50 + b * bw, y, bw, HTML_ROW - 2, 0.15 + 0.85 * (double)d / n, cpu,
				(double)(c->start_ns + (c->end_ns - c->start_ns) * b / DIFF_BINS) / 1e9,
				d, n);
		}
	}
	fprintf(f, "<text x=\"50\" y=\"%d\">%.6f s</text><text x=\"%d\" y=\"%d\" "
		   "text-anchor=\"end\">%.6f s</text>\n</svg>\n",
		h - 4, (double)c->start_ns / 1e9, HTML_TL_W + 50, h - 4, (double)c->end_ns / 1e9);
}

/* The state pairs, off-diagonal cells shaded by their share of the divergent decisions. */
static void html_matrix(FILE *f, const struct diff_cell *c)
{
	int i, j, n = c->mach.state_count;

	fputs("<table><tr><th>A \\ B</th>", f);
	for (j = 0; j < n; j++) {
		fputs("<th>", f);
		html_escape(f, c->mach.states[j].name);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (i = 0; i < n; i++) {
		fputs("<tr><th>", f);
		html_escape(f, c->mach.states[i].name);
		fputs("</th>", f);
		for (j = 0; j < n; j++) {
			double share = i != j && c->state_divergent
					       ? (double)c->matrix[i][j] / (double)c->state_divergent
					       : 0;

			fprintf(f, "<td style=\"background:rgba(230,57,70,%.3f)\">%llu</td>", share,
				(unsigned long long)c->matrix[i][j]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void html_explain(FILE *f, const struct cpuidle_explain *ex)
{
	char item[96];
	int i, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < ex->nr; i++) {
			if (!strcmp(ex->items[i].key, "rule") != !pass) /* the rule first */
				continue;
			report_fmt_explain_item(item, sizeof(item), &ex->items[i]);
			html_escape(f, item);
			fputc(' ', f);
		}
}

static void html_divergences(FILE *f, const struct diff_results *res, const struct diff_cell *c)
{
	char a[32], b[32];
	size_t k;
	int s;

	if (!c->nr_div)
		return;
	fprintf(f, "<h3>The first %zu divergence%s</h3>\n<table class=\"cfg\"><tr><th>time</th>"
		   "<th>CPU</th><th>sleep</th><th>tick</th><th>side</th><th>state</th><th>tick "
		   "asked</th><th>variables</th><th>entered, what happened</th></tr>\n", c->nr_div,
		c->nr_div == 1 ? "" : "s");
	for (k = 0; k < c->nr_div; k++) {
		const struct diff_divergence *v = &c->div[k];
		const struct sim_decision *d = &v->d;

		fmt_time(a, sizeof(a), d->time_ns);
		report_fmt_ns(b, sizeof(b), d->sleep_length_ns);
		for (s = 0; s < 2; s++) {
			fputs("<tr>", f);
			if (!s)
				fprintf(f, "<td rowspan=\"2\">%s</td><td rowspan=\"2\">%d</td>"
					   "<td rowspan=\"2\">%s</td><td rowspan=\"2\">%s</td>",
					a, d->cpu, b, d->tick_stopped_before ? "off" : "on");
			fprintf(f, "<td>%s ", side_name(s));
			html_escape(f, res->gov[s]->name);
			fputs("</td><td>", f);
			html_escape(f, c->mach.states[v->state[s]].name);
			fprintf(f, "</td><td>%s</td><td>", tick_word(v->stop_tick[s], d->tick_stopped_before));
			html_explain(f, &v->ex[s]);
			fputs("</td>", f);
			if (!s) {
				report_fmt_ns(a, sizeof(a), d->residency_ns);
				fputs("<td rowspan=\"2\">", f);
				html_escape(f, c->mach.states[d->state].name);
				fprintf(f, ": %s, res %s</td>", d->truncated ? "end" : wake_cause_name(d->cause), a);
			}
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static int diff_html(FILE *f, const struct diff_results *res, const struct diff_report_opts *o)
{
	char a[512], b[512];
	int i, cpu;

	side_label(a, sizeof(a), res, 0);
	side_label(b, sizeof(b), res, 1);
	html_page_begin(f, "idlesim diff");
	fputs("<h1>idlesim diff: A = ", f);
	html_escape(f, a);
	fputs(", B = ", f);
	html_escape(f, b);
	fprintf(f, "</h1>\n<p>Lockstep, driven by %s: at every decision both sides were asked with "
		   "the same inputs. %llu decisions, %llu divergent (%.3f %%).%s</p>\n",
		res->drive == DIFF_DRIVE_ORACLE ? "the oracle" : diff_drive_name(res->drive),
		(unsigned long long)res->decisions, (unsigned long long)res->divergent,
		diff_pct(res->divergent, res->decisions),
		res->same ? " A and B are the same governor with the same tunables: no decision "
			    "can diverge." : "");
	for (i = 0; i < res->n; i++) {
		const struct diff_cell *c = &res->cells[i];

		fputs("<h2>", f);
		html_escape(f, c->trace);
		fputs(" on ", f);
		html_escape(f, c->mach.name);
		fprintf(f, "</h2>\n<p>%llu decisions, %llu divergent (%.3f %%): %llu state, %llu "
			   "tick.%s</p>\n",
			(unsigned long long)c->decisions, (unsigned long long)c->divergent,
			diff_pct(c->divergent, c->decisions), (unsigned long long)c->state_divergent,
			(unsigned long long)c->tick_divergent,
			diff_cell_exceeds(c, o->max_pct) ? " <b>More than --max-divergence.</b>" : "");
		fputs("<h3>Divergences over time</h3>\n", f);
		html_timeline(f, c);
		fputs("<h3>State pairs (rows: A's choice, columns: B's)</h3>\n", f);
		html_matrix(f, c);
		fputs("<h3>Per CPU</h3>\n<table><tr><th>CPU</th><th>decisions</th><th>divergent</th>"
		      "<th>%</th><th>first divergence</th></tr>\n", f);
		for (cpu = 0; cpu < c->nr_cpus; cpu++) {
			fmt_time(a, sizeof(a), c->cpus[cpu].first_ns);
			fprintf(f, "<tr><td>%d</td>", cpu);
			html_num(f, "td", c->cpus[cpu].decisions);
			html_num(f, "td", c->cpus[cpu].divergent);
			fprintf(f, "<td>%.3f</td><td>%s</td></tr>\n",
				diff_pct(c->cpus[cpu].divergent, c->cpus[cpu].decisions), a);
		}
		fputs("</table>\n", f);
		html_divergences(f, res, c);
	}
	html_page_end(f, o->command, IDLESIM_VERSION);
	return ferror(f) ? REPORT_ERR_IO : 0;
}

int diff_report_write(FILE *f, const struct diff_results *res, const struct diff_report_opts *o)
{
	switch (o->format) {
	case DIFF_JSON:
		return json_report(f, res, o);
	case DIFF_CSV:
		csv_report(f, res);
		break;
	case DIFF_JUNIT:
		junit_report(f, res, o);
		break;
	case DIFF_TAP:
		tap_report(f, res, o);
		break;
	case DIFF_HTML:
		return diff_html(f, res, o);
	default:
		text_report(f, res, o);
	}
	return ferror(f) ? REPORT_ERR_IO : 0;
}
