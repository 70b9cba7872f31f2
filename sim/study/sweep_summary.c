// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep_summary.c - idlesim sweep summary (see sweep.h): per (trace or workload, machine)
 * the best point for each objective, the Pareto frontier over the first two, and the
 * points that run every tunable at its default, as a text table, JSON or an HTML page
 * with a scatter plot per group.
 *
 * The results file is read as a stream: memory is one record per group, its best points,
 * its frontier and its default points, whatever the number of points. The HTML page reads
 * the file once more per group to draw every point. Output depends only on the set of
 * lines, not their order (ties are broken by the other objectives, then the lower point
 * index; groups come in point order).
 */
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/report/html.h"
#include "sim/machine/machine.h"
#include "sim/base/outfile.h"
#include "sim/study/sweep.h"
#include "sim/study/sweep_int.h"
#include "sim/base/version.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool sweep_metric_higher_is_better(const char *name)
{
	return !strcmp(name, "hits_pct") || !strcmp(name, "throughput");
}

static bool better(double a, double b, bool higher_is_better)
{
	return higher_is_better ? a > b : a < b;
}

/* a at least as good as b on both objectives, and better on one. */
static bool dominates(const struct sweep_front *f, const struct sweep_pt *a,
		      const struct sweep_pt *b)
{
	const bool *h = f->higher_is_better;

	return !better(b->v[0], a->v[0], h[0]) && !better(b->v[1], a->v[1], h[1]) &&
	       (better(a->v[0], b->v[0], h[0]) || better(a->v[1], b->v[1], h[1]));
}

int sweep_front_add(struct sweep_front *f, const struct sweep_pt *p)
{
	size_t i, k = 0;

	if ((p->has & 3u) != 3u)
		return 0;
	for (i = 0; i < f->n; i++)
		if (dominates(f, &f->p[i], p))
			return 0;
	for (i = 0; i < f->n; i++) /* drop what p dominates */
		if (!dominates(f, p, &f->p[i]))
			f->p[k++] = f->p[i];
	f->n = k;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct sweep_pt *n = sim_realloc(f->p, cap * sizeof(*n));

		if (!n)
			return -1;
		f->p = n;
		f->cap = cap;
	}
	f->p[f->n++] = *p;
	return 0;
}

/* a before b: better on objective 0, then the lower index. */
static bool front_before(const struct sweep_front *f, const struct sweep_pt *a,
			 const struct sweep_pt *b)
{
	if (better(a->v[0], b->v[0], f->higher_is_better[0]))
		return true;
	if (better(b->v[0], a->v[0], f->higher_is_better[0]))
		return false;
	return a->index < b->index;
}

void sweep_front_sort(struct sweep_front *f)
{
	size_t i, j;

	/* insertion sort: frontiers are short, and qsort has no context for the direction */
	for (i = 1; i < f->n; i++) {
		struct sweep_pt t = f->p[i];

		for (j = i; j > 0 && front_before(f, &t, &f->p[j - 1]); j--)
			f->p[j] = f->p[j - 1];
		f->p[j] = t;
	}
}

void sweep_front_free(struct sweep_front *f)
{
	sim_free(f->p);
	f->p = NULL;
	f->n = f->cap = 0;
}

/* ---- reading the results ---- */

struct group {
	char input[320]; /* the trace's name, or the workload's label */
	char machine[MACHINE_NAME_LEN];
	long points, first; /* how many, the lowest index */
	struct sweep_pt best[SWEEP_MAX_OBJECTIVES];
	unsigned int has_best;
	struct sweep_front front;
	struct sweep_pt *defs; /* default points, by index */
	size_t nr_defs, cap_defs;
	double lo[2], hi[2]; /* of objectives 0 and 1, for the plot */
	unsigned int has_range;
};

struct sum {
	const char *source;
	char name[SWEEP_MAX_OBJECTIVES][64];
	bool hib[SWEEP_MAX_OBJECTIVES];
	int nobj;
	unsigned int seen; /* bit k: some point has objective k */
	char metrics[512]; /* the first line's metric keys, for a message */
	struct group *g;
	size_t ng, capg;
	long points;
	/* drawing (HTML): the group drawn, and where */
	const struct group *draw;
	FILE *f;
};

/* config.KEY.SUB (SUB NULL: config.KEY) as a string, or NULL. */
static const char *cfg_str(json_t *cfg, const char *key, const char *sub)
{
	json_t *v = json_object_get(cfg, key);

	if (sub)
		v = json_object_get(v, sub);
	return json_string_value(v);
}

