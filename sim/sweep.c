// SPDX-License-Identifier: GPL-2.0-only
/*
 * sweep.c - idlesim sweep (see sweep.h): the spec, the points, resume, shards, merge.
 *
 * Point order: trace, machine, HZ, latency limit, governor (slowest first), then the
 * values of the tunables that apply to the governor, the last listed fastest. A point's
 * index is its place in this order; it names the point in the results and in shards.
 */
#include "sim/sweep.h"
#include "sim/kgov.h"
#include "sim/alloc.h"
#include "sim/cfgrec.h"
#include "sim/common.h"
#include "sim/jsonpos.h"
#include "sim/outfile.h"
#include "sim/report.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define SPEC_FILE_MAX (1 << 20)

struct sweep_tunable {
	struct run_set set; /* family, name; value per point */
	long long *values;
	long n;
};

struct sweep_spec {
	char *text;
	char source[512];
	char hash[17];
	json_t *root; /* owns the strings below */
	const char *traces[RUN_MAX_ITEMS], *machines[RUN_MAX_ITEMS];
	int nr_traces, nr_machines;
	const struct cpuidle_governor *gov[RUN_MAX_ITEMS];
	int nr_gov;
	int hz[SWEEP_MAX_VALUES], nr_hz;
	int64_t lat_ns[SWEEP_MAX_VALUES];
	int nr_lat;
	enum wake_model wake; /* "wake_latency": one model for every point */
	struct sweep_tunable tun[RUN_MAX_SETS];
	int nr_tun;
	long combos[RUN_MAX_ITEMS]; /* per governor: product of its tunables' counts */
	long per_block;		    /* sum of combos */
	long total;
};

struct where {
	const char *source, *text;
	struct sim_error *err;
	const char *key; /* the tunable being parsed, or NULL */
};

/*
 * jsonpos paths separate members by '.', which tunable keys contain ("menu.decay"): an
 * error inside a tunable points at its value, found after its quoted key.
 */
