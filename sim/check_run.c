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
#include "sim/check.h"
#include "sim/check_int.h"
#include "sim/jsonpos.h"

#include <string.h>
#include <strings.h>

/* "[name] tbench clients=4 on skl" */
static void cell_desc(const struct check_comparison *cmp, const struct cmp_result *res,
		      const struct cmp_cell *c, char *buf, size_t n)
{
	int used = 0;

	if (cmp->name)
		used = snprintf(buf, n, "[%s] ", cmp->name);
	if (used < 0 || (size_t)used >= n)
		return;
	if (res->vary >= 0)
		snprintf(buf + used, n - (size_t)used, "%s %s=%lld on %s", res->wl->name,
			 res->wl->params[res->vary].name, (long long)res->values[c->value],
			 cmp->req.machines[c->machine]);
	else
		snprintf(buf + used, n - (size_t)used, "%s on %s", res->wl->name,
			 cmp->req.machines[c->machine]);
}

/* Test one bound on one cell; prints its line, returns true if it holds. */
static bool test_bound(FILE *f, const struct check_comparison *cmp,
		       const struct cmp_result *res, const struct cmp_cell *c, int g,
		       const struct check_expect *x, enum check_bound b)
{
	const struct cmp_gov *cg = &c->gov[g];
	const char *unit = cmp_metric_unit(res->wl, c->metric);
	char where[400], what[200];
	double v = b == B_MIN || b == B_MAX ? cg->sum.mean : cg->pct;
	bool ok;

	switch (b) {
	case B_MIN:
	case B_MIN_PCT:
		ok = v >= x->bound[b];
		break;
	case B_MAX:
	case B_MAX_PCT:
		ok = v <= x->bound[b];
		break;
	default:
		ok = !(cg->significant && cg->pct < 0);
		break;
	}
	if (b == B_MIN || b == B_MAX)
		snprintf(what, sizeof(what), "mean %.6g %s %s %s %.6g", v, unit,
			 ok ? (b == B_MIN ? ">=" : "<=") : (b == B_MIN ? "<" : ">"),
			 check_bound_key[b], x->bound[b]);
	else if (b != B_NO_REGRESSION)
		snprintf(what, sizeof(what), "%+.2f%% against %s %s %s %+.2f%%", v,
			 res->governors[0],
			 ok ? (b == B_MIN_PCT ? ">=" : "<=") : (b == B_MIN_PCT ? "<" : ">"),
			 check_bound_key[b], x->bound[b]);
	else
		snprintf(what, sizeof(what), "%+.2f%% against %s, p = %.4g: %s", cg->pct,
			 res->governors[0], cg->p,
			 ok ? "no significant regression"
			    : "significant regression (no_significant_regression)");
	cell_desc(cmp, res, c, where, sizeof(where));
	fprintf(f, "%-4s %s: %s of %s: %s\n", ok ? "ok" : "FAIL", where, c->name,
		res->governors[g], what);
	return ok;
}

/* Test one expectation on every cell it names; returns the failures, or -1. */
static int test_expect(FILE *f, const struct check_file *cf, const struct check_comparison *cmp,
		       const struct cmp_result *res, const struct check_expect *x, int *checks,
		       struct sim_error *err)
{
	int line = 0, column = 0;
	const struct cpuidle_governor *want = gov_find(x->governor);
	int i, g, b, failed = 0, cells = 0;

	for (g = 0; g < res->nr_governors && gov_find(res->governors[g]) != want; g++)
		;
	for (i = 0; i < res->nr_cells; i++) {
		const struct cmp_cell *c = &res->cells[i];

		if (strcasecmp(c->name, x->metric) ||
		    (x->machine && strcmp(cmp->req.machines[c->machine], x->machine)) ||
		    (x->has_value && res->values[c->value] != x->value))
			continue;
		cells++;
		for (b = 0; b < B_NR; b++) {
			if (!x->has[b])
				continue;
			(*checks)++;
			failed += !test_bound(f, cmp, res, c, g, x, (enum check_bound)b);
		}
	}
	if (!cells) {
		jsonpos_find(cf->text, x->path, &line, &column);
		return sim_error_set(err, SIM_ERR_INPUT, cf->source, line, column,
				     "%s: no cell of the comparison has metric %s", x->path,
				     x->metric);
	}
	return failed;
}

int check_run(const struct check_file *cf, const struct check_opts *o, struct sim_error *err)
{
	FILE *f = o->out ? o->out : stdout;
	int i, k, n, failed = 0, checks = 0;

	for (i = 0; i < cf->nr_cmp; i++) {
		const struct check_comparison *cmp = &cf->cmp[i];
		struct cmp_request req = cmp->req;
		struct cmp_result res;

		req.threads = o->threads;
		if (o->wake_set)
			req.knobs.wake_model = o->wake_model;
		req.progress = o->progress;
		req.progress_ud = o->progress_ud;
		if (cmp_run(&req, &res, err))
			return -1;
		if (o->verbose && (cmp_write(f, &res, CMP_TEXT, CMP_STYLE_MMTESTS) ||
				   fputc('\n', f) == EOF)) {
			cmp_result_free(&res);
			return sim_error_set(err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
		}
		if (!o->verbose) /* the verbose table starts with it */
			cmp_write_config(f, &res);
		for (k = 0; k < cmp->nr_ex; k++) {
			n = test_expect(f, cf, cmp, &res, &cmp->ex[k], &checks, err);
			if (n < 0) {
				cmp_result_free(&res);
				return -1;
			}
			failed += n;
		}
		cmp_result_free(&res);
	}
	fprintf(f, "check: %d of %d checks failed\n", failed, checks);
	if (fflush(f) || ferror(f))
		return sim_error_set(err, SIM_ERR_IO, "<stdout>", 0, 0, "write error");
	return failed;
}