/* Every tunable of the governor at its default (a governor this build lacks: no). */
static bool at_defaults(const char *governor, json_t *tunables)
{
	const struct cpuidle_governor *g = gov_find(governor);
	unsigned int i;

	if (!g || !json_is_object(tunables))
		return false;
	for (i = 0; i < g->nr_params; i++) {
		json_t *v = json_object_get(tunables, g->params[i].name);

		if (!json_is_integer(v) || json_integer_value(v) != g->params[i].def)
			return false;
	}
	return true;
}

/* A line's point, its group's input and machine. */
static int point_of(const struct sum *s, const struct sweep_line *li, long lineno,
		    struct sweep_pt *p, const char **input, const char **machine,
		    struct sim_error *err)
{
	json_t *cfg = json_object_get(li->root, "config"), *m = json_object_get(li->root, "metrics");
	json_t *set = json_object_get(cfg, "set"), *x, *lat = json_object_get(cfg, "latency_limit_ns");
	const char *gov = cfg_str(cfg, "governor", NULL);
	size_t i, used = 0;
	int k;

	memset(p, 0, sizeof(*p));
	*input = cfg_str(cfg, "trace", "name");
	if (!*input)
		*input = cfg_str(cfg, "workload", "label");
	*machine = cfg_str(cfg, "machine", "name");
	if (!gov || !*input || !*machine || !json_is_object(m))
		return sim_error_set(err, SIM_ERR_INPUT, s->source, (int)lineno, 1,
				     "a result line without config.governor, config.machine.name, "
				     "config.trace.name or config.workload.label, or metrics");
	p->index = li->index;
	snprintf(p->governor, sizeof(p->governor), "%s", gov);
	p->hz = (int)json_integer_value(json_object_get(cfg, "hz"));
	p->latency_limit_ns = json_is_integer(lat) ? (long long)json_integer_value(lat) : -1;
	p->is_default = at_defaults(gov, json_object_get(cfg, "tunables"));
	snprintf(p->set, sizeof(p->set), "none");
	json_array_foreach(set, i, x)
		if (json_is_string(x) && used < sizeof(p->set))
			used += (size_t)snprintf(p->set + used, sizeof(p->set) - used, "%s%s",
						 used ? " " : "", json_string_value(x));
	for (k = 0; k < s->nobj; k++) {
		x = json_object_get(m, s->name[k]);
		if (json_is_number(x)) {
			p->v[k] = json_number_value(x);
			p->has |= 1u << k;
		}
	}
	return 0;
}

static struct group *group_of(struct sum *s, const char *input, const char *machine)
{
	size_t i;

	for (i = 0; i < s->ng; i++)
		if (!strcmp(s->g[i].input, input) && !strcmp(s->g[i].machine, machine))
			return &s->g[i];
	return NULL;
}

static struct group *group_add(struct sum *s, const char *input, const char *machine)
{
	struct group *g;

	if (s->ng == s->capg) {
		size_t cap = s->capg ? 2 * s->capg : 8;

		g = sim_realloc(s->g, cap * sizeof(*g));
		if (!g)
			return NULL;
		s->g = g;
		s->capg = cap;
	}
	g = &s->g[s->ng++];
	memset(g, 0, sizeof(*g));
	snprintf(g->input, sizeof(g->input), "%s", input);
	snprintf(g->machine, sizeof(g->machine), "%s", machine);
	g->first = -1;
	g->front.higher_is_better[0] = s->hib[0];
	g->front.higher_is_better[1] = s->hib[1];
	return g;
}

static int add_default(struct group *g, const struct sweep_pt *p)
{
	size_t j;

	if (g->nr_defs == g->cap_defs) {
		size_t cap = g->cap_defs ? 2 * g->cap_defs : 4;
		struct sweep_pt *n = sim_realloc(g->defs, cap * sizeof(*n));

		if (!n)
			return -1;
		g->defs = n;
		g->cap_defs = cap;
	}
	for (j = g->nr_defs++; j > 0 && g->defs[j - 1].index > p->index; j--)
		g->defs[j] = g->defs[j - 1];
	g->defs[j] = *p;
	return 0;
}

/* p better than b on objective k; ties go to the better on the other objectives in turn,
 * then to the lower index (so the result does not depend on the order of the lines). */