static int fail(const struct where *w, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(const struct where *w, const char *path, const char *fmt, ...)
{
	char msg[sizeof(w->err->text)], q[96];
	const char *at = NULL, *c;
	int line = 1, col = 1;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	if (!w->key) {
		rc = jsonpos_fail_v(w->err, w->source, w->text, path, fmt, ap);
		va_end(ap);
		return rc;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(q, sizeof(q), "\"%s\"", w->key);
	for (c = strstr(w->text, q); c && !at; c = strstr(c + 1, q)) {
		const char *v = c + strlen(q) + strspn(c + strlen(q), " \t\r\n");

		if (*v == ':')
			at = v + 1 + strspn(v + 1, " \t\r\n");
	}
	for (c = w->text; at && c < at; c++, col++)
		if (*c == '\n') {
			line++;
			col = 0;
		}
	return sim_error_set(w->err, SIM_ERR_INPUT, w->source, at ? line : 0, at ? col : 0, "%s",
			     msg);
}

/* A list of non-empty strings (or one string) at key; required. */
static int get_names(const struct where *w, json_t *root, const char *key, const char **out,
		     int *n)
{
	json_t *v = json_object_get(root, key), *x;
	char p[64];
	size_t i;

	*n = 0;
	if (!v)
		return fail(w, "", "missing required field '%s'", key);
	if (json_is_string(v))
		v = root; /* handled below as a one-element list */
	if (v == root) {
		out[(*n)++] = json_string_value(json_object_get(root, key));
		return 0;
	}
	if (!json_is_array(v) || !json_array_size(v))
		return fail(w, key, "%s must be a non-empty list of names", key);
	json_array_foreach(v, i, x) {
		snprintf(p, sizeof(p), "%s[%zu]", key, i);
		if (!json_is_string(x) || !json_string_length(x))
			return fail(w, p, "%s must be a non-empty string", p);
		if (*n == RUN_MAX_ITEMS)
			return fail(w, p, "%s: at most %d entries", key, RUN_MAX_ITEMS);
		out[(*n)++] = json_string_value(x);
	}
	return 0;
}

/* An optional list of integers in lo..hi (null allowed as `none` when none_ok). */
static int get_ints(const struct where *w, json_t *root, const char *key, int64_t lo,
		    int64_t hi, bool none_ok, int64_t *out, int *n)
{
	json_t *v = json_object_get(root, key), *x;
	char p[64];
	size_t i;

	*n = 0;
	if (!v)
		return 0;
	if (!json_is_array(v) || !json_array_size(v))
		return fail(w, key, "%s must be a non-empty list", key);
	json_array_foreach(v, i, x) {
		snprintf(p, sizeof(p), "%s[%zu]", key, i);
		if (*n == SWEEP_MAX_VALUES)
			return fail(w, p, "%s: at most %d values", key, SWEEP_MAX_VALUES);
		if (none_ok && json_is_null(x)) {
			out[(*n)++] = -1;
			continue;
		}
		if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi)
			return fail(w, p, "%s must be an integer in %lld..%lld%s", p, (long long)lo,
				    (long long)hi, none_ok ? " or null" : "");
		out[(*n)++] = json_integer_value(x);
	}
	return 0;
}

static int range_field(const struct where *w, json_t *r, const char *path, const char *k,
		       long long *out)
{
	json_t *v = json_object_get(r, k);
	char p[160];

	snprintf(p, sizeof(p), "%s.%s", path, k);
	if (!json_is_integer(v))
		return fail(w, json_is_null(v) || v ? p : path, "%s must be an integer", p);
	*out = json_integer_value(v);
	return 0;
}

/* A tunable's values: a list of integers, or {"from", "to", "step"}. */
static int tunable_values(const struct where *w, json_t *v, const char *path,
			  struct sweep_tunable *t, bool force)
{
	long long from, to, step, k;
	const char *key;
	json_t *x;
	size_t i;
	char p[160];

	if (json_is_array(v)) {
		if (!json_array_size(v))
			return fail(w, path, "%s: an empty list of values", path);
		t->values = sim_calloc(json_array_size(v), sizeof(*t->values));
		if (!t->values)
			return sim_error_nomem(w->err, w->source);
		json_array_foreach(v, i, x) {
			snprintf(p, sizeof(p), "%s[%zu]", path, i);
			if (!json_is_integer(x))
				return fail(w, p, "%s must be an integer", p);
			t->values[t->n++] = json_integer_value(x);
		}
		return 0;
	}
	if (!json_is_object(v))
		return fail(w, path, "%s must be a list of values or {\"from\", \"to\", \"step\"}",
			    path);
	json_object_foreach(v, key, x)
		if (strcmp(key, "from") && strcmp(key, "to") && strcmp(key, "step")) {
			snprintf(p, sizeof(p), "%s.%s", path, key);
			return fail(w, p, "%s: unknown field '%s' (known: from, to, step)", path,
				    key);
		}
	if (range_field(w, v, path, "from", &from) || range_field(w, v, path, "to", &to) ||
	    range_field(w, v, path, "step", &step))
		return -1;
	snprintf(p, sizeof(p), "%s.step", path);
	if (step <= 0)
		return fail(w, p, "%s must be positive", p);
	if (to < from)
		return fail(w, path, "%s: an empty range (to %lld < from %lld)", path, to, from);
	k = (to - from) / step + 1;
	if (k > SWEEP_MAX_POINTS && !force)
		return fail(w, path, "%s: %lld values (more than %ld need --force)", path, k,
			    SWEEP_MAX_POINTS);
	t->values = sim_calloc((size_t)k, sizeof(*t->values));
	if (!t->values)
		return sim_error_nomem(w->err, w->source);
	for (t->n = 0; t->n < k; t->n++)
		t->values[t->n] = from + t->n * step;
	return 0;
}

static int parse_tunables(const struct where *w0, struct sweep_spec *s, bool force)
{
	struct where wk = *w0, *w = &wk;
	json_t *obj = json_object_get(s->root, "tunables"), *v;
	const char *key, *dot;
	char p[160];
	long i;
	int g;

	if (!obj)
		return 0;
	if (!json_is_object(obj))
		return fail(w, "tunables", "tunables must be an object {\"FAMILY.NAME\": values}");
	json_object_foreach(obj, key, v) {
		struct sweep_tunable *t = &s->tun[s->nr_tun];
		bool applies = false;

		snprintf(p, sizeof(p), "tunables.%s", key);
		wk.key = key;
		dot = strchr(key, '.');
		if (s->nr_tun == RUN_MAX_SETS)
			return fail(w, p, "at most %d tunables", RUN_MAX_SETS);
		if (!dot || dot == key || !dot[1] || (size_t)(dot - key) >= sizeof(t->set.family) ||
		    strlen(dot + 1) >= sizeof(t->set.name))
			return fail(w, p, "tunable '%s' must be FAMILY.NAME", key);
		snprintf(t->set.family, sizeof(t->set.family), "%.*s", (int)(dot - key), key);
		snprintf(t->set.name, sizeof(t->set.name), "%s", dot + 1);
		s->nr_tun++;
		for (g = 0; g < s->nr_gov; g++)
			applies |= cfgrec_set_applies(&t->set, s->gov[g]);
		if (!applies)
			return fail(w, p, "unknown tunable '%s': none of the sweep's governors has it "
					  "(see idlesim governors)", key);
		if (tunable_values(w, v, p, t, force))
			return -1;
		/* range-checked against every governor it applies to */
		for (g = 0; g < s->nr_gov; g++) {
			int k = gov_param_index(s->gov[g], t->set.name);

			if (!cfgrec_set_applies(&t->set, s->gov[g]))
				continue;
			for (i = 0; i < t->n; i++)
				if (t->values[i] < s->gov[g]->params[k].min ||
				    t->values[i] > s->gov[g]->params[k].max)
					return fail(w, p, "%s=%lld: out of range for %s (%lld..%lld)",
						    key, t->values[i], s->gov[g]->name,
						    s->gov[g]->params[k].min,
						    s->gov[g]->params[k].max);
		}
	}
	return 0;
}

/* The number of points, refusing more than SWEEP_MAX_POINTS without force. */
static int count_points(const struct where *w, struct sweep_spec *s, bool force)
{
	double total;
	int g, k;

	s->per_block = 0;
	for (g = 0; g < s->nr_gov; g++) {
		double c = 1;

		for (k = 0; k < s->nr_tun; k++)
			if (cfgrec_set_applies(&s->tun[k].set, s->gov[g]))
				c *= (double)s->tun[k].n;
		if (c > 1e12)
			return fail(w, "tunables", "more than 10^12 points");
		s->combos[g] = (long)c;
		s->per_block += s->combos[g];
	}
	total = (double)s->per_block * s->nr_traces * s->nr_machines * s->nr_hz * s->nr_lat;
	if (total > (double)SWEEP_MAX_POINTS && !force)
		return fail(w, "", "the sweep has %.0f points (more than %ld need --force)", total,
			    SWEEP_MAX_POINTS);
	if (total > 1e12)
		return fail(w, "", "the sweep has %.0f points (at most 10^12)", total);
	s->total = (long)total;
	return 0;
}

static int parse_root(const struct where *w, struct sweep_spec *s, bool force)
{
	static const char *const known[] = { "traces",	  "machines",	       "governors",
					     "tunables", "hz",		       "latency_limits_us",
					     "wake_latency", NULL };
	const char *names[RUN_MAX_ITEMS], *key;
	int64_t v[SWEEP_MAX_VALUES];
	json_t *x;
	char p[96];
	int i, n;

	if (!json_is_object(s->root))
		return fail(w, "", "a sweep spec must be a JSON object");
	json_object_foreach(s->root, key, x) {
		for (i = 0; known[i] && strcmp(known[i], key); i++)
			;
		if (!known[i])
			return fail(w, key, "unknown field '%s' (known: traces, machines, governors, "
					    "tunables, hz, latency_limits_us, wake_latency)", key);
	}
	x = json_object_get(s->root, "wake_latency");
	s->wake = WAKE_MODEL_DEFAULT;
	if (x && (!json_is_string(x) || wake_model_parse(json_string_value(x), &s->wake)))
		return fail(w, "wake_latency",
			    "wake_latency must be \"worst\", \"typical\" or \"measured\"");
	if (get_names(w, s->root, "traces", s->traces, &s->nr_traces) ||
	    get_names(w, s->root, "machines", s->machines, &s->nr_machines) ||
	    get_names(w, s->root, "governors", names, &n))
		return -1;
	for (i = 0; i < n; i++) {
		struct sim_error e = { 0 };

		snprintf(p, sizeof(p), "governors[%d]", i);
		s->gov[i] = kgov_find(names[i], stderr, &e);
		if (!s->gov[i] && e.code != SIM_OK)
			return fail(w, json_is_string(json_object_get(s->root, "governors")) ? "governors" : p,
				    "%s: %s", names[i], e.text);
		if (!s->gov[i])
			return fail(w, json_is_string(json_object_get(s->root, "governors")) ? "governors" : p,
				    "unknown governor '%s' (see idlesim governors)", names[i]);
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
	return parse_tunables(w, s, force) || count_points(w, s, force);
}

struct sweep_spec *sweep_parse(const char *text, const char *source, bool force,
			       struct sim_error *err)
{
	struct sweep_spec *s = sim_calloc(1, sizeof(*s));
	json_error_t je;
	char msg[4 * JSON_ERROR_TEXT_LENGTH];
	struct where w;

	if (!s) {
		sim_error_nomem(err, source);
		return NULL;
	}
	s->text = sim_malloc(strlen(text) + 1);
	if (s->text)
		memcpy(s->text, text, strlen(text) + 1);
	snprintf(s->source, sizeof(s->source), "%s", source);
	w = (struct where){ s->source, s->text, err, NULL };
	if (!s->text) {
		sim_error_nomem(err, source);
		sweep_free(s);
		return NULL;
	}
	cfgrec_hex(s->hash, cfgrec_fnv1a(CFGREC_FNV_OFFSET, text, strlen(text)));
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

static char *slurp(const char *path, size_t *len, bool missing_ok, struct sim_error *err);

struct sweep_spec *sweep_load(const char *path, bool force, struct sim_error *err)
{
	struct sweep_spec *s = NULL;
	size_t n;
	char *buf = slurp(path, &n, false, err);

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
	json_decref(s->root);
	sim_free(s->text);
	sim_free(s);
}

long sweep_total(const struct sweep_spec *s)
{
	return s->total;
}

/* ---- running points ---- */

/* The request of point i, and its --set options in point order. */
static void point_request(const struct sweep_spec *s, long i, struct run_request *q)
{
	long b = i / s->per_block, r = i % s->per_block, c;
	int g, k;

	run_request_defaults(q);
	q->nr_traces = q->nr_machines = q->nr_governors = 1;
	q->latency_req_ns = s->lat_ns[b % s->nr_lat];
	q->wake_model = s->wake;
	b /= s->nr_lat;
	q->hz = s->hz[b % s->nr_hz]; /* 0 when the spec gives none: the trace's */
	b /= s->nr_hz;
	q->machines[0] = s->machines[b % s->nr_machines];
	q->traces[0] = s->traces[b / s->nr_machines];
	for (g = 0; r >= s->combos[g]; g++)
		r -= s->combos[g];
	q->governors[0] = s->gov[g]->name;
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

static json_t *metrics_json(const struct run_result *r)
{
	const struct run_stats *rs = &r->stats;
	struct stats_summary m;
	double dur = run_duration_s(rs);

	stats_summarize(rs, &rs->total, rs->nr_cpus, &m);
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:f, s:f}", "energy_j", rs->energy_j,
			 "avg_power_w", dur > 0 ? rs->energy_j / dur : 0.0, "above_pct",
			 m.above_pct, "below_pct", m.below_pct, "hits_pct", m.hits_pct,
			 "wake_latency_mean_ns", m.lat_mean_ns, "wake_latency_p99_ns",
			 (json_int_t)m.lat_p99_ns, "regret_energy_j", r->regret_energy_j,
			 "regret_wake_latency_mean_ns", r->regret_lat_mean_ns);
}

/* Run point i; *line is its JSON line with the newline (free it). */
static int run_point(const struct sweep_spec *s, long i, char **line, struct sim_error *err)
{
	struct run_request q;
	struct run_results res;
	json_t *o;
	char *text;

	point_request(s, i, &q);
	if (run_grid(&q, &res, err))
		return -1;
	o = json_pack("{s:s, s:s, s:I, s:I, s:o, s:o}", "spec", s->hash, "idlesim_version",
		      IDLESIM_VERSION, "index", (json_int_t)i, "total", (json_int_t)s->total,
		      "config", report_config_json(&res.r[0]), "metrics", metrics_json(&res.r[0]));
	run_results_free(&res);
	text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))
		 : NULL;
	json_decref(o);
	if (!text)
		return sim_error_nomem(err, "");
	*line = sim_malloc(strlen(text) + 2);
	if (!*line) {
		free(text);
		return sim_error_nomem(err, "");
	}
	sprintf(*line, "%s\n", text);
	free(text);
	return 0;
}

