// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep_spec.c - idlesim sweep (see sweep.h): the spec and its points. A spec is parsed and
 * checked whole, every error at its file:line:column, before anything runs; then point i of
 * the cross product (or of the listed points) is a run request, which sweep_run.c runs.
 * Apart from the running, so that the spec and the point order have one home that calls
 * nothing else of the sweep.
 *
 * Point order: input (the traces, then the workloads), machine, HZ, latency limit, governor
 * (slowest first), then the values of the tunables that apply to the governor, the last
 * listed fastest, or the listed points that fit the governor, in their order. A point's
 * index is its place in this order; it names the point in the results and in shards.
 */
#include "sim/study/sweep.h"
#include "sim/run/kgov.h"
#include "sim/study/sweep_int.h"
#include "sim/base/alloc.h"
#include "sim/run/cfgrec.h"
#include "sim/base/common.h"
#include "sim/base/jsonpos.h"
#include "sim/workload/workloads.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define SPEC_FILE_MAX (1 << 20)

/* A list of non-empty strings (or one string) at key; required unless optional. */
static int get_names(const struct json_where *w, json_t *root, const char *key, bool optional,
		     const char **out, int *n)
{
	json_t *v = json_object_get(root, key), *x;
	char p[64];
	size_t i;

	*n = 0;
	if (!v && optional)
		return 0;
	if (!v)
		return jsonpos_fail(w, "", "missing required field '%s'", key);
	if (json_is_string(v))
		v = root; /* handled below as a one-element list */
	if (v == root) {
		out[(*n)++] = json_string_value(json_object_get(root, key));
		return 0;
	}
	if (!json_is_array(v) || !json_array_size(v))
		return jsonpos_fail(w, key, "%s must be a non-empty list of names", key);
	json_array_foreach(v, i, x) {
		snprintf(p, sizeof(p), "%s[%zu]", key, i);
		if (!json_is_string(x) || !json_string_length(x))
			return jsonpos_fail(w, p, "%s must be a non-empty string", p);
		if (*n == RUN_MAX_ITEMS)
			return jsonpos_fail(w, p, "%s: at most %d entries", key, RUN_MAX_ITEMS);
		out[(*n)++] = json_string_value(x);
	}
	return 0;
}

/* An optional list of integers in lo..hi (null allowed as `none` when none_ok). */
static int get_ints(const struct json_where *w, json_t *root, const char *key, int64_t lo,
		    int64_t hi, bool none_ok, int64_t *out, int *n)
{
	json_t *v = json_object_get(root, key), *x;
	char p[64];
	size_t i;

	*n = 0;
	if (!v)
		return 0;
	if (!json_is_array(v) || !json_array_size(v))
		return jsonpos_fail(w, key, "%s must be a non-empty list", key);
	json_array_foreach(v, i, x) {
		snprintf(p, sizeof(p), "%s[%zu]", key, i);
		if (*n == SWEEP_MAX_VALUES)
			return jsonpos_fail(w, p, "%s: at most %d values", key, SWEEP_MAX_VALUES);
		if (none_ok && json_is_null(x)) {
			out[(*n)++] = -1;
			continue;
		}
		if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi)
			return jsonpos_fail(w, p, "%s must be an integer in %lld..%lld%s", p,
					    (long long)lo, (long long)hi,
					    none_ok ? " or null" : "");
		out[(*n)++] = json_integer_value(x);
	}
	return 0;
}

static int range_field(const struct json_where *w, json_t *r, const char *path, const char *k,
		       long long *out)
{
	json_t *v = json_object_get(r, k);
	char p[160];

	snprintf(p, sizeof(p), "%s.%s", path, k);
	if (!json_is_integer(v))
		return jsonpos_fail(w, json_is_null(v) || v ? p : path, "%s must be an integer", p);
	*out = json_integer_value(v);
	return 0;
}

/* A tunable's values: a list of integers, or {"from", "to", "step"}. */
static int tunable_values(const struct json_where *w, json_t *v, const char *path,
			  struct sweep_tunable *t, bool force)
{
	long long from = 0, to = 0, step = 0, k; /* gcc -O2 cannot see them set */
	const char *key;
	json_t *x;
	size_t i;
	char p[160];