static bool pt_better(const struct sum *s, const struct sweep_pt *p, const struct sweep_pt *b,
		      int k)
{
	int j;

	if (better(p->v[k], b->v[k], s->hib[k]) || better(b->v[k], p->v[k], s->hib[k]))
		return better(p->v[k], b->v[k], s->hib[k]);
	for (j = 0; j < s->nobj; j++) {
		if (j == k || !(p->has & b->has & (1u << j)))
			continue;
		if (better(p->v[j], b->v[j], s->hib[j]) || better(b->v[j], p->v[j], s->hib[j]))
			return better(p->v[j], b->v[j], s->hib[j]);
	}
	return p->index < b->index;
}

static int sum_line(void *ud, const struct sweep_line *li, const char *line, size_t len,
		    long lineno, struct sim_error *err)
{
	struct sum *s = ud;
	struct sweep_pt p;
	const char *input, *machine, *key;
	struct group *g;
	json_t *v;
	int k;

	(void)line;
	(void)len;
	if (point_of(s, li, lineno, &p, &input, &machine, err))
		return -1;
	if (!s->points) {
		size_t used = 0;

		json_object_foreach(json_object_get(li->root, "metrics"), key, v)
			if (used < sizeof(s->metrics))
				used += (size_t)snprintf(s->metrics + used, sizeof(s->metrics) - used,
							 "%s%s", used ? ", " : "", key);
	}
	s->points++;
	g = group_of(s, input, machine);
	if (!g && !(g = group_add(s, input, machine)))
		return sim_error_nomem(err, s->source);
	g->points++;
	if (g->first < 0 || p.index < g->first)
		g->first = p.index;
	s->seen |= p.has;
	for (k = 0; k < s->nobj; k++) {
		const struct sweep_pt *b = &g->best[k];

		if (!(p.has & (1u << k)))
			continue;
		if (!(g->has_best & (1u << k)) || pt_better(s, &p, b, k)) {
			g->best[k] = p;
			g->has_best |= 1u << k;
		}
	}
	for (k = 0; k < 2; k++) {
		if (!(p.has & (1u << k)))
			continue;
		if (!(g->has_range & (1u << k)) || p.v[k] < g->lo[k])
			g->lo[k] = p.v[k];
		if (!(g->has_range & (1u << k)) || p.v[k] > g->hi[k])
			g->hi[k] = p.v[k];
		g->has_range |= 1u << k;
	}
	if (sweep_front_add(&g->front, &p) || (p.is_default && add_default(g, &p)))
		return sim_error_nomem(err, s->source);
	return 0;
}

static void sum_free(struct sum *s)
{
	size_t i;

	for (i = 0; i < s->ng; i++) {
		sweep_front_free(&s->g[i].front);
		sim_free(s->g[i].defs);
	}
	sim_free(s->g);
}

static int parse_objectives(struct sum *s, const char *list, struct sim_error *err)
{
	const char *c = list ? list : SWEEP_DEFAULT_OBJECTIVES, *e;
	int k;

	for (s->nobj = 0; *c; c = *e ? e + 1 : e) {
		size_t n;

		e = strchr(c, ',');
		if (!e)
			e = c + strlen(c);
		n = (size_t)(e - c);
		if (!n || n >= sizeof(s->name[0]))
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "sweep summary: --objective wants metric names, "
					     "comma-separated (e.g. %s)", SWEEP_DEFAULT_OBJECTIVES);
		if (s->nobj == SWEEP_MAX_OBJECTIVES)
			return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
					     "sweep summary: at most %d objectives",
					     SWEEP_MAX_OBJECTIVES);
		snprintf(s->name[s->nobj], sizeof(s->name[0]), "%.*s", (int)n, c);
		for (k = 0; k < s->nobj; k++)
			if (!strcmp(s->name[k], s->name[s->nobj]))
				return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
						     "sweep summary: objective '%s' given twice",
						     s->name[k]);
		s->hib[s->nobj] = sweep_metric_higher_is_better(s->name[s->nobj]);
		s->nobj++;
	}
	if (s->nobj < 2)
		return sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				     "sweep summary: --objective needs at least two metrics (the "
				     "frontier is over the first two)");
	return 0;
}

/* Groups in point order (the spec's: traces and workloads, then machines). */
static void sort_groups(struct sum *s)
{
	size_t i, j;

	for (i = 1; i < s->ng; i++) {
		struct group t = s->g[i];

		for (j = i; j > 0 && s->g[j - 1].first > t.first; j--)
			s->g[j] = s->g[j - 1];
		s->g[j] = t;
	}
}