/* ---- reading results ---- */

struct line_info {
	long index, total;
	char spec[17], version[32];
};

/* Parse one complete result line. Returns 0, or -1 with err set at source:lineno. */
static int parse_line(const char *text, size_t len, const char *source, long lineno,
		      struct line_info *li, struct sim_error *err)
{
	json_error_t je;
	json_t *o = json_loadb(text, len, 0, &je);
	const char *spec, *ver;
	json_int_t idx = -1, tot = -1;
	int rc = -1;

	if (o && !json_unpack(o, "{s:s, s:s, s:I, s:I}", "spec", &spec, "idlesim_version", &ver,
			       "index", &idx, "total", &tot) &&
	    idx >= 0 && idx < tot && strlen(spec) == 16) {
		li->index = (long)idx;
		li->total = (long)tot;
		snprintf(li->spec, sizeof(li->spec), "%s", spec);
		snprintf(li->version, sizeof(li->version), "%s", ver);
		rc = 0;
	} else {
		sim_error_set(err, SIM_ERR_INPUT, source, (int)lineno, 1,
			      "not a sweep result line (spec, idlesim_version, index, total)");
	}
	json_decref(o);
	return rc;
}

/* Read a whole file; *len its length. NULL with err set (a missing file is not an error
 * when missing_ok: *text is then an empty string). */