	if (json_is_array(v)) {
		if (!json_array_size(v))
			return jsonpos_fail(w, path, "%s: an empty list of values", path);
		t->values = sim_calloc(json_array_size(v), sizeof(*t->values));
		if (!t->values)
			return sim_error_nomem(w->err, w->source);
		json_array_foreach(v, i, x) {
			snprintf(p, sizeof(p), "%s[%zu]", path, i);
			if (!json_is_integer(x))
				return jsonpos_fail(w, p, "%s must be an integer", p);
			t->values[t->n++] = json_integer_value(x);
		}
		return 0;
	}
	if (!json_is_object(v))
		return jsonpos_fail(w, path,
				    "%s must be a list of values or {\"from\", \"to\", \"step\"}",
				    path);
	json_object_foreach(v, key, x)
		if (strcmp(key, "from") && strcmp(key, "to") && strcmp(key, "step")) {
			snprintf(p, sizeof(p), "%s.%s", path, key);
			return jsonpos_fail(w, p, "%s: unknown field '%s' (known: from, to, step)",
					    path, key);
		}
	if (range_field(w, v, path, "from", &from) || range_field(w, v, path, "to", &to) ||
	    range_field(w, v, path, "step", &step))
		return -1;
	snprintf(p, sizeof(p), "%s.step", path);
	if (step <= 0)
		return jsonpos_fail(w, p, "%s must be positive", p);
	if (to < from)
		return jsonpos_fail(w, path, "%s: an empty range (to %lld < from %lld)", path, to,
				    from);
	k = (to - from) / step + 1;
	if (k > SWEEP_MAX_POINTS && !force)
		return jsonpos_fail(w, path, "%s: %lld values (more than %ld need --force)", path,
				    k, SWEEP_MAX_POINTS);
	t->values = sim_calloc((size_t)k, sizeof(*t->values));
	if (!t->values)
		return sim_error_nomem(w->err, w->source);
	for (t->n = 0; t->n < k; t->n++)
		t->values[t->n] = from + t->n * step;
	return 0;
}

/* "FAMILY.NAME" into t's family and name; -1 if it is not of that form. */
static int tunable_key(const char *key, struct run_set *t)
{
	const char *dot = strchr(key, '.');

	if (!dot || dot == key || !dot[1] || (size_t)(dot - key) >= sizeof(t->family) ||
	    strlen(dot + 1) >= sizeof(t->name))
		return -1;
	snprintf(t->family, sizeof(t->family), "%.*s", (int)(dot - key), key);
	snprintf(t->name, sizeof(t->name), "%s", dot + 1);
	return 0;
}

/* Does t apply to any of the sweep's governors? */
static bool applies_to_any(const struct sweep_spec *s, const struct run_set *t)
{
	int g;

	for (g = 0; g < s->nr_gov; g++)
		if (cfgrec_set_applies(t, s->gov[g]))
			return true;
	return false;
}

/* Value v of tunable t (KEY), range-checked against every governor it applies to. */
static int check_value(const struct json_where *w, const struct sweep_spec *s, const char *path,
		       const char *key, const struct run_set *t, long long v)
{
	int g, k;

	for (g = 0; g < s->nr_gov; g++) {
		if (!cfgrec_set_applies(t, s->gov[g]))
			continue;
		k = gov_param_index(s->gov[g], t->name);
		if (v < s->gov[g]->params[k].min || v > s->gov[g]->params[k].max)
			return jsonpos_fail(w, path, "%s=%lld: out of range for %s (%lld..%lld)",
					    key, v, s->gov[g]->name, s->gov[g]->params[k].min,
					    s->gov[g]->params[k].max);
	}
	return 0;
}

