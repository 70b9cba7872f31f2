// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - expectation files: parse and validate them (running them: check_run.c).
 *
 * Parsing is strict, like the machine loader's: unknown fields are errors (a mistyped
 * bound would otherwise never be checked), and every error names the field by its path
 * ("comparisons[0].expect[2].min_pct") at its line and column (sim/base/jsonpos.h). What can be
 * checked without running is checked before anything runs: the workload and its
 * parameters, the governors, the metrics (known, and served by the workload), that an
 * expectation's governor, machine and value are part of its comparison, and that the
 * baseline carries no bound relative to itself.
 *
 * The requested strings stay inside the parsed JSON document, which the check_file keeps
 * until check_free(); the comparison requests point into it.
 */
#include "sim/study/check.h"
#include "sim/run/kgov.h"
#include "sim/base/alloc.h"
#include "sim/study/check_int.h"
#include "sim/base/common.h"
#include "sim/base/jsonpos.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define PATH_LEN CHECK_PATH_LEN
#define CHECK_MAX_COMPARISONS 256

const char *const check_bound_key[B_NR] = { "min", "max", "min_pct", "max_pct",
					    "no_significant_regression" };

/* ---- parsing helpers ---- */

static const char *sub(char *buf, const char *path, const char *key)
{
	snprintf(buf, PATH_LEN, "%s%s%s", path, path[0] ? "." : "", key);
	return buf;
}

