// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_run.c - run the comparisons of a parsed expectation file (check.c) and test each
 * bound on each cell it names, printing one line per check.
 *
 * A comparison computes only the metrics its expectations name. An expectation applies to
 * every cell of its metric, restricted to its machine and parameter value when it names
 * them; each of its bounds on each of those cells is one check. A mean or percentage that
 * does not exist (NaN: an Hmean over a zero sample) fails its min and max bounds; without
 * a p-value there is no significant regression.
 */
#include "sim/study/check.h"
#include "sim/study/check_int.h"
#include "sim/report/compare_report.h"
#include "sim/base/jsonpos.h"

#include <math.h>
#include <string.h>
#include <strings.h>

/* "tbench clients=4 on skl", and ", timer world hz-tick-250" with a --housekeeping list */
static void cell_desc(const struct check_comparison *cmp, const struct compare_result *res,
		      const struct compare_cell *c, char *buf, size_t n)
{
	size_t k;

	if (res->vary >= 0)
		k = (size_t)snprintf(buf, n, "%s %s=%lld on %s", res->wl->name,
				     res->wl->params[res->vary].name,
				     (long long)res->values[c->value], cmp->req.machines[c->machine]);
	else
		k = (size_t)snprintf(buf, n, "%s on %s", res->wl->name,
				     cmp->req.machines[c->machine]);
	if (res->nr_worlds > 0 && k < n)
		snprintf(buf + k, n - k, ", timer world %s", res->worlds[c->world]);
}

bool check_bound_holds(const struct check_expect *x, enum check_bound b,
		       const struct compare_gov *g)
{
	switch (b) {
	case B_MIN:
		return g->sum.mean >= x->bound[b];
	case B_MAX:
		return g->sum.mean <= x->bound[b];
	case B_MIN_PCT:
		return g->pct >= x->bound[b] || (x->significant && !g->significant);
	case B_MAX_PCT:
		return g->pct <= x->bound[b] || (x->significant && !g->significant);
	default:
		return !(g->significant && g->pct < 0);
	}
}

/* Test one bound on one cell into l (ok, and the words of its line). */
static void test_bound(const struct check_comparison *cmp, const struct compare_result *res,
		       const struct compare_cell *c, int g, const struct check_expect *x,
		       enum check_bound b, struct check_line *l)
{
	const struct compare_gov *cg = &c->gov[g];
	const char *sig = "";
	double v = b == B_MIN || b == B_MAX ? cg->sum.mean : cg->pct;
	bool ok = check_bound_holds(x, b, cg), lower = b == B_MIN || b == B_MIN_PCT;
	bool within = lower ? v >= x->bound[b] : v <= x->bound[b]; /* NaN: never */
	const char *rel = within ? (lower ? ">=" : "<=") : (lower ? "<" : ">");

	l->ok = ok;
	l->b = b;
	l->limit = b == B_NO_REGRESSION ? NAN : x->bound[b];
	l->workload = res->wl->name;
	l->param = res->vary >= 0 ? res->wl->params[res->vary].name : NULL;
	l->param_value = res->vary >= 0 ? res->values[c->value] : 0;
	l->metric = c->name;
	l->gov = cg;
	l->governor = res->governors[g];
	l->machine = cmp->req.machines[c->machine];
	l->unit = compare_metric_unit(res->wl, c->metric);
	if ((b == B_MIN_PCT || b == B_MAX_PCT) && x->significant && !within)
		sig = cg->significant ? " and significant" : ", not significant";
	if (b == B_MIN || b == B_MAX)
		snprintf(l->what, sizeof(l->what), "mean %.6g %s %s %s %.6g", v, l->unit, rel,
			 check_bound_key[b], x->bound[b]);
	else if (b != B_NO_REGRESSION)
		snprintf(l->what, sizeof(l->what), "%+.2f%% against %s %s %s %+.2f%%%s%s", v,
			 res->governors[0], rel, check_bound_key[b], x->bound[b], sig,
			 cg->flips ? " (flips with the timer world)" : "");
	else
		snprintf(l->what, sizeof(l->what), "%+.2f%% against %s, p = %.4g: %s%s", cg->pct,
			 res->governors[0], cg->p,
			 ok ? "no significant regression"
			    : "significant regression (no_significant_regression)",
			 cg->flips ? " (flips with the timer world)" : "");
	cell_desc(cmp, res, c, l->where, sizeof(l->where));
}

struct run_ctx {
	const struct check_file *cf;
	const struct check_opts *o;
	FILE *f;
	struct check_report *rep; /* NULL: the text report */
	int checks, failed;
};

/* Test one expectation on every cell it names; returns 0, or -1 with err set. */
static int test_expect(struct run_ctx *ctx, const struct check_comparison *cmp,
		       const struct compare_result *res, const struct check_expect *x,
		       struct sim_error *err)
{
	int line = 0, column = 0;
	const struct cpuidle_governor *want = gov_find(x->governor);
	int i, g, b, cells = 0;