/* ---- text ---- */

#define COLS 6 /* what, point, governor, HZ, limit, set; then the objectives */

struct row {
	char c[COLS + SWEEP_MAX_OBJECTIVES][256];
};

static void fmt_value(char *buf, size_t n, const struct sweep_pt *p, int k)
{
	if (p->has & (1u << k))
		snprintf(buf, n, "%.6g", p->v[k]);
	else
		snprintf(buf, n, "n/a");
}

static void fmt_limit(char *buf, size_t n, long long ns)
{
	if (ns < 0)
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%lld us", ns / 1000);
}

static void row_of(const struct sum *s, struct row *r, const char *what,
		   const struct sweep_pt *p)
{
	int k;

	snprintf(r->c[0], sizeof(r->c[0]), "%s", what);
	snprintf(r->c[1], sizeof(r->c[1]), "%ld", p->index);
	snprintf(r->c[2], sizeof(r->c[2]), "%s", p->governor);
	snprintf(r->c[3], sizeof(r->c[3]), "%d", p->hz);
	fmt_limit(r->c[4], sizeof(r->c[4]), p->latency_limit_ns);
	snprintf(r->c[5], sizeof(r->c[5]), "%s%s", p->set, p->is_default ? " (default)" : "");
	for (k = 0; k < s->nobj; k++)
		fmt_value(r->c[COLS + k], sizeof(r->c[0]), p, k);
}

/* The rows of a group: best per objective, the frontier, the defaults. */
static struct row *group_rows(const struct sum *s, const struct group *g, size_t *n)
{
	struct row *r = sim_calloc(1 + (size_t)s->nobj + g->front.n + g->nr_defs, sizeof(*r));
	char what[96];
	size_t i;
	int k;

	if (!r)
		return NULL;
	*n = 0;
	r[0].c[0][0] = '\0';
	snprintf(r[0].c[1], sizeof(r[0].c[1]), "point");
	snprintf(r[0].c[2], sizeof(r[0].c[2]), "governor");
	snprintf(r[0].c[3], sizeof(r[0].c[3]), "HZ");
	snprintf(r[0].c[4], sizeof(r[0].c[4]), "limit");
	snprintf(r[0].c[5], sizeof(r[0].c[5]), "set");
	for (k = 0; k < s->nobj; k++)
		snprintf(r[0].c[COLS + k], sizeof(r[0].c[0]), "%s", s->name[k]);
	(*n)++;
	for (k = 0; k < s->nobj; k++)
		if (g->has_best & (1u << k)) {
			snprintf(what, sizeof(what), "best %s", s->name[k]);
			row_of(s, &r[(*n)++], what, &g->best[k]);
		}
	for (i = 0; i < g->front.n; i++)
		row_of(s, &r[(*n)++], "frontier", &g->front.p[i]);
	for (i = 0; i < g->nr_defs; i++)
		row_of(s, &r[(*n)++], "default", &g->defs[i]);
	return r;
}

/* cpupower's style: columns separated by "|", text left, numbers right. */
static void text_table(FILE *f, const struct sum *s, const struct row *r, size_t n)
{
	int w[COLS + SWEEP_MAX_OBJECTIVES] = { 0 }, k, nc = COLS + s->nobj;
	size_t i;

	for (i = 0; i < n; i++)
		for (k = 0; k < nc; k++)
			if ((int)strlen(r[i].c[k]) > w[k])
				w[k] = (int)strlen(r[i].c[k]);
	for (i = 0; i < n; i++) {
		for (k = 0; k < nc; k++) {
			bool left = k == 0 || k == 2 || k == 5;

			if (k == nc - 1 && left)
				fprintf(f, " | %s", r[i].c[k]); /* no trailing blanks */
			else
				fprintf(f, "%s%*s", k ? " | " : "", left ? -w[k] : w[k], r[i].c[k]);
		}
		fputc('\n', f);
	}
}

static void objectives_text(FILE *f, const struct sum *s)
{
	int k;

	for (k = 0; k < s->nobj; k++)
		fprintf(f, "%s%s (%s is better)", k ? ", " : "", s->name[k],
			s->hib[k] ? "higher" : "lower");
}