static int check_keys(const struct json_where *w, json_t *obj, const char *path,
		      const char *const *known)
{
	char p[PATH_LEN], list[400] = "";
	const char *key;
	json_t *v;
	int i;

	json_object_foreach(obj, key, v) {
		for (i = 0; known[i] && strcmp(known[i], key); i++)
			;
		if (known[i])
			continue;
		for (i = 0; known[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", known[i]);
		return jsonpos_fail(w, sub(p, path, key), "unknown field '%s' in %s (known: %s)", key,
			    path[0] ? path : "the file", list);
	}
	return 0;
}

static int get_string(const struct json_where *w, json_t *obj, const char *path, const char *key,
		      bool required, const char **out)
{
	json_t *v = json_object_get(obj, key);
	char p[PATH_LEN];

	if (!v) {
		if (required)
			return jsonpos_fail(w, path, "missing required field '%s' in %s", key,
				    path[0] ? path : "the file");
		return 0;
	}
	if (!json_is_string(v) || !json_string_length(v))
		return jsonpos_fail(w, sub(p, path, key), "%s must be a non-empty string", p);
	*out = json_string_value(v);
	return 0;
}

/* A string or an array of strings, into list[0..*n). */
static int get_strings(const struct json_where *w, json_t *obj, const char *path, const char *key,
		       bool required, const char **list, int *n)
{
	json_t *v = json_object_get(obj, key), *x;
	char p[PATH_LEN], q[PATH_LEN + 24];
	size_t i;

	*n = 0;
	if (!v)
		return required ? jsonpos_fail(w, path, "missing required field '%s' in %s", key, path) : 0;
	sub(p, path, key);
	if (json_is_string(v))
		return get_string(w, obj, path, key, true, &list[(*n)++]);
	if (!json_is_array(v) || (required && !json_array_size(v)))
		return jsonpos_fail(w, p, "%s must be a string or a non-empty array of strings", p);
	if (json_array_size(v) > RUN_MAX_ITEMS)
		return jsonpos_fail(w, p, "%s: at most %d entries", p, RUN_MAX_ITEMS);
	json_array_foreach(v, i, x) {
		snprintf(q, sizeof(q), "%s[%zu]", p, i);
		if (!json_is_string(x) || !json_string_length(x))
			return jsonpos_fail(w, q, "%s must be a non-empty string", q);
		list[(*n)++] = json_string_value(x);
	}
	return 0;
}

static int int_value(const struct json_where *w, json_t *v, const char *path, int64_t lo, int64_t hi,
		     int64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return jsonpos_fail(w, path, "%s must be an integer in %lld..%lld", path, (long long)lo,
			    (long long)hi);
	*out = json_integer_value(v);
	return 0;
}

static int get_int(const struct json_where *w, json_t *obj, const char *path, const char *key,
		   int64_t lo, int64_t hi, int64_t *out)
{
	json_t *v = json_object_get(obj, key);
	char p[PATH_LEN];

	return v ? int_value(w, v, sub(p, path, key), lo, hi, out) : 0;
}

static int get_number(const struct json_where *w, json_t *obj, const char *path, const char *key,
		      bool *has, double *out)
{
	json_t *v = json_object_get(obj, key);
	char p[PATH_LEN];

	if (!v)
		return 0;
	if (!json_is_number(v))
		return jsonpos_fail(w, sub(p, path, key), "%s must be a number", p);
	*out = json_number_value(v);
	*has = true;
	return 0;
}

/* ---- a comparison ---- */

static int parse_params(const struct json_where *w, json_t *c, const char *path, struct compare_request *r)
{
	json_t *ps = json_object_get(c, "params"), *v, *x;
	char p[PATH_LEN], q[PATH_LEN + 24];
	const char *key;
	size_t i;
	int k;

	workload_defaults(r->wl, r->params);
	if (!ps)
		return 0;
	if (!json_is_object(ps))
		return jsonpos_fail(w, sub(p, path, "params"), "%s must be an object", p);
	json_object_foreach(ps, key, v) {
		snprintf(p, sizeof(p), "%s.params.%s", path, key);
		k = workload_param_index(r->wl, key);
		if (k < 0)
			return jsonpos_fail(w, p, "workload %s has no parameter '%s'", r->wl->name, key);
		if (!json_is_array(v)) {
			if (int_value(w, v, p, INT64_MIN, INT64_MAX, &r->params[k]))
				return -1;
			continue;
		}
		if (r->vary >= 0)
			return jsonpos_fail(w, p, "only one parameter may be a list (%s is one already)",
				    r->wl->params[r->vary].name);
		if (!json_array_size(v) || json_array_size(v) > COMPARE_MAX_VALUES)
			return jsonpos_fail(w, p, "%s must have 1 to %d values", p, COMPARE_MAX_VALUES);
		r->vary = k;
		json_array_foreach(v, i, x) {
			snprintf(q, sizeof(q), "%s[%zu]", p, i);
			if (int_value(w, x, q, INT64_MIN, INT64_MAX, &r->values[r->nr_values++]))
				return -1;
		}
	}
	return 0;
}

static int parse_sets(const struct json_where *w, json_t *c, const char *path, struct run_request *k)
{
	json_t *sets = json_object_get(c, "set"), *v;
	char p[PATH_LEN];
	const char *key, *dot;
	int64_t x = 0; /* set by int_value() on success; gcc -O2 cannot see it */

	if (!sets)
		return 0;
	if (!json_is_object(sets))
		return jsonpos_fail(w, sub(p, path, "set"), "%s must be an object of FAMILY.NAME: VALUE",
			    p);
	json_object_foreach(sets, key, v) {
		struct run_set *s = &k->sets[k->nr_sets];

		snprintf(p, sizeof(p), "%s.set.%s", path, key);
		dot = strchr(key, '.');
		if (!dot || dot == key || !dot[1] || (size_t)(dot - key) >= sizeof(s->family) ||
		    strlen(dot + 1) >= sizeof(s->name))
			return jsonpos_fail(w, p, "'%s': expected FAMILY.NAME, e.g. menu.decay", key);
		if (k->nr_sets >= RUN_MAX_SETS)
			return jsonpos_fail(w, p, "at most %d tunables", RUN_MAX_SETS);
		if (int_value(w, v, p, -(INT64_MAX / 2), INT64_MAX / 2, &x))
			return -1;
		snprintf(s->family, sizeof(s->family), "%.*s", (int)(dot - key), key);
		snprintf(s->name, sizeof(s->name), "%s", dot + 1);
		s->value = x;
		k->nr_sets++;
	}
	return 0;
}

static int parse_knobs(const struct json_where *w, json_t *c, const char *path, struct compare_request *r)
{
	int64_t v = -1, secs_ns;
	const char *wake;
	double d = 0;
	bool has = false;
	char p[PATH_LEN];

	if (get_int(w, c, path, "iterations", 1, 100000, &v))
		return -1;
	if (v > 0)
		r->iterations = (int)v;
	v = -1;
	if (get_int(w, c, path, "seed", 0, INT64_MAX / 2, &v))
		return -1;
	if (v >= 0)
		r->seed = (uint64_t)v;
	if (get_number(w, c, path, "duration_s", &has, &d))
		return -1;
	if (has) {
		secs_ns = isfinite(d) && d > 0 && d <= 3600 ? (int64_t)llround(d * 1e9) : 0;
		if (secs_ns < 1)
			return jsonpos_fail(w, sub(p, path, "duration_s"), "%s must be in (0, 3600]", p);
		r->duration_ns = secs_ns;
	}
	v = 0;
	if (get_int(w, c, path, "hz", 1, 10000, &v))
		return -1;
	r->knobs.hz = (int)v;
	v = -1;
	if (get_int(w, c, path, "latency_limit_us", 0, 2000000000, &v))
		return -1;
	r->knobs.latency_req_ns = v < 0 ? -1 : v * SIM_NS_PER_US;
	wake = NULL;
	if (get_string(w, c, path, "wake_latency", false, &wake))
		return -1;
	if (wake && wake_model_parse(wake, &r->knobs.wake_model))
		return jsonpos_fail(w, sub(p, path, "wake_latency"),
			    "%s: '%s' is not worst, typical or measured", p, wake);
	if (get_strings(w, c, path, "disable", false, r->knobs.disable, &r->knobs.nr_disable) ||
	    get_strings(w, c, path, "enable", false, r->knobs.enable, &r->knobs.nr_enable))
		return -1;
	return parse_sets(w, c, path, &r->knobs);
}

/*
 * What the comparison would reject when it runs, found now so that the message points at
 * the field: parameter values out of range, machines that do not load, states to disable
 * or enable that a machine lacks. Other errors (out of memory) pass unchanged.
 */
static int check_resolvable(const struct json_where *w, json_t *c, const char *path,
			    const struct compare_request *r)
{
	int64_t params[WL_MAX_PARAMS];
	struct sim_error e = { 0 };
	struct machine m;
	uint32_t mask;
	char p[PATH_LEN];
	int i;

	memcpy(params, r->params, sizeof(params));
	for (i = 0; i < (r->vary >= 0 ? r->nr_values : 1); i++) {
		if (r->vary >= 0)
			params[r->vary] = r->values[i];
		if (workload_check_params(r->wl, params, &e))
			return jsonpos_fail(w, sub(p, path, "params"), "%s", e.text);
	}
	for (i = 0; i < r->nr_machines; i++) {
		if (run_load_machine(&r->knobs, r->machines[i], &m, &e)) {
			if (e.code != SIM_ERR_INPUT && e.code != SIM_ERR_IO) {
				if (w->err && w->err->code == SIM_OK)
					*w->err = e;
				return -1;
			}
			return jsonpos_fail(w, sub(p, path, "machines"), "%s%s%s", e.source,
				    e.source[0] ? ": " : "", e.text);
		}
		if (run_disabled_mask(&r->knobs, &m, &mask, &e))
			return jsonpos_fail(w,
				    sub(p, path,
					json_object_get(c, "disable") ? "disable" : "enable"),
				    "%s", e.text);
	}
	{
		const struct cpuidle_governor *g[RUN_MAX_ITEMS];

		for (i = 0; i < r->nr_governors; i++)
			g[i] = gov_find(r->governors[i]);
		if (run_check_sets_apply(r->knobs.sets, r->knobs.nr_sets, g, r->nr_governors, &e))
			return jsonpos_fail(w, sub(p, path, "set"), "%s", e.text);
	}
	return 0;
}

static int parse_comparison(const struct json_where *w, json_t *c, const char *path,
			    check_find_fn *find, struct check_comparison *out)
{
	static const char *const known[] = {
		"name", "workload", "params", "machines", "governors", "iterations", "seed",
		"duration_s", "hz", "latency_limit_us", "wake_latency", "disable", "enable", "set",
		"expect", NULL
	};
	struct compare_request *r = &out->req;
	const char *wl = NULL;
	char p[PATH_LEN];
	int i;

	if (!json_is_object(c))
		return jsonpos_fail(w, path, "%s must be an object", path);
	if (check_keys(w, c, path, known) || get_string(w, c, path, "name", false, &out->name) ||
	    get_string(w, c, path, "workload", true, &wl))
		return -1;
	r->wl = find(wl);
	if (!r->wl)
		return jsonpos_fail(w, sub(p, path, "workload"),
			    "unknown workload '%s' (see idlesim help gen)", wl);
	if (parse_params(w, c, path, r) ||
	    get_strings(w, c, path, "machines", true, r->machines, &r->nr_machines) ||
	    get_strings(w, c, path, "governors", true, r->governors, &r->nr_governors))
		return -1;
	for (i = 0; i < r->nr_governors; i++) {
		struct sim_error e = { 0 };
		const struct cpuidle_governor *g = kgov_find(r->governors[i], stderr, &e);

		if (!g) {
			snprintf(p, sizeof(p), "%s.governors[%d]", path, i);
			if (!json_is_array(json_object_get(c, "governors")))
				sub(p, path, "governors");
			if (e.code != SIM_OK)
				return jsonpos_fail(w, p, "%s: %s", r->governors[i], e.text);
			return jsonpos_fail(w, p, "unknown governor '%s' (see idlesim governors)",
				    r->governors[i]);
		}
		r->governors[i] = g->name; /* a kernel file: its registered name */
	}
	return parse_knobs(w, c, path, r) || check_resolvable(w, c, path, r);
}

/* ---- an expectation ---- */

static int expect_targets(const struct json_where *w, const struct check_comparison *cmp,
			  const struct check_expect *x)
{
	const struct compare_request *r = &cmp->req;
	const struct cpuidle_governor *g = gov_find(x->governor);
	char p[PATH_LEN];
	int i, id = compare_metric_lookup(x->metric);

	if (id < 0)
		return jsonpos_fail(w, sub(p, x->path, "metric"), "unknown metric '%s'", x->metric);
	if (!compare_metric_applies(r->wl, id))
		return jsonpos_fail(w, sub(p, x->path, "metric"), "workload %s serves no requests: no %s",
			    r->wl->name, x->metric);
	for (i = 0; i < r->nr_governors && gov_find(r->governors[i]) != g; i++)
		;
	if (i == r->nr_governors)
		return jsonpos_fail(w, sub(p, x->path, "governor"),
			    "governor '%s' is not one of this comparison's governors", x->governor);
	if (i == 0 && (x->has[B_MIN_PCT] || x->has[B_MAX_PCT] || x->has[B_NO_REGRESSION]))
		return jsonpos_fail(w, x->path,
			    "%s is the baseline: bounds against the baseline need another governor",
			    x->governor);
	if (x->machine) {
		for (i = 0; i < r->nr_machines && strcmp(r->machines[i], x->machine); i++)
			;
		if (i == r->nr_machines)
			return jsonpos_fail(w, sub(p, x->path, "machine"),
				    "machine '%s' is not one of this comparison's machines",
				    x->machine);
	}
	if (x->has_value) {
		bool found = false;

		if (r->vary < 0)
			return jsonpos_fail(w, sub(p, x->path, "value"),
				    "'value' selects a value of the listed parameter, and no "
				    "parameter of this comparison is a list");
		for (i = 0; i < r->nr_values; i++)
			found |= r->values[i] == x->value;
		if (!found)
			return jsonpos_fail(w, sub(p, x->path, "value"),
				    "no cell of this comparison has the parameter value %lld",
				    (long long)x->value);
	}
	return 0;
}

static int parse_expect(const struct json_where *w, json_t *e, const char *path,
			const struct check_comparison *cmp, struct check_expect *x)
{
	static const char *const known[] = { "metric",	"governor", "machine",
					     "value",	"min",	    "max",
					     "min_pct", "max_pct",  "no_significant_regression",
					     "significant", NULL };
	json_t *v;
	char p[PATH_LEN];
	int b, nb = 0;

	memset(x, 0, sizeof(*x));
	snprintf(x->path, sizeof(x->path), "%s", path);
	if (!json_is_object(e))
		return jsonpos_fail(w, path, "%s must be an object", path);
	if (check_keys(w, e, path, known) || get_string(w, e, path, "metric", true, &x->metric) ||
	    get_string(w, e, path, "governor", true, &x->governor) ||
	    get_string(w, e, path, "machine", false, &x->machine))
		return -1;
	if (kgov_is_path(x->governor)) {
		/* Named by its file, as in the comparison's list: loaded already, or now. */
		struct sim_error ke = { 0 };
		const struct cpuidle_governor *g = kgov_find(x->governor, stderr, &ke);

		if (!g)
			return jsonpos_fail(w, sub(p, path, "governor"), "%s: %s", x->governor, ke.text);
		x->governor = g->name;
	}
	v = json_object_get(e, "value");
	if (v) {
		x->has_value = true;
		if (int_value(w, v, sub(p, path, "value"), INT64_MIN, INT64_MAX, &x->value))
			return -1;
	}
	for (b = 0; b < B_NO_REGRESSION; b++)
		if (get_number(w, e, path, check_bound_key[b], &x->has[b], &x->bound[b]))
			return -1;
	v = json_object_get(e, check_bound_key[B_NO_REGRESSION]);
	if (v && !json_is_boolean(v))
		return jsonpos_fail(w, sub(p, path, check_bound_key[B_NO_REGRESSION]),
			    "%s must be true or false", p);
	x->has[B_NO_REGRESSION] = v && json_is_true(v);
	v = json_object_get(e, "significant");
	if (v && !json_is_boolean(v))
		return jsonpos_fail(w, sub(p, path, "significant"), "%s must be true or false", p);
	x->significant = v && json_is_true(v);
	if (x->significant && !x->has[B_MIN_PCT] && !x->has[B_MAX_PCT])
		return jsonpos_fail(w, sub(p, path, "significant"),
			    "%s qualifies min_pct or max_pct, and %s has neither", p, path);
	for (b = 0; b < B_NR; b++)
		nb += x->has[b];
	if (!nb)
		return jsonpos_fail(w, path, "%s states no bound (min, max, min_pct, max_pct or "
				     "no_significant_regression)", path);
	if ((x->has[B_MIN] && x->has[B_MAX] && x->bound[B_MIN] > x->bound[B_MAX]) ||
	    (x->has[B_MIN_PCT] && x->has[B_MAX_PCT] && x->bound[B_MIN_PCT] > x->bound[B_MAX_PCT]))
		return jsonpos_fail(w, path, "%s: a lower bound is above its upper bound", path);
	return expect_targets(w, cmp, x);
}

static int parse_expects(const struct json_where *w, json_t *c, const char *path,
			 struct check_comparison *cmp)
{
	json_t *a = json_object_get(c, "expect"), *e;
	char p[PATH_LEN], q[PATH_LEN + 24];
	size_t i;

	sub(p, path, "expect");
	if (!a)
		return jsonpos_fail(w, path, "missing required field 'expect' in %s", path);
	if (!json_is_array(a) || !json_array_size(a))
		return jsonpos_fail(w, p, "%s must be a non-empty array of expectations", p);
	cmp->ex = sim_calloc(json_array_size(a), sizeof(*cmp->ex));
	if (!cmp->ex)
		return sim_error_nomem(w->err, w->source);
	json_array_foreach(a, i, e) {
		snprintf(q, sizeof(q), "%s[%zu]", p, i);
		if (parse_expect(w, e, q, cmp, &cmp->ex[cmp->nr_ex]))
			return -1;
		cmp->nr_ex++;
	}
	return 0;
}

/* The metrics a comparison must compute: those its expectations name, once each. */
static void request_metrics(struct check_comparison *cmp)
{
	struct compare_request *r = &cmp->req;
	int i, k;

	for (i = 0; i < cmp->nr_ex && r->nr_metrics < COMPARE_MAX_METRICS; i++) {
		for (k = 0; k < r->nr_metrics && strcasecmp(r->metrics[k], cmp->ex[i].metric); k++)
			;
		if (k == r->nr_metrics)
			r->metrics[r->nr_metrics++] = cmp->ex[i].metric;
	}
}

static int parse_root(const struct json_where *w, struct check_file *cf, check_find_fn *find)
{
	static const char *const known[] = { "schema", "comparisons", NULL };
	json_t *root = cf->root, *a, *c;
	const char *schema = NULL;
	char p[PATH_LEN];
	size_t i;

	if (!json_is_object(root))
		return jsonpos_fail(w, "", "an expectation file is a JSON object");
	if (check_keys(w, root, "", known) || get_string(w, root, "", "schema", true, &schema))
		return -1;
	if (strcmp(schema, CHECK_JSON_SCHEMA))
		return jsonpos_fail(w, "schema", "schema '%s' is not %s", schema, CHECK_JSON_SCHEMA);
	a = json_object_get(root, "comparisons");
	if (!a || !json_is_array(a) || !json_array_size(a) ||
	    json_array_size(a) > CHECK_MAX_COMPARISONS)
		return jsonpos_fail(w, a ? "comparisons" : "",
			    "'comparisons' must be an array of 1 to %d comparisons",
			    CHECK_MAX_COMPARISONS);
	cf->cmp = sim_calloc(json_array_size(a), sizeof(*cf->cmp));
	if (!cf->cmp)
		return sim_error_nomem(w->err, w->source);
	json_array_foreach(a, i, c) {
		struct check_comparison *cmp = &cf->cmp[cf->nr_cmp++];

		snprintf(p, sizeof(p), "comparisons[%zu]", i);
		compare_request_defaults(&cmp->req);
		if (parse_comparison(w, c, p, find, cmp) || parse_expects(w, c, p, cmp))
			return -1;
		request_metrics(cmp);
	}
	return 0;
}

struct check_file *check_parse(const char *text, const char *source, check_find_fn *find,
			       struct sim_error *err)
{
	struct check_file *cf = sim_calloc(1, sizeof(*cf));
	struct json_where w = { source ? source : "<string>", NULL, err, NULL };
	char msg[4 * JSON_ERROR_TEXT_LENGTH];
	unsigned long failures;
	json_error_t je;

	if (!cf) {
		sim_error_nomem(err, w.source);
		return NULL;
	}
	snprintf(cf->source, sizeof(cf->source), "%s", w.source);
	w.source = cf->source;
	cf->text = sim_strdup(text);
	if (!cf->text) {
		sim_error_nomem(err, w.source);
		check_free(cf);
		return NULL;
	}
	w.text = cf->text;
	failures = sim_alloc_failures();
	if (sim_has_bom(cf->text, strlen(cf->text))) {
		sim_error_set(err, SIM_ERR_INPUT, w.source, 1, 1, SIM_BOM_MESSAGE);
		check_free(cf);
		return NULL;
	}
	cf->root = json_loads(cf->text, JSON_REJECT_DUPLICATES, &je);
	if (!cf->root) {
		/* jansson may report a failed allocation as a syntax error */
		if (sim_alloc_failures() != failures)
			sim_error_nomem(err, w.source);
		else
			sim_error_set(err, SIM_ERR_INPUT, w.source, je.line > 0 ? je.line : 0,
				      je.line > 0 ? (je.column > 1 ? je.column : 1) : 0, "%s",
				      jsonpos_clean_message(msg, sizeof(msg), je.text));
		check_free(cf);
		return NULL;
	}
	if (parse_root(&w, cf, find ? find : workload_find)) {
		check_free(cf);
		return NULL;
	}
	return cf;
}

/* path "-": standard input, named "<stdin>" in messages. */
struct check_file *check_load(const char *path, check_find_fn *find, struct sim_error *err)
{
	bool in = !strcmp(path, "-");
	int fd = in ? dup(STDIN_FILENO) : -1;
	FILE *f = !in ? fopen(path, "r") : fd >= 0 ? fdopen(fd, "r") : NULL;
	struct check_file *cf = NULL;
	char *buf;
	size_t n;

	if (in)
		path = "<stdin>";
	if (!f) {
		sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = sim_malloc(CHECK_FILE_MAX + 1);
	if (!buf) {
		sim_error_nomem(err, path);
	} else {
		n = fread(buf, 1, CHECK_FILE_MAX + 1, f);
		buf[n > CHECK_FILE_MAX ? CHECK_FILE_MAX : n] = '\0';
		if (ferror(f))
			sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot read: %s",
				      strerror(errno));
		else if (n > CHECK_FILE_MAX)
			sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
				      "larger than 1 MiB; is this an expectation file?");
		else if (memchr(buf, '\0', n))
			sim_error_set(err, SIM_ERR_INPUT, path, 0, 0, "contains a NUL byte");
		else
			cf = check_parse(buf, path, find, err);
	}
	sim_free(buf);
	fclose(f);
	return cf;
}

void check_free(struct check_file *cf)
{
	int i;

	if (!cf)
		return;
	for (i = 0; i < cf->nr_cmp; i++)
		sim_free(cf->cmp[i].ex);
	sim_free(cf->cmp);
	json_decref(cf->root);
	sim_free(cf->text);
	sim_free(cf);
}