static int parse_tunables(const struct json_where *w0, struct sweep_spec *s, bool force)
{
	struct json_where wk = *w0, *w = &wk;
	json_t *obj = json_object_get(s->root, "tunables"), *v;
	const char *key;
	char p[160];
	long i;

	if (!obj)
		return 0;
	if (!json_is_object(obj))
		return jsonpos_fail(w, "tunables",
				    "tunables must be an object {\"FAMILY.NAME\": values}");
	json_object_foreach(obj, key, v) {
		struct sweep_tunable *t = &s->tun[s->nr_tun];

		snprintf(p, sizeof(p), "tunables.%s", key);
		wk.key = key;
		if (s->nr_tun == RUN_MAX_SETS)
			return jsonpos_fail(w, p, "at most %d tunables", RUN_MAX_SETS);
		if (tunable_key(key, &t->set))
			return jsonpos_fail(w, p, "tunable '%s' must be FAMILY.NAME", key);
		s->nr_tun++;
		if (!applies_to_any(s, &t->set))
			return jsonpos_fail(w, p, "unknown tunable '%s': none of the sweep's "
					    "governors has it (see idlesim governors)", key);
		if (tunable_values(w, v, p, t, force))
			return -1;
		for (i = 0; i < t->n; i++)
			if (check_value(w, s, p, key, &t->set, t->values[i]))
				return -1;
	}
	return 0;
}

/*
 * "points": [{"teo.decay_shift": 2}, {"menu.decay": 4, "menu.ratio_sq": 30}, {}]: a listed
 * set of points instead of the cross product. A listed point runs on every swept governor
 * that has all of its tunables ({} runs every governor with its defaults); one that fits
 * none of them is an error.
 */
static int parse_points(const struct json_where *w, struct sweep_spec *s)
{
	json_t *arr = json_object_get(s->root, "points"), *o, *v;
	const char *key;
	char p[160];
	size_t i;
	int g;

	if (!arr)
		return 0;
	if (json_object_get(s->root, "tunables"))
		return jsonpos_fail(w, "points", "give either tunables (a cross product) or points "
				    "(a list), not both");
	if (!json_is_array(arr) || !json_array_size(arr))
		return jsonpos_fail(w, "points", "points must be a non-empty list of objects "
				    "{\"FAMILY.NAME\": value, ...}");
	s->listed = sim_calloc(json_array_size(arr), sizeof(*s->listed));
	for (g = 0; g < s->nr_gov && s->listed; g++)
		if (!(s->listed_of[g] = sim_calloc(json_array_size(arr), sizeof(long))))
			break;
	if (!s->listed || g < s->nr_gov)
		return sim_error_nomem(w->err, w->source);
	json_array_foreach(arr, i, o) {
		struct sweep_listed *l = &s->listed[i];
		bool fits = false;

		snprintf(p, sizeof(p), "points[%zu]", i);
		if (!json_is_object(o))
			return jsonpos_fail(w, p, "%s must be an object {\"FAMILY.NAME\": value, "
					    "...}", p);
		json_object_foreach(o, key, v) {
			struct run_set *t = &l->sets[l->n];

			if (l->n == RUN_MAX_SETS)
				return jsonpos_fail(w, p, "%s: at most %d tunables", p,
						    RUN_MAX_SETS);
			if (tunable_key(key, t))
				return jsonpos_fail(w, p, "%s: tunable '%s' must be FAMILY.NAME", p,
						    key);
			if (!applies_to_any(s, t))
				return jsonpos_fail(w, p, "%s: unknown tunable '%s': none of the "
						    "sweep's governors has it (see idlesim "
						    "governors)", p, key);
			if (!json_is_integer(v))
				return jsonpos_fail(w, p, "%s: %s must be an integer", p, key);
			t->value = json_integer_value(v);
			if (check_value(w, s, p, key, t, t->value))
				return -1;
			l->n++;
		}
		for (g = 0; g < s->nr_gov; g++) {
			int k = 0;

			while (k < l->n && cfgrec_set_applies(&l->sets[k], s->gov[g]))
				k++;
			if (k == l->n) {
				s->listed_of[g][s->combos[g]++] = (long)i;
				fits = true;
			}
		}
		if (!fits)
			return jsonpos_fail(w, p, "%s fits none of the swept governors (none has "
					    "all its tunables)", p);
	}
	s->nr_listed = (long)json_array_size(arr);
	return 0;
}

/* One workload: "tbench", or {"name": "tbench", "clients": 4, ...} (compare's --NAME). */
static int parse_workload(const struct json_where *w, json_t *x, const char *p,
			  struct sweep_workload *out)
{
	json_t *name = json_is_object(x) ? json_object_get(x, "name") : x, *v;
	const char *key;
	char kp[192];
	size_t used;
	int k;