static int write_text(FILE *f, const struct sum *s)
{
	size_t i, n;

	fprintf(f, "idlesim sweep summary of %s: %ld points, %zu groups (trace or workload, "
		   "machine)\nobjectives: ",
		s->source, s->points, s->ng);
	objectives_text(f, s);
	fprintf(f, "\nfrontier: the points no other point beats on both %s and %s; "
		   "(default): every tunable at its governor's default\n",
		s->name[0], s->name[1]);
	for (i = 0; i < s->ng; i++) {
		const struct group *g = &s->g[i];
		struct row *r = group_rows(s, g, &n);

		if (!r)
			return -1;
		fprintf(f, "\n%s on %s: %ld points\n", g->input, g->machine, g->points);
		text_table(f, s, r, n);
		if (!g->nr_defs)
			fputs("(no point of this group runs every tunable at its default)\n", f);
		sim_free(r);
	}
	return 0;
}

/* ---- JSON ---- */

static json_t *pt_json(const struct sum *s, const struct sweep_pt *p)
{
	json_t *m = json_object();
	int k;

	for (k = 0; k < s->nobj; k++)
		if (p->has & (1u << k))
			json_object_set_new(m, s->name[k], json_real(p->v[k]));
	return json_pack("{s:I, s:s, s:i, s:o, s:s, s:b, s:o}", "index", (json_int_t)p->index,
			 "governor", p->governor, "hz", p->hz, "latency_limit_ns",
			 p->latency_limit_ns < 0 ? json_null()
						 : json_integer((json_int_t)p->latency_limit_ns),
			 "set", p->set, "default", p->is_default, "metrics", m);
}

static int write_json(FILE *f, const struct sum *s)
{
	json_t *root = json_object(), *objs = json_array(), *groups = json_array();
	size_t i, j;
	int k, rc;

	for (k = 0; k < s->nobj; k++)
		json_array_append_new(objs, json_pack("{s:s, s:s}", "name", s->name[k], "better",
						      s->hib[k] ? "higher" : "lower"));
	for (i = 0; i < s->ng; i++) {
		const struct group *g = &s->g[i];
		json_t *best = json_object(), *fr = json_array(), *defs = json_array();

		for (k = 0; k < s->nobj; k++)
			if (g->has_best & (1u << k))
				json_object_set_new(best, s->name[k], pt_json(s, &g->best[k]));
		for (j = 0; j < g->front.n; j++)
			json_array_append_new(fr, pt_json(s, &g->front.p[j]));
		for (j = 0; j < g->nr_defs; j++)
			json_array_append_new(defs, pt_json(s, &g->defs[j]));
		json_array_append_new(groups, json_pack("{s:s, s:s, s:I, s:o, s:o, s:o}", "input",
							g->input, "machine", g->machine, "points",
							(json_int_t)g->points, "best", best,
							"frontier", fr, "defaults", defs));
	}
	json_object_set_new(root, "schema", json_string("idlesim-sweep-summary/1"));
	json_object_set_new(root, "idlesim_version", json_string(IDLESIM_VERSION));
	json_object_set_new(root, "results", json_string(s->source));
	json_object_set_new(root, "points", json_integer(s->points));
	json_object_set_new(root, "objectives", objs);
	json_object_set_new(root, "groups", groups);
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!rc)
		fputc('\n', f);
	json_decref(root);
	return rc ? -1 : 0;
}

/* ---- HTML ---- */

#define PW 720.0 /* the plot */
#define PH 420.0
#define PX0 80.0 /* the axes' origin */
#define PY0 370.0
#define PXW 610.0
#define PYH 340.0

struct scale {
	double lo[2], span[2];
};

static void scale_of(const struct group *g, struct scale *sc)
{
	int k;

	for (k = 0; k < 2; k++) {
		sc->lo[k] = g->lo[k];
		sc->span[k] = g->hi[k] - g->lo[k];
		if (!(sc->span[k] > 0)) { /* one value: centre it */
			sc->span[k] = fabs(g->lo[k]) > 0 ? fabs(g->lo[k]) * 0.1 : 1.0;
			sc->lo[k] -= sc->span[k] / 2;
		}
	}
}

static double sx(const struct scale *sc, double v)
{
	return PX0 + PXW * (v - sc->lo[0]) / sc->span[0];
}

static double sy(const struct scale *sc, double v)
{
	return PY0 - PYH * (v - sc->lo[1]) / sc->span[1];
}