	for (g = 0; g < res->nr_governors && gov_find(res->governors[g]) != want; g++)
		;
	for (i = 0; i < res->nr_cells; i++) {
		const struct compare_cell *c = &res->cells[i];

		if (strcasecmp(c->name, x->metric) ||
		    (x->machine && strcmp(cmp->req.machines[c->machine], x->machine)) ||
		    (x->has_value && res->values[c->value] != x->value))
			continue;
		cells++;
		for (b = 0; b < B_NR; b++) {
			struct check_line l = { 0 };

			if (!x->has[b])
				continue;
			test_bound(cmp, res, c, g, x, (enum check_bound)b, &l);
			ctx->checks++;
			ctx->failed += !l.ok;
			if (!ctx->rep)
				fprintf(ctx->f, "%-4s %s%s%s%s: %s of %s: %s\n",
					l.ok ? "ok" : "FAIL", cmp->name ? "[" : "",
					cmp->name ? cmp->name : "", cmp->name ? "] " : "", l.where,
					c->name, l.governor, l.what);
			else if (check_report_add(ctx->rep, &l))
				return sim_error_nomem(err, "check");
		}
	}
	if (!cells) {
		jsonpos_find(ctx->cf->text, x->path, &line, &column);
		return sim_error_set(err, SIM_ERR_INPUT, ctx->cf->source, line, column,
				     "%s: no cell of the comparison has metric %s", x->path,
				     x->metric);
	}
	return 0;
}

/* The progress bar on o->progress, naming the comparison being run. */
struct named_bar {
	FILE *f;
	const char *name;
};

static void named_progress(void *ud, long done, long total)
{
	const struct named_bar *nb = ud;

	compare_progress_bar_named(nb->f, nb->name, done, total);
}

/* Run comparison i and test its expectations. Returns 0, or -1 with err set. */
static int run_comparison(struct run_ctx *ctx, int i, struct sim_error *err)
{
	const struct check_comparison *cmp = &ctx->cf->cmp[i];
	const struct check_opts *o = ctx->o;
	struct compare_request req = cmp->req;
	struct compare_result res;
	char name[48];
	struct named_bar nb = { o->progress, name };
	int k, rc = 0;

	if (cmp->name)
		snprintf(name, sizeof(name), "%s", cmp->name);
	else
		snprintf(name, sizeof(name), "comparisons[%d]", i);
	req.threads = o->threads;
	if (o->wake_set)
		req.knobs.wake_model = o->wake_model;
	req.knobs.gov_timeout_ns = o->gov_timeout_ns;
	if (o->nr_worlds > 0) {
		memcpy(req.worlds, o->worlds, sizeof(req.worlds));
		req.nr_worlds = o->nr_worlds;
	}
	req.progress = o->progress ? named_progress : NULL;
	req.progress_ud = &nb;
	if (compare_run(&req, &res, err))
		return -1;
	if (ctx->rep) {
		if (check_report_comparison(ctx->rep, cmp->name, &res))
			rc = sim_error_nomem(err, "check");
	} else if (o->verbose && (compare_write(ctx->f, &res, COMPARE_TEXT, COMPARE_STYLE_MMTESTS) ||
				  fputc('\n', ctx->f) == EOF)) {
		rc = sim_error_set(err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
	} else if (!o->verbose) { /* the verbose table starts with it */
		compare_write_config(ctx->f, &res);
	}
	for (k = 0; k < cmp->nr_ex && !rc; k++)
		rc = test_expect(ctx, cmp, &res, &cmp->ex[k], err);
	compare_result_free(&res);
	return rc;
}

int check_run(const struct check_file *cf, const struct check_opts *o, struct sim_error *err)
{
	struct run_ctx ctx = { cf, o, o->out ? o->out : stdout, NULL, 0, 0 };
	int i, rc = 0;

	if (o->format != CHECK_TEXT) {
		ctx.rep = check_report_begin(o->format);
		if (!ctx.rep)
			return sim_error_nomem(err, "check");
	}
	for (i = 0; i < cf->nr_cmp && !rc; i++)
		rc = run_comparison(&ctx, i, err);
	if (!rc && !ctx.rep)
		fprintf(ctx.f, "check: %d of %d checks failed\n", ctx.failed, ctx.checks);
	else if (!rc && check_report_write(ctx.rep, ctx.f) && err->code == SIM_OK)
		sim_error_nomem(err, "check"); /* a write error is found below */
	check_report_free(ctx.rep);
	if (rc)
		return -1;
	if (fflush(ctx.f) || ferror(ctx.f))
		return sim_error_set(err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
	if (err->code != SIM_OK)
		return -1;
	return ctx.failed;
}