	if (!json_is_string(name))
		return jsonpos_fail(w, p, "%s must be a workload name or {\"name\": W, \"PARAM\": "
				    "value, ...} (idlesim help gen lists them)", p);
	out->wl = workload_find(json_string_value(name));
	if (!out->wl)
		return jsonpos_fail(w, p, "unknown workload '%s' (idlesim help gen lists them)",
			    json_string_value(name));
	workload_defaults(out->wl, out->params);
	used = (size_t)snprintf(out->label, sizeof(out->label), "%s", out->wl->name);
	if (json_is_object(x))
		json_object_foreach(x, key, v) {
			if (!strcmp(key, "name"))
				continue;
			snprintf(kp, sizeof(kp), "%s.%s", p, key);
			k = workload_param_index(out->wl, key);
			if (k < 0)
				return jsonpos_fail(w, kp, "workload %s has no parameter '%s' (see "
						    "idlesim help gen)", out->wl->name, key);
			if (!json_is_integer(v))
				return jsonpos_fail(w, kp, "%s must be an integer", kp);
			out->params[k] = json_integer_value(v);
			if (used < sizeof(out->label))
				used += (size_t)snprintf(out->label + used,
							 sizeof(out->label) - used, " %s=%lld", key,
							 (long long)out->params[k]);
		}
	{
		struct sim_error e = { 0 };

		if (workload_check_params(out->wl, out->params, &e))
			return jsonpos_fail(w, p, "%s: %s", p, e.text);
	}
	return 0;
}

static int parse_workloads(const struct json_where *w, struct sweep_spec *s)
{
	json_t *v = json_object_get(s->root, "workloads"), *x, *d;
	char p[64];
	size_t i;

	s->duration_ns = SIM_NS_PER_S;
	s->seed = 1;
	d = json_object_get(s->root, "duration_s");
	if (d && (!json_is_number(d) || json_number_value(d) <= 0 ||
		  json_number_value(d) > 86400))
		return jsonpos_fail(w, "duration_s",
				    "duration_s must be a number of seconds in (0, 86400]");
	if (d)
		s->duration_ns = (int64_t)(json_number_value(d) * 1e9 + 0.5);
	d = json_object_get(s->root, "seed");
	if (d && (!json_is_integer(d) || json_integer_value(d) < 0))
		return jsonpos_fail(w, "seed", "seed must be a non-negative integer");
	if (d)
		s->seed = (uint64_t)json_integer_value(d);
	if (!v)
		return 0;
	if (json_is_string(v) || json_is_object(v))
		return parse_workload(w, v, "workloads", &s->wl[s->nr_wl++]);
	if (!json_is_array(v) || !json_array_size(v))
		return jsonpos_fail(w, "workloads", "workloads must be a non-empty list");
	json_array_foreach(v, i, x) {
		snprintf(p, sizeof(p), "workloads[%zu]", i);
		if (s->nr_wl == RUN_MAX_ITEMS)
			return jsonpos_fail(w, p, "workloads: at most %d entries", RUN_MAX_ITEMS);
		if (parse_workload(w, x, p, &s->wl[s->nr_wl++]))
			return -1;
	}
	return 0;
}

/* The number of points, refusing more than SWEEP_MAX_POINTS without force. */
static int count_points(const struct json_where *w, struct sweep_spec *s, bool force)
{
	double total;
	int g, k;

	s->per_block = 0;
	for (g = 0; g < s->nr_gov; g++) {
		double c = 1;

		if (s->listed) { /* combos counted by parse_points */
			s->per_block += s->combos[g];
			continue;
		}
		for (k = 0; k < s->nr_tun; k++)
			if (cfgrec_set_applies(&s->tun[k].set, s->gov[g]))
				c *= (double)s->tun[k].n;
		if (c > 1e12)
			return jsonpos_fail(w, "tunables", "more than 10^12 points");
		s->combos[g] = (long)c;
		s->per_block += s->combos[g];
	}
	total = (double)s->per_block * s->nr_inputs * s->nr_machines * s->nr_hz * s->nr_lat;
	if (total > (double)SWEEP_MAX_POINTS && !force)
		return jsonpos_fail(w, "", "the sweep has %.0f points (more than %ld need --force)",
				    total, SWEEP_MAX_POINTS);
	if (total > 1e12)
		return jsonpos_fail(w, "", "the sweep has %.0f points (at most 10^12)", total);
	s->total = (long)total;
	return 0;
}