static void pt_title(FILE *f, const struct sum *s, const struct sweep_pt *p)
{
	fprintf(f, "<title>point %ld: ", p->index);
	html_escape(f, p->governor);
	fputs(" ", f);
	html_escape(f, p->set);
	fprintf(f, "%s, HZ %d; %s %.6g, %s %.6g</title>", p->is_default ? " (default)" : "",
		p->hz, s->name[0], p->v[0], s->name[1], p->v[1]);
}

/* Every point of the group being drawn (a second pass over the results). */
static int draw_line(void *ud, const struct sweep_line *li, const char *line, size_t len,
		     long lineno, struct sim_error *err)
{
	struct sum *s = ud;
	struct sweep_pt p;
	const char *input, *machine;
	struct scale sc;

	(void)line;
	(void)len;
	if (point_of(s, li, lineno, &p, &input, &machine, err))
		return -1;
	if (strcmp(input, s->draw->input) || strcmp(machine, s->draw->machine) ||
	    (p.has & 3u) != 3u)
		return 0;
	scale_of(s->draw, &sc);
	fprintf(s->f, "<circle class=\"pt\" data-index=\"%ld\" data-x=\"%.12g\" data-y=\"%.12g\" "
		      "cx=\"%.1f\" cy=\"%.1f\" r=\"3\">",
		p.index, p.v[0], p.v[1], sx(&sc, p.v[0]), sy(&sc, p.v[1]));
	pt_title(s->f, s, &p);
	fputs("</circle>\n", s->f);
	return 0;
}

static void axes(FILE *f, const struct sum *s, const struct scale *sc)
{
	int k;

	fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", PX0,
		PY0, PX0 + PXW, PY0);
	fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", PX0,
		PY0, PX0, PY0 - PYH);
	for (k = 0; k <= 4; k++) {
		double vx = sc->lo[0] + sc->span[0] * k / 4, vy = sc->lo[1] + sc->span[1] * k / 4;

		fprintf(f, "<text class=\"ax\" x=\"%.1f\" y=\"%.1f\">%.4g</text>\n",
			sx(sc, vx) - 12, PY0 + 14, vx);
		fprintf(f, "<text class=\"ax\" x=\"4\" y=\"%.1f\">%.4g</text>\n", sy(sc, vy) + 3, vy);
	}
	fprintf(f, "<text class=\"ax\" x=\"%.1f\" y=\"%.1f\">", PX0 + PXW / 2 - 60, PY0 + 32);
	html_escape(f, s->name[0]);
	fprintf(f, " (%s is better)</text>\n<text class=\"ax\" x=\"%.1f\" y=\"12\">",
		s->hib[0] ? "higher" : "lower", PX0);
	html_escape(f, s->name[1]);
	fprintf(f, " (%s is better)</text>\n", s->hib[1] ? "higher" : "lower");
}

/*
 * Frontier point j's label: its number and tunables, right of the point (left of it in the
 * right third of the plot, so that it stays inside); equal points stack their labels.
 */
static void label(FILE *f, const struct scale *sc, const struct group *g, size_t j)
{
	const struct sweep_pt *p = &g->front.p[j];
	double x = sx(sc, p->v[0]), y = sy(sc, p->v[1]) - 6;
	bool left = x > PX0 + PXW * 2 / 3;
	size_t i;

	for (i = 0; i < j; i++)
		if (g->front.p[i].v[0] == p->v[0] && g->front.p[i].v[1] == p->v[1])
			y -= 12;
	fprintf(f, "<text class=\"fr\" x=\"%.1f\" y=\"%.1f\"%s>#%ld ", left ? x - 6 : x + 6, y,
		left ? " text-anchor=\"end\"" : "", p->index);
	html_escape(f, p->set);
	fputs(p->is_default ? " (default)</text>\n" : "</text>\n", f);
}