static char *slurp(const char *path, size_t *len, bool missing_ok, struct sim_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *n;
	size_t cap = 0, k;

	*len = 0;
	if (!f && missing_ok && errno == ENOENT)
		return sim_calloc(1, 1);
	if (!f) {
		sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	do {
		if (*len + 65536 + 1 > cap) {
			cap = cap ? 2 * cap : 65536 * 2;
			n = sim_realloc(buf, cap);
			if (!n) {
				sim_free(buf);
				fclose(f);
				sim_error_nomem(err, path);
				return NULL;
			}
			buf = n;
		}
		k = fread(buf + *len, 1, 65536, f);
		*len += k;
	} while (k > 0);
	buf[*len] = '\0';
	if (ferror(f)) {
		sim_error_set(err, SIM_ERR_IO, path, 0, 0, "cannot read: %s", strerror(errno));
		sim_free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/*
 * Walk the complete lines of a results file: each is parsed and passed to fn. *complete is
 * the length up to the last newline (a partial last line is what a kill leaves).
 */
typedef int line_fn(void *ud, const struct line_info *li, const char *line, size_t len,
		    long lineno, struct sim_error *err);

static int each_line(const char *text, size_t len, const char *source, size_t *complete,
		     line_fn *fn, void *ud, struct sim_error *err)
{
	size_t at = 0;
	long lineno = 0;
	const char *nl;
	struct line_info li;

	while (at < len && (nl = memchr(text + at, '\n', len - at))) {
		size_t n = (size_t)(nl - (text + at));

		lineno++;
		if (parse_line(text + at, n, source, lineno, &li, err) ||
		    fn(ud, &li, text + at, n + 1, lineno, err))
			return -1;
		at += n + 1;
	}
	*complete = at;
	return 0;
}

struct resume {
	const struct sweep_spec *s;
	const char *source;
	unsigned char *done;
};

static int resume_line(void *ud, const struct line_info *li, const char *line, size_t len,
		       long lineno, struct sim_error *err)
{
	struct resume *r = ud;

	(void)line;
	(void)len;
	if (strcmp(li->spec, r->s->hash) || strcmp(li->version, IDLESIM_VERSION) ||
	    li->total != r->s->total)
		return sim_error_set(err, SIM_ERR_INPUT, r->source, (int)lineno, 1,
				     "written by another spec or idlesim version (spec %s, "
				     "idlesim %s; this sweep: spec %s, idlesim %s)",
				     li->spec, li->version, r->s->hash, IDLESIM_VERSION);
	r->done[li->index] = 1;
	return 0;
}

/* ---- progress ---- */

void sweep_progress_text(char *buf, size_t n, long done, long total, double elapsed_s)
{
	double rate = elapsed_s > 0 ? (double)done / elapsed_s : 0;

	if (!done || rate <= 0)
		snprintf(buf, n, "%ld/%ld points", done, total);
	else
		snprintf(buf, n, "%ld/%ld points, %.3g/s, %.0fs left", done, total, rate,
			 (double)(total - done) / rate);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the pool ---- */

struct pool {
	const struct sweep_spec *s;
	const struct sweep_opts *o;
	const unsigned char *done;
	FILE *f;
	pthread_mutex_t lock;
	long next, ran, todo;
	double start_s;
	bool failed;
	struct sim_error err;
};

/* Under the lock: redraw the progress line. */
static void progress(struct pool *p)
{
	char line[128];

	if (!p->o->progress)
		return;
	sweep_progress_text(line, sizeof(line), p->ran, p->todo, now_s() - p->start_s);
	fprintf(p->o->progress, "\r%-60s", line);
	if (p->ran == p->todo)
		fputc('\n', p->o->progress);
	fflush(p->o->progress);
}

static void *worker(void *ud)
{
	struct pool *p = ud;
	struct sim_error err = { 0 };
	char *line;
	long i;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (p->next < p->s->total &&
		       (p->done[p->next] || p->next % p->o->nr_shards != p->o->shard))
			p->next++;
		i = p->failed ? p->s->total : p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->s->total)
			return NULL;
		if (run_point(p->s, i, &line, &err)) {
			pthread_mutex_lock(&p->lock);
			if (!p->failed)
				p->err = err;
			p->failed = true;
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		pthread_mutex_lock(&p->lock);
		/* appended and flushed whole: a kill loses at most the points in flight */
		if (fputs(line, p->f) == EOF || fflush(p->f)) {
			if (!p->failed)
				sim_error_set(&p->err, SIM_ERR_IO, "", 0, 0, "write error: %s",
					      strerror(errno));
			p->failed = true;
		} else {
			p->ran++;
			progress(p);
		}
		pthread_mutex_unlock(&p->lock);
		sim_free(line);
	}
}

/* Every machine loads and every trace opens before the results file is touched. */
static int check_inputs(const struct sweep_spec *s, struct sim_error *err)
{
	struct run_request q;
	struct machine m;
	FILE *f;
	int i;

	run_request_defaults(&q);
	q.wake_model = s->wake;
	for (i = 0; i < s->nr_machines; i++)
		if (run_load_machine(&q, s->machines[i], &m, err))
			return -1;
	for (i = 0; i < s->nr_traces; i++) {
		f = fopen(s->traces[i], "r");
		if (!f)
			return sim_error_set(err, SIM_ERR_INPUT, s->traces[i], 0, 0,
					     "cannot open: %s", strerror(errno));
		fclose(f);
	}
	return 0;
}

long sweep_run(const struct sweep_spec *s, const struct sweep_opts *o, const char *out,
	       struct sim_error *err)
{
	struct pool p = { .s = s, .o = o };
	struct resume r = { s, out, NULL };
	pthread_t th[256];
	size_t len, complete;
	char *text;
	int t, n = o->threads < 1 ? 1 : o->threads > 256 ? 256 : o->threads;
	long i;

	if (check_inputs(s, err))
		return -1;
	text = slurp(out, &len, true, err);
	if (!text)
		return -1;
	r.done = sim_calloc((size_t)s->total + 1, 1);
	if (!r.done || each_line(text, len, out, &complete, resume_line, &r, err)) {
		if (!r.done)
			sim_error_nomem(err, out);
		sim_free(text);
		sim_free(r.done);
		return -1;
	}
	sim_free(text);
	/* drop a partial last line: its point is run again */
	if (complete < len && truncate(out, (off_t)complete)) {
		sim_free(r.done);
		return sim_error_set(err, SIM_ERR_IO, out, 0, 0, "cannot truncate: %s",
				     strerror(errno));
	}
	p.f = fopen(out, "a");
	if (!p.f) {
		sim_free(r.done);
		return sim_error_set(err, SIM_ERR_IO, out, 0, 0, "cannot open: %s", strerror(errno));
	}
	p.done = r.done;
	for (i = 0; i < s->total; i++) /* the points this run will do */
		p.todo += !r.done[i] && i % o->nr_shards == o->shard;
	p.start_s = now_s();
	pthread_mutex_init(&p.lock, NULL);
	for (t = 0; t < n; t++)
		if (pthread_create(&th[t], NULL, worker, &p))
			break;
	if (!t)
		worker(&p);
	while (t-- > 0)
		pthread_join(th[t], NULL);
	pthread_mutex_destroy(&p.lock);
	sim_free(r.done);
	if (fclose(p.f) && !p.failed) {
		p.failed = true;
		sim_error_set(&p.err, SIM_ERR_IO, out, 0, 0, "write error: %s", strerror(errno));
	}
	if (p.failed) {
		*err = p.err;
		return -1;
	}
	return p.ran;
}

/* ---- merge ---- */

struct merged {
	const char *source;
	char spec[17], version[32];
	long total;
	const char **line; /* per index */
	size_t *len;
};

static int merge_line(void *ud, const struct line_info *li, const char *line, size_t len,
		      long lineno, struct sim_error *err)
{
	struct merged *m = ud;

	if (!m->line) {
		snprintf(m->spec, sizeof(m->spec), "%s", li->spec);
		snprintf(m->version, sizeof(m->version), "%s", li->version);
		m->total = li->total;
		m->line = sim_calloc((size_t)li->total, sizeof(*m->line));
		m->len = sim_calloc((size_t)li->total, sizeof(*m->len));
		if (!m->line || !m->len)
			return sim_error_nomem(err, m->source);
	}
	if (strcmp(li->spec, m->spec) || strcmp(li->version, m->version) || li->total != m->total)
		return sim_error_set(err, SIM_ERR_INPUT, m->source, (int)lineno, 1,
				     "a foreign shard: spec %s, idlesim %s, %ld points (the first "
				     "shard: spec %s, idlesim %s, %ld points)",
				     li->spec, li->version, li->total, m->spec, m->version, m->total);
	if (m->line[li->index])
		return sim_error_set(err, SIM_ERR_INPUT, m->source, (int)lineno, 1,
				     "point %ld is already in a shard", li->index);
	m->line[li->index] = line;
	m->len[li->index] = len;
	return 0;
}

int sweep_merge(const char *const *in, int n, const char *out, struct sim_error *err)
{
	struct merged m = { 0 };
	char **texts = sim_calloc((size_t)n + 1, sizeof(*texts));
	struct outfile of;
	size_t len, complete;
	long i;
	int k, rc = -1;

	if (!texts)
		return sim_error_nomem(err, "");
	for (k = 0; k < n; k++) {
		m.source = in[k];
		texts[k] = slurp(in[k], &len, false, err);
		if (!texts[k] || each_line(texts[k], len, in[k], &complete, merge_line, &m, err))
			goto out;
		if (complete < len) {
			sim_error_set(err, SIM_ERR_INPUT, in[k], 0, 0,
				      "ends in a partial line: rerun its shard to complete it");
			goto out;
		}
	}
	if (!m.line) {
		sim_error_set(err, SIM_ERR_INPUT, n ? in[0] : "", 0, 0, "no results to merge");
		goto out;
	}
	for (i = 0; i < m.total; i++)
		if (!m.line[i]) {
			sim_error_set(err, SIM_ERR_INPUT, "", 0, 0,
				      "point %ld of %ld is in no shard: the sweep is incomplete", i,
				      m.total);
			goto out;
		}
	if (outfile_open(&of, out, err))
		goto out;
	for (i = 0; i < m.total; i++)
		fwrite(m.line[i], 1, m.len[i], of.f);
	rc = ferror(of.f) ? outfile_fail(&of, err) : outfile_commit(&of, err);
out:
	for (k = 0; k < n; k++)
		sim_free(texts[k]);
	sim_free(texts);
	sim_free(m.line);
	sim_free(m.len);
	return rc;
}