static int parse_root(const struct json_where *w, struct sweep_spec *s, bool force)
{
	static const char *const known[] = { "traces",	   "workloads", "machines",
					     "governors",  "tunables",	"points",
					     "hz",	   "latency_limits_us", "wake_latency",
					     "duration_s", "seed",	NULL };
	const char *names[RUN_MAX_ITEMS], *key;
	int64_t v[SWEEP_MAX_VALUES];
	json_t *x;
	char p[96];
	int i, n;

	if (!json_is_object(s->root))
		return jsonpos_fail(w, "", "a sweep spec must be a JSON object");
	json_object_foreach(s->root, key, x) {
		for (i = 0; known[i] && strcmp(known[i], key); i++)
			;
		if (!known[i])
			return jsonpos_fail(w, key, "unknown field '%s' (known: traces, workloads, "
					    "machines, governors, tunables, points, hz, "
					    "latency_limits_us, wake_latency, duration_s, seed)",
					    key);
	}
	x = json_object_get(s->root, "wake_latency");
	s->wake = WAKE_MODEL_DEFAULT;
	if (x && (!json_is_string(x) || wake_model_parse(json_string_value(x), &s->wake)))
		return jsonpos_fail(w, "wake_latency",
			    "wake_latency must be \"worst\", \"typical\" or \"measured\"");
	if (get_names(w, s->root, "traces", true, s->traces, &s->nr_traces) ||
	    parse_workloads(w, s))
		return -1;
	if (!s->nr_traces && !s->nr_wl)
		return jsonpos_fail(w, "", "missing required field 'traces' or 'workloads' (at "
				    "least one)");
	s->nr_inputs = s->nr_traces + s->nr_wl;
	if (get_names(w, s->root, "machines", false, s->machines, &s->nr_machines) ||
	    get_names(w, s->root, "governors", false, names, &n))
		return -1;
	for (i = 0; i < n; i++) {
		struct sim_error e = { 0 };

		if (json_is_string(json_object_get(s->root, "governors")))
			snprintf(p, sizeof(p), "governors"); /* one name, not a list */
		else
			snprintf(p, sizeof(p), "governors[%d]", i);
		s->gov[i] = kgov_find(names[i], stderr, &e);
		if (!s->gov[i] && e.code != SIM_OK)
			return jsonpos_fail(w, p, "%s: %s", names[i], e.text);
		if (!s->gov[i])
			return jsonpos_fail(w, p, "unknown governor '%s' (see idlesim governors)",
					    names[i]);
	}
	s->nr_gov = n;
	if (get_ints(w, s->root, "hz", 1, 10000, false, v, &n))
		return -1;
	for (i = 0; i < n; i++)
		s->hz[i] = (int)v[i];
	s->nr_hz = n ? n : 1; /* 0: the trace's */
	if (get_ints(w, s->root, "latency_limits_us", 0, 1000000000, true, v, &n))
		return -1;
	for (i = 0; i < n; i++)
		s->lat_ns[i] = v[i] < 0 ? -1 : v[i] * SIM_NS_PER_US;
	if (!n)
		s->lat_ns[0] = -1;
	s->nr_lat = n ? n : 1;
	return parse_tunables(w, s, force) || parse_points(w, s) || count_points(w, s, force);
}

struct sweep_spec *sweep_parse(const char *text, const char *source, bool force,
			       struct sim_error *err)
{
	struct sweep_spec *s = sim_calloc(1, sizeof(*s));
	json_error_t je;
	char msg[4 * JSON_ERROR_TEXT_LENGTH];
	struct json_where w;