static void html_table(FILE *f, const struct sum *s, const struct row *r, size_t n)
{
	size_t i;
	int k;

	fputs("<table>\n", f);
	for (i = 0; i < n; i++) {
		fputs("<tr>", f);
		for (k = 0; k < COLS + s->nobj; k++) {
			fputs(i ? "<td>" : "<th>", f);
			html_escape(f, r[i].c[k]);
			fputs(i ? "</td>" : "</th>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int write_html(FILE *f, struct sum *s, const char *command, struct sim_error *err)
{
	struct scale sc;
	size_t i, j, n;

	html_page_begin(f, "idlesim sweep summary");
	fputs("<h1>idlesim sweep summary: ", f);
	html_escape(f, s->source);
	fprintf(f, "</h1>\n<p>%ld points in %zu groups (trace or workload, machine). Objectives: ",
		s->points, s->ng);
	objectives_text(f, s);
	fputs(". Each plot shows every point of a group (grey), the Pareto frontier (the points "
	      "no other point beats on both axes) joined in orange and labelled with its point "
	      "number and tunables, and the points that run every tunable at its default "
	      "framed.</p>\n",
	      f);
	s->f = f;
	for (i = 0; i < s->ng; i++) {
		const struct group *g = &s->g[i];
		struct row *r;

		fputs("<h2>", f);
		html_escape(f, g->input);
		fputs(" on ", f);
		html_escape(f, g->machine);
		fprintf(f, " <small>(%ld points)</small></h2>\n", g->points);
		if ((g->has_range & 3u) == 3u) {
			scale_of(g, &sc);
			fprintf(f, "<svg class=\"sweep\" width=\"%.0f\" height=\"%.0f\" "
				   "viewBox=\"0 0 %.0f %.0f\">\n",
				PW, PH, PW, PH);
			axes(f, s, &sc);
			s->draw = g;
			if (sweep_each_line(s->source, NULL, false, NULL, draw_line, s, err))
				return -1;
			fputs("<polyline class=\"fr\" points=\"", f);
			for (j = 0; j < g->front.n; j++)
				fprintf(f, "%s%.1f,%.1f", j ? " " : "", sx(&sc, g->front.p[j].v[0]),
					sy(&sc, g->front.p[j].v[1]));
			fputs("\"/>\n", f);
			for (j = 0; j < g->front.n; j++) {
				const struct sweep_pt *p = &g->front.p[j];

				fprintf(f, "<circle class=\"fr\" data-index=\"%ld\" cx=\"%.1f\" "
					   "cy=\"%.1f\" r=\"4\">",
					p->index, sx(&sc, p->v[0]), sy(&sc, p->v[1]));
				pt_title(f, s, p);
				fputs("</circle>\n", f);
				label(f, &sc, g, j);
			}
			for (j = 0; j < g->nr_defs; j++) {
				const struct sweep_pt *p = &g->defs[j];

				if ((p->has & 3u) != 3u)
					continue;
				fprintf(f, "<rect class=\"def\" data-index=\"%ld\" x=\"%.1f\" "
					   "y=\"%.1f\" width=\"12\" height=\"12\">",
					p->index, sx(&sc, p->v[0]) - 6, sy(&sc, p->v[1]) - 6);
				pt_title(f, s, p);
				fputs("</rect>\n", f);
			}
			fputs("</svg>\n", f);
		}
		r = group_rows(s, g, &n);
		if (!r)
			return sim_error_nomem(err, "");
		html_table(f, s, r, n);
		sim_free(r);
	}
	html_page_end(f, command, IDLESIM_VERSION);
	return 0;
}

int sweep_summary(const char *results, const struct sweep_summary_opts *o, const char *out,
		  struct sim_error *err)
{
	struct sum s = { .source = results };
	struct outfile of;
	int k, rc;

	if (parse_objectives(&s, o->objectives, err) ||
	    sweep_each_line(results, NULL, false, NULL, sum_line, &s, err))
		goto fail;
	if (!s.points) {
		sim_error_set(err, SIM_ERR_INPUT, results, 0, 0, "no results to summarize");
		goto fail;
	}
	for (k = 0; k < s.nobj; k++)
		if (!(s.seen & (1u << k))) {
			sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				      "sweep summary: unknown objective '%s': no point of %s has "
				      "it (metrics: %s)",
				      s.name[k], results, s.metrics);
			goto fail;
		}
	sort_groups(&s);
	for (k = 0; k < (int)s.ng; k++)
		sweep_front_sort(&s.g[k].front);
	if (outfile_open(&of, out, err))
		goto fail;
	rc = o->format == SWEEP_FMT_JSON   ? write_json(of.f, &s)
	     : o->format == SWEEP_FMT_HTML ? write_html(of.f, &s, o->command, err)
					   : write_text(of.f, &s);
	if (rc || ferror(of.f)) {
		outfile_fail(&of, err);
		goto fail;
	}
	sum_free(&s);
	return outfile_commit(&of, err);
fail:
	sum_free(&s);
	return -1;
}