	if (!s) {
		sim_error_nomem(err, source);
		return NULL;
	}
	s->text = sim_malloc(strlen(text) + 1);
	if (s->text)
		memcpy(s->text, text, strlen(text) + 1);
	snprintf(s->source, sizeof(s->source), "%s", source);
	w = (struct json_where){ s->source, s->text, err, NULL };
	if (!s->text) {
		sim_error_nomem(err, source);
		sweep_free(s);
		return NULL;
	}
	cfgrec_hex(s->hash, cfgrec_fnv1a(CFGREC_FNV_OFFSET, text, strlen(text)));
	if (sim_has_bom(text, strlen(text))) {
		sim_error_set(err, SIM_ERR_INPUT, source, 1, 1, SIM_BOM_MESSAGE);
		sweep_free(s);
		return NULL;
	}
	s->root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!s->root) {
		sim_error_set(err, SIM_ERR_INPUT, source, je.line > 0 ? je.line : 0,
			      je.line > 0 ? (je.column > 0 ? je.column : 1) : 0, "%s",
			      jsonpos_clean_message(msg, sizeof(msg), je.text));
		sweep_free(s);
		return NULL;
	}
	if (parse_root(&w, s, force)) {
		sweep_free(s);
		return NULL;
	}
	return s;
}

/* A spec file whole (at most SPEC_FILE_MAX + 1 bytes are read); *len its length. */
static char *slurp(const char *path, size_t *len, struct sim_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f) {
		sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	buf = sim_malloc(SPEC_FILE_MAX + 2);
	if (!buf) {
		fclose(f);
		sim_error_nomem(err, path);
		return NULL;
	}
	*len = fread(buf, 1, SPEC_FILE_MAX + 1, f);
	buf[*len] = '\0';
	if (ferror(f)) {
		sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
		sim_free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

struct sweep_spec *sweep_load(const char *path, bool force, struct sim_error *err)
{
	struct sweep_spec *s = NULL;
	size_t n;
	char *buf = slurp(path, &n, err);

	if (!buf)
		return NULL;
	if (n > SPEC_FILE_MAX || memchr(buf, '\0', n))
		sim_error_set(err, SIM_ERR_INPUT, path, 0, 0,
			      "not a sweep spec (larger than 1 MiB, or a NUL byte)");
	else
		s = sweep_parse(buf, path, force, err);
	sim_free(buf);
	return s;
}

void sweep_free(struct sweep_spec *s)
{
	int k;

	if (!s)
		return;
	for (k = 0; k < s->nr_tun; k++)
		sim_free(s->tun[k].values);
	for (k = 0; k < RUN_MAX_ITEMS; k++)
		sim_free(s->listed_of[k]);
	sim_free(s->listed);
	json_decref(s->root);
	sim_free(s->text);
	sim_free(s);
}

long sweep_total(const struct sweep_spec *s)
{
	return s->total;
}

/* ---- the points ---- */

void sweep_point_request(const struct sweep_spec *s, long i, struct run_request *q,
			 const struct sweep_workload **wl)
{
	long b = i / s->per_block, r = i % s->per_block, c;
	int g, k, in;

	run_request_defaults(q);
	q->nr_traces = q->nr_machines = q->nr_governors = 1;
	q->latency_req_ns = s->lat_ns[b % s->nr_lat];
	q->wake_model = s->wake;
	b /= s->nr_lat;
	q->hz = s->hz[b % s->nr_hz]; /* 0 when the spec gives none: the trace's */
	b /= s->nr_hz;
	q->machines[0] = s->machines[b % s->nr_machines];
	in = (int)(b / s->nr_machines);
	*wl = in < s->nr_traces ? NULL : &s->wl[in - s->nr_traces];
	q->traces[0] = in < s->nr_traces ? s->traces[in] : NULL;
	for (g = 0; r >= s->combos[g]; g++)
		r -= s->combos[g];
	q->governors[0] = s->gov[g]->name;
	if (s->listed) {
		const struct sweep_listed *l = &s->listed[s->listed_of[g][r]];

		memcpy(q->sets, l->sets, (size_t)l->n * sizeof(l->sets[0]));
		q->nr_sets = l->n;
		return;
	}
	/* the last listed tunable varies fastest */
	for (k = s->nr_tun - 1; k >= 0; k--) {
		if (!cfgrec_set_applies(&s->tun[k].set, s->gov[g]))
			continue;
		c = s->tun[k].n;
		q->sets[q->nr_sets] = s->tun[k].set;
		q->sets[q->nr_sets++].value = s->tun[k].values[r % c];
		r /= c;
	}
}
